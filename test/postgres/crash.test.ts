/**
 * kill -9 of one of three service processes under load (`npm run test:postgres`): nothing a 2xx
 * answer promised is lost, every committed event has its outbox rows (they were written in the
 * same transaction), and after a restart every webhook is delivered, verified by the receiver,
 * a message sent again carrying the same webhook-id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/index.js'
import { openPg, type Db } from '../../docs/examples/service/db/db.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, createDatabase, eventually, outboxSettled, postForm, Receiver, serverUrl } from '../support/reference-service.fixtures.js'
import { ServiceProcess } from './processes.js'

let db: Db
let url = ''
let hooks = ''
let receiver: Receiver
const services: Array<ServiceProcess> = []
// the default lease (4 s, renewed every second while the claimer lives): the killed process's claimed messages are sent again within it
const env = (): Record<string, string> => ({ CATCH_ALL_URL: `${hooks}/slow`, WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_MS: '4000', WEBHOOK_MAX_ATTEMPTS: '20' })

beforeAll(async () => {
  const admin = serverUrl()
  if (admin === undefined) throw new Error('PAYSPLIT_TEST_DATABASE_URL is not set: run npm run test:postgres')
  url = await createDatabase(admin)
  db = openPg(url, 10)
  receiver = new Receiver()
  // A receiver that takes a while: the killed process has deliveries in flight.
  receiver.slowMs = 150
  hooks = await receiver.start()
  services.push(...(await Promise.all([0, 1, 2].map(() => ServiceProcess.start(url, env())))))
})

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()))
  await db.close()
  await receiver.stop()
})

const WEBHOOK_EVENTS = ['PaymentCreated', 'PaymentReserved', 'PaymentCharged', 'PaymentCancelled', 'PaymentRefunded', 'PaymentPartiallyRefunded', 'InvoiceAdjusted']

describe('kill -9 of one process under load', () => {
  it('every 2xx answer’s effect is in the database, every event has its outbox rows, and after a restart every webhook arrives', async () => {
    const created = new Set<string>()
    const completed = new Set<string>()
    const refunded = new Map<string, number>()
    let failures = 0
    let stop = false
    let n = 0
    const worker = async (w: number): Promise<void> => {
      while (!stop) {
        const i = (n += 1)
        const at = (k: number): string => services[(w + i + k) % 3]?.base ?? ''
        try {
          const r = await call(at(0), 'POST', '/payments', cardRequest({ externalPaymentReferenceID: `crash-${String(i)}`, chargeImmediately: true }))
          if (r.status !== 201) continue
          const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
          created.add(id)
          const form = await postForm(at(1), id, 'complete')
          if (form.status !== 303) continue
          completed.add(id)
          const patch = {
            moneySplitPatch: [
              { splitID: 1, updateType: 'UpdateAmount', newAmount: 8900 },
              { splitID: 2, updateType: 'DoNothing' }
            ],
            newGrossAmount: 9900
          }
          const refund = await call(at(2), 'POST', `/payments/${id}/refund/partially`, patch)
          if (refund.status === 200) refunded.set(id, 100)
        } catch {
          failures++ // the killed process: no answer, so no promise
        }
      }
    }
    const workers = Array.from({ length: 16 }, (_, w) => worker(w))
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const victim = services[0] as ServiceProcess
    await victim.kill9()
    await new Promise((resolve) => setTimeout(resolve, 1500))
    stop = true
    await Promise.all(workers)
    expect(failures).toBeGreaterThan(0)
    expect(created.size).toBeGreaterThan(50)

    // every 2xx answer's effect is stored
    const rows = await db.query<{ id: string; state: Payment }>('SELECT payment_reference_id::text AS id, state FROM payments')
    const states = new Map(rows.rows.map((r) => [r.id, r.state]))
    for (const id of created) expect(states.has(id)).toBe(true)
    for (const id of completed) expect(states.get(id)?.status === 'Charged').toBe(true)
    for (const [id, amount] of refunded) expect(states.get(id)?.refundedAmount).toBe(amount)
    // the state is the fold of its events: as many events as its version, none missing
    const gaps = await db.query(
      `SELECT p.payment_reference_id FROM payments p
        WHERE p.version <> (SELECT count(*) FROM payment_events e WHERE e.payment_reference_id = p.payment_reference_id)`
    )
    expect(gaps.rows).toStrictEqual([])
    // every committed event of a webhook type has its outbox row
    const missing = await db.query(
      `SELECT e.payment_reference_id, e.version FROM payment_events e
        WHERE e.type = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.payment_reference_id = e.payment_reference_id AND o.event_version = e.version)`,
      [WEBHOOK_EVENTS]
    )
    expect(missing.rows).toStrictEqual([])

    // restart: a new process takes the killed one's place; every message ends delivered
    services[0] = await ServiceProcess.start(url, env())
    await eventually(() => outboxSettled(db), 60_000, 'the outbox to drain')
    const outbox = await db.query<{ webhook_id: string; status: string }>('SELECT webhook_id, status FROM outbox')
    expect(outbox.rows.every((r) => r.status === 'delivered')).toBe(true)
    const got = receiver.received.filter((r) => r.path === '/slow')
    expect(got.every((r) => r.verified)).toBe(true)
    const ids = got.map((r) => String(r.headers['webhook-id']))
    expect(new Set(ids)).toStrictEqual(new Set(outbox.rows.map((r) => r.webhook_id)))
    // a message sent again (the killed process had it in flight) carries the same id and the same body
    const byId = new Map<string, Set<string>>()
    for (const r of got) byId.set(String(r.headers['webhook-id']), (byId.get(String(r.headers['webhook-id'])) ?? new Set()).add(r.raw))
    expect([...byId.values()].every((bodies) => bodies.size === 1)).toBe(true)
    const repeats = ids.length - byId.size
    console.log(`kill -9: ${String(created.size)} payments, ${String(failures)} requests without an answer, ${String(outbox.rows.length)} messages, ${String(repeats)} sent again (in flight at the kill)`)
    expect(repeats).toBeGreaterThan(0)
  })
})
