/**
 * The outbox relay of the reference service: at least once, signed per Standard Webhooks, the
 * same webhook-id on every attempt, in event order per payment and url, bounded retries then
 * `dead` (kept), a receiver's answer read to 64 kB at most, pending messages resumed by another
 * instance after a stop, and relays sharing one outbox without sending a message twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { devWebhookSecret } from '../../docs/examples/service/config.js'
import { backoffMs } from '../../docs/examples/service/outbox/relay.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, eventually, outboxOf, outboxSettled, postForm, Receiver, startService, testDb, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
let receiver: Receiver
let hooks = ''
let refs = 0
const ref = (prefix: string): string => `${prefix}-${String((refs += 1))}`

beforeAll(async () => {
  receiver = new Receiver()
  hooks = await receiver.start()
  database = await testDb()
})

afterAll(async () => {
  await database.close()
  await receiver.stop()
})

const createAt = async (base: string): Promise<string> => {
  const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: ref('o'), chargeImmediately: true, webhookSubscriptions: [] }))
  expect(r.status).toBe(201)
  return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
}

describe('delivery outcomes', () => {
  it('a receiver failing twice gets the message on the 3rd attempt, with the same webhook-id and a valid signature each time', async () => {
    const { service, base } = await startService(database.db, { CATCH_ALL_URL: `${hooks}/flaky` })
    try {
      const id = await createAt(base)
      await eventually(() => outboxSettled(database.db))
      const got = receiver.for('/flaky', id)
      expect(got.map((r) => r.headers['webhook-id'])).toStrictEqual([`${id}:1`, `${id}:1`, `${id}:1`])
      expect(got.every((r) => r.verified)).toBe(true)
      expect(new Set(got.map((r) => r.raw)).size).toBe(1)
      expect(await outboxOf(database.db, id)).toMatchObject([{ status: 'delivered', attempts: 3, last_status: 200 }])
    } finally {
      await service.close()
    }
  })

  it('503 forever → dead after the configured attempts; 410 → dead at once; a closed port → dead; each kept with its last status', async () => {
    for (const [path, attempts, status] of [
      ['/down', 3, 503],
      ['/gone', 1, 410]
    ] as const) {
      const { service, base } = await startService(database.db, { CATCH_ALL_URL: `${hooks}${path}` })
      try {
        const id = await createAt(base)
        await eventually(() => outboxSettled(database.db))
        expect(await outboxOf(database.db, id)).toMatchObject([{ status: 'dead', attempts, last_status: status }])
      } finally {
        await service.close()
      }
    }
    const { service, base } = await startService(database.db, { CATCH_ALL_URL: 'http://127.0.0.1:9/closed' })
    try {
      const id = await createAt(base)
      await eventually(() => outboxSettled(database.db))
      expect(await outboxOf(database.db, id)).toMatchObject([{ status: 'dead', attempts: 3, last_status: null }])
    } finally {
      await service.close()
    }
  })

  it('a receiver that streams an endless answer: read to 64 kB, the connection cut, the message delivered (2xx)', async () => {
    const { service, base } = await startService(database.db, { CATCH_ALL_URL: `${hooks}/endless` })
    try {
      const id = await createAt(base)
      await eventually(() => outboxSettled(database.db))
      expect(await outboxOf(database.db, id)).toMatchObject([{ status: 'delivered', attempts: 1, last_status: 200 }])
      // the receiver wrote at most what the socket buffers held before the relay hung up
      expect(receiver.endlessBytes).toBeLessThan(16 * 1024 * 1024)
    } finally {
      await service.close()
    }
  })

  it('a receiver slower than the time limit: each attempt cut at the limit, then dead', async () => {
    const { service, base } = await startService(database.db, { CATCH_ALL_URL: `${hooks}/slow`, WEBHOOK_TIMEOUT_MS: '200', WEBHOOK_MAX_ATTEMPTS: '2' })
    try {
      const id = await createAt(base)
      await eventually(() => outboxSettled(database.db))
      const rows = await database.db.query<{ status: string; last_error: string }>('SELECT status, last_error FROM outbox WHERE payment_reference_id = $1', [id])
      expect(rows.rows).toStrictEqual([{ status: 'dead', last_error: 'timed out after 200 ms' }])
    } finally {
      await service.close()
    }
  })

  it('a tampered message fails verification with the same package', () => {
    const webhook = new Webhook(devWebhookSecret)
    const body = '{"eventID":"x:1"}'
    const at = new Date()
    const headers = { 'webhook-id': 'x:1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': webhook.sign('x:1', at, body) }
    expect(() => webhook.verify(body, headers)).not.toThrow()
    expect(() => webhook.verify(body.replace('1', '2'), headers)).toThrow()
  })
})

describe('order, restarts and sharing', () => {
  it('the events of one payment reach one url in event order, even when the first needs retries', async () => {
    const { service, base } = await startService(database.db, { CATCH_ALL_URL: `${hooks}/flaky-order` })
    try {
      const id = await createAt(base)
      expect((await postForm(base, id, 'complete')).status).toBe(303)
      await eventually(() => outboxSettled(database.db))
      const seen = receiver.for('/flaky-order', id).map((r) => String(r.headers['webhook-id']))
      // every attempt of event 1 comes before the first attempt of event 2
      expect(seen).toStrictEqual([`${id}:1`, `${id}:1`, `${id}:1`, `${id}:2`, `${id}:2`, `${id}:2`])
    } finally {
      await service.close()
    }
  })

  it('messages written while no relay runs are sent by the next instance on the same database', async () => {
    const writer = await startService(database.db, { CATCH_ALL_URL: `${hooks}/later`, RELAY: 'off' })
    const ids: Array<string> = []
    try {
      for (let i = 0; i < 5; i++) ids.push(await createAt(writer.base))
    } finally {
      await writer.service.close()
    }
    expect(await outboxSettled(database.db)).toBe(false)
    const next = await startService(database.db, {})
    try {
      await eventually(() => outboxSettled(database.db))
      for (const id of ids) expect(receiver.for('/later', id).map((r) => r.headers['webhook-id'])).toStrictEqual([`${id}:1`])
    } finally {
      await next.service.close()
    }
  })

  it('three relays on one outbox send each of 60 messages exactly once (SKIP LOCKED claims)', async () => {
    const writer = await startService(database.db, { CATCH_ALL_URL: `${hooks}/shared`, RELAY: 'off' })
    const ids: Array<string> = []
    try {
      for (let i = 0; i < 60; i++) ids.push(await createAt(writer.base))
    } finally {
      await writer.service.close()
    }
    const relays = await Promise.all([0, 1, 2].map(() => startService(database.db, { WEBHOOK_CONCURRENCY: '4' })))
    try {
      await eventually(() => outboxSettled(database.db))
      const got = receiver.received.filter((r) => r.path === '/shared').map((r) => String(r.headers['webhook-id']))
      expect(got.sort()).toStrictEqual(ids.map((id) => `${id}:1`).sort())
    } finally {
      await Promise.all(relays.map((r) => r.service.close()))
    }
  })
})

describe('backoff', () => {
  it('doubles from the base, capped, with jitter stretching each delay by up to a quarter (never shortening it)', () => {
    const c = { baseDelayMs: 100, maxDelayMs: 1000 }
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, c, 0))).toStrictEqual([100, 200, 400, 800, 1000])
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, c, 0.999999))).toStrictEqual([125, 200 * 1.25, 500, 1000, 1250])
  })
})
