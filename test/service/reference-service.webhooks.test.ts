/**
 * The relay as the Standard Webhooks specification asks (docs/service.md, "The outbox"): a 429's or
 * 503's `Retry-After` honoured (capped), a 410 that disables its url for later messages until an
 * operator enables it again, an exponential schedule with jitter spanning more than 3 days by
 * default, and every message signed with each configured secret while a rotation lasts, verified
 * by the standardwebhooks package.
 */
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../docs/examples/service/config.js'
import { listDisabledUrls, listDeadLetters, runDeadLetters } from '../../docs/examples/service/outbox/deadLetters.js'
import { backoffMs, nextDelayMs, retrySpanMs } from '../../docs/examples/service/outbox/relay.js'
import { retryAfterMs } from '../../docs/examples/service/outbox/send.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, eventually, outboxOf, outboxSettled, Receiver, startService, testDb, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
let receiver: Receiver
let hooks = ''
let refs = 0

beforeAll(async () => {
  receiver = new Receiver()
  hooks = await receiver.start()
  database = await testDb()
})

afterAll(async () => {
  await database.close()
  await receiver.stop()
})

const create = async (base: string, urls: ReadonlyArray<string>): Promise<string> => {
  refs += 1
  const webhookSubscriptions = urls.map((url) => ({ eventType: 'Initiated', url }))
  const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: `wh-${String(refs)}`, webhookSubscriptions }))
  expect(r.status).toBe(201)
  return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
}

const HOUR = 60 * 60_000

describe('the retry schedule', () => {
  it('by default: 5 s doubling to a day, 18 attempts, spanning more than 3 days even without jitter', () => {
    const relay = loadConfig({ DEV_MODE: '1' }).relay
    expect(relay).toMatchObject({ baseDelayMs: 5000, maxDelayMs: 24 * HOUR, maxAttempts: 18 })
    const delays = Array.from({ length: relay.maxAttempts - 1 }, (_, i) => backoffMs(i + 1, relay, 0))
    expect(delays.slice(0, 4)).toStrictEqual([5000, 10_000, 20_000, 40_000])
    expect(delays.at(-1)).toBe(24 * HOUR)
    expect(retrySpanMs(relay)).toBe(delays.reduce((a, b) => a + b, 0))
    expect(retrySpanMs(relay)).toBeGreaterThan(72 * HOUR)
    console.info(`default schedule: ${delays.map((d) => (d < HOUR ? `${String(d / 1000)} s` : `${(d / HOUR).toFixed(1)} h`)).join(', ')}; at least ${(retrySpanMs(relay) / HOUR).toFixed(1)} h in all`)
  })

  it('jitter only stretches a delay (by up to a quarter), so the span is a floor', () => {
    const c = { baseDelayMs: 5000, maxDelayMs: 24 * HOUR }
    for (const r of [0, 0.25, 0.5, 0.999]) {
      for (let n = 1; n < 18; n++) {
        const d = backoffMs(n, c, r)
        expect(d).toBeGreaterThanOrEqual(backoffMs(n, c, 0))
        expect(d).toBeLessThanOrEqual(Math.round(backoffMs(n, c, 0) * 1.25))
      }
    }
  })

  it('Retry-After of a 429 or a 503 is honoured when longer than the schedule, capped at the longest delay; other statuses ignore it', () => {
    const c = { baseDelayMs: 1000, maxDelayMs: 60_000 }
    expect(nextDelayMs(1, { status: 503, retryAfterMs: 30_000 }, c, 0)).toBe(30_000)
    expect(nextDelayMs(1, { status: 429, retryAfterMs: 30_000 }, c, 0)).toBe(30_000)
    expect(nextDelayMs(1, { status: 429, retryAfterMs: 10 * HOUR }, c, 0)).toBe(60_000)
    expect(nextDelayMs(3, { status: 503, retryAfterMs: 100 }, c, 0)).toBe(4000)
    expect(nextDelayMs(1, { status: 500, retryAfterMs: 30_000 }, c, 0)).toBe(1000)
    expect(nextDelayMs(1, {}, c, 0)).toBe(1000)
  })

  it.each([
    ['delay-seconds', '120', 120_000],
    ['an HTTP-date ahead', 'Sat, 21 Nov 2026 10:01:00 GMT', 60_000],
    ['an HTTP-date past', 'Sat, 21 Nov 2026 09:00:00 GMT', 0],
    ['a negative number', '-5', undefined],
    ['a fraction', '1.5', undefined],
    ['not a date', 'soon', undefined],
    ['absent', undefined, undefined]
  ])('Retry-After as %s', (_what, header, ms) => {
    expect(retryAfterMs(header, Date.parse('2026-11-21T10:00:00Z'))).toBe(ms)
  })

  it('a receiver answering 503 with Retry-After: 1, or 429 with a date, is not tried again before a second (the schedule alone: 20 ms)', async () => {
    // the cap of a Retry-After is the longest delay: 5 s here
    const { service, base } = await startService(database.db, { WEBHOOK_MAX_DELAY_MS: '5000' })
    try {
      const id = await create(base, [`${hooks}/busy-one`, `${hooks}/throttled-one`])
      await eventually(() => outboxSettled(database.db))
      for (const [path, at] of [
        ['/busy-one', 1000],
        ['/throttled-one', 950]
      ] as const) {
        const got = receiver.for(path, id)
        expect(got.map((r) => r.headers['webhook-id'])).toStrictEqual([`${id}:1`, `${id}:1`])
        // a 429's HTTP-date counts in whole seconds: at least 1 s ahead of the first attempt
        expect((got[1]?.at ?? 0) - (got[0]?.at ?? 0), path).toBeGreaterThanOrEqual(at)
      }
      expect((await outboxOf(database.db, id)).map((r) => r.status)).toStrictEqual(['delivered', 'delivered'])
    } finally {
      await service.close()
    }
  })
})

describe('410 Gone disables the url', () => {
  it('the message and every later one to the url are dead (gone) and unsent; the command lists it, and retry or enable sends to it again', async () => {
    const { service, base } = await startService(database.db)
    try {
      const gone = `${hooks}/gone-for-good?token=t0k`
      const first = await create(base, [gone, `${hooks}/ok-beside`])
      await eventually(() => outboxSettled(database.db))
      expect(receiver.for('/gone-for-good?token=t0k', first)).toHaveLength(1)
      const second = await create(base, [gone])
      await eventually(() => outboxSettled(database.db))
      // not sent at all: the url said it wants no more
      expect(receiver.for('/gone-for-good?token=t0k', second)).toHaveLength(0)
      expect(receiver.for('/ok-beside', first)).toHaveLength(1)
      expect(await outboxOf(database.db, second)).toMatchObject([{ status: 'dead', attempts: 1, last_status: null }])
      const dead = (await listDeadLetters(database.db)).filter((l) => l.url === `${hooks}/gone-for-good?…`)
      expect(dead.map((l) => [l.webhookId, l.reason])).toStrictEqual([
        [`${second}:1`, 'gone'],
        [`${first}:1`, 'gone']
      ])
      expect(dead[0]?.lastError).toMatch(/answered 410 Gone before/)
      const disabled = await listDisabledUrls(database.db)
      expect(disabled).toMatchObject([{ url: `${hooks}/gone-for-good?…`, webhookId: `${first}:1`, dead: 2 }])
      const listed = await runDeadLetters(database.db, ['disabled'])
      expect(listed.out).toContain(`${hooks}/gone-for-good?…`)
      expect(listed.out).not.toContain('t0k')

      // retry of a message that died of the 410 enables its url: sent (and, still 410, disabled again)
      const retried = await runDeadLetters(database.db, ['retry', dead[0]?.id ?? ''])
      expect(retried.code).toBe(0)
      await eventually(() => outboxSettled(database.db))
      expect(receiver.for('/gone-for-good?token=t0k', second)).toHaveLength(1)
      expect(await listDisabledUrls(database.db)).toHaveLength(1)

      // enable: later messages are sent again
      const id = (await listDisabledUrls(database.db))[0]?.id ?? ''
      expect(await runDeadLetters(database.db, ['enable', id, '424242'])).toStrictEqual({
        out: `1 url(s) enabled: ${id}. Not disabled (or unknown): 424242. Their dead messages stay dead until retried.`,
        code: 1
      })
      expect(await listDisabledUrls(database.db)).toStrictEqual([])
      const third = await create(base, [gone])
      await eventually(() => outboxSettled(database.db))
      expect(receiver.for('/gone-for-good?token=t0k', third)).toHaveLength(1)
      expect((await runDeadLetters(database.db, ['enable', '--all'])).code).toBe(0)
      expect((await runDeadLetters(database.db, ['enable'])).code).toBe(2)
    } finally {
      await service.close()
    }
  })
})

describe('several webhook secrets: a rotation without a broken receiver', () => {
  it('each message carries one signature per secret, space-separated; a receiver holding either secret verifies it, another secret does not', async () => {
    const old = `whsec_${randomBytes(32).toString('base64')}`
    const next = `whsec_${randomBytes(32).toString('base64')}`
    const { service, base } = await startService(database.db, { WEBHOOK_SECRET: `${old},${next}` })
    try {
      const id = await create(base, [`${hooks}/rotation`])
      await eventually(() => outboxSettled(database.db))
      const [message] = receiver.for('/rotation', id)
      expect(message).toBeDefined()
      const headers = message?.headers as Record<string, string>
      const signatures = headers['webhook-signature']?.split(' ') ?? []
      expect(signatures).toHaveLength(2)
      expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true)
      expect(new Webhook(old).verify(message?.raw ?? '', headers)).toStrictEqual(message?.body)
      expect(new Webhook(next).verify(message?.raw ?? '', headers)).toStrictEqual(message?.body)
      expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(message?.raw ?? '', headers)).toThrow()
    } finally {
      await service.close()
    }
  })
})
