/**
 * The stateful mock (`paysplit-check mock`, src/cli/mock/; docs/testing.md, "A stateful mock"),
 * in process on 127.0.0.1: the API answered by `handle` over an in-memory world, with
 * `Idempotency-Key` and a test clock that lets a key expire in seconds; the hosted form (its
 * 303 never followed here); the bank by KID and by OCR giro file (camt.054 notifications:
 * conformance.camt054.test.ts); signed webhooks to loopback,
 * blocked elsewhere, retried, a receiver's answer body never read; CORS for a front-end on its
 * own port; the checkout example (its shop back end) creating payments there and sending the
 * customer to its form; and the kit with every option passing against it.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebhookReceiver } from '../../src/conformance.js'
import { isLoopback, refusal } from '../../src/cli/mock/outbox.js'
import { MOCK_WEBHOOK_SECRET, startMock, type RunningMock } from '../../src/cli/mock/server.js'
import { ocrGiroText } from '../../src/http.js'
import { runCli } from '../../src/cli/paysplitCheck.js'
import { card, cli, invoice } from '../support/mock.fixtures.js'
import { serveCheckout } from '../../docs/examples/checkout/serve.js'
import { transmissionOf } from '../support/ocr.fixtures.js'

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ webhookRetryDelaysMs: [20] })
})
afterAll(async () => {
  await mock.close()
})

/** A JSON request to the mock: its status, body and headers. */
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown; headers: Headers }> => {
  const res = await fetch(mock.url + path, {
    method,
    redirect: 'manual',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) })
  })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    // a page
  }
  return { status: res.status, body: parsed, headers: res.headers }
}

const created = async (body: Record<string, unknown>): Promise<{ id: string; kid?: string }> => {
  const r = await call('POST', '/payments', body)
  expect(r.status).toBe(201)
  const p = (r.body as { paymentIntent: { paymentCreated: { paymentReferenceID: string; kid?: string } } }).paymentIntent.paymentCreated
  return { id: p.paymentReferenceID, ...(p.kid !== undefined ? { kid: p.kid } : {}) }
}

describe('the API, answered by handle over the mock’s world', () => {
  it('a create, its reads, a repeat; an unknown route 404 and a wrong method 405 with allow, as handle answers them', async () => {
    const { id } = await created(card('api-1', { customer: { name: 'Kari Nordmann' } }))
    expect(await call('GET', `/payments/${id}`)).toMatchObject({ status: 200, body: { payment: { paymentCreated: { paymentReferenceID: id, status: 'Initiated' } } } })
    expect(await call('GET', '/payments?externalPaymentReferenceID=api-1')).toMatchObject({ status: 200 })
    expect((await call('GET', '/customers/c-1')).status).toBe(200)
    expect((await call('POST', '/payments', card('api-1', { customer: { name: 'Kari Nordmann' } }))).status).toBe(200)
    expect(await call('GET', '/nothing-here')).toMatchObject({ status: 404, body: { success: false } })
    const wrong = await call('GET', `/payments/${id}/cancel`)
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('POST')
    expect(await call('POST', '/payments', '{not json')).toMatchObject({ status: 400, body: { success: false, error: { code: 'ValidationFailed' } } })
  })

  it('Idempotency-Key: the first answer again, 422 IdempotencyKeyReused for another request (cancel and charge failures carry code); the test clock moves a day and the key is forgotten', async () => {
    const { id } = await created(card('idem-1'))
    const key = { 'idempotency-key': 'cancel-idem-1' }
    const first = await call('POST', `/payments/${id}/cancel`, undefined, key)
    expect(first.status).toBe(200)
    expect(await call('POST', `/payments/${id}/cancel`, undefined, key)).toMatchObject({ status: 200, body: first.body })
    // another request with the key: refused as handle refuses it, nothing charged
    const reused = await call('POST', `/payments/${id}/charge`, undefined, key)
    expect(reused.status).toBe(422)
    expect(reused.body).toStrictEqual({ success: false, error: expect.stringContaining('idempotency-key') as unknown, code: 'IdempotencyKeyReused' })
    // 24 hours later (the clock moved, not waited for): the key is forgotten, the cancel is new and refused
    const before = (await call('GET', '/_mock/clock')).body as { now: string; offsetMs: number }
    const moved = await call('POST', '/_mock/clock', { advanceSeconds: 24 * 3600 + 1 })
    expect(moved.status).toBe(200)
    expect(Date.parse((moved.body as { now: string }).now) - Date.parse(before.now)).toBeGreaterThanOrEqual((24 * 3600 + 1) * 1000)
    expect(await call('POST', `/payments/${id}/cancel`, undefined, key)).toMatchObject({ status: 409, body: { success: false, code: 'CancelNotAllowedInStatus' } })
    // the payments of the new day carry its time
    const later = await created(card('idem-2'))
    const read = (await call('GET', `/payments/${later.id}`)).body as { payment: { paymentCreated: { createdAt: string } } }
    expect(Date.parse(read.payment.paymentCreated.createdAt)).toBeGreaterThanOrEqual(Date.parse(before.now) + 24 * 3600 * 1000)
    // forward only
    expect((await call('POST', '/_mock/clock', { to: '2020-01-01T00:00:00.000Z' })).status).toBe(400)
    expect((await call('POST', '/_mock/clock', { advanceSeconds: -5 })).status).toBe(400)
  })

  it('CORS: a preflight is 204 and every answer allows any origin, so a front-end on its own port can call it', async () => {
    const pre = await fetch(`${mock.url}/payments`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:5173', 'access-control-request-method': 'POST' } })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
    expect(pre.headers.get('access-control-allow-headers')).toContain('idempotency-key')
    expect((await call('GET', '/')).headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('the hosted form', () => {
  it('a card’s page offers Pay and Cancel; Pay is 303 to successUrl (not followed) and reserves it; a page of a paid one offers nothing', async () => {
    const { id } = await created(card('form-1'))
    const page = await fetch(`${mock.url}/pay/${id}`)
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain(`action="/pay/${id}/complete"`)
    expect(html).toContain(`action="/pay/${id}/fail"`)
    const pay = await fetch(`${mock.url}/pay/${id}/complete`, { method: 'POST', redirect: 'manual' })
    expect(pay.status).toBe(303)
    expect(pay.headers.get('location')).toBe('https://shop.example/ok')
    expect(await call('GET', `/payments/${id}`)).toMatchObject({ body: { payment: { paymentCreated: { status: 'Reserved' } } } })
    expect(await (await fetch(`${mock.url}/pay/${id}`)).text()).not.toContain('<form')
    // a second Pay is refused by paysplit: the customer lands on failedUrl
    const again = await fetch(`${mock.url}/pay/${id}/complete`, { method: 'POST', redirect: 'manual' })
    expect([again.status, again.headers.get('location')]).toEqual([303, 'https://shop.example/failed'])
  })

  it('Cancel fails the form with the reason posted: 303 to failedUrl; an invoice’s page has no form; an unknown id is 404', async () => {
    const { id } = await created(card('form-2'))
    const cancel = await fetch(`${mock.url}/pay/${id}/fail`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'reason=cancelled+by+the+customer' })
    expect([cancel.status, cancel.headers.get('location')]).toEqual([303, 'https://shop.example/failed'])
    expect(await call('GET', `/payments/${id}`)).toMatchObject({ body: { payment: { paymentCreated: { status: 'Initiated' } } } })
    const inv = await created(invoice('form-3'))
    expect(await (await fetch(`${mock.url}/pay/${inv.id}`)).text()).not.toContain('<form')
    expect((await fetch(`${mock.url}/pay/ffffffff-ffff-4fff-bfff-ffffffffffff`)).status).toBe(404)
    expect((await fetch(`${mock.url}/pay/ffffffff-ffff-4fff-bfff-ffffffffffff/complete`, { method: 'POST', redirect: 'manual' })).status).toBe(404)
  })
})

describe('the bank', () => {
  it('a transfer by KID pays the open invoice (200), an unknown KID is parked (202), a bad amount is 400', async () => {
    const { id, kid } = await created(invoice('bank-1'))
    expect(kid).toBeDefined()
    expect(await call('POST', '/bank/transfers', { kid, amount: 4000 })).toMatchObject({ status: 200, body: { matched: true, paymentReferenceID: id, status: 'Initiated', paidAmount: 4000 } })
    expect(await call('POST', '/bank/transfers', { kid, amount: 6000 })).toMatchObject({ status: 200, body: { status: 'Charged', paidAmount: 10000 } })
    expect(await call('POST', '/bank/transfers', { kid, amount: 1 })).toMatchObject({ status: 202, body: { matched: false, error: { code: 'UnmatchedTransfer' } } })
    expect(await call('POST', '/bank/transfers', { kid, amount: -1 })).toMatchObject({ status: 400, body: { success: false, error: { code: 'ValidationFailed' } } })
  })

  it('an OCR giro file: its transfers applied, one row each; the same file again changes nothing (duplicate); a broken one is 400', async () => {
    const a = await created(invoice('ocr-1'))
    const text = ocrGiroText(transmissionOf([{ kid: a.kid ?? '', amount: 10000 }, { kid: '12345674', amount: 500 }], '7000001'))
    const first = await call('POST', '/bank/ocr', text, { 'content-type': 'text/plain' })
    expect(first).toMatchObject({ status: 200, body: { transmissionNumber: '7000001', duplicate: false, report: [{ outcome: 'matched', paymentReferenceID: a.id }, { outcome: 'unmatched' }] } })
    expect(await call('GET', `/payments/${a.id}`)).toMatchObject({ body: { payment: { paymentCreated: { status: 'Charged' } } } })
    expect(await call('POST', '/bank/ocr', text, { 'content-type': 'text/plain' })).toMatchObject({ status: 200, body: { duplicate: true, report: [{ outcome: 'duplicate' }, { outcome: 'duplicate' }] } })
    expect(await call('POST', '/bank/ocr', text.slice(0, 160), { 'content-type': 'text/plain' })).toMatchObject({ status: 400, body: { success: false, error: { code: 'ValidationFailed' } } })
  })
})

describe('webhooks', () => {
  it('signed (Standard Webhooks, the development secret) and delivered to a loopback receiver, in order; a url on another host is blocked, never dialled', async () => {
    const receiver = await startWebhookReceiver({ secret: MOCK_WEBHOOK_SECRET, graceMs: 2000 })
    try {
      const subscriptions = ['Initiated', 'Reserved', 'Cancelled'].flatMap((eventType) => [
        { eventType, url: `${receiver.url}/hooks` },
        { eventType, url: 'https://hooks.example/elsewhere' }
      ])
      const { id } = await created(card('hooks-1', { webhookSubscriptions: subscriptions }))
      await fetch(`${mock.url}/pay/${id}/complete`, { method: 'POST', redirect: 'manual' })
      await call('POST', `/payments/${id}/cancel`)
      await mock.idle()
      const got = await receiver.collect((r) => r.length >= 3)
      expect(got.map((w) => [w.signature, (w.body as { eventType: string }).eventType, w.headers?.['webhook-id']])).toEqual([
        ['valid', 'Initiated', `${id}:1`],
        ['valid', 'Reserved', `${id}:2`],
        ['valid', 'Cancelled', `${id}:3`]
      ])
      const log = (await call('GET', '/_mock/webhooks')).body as { webhooks: Array<{ url: string; state: string; lastError?: string; eventID: string }> }
      const mine = log.webhooks.filter((w) => w.eventID.startsWith(id))
      expect(mine.filter((w) => w.url.startsWith(receiver.url)).map((w) => w.state)).toEqual(['delivered', 'delivered', 'delivered'])
      expect(mine.filter((w) => w.url === 'https://hooks.example/elsewhere').map((w) => [w.state, w.lastError])).toEqual([
        ['blocked', 'hooks.example is neither loopback nor allowed (--webhook-allow)'],
        ['blocked', 'hooks.example is neither loopback nor allowed (--webhook-allow)'],
        ['blocked', 'hooks.example is neither loopback nor allowed (--webhook-allow)']
      ])
    } finally {
      await receiver.close()
    }
  })

  it('retried after a failed attempt; a receiver that answers 200 with a body that never ends has it at the first attempt, its body never read', async () => {
    // a receiver of its own: /flaky fails the first two attempts of each message, /endless streams
    // its 200 answer without end (the sender must not wait for it, nor keep it)
    let endlessBytes = 0
    const attempts = new Map<string, number>()
    const receiver = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const key = `${req.url ?? ''} ${String(req.headers['webhook-id'])}`
        attempts.set(key, (attempts.get(key) ?? 0) + 1)
        if (req.url === '/flaky') {
          res.writeHead((attempts.get(key) ?? 0) <= 2 ? 500 : 200).end()
          return
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        const chunk = Buffer.alloc(64 * 1024, 120)
        const pump = (): void => {
          let more = true
          while (more && !res.destroyed) {
            endlessBytes += chunk.length
            more = res.write(chunk)
          }
        }
        res.on('drain', pump)
        pump()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const hooks = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`
    const retrying = await startMock({ webhookRetryDelaysMs: [10, 10] })
    try {
      const res = await fetch(`${retrying.url}/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(card('retry-1', { webhookSubscriptions: [{ eventType: 'Initiated', url: `${hooks}/flaky` }, { eventType: 'Initiated', url: `${hooks}/endless` }] }))
      })
      expect(res.status).toBe(201)
      await retrying.idle()
      expect(retrying.webhooks().map((w) => [w.url.slice(hooks.length), w.state, w.attempts, w.lastStatus])).toEqual([
        ['/flaky', 'delivered', 3, 200],
        ['/endless', 'delivered', 1, 200]
      ])
      // the sender stopped reading at once: what the receiver got out is what the socket buffers hold
      expect(endlessBytes).toBeLessThan(16 * 1024 * 1024)
    } finally {
      await retrying.close()
      receiver.closeAllConnections()
      await new Promise<void>((resolve) => receiver.close(() => { resolve() }))
    }
  })

  it('where webhooks may go: loopback (localhost, 127.0.0.0/8, [::1]) and the hosts allowed by name; no credentials, no other scheme', () => {
    for (const host of ['localhost', '127.0.0.1', '127.9.8.7', '[::1]']) expect(isLoopback(host)).toBe(true)
    for (const host of ['localhost.example', '10.0.0.1', '[::ffff:7f00:1]', '128.0.0.1', 'example.com']) expect(isLoopback(host)).toBe(false)
    expect(refusal('http://127.0.0.1:4100/hooks', [])).toBeUndefined()
    expect(refusal('https://receiver.internal/x', ['receiver.internal'])).toBeUndefined()
    expect(refusal('https://receiver.internal/x', [])).toBe('receiver.internal is neither loopback nor allowed (--webhook-allow)')
    expect(refusal('https://shop.example.com/x', ['receiver.internal'])).toBe('shop.example.com is neither loopback nor allowed (--webhook-allow)')
    expect(refusal('http://user:pw@127.0.0.1/x', [])).toBe('credentials in the url')
    expect(refusal('ftp://127.0.0.1/x', [])).toBe('ftp: is not http(s)')
  })
})

describe('POST /_mock/reset', () => {
  it('empties the world, the webhook log and the clock', async () => {
    const { id } = await created(card('reset-1'))
    await call('POST', '/_mock/clock', { advanceSeconds: 60 })
    expect(await call('POST', '/_mock/reset')).toMatchObject({ status: 200, body: { reset: true, offsetMs: 0 } })
    expect((await call('GET', `/payments/${id}`)).status).toBe(404)
    expect(await call('GET', '/_mock/webhooks')).toMatchObject({ body: { webhooks: [] } })
  })
})

describe('the kit against the mock', () => {
  it('passes with every option: webhooks signed and checked, the form through its page, transfers, OCR files and camt.054 notifications, retries, races, messages compared', async () => {
    const run = await cli(
      [
        mock.url,
        '--runs', '200',
        '--seed', '11',
        '--webhooks', '--webhook-secret-env', 'MOCK_SECRET', '--grace', '2000',
        '--form-complete-path', '/pay/{id}/complete', '--form-fail-path', '/pay/{id}/fail', '--form-page-path', '/pay/{id}',
        '--bank-transfer-path', '/bank/transfers', '--bank-ocr-path', '/bank/ocr', '--bank-camt054-path', '/bank/camt054', '--bank-key-env', 'MOCK_BANK_KEY',
        '--api-key-env', 'MOCK_API_KEY',
        '--retries', '1', '--compare-messages', '--max-commands', '12', '--kinds', 'card,invoice', '--environments', 'test,production'
      ],
      // the wall clock, as the mock's: camt.054 bookings are dated by the command's clock
      { env: { MOCK_SECRET: MOCK_WEBHOOK_SECRET, MOCK_BANK_KEY: 'any', MOCK_API_KEY: 'any' }, wallClock: true }
    )
    expect({ code: run.code, out: run.code === 0 ? '' : run.out }).toEqual({ code: 0, out: '' })
    expect(run.out).toMatch(/^PASSED: 200 run\(s\) in [\d.]+ s, [1-9]\d* webhook\(s\) received, each POST sent 2 times with its Idempotency-Key, seed 11/m)
    expect(run.out).toMatch(/outside events: camt054 duplicate, camt054 matched, .*completeForm Charged.*ocr duplicate.*ocr matched.*transferByKid Charged/)
    expect(run.out).not.toContain('Warning')
    expect(run.out).not.toContain('Note:')
    // the state × command table: every life was walked
    expect(run.out).toMatch(/^ {2}card Charged +.*\d+\/\d+/m)
    expect(run.out).toMatch(/^ {2}invoice Charged +.*\d+\/\d+/m)
  })

  it('the same with --no-races, test payments of one kind, short sequences', async () => {
    const run = await cli([mock.url, '--runs', '30', '--seed', '12', '--no-races', '--kinds', 'invoice', '--environments', 'test', '--max-commands', '5', '--bank-ocr-path', '/bank/ocr'])
    expect({ code: run.code, out: run.code === 0 ? '' : run.out }).toEqual({ code: 0, out: '' })
  })
})

describe('paysplit-check mock (the command)', () => {
  it('prints where it listens and stops on the signal (exit 0); --help; a misspelt option: exit 2 with a suggestion', async () => {
    let out = ''
    const stop = new AbortController()
    const running = runCli(['mock', '--port', '0', '--quiet'], {
      out: (t) => {
        out += t
        if (out.includes('\n')) stop.abort()
      },
      err: () => undefined,
      isTTY: false,
      now: Date.now,
      signal: stop.signal
    })
    expect(await running).toBe(0)
    expect(out).toMatch(/^paysplit mock on http:\/\/127\.0\.0\.1:\d+ \(in memory/)
    expect(out).toContain(`webhooks signed with ${MOCK_WEBHOOK_SECRET} (a development secret), sent to loopback only`)
    expect(await cli(['mock', '--help'])).toMatchObject({ code: 0, out: expect.stringContaining('Usage: paysplit-check mock [options]') as unknown })
    const misspelt = await cli(['mock', '--prot', '4010'])
    expect(misspelt.code).toBe(2)
    expect(misspelt.err).toMatch(/^Unknown option --prot\. Did you mean --port\?/)
  })

  it('a port in use: exit 2, saying so', async () => {
    const port = new URL(mock.url).port
    const taken = await cli(['mock', '--port', port, '--quiet'])
    expect(taken.code).toBe(2)
    expect(taken.err).toContain('EADDRINUSE')
  })
})

describe('the checkout example against the mock (docs/examples/checkout, npm run checkout)', () => {
  it('Pay: the shop’s back end creates the payment at the mock and answers its hosted form; the form sends the customer back to the shop', async () => {
    const shop = await serveCheckout(0, { url: mock.url })
    try {
      const page = await (await fetch(shop.url)).text()
      expect(page).toContain('<form id="checkout"')
      expect(await (await fetch(`${shop.url}checkout.js`)).text()).toContain('/api/payments')
      const request = card('checkout-1', { successUrl: `${shop.url}paid`, failedUrl: `${shop.url}failed` })
      const res = await fetch(`${shop.url}api/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })
      const answer = (await res.json()) as { formUrl?: string; paymentIntent?: { paymentCreated?: { paymentReferenceID?: string } } }
      const id = answer.paymentIntent?.paymentCreated?.paymentReferenceID ?? ''
      expect(res.status).toBe(201)
      expect(answer.formUrl).toBe(`${mock.url}/pay/${id}`)
      const form = await (await fetch(answer.formUrl ?? '')).text()
      expect(form).toContain(`action="/pay/${id}/complete"`)
      const pay = await fetch(`${mock.url}/pay/${id}/complete`, { method: 'POST', redirect: 'manual' })
      expect([pay.status, pay.headers.get('location')]).toEqual([303, `${shop.url}paid`])
      expect(await (await fetch(pay.headers.get('location') ?? '')).text()).toContain('Thank you')
      // a request the service refuses: its answer, as the page shows it
      const refused = await fetch(`${shop.url}api/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...request, grossAmount: 1 }) })
      expect(refused.status).toBe(400)
    } finally {
      await new Promise<void>((resolve) => shop.server.close(() => { resolve(); }))
    }
  })
})
