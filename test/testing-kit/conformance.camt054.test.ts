/**
 * camt.054 notifications in the kit (docs/testing.md, `--bank-camt054-path`; docs/rules.md C17):
 * the mock (`paysplit-check mock`) answers `POST /bank/camt054` through `parseCamt054` and
 * `receiveCamt054` — a row per transaction, a message sent again `duplicate`, a transaction sent
 * again in another message `duplicate`, a debit never applied, a document whose sums disagree
 * refused whole; without saxes it answers 501 saying how to install it, and the check then notes
 * that it could not drive it. The kit writes the notifications (`camt054Xml`), passes against the
 * mock, and catches two bugs planted in front of it (a message sent again applied again; a debit
 * read as a credit), each with a replay line that reproduces it. All on 127.0.0.1, ports 0. The
 * command runs on the wall clock here, as the mock does: bookings are dated by the command's clock,
 * and the mock refuses one older than 400 days by its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { camt054Xml, type Camt054Draft, type Camt054DraftEntry } from '../../src/bankFiles/camt054Writer.js'
import { startMock, type RunningMock } from '../../src/cli/mock/server.js'
import { curlLines } from '../../src/cli/output.js'
import { checkService, type ServiceResponse } from '../../src/conformance.js'
import { cli, invoice, plantedProxy, replayLineOf, type Plant } from '../support/mock.fixtures.js'
import { modelService } from '../support/conformance.planted.js'
import { shellWords } from '../support/cli.fixtures.js'

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ webhookRetryDelaysMs: [] })
})
afterAll(async () => {
  await mock.close()
})

const post = async (base: string, path: string, body: string, type: string): Promise<{ status: number; body: unknown }> => {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': type }, body })
  return { status: res.status, body: (await res.json()) as unknown }
}

const created = async (ext: string): Promise<{ id: string; kid: string }> => {
  const r = await post(mock.url, '/payments', JSON.stringify(invoice(ext)), 'application/json')
  expect(r.status).toBe(201)
  const p = (r.body as { paymentIntent: { paymentCreated: { paymentReferenceID: string; kid: string } } }).paymentIntent.paymentCreated
  return { id: p.paymentReferenceID, kid: p.kid }
}

const statusOf = async (id: string): Promise<unknown> =>
  ((await (await fetch(`${mock.url}/payments/${id}`)).json()) as { payment: { paymentCreated: { status: string } } }).payment.paymentCreated

const entry = (ref: string, creditDebit: 'CRDT' | 'DBIT', details: Camt054DraftEntry['details'], extra: Partial<Camt054DraftEntry> = {}): Camt054DraftEntry => ({
  accountServicerReference: ref,
  currency: 'NOK',
  creditDebit,
  bookingDate: new Date().toISOString().slice(0, 10),
  details,
  ...extra
})

const draftOf = (messageId: string, entries: ReadonlyArray<Camt054DraftEntry>): Camt054Draft => ({
  version: 'camt.054.001.08',
  messageId,
  createdAt: '2026-11-27T10:00:00',
  notifications: [{ account: 'NO9386011117947', entries }]
})

const camt = (xml: string): Promise<{ status: number; body: unknown }> => post(mock.url, '/bank/camt054', xml, 'application/xml')

describe('POST /bank/camt054 on the mock: parseCamt054 and receiveCamt054, nothing of its own', () => {
  it('a row per transaction; the message again: every row duplicate; its transaction in another message: duplicate; a debit never applied; broken sums: 400, nothing applied', async () => {
    const a = await created('camt-1')
    const b = await created('camt-2')
    const c = await created('camt-3')
    const first = draftOf('CAMT-MSG-1', [
      entry('E-1', 'CRDT', [{ transactionReference: 'T-1', amount: '100.00', creditorReferences: [a.kid] }, { transactionReference: 'T-2', amount: '5.00', creditorReferences: ['12345674'] }], { batch: true }),
      entry('E-2', 'DBIT', [{ transactionReference: 'T-3', amount: '100.00', creditorReferences: [b.kid] }]),
      entry('E-3', 'CRDT', [{ transactionReference: 'T-4', amount: '100.00', creditorReferences: [b.kid] }], { reversal: true })
    ])
    const xml = camt054Xml(first)
    expect(await camt(xml)).toMatchObject({
      status: 200,
      body: {
        messageId: 'CAMT-MSG-1',
        duplicate: false,
        report: [
          { transactionNumber: 1, kid: a.kid, amount: 10000, outcome: 'matched', paymentReferenceID: a.id },
          { transactionNumber: 2, kid: '12345674', amount: 500, outcome: 'unmatched', unmatchedTransferID: expect.any(String) as unknown },
          { transactionNumber: 3, kid: b.kid, amount: 10000, outcome: 'refused', error: { code: 'ValidationFailed' } }
        ]
      }
    })
    expect(await statusOf(a.id)).toMatchObject({ status: 'Charged' })
    // the debit (not in the report) and the reversal paid nothing
    expect(await statusOf(b.id)).toMatchObject({ status: 'Initiated' })
    expect(await camt(xml)).toMatchObject({ status: 200, body: { duplicate: true, report: [{ outcome: 'duplicate' }, { outcome: 'duplicate' }, { outcome: 'duplicate' }] } })
    expect(await camt(camt054Xml({ ...first, messageId: 'CAMT-MSG-2' }))).toMatchObject({ status: 200, body: { duplicate: false, report: [{ outcome: 'duplicate' }, { outcome: 'duplicate' }, { outcome: 'duplicate' }] } })
    // sums that disagree: refused whole, naming the element and the rule
    const broken = camt054Xml(draftOf('CAMT-MSG-3', [entry('E-9', 'CRDT', [{ transactionReference: 'T-9', amount: '100.00', creditorReferences: [c.kid] }])])).replace('<Ntry><Amt Ccy="NOK">100.00</Amt>', '<Ntry><Amt Ccy="NOK">100.01</Amt>')
    const refused = await camt(broken)
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('"rule":"entry-sum"')
    expect(await statusOf(c.id)).toMatchObject({ status: 'Initiated' })
  })

  it('without saxes: the mock still starts, says so, and answers POST /bank/camt054 with 501 and how to install it; the check notes it could not drive it', async () => {
    const lost = new Error("Cannot find package 'saxes' imported from camt054.js")
    const bare = await startMock({ webhookRetryDelaysMs: [], loadCamt054: () => Promise.reject(new Error(`Reading camt.054 notifications needs the saxes package, which is not installed: npm install saxes (${lost.message})`)) })
    try {
      expect(bare.camt054Unavailable).toMatch(/^Reading camt\.054 notifications needs the saxes package, which is not installed: npm install saxes/)
      const res = await fetch(`${bare.url}/bank/camt054`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<Document/>' })
      expect(res.status).toBe(501)
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'NotImplemented', message: expect.stringContaining('npm install saxes') as unknown } })
      const run = await cli([bare.url, '--runs', '10', '--seed', '1', '--kinds', 'invoice', '--bank-camt054-path', '/bank/camt054'], { wallClock: true })
      expect(run.code).toBe(0)
      expect(run.out).toMatch(/^Note: The receiveCamt054 hook could not drive the service \d+ time\(s\) of \d+ \(POST \/bank\/camt054 answered 501;/m)
    } finally {
      await bare.close()
    }
  })
})

describe('the kit drives camt.054 notifications (--bank-camt054-path)', () => {
  it('passes against the mock: its report rows and the payments after each notification are the model’s', async () => {
    const t0 = performance.now()
    const run = await cli([mock.url, '--runs', '100', '--seed', '21', '--kinds', 'invoice', '--bank-camt054-path', '/bank/camt054', '--bank-key-env', 'BANK_KEY', '--webhooks', '--grace', '2000'], { env: { BANK_KEY: 'any' }, wallClock: true })
    const ms = performance.now() - t0
    expect({ code: run.code, out: run.code === 0 ? '' : run.out }).toEqual({ code: 0, out: '' })
    expect(run.out).not.toContain('Note:')
    expect(run.out).toMatch(/outside events: camt054 duplicate, camt054 matched, camt054 refused, camt054 unmatched;/)
    expect(run.out).toMatch(/^ {2}invoice Initiated +.* \d+\/\d+$/m)
    console.log(`the kit's 100 runs with camt.054 notifications against the mock: ${(ms / 1000).toFixed(1)} s`)
  })

  it('in process: a service that takes a notification whose sums disagree fails the run; a hook that answers no report is judged by the states after it, and a note says so', async () => {
    const model = modelService()
    const { send, reset } = model
    const receive = model.receiveCamt054 as (xml: string) => Promise<ServiceResponse>
    const lenient = await checkService({
      send,
      reset,
      kinds: ['invoice'],
      numRuns: 200,
      seed: 3,
      now: () => Date.UTC(2030, 0, 1), // the model service's day: bookings dated by it
      receiveCamt054: async (xml) => {
        const answer = await receive(xml)
        return answer.status === 400 ? { status: 200, body: { report: [] } } : answer
      }
    })
    expect(lenient.ok).toBe(false)
    if (!lenient.ok) expect(lenient.counterexample).toMatch(/✗ the service took a camt\.054 notification whose sums disagree \(its answer: \{"report":\[\]\}\); the model refuses it whole and applies nothing of it$/)
    // the same seed as the lenient one, whose failure is a broken document: a hook that answers nothing is not blamed for it
    const silent = await checkService({ send, reset, kinds: ['invoice'], numRuns: 200, seed: 3, now: () => Date.UTC(2030, 0, 1), receiveCamt054: async (xml) => { await receive(xml) } })
    expect(silent).toMatchObject({ ok: true })
    expect(silent.notes.join('\n')).toMatch(/^The receiveCamt054 hook's answers carried no report rows \d+ time\(s\)/m)
  })

  it('the curl reproducer posts the notification as sent, with the bank key by its variable', () => {
    const lines = curlLines([{ kind: 'event', event: 'camt054', paymentReferenceID: 'p-1', text: '<Document/>\n' }], { base: 'http://127.0.0.1:8080', bankKeyVariable: 'BANK_KEY', bankCamt054Path: '/bank/camt054' })
    expect(lines).toEqual([`curl -sS -X POST 'http://127.0.0.1:8080/bank/camt054' -H "authorization: Bearer $BANK_KEY" -H 'content-type: application/xml' --data-binary @- <<'CAMT054'\n<Document/>\nCAMT054`])
  })

  /** Two bugs of a camt.054 importer, planted in a proxy in front of the mock. */
  const planted: ReadonlyArray<{ readonly name: string; readonly plant: Plant; readonly expected: RegExp }> = [
    {
      name: 'a message sent again is applied again (the importer forgets what it applied)',
      // each post looks new to the mock: its message id and references made unique
      plant: (() => {
        let n = 0
        return {
          request: (r) => {
            if (!r.path.startsWith('/bank/camt054')) return r
            n += 1
            return { ...r, body: r.body.replace(/<(MsgId|AcctSvcrRef)>([^<]*)<\/\1>/g, (_, tag: string, v: string) => `<${tag}>${v}-${String(n)}</${tag}>`) }
          }
        }
      })(),
      expected: /✗ the camt\.054 report differs\n.*\n.*\n {2}at row \d+: expected \{.*"outcome":"duplicate"/
    },
    {
      name: 'a debit read as a credit (the importer ignores CdtDbtInd)',
      plant: {
        request: (r) => (r.path.startsWith('/bank/camt054') ? { ...r, body: r.body.replace(/<TxsSummry>.*?<\/TxsSummry>/g, '').replaceAll('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>CRDT</CdtDbtInd>') } : r)
      },
      expected: /✗ the camt\.054 report differs/
    }
  ]

  for (const bug of planted) {
    it(`catches a planted bug, and its replay line reproduces it: ${bug.name}`, async () => {
      const proxy = await plantedProxy(mock.url, bug.plant)
      try {
        const t0 = performance.now()
        const found = await cli([proxy.base, '--runs', '200', '--seed', '4', '--kinds', 'invoice', '--bank-camt054-path', '/bank/camt054', '--max-shrink-seconds', '20'], { wallClock: true })
        const t1 = performance.now()
        expect(found.code, found.out).toBe(1)
        expect(found.out).toMatch(bug.expected)
        expect(found.out).toMatch(/curl -sS -X POST '[^']+\/bank\/camt054' -H 'content-type: application\/xml' --data-binary @- <<'CAMT054'\n<\?xml/)
        const line = replayLineOf(found.out)
        expect(line).toContain('--bank-camt054-path /bank/camt054')
        expect(line).toMatch(/ --seed=\d+ --path '[^']+'$/)
        const counterexample = found.out.slice(found.out.indexOf('Counterexample (shrunk):'), found.out.indexOf('Replay with'))
        const replays = []
        for (let i = 0; i < 3; i++) replays.push(await cli(shellWords(line).slice(2), { wallClock: true }))
        expect(replays.map((r) => [r.code, /^(REPRODUCED|NOT REPRODUCED):/m.exec(r.out)?.[1], r.out.includes(counterexample)])).toEqual(Array.from({ length: 3 }, () => [1, 'REPRODUCED', true]))
        console.log(`${bug.name}: found and shrunk in ${((t1 - t0) / 1000).toFixed(1)} s, 3 replays in ${((performance.now() - t1) / 1000).toFixed(1)} s`)
      } finally {
        await proxy.close()
      }
    })
  }
})
