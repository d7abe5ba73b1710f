/**
 * The reference payments service: node:http in front, PostgreSQL behind (PGlite in-process by
 * default, a server through `pg` with DATABASE_URL), paysplit in between, an outbox relay for the
 * webhooks. `createService` wires it; ./main.ts runs it from the environment.
 *
 * Zones by path: `/healthz`, `/readyz` and the form pages `/pay/…` are open; `/metrics` needs a
 * metrics key (off without one); `/bank/…` needs a bank key; everything else (the payments API and
 * the event feed) an API key. Requests with a key are rate-limited per key (429 with
 * `Retry-After`). Each key names a caller (config.ts): the request's log line carries it, and it
 * scopes the caller's Idempotency-Keys.
 *
 * Stopping is a drain (docs/service.md, "Stopping: the drain"): `/readyz` answers 503 at once, the
 * service keeps answering for `drainPeriodMs` with `Connection: close`, then closes its listener,
 * lets the requests in flight and the connections that just sent one finish, stops the relay and
 * closes the database.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net'
import type { CallerKey, Config } from './config.js'
import { openDb, type Db } from './db/db.js'
import { migrate } from './db/migrate.js'
import { callerOf, json, pathOf, send, type Reply } from './http.js'
import { silentLogger, type Logger } from './log.js'
import { isReplay, withMarks, type RequestMarks } from './marks.js'
import { createMetrics, methodOf, routeOf, type Metrics } from './metrics.js'
import { Relay } from './outbox/relay.js'
import { paysplitRules, timedRules, type Rules, type Spent } from './paysplit.js'
import { apiRoute } from './routes/api.js'
import { bankTransfer } from './routes/bank.js'
import { bankOcr } from './routes/ocr.js'
import { defaultNow, defaultPaymentId, type Deps } from './routes/context.js'
import { eventsRoute } from './routes/events.js'
import { showForm, submitForm } from './routes/form.js'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import type { CardGateway } from './routes/gateway.js'

export interface Service {
  readonly server: Server
  readonly db: Db
  readonly relay: Relay
  readonly metrics: Metrics
  /** Listens on the configured host and port (0: any free port), unless it listens already; resolves to the base url. */
  listen(): Promise<string>
  /**
   * The drain, then the stop: `/readyz` 503 at once; answers for `drainPeriodMs` with
   * `Connection: close`; the listener closed; the requests in flight finished; the relay stopped
   * (its attempts in flight recorded); the database closed (unless it was given).
   */
  close(): Promise<void>
  /** Ends the drain at once (a second SIGTERM or SIGINT): the stop goes on from the listener's close. */
  endDrain(): void
}

export interface ServiceOptions {
  /**
   * A server that listens already (`listenOn`): runService binds the port before the database is
   * opened and migrated, so a port another process holds stops it before any migration runs.
   * Until the service is built, it answers 503 (`startingHandler`).
   */
  readonly server?: Server
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

/** A port the service cannot listen on: the process ends with exit code 78 (runService), naming it. */
export class PortUnavailable extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string
  ) {
    super(`Cannot listen on ${host}:${String(port)}: ${code === 'EADDRINUSE' ? 'the port is taken by another process' : code === 'EACCES' ? 'permission denied (a port below 1024?)' : code}.`)
    this.name = 'PortUnavailable'
  }
}

/** Listens on `host:port`; a port that is taken, forbidden or not on this machine is a {@link PortUnavailable}. */
export const listenOn = (server: Server, host: string, port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException): void => {
      const code = e.code ?? 'error'
      reject(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(code) ? new PortUnavailable(host, port, code) : e)
    }
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      resolve()
    })
  })

/** The service's base url, from the address it listens on. */
const urlOf = (server: Server): string => {
  const a = server.address() as AddressInfo
  return `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${String(a.port)}`
}

/**
 * What a server bound before the service is built answers: `/healthz` 200 (the process lives),
 * everything else 503 `Starting` with `Retry-After: 1` (`/readyz` included: not ready yet).
 */
export const startingHandler = (req: IncomingMessage, res: ServerResponse): void => {
  req.resume()
  if (pathOf(req.url ?? '/') === '/healthz') send(res, json(200, { status: 'starting' }))
  else send(res, json(503, { success: false, error: { code: 'Starting', message: 'The service is starting; retry in a moment.' } }, { 'retry-after': '1' }))
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
 * After the listener closed: a connection idle this long since the last request arrived is cut (a
 * client that connected just before the close has its request answered first).
 */
const LINGER_MS = 500

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** The error code of an answer's body: `error.code` of the common error body, `code` of cancel's, charge's and refund's. */
const codeOf = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null) return undefined
  const { error, code } = body as { readonly error?: unknown; readonly code?: unknown }
  if (typeof error === 'object' && error !== null && typeof (error as { readonly code?: unknown }).code === 'string') return (error as { readonly code: string }).code
  return typeof code === 'string' ? code : undefined
}

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

/**
 * Opens the database, applies the migrations, and builds the service: not yet listening, or, with
 * `options.server`, answering on the port that server holds.
 */
export const createService = async (config: Config, options: ServiceOptions = {}): Promise<Service> => {
  const log = options.log ?? silentLogger
  const db = options.db ?? (await openDb(config))
  const applied = await migrate(db)
  if (applied.length > 0) log.info('migrations applied', { applied })
  const base = options.rules ?? paysplitRules
  const rules = options.profile !== undefined ? timedRules(base, options.profile) : base
  const metrics = createMetrics(db)
  const relay = new Relay(db, config.relay, config.webhookSecrets, log, rules.webhookMessage, {
    onAttempt: (attempt) => {
      metrics.attempt(attempt.outcome)
    },
    retentionDays: config.eventsRetentionDays
  })
  const limit = rateLimiter(config)
  /** SIGTERM came: `/readyz` answers 503. */
  let stopping = false
  /** Every answer closes its connection (the drain). */
  let draining = false
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

  /** The caller of the request's key among `keys` (kept in its marks for the log), or undefined. */
  const caller = (req: IncomingMessage, keys: ReadonlyArray<CallerKey>, marks: RequestMarks): string | undefined => {
    const id = callerOf(req.headers.authorization, keys)
    if (id !== undefined) marks.caller = id
    return id
  }

  const route = async (req: IncomingMessage, requestId: string, marks: RequestMarks): Promise<Reply> => {
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
      if (caller(req, config.metricsKeys, marks) === undefined) return unauthorised
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
      if (caller(req, config.bankKeys, marks) === undefined) {
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
    if (caller(req, config.apiKeys, marks) === undefined) {
      req.resume()
      return unauthorised
    }
    const tooMany = await limited(req)
    if (tooMany !== undefined) return tooMany
    if (path === '/events') {
      req.resume()
      if (method !== 'GET') return json(405, { success: false, error: { code: 'MethodNotAllowed', message: 'Use GET.' } }, { allow: 'GET' })
      return eventsRoute(db, target)
    }
    return apiRoute(deps, req, method, target)
  }

  let inFlight = 0
  /** When the last request arrived (the drain's linger). */
  let lastArrival = 0
  const connections = new Set<Socket>()
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now()
    const requestId = requestIdOf(req)
    const marks: RequestMarks = {}
    inFlight++
    lastArrival = Date.now()
    const done = (status: number, body: unknown): void => {
      const ms = performance.now() - started
      if (options.profile !== undefined) options.profile.requestMs += ms
      const replayed = isReplay(marks, status, body)
      const code = codeOf(body)
      metrics.observeRequest(routeOf(pathOf(req.url ?? '/')), methodOf(req.method), status, ms / 1000, replayed)
      // a refused key or token is someone knocking: warn; the service's own failure: error (a 503 is
      // an answer by design: starting, stopping, not ready, no live gateway)
      const level = status === 401 || status === 403 ? 'warn' : status >= 500 && status !== 503 ? 'error' : 'info'
      log[level]('request', {
        requestId,
        method: req.method,
        path: pathOf(req.url ?? '/'),
        status,
        ms: Math.round(ms * 10) / 10,
        ...(marks.caller !== undefined ? { caller: marks.caller } : {}),
        ...(code !== undefined ? { code } : {}),
        ...(replayed ? { replayed: true } : {})
      })
      inFlight--
    }
    /** The request id on every answer; `Connection: close` during the drain and after a 413 (the rest of its body is not read). */
    const extra = (status: number): Record<string, string> => ({
      'x-request-id': requestId,
      ...(draining || status === 413 ? { connection: 'close' } : {})
    })
    withMarks(marks, () => route(req, requestId, marks))
      .then((reply) => {
        send(res, reply, extra(reply.status))
        done(reply.status, reply.body)
      })
      .catch((e: unknown) => {
        log.error('request failed', { requestId, error: e instanceof Error ? e.message : String(e) })
        // The database or the transport failed: not a payment rule, so not one of paysplit's codes.
        const failed = json(500, { success: false, error: { code: 'InternalError', message: 'The service failed; try again.' } })
        if (!res.headersSent) send(res, failed, extra(500))
        else res.destroy()
        done(500, failed.body)
      })
  }
  const server = options.server ?? createServer()
  server.removeAllListeners('request')
  server.on('request', handler)
  server.on('connection', (socket: Socket) => {
    connections.add(socket)
    metrics.connections(connections.size)
    socket.once('close', () => {
      connections.delete(socket)
      metrics.connections(connections.size)
    })
  })
  // past maxConnections node:http closes a new connection at once
  server.maxConnections = config.maxConnections
  server.on('drop', () => {
    metrics.connectionDropped()
  })
  // Idle keep-alive connections stay open longer than a load balancer keeps its own (commonly 60 s),
  // so the balancer, not the service, closes them: no request is sent on a connection the service
  // is closing at that moment (ECONNRESET, a 502 at the balancer).
  server.keepAliveTimeout = config.keepAliveTimeoutMs
  server.headersTimeout = config.headersTimeoutMs
  server.requestTimeout = config.requestTimeoutMs
  if (server.listening && config.relay.enabled) relay.start()

  let closing: Promise<void> | undefined
  let endDrain: (() => void) | undefined
  const stop = async (): Promise<void> => {
    stopping = true
    draining = true
    if (config.drainPeriodMs > 0) {
      log.info('draining', { drainPeriodMs: config.drainPeriodMs })
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.drainPeriodMs)
        endDrain = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
    const deadline = Date.now() + config.requestTimeoutMs
    // The listener only: http.Server#close would also cut the idle connections at once, among them
    // one that a client opened a moment ago and whose request is on its way. Closed right after an
    // I/O phase (setImmediate), when the connections waiting to be accepted have just been: the
    // kernel resets those still queued when a listening socket closes.
    await new Promise<void>((resolve) => setImmediate(resolve))
    const closed = new Promise<void>((resolve) => {
      NetServer.prototype.close.call(server, () => {
        resolve()
      })
    })
    log.info('listener closed', { inFlight, connections: connections.size })
    // The requests in flight finish (each answer closes its connection); a connection that sent
    // nothing for LINGER_MS is cut. Bounded by the request time limit.
    while (Date.now() < deadline && (inFlight > 0 || (connections.size > 0 && Date.now() - lastArrival < Math.min(LINGER_MS, config.drainPeriodMs)))) {
      await sleep(10)
    }
    if (inFlight > 0) log.warn('requests cut at the stop', { inFlight })
    server.closeAllConnections()
    await closed
    await relay.stop()
    if (options.db === undefined) await db.close()
  }

  return {
    server,
    db,
    relay,
    metrics,
    listen: async () => {
      if (!server.listening) await listenOn(server, config.host, config.port)
      if (config.relay.enabled) relay.start()
      return urlOf(server)
    },
    close: () => (closing ??= stop()),
    endDrain: () => {
      endDrain?.()
    }
  }
}
