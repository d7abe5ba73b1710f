/**
 * The payments API (docs/http.md): every route paysplit's `handle` knows, each request in one
 * transaction (../transaction.ts) on the rows paysplit's `requestKeys` names. The service knows no
 * route of its own: which rows, what to answer and what to write are paysplit's.
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
  type HttpResponse
} from 'paysplit/http'
import { KeyInFlight, scopeOf } from '../db/idempotency.js'
import { UnreadableState } from '../db/store.js'
import { json, parseJson, readBody, type Reply } from '../http.js'
import { runTransaction } from '../transaction.js'
import { customerKid, randomKid, transactionOptions, type Deps } from './context.js'

const own = (body: unknown, key: string): unknown =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Object.prototype.hasOwnProperty.call(body, key)
    ? (body as Record<string, unknown>)[key]
    : undefined

const text = (body: unknown, key: string): string | undefined => {
  const v = own(body, key)
  return typeof v === 'string' ? v : undefined
}

/** The error code of an answer: `error.code`, or `code` of cancel's, charge's and refund's bodies. */
const codeOf = (r: HttpResponse): unknown => {
  const error = own(r.body, 'error')
  return own(error, 'code') ?? own(r.body, 'code')
}

const reply = (r: HttpResponse): Reply => {
  const headers = (r as { readonly headers?: Readonly<Record<string, string>> }).headers
  return json(r.status, r.body, headers ?? {})
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
  const isInvoice = text(body, 'paymentGateway') === 'invoice'
  const customer = text(body, 'customerExternalID')
  // KID_SCHEME=customer: one KID per customer (docs/service.md); else a random one per attempt. paysplit
  // takes a KID only for a new invoice: a repeated create keeps the stored invoice's own.
  const fixedKid = isInvoice && config.kidScheme === 'customer' && customer !== undefined ? customerKid(customer) : undefined
  const catchAll = config.catchAllUrl !== undefined ? { catchAllUrl: config.catchAllUrl } : {}
  // safe retries (docs/service.md): the key goes to paysplit as it came; the scope is the caller's API key id
  const idempotencyScope = scopeOf(req.headers.authorization)
  const header = req.headers['idempotency-key']
  const headers = typeof header === 'string' ? { headers: { 'idempotency-key': header } } : {}
  const request = { method, path: target, body, ...headers }
  const paymentReferenceID = deps.newPaymentId()
  try {
    const outcome = await runTransaction(
      deps.db,
      {
        lock: method !== 'GET',
        step: () => {
          const kid = isInvoice ? (fixedKid ?? randomKid()) : undefined
          const ctx: HandleContext = { at: deps.now(), paymentReferenceID, ...(kid !== undefined ? { kid } : {}), ...catchAll, idempotencyScope }
          // the rows paysplit names for this request, loaded, and the request on them
          return { keys: deps.rules.requestKeys(request, ctx), run: (world) => deps.rules.handle(world, request, ctx) }
        },
        // a random KID an open invoice holds already: another KID, on another attempt
        again: (o) => config.kidScheme === 'random' && isInvoice && codeOf(o.response) === 'DuplicateKid',
        finish: (_tx, o) => Promise.resolve(o.response)
      },
      transactionOptions(deps, config.kidScheme === 'random')
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
