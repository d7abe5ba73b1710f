/**
 * The payments API (docs/http.md): every route paysplit's `handle` knows, each request in one
 * transaction (../transaction.ts) on the slice of the world it can touch.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { IncomingMessage } from 'node:http'
import { invalid, paymentError } from 'paysplit'
import {
  errorResponse,
  matchRoute,
  mismatchResponse,
  routeTakesBody,
  type HandleContext,
  type HttpResponse,
  type World
} from 'paysplit/http'
import { keyOfRequest, KeyInFlight, scopeOf } from '../db/idempotency.js'
import { noKeys, UnreadableState, type SliceKeys } from '../db/store.js'
import { json, parseJson, readBody, type Reply } from '../http.js'
import { runTransaction } from '../transaction.js'
import { customerKid, randomKid, type Deps } from './context.js'

const own = (body: unknown, key: string): unknown =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Object.prototype.hasOwnProperty.call(body, key)
    ? (body as Record<string, unknown>)[key]
    : undefined

const text = (body: unknown, key: string): string | undefined => {
  const v = own(body, key)
  return typeof v === 'string' ? v : undefined
}

const reply = (r: HttpResponse): Reply => {
  const headers = (r as { readonly headers?: Readonly<Record<string, string>> }).headers
  return json(r.status, r.body, headers ?? {})
}

/**
 * The rows a request can touch, read from its path and body: the payment of the path; for a
 * create, its reference, its customer and the open invoices holding its KID; for the reads, what
 * they name. Anything the request names that does not exist is simply not loaded.
 */
export const keysOf = (method: string, target: string, body: unknown, kid: string | undefined): SliceKeys => {
  const q = target.indexOf('?')
  const path = q < 0 ? target : target.slice(0, q)
  const segments = path.split('/')
  if (path === '/payments') {
    if (method === 'GET') {
      const ext = new URLSearchParams(q < 0 ? '' : target.slice(q + 1)).getAll('externalPaymentReferenceID')
      return { ...noKeys, externalPaymentReferenceIDs: ext }
    }
    const ext = text(body, 'externalPaymentReferenceID')
    const customer = text(body, 'customerExternalID')
    return {
      ...noKeys,
      externalPaymentReferenceIDs: ext === undefined ? [] : [ext],
      customerExternalIDs: customer === undefined ? [] : [customer],
      openKids: kid === undefined ? [] : [kid]
    }
  }
  if (segments[1] === 'payments' && segments[2] !== undefined && /^[0-9a-fA-F-]{36}$/.test(segments[2])) {
    return { ...noKeys, paymentReferenceIDs: [segments[2]] }
  }
  if (segments[1] === 'customers' && segments[2] !== undefined && segments.length === 3) {
    try {
      return { ...noKeys, customerExternalIDs: [decodeURIComponent(segments[2])] }
    } catch {
      return noKeys
    }
  }
  return noKeys
}

/** Answers one request of the payments API. */
export const apiRoute = async (deps: Deps, req: IncomingMessage, method: string, target: string): Promise<Reply> => {
  const { config } = deps
  const matched = matchRoute(method, target)
  if (E.isLeft(matched)) {
    req.resume()
    const m = matched.left
    return { ...reply(mismatchResponse(m)), headers: m.reason === 'MethodNotAllowed' ? { allow: m.allow.join(', ') } : {} }
  }
  const route = matched.right
  const read = await readBody(req, config.maxBodyBytes)
  if (read.kind === 'aborted') return json(400, undefined)
  if (read.kind === 'tooLarge') {
    return {
      ...reply(errorResponse(route.name, { code: 'PayloadTooLarge', message: `The request body is larger than ${String(config.maxBodyBytes)} bytes.` })),
      headers: { connection: 'close' }
    }
  }
  let body: unknown = undefined
  if (routeTakesBody(route)) {
    try {
      body = parseJson(read.text)
    } catch {
      return reply(errorResponse(route.name, { ...invalid('', 'type', { expected: 'object' }), message: 'The request body is not valid JSON.' }))
    }
  }
  const isInvoice = route.name === 'createPayment' && text(body, 'paymentGateway') === 'invoice'
  const customer = text(body, 'customerExternalID')
  // KID_SCHEME=customer: one KID per customer, so the open invoices holding it are part of the slice.
  const fixedKid = isInvoice && config.kidScheme === 'customer' && customer !== undefined ? customerKid(customer) : undefined
  const keys = keysOf(method, target, body, fixedKid)
  const paymentReferenceID = deps.newPaymentId()
  const catchAll = config.catchAllUrl !== undefined ? { catchAllUrl: config.catchAllUrl } : {}
  // safe retries (docs/service.md): the key goes to paysplit as it came; the scope is the caller's API key id
  const idempotencyScope = scopeOf(req.headers.authorization)
  const header = req.headers['idempotency-key']
  const headers = typeof header === 'string' ? { headers: { 'idempotency-key': header } } : {}
  const request = { method, path: target, body, ...headers }
  const idempotencyKey = keyOfRequest(request, { at: deps.now(), paymentReferenceID, idempotencyScope })
  try {
    const outcome = await runTransaction(
      deps.db,
      {
        keys,
        lock: method !== 'GET',
        lockCustomers: route.name === 'createPayment',
        ...(idempotencyKey !== undefined ? { idempotency: { key: idempotencyKey, waitMs: config.idempotencyWaitMs } } : {}),
        run: (world: World) => {
          const ext = text(body, 'externalPaymentReferenceID')
          const stored = ext === undefined ? undefined : world.references.get(ext)
          // A repeated create keeps the KID it was given (the stored invoice's own).
          const kid = isInvoice ? (stored?.kid ?? fixedKid ?? randomKid()) : undefined
          const ctx: HandleContext = { at: deps.now(), paymentReferenceID, ...(kid !== undefined ? { kid } : {}), ...catchAll, idempotencyScope }
          // the events paysplit applied come back with the answer: stored as they are
          const { world: after, response, deliveries, events } = deps.rules.handle(world, request, ctx)
          return { world: after, result: response, deliveries, events }
        }
      },
      { attempts: config.maxTransactionAttempts, retryDuplicateKid: config.kidScheme === 'random', rules: deps.rules }
    )
    switch (outcome.kind) {
      case 'done':
        if (outcome.deliveries > 0) deps.outboxWritten()
        return reply(outcome.result)
      case 'duplicateKid':
        return reply(errorResponse('createPayment', paymentError('DuplicateKid', 'An open invoice already holds the KID this invoice was given.')))
      case 'conflict':
        return reply(
          errorResponse(route.name, {
            code: 'ConcurrentModification',
            message: 'The payment kept changing while this request ran; read it again and retry.'
          })
        )
    }
  } catch (e) {
    if (e instanceof KeyInFlight) {
      return reply(errorResponse(route.name, { code: 'IdempotencyKeyInFlight', message: 'A request with this Idempotency-Key is still running; retry it in a moment.' }))
    }
    if (e instanceof UnreadableState) {
      deps.log.error('stored state unreadable', { paymentReferenceID: e.paymentReferenceID, code: e.error.code })
      return { ...reply(errorResponse(route.name, e.error)), status: 500 }
    }
    throw e
  }
}
