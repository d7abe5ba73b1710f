/**
 * The in-memory service model (docs/rules.md C6): the whole payments service as pure functions over an
 * immutable {@link World}. `handle` runs one HTTP request; `completeForm`, `failForm` and
 * `receiveTransfer` run what the payment form and the bank report. Each returns the new world,
 * the outcome and the webhooks to send; the world given is never changed, and entries a call did
 * not touch are the same objects in the new world (a store can diff by identity).
 *
 * @module service
 */
import * as E from '../internal/either.js'
import * as O from '../internal/option.js'
import { decodePaymentIntentRequest } from '../codecs/decode.js'
import type { Command, CreatePayment } from '../commands.js'
import { transition } from '../decider.js'
import type { PaymentError } from '../errors.js'
import { invalid, paymentError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import type { Payment, PaymentState } from '../payment.js'
import { initialState, isPayment } from '../payment.js'
import type { Customer, MoneySplitPatch, PaymentIntentRequest } from '../codecs/requests.js'
import { errorResponse, mismatchResponse, successResponse, type HttpResponse } from './responses.js'
import { matchRoute, type Route } from './routes.js'
import { webhookDeliveries, type WebhookDelivery } from './webhooks.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What a create request left behind under its `externalPaymentReferenceID`: the payment it
 * created, the request as decoded, and the KID it was given (invoices only). A later create with
 * the same reference is compared with it.
 */
export interface CreatedReference {
  readonly paymentReferenceID: string
  readonly request: PaymentIntentRequest
  readonly kid?: string
}

/**
 * The state of the whole service, an immutable value. Read it with {@link getPayment} and
 * {@link getCustomer}; change it only through the operations of this module.
 *
 * - `payments`: by `paymentReferenceID`, lower-cased (UUIDs compare case-insensitively);
 * - `customers`: by `customerExternalID`, exactly as given;
 * - `references`: by `externalPaymentReferenceID`, exactly as given.
 */
export interface World {
  readonly payments: ReadonlyMap<string, Payment>
  readonly customers: ReadonlyMap<string, Customer>
  readonly references: ReadonlyMap<string, CreatedReference>
}

/** An HTTP request as {@link handle} takes it: the body already parsed from JSON (absent: none). */
export interface HttpRequest {
  readonly method: string
  /** The request target: a path, optionally with a query string (ignored). */
  readonly path: string
  readonly body?: unknown
}

/**
 * What the caller of {@link handle} brings: the clock (`at`), the identifier a create will give
 * the new payment, the KID of a new invoice, and the catch-all webhook url.
 */
export interface HandleContext {
  readonly at: string
  readonly paymentReferenceID: string
  /** Needed by a create of an invoice; ignored otherwise. */
  readonly kid?: string
  readonly catchAllUrl?: string
}

/** The context of the operations the payment form and the bank cause. */
export interface EventContext {
  readonly at: string
  readonly catchAllUrl?: string
}

/** The outcome of {@link handle}: the new world, the response, and the webhooks to send. */
export type Handled = readonly [World, HttpResponse, ReadonlyArray<WebhookDelivery>]

/** The outcome of a form or bank operation: the new world, the payment or the error, the webhooks. */
export type Operated = readonly [World, E.Either<PaymentError, Payment>, ReadonlyArray<WebhookDelivery>]

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The world before anything happened: no payments, no customers.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { emptyWorld, getPayment } from 'paysplit/http'
 * assert.ok(O.isNone(getPayment(emptyWorld, '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10')))
 * assert.strictEqual(emptyWorld.payments.size, 0)
 */
export const emptyWorld: World = Object.freeze({
  payments: new Map<string, Payment>(),
  customers: new Map<string, Customer>(),
  references: new Map<string, CreatedReference>()
})

// -------------------------------------------------------------------------------------
// reads
// -------------------------------------------------------------------------------------

const isObject = (u: unknown): u is object => typeof u === 'object' && u !== null

const keyOf = (paymentReferenceID: string): string => paymentReferenceID.toLowerCase()

const isWorld = (w: unknown): w is World =>
  isObject(w) &&
  (w as World).payments instanceof Map &&
  (w as World).customers instanceof Map &&
  (w as World).references instanceof Map

/**
 * The payment with this `paymentReferenceID` (either case), if any.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { emptyWorld, getPayment, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const found = getPayment(world, id.toUpperCase())
 * assert.ok(O.isSome(found) && found.value.status === 'Initiated')
 * assert.ok(O.isNone(getPayment(emptyWorld, id)))
 */
export const getPayment = (world: World, paymentReferenceID: string): O.Option<Payment> => {
  try {
    if (!isWorld(world) || typeof paymentReferenceID !== 'string') return O.none
    return O.fromNullable(world.payments.get(keyOf(paymentReferenceID)))
  } catch {
    return O.none
  }
}

/**
 * The customer with this `customerExternalID`, as the create requests that named it left it
 * (each request's `customer` fields overwrite, fields it left out keep their value).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { emptyWorld, getCustomer, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [w1] = handle(emptyWorld, { method: 'POST', path: '/payments', body: { ...body, customer: { name: 'Kari', email: 'kari@example.no' } } }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const [w2] = handle(
 *   w1,
 *   { method: 'POST', path: '/payments', body: { ...body, externalPaymentReferenceID: 'order-1002', customer: { email: 'kari@nordmann.no' } } },
 *   { at: '2026-11-21T10:01:00.000Z', paymentReferenceID: '1b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' }
 * )
 * assert.deepStrictEqual(getCustomer(w2, 'customer-42'), O.some({ name: 'Kari', email: 'kari@nordmann.no' }))
 * assert.ok(O.isNone(getCustomer(emptyWorld, 'customer-42')))
 */
export const getCustomer = (world: World, customerExternalID: string): O.Option<Customer> => {
  try {
    if (!isWorld(world) || typeof customerExternalID !== 'string') return O.none
    return O.fromNullable(world.customers.get(customerExternalID))
  } catch {
    return O.none
  }
}

// -------------------------------------------------------------------------------------
// internals
// -------------------------------------------------------------------------------------

const customerFields = ['name', 'email', 'mobilePrefix', 'mobile', 'customerType'] as const

/** Create-or-update: the given fields overwrite, the absent ones keep their value. */
const mergeCustomer = (existing: Customer | undefined, given: Customer): Customer => {
  const out: { -readonly [K in keyof Customer]: Customer[K] } = {}
  for (const k of customerFields) {
    const v = given[k] !== undefined ? given[k] : existing?.[k]
    if (v !== undefined) out[k] = v
  }
  return out
}

const withEntry = <V>(m: ReadonlyMap<string, V>, key: string, value: V): ReadonlyMap<string, V> => {
  const copy = new Map(m)
  copy.set(key, value)
  return copy
}

/** Structural equality of JSON-like values (key order ignored). */
const sameValue = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      sameValue(
        Object.getOwnPropertyDescriptor(a, k)?.value,
        Object.getOwnPropertyDescriptor(b, k)?.value
      )
  )
}

const stateOf = (world: World, paymentReferenceID: string): PaymentState =>
  world.payments.get(keyOf(paymentReferenceID)) ?? initialState

/** Runs a command on one payment of the world. */
const run = (
  world: World,
  paymentReferenceID: string,
  command: Command,
  catchAllUrl: string | undefined
): E.Either<PaymentError, readonly [World, Payment, ReadonlyArray<PaymentEvent>, ReadonlyArray<WebhookDelivery>]> => {
  const result = transition(stateOf(world, paymentReferenceID), command)
  if (E.isLeft(result)) return result
  const [after, events] = result.right
  /* v8 ignore if -- unreachable: a state after an accepted command is a payment */
  if (!isPayment(after)) {
    return E.left(notFound(paymentReferenceID))
  }
  const next: World = { ...world, payments: withEntry(world.payments, keyOf(after.paymentReferenceID), after) }
  const deliveries = webhookDeliveries(after, events, { catchAllUrl })
  return E.right([next, after, events, deliveries] as const)
}

const notFound = (paymentReferenceID: string): PaymentError =>
  paymentError('PaymentNotFound', `No payment has the paymentReferenceID ${paymentReferenceID}.`)

/** The world, the request or the context could not be read: give a World from paysplit and plain objects. */
const unreadable: PaymentError = invalid('', 'type', { expected: 'object' })

// -------------------------------------------------------------------------------------
// create
// -------------------------------------------------------------------------------------

const handleCreate = (world: World, body: unknown, ctx: HandleContext): Handled => {
  const decoded = decodePaymentIntentRequest(body)
  const kid = E.isRight(decoded) && decoded.right.paymentGateway === 'invoice' ? ctx.kid : undefined
  if (E.isRight(decoded)) {
    const request = decoded.right
    const stored = world.references.get(request.externalPaymentReferenceID)
    if (stored !== undefined) {
      const payment = world.payments.get(keyOf(stored.paymentReferenceID))
      if (payment !== undefined && sameValue(stored.request, request) && stored.kid === kid) {
        return [world, successResponse({ name: 'createPayment' }, payment, []), []]
      }
      const duplicate = paymentError(
        'DuplicateExternalPaymentReference',
        `externalPaymentReferenceID ${request.externalPaymentReferenceID} already names payment ${stored.paymentReferenceID}, created by a different request.`
      )
      return [world, errorResponse('createPayment', duplicate), []]
    }
  }
  // Not a repeat: the decider validates everything (request, kid, paymentReferenceID) at once.
  const command: CreatePayment = {
    type: 'CreatePayment',
    at: ctx.at,
    paymentReferenceID: ctx.paymentReferenceID,
    request: E.isRight(decoded) ? decoded.right : (body as PaymentIntentRequest),
    ...(ctx.kid !== undefined ? { kid: ctx.kid } : {})
  }
  const ran = run(world, typeof ctx.paymentReferenceID === 'string' ? ctx.paymentReferenceID : '', command, ctx.catchAllUrl)
  if (E.isLeft(ran)) return [world, errorResponse('createPayment', ran.left), []]
  const [afterRun, payment, events, deliveries] = ran.right
  if (E.isLeft(decoded)) return [world, errorResponse('createPayment', decoded.left), []]
  const request = decoded.right
  const reference: CreatedReference =
    kid !== undefined
      ? { paymentReferenceID: payment.paymentReferenceID, request, kid }
      : { paymentReferenceID: payment.paymentReferenceID, request }
  const customers =
    request.customer === undefined
      ? afterRun.customers
      : withEntry(
          afterRun.customers,
          request.customerExternalID,
          mergeCustomer(afterRun.customers.get(request.customerExternalID), request.customer)
        )
  const next: World = {
    payments: afterRun.payments,
    customers,
    references: withEntry(afterRun.references, request.externalPaymentReferenceID, reference)
  }
  return [next, successResponse({ name: 'createPayment' }, payment, events), deliveries]
}

// -------------------------------------------------------------------------------------
// the payment endpoints
// -------------------------------------------------------------------------------------

const commandOf = (route: Exclude<Route, { name: 'createPayment' }>, body: unknown, at: string): Command => {
  switch (route.name) {
    case 'cancelPayment':
      return { type: 'CancelPayment', at }
    case 'chargePayment':
      return { type: 'ChargePayment', at }
    case 'refundPayment':
      return { type: 'RefundPayment', at }
    // The body goes to the decider as it came: it checks the payment's existence and status
    // before the patch's shape (docs/rules.md C2 order), with the same rules as decodeMoneySplitPatch.
    case 'refundPartially':
      return { type: 'RefundPartially', at, patch: body as MoneySplitPatch }
    case 'adjustInvoice':
      return { type: 'AdjustInvoice', at, patch: body as MoneySplitPatch }
  }
}

const handlePayment = (
  world: World,
  route: Exclude<Route, { name: 'createPayment' }>,
  body: unknown,
  ctx: HandleContext
): Handled => {
  const ran = run(world, route.paymentReferenceID, commandOf(route, body, ctx.at), ctx.catchAllUrl)
  if (E.isLeft(ran)) {
    const error = ran.left.code === 'PaymentNotFound' ? notFound(route.paymentReferenceID) : ran.left
    return [world, errorResponse(route.name, error), []]
  }
  const [next, payment, events, deliveries] = ran.right
  return [next, successResponse(route, payment, events), deliveries]
}

// -------------------------------------------------------------------------------------
// handle
// -------------------------------------------------------------------------------------

/**
 * Runs one HTTP request against the world (docs/rules.md C6): matches the route, runs the command, and
 * returns the new world, the response (status and body) and the webhooks to send.
 *
 * - `POST /payments`: validates the request; a reference already used by the same request (deep
 *   equal after decoding, the context's KID included) returns the stored payment with 200 and
 *   nothing new; by a different one, 409 `DuplicateExternalPaymentReference`. Otherwise the
 *   payment is created as `ctx.paymentReferenceID` (201), its customer created or updated when
 *   the request has `customer`, and its `Initiated` webhooks returned.
 * - the other endpoints: run their command on the payment of the path; an unknown payment is 404.
 * - A failure leaves the world as it was (the very same value) and sends no webhook.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const ctx = { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, catchAllUrl: 'https://hooks.example/all' }
 * const [world, response, deliveries] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, ctx)
 * assert.strictEqual(response.status, 201)
 * assert.strictEqual(deliveries[0]?.eventType, 'Initiated')
 * assert.strictEqual(emptyWorld.payments.size, 0) // the world given is not changed
 * // the same request again: the stored payment, 200, nothing new
 * const [again, repeat, none] = handle(world, { method: 'POST', path: '/payments', body }, { ...ctx, paymentReferenceID: '1b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' })
 * assert.strictEqual(repeat.status, 200)
 * assert.strictEqual(again, world)
 * assert.strictEqual(none.length, 0)
 * // charge is for reserved payments only: 409, and the outcome is in the status code
 * const [, charge] = handle(world, { method: 'POST', path: `/payments/${id}/charge` }, { ...ctx, at: '2026-11-21T10:01:00.000Z' })
 * assert.deepStrictEqual(charge.status, 409)
 */
export const handle = (world: World, request: HttpRequest, ctx: HandleContext): Handled => {
  try {
    if (!isWorld(world) || !isObject(request) || !isObject(ctx)) {
      return [world, errorResponse(undefined, unreadable), []]
    }
    const matched = matchRoute(request.method, request.path)
    if (E.isLeft(matched)) return [world, mismatchResponse(matched.left), []]
    const route = matched.right
    return route.name === 'createPayment'
      ? handleCreate(world, request.body, ctx)
      : handlePayment(world, route, request.body, ctx)
  } catch {
    return [world, errorResponse(undefined, unreadable), []]
  }
}

// -------------------------------------------------------------------------------------
// the payment form and the bank
// -------------------------------------------------------------------------------------

const operate = (
  world: World,
  paymentReferenceID: string,
  ctx: EventContext,
  commandOfCtx: () => Command
): Operated => {
  try {
    if (!isWorld(world) || typeof paymentReferenceID !== 'string' || !isObject(ctx)) {
      return [world, E.left(unreadable), []]
    }
    if (!world.payments.has(keyOf(paymentReferenceID))) return [world, E.left(notFound(paymentReferenceID)), []]
    const ran = run(world, paymentReferenceID, commandOfCtx(), ctx.catchAllUrl)
    if (E.isLeft(ran)) return [world, ran, []]
    const [next, payment, , deliveries] = ran.right
    return [next, E.right(payment), deliveries]
  } catch {
    return [world, E.left(unreadable), []]
  }
}

/**
 * The customer completed the payment form of a card payment: `Charged` when `chargeImmediately`,
 * else `Reserved`; the webhooks of that status.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { completeForm, emptyWorld, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const [, result, deliveries] = completeForm(world, id, { at: '2026-11-21T10:05:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(E.isRight(result) && result.right.status === 'Reserved')
 * assert.strictEqual(deliveries[0]?.eventType, 'Reserved')
 */
export const completeForm = (world: World, paymentReferenceID: string, ctx: EventContext): Operated =>
  operate(world, paymentReferenceID, ctx, () => ({ type: 'CompletePaymentForm', at: ctx.at }))

/**
 * A payment-form attempt failed: the payment stays `Initiated`, the attempt (and its reason) is
 * recorded; no webhook.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emptyWorld, failForm, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const [, result, deliveries] = failForm(world, id, { at: '2026-11-21T10:05:00.000Z', reason: 'card declined' })
 * assert.ok(E.isRight(result) && result.right.status === 'Initiated')
 * assert.deepStrictEqual(E.isRight(result) && result.right.formAttempts, [{ at: '2026-11-21T10:05:00.000Z', reason: 'card declined' }])
 * assert.strictEqual(deliveries.length, 0)
 */
export const failForm = (
  world: World,
  paymentReferenceID: string,
  ctx: EventContext & { readonly reason?: string }
): Operated =>
  operate(world, paymentReferenceID, ctx, () =>
    ctx.reason === undefined
      ? { type: 'FailPaymentForm', at: ctx.at }
      : { type: 'FailPaymentForm', at: ctx.at, reason: ctx.reason }
  )

/**
 * The bank reports a KID transfer to an invoice: `paidAmount` grows; once it covers the amount the
 * invoice is `Charged` (any excess refunded) and the `Charged` webhooks go out.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle, receiveTransfer } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const made = kid.create('2026112100042', 'mod10')
 * assert.ok(E.isRight(made))
 * const invoiceKid = made.right
 * const body = {
 *   externalPaymentReferenceID: 'invoice-2001', environment: 'test', paymentGateway: 'invoice',
 *   sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [w1] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: invoiceKid })
 * const [w2, part] = receiveTransfer(w1, id, { amount: 4000, kid: invoiceKid }, { at: '2026-11-21T11:00:00.000Z' })
 * assert.ok(E.isRight(part) && part.right.status === 'Initiated' && part.right.paidAmount === 4000)
 * const [, rest, deliveries] = receiveTransfer(w2, id, { amount: 6000, kid: invoiceKid }, { at: '2026-11-21T12:00:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(E.isRight(rest) && rest.right.status === 'Charged')
 * assert.strictEqual(deliveries[0]?.eventType, 'Charged')
 */
export const receiveTransfer = (
  world: World,
  paymentReferenceID: string,
  transfer: { readonly amount: number; readonly kid: string },
  ctx: EventContext
): Operated =>
  operate(world, paymentReferenceID, ctx, () => {
    const t: unknown = transfer
    const amount = isObject(t) ? (t as { amount?: unknown }).amount : undefined
    const kid = isObject(t) ? (t as { kid?: unknown }).kid : undefined
    // The decider validates amount and kid (ValidationFailed for garbage).
    return { type: 'ReceiveInvoiceTransfer', at: ctx.at, amount: amount as number, kid: kid as string }
  })
