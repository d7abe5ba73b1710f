/**
 * The relay's leases (docs/service.md, "Recovery after a crash"): a claimer renews the lease of
 * each message it holds while its attempt runs, stops renewing one that another instance took over
 * (its `attempts` moved on), and does not record its outcome on it; every attempt is reported to
 * the `onAttempt` hook. The time after a kill -9 is measured in test/postgres/redelivery.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devWebhookSecret, loadConfig } from '../../docs/examples/service/config.js'
import { silentLogger } from '../../docs/examples/service/log.js'
import { Relay, type AttemptOutcome } from '../../docs/examples/service/outbox/relay.js'
import { paysplitRules } from '../../docs/examples/service/paysplit.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, eventually, outboxSettled, Receiver, startService, testDb, testEnv, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
let receiver: Receiver
let hooks = ''

beforeAll(async () => {
  receiver = new Receiver()
  receiver.slowMs = 5000
  hooks = await receiver.start()
  database = await testDb()
})

afterAll(async () => {
  await database.close()
  await receiver.stop()
})

const lease = async (id: string) =>
  (
    await database.db.query<{ attempts: number; status: string; until: string }>(
      "SELECT attempts, status, to_char(next_attempt_at, 'YYYY-MM-DD HH24:MI:SS.US') AS until FROM outbox WHERE payment_reference_id = $1",
      [id]
    )
  ).rows[0]

describe('leases', () => {
  it('renewed while the attempt runs; once another instance took the message over, neither renewed nor recorded', async () => {
    const writer = await startService(database.db, { RELAY: 'off' })
    let id = ''
    try {
      const r = await call(writer.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'lease-1', webhookSubscriptions: [{ eventType: 'Initiated', url: `${hooks}/slow-lease` }] }))
      id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
    } finally {
      await writer.service.close()
    }
    const config = loadConfig(testEnv({ WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '400', WEBHOOK_HEARTBEAT_MS: '100' }))
    const outcomes: Array<AttemptOutcome> = []
    const relay = new Relay(database.db, config.relay, [devWebhookSecret], silentLogger, paysplitRules.webhookMessage, { onAttempt: (o) => outcomes.push(o) })
    relay.start()
    try {
      await eventually(() => receiver.for('/slow-lease', id).length === 1, 15_000, 'the attempt to arrive')
      const claimed = await lease(id)
      expect(claimed).toMatchObject({ attempts: 1, status: 'pending' })
      // the heartbeat moves the lease on while the receiver takes its time
      await eventually(async () => (await lease(id))?.until !== claimed?.until, 15_000, 'a renewal')
      // another instance takes the message over, as after a lease that ran out
      await database.db.query("UPDATE outbox SET attempts = attempts + 1, next_attempt_at = now() + interval '1 hour' WHERE payment_reference_id = $1", [id])
      const taken = await lease(id)
      await eventually(() => outcomes.length === 1, 15_000, 'the attempt to end')
      // the receiver answered 200, but the row is no longer this claim: nothing recorded, lease untouched
      expect(await lease(id)).toStrictEqual(taken)
      expect(outcomes).toHaveLength(1)
    } finally {
      await relay.stop()
    }
    expect(outcomes[0]).toMatchObject({ outcome: 'delivered', status: 200 })
    await database.db.query("UPDATE outbox SET status = 'delivered' WHERE payment_reference_id = $1", [id])
  })

  it('onAttempt reports every attempt: retried, then dead with its reason', async () => {
    const outcomes: Array<AttemptOutcome> = []
    const writer = await startService(database.db, { RELAY: 'off' })
    try {
      await call(writer.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'lease-2', webhookSubscriptions: [{ eventType: 'Initiated', url: `${hooks}/down-hook` }] }))
    } finally {
      await writer.service.close()
    }
    const config = loadConfig(testEnv({ WEBHOOK_MAX_ATTEMPTS: '2' }))
    const relay = new Relay(database.db, config.relay, [devWebhookSecret], silentLogger, paysplitRules.webhookMessage, { onAttempt: (o) => outcomes.push(o) })
    relay.start()
    try {
      await eventually(() => outboxSettled(database.db))
    } finally {
      await relay.stop()
    }
    expect(outcomes.map(({ outcome, deadReason, status }) => ({ outcome, deadReason, status }))).toStrictEqual([
      { outcome: 'retry', deadReason: undefined, status: 503 },
      { outcome: 'dead', deadReason: 'attempts', status: 503 }
    ])
    expect(outcomes.every((o) => o.ms >= 0)).toBe(true)
  })
})
