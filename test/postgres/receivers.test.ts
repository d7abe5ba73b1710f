/**
 * Webhook receivers that are unreachable, down, slow, failing or endless must not hurt the API
 * (`npm run test:postgres`): three processes serve the same load twice, once with every webhook
 * going to a healthy receiver, once to misbehaving ones; the API's p99 stays within 2× of the
 * quiet p99, the processes' memory stays flat, and every message ends delivered or dead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPg, type Db } from '../../docs/examples/service/db/db.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, createDatabase, eventually, outboxSettled, Receiver, serverUrl } from '../support/reference-service.fixtures.js'
import { percentile, ServiceProcess } from './processes.js'

let db: Db
let hooks = ''
let receiver: Receiver
let services: Array<ServiceProcess> = []
let n = 0

beforeAll(async () => {
  const admin = serverUrl()
  if (admin === undefined) throw new Error('PAYSPLIT_TEST_DATABASE_URL is not set: run npm run test:postgres')
  const url = await createDatabase(admin)
  db = openPg(url, 10)
  receiver = new Receiver()
  receiver.slowMs = 4000
  hooks = await receiver.start()
  const env = { WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_BASE_DELAY_MS: '50', WEBHOOK_MAX_DELAY_MS: '400' }
  services = await Promise.all([0, 1, 2].map(() => ServiceProcess.start(url, env)))
})

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()))
  await db.close()
  await receiver.stop()
})

/** `count` creates from 8 clients spread over the three processes, each with these subscriptions; the latencies in ms. */
const load = async (count: number, urls: ReadonlyArray<string>): Promise<ReadonlyArray<number>> => {
  const latencies: Array<number> = []
  let left = count
  const client = async (): Promise<void> => {
    while (left > 0) {
      left--
      const i = (n += 1)
      const body = cardRequest({
        externalPaymentReferenceID: `load-${String(i)}`,
        webhookSubscriptions: urls.map((url) => ({ eventType: 'Initiated', url }))
      })
      const started = performance.now()
      const r = await call(services[i % 3]?.base ?? '', 'POST', '/payments', body)
      latencies.push(performance.now() - started)
      expect(r.status).toBe(201)
    }
  }
  await Promise.all(Array.from({ length: 8 }, () => client()))
  return latencies
}

const rssMb = (): ReadonlyArray<number> => services.map((s) => Math.round(s.rssKb() / 1024))

describe('misbehaving webhook receivers', () => {
  it('unreachable, down (503), failing (500), slower than the time limit, endless: API p99 within 2× of quiet, memory flat, every message delivered or dead', async () => {
    const healthy = [`${hooks}/ok-1`, `${hooks}/ok-2`, `${hooks}/ok-3`, `${hooks}/ok-4`, `${hooks}/ok-5`]
    // a closed port (nothing listens on 9 here): refused connections
    const bad = [`${hooks}/down`, `${hooks}/error`, `${hooks}/slow`, `${hooks}/endless`, 'http://127.0.0.1:9/closed']
    await load(150, healthy) // warm-up: JIT, pools
    await eventually(() => outboxSettled(db), 60_000)
    const quiet = await load(400, healthy)
    await eventually(() => outboxSettled(db), 60_000)
    const before = rssMb()
    const noisy = await load(400, bad)
    const during = rssMb()
    await eventually(() => outboxSettled(db), 120_000, 'every message to end')
    const after = rssMb()
    const q99 = percentile(quiet, 99)
    const b99 = percentile(noisy, 99)
    console.log(
      `receivers: quiet p50 ${percentile(quiet, 50).toFixed(1)} ms p99 ${q99.toFixed(1)} ms; misbehaving p50 ${percentile(noisy, 50).toFixed(1)} ms p99 ${b99.toFixed(1)} ms (ratio ${(b99 / q99).toFixed(2)}, target ≤ 2); RSS MB before ${before.join('/')}, during ${during.join('/')}, after ${after.join('/')}; endless answers wrote ${String(Math.round(receiver.endlessBytes / 1048576))} MB`
    )
    expect(b99).toBeLessThanOrEqual(2 * q99)
    after.forEach((mb, i) => {
      expect(mb - (before[i] ?? 0)).toBeLessThan(64)
    })
    const outcome = await db.query<{ url: string; status: string; n: string }>(
      "SELECT regexp_replace(url, '^.*/', '') AS url, status, count(*)::text AS n FROM outbox WHERE url <> $1 GROUP BY 1, 2 ORDER BY 1, 2",
      ['']
    )
    const table = Object.fromEntries(outcome.rows.map((r) => [`${r.url} ${r.status}`, Number(r.n)]))
    const endlessErrors = await db.query<{ last_error: string | null; n: string }>(
      "SELECT last_error, count(*)::text AS n FROM outbox WHERE url LIKE '%/endless' AND status <> 'delivered' GROUP BY 1"
    )
    expect(endlessErrors.rows).toStrictEqual([])
    expect(table).toMatchObject({ 'closed dead': 400, 'down dead': 400, 'error dead': 400, 'slow dead': 400, 'endless delivered': 400 })
  })
})
