/**
 * Safe retries in the reference service (docs/service.md, "Safe retries"; docs/rules.md C13):
 * the Idempotency-Key over HTTP, on PGlite (`npm test`) or a fresh database of the test server
 * (`npm run test:postgres`). The race of two processes on one key and the wait for a key in
 * flight are in test/postgres/idempotency.test.ts (PGlite runs one transaction at a time: a key
 * is never in flight there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devFormSecret, loadConfig } from '../../docs/examples/service/config.js'
import { scopeOf } from '../../docs/examples/service/db/idempotency.js'
import { createService, type Service } from '../../docs/examples/service/server.js'
import { formToken } from '../../docs/examples/service/routes/form.js'
import { checkService } from '../../src/conformance.js'
import { cardRequest } from '../support/http.fixtures.js'
import { testDb, testEnv, type TestDb } from '../support/reference-service.fixtures.js'

const KEY_A = 'test-key-a'
const KEY_B = 'test-key-b'
const DAY = 24 * 60 * 60 * 1000

interface Answer {
  readonly status: number
  readonly text: string
  readonly body: any
}

/** Sends a request with an API key and, when given, an Idempotency-Key. */
const send = async (base: string, method: string, path: string, options: { body?: unknown; key?: string; apiKey?: string } = {}): Promise<Answer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey ?? KEY_A}` }
  if (options.key !== undefined) headers['idempotency-key'] = options.key
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(base + path, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) })
  const text = await res.text()
  return { status: res.status, text, body: text === '' ? undefined : JSON.parse(text) }
}

let database: TestDb
let service: Service
let base: string
let clock = Date.UTC(2027, 2, 1, 9, 0, 0)
const tick = (ms = 1000): void => {
  clock += ms
}

beforeAll(async () => {
  database = await testDb()
  service = await createService(loadConfig(testEnv({ API_KEYS: `${KEY_A},${KEY_B}` })), { db: database.db, now: () => new Date(clock).toISOString() })
  base = await service.listen()
})

afterAll(async () => {
  await service.close()
  await database.close()
})

const count = async (sql: string, params: ReadonlyArray<unknown> = []): Promise<number> =>
  Number((await database.db.query<{ n: string }>(sql, [...params])).rows[0]?.n ?? 0)

const created = async (ext: string): Promise<string> => {
  const r = await send(base, 'POST', '/payments', { body: cardRequest({ externalPaymentReferenceID: ext }) })
  expect(r.status).toBe(201)
  return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
}

describe('the reference service keeps Idempotency-Keys', () => {
  it('a retried cancel gets the first answer, byte for byte; without the key, the payment as it is now', async () => {
    const id = await created('idem-cancel')
    tick()
    const first = await send(base, 'POST', `/payments/${id}/cancel`, { key: 'cancel-1' })
    tick()
    const again = await send(base, 'POST', `/payments/${id}/cancel`, { key: 'cancel-1' })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.text).toBe(first.text)
    expect((await send(base, 'POST', `/payments/${id}/cancel`)).status).toBe(409)
    expect(await count('SELECT count(*) AS n FROM payment_events WHERE payment_reference_id = $1', [id])).toBe(2)
  })

  it('a retried create answers 201 again with the same payment: one row, one set of events', async () => {
    const body = cardRequest({ externalPaymentReferenceID: 'idem-create' })
    const first = await send(base, 'POST', '/payments', { body, key: 'create-1' })
    tick()
    const again = await send(base, 'POST', '/payments', { body, key: 'create-1' })
    expect([first.status, again.status]).toStrictEqual([201, 201])
    expect(again.text).toBe(first.text)
    expect(await count("SELECT count(*) AS n FROM payments WHERE external_payment_reference_id = 'idem-create'")).toBe(1)
  })

  it('a stored refusal is answered again; a reused key with another request is 422 IdempotencyKeyReused, nothing changed', async () => {
    const id = await created('idem-refusal')
    tick()
    const refused = await send(base, 'POST', `/payments/${id}/charge`, { key: 'charge-1' })
    expect(refused.status).toBe(409)
    const again = await send(base, 'POST', `/payments/${id}/charge`, { key: 'charge-1' })
    expect(again.text).toBe(refused.text)
    const reused = await send(base, 'POST', `/payments/${id}/cancel`, { key: 'charge-1' })
    expect(reused.status).toBe(422)
    expect(reused.body).toStrictEqual({ response: null, success: false, error: expect.stringMatching(/idempotency-key.*another request/), code: 'IdempotencyKeyReused' })
    const [payment] = (await database.db.query<{ status: string }>('SELECT status FROM payments WHERE payment_reference_id = $1', [id])).rows
    expect(payment?.status).toBe('Initiated')
  })

  it('a key sent as a structured-field string is the bare key: one row, unquoted, and the retry in either form gets the first answer', async () => {
    const id = await created('idem-quoted')
    tick()
    const first = await send(base, 'POST', `/payments/${id}/cancel`, { key: '"quoted \\"1\\""' })
    expect(first.status).toBe(200)
    tick()
    const bare = await send(base, 'POST', `/payments/${id}/cancel`, { key: 'quoted "1"' })
    expect(bare.text).toBe(first.text)
    expect(await count(`SELECT count(*) AS n FROM idempotency_keys WHERE key = 'quoted "1"'`)).toBe(1)
    const malformed = await send(base, 'POST', `/payments/${id}/cancel`, { key: '"quoted' })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error).toMatch(/idempotency-key/)
  })

  it('keys are scoped by API key, stored under its digest, never the key itself', async () => {
    const a = await send(base, 'POST', '/payments', { body: cardRequest({ externalPaymentReferenceID: 'idem-scope-a' }), key: 'shared-key' })
    const b = await send(base, 'POST', '/payments', { body: cardRequest({ externalPaymentReferenceID: 'idem-scope-b' }), key: 'shared-key', apiKey: KEY_B })
    expect([a.status, b.status]).toStrictEqual([201, 201])
    const scopes = (await database.db.query<{ scope: string }>("SELECT scope FROM idempotency_keys WHERE key = 'shared-key' ORDER BY scope")).rows.map((r) => r.scope)
    expect(scopes).toStrictEqual([scopeOf(`Bearer ${KEY_A}`), scopeOf(`Bearer ${KEY_B}`)].sort())
    expect(scopes.some((s) => s.includes(KEY_A) || s.includes(KEY_B))).toBe(false)
  })

  it('a malformed key is 400 at headers.idempotency-key and stores nothing', async () => {
    const r = await send(base, 'POST', '/payments', { body: cardRequest({ externalPaymentReferenceID: 'idem-bad' }), key: 'k'.repeat(256) })
    expect(r.status).toBe(400)
    expect(r.body.error.issues[0].path).toBe('headers.idempotency-key')
    expect(await count("SELECT count(*) AS n FROM payments WHERE external_payment_reference_id = 'idem-bad'")).toBe(0)
  })

  it('a key is forgotten 24 hours after its first use: the request runs again, and stored keys make expired ones go', async () => {
    const id = await created('idem-expiry')
    const first = await send(base, 'POST', `/payments/${id}/cancel`, { key: 'expiring' })
    expect(first.status).toBe(200)
    const before = await count('SELECT count(*) AS n FROM idempotency_keys')
    tick(DAY)
    const later = await send(base, 'POST', `/payments/${id}/cancel`, { key: 'expiring' })
    expect(later.status).toBe(409) // a new request: the payment is cancelled already
    // that use stored its answer again, and removed every other key of 24 hours ago
    expect(await count('SELECT count(*) AS n FROM idempotency_keys')).toBe(1)
    expect(before).toBeGreaterThan(1)
  })

  it('passes the conformance runner in retry mode: every POST resent with its key gets its first answer', async () => {
    const report = await checkService({
      send: async ({ method, path, body, headers }) => {
        tick()
        const r = await send(base, method, path, { ...(body !== undefined ? { body } : {}), ...(headers?.['idempotency-key'] !== undefined ? { key: headers['idempotency-key'] } : {}) })
        return { status: r.status, body: r.body as unknown }
      },
      // the form's token expires by the service's clock, which this test sets
      completeForm: (id) =>
        fetch(`${base}/pay/${id}/complete`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: formToken(devFormSecret, id, 'complete', Math.floor(clock / 1000) + 3600) }).toString()
        }),
      environments: ['test'], // the simulated card gateway completes test payments only
      retries: 2,
      numRuns: 15,
      seed: 11,
      runId: 'service-retries'
    })
    expect(report.ok ? '' : report.counterexample).toBe('')
    expect(await count(`SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE $1`, [`${report.prefix}%`])).toBeGreaterThan(15)
  })
})
