/**
 * C15 on a real database (PGlite, in-process): the functions of paysplit/schema.sql a store calls.
 * `paysplit.store` writes an operation's changes, its outbox rows and the transfers to park in one
 * call, a payment only at the version read and every other row only where the stored one is still
 * as loaded, else SQLSTATE 40001 (a key taken: 23505) and nothing written; `paysplit.outbox_claim`
 * and `paysplit.outbox_sent` keep a payment's webhooks to one url in order and retry what failed;
 * `paysplit.forget` deletes what paysplit no longer reads.
 */
import type { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CAMT054_MEMORY_DAYS, handle, IDEMPOTENCY_KEY_TTL_MS, requestKeys, type HttpRequest, type Outcome, type RowKeys, type World } from '../../src/http.js'
import { atOf, cardRequest, CATCH_ALL, idOf } from '../support/http.fixtures.js'
import { loadRows, schemaDb, storeOutcome } from '../support/schemaDb.js'

let db: PGlite

beforeAll(async () => {
  db = await schemaDb()
})
afterAll(async () => {
  await db.close()
})

const load = (keys: RowKeys): Promise<readonly [string, World]> => loadRows(db, keys)
const store = (o: Outcome, loaded: string, parked: unknown[] = []): Promise<unknown> => storeOutcome(db, o, loaded, parked)

const count = async (table: string): Promise<number> => Number((await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM paysplit.${table}`)).rows[0]?.n)

const codeOf = async (p: Promise<unknown>): Promise<string | undefined> => p.then(() => undefined, (e: unknown) => (e as { code?: string }).code)

/** One request as a store runs it, up to the write: its keys loaded, `handle` on them. */
const prepare = async (request: HttpRequest, n: number, scope?: string): Promise<readonly [string, ReturnType<typeof handle>]> => {
  const ctx = { at: atOf(n), paymentReferenceID: idOf(n), catchAllUrl: CATCH_ALL, ...(scope === undefined ? {} : { idempotencyScope: scope }) }
  const [loaded, world] = await load(requestKeys(request, ctx))
  return [loaded, handle(world, request, ctx)]
}

const post = (path: string, body?: unknown, key?: string): HttpRequest => ({ method: 'POST', path, ...(body === undefined ? {} : { body }), ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) })

describe('C15: paysplit.store, outbox_claim, outbox_sent and forget in paysplit/schema.sql', () => {
  it('paysplit.store writes a create (payment, events, customer, reference, kept answer) and its outbox rows; paysplit.load reads them back as the world returned', async () => {
    const [loaded, created] = await prepare(post('/payments', cardRequest({ externalPaymentReferenceID: 'schema-1', customerExternalID: 'schema-c1', customer: { name: 'Kari' } }), 'k-1'), 1, 'shop-1')
    expect(created.response.status).toBe(201)
    await store(created, loaded)
    const [, world] = await load({ paymentReferenceIDs: [idOf(1)], externalPaymentReferenceIDs: [], customerExternalIDs: [], openInvoiceKids: [], idempotency: { scope: 'shop-1', key: 'k-1' } })
    expect(world.payments.get(idOf(1))).toStrictEqual(created.world.payments.get(idOf(1)))
    expect(world.customers.get('schema-c1')).toStrictEqual(created.world.customers.get('schema-c1'))
    expect(world.idempotencyKeys?.size).toBe(1)
    const outbox = (await db.query<{ url: string; id: string; body: string }>('SELECT url, id, body FROM paysplit.outbox ORDER BY seq')).rows
    expect(outbox).toStrictEqual(created.deliveries.map((d) => ({ url: d.url, id: d.id, body: d.body })))
    const events = (await db.query<{ id: string }>("SELECT data->>'eventID' AS id FROM paysplit.events WHERE payment = $1 ORDER BY version", [idOf(1)])).rows
    expect(events.map((e) => e.id)).toStrictEqual(created.changes.payments[0]?.events.map((e) => e.eventID))
  })

  it('a payment no longer at fromVersion: 40001 and nothing written (no event, no outbox row, no parked transfer)', async () => {
    const cancel = post(`/payments/${idOf(1)}/cancel`)
    const [loadedA, first] = await prepare(cancel, 2)
    const [loadedB, second] = await prepare(cancel, 3)
    await store(first, loadedA)
    const before = await Promise.all(['events', 'outbox', 'unmatched_transfers'].map(count))
    expect(await codeOf(store(second, loadedB, [{ kid: 'x', amount: 1 }]))).toBe('40001')
    expect(await Promise.all(['events', 'outbox', 'unmatched_transfers'].map(count))).toStrictEqual(before)
    const [, again] = await prepare(cancel, 4) // run again on fresh rows: refused, nothing to write
    expect(again.response.status).toBe(409)
  })

  it('a customer that appeared since it was read: 40001; run again on fresh rows, the record merged, every field kept', async () => {
    const create = (n: number, customer: Record<string, string>) =>
      post('/payments', cardRequest({ externalPaymentReferenceID: `schema-m${String(n)}`, customerExternalID: 'schema-c2', customer }))
    const [loadedA, a] = await prepare(create(5, { name: 'Kari Nordmann' }), 5)
    const [loadedB, b] = await prepare(create(6, { email: 'kari@example.no' }), 6)
    await store(a, loadedA)
    expect(await codeOf(store(b, loadedB))).toBe('40001')
    const [loadedC, c] = await prepare(create(6, { email: 'kari@example.no' }), 6)
    await store(c, loadedC)
    const [, world] = await load({ paymentReferenceIDs: [], externalPaymentReferenceIDs: [], customerExternalIDs: ['schema-c2'], openInvoiceKids: [] })
    expect(world.customers.get('schema-c2')).toMatchObject({ name: 'Kari Nordmann', email: 'kari@example.no' })
    // a reference another request took since: the insert meets the unique key
    const [loadedD, d] = await prepare(create(7, {}), 7)
    const [loadedE, e] = await prepare(create(7, {}), 8)
    await store(d, loadedD)
    expect(await codeOf(store(e, loadedE))).toMatch(/^(23505|40001)$/)
  })

  it('an expired idempotency key loaded is replaced by the new answer; one kept since it was read (another request with that key won): 40001', async () => {
    const create = (n: number) => post('/payments', cardRequest({ externalPaymentReferenceID: `schema-k${String(n)}` }), 'k-expired')
    const old = new Date(Date.parse(atOf(20)) - IDEMPOTENCY_KEY_TTL_MS - 1000).toISOString()
    await db.query('INSERT INTO paysplit.idempotency_keys (data) VALUES ($1)', [JSON.stringify({ scope: 'shop-9', key: 'k-expired', at: old, request: { method: 'POST', path: '/payments', body: {} }, response: { status: 400, body: {} } })])
    const [loadedA, a] = await prepare(create(20), 20, 'shop-9')
    expect(a.response.status).toBe(201) // the kept answer expired: a new request
    await store(a, loadedA)
    const kept = (await db.query<{ at: string }>("SELECT at FROM paysplit.idempotency_keys WHERE data->>'key' = 'k-expired'")).rows
    expect(kept).toStrictEqual([{ at: atOf(20) }])
    await db.exec("DELETE FROM paysplit.idempotency_keys WHERE data->>'key' = 'k-expired-2'")
    const race = (n: number) => post('/payments', cardRequest({ externalPaymentReferenceID: `schema-k${String(n)}` }), 'k-expired-2')
    const [loadedB, b] = await prepare(race(21), 21, 'shop-9')
    const [loadedC, c] = await prepare(race(22), 22, 'shop-9')
    await store(b, loadedB)
    expect(await codeOf(store(c, loadedC))).toBe('40001')
  })

  it('outbox_claim: a payment\'s rows to one url in order, each leased; outbox_sent ends a row on 2xx or a 4xx but 408 and 429, else again later, and gives up at max_attempts', async () => {
    await db.exec('DELETE FROM paysplit.outbox')
    const row = (id: string, url: string) => db.query('INSERT INTO paysplit.outbox (url, id, body) VALUES ($1, $2, $3)', [url, id, '{}'])
    await row(`${idOf(50)}:1`, 'https://a.example/')
    await row(`${idOf(50)}:2`, 'https://a.example/')
    await row(`${idOf(50)}:2`, 'https://b.example/')
    const claim = async () => (await db.query<{ seq: number; id: string; url: string }>('SELECT * FROM paysplit.outbox_claim() ORDER BY seq')).rows
    const first = await claim()
    expect(first.map((r) => [r.id, r.url])).toStrictEqual([[`${idOf(50)}:1`, 'https://a.example/'], [`${idOf(50)}:2`, 'https://b.example/']])
    expect(await claim()).toStrictEqual([]) // leased, and :2 to a.example waits for :1
    const sent = (seq: number, status: number, max?: number) => db.query(`SELECT paysplit.outbox_sent($1, $2${max === undefined ? '' : ', $3'})`, [seq, status, ...(max === undefined ? [] : [max])])
    await sent(first[0]?.seq ?? 0, 503)
    await sent(first[1]?.seq ?? 0, 410)
    const state = async () => (await db.query<{ id: string; url: string; done: boolean; last_status: number }>('SELECT id, url, done_at IS NOT NULL AS done, last_status FROM paysplit.outbox ORDER BY seq')).rows
    expect((await state()).map((r) => [r.done, r.last_status])).toStrictEqual([[false, 503], [false, null], [true, 410]])
    await db.exec('UPDATE paysplit.outbox SET next_attempt_at = now()') // the 503's retry is due
    const second = await claim()
    expect(second.map((r) => r.id)).toStrictEqual([`${idOf(50)}:1`]) // still first in line
    await sent(second[0]?.seq ?? 0, 0, 2) // no answer, and the second attempt of 2: given up
    expect((await state())[0]).toMatchObject({ done: true, last_status: 0 })
    for (const [status, done] of [[200, true], [302, true], [404, true], [408, false], [429, false], [500, false]] as const) {
      await db.exec('UPDATE paysplit.outbox SET done_at = NULL, attempts = 1 WHERE seq = (SELECT max(seq) FROM paysplit.outbox)')
      await sent(Number((await db.query<{ seq: number }>('SELECT max(seq) AS seq FROM paysplit.outbox')).rows[0]?.seq), status)
      expect([status, (await state())[2]?.done]).toStrictEqual([status, done])
    }
  })

  it('forget deletes idempotency keys older than 24 hours and camt.054 rows older than 400 days (a booking by its day): paysplit\'s constants', async () => {
    expect(IDEMPOTENCY_KEY_TTL_MS).toBe(24 * 3600 * 1000)
    expect(CAMT054_MEMORY_DAYS).toBe(400)
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
    const day = 86_400_000
    const key = (k: string, at: string) => db.query('INSERT INTO paysplit.idempotency_keys (data) VALUES ($1)', [JSON.stringify({ key: k, at, request: { method: 'POST', path: '/payments' }, response: { status: 200, body: {} } })])
    await key('forget-old', ago(IDEMPOTENCY_KEY_TTL_MS + 60_000))
    await key('forget-new', ago(IDEMPOTENCY_KEY_TTL_MS - 60_000))
    await db.query('INSERT INTO paysplit.camt054_messages (data) VALUES ($1), ($2)', [JSON.stringify({ messageId: 'old', at: ago(401 * day) }), JSON.stringify({ messageId: 'new', at: ago(399 * day) })])
    const booked = (days: number) => ago(days * day).slice(0, 10)
    await db.query('INSERT INTO paysplit.camt054_transactions (data) VALUES ($1), ($2), ($3)', [
      JSON.stringify({ transactionKey: 'old', bookingDate: booked(401) }), JSON.stringify({ transactionKey: 'edge', bookingDate: booked(400) }), JSON.stringify({ transactionKey: 'new', bookingDate: booked(399) })
    ])
    await db.exec('SELECT paysplit.forget()')
    const keys = async (table: string, field: string) => (await db.query<{ k: string }>(`SELECT data->>'${field}' AS k FROM paysplit.${table} ORDER BY 1`)).rows.map((r) => r.k)
    expect((await keys('idempotency_keys', 'key')).filter((k) => k.startsWith('forget-'))).toStrictEqual(['forget-new'])
    expect(await keys('camt054_messages', 'messageId')).toStrictEqual(['new'])
    expect(await keys('camt054_transactions', 'transactionKey')).toStrictEqual(['edge', 'new'])
  })
})
