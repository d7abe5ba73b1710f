/**
 * The event feed and replay of the reference service (docs/service.md, "The event feed", "Replay"):
 * `GET /events?after=&limit=` with an API key, one item per event that sent webhooks (not per
 * url), its payload exactly the webhook's body; cursors that page through every event once, each
 * payment's in version order; `next` and `hasMore`; a `limit` or `after` that is not valid → 400;
 * the dead-letter command's `replay --from --to [--url]` sending again every message of the events
 * stored in a range, with their original webhook-id and body; events kept 30 days at least.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, ConfigError } from '../../docs/examples/service/config.js'
import { runDeadLetters } from '../../docs/examples/service/outbox/deadLetters.js'
import { deleteExpiredEvents, FEED_START, parseCursor } from '../../docs/examples/service/outbox/feed.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, eventually, outboxSettled, postForm, Receiver, startService, testDb, type Running, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
let receiver: Receiver
let running: Running
let hooks = ''

beforeAll(async () => {
  receiver = new Receiver()
  hooks = await receiver.start()
  database = await testDb()
  running = await startService(database.db, { CATCH_ALL_URL: `${hooks}/all` })
})

afterAll(async () => {
  await running.service.close()
  await database.close()
  await receiver.stop()
})

interface Item {
  readonly cursor: string
  readonly eventID: string
  readonly eventType: string
  readonly createdAt: string
  readonly payload: { readonly eventID: string; readonly eventType: string }
}
interface Page {
  readonly data: ReadonlyArray<Item>
  readonly next: string
  readonly hasMore: boolean
}

const page = async (query = ''): Promise<Page> => {
  const r = await call(running.base, 'GET', `/events${query}`)
  expect(r.status, r.text).toBe(200)
  return r.body as Page
}

/** Every event of the feed after `after`, paging by `limit`. */
const readAll = async (after?: string, limit = 3): Promise<ReadonlyArray<Item>> => {
  const out: Array<Item> = []
  let cursor = after
  for (;;) {
    const p = await page(`?limit=${String(limit)}${cursor === undefined ? '' : `&after=${cursor}`}`)
    out.push(...p.data)
    expect(p.next).toBe(p.data.at(-1)?.cursor ?? cursor ?? FEED_START)
    cursor = p.next
    if (!p.hasMore) return out
  }
}

let n = 0
const created = async (extra: Record<string, unknown> = {}): Promise<string> => {
  n += 1
  const r = await call(running.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: `feed-${String(n)}`, chargeImmediately: false, ...extra }))
  expect(r.status).toBe(201)
  return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
}

describe('GET /events', () => {
  it('one item per event (not per url), the payload exactly the body each url received; pages by cursor, each payment in version order', async () => {
    const start = await page()
    const a = await created({ webhookSubscriptions: [{ eventType: 'Initiated', url: `${hooks}/also` }] })
    const b = await created()
    expect((await postForm(running.base, a, 'complete')).status).toBe(303)
    expect((await call(running.base, 'POST', `/payments/${a}/charge`)).status).toBe(200)
    expect((await call(running.base, 'POST', `/payments/${b}/cancel`)).status).toBe(200)
    await eventually(() => outboxSettled(database.db))

    const items = await readAll(start.next, 2)
    expect(items.map((i) => i.eventID)).toStrictEqual([`${a}:1`, `${b}:1`, `${a}:2`, `${a}:3`, `${b}:2`])
    expect(items.map((i) => i.eventType)).toStrictEqual(['Initiated', 'Initiated', 'Reserved', 'Charged', 'Cancelled'])
    for (const item of items) {
      const sent = receiver.received.filter((r) => r.headers['webhook-id'] === item.eventID)
      // Initiated of `a` went to two urls: one item
      expect(sent.length).toBe(item.eventID === `${a}:1` ? 2 : 1)
      for (const s of sent) expect(item.payload).toStrictEqual(s.body)
      expect(item.payload.eventID).toBe(item.eventID)
      expect(Number.isNaN(Date.parse(item.createdAt))).toBe(false)
      expect(parseCursor(item.cursor)).toBeDefined()
    }
    // the whole feed read once more from the start has them once, in the same order
    const all = await readAll(undefined, 500)
    expect(all.slice(-5)).toStrictEqual(items)
    expect(new Set(all.map((i) => i.eventID)).size).toBe(all.length)
  })

  it('the end of the feed: an empty page, next the after given (poll with it), hasMore false; a new event appears after it', async () => {
    const end = await page('?limit=500')
    expect(end.hasMore).toBe(false)
    const empty = await page(`?after=${end.next}`)
    expect(empty).toStrictEqual({ data: [], next: end.next, hasMore: false })
    const id = await created()
    const next = await page(`?after=${end.next}`)
    expect(next.data.map((i) => i.eventID)).toStrictEqual([`${id}:1`])
    expect(next.hasMore).toBe(false)
  })

  it('no after: from the oldest kept; limit 1: hasMore while more are committed', async () => {
    const first = await page('?limit=1')
    expect(first.data).toHaveLength(1)
    expect(first.hasMore).toBe(true)
    expect(first.next).toBe(first.data[0]?.cursor)
  })

  it.each([
    ['?limit=0', 'query.limit', 'too_small'],
    ['?limit=501', 'query.limit', 'too_big'],
    ['?limit=ten', 'query.limit', 'not_integer'],
    ['?limit=1.5', 'query.limit', 'not_integer'],
    ['?limit=1&limit=2', 'query.limit', 'too_many'],
    ['?after=somewhere', 'query.after', 'format'],
    ['?after=1.2.3', 'query.after', 'format'],
    ['?after=99999999999999999999999.1', 'query.after', 'format']
  ])('%s → 400 ValidationFailed at %s (%s)', async (query, path, reason) => {
    const r = await call(running.base, 'GET', `/events${query}`)
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ success: false, error: { code: 'ValidationFailed', issues: [{ path, code: 'ValidationFailed', reason }] } })
  })

  it('needs an API key (the bank key is not one); GET only', async () => {
    expect((await call(running.base, 'GET', '/events', undefined, { key: null })).status).toBe(401)
    expect((await call(running.base, 'GET', '/events', undefined, { key: 'dev-bank-key' })).status).toBe(401)
    const post = await call(running.base, 'POST', '/events', {})
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET')
  })

  it('an event that sent no webhook (no catch-all url, no subscription of its type) is not in the feed', async () => {
    const quiet = await startService(database.db)
    try {
      const end = (await page('?limit=500')).next
      const r = await call(quiet.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'feed-quiet' }))
      expect(r.status).toBe(201)
      expect((await page(`?after=${end}`)).data).toStrictEqual([])
    } finally {
      await quiet.service.close()
    }
  })
})

describe('replay --from --to [--url]', () => {
  it('sends again every message of the events stored in the range, with its webhook-id and body; --url only those to that url; outside the range nothing', async () => {
    await eventually(() => outboxSettled(database.db))
    const from = new Date(Date.now() - 1).toISOString()
    const a = await created({ webhookSubscriptions: [{ eventType: 'Initiated', url: `${hooks}/replay-sub?key=k` }] })
    await eventually(() => outboxSettled(database.db))
    const to = new Date(Date.now() + 1).toISOString()
    const b = await created()
    await eventually(() => outboxSettled(database.db))
    const count = (id: string, path?: string): number => receiver.received.filter((r) => r.headers['webhook-id'] === `${id}:1` && (path === undefined || r.path === path)).length
    expect([count(a), count(b)]).toStrictEqual([2, 1])
    const first = receiver.received.find((r) => r.headers['webhook-id'] === `${a}:1` && r.path === '/all')

    const r = await runDeadLetters(database.db, ['replay', '--from', from, '--to', to])
    expect(r).toStrictEqual({ out: `2 message(s) sent again, of the events stored from ${from} to ${to}.`, code: 0 })
    await eventually(() => outboxSettled(database.db))
    expect([count(a), count(b)]).toStrictEqual([4, 1])
    const again = receiver.received.filter((m) => m.headers['webhook-id'] === `${a}:1` && m.path === '/all')
    expect(again.map((m) => m.raw)).toStrictEqual([first?.raw, first?.raw])
    expect(again.every((m) => m.verified)).toBe(true)

    // --url: the url as stored or as shown without its query string
    const one = await runDeadLetters(database.db, ['replay', '--from', from, '--to', to, '--url', `${hooks}/replay-sub`])
    expect(one.out).toMatch(/^1 message\(s\) sent again, of the events stored from .* to .* to http:\/\/127\.0\.0\.1:\d+\/replay-sub\.$/)
    await eventually(() => outboxSettled(database.db))
    expect([count(a, '/replay-sub?key=k'), count(a, '/all'), count(b)]).toStrictEqual([3, 2, 1])
    const row = await database.db.query<{ replays: number }>("SELECT replays FROM outbox WHERE webhook_id = $1 AND url LIKE '%replay-sub%'", [`${a}:1`])
    expect(row.rows).toStrictEqual([{ replays: 2 }])
  })

  it.each([
    [['replay']],
    [['replay', '--from', '2026-11-21T10:00:00Z']],
    [['replay', '--from', '2026-11-21T10:00:00Z', '--to', '2026-11-21T09:00:00Z']],
    [['replay', '--from', 'yesterday', '--to', '2026-11-21T09:00:00Z']],
    [['replay', '--from', '2026-11-21', '--to', '2026-11-22']],
    [['replay', '--from', '2026-11-21T10:00:00Z', '--to', '2026-11-21T11:00:00Z', '--url']]
  ])('%j: refused with the usage (exit code 2)', async (args) => {
    const r = await runDeadLetters(database.db, args)
    expect(r.code).toBe(2)
    expect(r.out).toMatch(/Usage: dead-letters/)
  })
})

describe('retention: events kept 30 days at least', () => {
  it('EVENTS_RETENTION_DAYS defaults to 30, may be longer, never shorter', () => {
    expect(loadConfig({ DEV_MODE: '1' }).eventsRetentionDays).toBe(30)
    expect(loadConfig({ DEV_MODE: '1', EVENTS_RETENTION_DAYS: '90' }).eventsRetentionDays).toBe(90)
    expect(() => loadConfig({ DEV_MODE: '1', EVENTS_RETENTION_DAYS: '7' })).toThrow(ConfigError)
  })

  it('an event stored 31 days ago goes (all its messages), one of 29 days stays, one with a message still pending stays', async () => {
    const old = await created({ webhookSubscriptions: [{ eventType: 'Initiated', url: `${hooks}/old` }] })
    const recent = await created()
    const waiting = await created()
    await eventually(() => outboxSettled(database.db))
    const age = async (id: string, days: number): Promise<void> => {
      await database.db.query(`UPDATE outbox SET created_at = now() - $2 * interval '1 day' WHERE payment_reference_id = $1`, [id, days])
    }
    await age(old, 31)
    await age(recent, 29)
    await age(waiting, 31)
    await database.db.query(`UPDATE outbox SET status = 'pending', next_attempt_at = now() + interval '1 hour' WHERE payment_reference_id = $1`, [waiting])
    const feedBefore = (await readAll(undefined, 500)).map((i) => i.eventID)
    expect(feedBefore).toEqual(expect.arrayContaining([`${old}:1`, `${recent}:1`, `${waiting}:1`]))
    expect(await deleteExpiredEvents(database.db, 30)).toBe(2)
    expect(await deleteExpiredEvents(database.db, 30)).toBe(0)
    const feedAfter = (await readAll(undefined, 500)).map((i) => i.eventID)
    expect(feedAfter).not.toContain(`${old}:1`)
    expect(feedAfter).toEqual(expect.arrayContaining([`${recent}:1`, `${waiting}:1`]))
    expect(feedAfter).toStrictEqual(feedBefore.filter((id) => id !== `${old}:1`))
    await database.db.query(`UPDATE outbox SET status = 'delivered' WHERE payment_reference_id = $1`, [waiting])
  })
})
