/**
 * The reference service's operations endpoints and HTTP limits, over real sockets on the suite's
 * database (docs/service.md, "Running in production"): `/metrics` in Prometheus text behind its
 * key (requests by route and status, latency histograms, the outbox's pending, dead and oldest
 * age read at scrape time, the relay's attempts), `/readyz` apart from `/healthz`, the rate limit
 * per key (429 with Retry-After), and the keep-alive timeout the service announces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devMetricsKey } from '../../docs/examples/service/config.js'
import { routeOf } from '../../docs/examples/service/metrics.js'
import { cardRequest } from '../support/http.fixtures.js'
import { bank, call, eventually, postForm, Receiver, startService, testDb, type Running, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
let running: Running
let receiver: Receiver
let hooks = ''

beforeAll(async () => {
  receiver = new Receiver()
  hooks = await receiver.start()
  database = await testDb()
  running = await startService(database.db)
})

afterAll(async () => {
  await running.service.close()
  await database.close()
  await receiver.stop()
})

const scrape = async (base: string, key: string | null = devMetricsKey): Promise<{ status: number; text: string; type: string | null }> => {
  const r = await fetch(`${base}/metrics`, { headers: key === null ? {} : { authorization: `Bearer ${key}` } })
  return { status: r.status, text: await r.text(), type: r.headers.get('content-type') }
}

/** The value of one sample line of the exposition (`name{labels} value`), or undefined. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('/metrics: Prometheus text behind the metrics key', () => {
  it('without the key 401, with an API key 401; with it, text/plain of the exposition format', async () => {
    expect((await scrape(running.base, null)).status).toBe(401)
    expect((await scrape(running.base, 'dev-api-key')).status).toBe(401)
    const ok = await scrape(running.base)
    expect(ok.status).toBe(200)
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(ok.text).toContain('# TYPE paysplit_http_requests_total counter')
    expect(ok.text).toContain('# TYPE paysplit_http_request_duration_seconds histogram')
    expect(ok.text).toContain('paysplit_process_cpu_seconds_total')
  })

  it('counts requests by route template and status, times them, and reads the outbox at scrape time', async () => {
    const before = (await scrape(running.base)).text
    const created = await call(running.base, 'POST', '/payments', cardRequest({
      externalPaymentReferenceID: 'metrics-1',
      webhookSubscriptions: [{ eventType: 'ChargedPayment', url: `${hooks}/down` }, { eventType: 'ChargedPayment', url: `${hooks}/gone` }, { eventType: 'ChargedPayment', url: `${hooks}/ok` }]
    }))
    expect(created.status).toBe(201)
    const id = created.body.paymentIntent.paymentCreated.paymentReferenceID as string
    expect((await call(running.base, 'GET', `/payments/${id}`)).status).toBe(200)
    expect((await call(running.base, 'GET', '/payments/00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await call(running.base, 'POST', `/payments/${id}/charge`)).status).toBe(409)
    const form = await postForm(running.base, id, 'complete')
    expect(form.status).toBe(303)
    expect((await call(running.base, 'POST', `/payments/${id}/charge`)).status).toBe(200)

    const after = (await scrape(running.base)).text
    const delta = (series: string): number => (sample(after, series) ?? 0) - (sample(before, series) ?? 0)
    expect(delta('paysplit_http_requests_total{route="/payments",method="POST",status="201",replayed="false"}')).toBe(1)
    expect(delta('paysplit_http_requests_total{route="/payments/{id}",method="GET",status="200",replayed="false"}')).toBe(1)
    expect(delta('paysplit_http_requests_total{route="/payments/{id}",method="GET",status="404",replayed="false"}')).toBe(1)
    expect(delta('paysplit_http_requests_total{route="/payments/{id}/charge",method="POST",status="409",replayed="false"}')).toBe(1)
    expect(delta('paysplit_http_requests_total{route="/payments/{id}/charge",method="POST",status="200",replayed="false"}')).toBe(1)
    expect(delta('paysplit_http_request_duration_seconds_count{route="/payments",method="POST"}')).toBe(1)
    expect(delta('paysplit_http_request_duration_seconds_bucket{le="+Inf",route="/payments",method="POST"}')).toBe(1)
    expect(after).not.toContain(id)

    // the relay: /ok delivered, /gone dead at once, /down retried until dead (3 attempts in the tests)
    await eventually(async () => {
      const t = (await scrape(running.base)).text
      return (sample(t, 'paysplit_outbox_messages{status="pending"}') ?? -1) === 0
    })
    const settled = (await scrape(running.base)).text
    const rows = await database.db.query<{ status: string; n: string }>("SELECT status, count(*)::text AS n FROM outbox GROUP BY status")
    const count = (s: string): number => Number(rows.rows.find((r) => r.status === s)?.n ?? 0)
    expect(sample(settled, 'paysplit_outbox_messages{status="dead"}')).toBe(count('dead'))
    expect(count('dead')).toBeGreaterThanOrEqual(2)
    expect(sample(settled, 'paysplit_outbox_oldest_pending_age_seconds')).toBe(0)
    const attempts = (o: string): number => (sample(settled, `paysplit_webhook_attempts_total{outcome="${o}"}`) ?? 0) - (sample(before, `paysplit_webhook_attempts_total{outcome="${o}"}`) ?? 0)
    expect(attempts('delivered')).toBeGreaterThanOrEqual(1)
    expect(attempts('dead')).toBe(2)
    expect(attempts('retry')).toBe(2)
  })

  it('a pending message shows in the gauges while it waits: its count and its age', async () => {
    await database.db.query(
      `INSERT INTO outbox (payment_reference_id, event_version, webhook_id, url, event_type, payload, next_attempt_at, created_at)
       SELECT payment_reference_id, event_version, webhook_id || ':later', url, event_type, payload, now() + interval '1 hour', now() - interval '90 seconds'
         FROM outbox LIMIT 1`
    )
    const t = (await scrape(running.base)).text
    expect(sample(t, 'paysplit_outbox_messages{status="pending"}')).toBe(1)
    expect(sample(t, 'paysplit_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(90)
    await database.db.query("DELETE FROM outbox WHERE webhook_id LIKE '%:later'")
  })

  it('route labels are templates from a bounded set: ids and unknown paths never become labels', () => {
    expect(routeOf('/payments/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f/refund/partially')).toBe('/payments/{id}/refund/partially')
    expect(routeOf('/customers/anyone')).toBe('/customers/{id}')
    expect(routeOf('/pay/x/complete')).toBe('/pay/{id}/complete')
    expect(routeOf('/payments/x/y/z/w')).toBe('other')
    expect(routeOf('/wp-admin/install.php')).toBe('other')
  })

  it('without METRICS_KEYS outside development, /metrics is off: 404', async () => {
    const off = await startService(database.db, { DEV_MODE: '0', API_KEYS: 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6', BANK_API_KEYS: 'b1c2d3e4f5g6h7i8j9k0l1m2n3o4p5q6', WEBHOOK_SECRET: `whsec_${Buffer.from('0123456789abcdefghijklmnopqrstuv').toString('base64')}`, FORM_SECRET: 'f1g2h3i4j5k6l7m8n9o0p1q2r3s4t5u6', PGLITE_DIR: '/nonexistent-unused' })
    try {
      expect((await scrape(off.base)).status).toBe(404)
    } finally {
      await off.service.close()
    }
  })
})

describe('/healthz (alive) and /readyz (ready for traffic)', () => {
  it('both 200 while the database answers; after the database is gone /healthz still 200, /readyz 503, /metrics 200 without the outbox', async () => {
    const other = await testDb()
    const s = await startService(other.db)
    try {
      expect((await call(s.base, 'GET', '/readyz', undefined, { key: null })).body).toMatchObject({ status: 'ready' })
      expect((await call(s.base, 'GET', '/healthz', undefined, { key: null })).status).toBe(200)
      await other.close()
      expect(await call(s.base, 'GET', '/readyz', undefined, { key: null })).toMatchObject({ status: 503, body: { status: 'unavailable' } })
      expect((await call(s.base, 'GET', '/healthz', undefined, { key: null })).status).toBe(200)
      expect((await call(s.base, 'POST', '/readyz', undefined, { key: null })).status).toBe(405)
      // the scrape still answers, without outbox samples
      const scraped = await scrape(s.base)
      expect(scraped.status).toBe(200)
      expect(scraped.text).toContain('paysplit_http_requests_total{route="/readyz",method="GET",status="503",replayed="false"} 1')
      expect(sample(scraped.text, 'paysplit_outbox_messages{status="pending"}')).toBeUndefined()
    } finally {
      s.service.server.close()
      s.service.server.closeAllConnections()
      await s.service.relay.stop()
    }
  })
})

describe('rate limit per key (429 with Retry-After), per instance', () => {
  it('the key over its limit gets 429 with Retry-After; another key, the bank key and the form are not held back', async () => {
    const s = await startService(database.db, { RATE_LIMIT_PER_KEY: '3', RATE_LIMIT_WINDOW_S: '60', API_KEYS: 'key-one-0123456789abcdefghijklmnopq,key-two-0123456789abcdefghijklmnopq' })
    try {
      const get = (key: string) => call(s.base, 'GET', '/payments/00000000-0000-4000-8000-000000000000', undefined, { key })
      for (let i = 0; i < 3; i++) expect((await get('key-one-0123456789abcdefghijklmnopq')).status).toBe(404)
      const refused = await get('key-one-0123456789abcdefghijklmnopq')
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({ success: false, error: { code: 'RateLimited' } })
      const after = Number(refused.headers.get('retry-after'))
      expect(after).toBeGreaterThanOrEqual(1)
      expect(after).toBeLessThanOrEqual(60)
      // a POST over the limit is refused before its body is read; nothing is created
      const post = await call(s.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'limited-1' }), { key: 'key-one-0123456789abcdefghijklmnopq' })
      expect(post.status).toBe(429)
      expect((await database.db.query("SELECT 1 FROM payments WHERE external_payment_reference_id = 'limited-1'")).rows).toHaveLength(0)
      expect((await get('key-two-0123456789abcdefghijklmnopq')).status).toBe(404)
      expect((await bank(s.base, { kid: 'x', amount: 1 })).status).toBe(400)
      expect((await call(s.base, 'GET', '/pay/00000000-0000-4000-8000-000000000000', undefined, { key: null })).status).toBe(404)
      // a wrong key is 401, not counted against anyone
      expect((await get('wrong')).status).toBe(401)
      const scraped = await scrape(s.base)
      expect(sample(scraped.text, 'paysplit_rate_limited_total')).toBe(2)
    } finally {
      await s.service.close()
    }
  })
})

describe('HTTP keep-alive: longer than a load balancer’s idle timeout', () => {
  it('the service announces Keep-Alive: timeout=65 by default, and the configured value when set', async () => {
    const r = await fetch(`${running.base}/healthz`)
    expect(r.headers.get('keep-alive')).toBe('timeout=65')
    expect(running.service.server.headersTimeout).toBeGreaterThan(running.service.server.keepAliveTimeout)
    const s = await startService(database.db, { KEEP_ALIVE_TIMEOUT_MS: '120000', HEADERS_TIMEOUT_MS: '121000', REQUEST_TIMEOUT_MS: '180000' })
    try {
      expect((await fetch(`${s.base}/healthz`)).headers.get('keep-alive')).toBe('timeout=120')
      expect(s.service.server.requestTimeout).toBe(180_000)
    } finally {
      await s.service.close()
    }
  })
})
