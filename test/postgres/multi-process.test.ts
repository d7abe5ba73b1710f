/**
 * Three service processes on one PostgreSQL 17 database (`npm run test:postgres`): what must hold
 * across processes is held by the database (row locks, version checks, unique constraints), not
 * by any process's memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/index.js'
import { openPg, type Db } from '../../docs/examples/service/db/db.js'
import { cardRequest, invoiceRequest } from '../support/http.fixtures.js'
import { call, createDatabase, eventually, outboxSettled, postForm, Receiver, serverUrl, type Reply } from '../support/reference-service.fixtures.js'
import { ServiceProcess } from './processes.js'

let db: Db
let receiver: Receiver
let services: Array<ServiceProcess> = []
const base = (i: number): string => services[i % services.length]?.base ?? ''

const stateOf = async (id: string): Promise<Payment> =>
  (await db.query<{ state: Payment }>('SELECT state FROM payments WHERE payment_reference_id = $1', [id])).rows[0]?.state as Payment

beforeAll(async () => {
  const admin = serverUrl()
  if (admin === undefined) throw new Error('PAYSPLIT_TEST_DATABASE_URL is not set: run npm run test:postgres')
  const url = await createDatabase(admin)
  db = openPg(url, 10)
  receiver = new Receiver()
  const hooks = await receiver.start()
  // The three start at once: the migrations' advisory lock lets one apply them.
  services = await Promise.all([0, 1, 2].map(() => ServiceProcess.start(url, { CATCH_ALL_URL: `${hooks}/all`, KID_SCHEME: 'customer' })))
})

afterAll(async () => {
  const codes = await Promise.all(services.map((s) => s.stop()))
  expect(codes).toStrictEqual([0, 0, 0])
  await db.close()
  await receiver.stop()
})

describe('300 concurrent partial refunds across three processes', () => {
  it('Σ refunded = Σ of what the 200 answers said, per payment, and never above the charge', async () => {
    const ids: Array<string> = []
    for (let i = 0; i < 10; i++) {
      const r = await call(base(i), 'POST', '/payments', cardRequest({ externalPaymentReferenceID: `refund-${String(i)}`, chargeImmediately: true }))
      const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
      expect((await postForm(base(i + 1), id, 'complete')).status).toBe(303)
      ids.push(id)
    }
    const answered = new Map<string, number>(ids.map((id) => [id, 0]))
    let oks = 0
    // 30 clients a payment, each wanting 400 of split 1 (9000): 12000 wanted, at most 9000 there.
    // Each reads the payment, sends its patch, and on a refusal (a stale patch) reads again.
    const client = async (i: number): Promise<void> => {
      const id = ids[i % ids.length] ?? ''
      for (let tries = 0; tries < 200; tries++) {
        const p = await stateOf(id)
        const split = p.moneySplits.find((s) => s.splitID === 1)
        if (split === undefined || split.amount < 400) return
        const patch = {
          moneySplitPatch: p.moneySplits.map((s) =>
            s.splitID === 1 ? { splitID: 1, updateType: 'UpdateAmount', newAmount: s.amount - 400 } : { splitID: s.splitID, updateType: 'DoNothing' }
          ),
          newGrossAmount: p.grossAmount - 400
        }
        const r: Reply = await call(base(i + tries), 'POST', `/payments/${id}/refund/partially`, patch)
        if (r.status === 200) {
          oks++
          const refunded = (r.body.refundedSplit as ReadonlyArray<{ refundAmount: number }>).reduce((a, s) => a + s.refundAmount, 0)
          answered.set(id, (answered.get(id) ?? 0) + refunded)
          return
        }
        expect([400, 409]).toContain(r.status)
      }
    }
    await Promise.all(Array.from({ length: 300 }, (_, i) => client(i)))
    for (const id of ids) {
      const p = await stateOf(id)
      expect(p.refundedAmount).toBe(answered.get(id))
      expect(p.refundedAmount).toBeLessThanOrEqual(p.chargedAmount)
      expect(p.grossAmount + p.refundedAmount).toBe(p.chargedAmount)
    }
    const events = await db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM payment_events WHERE type = 'PaymentPartiallyRefunded' AND payment_reference_id = ANY($1::uuid[])",
      [ids]
    )
    expect(Number(events.rows[0]?.n)).toBe(oks)
    // every client that found 400 left got it: 22 a payment (8800 of 9000)
    expect(oks).toBe(220)
  })
})

describe('uniqueness across processes is the database’s', () => {
  it('200 identical creates across three processes: one payment, one 201, 199 × 200 with its id, one Initiated webhook', async () => {
    const body = cardRequest({ externalPaymentReferenceID: 'same-200' })
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => call(base(i), 'POST', '/payments', body)))
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 200)).toHaveLength(199)
    const ids = new Set(replies.map((r): unknown => r.body.paymentIntent.paymentCreated.paymentReferenceID))
    expect(ids.size).toBe(1)
    const id = [...ids][0] as string
    expect((await db.query("SELECT 1 FROM payments WHERE external_payment_reference_id = 'same-200'")).rows).toHaveLength(1)
    await eventually(() => outboxSettled(db))
    expect(receiver.for('/all', id).map((r) => r.headers['webhook-id'])).toStrictEqual([`${id}:1`])
  })

  it('two invoices with one KID at once, on two processes: one 201, one 409 DuplicateKid (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const customer = `kid-customer-${String(round)}`
      const [a, b] = await Promise.all([
        call(base(round), 'POST', '/payments', invoiceRequest({ externalPaymentReferenceID: `kid-a-${String(round)}`, customerExternalID: customer })),
        call(base(round + 1), 'POST', '/payments', invoiceRequest({ externalPaymentReferenceID: `kid-b-${String(round)}`, customerExternalID: customer }))
      ])
      expect([a?.status, b?.status].sort()).toStrictEqual([201, 409])
      expect([a, b].find((r) => r?.status === 409)?.body).toMatchObject({ success: false, error: { code: 'DuplicateKid' } })
    }
    const open = await db.query<{ kid: string; n: string }>(
      "SELECT kid, count(*)::text AS n FROM payments WHERE status = 'Initiated' AND kind = 'invoice' GROUP BY kid HAVING count(*) > 1"
    )
    expect(open.rows).toStrictEqual([])
  })
})

describe('graceful stop', () => {
  it('SIGTERM under load: the requests in flight are answered, the process exits 0, their changes and outbox rows are stored', async () => {
    const admin = serverUrl() ?? ''
    const url = await createDatabase(admin)
    const one = await ServiceProcess.start(url, { RELAY: 'off', CATCH_ALL_URL: 'http://127.0.0.1:9/hooks' })
    const check = openPg(url, 2)
    try {
      const replies = Array.from({ length: 40 }, (_, i) =>
        call(one.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: `term-${String(i)}` })).then(
          (r) => r.status,
          () => 0
        )
      )
      await new Promise((resolve) => setTimeout(resolve, 20))
      const code = one.stop()
      const statuses = await Promise.all(replies)
      expect(await code).toBe(0)
      const answered = statuses.filter((s) => s === 201).length
      expect(answered).toBeGreaterThan(0)
      // every 201 is stored with its Initiated message; nothing else was started
      const stored = await check.query<{ n: string; o: string }>("SELECT (SELECT count(*) FROM payments)::text AS n, (SELECT count(*) FROM outbox)::text AS o")
      expect(Number(stored.rows[0]?.n)).toBe(answered)
      expect(Number(stored.rows[0]?.o)).toBe(answered)
      expect(statuses.every((s) => s === 201 || s === 0)).toBe(true)
      // after the stop, nothing listens
      await expect(fetch(`${one.base}/healthz`)).rejects.toThrow()
    } finally {
      await check.close()
    }
  })
})
