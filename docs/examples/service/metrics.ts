/**
 * The service's Prometheus metrics (`GET /metrics`, text exposition by prom-client), one registry
 * per service:
 *
 * - `paysplit_http_requests_total{route,method,status,replayed}` and `paysplit_http_request_duration_seconds{route,method}`
 *   (a histogram): every answered request, its route as a template (`/payments/{id}/refund`), so
 *   ids never become labels; `replayed="true"` for an Idempotency-Key's stored answer sent again
 *   (not a new charge, refund or payment);
 * - `paysplit_http_open_connections` and `paysplit_http_connections_dropped_total`: the connections
 *   open now, and those node:http closed at once because `MAX_CONNECTIONS` were open;
 * - `paysplit_outbox_messages{status="pending"|"dead"}` and `paysplit_outbox_oldest_pending_age_seconds`:
 *   read from the outbox at scrape time (one query per scrape; no samples while the database is away);
 * - `paysplit_webhook_attempts_total{outcome="delivered"|"retry"|"dead"}`: counted by the relay;
 * - `paysplit_rate_limited_total`: requests answered 429;
 * - prom-client's default process metrics (CPU, memory, event loop lag, …), prefixed `paysplit_`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Db } from './db/db.js'

export type AttemptOutcome = 'delivered' | 'retry' | 'dead'

export interface Metrics {
  readonly registry: Registry
  /** `replayed`: the stored answer of an Idempotency-Key, sent again. */
  observeRequest(route: string, method: string, status: number, seconds: number, replayed?: boolean): void
  attempt(outcome: AttemptOutcome): void
  rateLimited(): void
  /** The number of connections open now. */
  connections(open: number): void
  /** A connection closed at once: `MAX_CONNECTIONS` were open. */
  connectionDropped(): void
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const ACTIONS: ReadonlySet<string> = new Set(['cancel', 'charge', 'refund', 'adjust'])

/** The route of a path as a template, for labels: a bounded set, never an id (anything else is `other`). */
export const routeOf = (path: string): string => {
  const s = path.split('/')
  if (['/healthz', '/readyz', '/metrics', '/payments', '/events', '/bank/transfers', '/bank/ocr'].includes(path)) return path
  if (s[1] === 'payments' && s.length === 3) return '/payments/{id}'
  if (s[1] === 'payments' && s.length === 4 && ACTIONS.has(s[3] ?? '')) return `/payments/{id}/${s[3] ?? ''}`
  if (s[1] === 'payments' && s.length === 5 && s[3] === 'refund' && s[4] === 'partially') return '/payments/{id}/refund/partially'
  if (s[1] === 'customers' && s.length === 3) return '/customers/{id}'
  if (s[1] === 'pay' && s.length === 3) return '/pay/{id}'
  if (s[1] === 'pay' && s.length === 4 && (s[3] === 'complete' || s[3] === 'fail')) return `/pay/{id}/${s[3]}`
  return 'other'
}

export const methodOf = (method: string | undefined): string => (method !== undefined && METHODS.has(method) ? method : 'other')

/** A registry with the service's metrics; the outbox gauges query `db` when scraped. */
export const createMetrics = (db: Db): Metrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'paysplit_' })
  const requests = new Counter({
    name: 'paysplit_http_requests_total',
    help: 'HTTP requests answered, by route template, method, status, and whether the answer was an Idempotency-Key replay.',
    labelNames: ['route', 'method', 'status', 'replayed'] as const,
    registers: [registry]
  })
  const duration = new Histogram({
    name: 'paysplit_http_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer, by route template and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry]
  })
  const attempts = new Counter({
    name: 'paysplit_webhook_attempts_total',
    help: 'Webhook delivery attempts of this process’s relay, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry]
  })
  const limited = new Counter({ name: 'paysplit_rate_limited_total', help: 'Requests answered 429 (rate limit of a key).', registers: [registry] })
  const open = new Gauge({ name: 'paysplit_http_open_connections', help: 'HTTP connections open now.', registers: [registry] })
  const dropped = new Counter({
    name: 'paysplit_http_connections_dropped_total',
    help: 'Connections closed at once because MAX_CONNECTIONS were open.',
    registers: [registry]
  })

  // One query serves the three outbox readings of a scrape.
  let reading: Promise<{ pending: number; dead: number; age: number }> | undefined
  const outbox = (): Promise<{ pending: number; dead: number; age: number }> => {
    reading ??= db
      .query<{ pending: string; dead: string; age: string | null }>(
        `SELECT (SELECT count(*) FROM outbox WHERE status = 'pending')::text AS pending,
                (SELECT count(*) FROM outbox WHERE status = 'dead')::text AS dead,
                (SELECT extract(epoch FROM now() - min(created_at)) FROM outbox WHERE status = 'pending')::text AS age`
      )
      .then((r) => {
        const row = r.rows[0]
        return { pending: Number(row?.pending ?? 0), dead: Number(row?.dead ?? 0), age: row?.age == null ? 0 : Number(row.age) }
      })
      .finally(() => {
        setTimeout(() => {
          reading = undefined
        }, 0)
      })
    return reading
  }
  new Gauge({
    name: 'paysplit_outbox_messages',
    help: 'Outbox messages by status (pending: not yet delivered; dead: given up), read at scrape time.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      // the database away: no samples (not stale ones), the rest of the scrape still answered
      const o = await outbox().catch(() => undefined)
      if (o === undefined) {
        this.reset()
        return
      }
      this.set({ status: 'pending' }, o.pending)
      this.set({ status: 'dead' }, o.dead)
    }
  })
  new Gauge({
    name: 'paysplit_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending outbox message (0 when none), read at scrape time.',
    registers: [registry],
    async collect() {
      const o = await outbox().catch(() => undefined)
      if (o === undefined) this.reset()
      else this.set(o.age)
    }
  })
  return {
    registry,
    observeRequest: (route, method, status, seconds, replayed = false) => {
      requests.inc({ route, method, status: String(status), replayed: String(replayed) })
      duration.observe({ route, method }, seconds)
    },
    attempt: (outcome) => {
      attempts.inc({ outcome })
    },
    rateLimited: () => {
      limited.inc()
    },
    connections: (n) => {
      open.set(n)
    },
    connectionDropped: () => {
      dropped.inc()
    }
  }
}
