/**
 * The tests' payments server: paysplit's pure `handle` on real sockets (node:http), with an
 * in-memory storage (./storage.ts) behind optimistic concurrency and a webhook sender. The
 * conformance tests swap its handler (or its storage) for planted bugs and check that the kit
 * catches them. The reference service users run is docs/examples/service/ (docs/service.md).
 *
 * Bounded on both sides: a request body is kept up to `maxBodyBytes` (the rest is dropped, the
 * connection cut past 16×), and a webhook receiver's answer body is never read (cancelled as the
 * status arrives), so a receiver streaming an endless 200 body costs nothing.
 */
import { randomInt, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { Webhook } from 'standardwebhooks'
import { readBody } from '../../docs/examples/service/http.js'
import { invalid, kid, type Payment, type PaymentError } from '../../src/index.js'
import {
  completeForm,
  errorResponse,
  failForm,
  handle,
  matchRoute,
  mismatchResponse,
  receiveTransfer,
  routeTakesBody,
  webhookMessage,
  type HandleContext,
  type HttpRequest,
  type HttpResponse,
  type Route,
  type WebhookDelivery,
  type World
} from '../../src/http.js'
import {
  changesBetween,
  InMemoryStorage,
  isEmpty,
  type DeliveryRecord,
  type SliceKeys,
  type Storage
} from './storage.js'

// -------------------------------------------------------------------------------------
// options
// -------------------------------------------------------------------------------------

/** How webhooks are sent. */
export interface WebhookSenderOptions {
  /** Attempts per delivery, the first included. Default 5. */
  readonly maxAttempts?: number
  /** Delay before the 2nd attempt; doubled for each further one. Default 200 ms. */
  readonly baseDelayMs?: number
  /** Time limit of one attempt. Default 5000 ms. */
  readonly timeoutMs?: number
  /**
   * The Standard Webhooks signing secret (`whsec_…`): every message is then signed
   * (`webhook-signature`) with the `standardwebhooks` package, and receivers verify it with theirs.
   * Without one, messages go out unsigned.
   */
  readonly secret?: string
}

/**
 * What a handler gives back: `handle`'s world, response and deliveries (the rest of its record,
 * such as the applied events, is not used here).
 */
export interface Served {
  readonly world: World
  readonly response: HttpResponse
  readonly deliveries: ReadonlyArray<WebhookDelivery>
}

/** Options of {@link createPaymentsServer}; every one has a default. */
export interface ServerOptions {
  readonly storage?: Storage
  /** The catch-all webhook url (the seed's "configured in the Platform Dashboard"). */
  readonly catchAllUrl?: string
  /** Largest request body accepted, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** Runs of a request that loses an optimistic-concurrency race before it gets 409. Default 8. */
  readonly maxCommitAttempts?: number
  /** Delay before a request runs again after a conflict (doubled each time, with jitter). Default 2 ms. */
  readonly conflictBackoffMs?: number
  readonly webhooks?: WebhookSenderOptions
  /** The clock. Default: the wall clock, as an ISO 8601 UTC timestamp with milliseconds. */
  readonly clock?: () => string
  /** New payment ids. Default: random UUIDs. */
  readonly newPaymentId?: () => string
  /** New invoice KIDs. Default: 10 random digits and a MOD10 check digit. */
  readonly newKid?: () => string
  /**
   * The service model to run. Default: paysplit's `handle`. Tests swap in broken variants to
   * prove that a conformance check catches them.
   */
  readonly handler?: (world: World, request: HttpRequest, ctx: HandleContext) => Served
  /** Where the server reports what it does (webhook outcomes, storage errors). Default: nowhere. */
  readonly log?: (line: string) => void
}

/** A running payments server, and the operations the payment form and the bank would cause. */
export interface PaymentsServer {
  readonly server: Server
  /** Starts listening (default 127.0.0.1 on an ephemeral port) and returns the base url. */
  listen(port?: number, host?: string): Promise<string>
  /** Waits for pending webhooks, then stops the server and closes every connection. */
  close(): Promise<void>
  /** Resolves once every webhook queued so far has been delivered or has failed for good. */
  idle(): Promise<void>
  /** The customer completed the payment form. Rejects only when it lost every concurrency race. */
  completeForm(paymentReferenceID: string): Promise<E.Either<PaymentError, Payment>>
  /** A payment-form attempt failed. */
  failForm(paymentReferenceID: string, reason?: string): Promise<E.Either<PaymentError, Payment>>
  /** The bank reports a KID transfer. */
  receiveTransfer(paymentReferenceID: string, amount: number, kid: string): Promise<E.Either<PaymentError, Payment>>
  /** The stored payment, if any. */
  payment(paymentReferenceID: string): Promise<Payment | undefined>
  /** Every webhook delivery and its outcome. */
  deliveries(): Promise<ReadonlyArray<DeliveryRecord>>
}

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const defaultKid = (): string => {
  let base = String(randomInt(1, 10))
  for (let i = 0; i < 9; i++) base += String(randomInt(0, 10))
  const made = kid.create(base, 'mod10')
  return E.isRight(made) ? made.right : base
}

const send = (res: ServerResponse, response: HttpResponse, headers: Record<string, string> = {}): void => {
  const json = JSON.stringify(response.body)
  res.writeHead(response.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(json)),
    ...(response.headers ?? {}),
    ...headers
  })
  res.end(json)
}

const field = (body: unknown, key: string): string | undefined => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined
  const v: unknown = Object.prototype.hasOwnProperty.call(body, key) ? (body as Record<string, unknown>)[key] : undefined
  return typeof v === 'string' ? v : undefined
}

const none: ReadonlyArray<string> = []

/** The slice of the world a request can touch. */
const keysOf = (route: Route, body: unknown, newId: string, kid: string | undefined): SliceKeys => {
  switch (route.name) {
    case 'createPayment': {
      const ext = field(body, 'externalPaymentReferenceID')
      const customer = field(body, 'customerExternalID')
      return {
        paymentReferenceIDs: [newId],
        externalPaymentReferenceIDs: ext === undefined ? none : [ext],
        customerExternalIDs: customer === undefined ? none : [customer],
        kids: kid === undefined ? none : [kid]
      }
    }
    case 'findPayment': {
      const ext = new URLSearchParams(route.query).getAll('externalPaymentReferenceID')
      return { paymentReferenceIDs: none, externalPaymentReferenceIDs: ext.length === 1 ? ext : none, customerExternalIDs: none }
    }
    case 'getCustomer':
      return { paymentReferenceIDs: none, externalPaymentReferenceIDs: none, customerExternalIDs: [route.customerExternalID] }
    default:
      return { paymentReferenceIDs: [route.paymentReferenceID], externalPaymentReferenceIDs: none, customerExternalIDs: none }
  }
}

// -------------------------------------------------------------------------------------
// webhooks
// -------------------------------------------------------------------------------------

/** Is this status worth another attempt? Network errors, 408, 429 and 5xx are; other answers are final. */
const retryable = (status: number): boolean => status === 408 || status === 429 || status >= 500

class WebhookSender {
  private readonly queues = new Map<string, Promise<void>>()
  private readonly pending = new Set<Promise<void>>()

  constructor(
    private readonly storage: Storage,
    private readonly options: Required<Omit<WebhookSenderOptions, 'secret'>> & { readonly secret?: string },
    private readonly log: (line: string) => void
  ) {}

  /** Queues deliveries; those of one payment go out one after another, in order. */
  enqueue(records: ReadonlyArray<DeliveryRecord>): void {
    for (const record of records) {
      const key = record.paymentReferenceID
      const previous = this.queues.get(key) ?? Promise.resolve()
      const next = previous.then(() => this.deliver(record))
      this.queues.set(key, next)
      this.pending.add(next)
      void next.finally(() => {
        this.pending.delete(next)
        if (this.queues.get(key) === next) this.queues.delete(key)
      })
    }
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending])
  }

  private async deliver(record: DeliveryRecord): Promise<void> {
    const { maxAttempts, baseDelayMs, timeoutMs, secret } = this.options
    const signer = secret === undefined ? undefined : new Webhook(secret)
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let lastStatus: number | undefined
      let lastError: string | undefined
      try {
        // a Standard Webhooks message, stamped and signed afresh for each attempt (docs/http.md)
        const message = webhookMessage(
          { url: record.url, id: record.eventID, body: JSON.stringify(record.payload) },
          { timestamp: Math.floor(Date.now() / 1000) }
        )
        const signature = signer?.sign(message.id, new Date(message.timestamp * 1000), message.body)
        const res = await fetch(record.url, {
          method: 'POST',
          headers: {
            ...message.headers,
            ...(signature !== undefined ? { 'webhook-signature': signature } : {}),
            'x-paysplit-event-id': record.eventID,
            'x-paysplit-event-type': record.eventType,
            'x-paysplit-delivery-attempt': String(attempt)
          },
          body: message.body,
          signal: AbortSignal.timeout(timeoutMs)
        })
        // the status is the answer: the body is dropped unread (a receiver may stream without end)
        await res.body?.cancel().catch(() => undefined)
        lastStatus = res.status
        if (res.ok) {
          await this.storage.updateDelivery(record.id, { state: 'delivered', attempts: attempt, lastStatus })
          this.log(`webhook ${record.eventType} ${record.eventID} → ${record.url}: ${String(res.status)} (attempt ${String(attempt)})`)
          return
        }
        lastError = `HTTP ${String(res.status)}`
      } catch (e) {
        lastError = e instanceof Error ? e.message : String(e)
      }
      const final = attempt === maxAttempts || (lastStatus !== undefined && !retryable(lastStatus))
      await this.storage.updateDelivery(record.id, {
        state: final ? 'failed' : 'pending',
        attempts: attempt,
        ...(lastStatus !== undefined ? { lastStatus } : {}),
        lastError
      })
      this.log(`webhook ${record.eventType} ${record.eventID} → ${record.url}: ${lastError} (attempt ${String(attempt)}${final ? ', giving up' : ''})`)
      if (final) return
      await sleep(baseDelayMs * 2 ** (attempt - 1))
    }
  }
}

// -------------------------------------------------------------------------------------
// the server
// -------------------------------------------------------------------------------------

/**
 * Creates the reference payments server (not yet listening).
 *
 * @example
 * const payments = createPaymentsServer({ catchAllUrl: 'http://127.0.0.1:9000/hooks' })
 * const base = await payments.listen()        // http://127.0.0.1:<port>
 * await fetch(`${base}/payments`, { method: 'POST', body: JSON.stringify(request) })
 * await payments.close()
 */
export const createPaymentsServer = (options: ServerOptions = {}): PaymentsServer => {
  const storage = options.storage ?? new InMemoryStorage()
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024
  const maxCommitAttempts = options.maxCommitAttempts ?? 8
  const conflictBackoffMs = options.conflictBackoffMs ?? 2
  const clock = options.clock ?? (() => new Date().toISOString())
  const newPaymentId = options.newPaymentId ?? randomUUID
  const newKid = options.newKid ?? defaultKid
  const handler = options.handler ?? handle
  const log = options.log ?? (() => undefined)
  const catchAllUrl = options.catchAllUrl
  const sender = new WebhookSender(
    storage,
    {
      maxAttempts: options.webhooks?.maxAttempts ?? 5,
      baseDelayMs: options.webhooks?.baseDelayMs ?? 200,
      timeoutMs: options.webhooks?.timeoutMs ?? 5000,
      ...(options.webhooks?.secret !== undefined ? { secret: options.webhooks.secret } : {})
    },
    log
  )

  /**
   * Runs one step on a fresh slice, commits it with optimistic concurrency, and runs it again on
   * a conflict. `undefined` when it lost every race.
   */
  const runCommitted = async <R>(
    keys: SliceKeys,
    step: (world: World) => { readonly world: World; readonly result: R; readonly deliveries: ReadonlyArray<WebhookDelivery> }
  ): Promise<R | undefined> => {
    for (let attempt = 1; attempt <= maxCommitAttempts; attempt++) {
      const before = await storage.load(keys)
      const { world: after, result, deliveries } = step(before)
      const changes = changesBetween(before, after, deliveries)
      if (isEmpty(changes)) return result
      const committed = await storage.commit(changes)
      if (committed.ok) {
        sender.enqueue(committed.deliveries)
        return result
      }
      const backoff = conflictBackoffMs * 2 ** (attempt - 1)
      await sleep(backoff / 2 + Math.random() * backoff)
    }
    return undefined
  }

  const respond = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? ''
    const path = req.url ?? '/'
    const matched = matchRoute(method, path)
    if (E.isLeft(matched)) {
      req.resume()
      // a 405 carries its allow header in the response
      send(res, mismatchResponse(matched.left))
      return
    }
    const route = matched.right
    const read = await readBody(req, maxBodyBytes)
    if (read.kind === 'aborted') return
    if (read.kind === 'tooLarge') {
      send(
        res,
        errorResponse(route.name, {
          code: 'PayloadTooLarge',
          message: `The request body is larger than ${String(maxBodyBytes)} bytes.`
        }),
        { connection: 'close' }
      )
      return
    }
    let body: unknown = undefined
    if (routeTakesBody(route) && read.text.trim() !== '') {
      try {
        body = JSON.parse(read.text)
      } catch {
        send(res, errorResponse(route.name, { ...invalid('', 'type', { expected: 'object' }), message: 'The request body is not valid JSON.' }))
        return
      }
    }
    const newId = newPaymentId()
    // A fresh KID for every invoice create: a repeat ignores it (the stored invoice keeps its own),
    // and the open invoices that hold it are loaded, so a clash is 409 DuplicateKid.
    const kid = route.name === 'createPayment' && field(body, 'paymentGateway') === 'invoice' ? newKid() : undefined
    const response = await runCommitted(keysOf(route, body, newId, kid), (world) => {
      const ctx: HandleContext = {
        at: clock(),
        paymentReferenceID: newId,
        ...(kid !== undefined ? { kid } : {}),
        ...(catchAllUrl !== undefined ? { catchAllUrl } : {})
      }
      const served = handler(world, { method, path, body }, ctx)
      return { world: served.world, result: served.response, deliveries: served.deliveries }
    })
    send(
      res,
      response ??
        errorResponse(route.name, {
          code: 'ConcurrentModification',
          message: 'The payment kept changing while this request ran; read it again and retry.'
        })
    )
  }

  const server = createServer((req, res) => {
    respond(req, res).catch((e: unknown) => {
      log(`500: ${e instanceof Error ? e.message : String(e)}`)
      // Storage or transport failed: not a payment rule, so not one of paysplit's codes.
      if (!res.headersSent) {
        const json = JSON.stringify({ success: false, error: { code: 'InternalError', message: 'The server failed; try again.' } })
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(json)
      } else res.destroy()
    })
  })

  const operation = async (
    paymentReferenceID: string,
    op: (world: World, at: string) => { readonly world: World; readonly result: E.Either<PaymentError, Payment>; readonly deliveries: ReadonlyArray<WebhookDelivery> }
  ): Promise<E.Either<PaymentError, Payment>> => {
    const keys: SliceKeys = { paymentReferenceIDs: [paymentReferenceID], externalPaymentReferenceIDs: none, customerExternalIDs: none }
    const result = await runCommitted(keys, (world) => op(world, clock()))
    if (result === undefined) throw new Error(`Payment ${paymentReferenceID} kept changing while this operation ran; try again.`)
    return result
  }
  const hooks = catchAllUrl !== undefined ? { catchAllUrl } : {}

  return {
    server,
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          const a = server.address() as AddressInfo
          resolve(`http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${String(a.port)}`)
        })
      }),
    close: async () => {
      await sender.idle()
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve()
        })
        server.closeAllConnections()
      })
    },
    idle: () => sender.idle(),
    completeForm: (id) => operation(id, (world, at) => completeForm(world, id, { at, ...hooks })),
    failForm: (id, reason) =>
      operation(id, (world, at) => failForm(world, id, { at, ...hooks, ...(reason !== undefined ? { reason } : {}) })),
    receiveTransfer: (id, amount, kidNumber) =>
      operation(id, (world, at) => receiveTransfer(world, id, { amount, kid: kidNumber }, { at, ...hooks })),
    payment: async (id) => {
      const world = await storage.load({ paymentReferenceIDs: [id], externalPaymentReferenceIDs: none, customerExternalIDs: none })
      return world.payments.get(id.toLowerCase())
    },
    deliveries: () => storage.deliveries()
  }
}
