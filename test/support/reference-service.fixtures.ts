/**
 * Fixtures of the reference service's tests (docs/examples/service): a database per test file
 * (PGlite in memory; a fresh database on the PostgreSQL server when PAYSPLIT_TEST_DATABASE_URL
 * is set, as `npm run test:postgres` does), a service on 127.0.0.1, a client with the API key,
 * and a webhook receiver that verifies every message with the standardwebhooks package.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import pg from 'pg'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Payment } from '../../src/index.js'
import { Webhook } from 'standardwebhooks'
import { devApiKey, devBankKey, devFormSecret, devWebhookSecret, loadConfig } from '../../docs/examples/service/config.js'
import { openPg, openPglite, type Db } from '../../docs/examples/service/db/db.js'
import { storedPayment, type Rules } from '../../docs/examples/service/paysplit.js'
import { formToken, type FormAction } from '../../docs/examples/service/routes/form.js'
import { createService, type Service, type ServiceOptions } from '../../docs/examples/service/server.js'

/** The server's URL for databases of the tests (the `postgres` database of an embedded server). */
export const serverUrl = (): string | undefined => process.env['PAYSPLIT_TEST_DATABASE_URL']

/** A new empty database on the test server; its URL. */
export const createDatabase = async (admin: string): Promise<string> => {
  const name = `svc_${randomBytes(6).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}

export interface TestDb {
  readonly db: Db
  /** The URL of the database, on a server; undefined on PGlite. */
  readonly url: string | undefined
  close(): Promise<void>
}

/** A fresh database: PGlite in memory, or a new database on the test server. */
export const testDb = async (): Promise<TestDb> => {
  const admin = serverUrl()
  if (admin === undefined) {
    const db = await openPglite()
    return { db, url: undefined, close: () => db.close() }
  }
  const url = await createDatabase(admin)
  const db = openPg(url, 10)
  return { db, url, close: () => db.close() }
}

/** Settings of the tests: development mode, no rate limit, fast retries, short time limits, any free port, no drain. */
export const testEnv = (env: Record<string, string> = {}): Record<string, string> => ({
  DEV_MODE: '1',
  RATE_LIMIT_PER_KEY: '0',
  PORT: '0',
  WEBHOOK_BASE_DELAY_MS: '20',
  WEBHOOK_MAX_DELAY_MS: '200',
  WEBHOOK_MAX_ATTEMPTS: '3',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '1000',
  // the receivers of the tests listen on loopback: allowed explicitly, whatever the mode
  WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1',
  // a test stops its services at once (the drain's test sets its own period)
  DRAIN_PERIOD_MS: '0',
  ...env
})

export interface Running {
  readonly service: Service
  readonly base: string
}

/** Starts a service on `db` (migrations applied), listening on a free port; `rules`: paysplit's by default. */
export const startService = async (db: Db, env: Record<string, string> = {}, rules?: Rules, options: ServiceOptions = {}): Promise<Running> => {
  const service = await createService(loadConfig(testEnv(env)), { ...options, db, ...(rules !== undefined ? { rules } : {}) })
  const base = await service.listen()
  return { service, base }
}

/**
 * One service for a test file, on its own database, with a webhook receiver as its catch-all
 * (`${hooks}/all`): started before the file's tests, stopped after them. Its fields are set once
 * started; `env` adds to {@link testEnv}.
 */
export interface ServiceUnderTest {
  readonly base: string
  readonly db: Db
  readonly hooks: string
  readonly receiver: Receiver
  readonly running: Running
  /** A reference unique in the file: `prefix-1`, `prefix-2`… */
  readonly ref: (prefix: string) => string
  /** Creates a payment (201 expected) and gives its id. */
  readonly create: (body: Record<string, unknown>) => Promise<string>
  /** The payment as its row stores it. */
  readonly stored: (id: string) => Promise<Payment>
  /** `SELECT count(*) FROM <from>`. */
  readonly count: (from: string) => Promise<number>
}

export const serviceUnderTest = (env: Record<string, string> = {}): ServiceUnderTest => {
  let database: TestDb | undefined
  let refs = 0
  const t = {
    receiver: new Receiver(),
    ref: (prefix: string): string => `${prefix}-${String((refs += 1))}`,
    create: async (body: Record<string, unknown>): Promise<string> => {
      const r = await call(t.base, 'POST', '/payments', body)
      expect(r.status).toBe(201)
      return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
    },
    stored: async (id: string): Promise<Payment> => {
      const row = (await t.db.query<{ state: unknown }>('SELECT state FROM payments WHERE payment_reference_id = $1', [id])).rows[0]
      const p = storedPayment(row?.state)
      if (p._tag === 'Left') throw new Error(`no payment ${id}`)
      return p.right
    },
    count: async (from: string): Promise<number> => Number((await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${from}`)).rows[0]?.n)
  } as { -readonly [K in keyof ServiceUnderTest]: ServiceUnderTest[K] }
  beforeAll(async () => {
    t.hooks = await t.receiver.start()
    database = await testDb()
    t.db = database.db
    t.running = await startService(t.db, { CATCH_ALL_URL: `${t.hooks}/all`, ...env })
    t.base = t.running.base
  })
  afterAll(async () => {
    await t.running.service.close()
    await database?.close()
    await t.receiver.stop()
  })
  return t
}

export interface Reply {
  readonly status: number
  readonly body: any
  readonly headers: Headers
  readonly text: string
}

/** Sends a request with the API key (or `key`; `null` for none); `body` JSON-encoded unless `raw`. */
export const call = async (
  base: string,
  method: string,
  path: string,
  body?: unknown,
  options: { readonly key?: string | null; readonly raw?: string; readonly contentType?: string } = {}
): Promise<Reply> => {
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body))
  const key = options.key === undefined ? devApiKey : options.key
  const headers: Record<string, string> = {}
  if (key !== null) headers['authorization'] = `Bearer ${key}`
  if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json'
  const res = await fetch(base + path, { method, headers, redirect: 'manual', ...(payload === undefined ? {} : { body: payload }) })
  const text = await res.text()
  let parsed: unknown = undefined
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.status, body: parsed, headers: res.headers, text }
}

/** A valid token of the hosted form's `action` on payment `id` (the development secret; an hour ahead). */
export const formTokenFor = (id: string, action: FormAction, secret: string = devFormSecret): string =>
  formToken(secret, id, action, Math.floor(Date.now() / 1000) + 3600)

/** Posts the hosted form's `action` as its page would: with a token, form-encoded, redirects not followed. */
export const postForm = (base: string, id: string, action: FormAction, fields: Readonly<Record<string, string>> = {}): Promise<Response> =>
  fetch(`${base}/pay/${id}/${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: formTokenFor(id, action), ...fields }).toString()
  })

export const bank = (base: string, body: unknown, key: string | null = devBankKey): Promise<Reply> =>
  call(base, 'POST', '/bank/transfers', body, { key })

// -------------------------------------------------------------------------------------
// the webhook receiver
// -------------------------------------------------------------------------------------

export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly raw: string
  readonly body: any
  /** The standardwebhooks package accepted the signature. */
  readonly verified: boolean
  /** When it arrived (ms since the epoch). */
  readonly at: number
}

/**
 * A webhook receiver on 127.0.0.1. Paths decide how it answers: `/flaky…` 500 for the first two
 * attempts of each webhook-id then 200; `/down…` 503; `/error…` 500; `/gone…` 410; `/slow…` answers after
 * `slowMs`; `/endless…` 200 and a body that never ends; `/busy…` 503 with `Retry-After: 1` (seconds)
 * and `/throttled…` 429 with `Retry-After` an HTTP-date two seconds ahead, each on the first attempt
 * of a webhook-id, then 204; anything else 204.
 */
export class Receiver {
  readonly received: Array<Received> = []
  /** Bytes the endless answers have written so far. */
  endlessBytes = 0
  slowMs = 3000
  base = ''
  private readonly server: Server
  private readonly hits = new Map<string, number>()
  private readonly sockets = new Set<Socket>()
  private readonly webhook: Webhook

  constructor(secret: string = devWebhookSecret) {
    this.webhook = new Webhook(secret)
    this.server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const path = req.url ?? '/'
        const raw = Buffer.concat(chunks).toString('utf8')
        let verified = true
        try {
          this.webhook.verify(raw, req.headers as Record<string, string>)
        } catch {
          verified = false
        }
        this.received.push({ path, headers: req.headers, raw, body: JSON.parse(raw), verified, at: Date.now() })
        const id = String(req.headers['webhook-id'])
        const hits = (this.hits.get(`${path} ${id}`) ?? 0) + 1
        this.hits.set(`${path} ${id}`, hits)
        if (path.startsWith('/flaky')) res.writeHead(hits <= 2 ? 500 : 200).end()
        else if (path.startsWith('/down')) res.writeHead(503).end()
        else if (path.startsWith('/error')) res.writeHead(500).end()
        else if (path.startsWith('/gone')) res.writeHead(410).end()
        else if (path.startsWith('/busy')) res.writeHead(hits === 1 ? 503 : 204, hits === 1 ? { 'retry-after': '1' } : {}).end()
        else if (path.startsWith('/throttled')) res.writeHead(hits === 1 ? 429 : 204, hits === 1 ? { 'retry-after': new Date(Date.now() + 2000).toUTCString() } : {}).end()
        else if (path.startsWith('/slow')) setTimeout(() => res.writeHead(200).end(), this.slowMs)
        else if (path.startsWith('/endless')) {
          // 16 kB every millisecond until the client hangs up: endless, without hogging this process
          res.writeHead(200, { 'content-type': 'application/octet-stream' })
          const chunk = Buffer.alloc(16 * 1024, 120)
          const timer = setInterval(() => {
            if (res.destroyed) {
              clearInterval(timer)
              return
            }
            res.write(chunk)
            this.endlessBytes += chunk.length
          }, 1)
          res.on('close', () => {
            clearInterval(timer)
          })
        } else res.writeHead(204).end()
      })
    })
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
  }

  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve))
    this.base = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`
    return this.base
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) => this.server.close(() => {
      resolve()
    }))
  }

  /** What a path received for one payment, in order of arrival. */
  for(path: string, paymentReferenceID: string): ReadonlyArray<Received> {
    return this.received.filter((r) => r.path === path && r.body.payload.payment.paymentCreated.paymentReferenceID === paymentReferenceID)
  }
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export const eventually = async (check: () => boolean | Promise<boolean>, ms = 15_000, what = 'condition'): Promise<void> => {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** The outbox rows of a payment, oldest first. */
export const outboxOf = async (db: Db, paymentReferenceID: string) =>
  (
    await db.query<{ webhook_id: string; url: string; status: string; attempts: number; last_status: number | null; event_type: string }>(
      'SELECT webhook_id, url, status, attempts, last_status, event_type FROM outbox WHERE payment_reference_id = $1 ORDER BY id',
      [paymentReferenceID]
    )
  ).rows

/** Every outbox message ended (delivered or dead). */
export const outboxSettled = async (db: Db): Promise<boolean> =>
  (await db.query<{ n: string }>("SELECT count(*)::text AS n FROM outbox WHERE status = 'pending'")).rows[0]?.n === '0'
