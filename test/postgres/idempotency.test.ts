/**
 * Safe retries across processes (docs/service.md, "Safe retries"; docs/rules.md C13): two service
 * processes on one PostgreSQL 17 database, the same request with the same Idempotency-Key sent to
 * both at once. The key's row, inserted (ON CONFLICT DO NOTHING) and locked (FOR UPDATE) by the
 * transaction of the change and written in it, makes the change happen once and both answers the
 * same; a key whose first request still runs is waited for, within IDEMPOTENCY_WAIT_MS, then 409
 * IdempotencyKeyInFlight; no advisory lock is taken.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devApiKey } from '../../docs/examples/service/config.js'
import { openPg, type Db } from '../../docs/examples/service/db/db.js'
import { claimSql, lockRowSql, scopeOf } from '../../docs/examples/service/db/idempotency.js'
import { cardRequest } from '../support/http.fixtures.js'
import { createDatabase, postForm, serverUrl } from '../support/reference-service.fixtures.js'
import { ServiceProcess } from './processes.js'

let url: string
let db: Db
let services: Array<ServiceProcess> = []

interface Answer {
  readonly status: number
  readonly text: string
}

const send = async (base: string, path: string, key: string | undefined, body?: unknown): Promise<Answer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${devApiKey}` }
  if (key !== undefined) headers['idempotency-key'] = key
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(base + path, { method: 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  return { status: res.status, text: await res.text() }
}

const count = async (sql: string, params: ReadonlyArray<unknown>): Promise<number> => Number((await db.query<{ n: string }>(sql, [...params])).rows[0]?.n ?? 0)

/** A charged card payment of 10000 (splits 9000 and 1000). */
const chargedPayment = async (base: string, ext: string): Promise<string> => {
  const created = await send(base, '/payments', undefined, cardRequest({ externalPaymentReferenceID: ext, chargeImmediately: true }))
  const id = (JSON.parse(created.text) as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated.paymentReferenceID
  expect((await postForm(base, id, 'complete')).status).toBe(303)
  return id
}

const refund = (amount: number): unknown => ({
  moneySplitPatch: [
    { splitID: 1, updateType: 'UpdateAmount', newAmount: 9000 - amount },
    { splitID: 2, updateType: 'DoNothing' }
  ],
  newGrossAmount: 10000 - amount
})

beforeAll(async () => {
  const admin = serverUrl()
  if (admin === undefined) throw new Error('PAYSPLIT_TEST_DATABASE_URL is not set: run npm run test:postgres')
  url = await createDatabase(admin)
  db = openPg(url, 4)
  services = await Promise.all([0, 1].map(() => ServiceProcess.start(url, { IDEMPOTENCY_WAIT_MS: '10000' })))
})

afterAll(async () => {
  const codes = await Promise.all(services.map((s) => s.stop()))
  expect(codes).toStrictEqual([0, 0])
  await db.close()
})

describe('two processes racing one Idempotency-Key', () => {
  it('a partial refund sent to both at once with one key is applied once, and both get the same answer (20 rounds)', async () => {
    const [a, b] = services.map((s) => s.base) as [string, string]
    for (let round = 0; round < 20; round++) {
      const id = await chargedPayment(a, `race-refund-${String(round)}`)
      const before = await count('SELECT count(*) AS n FROM payment_events WHERE payment_reference_id = $1', [id])
      const key = `race-refund-${String(round)}`
      const [x, y] = await Promise.all([send(a, `/payments/${id}/refund/partially`, key, refund(500)), send(b, `/payments/${id}/refund/partially`, key, refund(500))])
      expect(x.status).toBe(200)
      expect(y.text).toBe(x.text)
      expect(await count('SELECT count(*) AS n FROM payment_events WHERE payment_reference_id = $1', [id])).toBe(before + 1)
      expect(await count('SELECT count(*) AS n FROM idempotency_keys WHERE key = $1', [key])).toBe(1)
    }
  })

  it('without the key the second of the same two refunds is refused: the key is what makes the answers the same', async () => {
    const [a, b] = services.map((s) => s.base) as [string, string]
    const id = await chargedPayment(a, 'race-no-key')
    const answers = await Promise.all([send(a, `/payments/${id}/refund/partially`, undefined, refund(500)), send(b, `/payments/${id}/refund/partially`, undefined, refund(500))])
    expect(answers.map((r) => r.status).sort()).toStrictEqual([200, 400])
  })

  it('a create sent to both at once with one key: one payment, 201 twice with the same body (20 rounds)', async () => {
    const [a, b] = services.map((s) => s.base) as [string, string]
    for (let round = 0; round < 20; round++) {
      const body = cardRequest({ externalPaymentReferenceID: `race-create-${String(round)}` })
      const key = `race-create-${String(round)}`
      const [x, y] = await Promise.all([send(a, '/payments', key, body), send(b, '/payments', key, body)])
      expect([x.status, y.status]).toStrictEqual([201, 201])
      expect(y.text).toBe(x.text)
      expect(await count('SELECT count(*) AS n FROM payments WHERE external_payment_reference_id = $1', [`race-create-${String(round)}`])).toBe(1)
    }
  })
})

describe('a key whose first request is still in flight', () => {
  /** Holds the key's row lock, as the transaction of a first request does (its row inserted, not committed), until `release`. */
  const hold = async (key: string): Promise<{ release: () => Promise<void> }> => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('BEGIN')
    await client.query(claimSql, [scopeOf(`Bearer ${devApiKey}`), key])
    await client.query(lockRowSql, [scopeOf(`Bearer ${devApiKey}`), key])
    return {
      release: async () => {
        await client.query('ROLLBACK')
        await client.end()
      }
    }
  }

  it('is waited for: the request runs once the first finishes', async () => {
    const base = services[0]?.base ?? ''
    const id = await chargedPayment(base, 'inflight-wait')
    const held = await hold('inflight-wait')
    const pending = send(base, `/payments/${id}/cancel`, 'inflight-wait')
    const raced = await Promise.race([pending.then(() => 'answered'), new Promise((resolve) => setTimeout(() => { resolve('waiting'); }, 300))])
    expect(raced).toBe('waiting')
    await held.release()
    expect((await pending).status).toBe(409) // a charged card cannot be cancelled: the request ran
  })

  it('a key whose row is stored and locked by another transaction (its request running again): waited for, then the stored answer', async () => {
    const base = services[0]?.base ?? ''
    const id = await chargedPayment(base, 'inflight-row')
    const first = await send(base, `/payments/${id}/refund`, 'inflight-row')
    expect(first.status).toBe(200)
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query('BEGIN')
      await client.query(claimSql, [scopeOf(`Bearer ${devApiKey}`), 'inflight-row'])
      await client.query(lockRowSql, [scopeOf(`Bearer ${devApiKey}`), 'inflight-row'])
      const pending = send(services[1]?.base ?? '', `/payments/${id}/refund`, 'inflight-row')
      const raced = await Promise.race([pending.then(() => 'answered'), new Promise((resolve) => setTimeout(() => { resolve('waiting'); }, 300))])
      expect(raced).toBe('waiting')
      await client.query('COMMIT')
      expect(await pending).toStrictEqual(first)
    } finally {
      await client.end()
    }
  })

  it('past IDEMPOTENCY_WAIT_MS: 409 IdempotencyKeyInFlight, nothing changed', async () => {
    const quick = await ServiceProcess.start(url, { IDEMPOTENCY_WAIT_MS: '200' })
    try {
      const id = await chargedPayment(quick.base, 'inflight-give-up')
      const held = await hold('inflight-give-up')
      try {
        const r = await send(quick.base, `/payments/${id}/refund`, 'inflight-give-up')
        expect(r.status).toBe(409)
        expect(JSON.parse(r.text)).toMatchObject({ response: null, success: false })
        expect(await count('SELECT count(*) AS n FROM idempotency_keys WHERE key = $1', ['inflight-give-up'])).toBe(0)
      } finally {
        await held.release()
      }
      const after = await send(quick.base, `/payments/${id}/refund`, 'inflight-give-up')
      expect(after.status).toBe(200)
    } finally {
      expect(await quick.stop()).toBe(0)
    }
  })
})
