/**
 * A whole payments service on paysplit/http, to copy (docs/http.md, "Embedding guide"): Hono, and
 * PostgreSQL through pg (PGlite in-process by default) in paysplit's tables (paysplit/schema.sql).
 * An operation is one transaction: `paysplit.load` the rows its keys name, `worldOf`, the operation,
 * `paysplit.store` its changes and deliveries; a lost race runs again on fresh rows.
 */
import { createHash, createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { serve } from '@hono/node-server'
import * as E from 'fp-ts/lib/Either.js'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { csrf } from 'hono/csrf'
import { secureHeaders } from 'hono/secure-headers'
import { kid, type PaymentError } from 'paysplit'
import { parseCamt054 } from 'paysplit/camt054'
import * as paysplit from 'paysplit/http'
import pg from 'pg'
import { Webhook } from 'standardwebhooks'

type Sql = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>
/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
type Db = <T>(work: (sql: Sql) => Promise<T>) => Promise<T>

/** PostgreSQL through pg for a `postgres://` url, else PGlite in that folder (none: in memory); paysplit's tables created. */
const openDb = async (url?: string): Promise<[Db, () => Promise<void>]> => {
  const schema = readFileSync(new URL(import.meta.resolve('paysplit/schema.sql')), 'utf8')
  if (url?.startsWith('postgres') !== true) {
    const lite = await PGlite.create(url)
    await lite.exec(schema)
    return [(work) => lite.transaction((tx) => work(async (text, params) => (await tx.query<never>(text, params)).rows)), () => lite.close()]
  }
  const pool = new pg.Pool({ connectionString: url })
  await pool.query(schema)
  const db: Db = async (work) => {
    const client = await pool.connect()
    const sql: Sql = async (text, params) => (await client.query<never>(text, params)).rows
    return sql('BEGIN').then(() => work(sql)).then(async (done) => (await sql('COMMIT'), done))
      .catch(async (e: unknown) => { await sql('ROLLBACK'); throw e }).finally(() => { client.release() })
  }
  return [db, () => pool.end()]
}

/** The rows `keys` name, locked: as `paysplit.load` gave them (for `paysplit.store`), and as a world. */
const load = async (sql: Sql, keys: paysplit.RowKeys): Promise<[string, paysplit.World]> => {
  const [{ rows } = { rows: '{}' }] = await sql<{ rows: string }>('SELECT paysplit.load($1)::text AS rows', [JSON.stringify(keys)])
  const world = paysplit.worldOf(JSON.parse(rows) as paysplit.WorldRows)
  if (E.isLeft(world)) throw new Error(`A stored row cannot be read: ${world.left.message}`)
  return [rows, world.right]
}

/** The loop: the rows the keys name, the operation on them, its changes, deliveries and parked transfers stored. */
const operate = async <O extends paysplit.Outcome>(db: Db, step: () => readonly [paysplit.RowKeys, (w: paysplit.World) => O], park: (o: O) => unknown[] = () => []) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db(async (sql) => {
        const [keys, run] = step() // a fresh context (clock, id, KID) each attempt
        const [rows, world] = await load(sql, keys)
        const o = run(world)
        await sql('SELECT paysplit.store($1, $2, $3, $4)', [JSON.stringify(o.changes), rows, JSON.stringify(o.deliveries), JSON.stringify(park(o))])
        return o
      })
    } catch (e) { // another transaction won: a row changed since read (40001), a key taken (23505), a deadlock (40P01)
      if (attempt === 5 || !['40001', '23505', '40P01'].includes(String((e as { code?: unknown }).code))) throw e
    }
  }
}

/** Sends the outbox rows due (paysplit.outbox_claim), each signed as stored; forgets expired rows; how many it sent. */
const relay = async (db: Db, webhook: Webhook) => {
  const due = await db((sql) => sql<paysplit.StoredDelivery & { seq: string }>('SELECT * FROM paysplit.outbox_claim()'))
  await Promise.all(due.map(async (row) => {
    const m = paysplit.webhookMessage(row, { timestamp: Math.floor(Date.now() / 1000) })
    const headers = { ...m.headers, 'webhook-signature': webhook.sign(m.id, new Date(m.timestamp * 1000), m.body) }
    const sent = fetch(m.url, { method: 'POST', headers, body: m.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) })
    const status = await sent.then(async (r) => (await r.body?.cancel(), r.status), () => 0)
    await db((sql) => sql('SELECT paysplit.outbox_sent($1, $2)', [row.seq, status]))
  }))
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
  await db((sql) => sql('SELECT paysplit.forget($1, $2)', [ago(paysplit.IDEMPOTENCY_KEY_TTL_MS), ago(paysplit.CAMT054_MEMORY_DAYS * 86_400_000)]))
  return due.length
}

const reply = (status: number, body: unknown, headers?: Record<string, string>) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
/** A body as paysplit takes it: parsed (a `"__proto__"` key stays a key, for paysplit to judge); not JSON: the text. */
const parse = (text: string): unknown => { try { return text === '' ? undefined : JSON.parse(text) } catch { return text } }
const same = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest())

/** Starts the service as `env` says (docs/http.md, "Embedding guide"); resolves once it listens, with its url and database. */
export const start = async (env: Readonly<Record<string, string | undefined>>) => {
  const setting = (name: string) => env[name] ?? (() => { throw new Error(`${name} is not set`) })()
  const apiKeys = setting('API_KEYS').split(',').map((entry) => entry.split(':')) // id:key,…; the id scopes its Idempotency-Keys
  const [bankKey, formSecret, webhook] = [setting('BANK_KEY'), setting('FORM_SECRET'), new Webhook(setting('WEBHOOK_SECRET'))]
  const [db, closeDb] = await openDb(env['DATABASE'])
  const now = () => ({ at: new Date().toISOString(), ...(env['CATCH_ALL_URL'] === undefined ? {} : { catchAllUrl: env['CATCH_ALL_URL'] }) })
  const callerOf = (c: Context, keys: string[][]) => keys.find(([, key]) => same(c.req.header('authorization') ?? '', `Bearer ${key}`))?.[0]
  const denied = reply(401, { success: false, error: { code: 'Unauthorized', message: 'This route needs a key: Authorization: Bearer <key>.' } })
  const token = (id: string, action: string, expires: number) => `${String(expires)}.${createHmac('sha256', formSecret).update(`${id} ${action} ${String(expires)}`).digest('base64url')}`

  const app = new Hono().use(bodyLimit({ maxSize: 8 << 20 })) // an OCR file of some 100,000 records
  app.use('/bank/*', async (c, next) => (callerOf(c, [['bank', bankKey]]) === undefined ? denied.clone() : next()))
  app.use('/pay/*', csrf(), secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } }))
  app.get('/pay/:id', async (c) => { // the amount and a button per action, each with its token (15 minutes); Pay for test payments only: no card gateway here
    const id = c.req.param('id').toLowerCase()
    const p = (await db((sql) => load(sql, paysplit.formKeys(id))))[1].payments.get(id)
    if (p === undefined) return c.notFound()
    const [expires, open] = [Math.floor(Date.now() / 1000) + 900, p.kind === 'card' && p.status === 'Initiated']
    const button = (action: string, label: string) =>
      `<form method="post" action="/pay/${id}/${action}"><input type="hidden" name="token" value="${token(id, action, expires)}"><button>${label}</button></form>`
    c.header('cache-control', 'no-store')
    return c.html(`<!doctype html><title>Payment</title><p>${(p.grossAmount / 100).toFixed(2)} ${p.currency}: ${p.status}</p>
      ${open && p.environment === 'test' ? button('complete', 'Pay (a test: no card is charged)') : ''}${open ? button('fail', 'Cancel') : ''}`)
  })
  app.post('/pay/:id/:action{complete|fail}', async (c) => { // a payment id alone never moves money: the page's token, same-site (csrf)
    const [id, action, form] = [c.req.param('id').toLowerCase(), c.req.param('action'), await c.req.parseBody()]
    const [given = '', reason = ''] = [form['token'], form['reason']].map((f) => (typeof f === 'string' ? f.slice(0, 200) : ''))
    const expires = Number(given.split('.')[0])
    if (!(expires * 1000 > Date.now()) || !same(given, token(id, action, expires))) return c.text('Not accepted: open the page again.', 403)
    const ctx = { ...now(), ...(reason === '' ? {} : { reason }) }
    const { redirectUrl } = await operate(db, () => [paysplit.formKeys(id), (w) => (action === 'complete' ? paysplit.completeForm(w, id, ctx) : paysplit.failForm(w, id, ctx))])
    return redirectUrl === undefined ? c.notFound() : c.redirect(redirectUrl, 303)
  })
  app.post('/bank/transfers', async (c) => { // { kid, amount }: 200, 202 when no open invoice holds the KID (parked)
    const transfer = parse(await c.req.text()) as paysplit.Transfer // paysplit reads and judges it
    const unmatched = (r: E.Either<PaymentError, unknown>) => E.isLeft(r) && r.left.code === 'UnmatchedTransfer'
    const step = () => [paysplit.transferKeys(transfer), (w: paysplit.World) => paysplit.receiveTransferByKid(w, transfer, now())] as const
    const { result } = await operate(db, step, (o) => (unmatched(o.result) ? [transfer] : []))
    if (E.isLeft(result)) return reply(unmatched(result) ? 202 : paysplit.httpStatusOf(result.left), { success: unmatched(result), error: result.left })
    return reply(200, { success: true, paymentReferenceID: result.right.paymentReferenceID, status: result.right.status })
  })
  /** A bank file as text, read by `read`: 400 when refused (nothing applied), else applied once, its unmatched transfers parked, and its report. */
  const bankFile = <F>(read: (text: string) => E.Either<PaymentError, F>, keysOf: (f: F) => paysplit.RowKeys, receive: (w: paysplit.World, f: F, ctx: paysplit.EventContext) => paysplit.OcrReceived) =>
    async (c: Context) => {
      const file = read(await c.req.text())
      if (E.isLeft(file)) return reply(400, { success: false, error: file.left })
      const { report } = await operate(db, () => [keysOf(file.right), (w) => receive(w, file.right, now())], (o) => o.report.filter((r) => r.outcome === 'unmatched'))
      return reply(200, { success: true, report })
    }
  app.post('/bank/ocr', bankFile(paysplit.parseOcrGiro, paysplit.ocrKeys, paysplit.receiveOcrGiro))
  app.post('/bank/camt054', bankFile(parseCamt054, paysplit.camt054Keys, paysplit.receiveCamt054))
  app.all('*', async (c) => { // every other request is the API's: `handle` answers it, a 404 and a 405 too
    const scope = callerOf(c, apiKeys) // the caller: its key's id
    if (scope === undefined) return denied.clone()
    const url = new URL(c.req.url)
    const request = { method: c.req.method, path: url.pathname + url.search, body: parse(await c.req.text()), headers: c.req.header() }
    const { response } = await operate(db, () => {
      const ctx = { ...now(), paymentReferenceID: randomUUID(), kid: E.getOrElseW(() => undefined)(kid.create(String(randomInt(1e9, 1e10)), 'mod10')), idempotencyScope: scope }
      return [paysplit.requestKeys(request, ctx), (w) => paysplit.handle(w, request, ctx)]
    })
    return reply(response.status, response.body, response.headers)
  })

  const server = serve({ fetch: app.fetch, port: Number(env['PORT'] ?? 8080), hostname: env['HOST'] ?? '127.0.0.1' })
  await new Promise((listening) => server.once('listening', listening))
  let sending: Promise<void> | undefined // one relay at a time, until nothing is due
  const drain = async () => { while ((await relay(db, webhook)) > 0); }
  const timer = setInterval(() => { sending ??= drain().catch(console.error).finally(() => (sending = undefined)) }, Number(env['RELAY_EVERY_MS'] ?? 500))
  const close = async () => { clearInterval(timer); await new Promise((closed) => server.close(closed)); await sending; await closeDb() }
  return { url: `http://127.0.0.1:${String((server.address() as { port: number }).port)}`, db, close }
}

if (process.argv[1] === import.meta.filename) { // `node --import tsx service.ts`, with the settings of docs/http.md
  const service = await start(process.env)
  console.log(`paysplit service at ${service.url}`)
  process.once('SIGTERM', () => void service.close())
}
