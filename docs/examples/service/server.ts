/**
 * The reference payments service: node:http in front, PostgreSQL behind (PGlite in-process by
 * default, a server through `pg` with DATABASE_URL), paysplit in between, an outbox relay for the
 * webhooks. `createService` wires it; ./main.ts runs it from the environment.
 *
 * Zones by path: `/healthz` and the form pages `/pay/…` are open; `/bank/…` needs a bank key;
 * everything else (the payments API) an API key.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Config } from './config.js'
import { openDb, type Db } from './db/db.js'
import { migrate } from './db/migrate.js'
import { authorised, json, pathOf, send, type Reply } from './http.js'
import { silentLogger, type Logger } from './log.js'
import { Relay } from './outbox/relay.js'
import { paysplitRules, timedRules, type Rules, type Spent } from './paysplit.js'
import { apiRoute } from './routes/api.js'
import { bankTransfer } from './routes/bank.js'
import { bankOcr } from './routes/ocr.js'
import { defaultNow, defaultPaymentId, type Deps } from './routes/context.js'
import { showForm, submitForm } from './routes/form.js'

export interface Service {
  readonly server: Server
  readonly db: Db
  readonly relay: Relay
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

/** Opens the database, applies the migrations, and builds the service (not yet listening). */
export const createService = async (config: Config, options: ServiceOptions = {}): Promise<Service> => {
  const log = options.log ?? silentLogger
  const db = options.db ?? (await openDb(config))
  const applied = await migrate(db)
  if (applied.length > 0) log.info('migrations applied', { applied })
  const base = options.rules ?? paysplitRules
  const rules = options.profile !== undefined ? timedRules(base, options.profile) : base
  const relay = new Relay(db, config.relay, config.webhookSecret, log, rules.webhookMessage)
  const deps: Deps = {
    db,
    config,
    log,
    rules,
    outboxWritten: () => {
      relay.kick()
    },
    now: options.now ?? defaultNow,
    newPaymentId: options.newPaymentId ?? defaultPaymentId
  }

  const route = async (req: IncomingMessage, requestId: string): Promise<Reply> => {
    const method = req.method ?? ''
    const target = req.url ?? '/'
    const path = pathOf(target)
    const segments = path.split('/')
    if (path === '/healthz') {
      req.resume()
      if (method !== 'GET') return json(405, { success: false, error: { code: 'MethodNotAllowed', message: 'Use GET.' } }, { allow: 'GET' })
      try {
        await db.query('SELECT 1')
        return json(200, { status: 'ok', database: db.driver })
      } catch {
        return json(503, { status: 'unavailable', database: db.driver })
      }
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
    if (path === '/bank/ocr') return bankOcr(deps, req, requestId)
    if (path === '/bank/transfers') {
      if (!authorised(req.headers.authorization, config.bankKeys)) {
        req.resume()
        return unauthorised
      }
      if (method !== 'POST') {
        req.resume()
        return json(405, { success: false, error: { code: 'MethodNotAllowed', message: 'Use POST.' } }, { allow: 'POST' })
      }
      return bankTransfer(deps, req, requestId)
    }
    if (!authorised(req.headers.authorization, config.apiKeys)) {
      req.resume()
      return unauthorised
    }
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
  server.requestTimeout = config.requestTimeoutMs
  server.headersTimeout = Math.min(config.requestTimeoutMs, 60_000)

  return {
    server,
    db,
    relay,
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
