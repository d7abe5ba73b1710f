/**
 * Callers and their keys (docs/service.md, "Keys and callers", "Rotating keys and secrets"):
 * several keys name one caller (`API_KEYS` as `id:key` pairs, a bare key named by its digest); a
 * caller's Idempotency-Keys are scoped by its id, so a retry sent with the new key of a rotation
 * gets the answer stored under the old one; each request line names the caller, the error code and
 * an idempotent replay; 401 and 403 at warn; metrics count replays apart; and every configured
 * secret is masked in every line, wherever a client puts it (rules, one per place).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeConfig, devMetricsKey, keyDigestId, loadConfig, secretsOf, type Config } from '../../docs/examples/service/config.js'
import { jsonLogger } from '../../docs/examples/service/log.js'
import { createService, type Service } from '../../docs/examples/service/server.js'
import { cardRequest } from '../support/http.fixtures.js'
import { testDb, testEnv, type TestDb } from '../support/reference-service.fixtures.js'

const key = (): string => randomBytes(24).toString('base64url')
const OLD = key()
const NEW = key()
const OTHER = key()
const BARE = key()
const BANK = key()
const METRICS = key()
const SECRET_A = `whsec_${randomBytes(32).toString('base64')}`
const SECRET_B = `whsec_${randomBytes(32).toString('base64')}`
const FORM = randomBytes(32).toString('base64url')
const DB_PASSWORD = `pw-${randomBytes(12).toString('hex')}`

let database: TestDb
let service: Service
let base = ''
let config: Config
const lines: Array<Record<string, unknown>> = []
const raw: Array<string> = []

beforeAll(async () => {
  database = await testDb()
  config = loadConfig(
    testEnv({
      API_KEYS: `shop-a:${OLD}, shop-a:${NEW}, shop-b:${OTHER}, ${BARE}`,
      BANK_API_KEYS: `bank:${BANK}`,
      METRICS_KEYS: `scraper:${METRICS}`,
      WEBHOOK_SECRET: `${SECRET_A},${SECRET_B}`,
      FORM_SECRET: FORM,
      // never connected to: the tests give the database; its password is still a secret of the configuration
      DATABASE_URL: `postgres://svc:${DB_PASSWORD}@127.0.0.1:9/payments`
    })
  )
  const log = jsonLogger((line) => {
    raw.push(line)
    lines.push(JSON.parse(line) as Record<string, unknown>)
  }, secretsOf(config))
  service = await createService(config, { db: database.db, log })
  base = await service.listen()
})

afterAll(async () => {
  await service.close()
  await database.close()
})

/** The request line of the answer that carried `requestId`. */
const lineOf = (requestId: string): Record<string, unknown> | undefined => lines.find((l) => l['msg'] === 'request' && l['requestId'] === requestId)

const send = async (method: string, path: string, options: { key?: string | null; body?: unknown; idem?: string; requestId?: string } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': options.requestId ?? `r-${randomBytes(6).toString('hex')}` }
  if (options.key !== null) headers['authorization'] = `Bearer ${options.key ?? OLD}`
  if (options.idem !== undefined) headers['idempotency-key'] = options.idem
  const r = await fetch(base + path, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) })
  const text = await r.text()
  return { status: r.status, text, line: lineOf(headers['x-request-id'] ?? '') }
}

describe('keys name callers', () => {
  it('API_KEYS as id:key pairs and bare keys: each key its caller, a bare key named by 16 hex digits of its SHA-256', () => {
    expect(config.apiKeys).toStrictEqual([
      { id: 'shop-a', key: OLD },
      { id: 'shop-a', key: NEW },
      { id: 'shop-b', key: OTHER },
      { id: keyDigestId(BARE), key: BARE }
    ])
    expect(keyDigestId(BARE)).toMatch(/^[0-9a-f]{16}$/)
  })

  it('a retry sent with the new key of a rotation gets the answer stored under the old one: one payment, the same bytes, replayed: true', async () => {
    const body = cardRequest({ externalPaymentReferenceID: 'rotation-1' })
    const first = await send('POST', '/payments', { key: OLD, body, idem: 'rotate-1' })
    expect(first.status).toBe(201)
    const retried = await send('POST', '/payments', { key: NEW, body, idem: 'rotate-1' })
    expect(retried.status).toBe(201)
    expect(retried.text).toBe(first.text)
    expect(first.line).toMatchObject({ caller: 'shop-a', status: 201 })
    expect(first.line).not.toHaveProperty('replayed')
    expect(retried.line).toMatchObject({ caller: 'shop-a', status: 201, replayed: true, level: 'info' })
    const payments = await database.db.query("SELECT 1 FROM payments WHERE external_payment_reference_id = 'rotation-1'")
    expect(payments.rows).toHaveLength(1)
    const keys = await database.db.query<{ scope: string }>("SELECT scope FROM idempotency_keys WHERE key = 'rotate-1'")
    expect(keys.rows).toStrictEqual([{ scope: 'shop-a' }])
  })

  it('another caller with the same Idempotency-Key is another scope: not a replay (the create is answered as a repeat by its reference)', async () => {
    const body = cardRequest({ externalPaymentReferenceID: 'rotation-1' })
    const other = await send('POST', '/payments', { key: OTHER, body, idem: 'rotate-1' })
    expect(other.status).toBe(200)
    expect(other.line).toMatchObject({ caller: 'shop-b', status: 200 })
    expect(other.line).not.toHaveProperty('replayed')
  })

  it('a refusal replayed is marked too, with its code; the bare key is its digest caller', async () => {
    const body = cardRequest({ externalPaymentReferenceID: 'refused-1', grossAmount: -1 })
    const first = await send('POST', '/payments', { key: BARE, body, idem: 'refused-1' })
    const again = await send('POST', '/payments', { key: BARE, body, idem: 'refused-1' })
    expect([first.status, again.status]).toStrictEqual([400, 400])
    expect(again.text).toBe(first.text)
    expect(first.line).toMatchObject({ caller: keyDigestId(BARE), status: 400, code: 'ValidationFailed' })
    expect(first.line).not.toHaveProperty('replayed')
    expect(again.line).toMatchObject({ caller: keyDigestId(BARE), status: 400, code: 'ValidationFailed', replayed: true })
  })
})

describe('request lines', () => {
  it('a 4xx carries its error code; 401 is at warn without a caller; the bank key names its caller', async () => {
    const invalid = await send('POST', '/payments', { body: cardRequest({ externalPaymentReferenceID: 'lines-1', grossAmount: -1 }) })
    expect(invalid.line).toMatchObject({ level: 'info', status: 400, code: 'ValidationFailed', caller: 'shop-a' })
    const missing = await send('GET', '/payments/00000000-0000-4000-8000-000000000000')
    expect(missing.line).toMatchObject({ status: 404, code: 'PaymentNotFound' })
    const wrong = await send('GET', '/payments', { key: 'not-a-key' })
    expect(wrong.line).toMatchObject({ level: 'warn', status: 401, code: 'Unauthorized' })
    expect(wrong.line).not.toHaveProperty('caller')
    const none = await send('GET', '/events', { key: null })
    expect(none.line).toMatchObject({ level: 'warn', status: 401 })
    const bank = await send('POST', '/bank/transfers', { key: BANK, body: { kid: 'nope', amount: 1 } })
    expect(bank.line).toMatchObject({ status: 400, caller: 'bank', code: 'ValidationFailed' })
    const ok = await send('GET', '/healthz', { key: null })
    expect(ok.line).toMatchObject({ level: 'info', status: 200 })
    expect(ok.line).not.toHaveProperty('code')
  })

  it('403 of the form (a post without its token) is at warn', async () => {
    const r = await fetch(`${base}/pay/00000000-0000-4000-8000-000000000000/complete`, { method: 'POST', headers: { 'x-request-id': 'form-403', 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=' })
    expect([403, 404]).toContain(r.status)
    expect(lineOf('form-403')).toMatchObject({ level: r.status === 403 ? 'warn' : 'info' })
  })
})

describe('metrics count replays apart', () => {
  it('a replayed 201 is paysplit_http_requests_total{replayed="true"}, not another new 201', async () => {
    const scrape = async (): Promise<string> => (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).text()
    const value = (text: string, series: string): number => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.slice(series.length + 1) ?? 0)
    const fresh = 'paysplit_http_requests_total{route="/payments",method="POST",status="201",replayed="false"}'
    const replay = 'paysplit_http_requests_total{route="/payments",method="POST",status="201",replayed="true"}'
    const before = await scrape()
    const body = cardRequest({ externalPaymentReferenceID: 'metrics-replay' })
    expect((await send('POST', '/payments', { body, idem: 'm-1' })).status).toBe(201)
    expect((await send('POST', '/payments', { body, idem: 'm-1', key: NEW })).status).toBe(201)
    expect((await send('POST', '/payments', { body, idem: 'm-1' })).status).toBe(201)
    const after = await scrape()
    expect(value(after, fresh) - value(before, fresh)).toBe(1)
    expect(value(after, replay) - value(before, replay)).toBe(2)
    expect(devMetricsKey).not.toBe(METRICS)
  })
})

describe('every configured secret is masked in every log line, wherever it is sent', () => {
  const secrets: ReadonlyArray<readonly [string, string]> = [
    ['an API key', NEW],
    ['a bank key', BANK],
    ['the metrics key', METRICS],
    ['the first webhook secret', SECRET_A],
    ['the second webhook secret', SECRET_B],
    ['FORM_SECRET', FORM],
    ['the database password', DB_PASSWORD]
  ]
  const places: ReadonlyArray<readonly [string, (s: string) => Promise<unknown>]> = [
    ['as x-request-id', (s) => fetch(`${base}/healthz`, { headers: { 'x-request-id': s } })],
    ['in the path', (s) => fetch(`${base}/payments/${encodeURIComponent(s)}`, { headers: { authorization: `Bearer ${OLD}` } })],
    ['in the path of an unknown route, without a key', (s) => fetch(`${base}/${encodeURIComponent(s)}/x`)],
    ['in a customer path', (s) => fetch(`${base}/customers/${encodeURIComponent(s)}`, { headers: { authorization: `Bearer ${OLD}` } })],
    ['in the query', (s) => fetch(`${base}/payments?externalPaymentReferenceID=${encodeURIComponent(s)}`, { headers: { authorization: `Bearer ${OLD}` } })],
    ['as the bearer key of another role', (s) => fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${s}` } })],
    ['as the form page id', (s) => fetch(`${base}/pay/${encodeURIComponent(s)}`)],
    ['as a form token', (s) => fetch(`${base}/pay/00000000-0000-4000-8000-000000000000/fail`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(s)}&reason=${encodeURIComponent(s)}` })]
  ]
  /** Every 12 characters of a secret, as written and percent-encoded: no part of it may show. */
  const fragments = (secret: string): ReadonlyArray<string> =>
    [secret, encodeURIComponent(secret)].flatMap((s) => Array.from({ length: Math.max(1, s.length - 11) }, (_, i) => s.slice(i, i + 12)))
  for (const [what, secret] of secrets) {
    it.each(places)(`${what}, %s: no part of it in a line`, async (_where, sendIt) => {
      const from = raw.length
      await sendIt(secret)
      const written = raw.slice(from).join('\n')
      expect(written).toContain('"msg":"request"')
      for (const f of fragments(secret)) expect(written).not.toContain(f)
    })
  }

  it('the configuration as printed at start masks every one of them', () => {
    const printed = JSON.stringify(describeConfig(config))
    for (const [, s] of secrets) for (const f of fragments(s)) expect(printed).not.toContain(f)
  })
})
