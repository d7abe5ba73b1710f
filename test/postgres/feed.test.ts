/**
 * The event feed across processes (`npm run test:postgres`; docs/service.md, "The event feed"): a
 * transaction that commits late never lets a reader skip its events, and a consumer paging with
 * `after` while three processes commit, one of them killed with -9, sees every committed event
 * exactly once, each payment's in version order.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPg, type Db } from '../../docs/examples/service/db/db.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, createDatabase, postForm, Receiver, serverUrl } from '../support/reference-service.fixtures.js'
import { ServiceProcess } from './processes.js'

let db: Db
let url = ''
let hooks = ''
let receiver: Receiver
const services: Array<ServiceProcess> = []

beforeAll(async () => {
  const admin = serverUrl()
  if (admin === undefined) throw new Error('PAYSPLIT_TEST_DATABASE_URL is not set: run npm run test:postgres')
  url = await createDatabase(admin)
  db = openPg(url, 4)
  receiver = new Receiver()
  hooks = await receiver.start()
  services.push(...(await Promise.all([0, 1, 2].map(() => ServiceProcess.start(url, { CATCH_ALL_URL: `${hooks}/all` })))))
})

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()))
  await db.close()
  await receiver.stop()
})

interface Item {
  readonly cursor: string
  readonly eventID: string
}
interface Page {
  readonly data: ReadonlyArray<Item>
  readonly next: string
  readonly hasMore: boolean
}

const page = async (base: string, after: string | undefined, limit: number): Promise<Page> => {
  const r = await call(base, 'GET', `/events?limit=${String(limit)}${after === undefined ? '' : `&after=${after}`}`)
  expect(r.status, r.text).toBe(200)
  return r.body as Page
}

const created = async (base: string, ext: string): Promise<string> => {
  const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: ext, chargeImmediately: false }))
  expect(r.status).toBe(201)
  return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
}

describe('a transaction that commits late', () => {
  it('holds the feed back while it runs, and its event is read after, not skipped, although its row id is smaller than events read later', async () => {
    const base = services[0]?.base ?? ''
    const start = (await page(base, undefined, 500)).next
    const first = await created(base, 'late-first')
    const afterFirst = await page(base, start, 500)
    expect(afterFirst.data.map((i) => i.eventID)).toStrictEqual([`${first}:1`])

    // a transaction takes its id, then its outbox row (a copy of the first's message, as a slow request would write it)
    const slow = new pg.Client({ connectionString: url })
    await slow.connect()
    try {
      await slow.query('BEGIN')
      await slow.query('SELECT pg_current_xact_id()')
      await slow.query(
        `INSERT INTO outbox (payment_reference_id, event_version, webhook_id, url, event_type, payload, status)
         SELECT payment_reference_id, event_version, webhook_id || ':late', url, event_type, payload, 'delivered' FROM outbox WHERE webhook_id = $1`,
        [`${first}:1`]
      )
      // meanwhile other requests commit: later transactions, later row ids
      const second = await created(base, 'late-second')
      const held = await page(base, afterFirst.next, 500)
      expect(held).toStrictEqual({ data: [], next: afterFirst.next, hasMore: false })
      await slow.query('COMMIT')
      const released = await page(base, afterFirst.next, 500)
      expect(released.data.map((i) => i.eventID)).toStrictEqual([`${first}:1:late`, `${second}:1`])
      // by row id alone a reader would have read the second, passed the late one's smaller id, and skipped it at its commit
      const idOf = async (webhookId: string): Promise<number> =>
        Number((await db.query<{ id: string }>('SELECT id::text AS id FROM outbox WHERE webhook_id = $1', [webhookId])).rows[0]?.id)
      expect(await idOf(`${first}:1:late`)).toBeLessThan(await idOf(`${second}:1`))
    } finally {
      await slow.end()
      await db.query("DELETE FROM outbox WHERE webhook_id LIKE '%:late'")
    }
  })
})

describe('a consumer paging while three processes commit, one killed', () => {
  it('sees every committed event exactly once, each payment in version order', async () => {
    const consumer = services[2]?.base ?? ''
    const distinct = async (): Promise<ReadonlyArray<string>> => (await db.query<{ webhook_id: string }>('SELECT DISTINCT webhook_id FROM outbox')).rows.map((r) => r.webhook_id)
    const before = new Set(await distinct())
    let cursor = (await page(consumer, undefined, 500)).next
    const seen: Array<string> = []
    let stop = false
    let pages = 0
    const consume = async (): Promise<void> => {
      for (;;) {
        const p = await page(consumer, cursor, 50)
        pages += 1
        seen.push(...p.data.map((i) => i.eventID))
        cursor = p.next
        if (!p.hasMore) {
          if (stop) return
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }
    }
    const reading = consume()
    let n = 0
    const answered = new Set<string>()
    const worker = async (w: number): Promise<void> => {
      while (!stop) {
        const i = (n += 1)
        const at = (k: number): string => services[(w + i + k) % 3]?.base ?? ''
        try {
          const r = await call(at(0), 'POST', '/payments', cardRequest({ externalPaymentReferenceID: `feed-${String(i)}`, chargeImmediately: false }))
          if (r.status !== 201) continue
          const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
          answered.add(`${id}:1`)
          if ((await postForm(at(1), id, 'complete')).status === 303) answered.add(`${id}:2`)
          if ((await call(at(2), 'POST', `/payments/${id}/charge`)).status === 200) answered.add(`${id}:3`)
        } catch {
          // the killed process: its clients fail, the others go on
        }
      }
    }
    const workers = Array.from({ length: 12 }, (_, w) => worker(w))
    await new Promise((resolve) => setTimeout(resolve, 2500))
    await services[1]?.kill9()
    await new Promise((resolve) => setTimeout(resolve, 2500))
    stop = true
    await Promise.all(workers)
    // the transactions the killed process left open are rolled back by the server; then the consumer catches up
    await new Promise((resolve) => setTimeout(resolve, 500))
    await reading
    let tail = await page(consumer, cursor, 500)
    while (tail.data.length > 0) {
      seen.push(...tail.data.map((i) => i.eventID))
      tail = await page(consumer, tail.next, 500)
    }

    const committed = (await distinct()).filter((id) => !before.has(id))
    console.info(`feed: ${String(seen.length)} events read in ${String(pages)} pages while three processes committed (one killed); ${String(answered.size)} answered 2xx`)
    // exactly once, and every committed event (among them each one a client was answered 2xx for)
    expect(new Set(seen).size).toBe(seen.length)
    expect([...seen].sort()).toStrictEqual([...committed].sort())
    for (const id of answered) expect(seen).toContain(id)
    // each payment's events in version order
    const versions = new Map<string, number>()
    for (const id of seen) {
      const colon = id.lastIndexOf(':')
      const payment = id.slice(0, colon)
      const version = Number(id.slice(colon + 1))
      expect(version, id).toBeGreaterThan(versions.get(payment) ?? 0)
      versions.set(payment, version)
    }
    expect(answered.size).toBeGreaterThan(30)
  })
})
