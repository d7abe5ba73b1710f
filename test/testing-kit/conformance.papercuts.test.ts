/**
 * The kit as good from a test runner as from the command line, and the command's papercuts
 * (docs/testing.md): what a form or bank hook answers is read and a refusal reported as the hook's;
 * a skipped hook skips that event only; `collect(until)` waits for what it waits for; a fixed seed
 * run twice on one service needs no run id when a clock is given, and says why when none is;
 * the coverage warning asks only for what was not given; replay paths pack their runs; secrets
 * by the variable that holds them; a misspelt option gets a suggestion; a passing run prints its
 * summary once; the counterexample as curl commands.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkService, describeCoverage, httpService, startWebhookReceiver, type CheckServiceOptions, type ReceivedWebhook } from '../../src/conformance.js'
import { packPath, unpackPath } from '../../src/conformance/runner.js'
import { suggestion } from '../../src/cli/args.js'
import { curlLines } from '../../src/cli/output.js'
import { startMock, type RunningMock } from '../../src/cli/mock/server.js'
import { cli } from '../support/mock.fixtures.js'

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ webhookRetryDelaysMs: [] })
})
afterAll(async () => {
  await mock.close()
})

/** The mock over HTTP, its form posted without its page. */
const overHttp = (): CheckServiceOptions => httpService(mock.url, { formCompletePath: '/pay/{id}/complete', bankTransferPath: '/bank/transfers' })

describe('hooks: what they answer is read', () => {
  it('a form post the service refuses (403) is the hook’s failure, named, where the model completes the form — not "expected Reserved, received Initiated"', async () => {
    const report = await checkService({
      ...overHttp(),
      completeForm: (id) => fetch(`${mock.url}/pay/${id}/complete-with-a-typo`, { method: 'POST', redirect: 'manual' }).then((r) => ({ status: r.status === 404 ? 403 : r.status })),
      kinds: ['card'],
      numRuns: 100,
      seed: 3,
      runId: 'hook',
      // the first failure as it came: only its last step is looked at here
      maxShrinkMs: 0,
      now: Date.now
    })
    expect(report.ok).toBe(false)
    if (report.ok) return
    expect(report.hook).toBe('completeForm')
    expect(report.counterexample).toMatch(/✗ the completeForm hook failed: it answered 403, where the model accepts the completed form of <payment \d> \((Reserved|Charged)\)\n {2}the hook could not drive the service/)
    expect(report.counterexample).not.toContain('received (service)')
  })

  it('a fetch Response and an fp-ts Left are read too; a hook that rejects is the hook’s failure', async () => {
    const base = { ...overHttp(), kinds: ['card'] as const, numRuns: 100, seed: 3, maxShrinkMs: 0, now: Date.now }
    const viaResponse = await checkService({ ...base, runId: 'response', completeForm: () => Promise.resolve(new Response('no token', { status: 403 })) })
    expect(viaResponse.ok ? '' : viaResponse.counterexample).toContain('the completeForm hook failed: it answered 403')
    const viaLeft = await checkService({ ...base, runId: 'left', completeForm: () => Promise.resolve({ _tag: 'Left', left: { code: 'FormNotAllowedInStatus' } }) })
    expect(viaLeft.ok ? '' : viaLeft.counterexample).toContain('the completeForm hook failed: it resolved with a Left (FormNotAllowedInStatus)')
    const rejects = await checkService({ ...base, runId: 'rejects', completeForm: () => Promise.reject(new Error('the form backend is down')) })
    expect(rejects.ok ? '' : rejects.counterexample).toContain('✗ the completeForm hook failed: it rejected (the form backend is down)')
    expect(rejects.ok ? undefined : rejects.hook).toBe('completeForm')
  })

  it('a hook that skips some events skips those alone: the others are sent, the run passes, the notes count the skips', async () => {
    const service = overHttp()
    let calls = 0
    const report = await checkService({
      ...service,
      // every other event cannot be driven (a form that sometimes wants a session)
      completeForm: (id) => ((calls += 1) % 2 === 0 ? Promise.resolve({ skipped: 'no session this time' }) : (service.completeForm?.(id) ?? Promise.resolve())),
      kinds: ['card'],
      numRuns: 60,
      seed: 4,
      runId: 'skip'
    })
    expect(report.ok ? '' : report.counterexample).toBe('')
    const use = report.coverage?.hooks?.completeForm
    expect(use?.skipped).toBeGreaterThan(0)
    expect(use?.sent).toBeGreaterThan(use?.skipped ?? 0)
    expect(report.coverage?.charged).toBe(true)
    expect(report.notes).toEqual([`The completeForm hook could not drive the service ${String(use?.skipped)} time(s) of ${String(use?.sent)} (no session this time): those events were not sent, and the model was left as it was.`])
  })
})

describe('collect(until): the receiver waits for what the runner waits for', () => {
  it('resolves once until holds (a webhook 150 ms late is there), or after the grace period', async () => {
    const receiver = await startWebhookReceiver({ graceMs: 5000 })
    try {
      const late = setTimeout(() => void fetch(`${receiver.url}/x`, { method: 'POST', body: '{"eventID":"p:1"}' }), 150)
      const t0 = performance.now()
      const got = await receiver.collect((r) => r.some((w) => (w.body as { eventID?: string }).eventID === 'p:1'))
      clearTimeout(late)
      expect(got).toHaveLength(1)
      expect(performance.now() - t0).toBeLessThan(5000)
    } finally {
      await receiver.close()
    }
  })

  it('a collect of your own that resolves before what it waits for arrived: the report asks whether it waits', async () => {
    const receiver = await startWebhookReceiver({ graceMs: 2000 })
    try {
      // the mock delivers to the receiver; this collect looks at once, as the docs' old example did
      const early = { url: receiver.url, collect: (): Promise<ReadonlyArray<ReceivedWebhook>> => Promise.resolve([]) }
      const report = await checkService({ ...overHttp(), webhookReceiver: early, kinds: ['card'], numRuns: 5, seed: 1, runId: 'early' })
      expect(report.ok ? '' : report.counterexample).toMatch(/missing \(not received within the grace period\): Initiated <payment 1>:1 → <receiver>\/all\n[\s\S]*\n {2}\(does the receiver's collect wait until `until\(received\)` holds, or a grace period has passed\? startWebhookReceiver's does\)/)
      // the same with the receiver that waits: passes
      expect((await checkService({ ...overHttp(), webhookReceiver: receiver, kinds: ['card'], numRuns: 5, seed: 1, runId: 'waits' })).ok).toBe(true)
    } finally {
      await receiver.close()
    }
  })
})

describe('a fixed seed run twice on one service', () => {
  it('with a clock (now), each call its own run id: both pass', async () => {
    let t = Date.UTC(2026, 10, 28)
    const options = { ...overHttp(), numRuns: 15, seed: 21, now: () => (t += 1000) }
    const a = await checkService(options)
    const b = await checkService(options)
    expect([a.ok, b.ok]).toEqual([true, true])
    expect(a.prefix).not.toBe(b.prefix)
    expect(a.prefix).toMatch(/^k21-[0-9a-z]+-$/)
  })

  it('with neither run id nor clock, the second call meets the first one’s references, and its failure says why', async () => {
    const options = { ...overHttp(), numRuns: 15, seed: 22 }
    expect((await checkService(options)).ok).toBe(true)
    const again = await checkService(options)
    expect(again.prefix).toBe('k22-')
    expect(again.ok ? '' : again.counterexample).toContain('the service answered a new reference of this run as a repeat: did an earlier call with the same seed and run id create it? Give each call its own runId (or now')
  })
})

describe('the closing coverage', () => {
  const base = { requests: {}, events: {}, webhooksChecked: 0, charged: false, refunded: false, invoicePaid: false, kinds: ['card', 'invoice'] as const }

  it('asks for the hooks not given, never for those given; says when a given one never helped', () => {
    const given = describeCoverage({ ...base, hooks: { completeForm: { sent: 12, skipped: 0 }, receiveOcrGiro: { sent: 4, skipped: 0 } } })
    expect(given).toContain('Warning: never exercised: charges, refunds, invoice payments.')
    expect(given).toContain('  charges: no run got that far: more runs (--runs) or longer sequences (--max-commands).')
    expect(given).toContain('  invoice payments: no run got that far')
    expect(given).not.toContain('give the check')
    const skipped = describeCoverage({ ...base, hooks: { completeForm: { sent: 3, skipped: 3 } } })
    expect(skipped).toContain('  charges: the completeForm hook could not drive the service (see the notes).')
    expect(skipped).toContain('  invoice payments: an invoice is paid only by the bank: give the check a bank hook')
    // cards only: nothing said about invoices
    expect(describeCoverage({ ...base, kinds: ['card'], hooks: {} })).not.toContain('invoice payments')
  })

  it('a run that failed on late webhooks counts the webhooks checked and missing', () => {
    expect(describeCoverage({ ...base, webhooksChecked: 3, webhooksMissing: 2, charged: true, refunded: true, invoicePaid: true })).toBe(
      'Coverage: 0 (request, status) pairs on 0 routes: ; 3 webhooks checked, 2 missing.'
    )
  })
})

describe('replay paths', () => {
  it('runs of one number are packed and unpacked back (a property), and a path without them is left as it is', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(3), fc.nat(200)), { minLength: 1, maxLength: 300 }), (steps) => {
        const path = steps.join(':')
        const packed = packPath(path)
        expect(unpackPath(packed)).toBe(path)
        expect(packed.length).toBeLessThanOrEqual(path.length)
      })
    )
    expect(packPath('117:3:3:3:3:4:4:4:4:4:4:4:4:4:4:4')).toBe('117:3*4:4*11')
    expect(unpackPath('2:1:0')).toBe('2:1:0')
  })
})

describe('the command line', () => {
  it('a misspelt option: exit 2, naming the option it most likely meant', async () => {
    const run = await cli([mock.url, '--webhook'])
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/^Unknown option --webhook\. Did you mean --webhooks\?\n/)
    expect(suggestion('--form-complete', { 'form-complete-path': { type: 'string' }, 'form-fail-path': { type: 'string' } })).toBe('--form-complete-path')
    expect(suggestion('--retrys', { retries: { type: 'string' }, runs: { type: 'string' } })).toBe('--retries')
    expect(suggestion('--zzzzzzzz', { retries: { type: 'string' } })).toBeUndefined()
  })

  it('secrets by the variable that holds them: unset is a clear error (exit 2); both forms at once is one too', async () => {
    const unset = await cli([mock.url, '--api-key-env', 'NOT_SET_HERE'])
    expect(unset.code).toBe(2)
    expect(unset.err).toMatch(/^--api-key-env names NOT_SET_HERE, which is not set: export NOT_SET_HERE=… first \(or give --api-key\)\.\n/)
    expect((await cli([mock.url, '--bank-key', 'k', '--bank-key-env', 'K', '--bank-transfer-path', '/bank/transfers'], { env: { K: 'k' } })).err).toMatch(/^Give --bank-key or --bank-key-env, not both\./)
    expect((await cli([mock.url, '--path', '1:2|A:B'])).err).toMatch(/^--path replays a failure of a seed: give its --seed too/)
  })

  it('a passing run prints its summary once, with the resends of --retries', async () => {
    const run = await cli([mock.url, '--runs', '10', '--seed', '3', '--retries', '2'])
    expect(run.code).toBe(0)
    expect(run.out.match(/10 run\(s\)/g)).toHaveLength(1)
    expect(run.out).not.toContain("behaves like paysplit's model")
    expect(run.out).toMatch(/^PASSED: 10 run\(s\) in [\d.]+ s, each POST sent 3 times with its Idempotency-Key, seed 3, /m)
    expect(run.err).toMatch(/^paysplit-check http:\/\/127\.0\.0\.1:\d+: 10 run\(s\), each POST sent 3 times with its Idempotency-Key\n/)
  })

  it('the counterexample as curl commands: the body and headers quoted for a shell, the form and the bank by their paths, an OCR file as a here-document', () => {
    const lines = curlLines(
      [
        { kind: 'request', method: 'POST', path: '/payments', body: { note: "it's" }, headers: { 'idempotency-key': 'k1-r1-retry-1' }, status: 201 },
        { kind: 'event', event: 'completeForm', paymentReferenceID: 'p-1' },
        { kind: 'event', event: 'failForm', paymentReferenceID: 'p-1', reason: 'card declined' },
        { kind: 'event', event: 'transferByKid', paymentReferenceID: 'p-2', kid: '12345674', amount: 500 },
        { kind: 'event', event: 'ocr', paymentReferenceID: 'p-2', text: 'NY000010…\nNY000089…\n' },
        { kind: 'request', method: 'POST', path: '/payments/p-1/refund', concurrent: true }
      ],
      { base: 'http://127.0.0.1:8080', apiKeyVariable: 'API_KEY', bankKeyVariable: 'BANK_KEY', formCompletePath: '/pay/{id}/complete', formFailPath: '/pay/{id}/fail', bankTransferPath: '/bank/transfers', bankOcrPath: '/bank/ocr' }
    )
    expect(lines).toEqual([
      `curl -sS -X POST 'http://127.0.0.1:8080/payments' -H "authorization: Bearer $API_KEY" -H 'idempotency-key: k1-r1-retry-1' -H 'content-type: application/json' --data-raw '{"note":"it'\\''s"}'`,
      "curl -sS -X POST 'http://127.0.0.1:8080/pay/p-1/complete'",
      "curl -sS -X POST 'http://127.0.0.1:8080/pay/p-1/fail' --data-urlencode 'reason=card declined'",
      `curl -sS -X POST 'http://127.0.0.1:8080/bank/transfers' -H "authorization: Bearer $BANK_KEY" -H 'content-type: application/json' --data-raw '{"kid":"12345674","amount":500}'`,
      `curl -sS -X POST 'http://127.0.0.1:8080/bank/ocr' -H "authorization: Bearer $BANK_KEY" -H 'content-type: text/plain' --data-binary @- <<'OCR'\nNY000010…\nNY000089…\nOCR`,
      `# at the same time as the one above:\n  curl -sS -X POST 'http://127.0.0.1:8080/payments/p-1/refund' -H "authorization: Bearer $API_KEY"`
    ])
    expect(curlLines([{ kind: 'event', event: 'completeForm', paymentReferenceID: 'p-1' }], { base: 'http://s', formCompletePath: '/pay/{id}/complete', formPagePath: '/pay/{id}' })).toEqual([
      '# the payment form: open http://s/pay/p-1 and press its pay button'
    ])
  })
})
