/**
 * The reference payments service: node:http in front, PostgreSQL behind (PGlite in-process by
 * default, a server through `pg` with DATABASE_URL), paysplit in between, an outbox relay for the
 * webhooks. `createService` wires it; ./main.ts runs it from the environment.
 *
 * Zones by path: `/healthz`, `/readyz` and the form pages `/pay/…` are open; `/metrics` needs a
 * metrics key (off without one); `/bank/…` needs a bank key; everything else (the payments API) an
 * API key. Requests with a key are rate-limited per key (429 with `Retry-After`).
 */
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Config } from './config.js'
import { openDb, type Db } from './db/db.js'
import { migrate } from './db/migrate.js'
import { authorised, json, pathOf, send, type Reply } from './http.js'
import { silentLogger, type Logger } from './log.js'
import { createMetrics, methodOf, routeOf, type Metrics } from './metrics.js'
import { Relay } from './outbox/relay.js'
import { paysplitRules, timedRules, type Rules, type Spent } from './paysplit.js'
import { apiRoute } from './routes/api.js'
import { bankTransfer } from './routes/bank.js'
import { bankOcr } from './routes/ocr.js'
import { defaultNow, defaultPaymentId, type Deps } from './routes/context.js'
import { showForm, submitForm } from './routes/form.js'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import type { CardGateway } from './routes/gateway.js'

export interface Service {
  readonly server: Server
  readonly db: Db
  readonly relay: Relay
  readonly metrics: Metrics
  /** Listens on the configured host and port (0: any free port); resolves to the base url. */
  listen(): Promise<string>
  /** Graceful stop: no new connections, the requests in flight finish, the relay stops, the database closes. */
  close(): Promise<void>
}

export interface ServiceOptions {
  readonly log?: Logger
  /** An open database (tests share one); default: the one the configuration names. */
  readonly db?: Db
  readonly now?: () => string
  readonly newPaymentId?: () => string
  /** paysplit's rules by default; tests and the benchmark's baseline swap them. */
  readonly rules?: Rules
  /** When given, the time spent in the rules is added to `ms` (the benchmark's profile). */
  readonly profile?: Spent
  /** The card gateway of live payments' forms (routes/gateway.ts); none: the form refuses them. */
  readonly liveCardGateway?: CardGateway
}

const requestIdOf = (req: IncomingMessage): string => {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID()
}

const unauthorised: Reply = json(
  401,
  { success: false, error: { code: 'Unauthorized', message: 'Send Authorization: Bearer <key>.' } },
  { 'www-authenticate': 'Bearer' }
)

const notFound: Reply = json(404, { success: false, error: { code: 'NotFound', message: 'No such route.' } })

/** How long `/readyz` waits for the database before it answers 503. */
const READY_TIMEOUT_MS = 2000

/**
 * The limit of requests per key, per instance (docs/decisions.md, "The reference service in production"): a
 * fixed window of `windowS` seconds, in memory, the key known by its SHA-256 digest only.
 * Undefined when the limit is off (0).
 */
const rateLimiter = (config: Config): ((key: string) => Promise<number | undefined>) | undefined => {
  if (config.rateLimit.points === 0) return undefined
  const limiter = new RateLimiterMemory({ points: config.rateLimit.points, duration: config.rateLimit.windowS, keyPrefix: 'key' })
  return async (key) => {
    try {
      await limiter.consume(createHash('sha256').update(key, 'utf8').digest('hex'))
      return undefined
    } catch (e) {
      if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000))
      throw e
    }
  }
}

const bearerOf = (header: string | undefined): string => (header?.startsWith('Bearer ') === true ? header.slice('Bearer '.length).trim() : '')

/** Opens the database, applies the migrations, and builds the service (not yet listening). */
export const createService = async (config: Config, options: ServiceOptions = {}): Promise<Service> => {
  const log = options.log ?? silentLogger
  const db = options.db ?? (await openDb(config))
  const applied = await migrate(db)
  if (applied.length > 0) log.info('migrations applied', { applied })
  const base = options.rules ?? paysplitRules
  const rules = options.profile !== undefined ? timedRules(base, options.profile) : base
  const metrics = createMetrics(db)
  const relay = new Relay(db, config.relay, config.webhookSecret, log, rules.webhookMessage, {
    onAttempt: (attempt) => {
      metrics.attempt(attempt.outcome)
    }
  })
  const limit = rateLimiter(config)
  let stopping = false
  /** 429 when the key is over its limit, else undefined (the request goes on). */
  const limited = async (req: IncomingMessage): Promise<Reply | undefined> => {
    const retryAfter = limit === undefined ? undefined : await limit(bearerOf(req.headers.authorization))
    if (retryAfter === undefined) return undefined
    req.resume()
    metrics.rateLimited()
    return json(
      429,
      { success: false, error: { code: 'RateLimited', message: `Too many requests with this key; retry after ${String(retryAfter)} s.` } },
      { 'retry-after': String(retryAfter) }
    )
  }
  const deps: Deps = {
    db,
    config,
    log,
    rules,
    outboxWritten: () => {
      relay.kick()
    },
    now: options.now ?? defaultNow,
    newPaymentId: options.newPaymentId ?? defaultPaymentId,
    ...(options.liveCardGateway !== undefined ? { liveCardGateway: options.liveCardGateway } : {})
  }

  const route = async (req: IncomingMessage, requestId: string): Promise<Reply> => {
    const method = req.method ?? ''
    const target = req.url ?? '/'
    const path = pathOf(target)
    const segments = path.split('/')
    if (path === '/healthz' || path === '/readyz' || path === '/metrics') {
      req.resume()
      if (method !== 'GET') return json(405, { success: false, error: { code: 'MethodNotAllowed', message: 'Use GET.' } }, { allow: 'GET' })
      // Liveness: the process answers. Restarting it would not mend a database that is away.
      if (path === '/healthz') return json(200, { status: 'ok', database: db.driver })
      if (path === '/readyz') {
        if (stopping) return json(503, { status: 'stopping', database: db.driver })
        let timer: NodeJS.Timeout | undefined
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            reject(new Error('timeout'))
          }, READY_TIMEOUT_MS)
        })
        try {
          await Promise.race([db.query('SELECT 1'), late])
          return json(200, { status: 'ready', database: db.driver })
        } catch {
          return json(503, { status: 'unavailable', database: db.driver })
        } finally {
          clearTimeout(timer)
        }
      }
      if (config.metricsKeys.length === 0) return notFound
      if (!authorised(req.headers.authorization, config.metricsKeys)) return unauthorised
      return { status: 200, text: await metrics.registry.metrics(), headers: { 'content-type': metrics.registry.contentType } }
    }
    if (segments[1] === 'pay' && segments[2] !== undefined) {
      const id = segments[2]
      if (segments.length === 3) {
        req.resume()
        return method === 'GET' ? showForm(deps, id) : { status: 405, html: '', headers: { allow: 'GET' } }
      }
      const action = segments[3]
      if (segments.length === 4 && (action === 'complete' || action === 'fail')) {
        if (method !== 'POST') {
          req.resume()
          return { status: 405, html: '', headers: { allow: 'POST' } }
        }
        return submitForm(deps, req, id, action)
      }
    }
    if (path === '/bank/transfers' || path === '/bank/ocr') {
      if (!authorised(req.headers.authorization, config.bankKeys)) {
        req.resume()
        return unauthorised
      }
      const tooMany = await limited(req)
      if (tooMany !== undefined) return tooMany
      if (method !== 'POST') {
        req.resume()
        return json(405, { success: false, error: { code: 'MethodNotAllowed', message: 'Use POST.' } }, { allow: 'POST' })
      }
      return path === '/bank/ocr' ? bankOcr(deps, req, requestId) : bankTransfer(deps, req, requestId)
    }
    if (!authorised(req.headers.authorization, config.apiKeys)) {
      req.resume()
      return unauthorised
    }
    const tooMany = await limited(req)
    if (tooMany !== undefined) return tooMany
    return apiRoute(deps, req, method, target)
  }

  let inFlight = 0
  let drained: (() => void) | undefined
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now()
    const requestId = requestIdOf(req)
    inFlight++
    const done = (status: number): void => {
      if (options.profile !== undefined) options.profile.requestMs += performance.now() - started
      metrics.observeRequest(routeOf(pathOf(req.url ?? '/')), methodOf(req.method), status, (performance.now() - started) / 1000)
      log.info('request', {
        requestId,
        method: req.method,
        path: pathOf(req.url ?? '/'),
        status,
        ms: Math.round((performance.now() - started) * 10) / 10
      })
      inFlight--
      if (inFlight === 0) drained?.()
    }
    route(req, requestId)
      .then((reply) => {
        send(res, reply, { 'x-request-id': requestId })
        done(reply.status)
      })
      .catch((e: unknown) => {
        log.error('request failed', { requestId, error: e instanceof Error ? e.message : String(e) })
        // The database or the transport failed: not a payment rule, so not one of paysplit's codes.
        if (!res.headersSent) {
          send(res, json(500, { success: false, error: { code: 'InternalError', message: 'The service failed; try again.' } }), { 'x-request-id': requestId })
        } else res.destroy()
        done(500)
      })
  })
  // Idle keep-alive connections stay open longer than a load balancer keeps its own (commonly 60 s),
  // so the balancer, not the service, closes them: no request is sent on a connection the service
  // is closing at that moment (ECONNRESET, a 502 at the balancer).
  server.keepAliveTimeout = config.keepAliveTimeoutMs
  server.headersTimeout = config.headersTimeoutMs
  server.requestTimeout = config.requestTimeoutMs

  return {
    server,
    db,
    relay,
    metrics,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(config.port, config.host, () => {
          server.off('error', reject)
          if (config.relay.enabled) relay.start()
          const a = server.address() as AddressInfo
          resolve(`http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${String(a.port)}`)
        })
      }),
    close: async () => {
      stopping = true
      const closed = new Promise<void>((resolve) => server.close(() => {
        resolve()
      }))
      server.closeIdleConnections()
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve
        })
      }
      server.closeAllConnections()
      await closed
      await relay.stop()
      if (options.db === undefined) await db.close()
    }
  }
}
