/**
 * The hosted form's guards (docs/service.md, "The hosted form"): the page's security headers, the
 * signed expiring token of each action, the refusal of cross-site posts, and the card gateways —
 * the simulator completes test payments only; a live payment needs a configured live gateway, else
 * the page says so and Pay is refused. A refused post changes nothing.
 */
import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devFormSecret, guardSettings, loadConfig } from '../../docs/examples/service/config.js'
import { crossSiteRefusal, formToken, NO_LIVE_GATEWAY, tokenRefusal } from '../../docs/examples/service/routes/form.js'
import { cardPaymentRequest, simulatedGateway, type CardGateway, type CardPaymentRequest } from '../../docs/examples/service/routes/gateway.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, formTokenFor, startService, testDb, testEnv, type Running, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
let running: Running
let refs = 0
const ref = (prefix: string): string => `${prefix}-${String((refs += 1))}`

beforeAll(async () => {
  database = await testDb()
  running = await startService(database.db)
})

afterAll(async () => {
  await running.service.close()
  await database.close()
})

const create = async (base: string, overrides: Record<string, unknown> = {}): Promise<string> => {
  const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: ref('form'), chargeImmediately: true, ...overrides }))
  expect(r.status).toBe(201)
  return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
}

/** What the database holds of a payment: status, version, failed form attempts. */
const row = async (id: string) =>
  (
    await database.db.query<{ status: string; version: number; attempts: number }>(
      "SELECT status, version, jsonb_array_length(state->'formAttempts') AS attempts FROM payments WHERE payment_reference_id = $1",
      [id]
    )
  ).rows[0]

/** A form post through node:http, so that any header (Origin, Sec-Fetch-Site) is sent as given. */
const post = (base: string, path: string, fields: Readonly<Record<string, string>>, headers: Readonly<Record<string, string>> = {}) =>
  new Promise<{ status: number; location: string | undefined; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const body = new URLSearchParams(fields).toString()
    const req = request(base + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, location: res.headers.location, text, headers: res.headers })
      })
    })
    req.on('error', reject)
    req.end(body)
  })

/** The token of `action` as the page gives it. */
const tokenOnPage = (html: string, id: string, action: 'complete' | 'fail'): string | undefined =>
  new RegExp(`action="/pay/${id}/${action}"><input type="hidden" name="token" value="([^"]+)"`).exec(html)?.[1]

describe('the page', () => {
  it('carries a CSP without inline script (its one style hashed), frame-ancestors none, no-store, nosniff, same-origin referrers', async () => {
    const id = await create(running.base)
    const res = await fetch(`${running.base}/pay/${id}`)
    const html = await res.text()
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? ''
    expect(csp.split('; ')).toStrictEqual([
      "default-src 'none'",
      `style-src 'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`,
      "form-action 'self' https://shop.example",
      "frame-ancestors 'none'",
      "base-uri 'none'"
    ])
    expect(html).not.toMatch(/<script|style="|\son\w+=/i)
    expect(Object.fromEntries(['cache-control', 'x-content-type-options', 'x-frame-options', 'referrer-policy'].map((h) => [h, res.headers.get(h)]))).toStrictEqual({
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin'
    })
    expect(html).toContain('Test payment: the simulated card gateway approves it')
  })

  it('the token the page gives completes the payment (303 to successUrl, Charged)', async () => {
    const id = await create(running.base)
    const html = await (await fetch(`${running.base}/pay/${id}`)).text()
    const token = tokenOnPage(html, id, 'complete')
    expect(token).toMatch(/^v1\.\d+\.[\w-]{43}$/)
    const r = await post(running.base, `/pay/${id}/complete`, { token: token ?? '' }, { origin: running.base, 'sec-fetch-site': 'same-origin' })
    expect([r.status, r.location]).toStrictEqual([303, 'https://shop.example/ok'])
    expect(r.headers['content-security-policy']).toBeDefined()
    expect(await row(id)).toStrictEqual({ status: 'Charged', version: 2, attempts: 0 })
  })
})

describe('the action token', () => {
  it('missing, malformed, forged, expired, another payment’s, another action’s, another key’s → 403, nothing changed', async () => {
    const id = await create(running.base)
    const other = await create(running.base)
    const past = Math.floor(Date.now() / 1000) - 1
    const future = Math.floor(Date.now() / 1000) + 600
    const valid = formTokenFor(id, 'complete')
    const cases: ReadonlyArray<readonly [string, Record<string, string>]> = [
      ['missing', {}],
      ['empty', { token: '' }],
      ['malformed', { token: 'v1.abc.def' }],
      ['forged', { token: `v1.${String(future)}.${'A'.repeat(43)}` }],
      ['expiry changed', { token: valid.replace(/^v1\.\d+\./, `v1.${String(future + 1)}.`) }],
      ['expired', { token: formToken(devFormSecret, id, 'complete', past) }],
      ['another payment', { token: formTokenFor(other, 'complete') }],
      ['another action', { token: formTokenFor(id, 'fail') }],
      ['another key', { token: formToken('x'.repeat(40), id, 'complete', future) }],
      ['in the query only', {}]
    ]
    for (const [what, fields] of cases) {
      const path = what === 'in the query only' ? `/pay/${id}/complete?token=${encodeURIComponent(valid)}` : `/pay/${id}/complete`
      const r = await post(running.base, path, fields)
      expect([what, r.status]).toStrictEqual([what, 403])
      expect(r.text).toContain(what === 'expired' ? 'The page has expired.' : 'The page it came from is not valid.')
      expect(r.headers['cache-control']).toBe('no-store')
    }
    // Cancel needs its own token too
    expect((await post(running.base, `/pay/${id}/fail`, { reason: 'x' })).status).toBe(403)
    expect(await row(id)).toStrictEqual({ status: 'Initiated', version: 1, attempts: 0 })
    // and the valid one still works
    expect((await post(running.base, `/pay/${id}/complete`, { token: valid })).status).toBe(303)
  })

  it('tokenRefusal: bound to the id (any case), the action and the expiry, checked against the clock', () => {
    const id = '0b7e3f1c-2a4d-4e8f-9c1b-00000000abcd'
    const t = formToken('k'.repeat(32), id, 'fail', 1000)
    expect(tokenRefusal('k'.repeat(32), t, id.toUpperCase(), 'fail', 999_999)).toBeUndefined()
    expect(tokenRefusal('k'.repeat(32), t, id, 'fail', 1_000_000)).toBe('expired')
    expect(tokenRefusal('k'.repeat(32), t, id, 'complete', 0)).toBe('forged')
    expect(tokenRefusal('k'.repeat(32), null, id, 'fail', 0)).toBe('missing')
  })
})

describe('cross-site posts', () => {
  it('Sec-Fetch-Site other than same-origin, or an Origin of another host → 403 even with a valid token; same-origin passes', async () => {
    const id = await create(running.base)
    const token = formTokenFor(id, 'complete')
    const variants: ReadonlyArray<Readonly<Record<string, string>>> = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'cross-site', origin: running.base },
      { origin: 'https://evil.example' },
      { origin: 'null' }
    ]
    for (const headers of variants) {
      const r = await post(running.base, `/pay/${id}/complete`, { token }, headers)
      expect([headers, r.status]).toStrictEqual([headers, 403])
      expect(r.text).toContain('It was sent from another site.')
    }
    expect(await row(id)).toStrictEqual({ status: 'Initiated', version: 1, attempts: 0 })
    expect((await post(running.base, `/pay/${id}/complete`, { token }, { origin: running.base })).status).toBe(303)
  })

  it('crossSiteRefusal: neither header → the token decides', () => {
    expect(crossSiteRefusal({})).toBeUndefined()
    expect(crossSiteRefusal({ host: 'pay.example', origin: 'https://pay.example' })).toBeUndefined()
    expect(crossSiteRefusal({ host: 'pay.example', origin: 'https://pay.example.evil' })).toBe('an Origin of another site')
    expect(crossSiteRefusal({ host: 'pay.example', origin: 'garbage' })).toBe('an Origin of another site')
  })
})

describe('card gateways', () => {
  it('a live payment without a live gateway: the page says so and offers no Pay; Pay → 503, nothing changed; Cancel still works', async () => {
    const id = await create(running.base, { environment: 'production' })
    const html = await (await fetch(`${running.base}/pay/${id}`)).text()
    expect(html).toContain(NO_LIVE_GATEWAY.replace(/:/g, ':'))
    expect(html).not.toContain(`action="/pay/${id}/complete"`)
    expect(html).not.toContain('Test payment')
    const r = await post(running.base, `/pay/${id}/complete`, { token: formTokenFor(id, 'complete') })
    expect(r.status).toBe(503)
    expect(r.text).toContain('no live card gateway configured')
    expect(await row(id)).toStrictEqual({ status: 'Initiated', version: 1, attempts: 0 })
    const cancel = await post(running.base, `/pay/${id}/fail`, { token: tokenOnPage(html, id, 'fail') ?? '', reason: 'cancelled by the customer' })
    expect([cancel.status, cancel.location]).toStrictEqual([303, 'https://shop.example/failed'])
  })

  it('the simulator declines anything but a test payment, even when configured as the live gateway', async () => {
    expect(await simulatedGateway.pay({ paymentReferenceID: 'x', environment: 'production', amount: 1, currency: 'NOK', capture: true, idempotencyKey: 'x:0' })).toStrictEqual({
      approved: false,
      reason: 'the simulated card gateway takes test payments only'
    })
    const svc = await startService(database.db, {}, undefined, { liveCardGateway: simulatedGateway })
    try {
      const id = await create(svc.base, { environment: 'production' })
      const r = await post(svc.base, `/pay/${id}/complete`, { token: formTokenFor(id, 'complete') })
      expect([r.status, r.location]).toStrictEqual([303, 'https://shop.example/failed'])
      expect(await row(id)).toStrictEqual({ status: 'Initiated', version: 2, attempts: 1 })
    } finally {
      await svc.service.close()
    }
  })

  it('a configured live gateway: asked once per attempt with the amount and an idempotency key; approved → Charged; it failing → 502, nothing changed', async () => {
    const asked: Array<CardPaymentRequest> = []
    let mode: 'approve' | 'throw' = 'throw'
    const live: CardGateway = {
      name: 'recording',
      pay: (r) => {
        asked.push(r)
        return mode === 'approve' ? Promise.resolve({ approved: true, reference: 'ch_1' }) : Promise.reject(new Error('gateway down'))
      }
    }
    const svc = await startService(database.db, {}, undefined, { liveCardGateway: live })
    try {
      const id = await create(svc.base, { environment: 'production', grossAmount: 12345, moneySplitList: [{ connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount: 12345, isFee: false }] })
      const down = await post(svc.base, `/pay/${id}/complete`, { token: formTokenFor(id, 'complete') })
      expect(down.status).toBe(502)
      expect(await row(id)).toStrictEqual({ status: 'Initiated', version: 1, attempts: 0 })
      mode = 'approve'
      const ok = await post(svc.base, `/pay/${id}/complete`, { token: formTokenFor(id, 'complete') })
      expect([ok.status, ok.location]).toStrictEqual([303, 'https://shop.example/ok'])
      expect(await row(id)).toStrictEqual({ status: 'Charged', version: 2, attempts: 0 })
      expect(asked).toStrictEqual([
        { paymentReferenceID: id, environment: 'production', amount: 12345, currency: 'NOK', capture: true, description: 'Two tickets', idempotencyKey: `${id}:0` },
        { paymentReferenceID: id, environment: 'production', amount: 12345, currency: 'NOK', capture: true, description: 'Two tickets', idempotencyKey: `${id}:0` }
      ])
      // a payment the form cannot complete any more is not sent to the gateway: paysplit refuses it
      const again = await post(svc.base, `/pay/${id}/complete`, { token: formTokenFor(id, 'complete') })
      expect([again.status, again.location]).toStrictEqual([303, 'https://shop.example/failed'])
      expect(asked).toHaveLength(2)
    } finally {
      await svc.service.close()
    }
  })

  it('cardPaymentRequest: a reservation when not charged at once; the key moves on with each failed attempt', () => {
    const p = { paymentReferenceID: 'p', environment: 'test', grossAmount: 5, currency: 'NOK', chargeImmediately: false, formAttempts: [{ at: 'x' }, { at: 'y' }] }
    expect(cardPaymentRequest(p as never)).toStrictEqual({ paymentReferenceID: 'p', environment: 'test', amount: 5, currency: 'NOK', capture: false, idempotencyKey: 'p:2' })
  })
})

describe('the configuration', () => {
  it('outside development FORM_SECRET is required, 32 characters at least, not the development value', () => {
    const message = 'FORM_SECRET must be set outside development: at least 32 random characters (e.g. openssl rand -base64 32), not the development value.'
    expect(() => guardSettings({}, false, undefined)).toThrow(message)
    expect(() => guardSettings({ FORM_SECRET: 'short' }, false, undefined)).toThrow(message)
    expect(() => guardSettings({ FORM_SECRET: devFormSecret }, false, undefined)).toThrow(message)
    expect(guardSettings({ FORM_SECRET: 's'.repeat(32), FORM_TOKEN_TTL_S: '60' }, false, undefined).form).toStrictEqual({ secret: 's'.repeat(32), tokenTtlMs: 60_000 })
    expect(guardSettings({}, true, undefined).form.secret).toBe(devFormSecret)
    expect(loadConfig(testEnv()).form.secret).toBe(devFormSecret)
  })

  it('the allow-list: loopback by default in development only; plain http only in development', () => {
    expect(guardSettings({}, true, undefined).relay.targets).toStrictEqual({ allowHttp: true, allowNetworks: ['127.0.0.0/8', '::1/128'] })
    expect(guardSettings({ FORM_SECRET: 's'.repeat(32) }, false, undefined).relay.targets).toStrictEqual({ allowHttp: false, allowNetworks: [] })
    expect(guardSettings({ FORM_SECRET: 's'.repeat(32), WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/8, fd00::/8' }, false, undefined).relay.targets.allowNetworks).toStrictEqual(['10.0.0.0/8', 'fd00::/8'])
    expect(() => guardSettings({ FORM_SECRET: 's'.repeat(32) }, false, 'http://hooks.example/all')).toThrow(
      'CATCH_ALL_URL is refused: plain http is allowed only to allow-listed networks outside development; use https.'
    )
  })

  it('a lease shorter than two heartbeats is refused', () => {
    expect(() => loadConfig(testEnv({ WEBHOOK_LEASE_MS: '1500', WEBHOOK_HEARTBEAT_MS: '1000' }))).toThrow(
      'WEBHOOK_LEASE_MS (1500) must be at least twice WEBHOOK_HEARTBEAT_MS (1000): a lease must outlive a missed heartbeat.'
    )
    expect(loadConfig(testEnv()).relay).toMatchObject({ leaseMs: 4000, heartbeatMs: 1000 })
  })
})
