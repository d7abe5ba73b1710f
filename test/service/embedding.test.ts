/**
 * The embedding example (docs/examples/embedding), started as its file starts it (PGlite in
 * memory; a fresh database on the PostgreSQL server under `npm run test:postgres`; port 0):
 * `paysplit-check` passes against it with every option the command has for a service (webhooks
 * with their Standard Webhooks signatures checked, the hosted form's complete and fail through its
 * page, bank transfers, retries with Idempotency-Key, test environments, messages compared, races);
 * requests at once on one payment or one new customer lose no update;
 * OCR giro files (the command has no option for them) are applied once, unmatched transfers parked;
 * the form refuses a payment id alone, another action's or an expired token, and a post from
 * another site; docs/http.md shows the example's code as it is, and its size.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { start } from '../../docs/examples/embedding/service.js'
import { kid } from '../../src/index.js'
import { runCli } from '../../src/cli/paysplitCheck.js'
import { ocrGiroText } from '../../src/http.js'
import { cardRequest, invoiceRequest } from '../support/http.fixtures.js'
import { transmissionOf } from '../support/ocr.fixtures.js'

const WEBHOOK_SECRET = `whsec_${Buffer.from('the embedding example, in its test').toString('base64')}`
const FORM_SECRET = 'form-secret-of-the-test'
const env = { PORT: '0', API_KEYS: 'shop-1:key-one,shop-2:key-two', BANK_KEY: 'bank-key', FORM_SECRET, WEBHOOK_SECRET, RELAY_EVERY_MS: '20' }

/** A fresh database on the test server (npm run test:postgres), or none: PGlite in memory. */
const database = async (): Promise<string | undefined> => {
  const admin = process.env['PAYSPLIT_TEST_DATABASE_URL']
  if (admin === undefined) return undefined
  const name = `embedding_${randomBytes(6).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}

let service: Awaited<ReturnType<typeof start>>

beforeAll(async () => {
  const url = await database()
  service = await start({ ...env, ...(url === undefined ? {} : { DATABASE: url }) })
})

afterAll(async () => {
  await service.close()
})

const call = async (method: string, path: string, body?: unknown, key: string | null = 'key-one', headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> => {
  const res = await fetch(service.url + path, {
    method,
    redirect: 'manual',
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) })
  })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // a page, or nothing
  }
  return { status: res.status, body: parsed, headers: res.headers }
}

let refs = 0
const create = async (body: Record<string, unknown>): Promise<{ id: string; kid?: string }> => {
  const r = await call('POST', '/payments', { ...body, externalPaymentReferenceID: `embedding-${String((refs += 1))}` })
  expect(r.status).toBe(201)
  const created = r.body.paymentIntent.paymentCreated
  return { id: created.paymentReferenceID, kid: created.kid }
}

const statusOf = async (id: string): Promise<string> => String((await call('GET', `/payments/${id}`)).body.payment.paymentCreated.status)

describe('the embedding example passes paysplit-check', () => {
  it('with every option: signed webhooks, the form (complete and fail through its page), bank transfers, retries with Idempotency-Key, test environments, messages compared, races', async () => {
    const { seed } = fc.readConfigureGlobal()
    const args = [
      service.url,
      ...['--runs', '60', `--seed=${String(seed)}`, '--api-key', 'key-one', '--webhooks', '--webhook-secret', WEBHOOK_SECRET],
      ...['--form-page-path', '/pay/{id}', '--form-complete-path', '/pay/{id}/complete', '--form-fail-path', '/pay/{id}/fail'],
      ...['--bank-transfer-path', '/bank/transfers', '--bank-key', 'bank-key', '--retries', '1', '--environments', 'test', '--compare-messages'],
      ...['--max-shrink-seconds', '30']
    ]
    let out = ''
    const code = await runCli(args, { out: (t) => (out += t), err: () => undefined, isTTY: false, now: () => Date.now() })
    if (code !== 0) console.log(out)
    expect(code).toBe(0)
    expect(out).toMatch(/^PASSED: 60 run\(s\)/m)
    // the form charged cards, the bank paid invoices, refunds ran, webhooks came signed
    expect(out).not.toMatch(/never exercised/)
    expect(out).toMatch(/completeForm Charged.*transferByKid Charged/)
    expect(Number(/(\d+) webhooks checked/.exec(out)?.[1])).toBeGreaterThan(50)
  })
})

describe('the embedding example: requests at once (races, on PostgreSQL under npm run test:postgres)', () => {
  it('of ten cancels of one payment at once, one succeeds; four creates at once of one new customer keep every field each gave', async () => {
    const card = await create(cardRequest())
    const cancels = await Promise.all(Array.from({ length: 10 }, () => call('POST', `/payments/${card.id}/cancel`)))
    expect(cancels.map((a) => a.status).sort()).toStrictEqual([200, ...Array<number>(9).fill(409)])
    const customerExternalID = `customer-at-once-${String(refs)}`
    const fields = [{ name: 'Kari Nordmann' }, { email: 'kari@example.no' }, { mobilePrefix: '+47' }, { mobile: '41234567' }]
    const creates = await Promise.all(fields.map((customer, i) => call('POST', '/payments', cardRequest({ externalPaymentReferenceID: `at-once-${String(refs)}-${String(i)}`, customerExternalID, customer }))))
    expect(creates.map((c) => c.status)).toStrictEqual([201, 201, 201, 201])
    expect((await call('GET', `/customers/${customerExternalID}`)).body.customer).toStrictEqual(Object.assign({}, ...fields))
  })
})

describe('the embedding example: OCR giro files, the bank key', () => {
  it('POST /bank/ocr applies a file once: matched, unmatched (parked), refused; the same file again is all duplicate; a broken file 400', async () => {
    const invoice = await create(invoiceRequest())
    const text = ocrGiroText(transmissionOf([{ kid: invoice.kid ?? '', amount: 10000 }, { kid: '12345674', amount: 500 }, { kid: invoice.kid ?? '', amount: 0 }], '0000777'))
    const r = await call('POST', '/bank/ocr', text, 'bank-key')
    expect(r.status).toBe(200)
    expect(r.body.report.map((row: { outcome: string }) => row.outcome)).toStrictEqual(['matched', 'unmatched', 'refused'])
    expect(await statusOf(invoice.id)).toBe('Charged')
    const parked = await service.db((sql) => sql<{ data: { kid: string; amount: number } }>('SELECT data FROM paysplit.unmatched_transfers'))
    expect(parked.map((p) => [p.data.kid, p.data.amount])).toContainEqual(['12345674', 500])
    const again = await call('POST', '/bank/ocr', text, 'bank-key')
    expect(again.body.report.map((row: { outcome: string }) => row.outcome)).toStrictEqual(['duplicate', 'duplicate', 'duplicate'])
    const broken = await call('POST', '/bank/ocr', text.slice(0, -81), 'bank-key')
    expect(broken.status).toBe(400)
    expect(broken.body.error.code).toBe('ValidationFailed')
  })

  it('the bank routes take the bank key only, the API the API keys only: 401 otherwise', async () => {
    expect((await call('POST', '/bank/transfers', { kid: '12345674', amount: 1 }, 'key-one')).status).toBe(401)
    expect((await call('POST', '/bank/ocr', 'x', null)).status).toBe(401)
    expect((await call('GET', '/payments?externalPaymentReferenceID=x', undefined, 'bank-key')).status).toBe(401)
    expect((await call('GET', '/payments?externalPaymentReferenceID=x', undefined, 'key-two')).status).toBe(404)
  })

  it('a transfer with a KID no open invoice holds: 202, parked', async () => {
    const nobodys = kid.create('4242424242', 'mod10')
    if (nobodys._tag === 'Left') throw new Error('no KID')
    const r = await call('POST', '/bank/transfers', { kid: nobodys.right, amount: 777 }, 'bank-key')
    expect(r.status).toBe(202)
    expect(r.body.error.code).toBe('UnmatchedTransfer')
    const parked = await service.db((sql) => sql<{ n: number }>("SELECT count(*)::integer AS n FROM paysplit.unmatched_transfers WHERE data->>'kid' = $1", [nobodys.right]))
    expect(parked[0]?.n).toBe(1)
  })
})

describe('the embedding example: a payment id alone never moves money', () => {
  const tokenOf = (id: string, action: string, expires: number): string =>
    `${String(expires)}.${createHmac('sha256', FORM_SECRET).update(`${id} ${action} ${String(expires)}`).digest('base64url')}`
  const post = (id: string, action: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    call('POST', `/pay/${id}/${action}`, new URLSearchParams(fields).toString(), null, { 'content-type': 'application/x-www-form-urlencoded', ...headers })
  const later = Math.floor(Date.now() / 1000) + 600

  it('the page offers Pay and Cancel with their tokens for a test card, Cancel only for a production one, nothing for an unknown id; no-store, a CSP of none', async () => {
    const card = await create(cardRequest())
    const page = await call('GET', `/pay/${card.id}`, undefined, null)
    expect(page.status).toBe(200)
    expect(page.body).toContain(`action="/pay/${card.id}/complete"`)
    expect(page.body).toContain(`action="/pay/${card.id}/fail"`)
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    const live = await create(cardRequest({ environment: 'production' }))
    const livePage = await call('GET', `/pay/${live.id}`, undefined, null)
    expect(livePage.body).not.toContain('/complete')
    expect(livePage.body).toContain('/fail')
    expect((await call('GET', '/pay/0b7e3f1c-2a4d-4e8f-9c1b-000000000999', undefined, null)).status).toBe(404)
  })

  it('refused with 403, the payment unchanged: no token, the other action\'s token, another payment\'s, an expired one, a post from another site', async () => {
    const card = await create(cardRequest())
    const other = await create(cardRequest())
    expect((await post(card.id, 'complete', {})).status).toBe(403)
    expect((await post(card.id, 'complete', { token: tokenOf(card.id, 'fail', later) })).status).toBe(403)
    expect((await post(card.id, 'complete', { token: tokenOf(other.id, 'complete', later) })).status).toBe(403)
    expect((await post(card.id, 'complete', { token: tokenOf(card.id, 'complete', Math.floor(Date.now() / 1000) - 1) })).status).toBe(403)
    expect((await post(card.id, 'complete', { token: tokenOf(card.id, 'complete', later) }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await post(card.id, 'complete', { token: tokenOf(card.id, 'complete', later) }, { origin: 'https://evil.example' })).status).toBe(403)
    expect(await statusOf(card.id)).toBe('Initiated')
    // the page's own token, same-origin: the card is reserved (no chargeImmediately), the customer sent to the successUrl
    const done = await post(card.id, 'complete', { token: tokenOf(card.id, 'complete', later) }, { 'sec-fetch-site': 'same-origin' })
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe(cardRequest()['successUrl'])
    expect(await statusOf(card.id)).toBe('Reserved')
  })
})

const example = readFileSync(new URL('../../docs/examples/embedding/service.ts', import.meta.url), 'utf8')

/** Non-blank lines of the file a user writes: all of them, and those that are code (no comment). */
const embeddingSize = (): { readonly lines: number; readonly code: number } => {
  const lines = example.split('\n').filter((l) => l.trim() !== '')
  return { lines: lines.length, code: lines.filter((l) => !/^\s*(\/\/|\/\*\*|\*)/.test(l)).length }
}

describe('the embedding example, as docs/http.md shows it', () => {
  const guide = readFileSync(new URL('../../docs/http.md', import.meta.url), 'utf8')

  it('the guide shows service.ts as it is (the block compiles with the other blocks), and the size it has', () => {
    expect(guide).toContain(`\`\`\`ts\n${example}\`\`\``)
    const { lines, code } = embeddingSize()
    console.log(`the embedding example: ${String(lines)} non-blank lines, ${String(code)} of them code`)
    expect(guide).toContain(`${String(lines)} non-blank lines (${String(code)} of code)`)
  })
})
