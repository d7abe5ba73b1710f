/**
 * The mock's server (`paysplit-check mock`): the whole payments API on node:http, in memory, from
 * paysplit's own operations (./world.ts) — the API routes answered by `handle`, `Idempotency-Key`
 * included; the hosted form (`GET /pay/{id}`, `POST /pay/{id}/complete` and `/fail`, 303 to the
 * payment's `successUrl` or `failedUrl`); the bank (`POST /bank/transfers` `{ kid, amount }` and
 * `POST /bank/ocr` with an OCR giro file); signed webhooks (./outbox.ts); and its own routes under
 * `/_mock/`: the test clock (`GET` and `POST /_mock/clock`), `POST /_mock/reset`, and
 * `GET /_mock/webhooks`. It answers browsers of any origin (CORS), for a front-end on its own port.
 *
 * @module cli/mock/server
 */
import { createHash, randomInt, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { webhookClass } from '../standardWebhooks.js'
import { formPage, notFoundPage, page } from './form.js'
import { outbox, type LoggedDelivery } from './outbox.js'
import { apiRequest, bankTransfer, errorAnswer, formAction, isDuplicateKid, kidOf, notJson, ocrFile, paymentOf, startWorld, type World } from './world.js'

/** A development secret: the mock's webhooks are signed with it unless told another. */
export const MOCK_WEBHOOK_SECRET = `whsec_${Buffer.from('paysplit-mock-webhook-secret-dev').toString('base64')}`

/** How the mock runs. Every field has a default. */
export interface MockOptions {
  /** Port to listen on (default 0: any free one). */
  readonly port?: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string
  /** The Standard Webhooks secret its webhooks are signed with (default {@link MOCK_WEBHOOK_SECRET}). */
  readonly webhookSecret?: string
  /** A catch-all webhook url: every webhook goes there too. */
  readonly catchAllUrl?: string
  /** Hosts (names or addresses) webhooks may go to besides loopback. */
  readonly webhookAllow?: ReadonlyArray<string>
  /** The waits before a webhook's later attempts, in ms (default 200, 1 000, 5 000). */
  readonly webhookRetryDelaysMs?: ReadonlyArray<number>
  /** The wall clock in ms (default `Date.now`); the test clock adds its offset to it. */
  readonly now?: () => number
  /** A line per request and per webhook (the command prints them). */
  readonly log?: (line: string) => void
}

/** A mock that listens. */
export interface RunningMock {
  /** `http://<host>:<port>`. */
  readonly url: string
  /** Resolves once every webhook queued so far is delivered or given up. */
  readonly idle: () => Promise<void>
  /** The webhook log, oldest first. */
  readonly webhooks: () => ReadonlyArray<LoggedDelivery>
  readonly close: () => Promise<void>
}

const MAX_BODY = 1024 * 1024
const MAX_OCR = 8 * 1024 * 1024

type Read = { readonly kind: 'ok'; readonly text: string } | { readonly kind: 'tooLarge' }

const readBody = (req: IncomingMessage, max: number): Promise<Read> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > max) over = true
      else chunks.push(c)
    })
    req.on('end', () => {
      resolve(over ? { kind: 'tooLarge' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') })
    })
    req.on('error', reject)
  })

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, idempotency-key',
  'access-control-expose-headers': 'allow, location'
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void => {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers })
  res.end(body === undefined ? '' : JSON.stringify(body))
}

const html = (res: ServerResponse, status: number, text: string): void => {
  res.writeHead(status, { ...CORS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(text)
}

const tooLarge = { success: false, error: { code: 'PayloadTooLarge', message: 'The request body is too large.' } }

/** A JSON body: undefined when empty; `notJson` when it does not parse. */
const parseJson = (text: string): { readonly ok: true; readonly body: unknown } | { readonly ok: false } => {
  if (text.trim() === '') return { ok: true, body: undefined }
  try {
    return { ok: true, body: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** A form post's `reason`: from a form-encoded body or a JSON one. */
const reasonOf = (req: IncomingMessage, text: string): string | undefined => {
  if ((req.headers['content-type'] ?? '').startsWith('application/json')) {
    const parsed = parseJson(text)
    const reason = parsed.ok && typeof parsed.body === 'object' && parsed.body !== null ? (parsed.body as { reason?: unknown }).reason : undefined
    return typeof reason === 'string' ? reason : undefined
  }
  return new URLSearchParams(text).get('reason') ?? undefined
}

/** The field of a JSON object (own only), or undefined. */
const fieldOf = (v: unknown, key: string): unknown => (typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(v, key) ? (v as Record<string, unknown>)[key] : undefined)

/** Starts the mock and resolves once it listens. */
export const startMock = async (options: MockOptions = {}): Promise<RunningMock> => {
  const wall = options.now ?? Date.now
  let world: World = startWorld
  let offsetMs = 0
  let last = 0
  const Webhook = await webhookClass()
  const webhooks = outbox({
    secret: options.webhookSecret ?? MOCK_WEBHOOK_SECRET,
    Webhook,
    allow: (options.webhookAllow ?? []).map((h) => h.toLowerCase()),
    now: wall,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [200, 1000, 5000],
    ...(options.log !== undefined ? { log: options.log } : {})
  })
  const catchAll = options.catchAllUrl === undefined ? {} : { catchAllUrl: options.catchAllUrl }
  /** The mock's time: the wall clock moved by the test clock, never backwards, as ISO 8601. */
  const at = (): string => {
    last = Math.max(last + 1, wall() + offsetMs)
    return new Date(last).toISOString()
  }
  const clock = (): { now: string; offsetMs: number } => ({ now: new Date(Math.max(last, wall() + offsetMs)).toISOString(), offsetMs })

  const api = (req: IncomingMessage, res: ServerResponse, path: string, text: string): number => {
    const parsed = parseJson(text)
    if (!parsed.ok) {
      const answer = notJson()
      json(res, answer.status, answer.body)
      return answer.status
    }
    const key = req.headers['idempotency-key']
    const authorization = req.headers.authorization
    const request = {
      method: req.method ?? 'GET',
      path,
      ...(parsed.body === undefined ? {} : { body: parsed.body }),
      ...(typeof key === 'string' ? { headers: { 'idempotency-key': key } } : {})
    }
    const time = at()
    const scope = typeof authorization === 'string' ? { idempotencyScope: createHash('sha256').update(authorization).digest('hex').slice(0, 16) } : {}
    // a new invoice whose KID an open invoice holds is refused: the mock picks another, from the same world
    let outcome = apiRequest(world, request, { at: time, paymentReferenceID: randomUUID(), kid: kidOf(String(randomInt(1e9, 1e10))), ...catchAll, ...scope })
    for (let i = 0; i < 5 && isDuplicateKid(outcome.result); i++) {
      outcome = apiRequest(world, request, { at: time, paymentReferenceID: randomUUID(), kid: kidOf(String(randomInt(1e9, 1e10))), ...catchAll, ...scope })
    }
    world = outcome.world
    webhooks.send(outcome.deliveries)
    json(res, outcome.result.status, outcome.result.body, outcome.result.headers ?? {})
    return outcome.result.status
  }

  const form = (req: IncomingMessage, res: ServerResponse, id: string, action: 'complete' | 'fail', text: string): number => {
    const reason = action === 'fail' ? reasonOf(req, text) : undefined
    const outcome = formAction(world, id, action, { at: at(), ...catchAll, ...(reason !== undefined ? { reason } : {}) })
    world = outcome.world
    webhooks.send(outcome.deliveries)
    const to = outcome.result.redirectUrl
    if (to === undefined) {
      html(res, 404, notFoundPage())
      return 404
    }
    res.writeHead(303, { ...CORS, location: to, 'cache-control': 'no-store' }).end()
    return 303
  }

  const bank = (res: ServerResponse, text: string): number => {
    const parsed = parseJson(text)
    if (!parsed.ok) {
      const answer = notJson()
      json(res, answer.status, answer.body)
      return answer.status
    }
    const outcome = bankTransfer(world, { kid: fieldOf(parsed.body, 'kid'), amount: fieldOf(parsed.body, 'amount') }, { at: at(), ...catchAll })
    world = outcome.world
    webhooks.send(outcome.deliveries)
    const { payment, error } = outcome.result
    if (payment !== undefined) {
      json(res, 200, { success: true, matched: true, paymentReferenceID: payment.paymentReferenceID, status: payment.status, paidAmount: payment.paidAmount })
      return 200
    }
    if (error?.code === 'UnmatchedTransfer') {
      json(res, 202, { success: true, matched: false, unmatchedTransferID: randomUUID(), error: { code: error.code, message: error.message } })
      return 202
    }
    const answer = error === undefined ? { status: 500, body: undefined } : errorAnswer(error)
    json(res, answer.status, answer.body)
    return answer.status
  }

  const ocr = (res: ServerResponse, text: string): number => {
    const outcome = ocrFile(world, text, { at: at(), ...catchAll })
    world = outcome.world
    webhooks.send(outcome.deliveries)
    const r = outcome.result
    if (!r.ok) {
      const answer = errorAnswer(r.error)
      json(res, answer.status, answer.body)
      return answer.status
    }
    const report = r.report.map((row) => (row.outcome === 'unmatched' ? { ...row, unmatchedTransferID: randomUUID() } : row))
    json(res, 200, { transmissionNumber: r.transmissionNumber, dataSender: r.dataSender, duplicate: r.duplicate, report })
    return 200
  }

  const mockRoutes = (req: IncomingMessage, res: ServerResponse, path: string, text: string): number => {
    if (path === '/_mock/clock' && req.method === 'GET') {
      json(res, 200, clock())
      return 200
    }
    if (path === '/_mock/clock' && req.method === 'POST') {
      const parsed = parseJson(text)
      const seconds = parsed.ok ? fieldOf(parsed.body, 'advanceSeconds') : undefined
      const to = parsed.ok ? fieldOf(parsed.body, 'to') : undefined
      const target = typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.max(last, wall() + offsetMs) + seconds * 1000 : typeof to === 'string' ? Date.parse(to) : NaN
      if (!Number.isFinite(target) || target < Math.max(last, wall() + offsetMs)) {
        json(res, 400, { success: false, error: { code: 'ValidationFailed', message: 'Give { "advanceSeconds": <n ≥ 0> } or { "to": "<an ISO 8601 time not before the mock\'s now>" }: the clock moves forward only.' } })
        return 400
      }
      offsetMs = target - wall()
      json(res, 200, clock())
      return 200
    }
    if (path === '/_mock/reset' && req.method === 'POST') {
      world = startWorld
      offsetMs = 0
      last = 0
      webhooks.reset()
      json(res, 200, { reset: true, ...clock() })
      return 200
    }
    if (path === '/_mock/webhooks' && req.method === 'GET') {
      json(res, 200, { webhooks: webhooks.entries() })
      return 200
    }
    json(res, 404, { success: false, error: { code: 'NotFound', message: 'The mock has GET and POST /_mock/clock, POST /_mock/reset and GET /_mock/webhooks.' } })
    return 404
  }

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const url = req.url ?? '/'
    const path = url.split('?')[0] ?? '/'
    const method = req.method ?? 'GET'
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-max-age': '600' }).end()
      return 204
    }
    const read = await readBody(req, path === '/bank/ocr' ? MAX_OCR : MAX_BODY)
    if (read.kind === 'tooLarge') {
      json(res, 413, tooLarge)
      return 413
    }
    if (path === '/' && method === 'GET') {
      json(res, 200, { name: 'paysplit mock', api: 'docs/http.md', form: '/pay/{id}', bank: ['/bank/transfers', '/bank/ocr'], mock: ['/_mock/clock', '/_mock/reset', '/_mock/webhooks'] })
      return 200
    }
    if (path.startsWith('/_mock/')) return mockRoutes(req, res, path, read.text)
    const pay = /^\/pay\/([^/]+)(?:\/(complete|fail))?$/.exec(path)
    if (pay !== null) {
      let id: string
      try {
        id = decodeURIComponent(pay[1] ?? '')
      } catch {
        html(res, 404, notFoundPage())
        return 404
      }
      const action = pay[2] as 'complete' | 'fail' | undefined
      if (action === undefined && method === 'GET') {
        const p = paymentOf(world, id)
        html(res, p === undefined ? 404 : 200, p === undefined ? notFoundPage() : formPage(p))
        return p === undefined ? 404 : 200
      }
      if (action !== undefined && method === 'POST') return form(req, res, id, action, read.text)
      html(res, 405, page('Method not allowed', '<h1>Method not allowed</h1>'))
      return 405
    }
    if (path === '/bank/transfers' && method === 'POST') return bank(res, read.text)
    if (path === '/bank/ocr' && method === 'POST') return ocr(res, read.text)
    return api(req, res, url, read.text)
  }

  const server = createServer((req, res) => {
    route(req, res).then(
      (status) => options.log?.(`${req.method ?? 'GET'} ${req.url ?? '/'} → ${String(status)}`),
      (e: unknown) => {
        options.log?.(`${req.method ?? 'GET'} ${req.url ?? '/'} failed: ${e instanceof Error ? e.message : String(e)}`)
        if (!res.headersSent) json(res, 500, { success: false, error: { code: 'InternalError', message: 'The mock failed.' } })
        else res.destroy()
      }
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${String(address.port)}`
  return {
    url,
    idle: webhooks.idle,
    webhooks: webhooks.entries,
    close: async () => {
      webhooks.reset()
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve()
        })
        server.closeAllConnections()
      })
    }
  }
}
