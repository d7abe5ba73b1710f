// A whole payments service on paysplit/http, to copy: docs/http.md, "Embedding guide", walks through it.
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

const openDb = async (url?: string): Promise<[Sql, () => Promise<void>]> => { // pg for a postgres:// url, else PGlite in that folder (none: in memory)
  const schema = readFileSync(new URL(import.meta.resolve('paysplit/schema.sql')), 'utf8')
  const db = url?.startsWith('postgres') === true ? new pg.Pool({ connectionString: url }) : await PGlite.create(url)
  await (db instanceof PGlite ? db.exec(schema) : db.query(schema))
  const query = db.query.bind(db) as (text: string, params?: unknown[]) => Promise<{ rows: never[] }>
  return [async (text, params) => (await query(text, params)).rows, async () => { await (db instanceof PGlite ? db.close() : db.end()) }]
}

/** The rows `keys` name: as loaded (`paysplit.store` checks them) and as a world; a row paysplit cannot read throws (a 500). */
const load = async (sql: Sql, keys: paysplit.RowKeys): Promise<[string, paysplit.World]> => {
  const [{ rows } = { rows: '{}' }] = await sql<{ rows: string }>('SELECT paysplit.load($1)::text AS rows', [JSON.stringify(keys)])
  return [rows, E.getOrElseW((e: PaymentError) => { throw new Error(e.message) })(paysplit.worldOf(JSON.parse(rows) as paysplit.WorldRows))]
}

/** The loop: the rows the keys name, the operation on them, its changes stored where the rows are still as read, else again. */
const operate = async <O extends paysplit.Outcome>(sql: Sql, step: () => readonly [paysplit.RowKeys, (w: paysplit.World) => O], park: (o: O) => unknown[] = () => []) => {
  for (let attempt = 1; ; attempt++) {
    try {
      const [keys, run] = step() // a fresh context (clock, id, KID) each attempt
      const [rows, world] = await load(sql, keys)
      const o = run(world)
      return await sql('SELECT paysplit.store($1, $2, $3, $4)', [JSON.stringify(o.changes), rows, JSON.stringify(o.deliveries), JSON.stringify(park(o))]).then(() => o)
    } catch (e) { // another request won: a row changed since read (40001), a key taken (23505), a deadlock (40P01)
      if (attempt === 10 || !['40001', '23505', '40P01'].includes(String((e as { code?: unknown }).code))) throw e
    }
  }
}

/** Sends the outbox rows due (paysplit.outbox_claim), each signed as stored; how many. */
const relay = async (sql: Sql, webhook: Webhook) => {
  const due = await sql<paysplit.StoredDelivery & { seq: string }>('SELECT * FROM paysplit.outbox_claim()')
  await Promise.all(due.map(async (row) => {
    const m = paysplit.webhookMessage(row, { timestamp: Math.floor(Date.now() / 1000) })
    const headers = { ...m.headers, 'webhook-signature': webhook.sign(m.id, new Date(m.timestamp * 1000), m.body) }
    const sent = fetch(m.url, { method: 'POST', headers, body: m.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) })
    await sql('SELECT paysplit.outbox_sent($1, $2)', [row.seq, await sent.then(async (r) => (await r.body?.cancel(), r.status), () => 0)])
  }))
  return due.length
}

const reply = (status: number, body: unknown, headers?: Record<string, string>) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
/** A body as paysplit takes it: parsed (a `"__proto__"` key stays a key, for paysplit to judge); not JSON: the text. */
const parse = (text: string): unknown => { try { return text === '' ? undefined : JSON.parse(text) } catch { return text } }
const same = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest())

/** Starts the service as `env` says (docs/http.md, "Embedding guide"); resolves once it listens, with its url and database. */
export const start = async (env: Readonly<Record<string, string | undefined>>) => {
  const setting = (name: string) => env[name] ?? (() => { throw new Error(`${name} is not set`) })()
  const apiKeys = setting('API_KEYS').split(',').map((entry) => entry.split(':')) // id:key,…; the id scopes its Idempotency-Keys
  const [bankKey, formSecret, webhook] = [setting('BANK_KEY'), setting('FORM_SECRET'), new Webhook(setting('WEBHOOK_SECRET'))]
  const [sql, closeDb] = await openDb(env['DATABASE'])
  const now = () => ({ at: new Date().toISOString(), catchAllUrl: env['CATCH_ALL_URL'] })
  const callerOf = (keys: string[][], authorization = '') => keys.find(([, key]) => same(authorization, `Bearer ${key}`))?.[0]
  const denied = () => reply(401, { success: false, error: { code: 'Unauthorized', message: 'This route needs a key: Authorization: Bearer <key>.' } })
  const token = (id: string, action: string, expires: number) => `${String(expires)}.${createHmac('sha256', formSecret).update(`${id} ${action} ${String(expires)}`).digest('base64url')}`

  const app = new Hono().use(bodyLimit({ maxSize: 8 << 20 })) // an OCR file of some 100,000 records
  app.use('/bank/*', async (c, next) => (callerOf([['bank', bankKey]], c.req.header('authorization')) === undefined ? denied() : next()))
  app.use('/pay/*', csrf(), secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } }))
  app.get('/pay/:id', async (c) => { // the amount, a button per action with its token (15 minutes); Pay for test payments only: no card gateway here
    const [id, expires] = [c.req.param('id').toLowerCase(), Math.floor(Date.now() / 1000) + 900]
    const p = (await load(sql, paysplit.formKeys(id)))[1].payments.get(id)
    if (p === undefined) return c.notFound()
    const actions = p.kind === 'card' && p.status === 'Initiated' ? (p.environment === 'test' ? ['complete', 'fail'] : ['fail']) : []
    const buttons = actions.map((a) => `<form method="post" action="/pay/${id}/${a}"><input type="hidden" name="token" value="${token(id, a, expires)}">
      <button>${a === 'complete' ? 'Pay (a test: no card is charged)' : 'Cancel'}</button></form>`)
    return c.html(`<!doctype html><title>Payment</title><p>${(p.grossAmount / 100).toFixed(2)} ${p.currency}: ${p.status}</p>${buttons.join('')}`, 200, { 'cache-control': 'no-store' })
  })
  app.post('/pay/:id/:action{complete|fail}', async (c) => { // a payment id alone never moves money: the page's token, posted from this site (csrf)
    const [id, action, form] = [c.req.param('id').toLowerCase(), c.req.param('action'), await c.req.parseBody()]
    const [given = '', reason] = [form['token'], form['reason']].map((f) => (typeof f === 'string' ? f.slice(0, 200) : undefined))
    const expires = Number(given.split('.')[0])
    if (!(expires * 1000 > Date.now()) || !same(given, token(id, action, expires))) return c.text('Not accepted: open the page again.', 403)
    const { redirectUrl } = await operate(sql, () => [paysplit.formKeys(id), (w) => (action === 'complete' ? paysplit.completeForm(w, id, now()) : paysplit.failForm(w, id, { ...now(), reason }))])
    return redirectUrl === undefined ? c.notFound() : c.redirect(redirectUrl, 303)
  })
  app.post('/bank/transfers', async (c) => { // { kid, amount }: 200, 202 when no open invoice holds the KID (parked), else the error's status
    const transfer = parse(await c.req.text()) as paysplit.Transfer // paysplit reads and judges it
    const unmatched = (r: E.Either<PaymentError, unknown>) => E.isLeft(r) && r.left.code === 'UnmatchedTransfer'
    const step = () => [paysplit.transferKeys(transfer), (w: paysplit.World) => paysplit.receiveTransferByKid(w, transfer, now())] as const
    const { result } = await operate(sql, step, (o) => (unmatched(o.result) ? [transfer] : []))
    if (E.isLeft(result)) return reply(unmatched(result) ? 202 : paysplit.httpStatusOf(result.left), { success: unmatched(result), error: result.left })
    return reply(200, { success: true, paymentReferenceID: result.right.paymentReferenceID, status: result.right.status })
  })
  /** A bank file's route: 400 when `read` refuses the text (nothing applied), else the file applied once, its unmatched transfers parked, and its report. */
  const bankFile = <F>(read: (text: string) => E.Either<PaymentError, F>, keysOf: (file: F) => paysplit.RowKeys,
    receive: (w: paysplit.World, file: F, ctx: paysplit.EventContext) => paysplit.OcrReceived) => async (c: Context) => {
    const file = read(await c.req.text())
    if (E.isLeft(file)) return reply(400, { success: false, error: file.left })
    const { report } = await operate(sql, () => [keysOf(file.right), (w) => receive(w, file.right, now())], (o) => o.report.filter((r) => r.outcome === 'unmatched'))
    return reply(200, { success: true, report })
  }
  app.post('/bank/ocr', bankFile(paysplit.parseOcrGiro, paysplit.ocrKeys, paysplit.receiveOcrGiro))
  app.post('/bank/camt054', bankFile(parseCamt054, paysplit.camt054Keys, paysplit.receiveCamt054))
  app.all('*', async (c) => { // every other request is the API's: `handle` answers it, a 404 and a 405 too
    const scope = callerOf(apiKeys, c.req.header('authorization')) // the caller: its key's id
    if (scope === undefined) return denied()
    const request = { method: c.req.method, path: c.req.url.slice(new URL(c.req.url).origin.length), body: parse(await c.req.text()), headers: c.req.header() }
    const { response } = await operate(sql, () => {
      const newKid = E.getOrElseW(() => undefined)(kid.create(String(randomInt(1e9, 1e10)), 'mod10')) // used by a new invoice only
      const ctx = { ...now(), paymentReferenceID: randomUUID(), kid: newKid, idempotencyScope: scope }
      return [paysplit.requestKeys(request, ctx), (w) => paysplit.handle(w, request, ctx)] as const
    })
    return reply(response.status, response.body, response.headers)
  })

  const server = serve({ fetch: app.fetch, port: Number(env['PORT'] ?? 8080), hostname: env['HOST'] ?? '127.0.0.1' })
  await new Promise((listening) => server.once('listening', listening))
  let sending: Promise<void> | undefined // one relay at a time, until nothing is due; then expired rows forgotten
  const drain = async () => { while ((await relay(sql, webhook)) > 0); await sql('SELECT paysplit.forget()') }
  const timer = setInterval(() => { sending ??= drain().catch(console.error).finally(() => (sending = undefined)) }, Number(env['RELAY_EVERY_MS'] ?? 500))
  const close = async () => { clearInterval(timer); await new Promise((closed) => server.close(closed)); await sending; await closeDb() }
  return { url: `http://127.0.0.1:${String((server.address() as { port: number }).port)}`, sql, close }
}

if (process.argv[1] === import.meta.filename) { // `node --import tsx service.ts`, with the settings of docs/http.md
  const service = await start(process.env)
  console.log(`paysplit service at ${service.url}`)
  process.once('SIGTERM', () => void service.close())
}
