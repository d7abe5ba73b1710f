/**
 * A whole payments service on paysplit/http, to copy (docs/http.md, "Embedding guide"): every route
 * of `handle`, the hosted form, bank transfers by KID, OCR giro files, Idempotency-Key and signed
 * webhooks from an outbox, on PostgreSQL through pg (PGlite in-process by default), in paysplit's
 * tables (paysplit/schema.sql). Every operation is one loop, `operate`: load the rows paysplit's
 * keys name, `worldOf`, the operation, write its `changes` (a payment only at the version read) and
 * deliveries in one transaction; a lost race runs again on fresh rows.
 *
 * The form: a payment id alone never moves money. The page issues a token per action (an HMAC of
 * payment, action and expiry under FORM_SECRET); a post needs it, and a browser's post from another
 * site is refused. With no card gateway here, Pay (and its token) is offered for test payments
 * only: the least a form can carry and stay safe. Put your gateway where Pay completes the form.
 * Left out: a guard on where webhooks may go, rate limits, metrics (docs/service.md has them).
 */
import { createHash, createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { serve } from '@hono/node-server'
import * as E from 'fp-ts/lib/Either.js'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { secureHeaders } from 'hono/secure-headers'
import { kid } from 'paysplit'
import * as paysplit from 'paysplit/http'
import pg from 'pg'
import { Webhook } from 'standardwebhooks'

/** A statement in the current transaction; a transaction: committed when `work` resolves, rolled back when it throws. */
type Sql = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>
type Db = <T>(work: (sql: Sql) => Promise<T>) => Promise<T>

/** PostgreSQL through pg for a `postgres://` url, else PGlite in that folder (none: in memory); paysplit's tables created. */
const openDb = async (url?: string): Promise<[Db, () => Promise<void>]> => {
  const schema = readFileSync(createRequire(import.meta.url).resolve('paysplit/schema.sql'), 'utf8')
  if (url?.startsWith('postgres') !== true) {
    const lite = await PGlite.create(url)
    await lite.exec(schema)
    const db: Db = (work) => lite.transaction((tx) => work(async (text, params) => (await tx.query<never>(text, params)).rows))
    return [db, () => lite.close()]
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

class LostRace extends Error {}
/** Another transaction won: a version moved, a key it took (23505), a serialization failure, a deadlock. */
const raced = (e: unknown) => e instanceof LostRace || ['23505', '40001', '40P01'].includes(String((e as { code?: unknown }).code))

/** Inserts a row of a paysplit table; where its key exists, replaces that row only if `where` holds, else the race is lost. */
const put = async (sql: Sql, table: string, row: unknown, where = 'false', param?: unknown) => {
  const insert = `INSERT INTO paysplit.${table} (data) VALUES ($1) ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data WHERE ${where} RETURNING 1`
  const written = await sql(insert, [JSON.stringify(row), ...(param === undefined ? [] : [param])])
  if (written.length !== 1) throw new LostRace()
}

/** The rows `keys` name, locked (paysplit.load in the schema), as a world. */
const load = async (sql: Sql, keys: paysplit.RowKeys) => {
  const [loaded] = await sql<{ rows: paysplit.WorldRows }>('SELECT paysplit.load($1) AS rows', [JSON.stringify(keys)])
  const world = paysplit.worldOf(loaded?.rows ?? {})
  if (E.isLeft(world)) throw new Error(`A stored row cannot be read: ${world.left.message}`)
  return world.right
}

/** The loop: the rows the keys name, the operation on them, its changes, parked transfers and deliveries written. */
type Step<O> = () => [paysplit.RowKeys, (world: paysplit.World) => O]
const operate = async <O extends paysplit.Outcome>(db: Db, step: Step<O>, park: (o: O) => unknown[] = () => []) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db(async (sql) => {
        const [keys, run] = step() // a fresh context (clock, id, KID) for each attempt
        const world = await load(sql, keys)
        const o = run(world)
        for (const p of o.changes.payments) {
          await put(sql, 'payments', p.state, 'payments.version = $2::integer', p.fromVersion)
          for (const e of p.events) await put(sql, 'events', e)
        }
        // a customer or a key is replaced only as read (and locked): one that appeared since lost us the race
        for (const c of o.changes.customers) await put(sql, 'customers', c, '$2::boolean', world.customers.has(c.customerExternalID))
        for (const k of o.changes.idempotencyKeys) {
          await put(sql, 'idempotency_keys', k, '$2::boolean', world.idempotencyKeys?.has(paysplit.idempotencyEntryKey(k.scope, k.key)))
        }
        for (const r of o.changes.references) await put(sql, 'payment_references', r)
        for (const t of o.changes.ocrTransmissions) await put(sql, 'ocr_transmissions', t)
        for (const u of park(o)) await sql('INSERT INTO paysplit.unmatched_transfers (data) VALUES ($1)', [JSON.stringify(u)])
        for (const d of o.deliveries) await sql('INSERT INTO paysplit.outbox (url, id, body) VALUES ($1, $2, $3)', [d.url, d.id, d.body])
        return o
      })
    } catch (e) {
      if (attempt === 5 || !raced(e)) throw e
    }
  }
}

/** Claims the outbox rows due (leased a minute; a payment's to one url in order), signs each as stored, sends it; how many. */
const relay = async (db: Db, webhook: Webhook) => {
  const due = await db((sql) => sql<paysplit.StoredDelivery & { seq: string; attempts: number }>(`
    UPDATE paysplit.outbox o SET attempts = attempts + 1, next_attempt_at = now() + interval '1 minute'
     WHERE seq IN (SELECT seq FROM paysplit.outbox WHERE done_at IS NULL AND next_attempt_at <= now() ORDER BY seq LIMIT 100 FOR UPDATE SKIP LOCKED)
       AND NOT EXISTS (SELECT FROM paysplit.outbox e WHERE e.done_at IS NULL AND e.payment = o.payment AND e.url = o.url AND e.seq < o.seq)
    RETURNING seq, url, id, body, attempts`))
  await Promise.all(due.map(async (row) => {
    const m = paysplit.webhookMessage(row, { timestamp: Math.floor(Date.now() / 1000) })
    const headers = { ...m.headers, 'webhook-signature': webhook.sign(m.id, new Date(m.timestamp * 1000), m.body) }
    const sent = fetch(m.url, { method: 'POST', headers, body: m.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) })
    const status = await sent.then(async (r) => (await r.body?.cancel(), r.status), () => 0)
    // done: delivered, refused for good (a 4xx but 408 and 429), or the 12th attempt; else again in 2^attempts s
    const done = (status >= 200 && status < 500 && status !== 408 && status !== 429) || row.attempts >= 12
    const update = 'UPDATE paysplit.outbox SET last_status = $2, done_at = CASE WHEN $3 THEN now() END, next_attempt_at = now() + make_interval(secs => 2 ^ attempts)'
    await db((sql) => sql(`${update} WHERE seq = $1`, [row.seq, status, done]))
  }))
  const expired = new Date(Date.now() - paysplit.IDEMPOTENCY_KEY_TTL_MS).toISOString()
  await db((sql) => sql('DELETE FROM paysplit.idempotency_keys WHERE at < $1', [expired]))
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
  const keyed = (c: Context, key = '') => same(c.req.header('authorization') ?? '', `Bearer ${key}`)
  const denied = () => reply(401, { success: false, error: { code: 'Unauthorized', message: 'This route needs a key: Authorization: Bearer <key>.' } })
  const hmac = (text: string) => createHmac('sha256', formSecret).update(text).digest('base64url')
  const token = (id: string, action: string, expires: number) => `${String(expires)}.${hmac(`${id} ${action} ${String(expires)}`)}`

  const app = new Hono().use(bodyLimit({ maxSize: 8 << 20 })) // an OCR file of some 100,000 records
  app.use('/pay/*', secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } }))
  app.get('/pay/:id', async (c) => {
    const id = c.req.param('id').toLowerCase()
    const p = (await db((sql) => load(sql, paysplit.formKeys(id)))).payments.get(id)
    if (p === undefined) return c.notFound()
    const expires = Math.floor(Date.now() / 1000) + 900
    const button = (action: string, label: string) =>
      `<form method="post" action="/pay/${id}/${action}"><input type="hidden" name="token" value="${token(id, action, expires)}"><button>${label}</button></form>`
    const open = p.kind === 'card' && p.status === 'Initiated'
    c.header('cache-control', 'no-store')
    return c.html(`<!doctype html><title>Payment</title><p>${(p.grossAmount / 100).toFixed(2)} ${p.currency}: ${p.status}</p>
      ${open && p.environment === 'test' ? button('complete', 'Pay (a test: no card is charged)') : ''}${open ? button('fail', 'Cancel') : ''}`)
  })
  app.post('/pay/:id/:action{complete|fail}', async (c) => {
    const [id, action, form] = [c.req.param('id').toLowerCase(), c.req.param('action'), await c.req.parseBody()]
    const [given, reason] = [form['token'], form['reason']].map((f) => (typeof f === 'string' ? f.slice(0, 200) : ''))
    const [site, origin, expires] = [c.req.header('sec-fetch-site'), c.req.header('origin'), Number(given?.split('.')[0])]
    // a browser's post from another site: Sec-Fetch-Site says so, or (older browsers) an Origin of another host
    const crossSite = site !== undefined ? site !== 'same-origin' : origin !== undefined && origin.replace(/^https?:\/\//, '') !== c.req.header('host')
    if (crossSite || !(expires * 1000 > Date.now()) || !same(given ?? '', token(id, action, expires))) return c.text('Not accepted: open the page again.', 403)
    const ctx = { ...now(), ...(reason === '' ? {} : { reason }) }
    const run = (w: paysplit.World) => (action === 'complete' ? paysplit.completeForm(w, id, ctx) : paysplit.failForm(w, id, ctx))
    const { redirectUrl } = await operate(db, () => [paysplit.formKeys(id), run])
    return redirectUrl === undefined ? c.notFound() : c.redirect(redirectUrl, 303)
  })
  app.post('/bank/transfers', async (c) => {
    if (!keyed(c, bankKey)) return denied()
    const transfer = parse(await c.req.text()) as paysplit.Transfer // { kid, amount }: paysplit reads and judges it
    const unmatched = (r: E.Either<{ code: string }, unknown>) => E.isLeft(r) && r.left.code === 'UnmatchedTransfer'
    const step: Step<paysplit.Operated> = () => [paysplit.transferKeys(transfer), (w) => paysplit.receiveTransferByKid(w, transfer, now())]
    const { result } = await operate(db, step, (o) => (unmatched(o.result) ? [transfer] : [])) // parked, for a person to match
    if (E.isLeft(result)) return reply(unmatched(result) ? 202 : paysplit.httpStatusOf(result.left), { success: unmatched(result), error: result.left })
    return reply(200, { success: true, paymentReferenceID: result.right.paymentReferenceID, status: result.right.status })
  })
  app.post('/bank/ocr', async (c) => {
    if (!keyed(c, bankKey)) return denied()
    const file = paysplit.parseOcrGiro(await c.req.text())
    if (E.isLeft(file)) return reply(400, { success: false, error: file.left })
    const step: Step<paysplit.OcrReceived> = () => [paysplit.ocrKeys(file.right), (w) => paysplit.receiveOcrGiro(w, file.right, now())]
    const { report } = await operate(db, step, (o) => o.report.filter((r) => r.outcome === 'unmatched'))
    return reply(200, { success: true, report })
  })
  app.all('*', async (c) => { // every other request is the API's: `handle` answers it, a 404 and a 405 too
    const scope = apiKeys.find(([, key]) => keyed(c, key))?.[0] // the caller: its key's id
    if (scope === undefined) return denied()
    const [url, key] = [new URL(c.req.url), c.req.header('idempotency-key')]
    const headers = key === undefined ? {} : { headers: { 'idempotency-key': key } }
    const request = { method: c.req.method, path: url.pathname + url.search, body: parse(await c.req.text()), ...headers }
    const { response } = await operate(db, () => {
      const newKid = E.getOrElseW(() => undefined)(kid.create(String(randomInt(1e9, 1e10)), 'mod10')) // used by a new invoice only
      const ctx = { ...now(), paymentReferenceID: randomUUID(), kid: newKid, idempotencyScope: scope }
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
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, db, close }
}

if (process.argv[1] === import.meta.filename) { // `node --import tsx service.ts`, with the settings of docs/http.md
  const service = await start(process.env)
  console.log(`paysplit service at ${service.url}`)
  process.once('SIGTERM', () => void service.close())
}
