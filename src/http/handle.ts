/**
 * `handle`: one HTTP request of the payments API run against the world (docs/rules.md C6, C9,
 * C13, C15). It returns one record: the new world, the response, the webhooks to send, the events
 * applied and the rows to write; the world given is never changed.
 *
 * @module handle
 */
import * as E from '../internal/either.js'
import { decodePaymentIntentRequest } from '../codecs/decode.js'
import type { Command, CreatePayment } from '../commands.js'
import { transitionWith } from '../decider.js'
import type { PaymentError } from '../errors.js'
import { paymentError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import { kid as kidNumber } from '../kid.js'
import type { Payment } from '../payment.js'
import type { Customer, MoneySplitPatch } from '../codecs/requests.js'
import { sameJson } from '../internal/json.js'
import { isObject, own } from '../internal/own.js'
import { checkContext, invalidContext, kidIssue, unreadable, type Checked } from '../service/context.js'
import { deliveriesOf, run } from '../service/operation.js'
import { changesOf, NONE, noChanges, paymentChangeOf, type Outcome } from '../service/outcome.js'
import {
  isWorld,
  keyOf,
  mergeCustomer,
  notFound,
  openInvoicesWithKid,
  stateOf,
  withEntry,
  type CustomerRow,
  type ReferenceRow,
  type World
} from '../service/world.js'
import { checkIdempotencyKey, rememberOutcome } from './idempotency.js'
import { handleRead } from './reads.js'
import { errorResponse, mismatchResponse, successResponse, type HttpResponse } from './responses.js'
import { isReadRoute, matchRoute, routeTakesBody, type PaymentRoute } from './routes.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** An HTTP request as {@link handle} takes it: the body already parsed from JSON (absent: none). */
export interface HttpRequest {
  readonly method: string
  /** The request target: a path, optionally with a query string (read by `GET /payments` only). */
  readonly path: string
  readonly body?: unknown
  /**
   * Request headers, lower-case names (own properties only). `handle` reads `idempotency-key` on
   * `POST` routes (docs/rules.md C13) and nothing else.
   */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * What the service brings to {@link handle} (docs/rules.md C6: the context is the service's, not
 * the client's): the clock (`at`), the identifier a create gives the new payment, the KID of a new
 * invoice, and the catch-all webhook url. A context that lacks what the request needs is the
 * service's fault: 500 `InvalidContext`, nothing changed. Only own properties are read.
 */
export interface HandleContext {
  readonly at: string
  readonly paymentReferenceID: string
  /** Needed by a create of a new invoice; ignored otherwise (an idempotent repeat included). */
  readonly kid?: string
  readonly catchAllUrl?: string
  /**
   * Whose `idempotency-key`s these are (docs/rules.md C13): the caller as the service knows it,
   * e.g. the id of its API key (never the key itself). Absent: one scope shared by every caller.
   */
  readonly idempotencyScope?: string
}

/**
 * The outcome of {@link handle} (docs/rules.md C6, C15): the new world, the response, the webhooks
 * to send, the events applied (in order, each what `transition` gives for the same command on the
 * same state; `[]` when the world did not change: a refusal, a read, an idempotent repeat) and the
 * rows to write. A service stores exactly these (an events table, an outbox) and never decides again.
 */
export interface Handled extends Outcome {
  readonly response: HttpResponse
}

/** The world unchanged, with this response: nothing sent, nothing applied, nothing to write. */
const unchanged = (world: World, response: HttpResponse): Handled => ({ world, response, deliveries: NONE, events: NONE, changes: noChanges })

// -------------------------------------------------------------------------------------
// create
// -------------------------------------------------------------------------------------

const CREATE = { name: 'createPayment' } as const

const createError = (world: World, error: PaymentError): Handled => unchanged(world, errorResponse('createPayment', error))

/**
 * `POST /payments` (docs/rules.md C6, C9). The body is decoded once, here; the decider takes the
 * decoded request as it is. Order: the request (400), a repeat (200) or a used reference (409),
 * the KID of a new invoice (500 `InvalidContext`, then 409 `DuplicateKid`), then the decider.
 */
const handleCreate = (world: World, body: unknown, c: Checked): Handled => {
  const decoded = decodePaymentIntentRequest(body)
  if (E.isLeft(decoded)) return createError(world, decoded.left)
  const request = decoded.right
  const stored = world.references.get(request.externalPaymentReferenceID)
  if (stored !== undefined) {
    const payment = world.payments.get(keyOf(stored.paymentReferenceID))
    // a repeat: the stored invoice keeps its own KID, whatever the context holds now
    if (payment !== undefined && sameJson(stored.request, request)) {
      return unchanged(world, successResponse(CREATE, payment, []))
    }
    return createError(
      world,
      paymentError(
        'DuplicateExternalPaymentReference',
        'This externalPaymentReferenceID already names a payment, created by a different request.'
      )
    )
  }
  // the KID of a new invoice, for its command and its reference
  let withKid: { readonly kid?: string } = {}
  if (request.paymentGateway === 'invoice') {
    if (!kidNumber.isValid(c.kid)) return createError(world, invalidContext([kidIssue]))
    const kid = c.kid as string
    withKid = { kid }
    if (openInvoicesWithKid(world, kid).length > 0) {
      return createError(
        world,
        paymentError('DuplicateKid', 'An open invoice holds this KID already: the service must give the new invoice another.')
      )
    }
  }
  const command: CreatePayment = {
    type: 'CreatePayment',
    at: c.at,
    paymentReferenceID: c.paymentReferenceID,
    request,
    ...withKid
  }
  // transition's own body, given the request decoded above (not decoded again)
  const created = transitionWith(stateOf(world, c.paymentReferenceID), command, request)
  if (E.isLeft(created)) return createError(world, created.left)
  // a state after an accepted create is a payment
  const [payment, events] = created.right as readonly [Payment, ReadonlyArray<PaymentEvent>]
  const reference: ReferenceRow = {
    externalPaymentReferenceID: request.externalPaymentReferenceID,
    paymentReferenceID: payment.paymentReferenceID,
    request,
    ...withKid
  }
  const given = own(request, 'customer') as Customer | undefined
  const customer: CustomerRow | undefined =
    given === undefined
      ? undefined
      : { customerExternalID: request.customerExternalID, customer: mergeCustomer(world.customers.get(request.customerExternalID), given) }
  const next: World = {
    // the world's other parts (its idempotency keys, its OCR transmissions) are kept as they are
    ...world,
    payments: withEntry(world.payments, keyOf(payment.paymentReferenceID), payment),
    customers: customer === undefined ? world.customers : withEntry(world.customers, customer.customerExternalID, customer.customer),
    references: withEntry(world.references, reference.externalPaymentReferenceID, reference)
  }
  return {
    world: next,
    response: successResponse(CREATE, payment, events),
    deliveries: deliveriesOf(next, payment, events, c.catchAllUrl),
    events,
    changes: changesOf({
      payments: [paymentChangeOf(payment, events)],
      customers: customer === undefined ? NONE : [customer],
      references: [reference]
    })
  }
}

// -------------------------------------------------------------------------------------
// the payment endpoints
// -------------------------------------------------------------------------------------

/**
 * The command of a payment endpoint: its type is the route's name, capitalised (`cancelPayment` →
 * `CancelPayment`). The body of a partial refund or an adjustment goes to the decider as it came:
 * it checks the payment's existence and status before the patch's shape (docs/rules.md C2 order),
 * with the same rules as decodeMoneySplitPatch.
 */
const commandOf = (route: PaymentRoute, body: unknown, at: string): Command => {
  const type = (route.name[0] as string).toUpperCase() + route.name.slice(1)
  return (routeTakesBody(route) ? { type, at, patch: body as MoneySplitPatch } : { type, at }) as Command
}

const handlePayment = (world: World, route: PaymentRoute, body: unknown, c: Checked): Handled => {
  const ran = run(world, route.paymentReferenceID, commandOf(route, body, c.at), c.catchAllUrl)
  if (E.isLeft(ran)) {
    const error = ran.left.code === 'PaymentNotFound' ? notFound : ran.left
    return unchanged(world, errorResponse(route.name, error))
  }
  const { world: next, payment, events, deliveries, change } = ran.right
  return { world: next, response: successResponse(route, payment, events), deliveries, events, changes: changesOf({ payments: [change] }) }
}

// -------------------------------------------------------------------------------------
// handle
// -------------------------------------------------------------------------------------

/**
 * Runs one HTTP request against the world (docs/rules.md C6, C9, C15): matches the route, checks
 * the context, runs the command, and returns one record: `world` (the very one given when nothing
 * changed), `response` (status, body, and headers when there are any), `deliveries` (the webhooks
 * to send, each with its outbox `id` and `body`), `events` (those applied, in order; `[]` when
 * nothing changed) and `changes` (the rows to write; all empty when nothing changed).
 *
 * - Routing comes first: 404 for an unknown path, 405 (with `headers.allow`) for a wrong method,
 *   whatever the context.
 * - The reads (`GET /payments/{id}`, `GET /payments?externalPaymentReferenceID=…`,
 *   `GET /customers/{customerExternalID}`) use no context and change nothing: 200
 *   `{ payment }` or `{ customer }`, 404 when there is none, 400 for a bad query.
 * - Then the context (the service's): `at`, `paymentReferenceID` for a create, `catchAllUrl` when
 *   given; a bad one is 500 `InvalidContext`, nothing changed.
 * - `POST /payments`: decodes the request (once); a reference already used by the same request
 *   (deep equal after decoding) returns the stored payment with 200 and nothing new, whatever KID
 *   the context holds; by a different one, 409 `DuplicateExternalPaymentReference`. A new invoice
 *   needs a valid KID in the context (else 500 `InvalidContext`) that no open invoice holds (else
 *   409 `DuplicateKid`). The payment is created as `ctx.paymentReferenceID` (201), its customer
 *   created or updated when the request has `customer`, and its `Initiated` webhooks returned.
 * - the other endpoints: run their command on the payment of the path; an unknown payment is 404.
 * - Safe retries (docs/rules.md C13): after the context, the `idempotency-key` of `headers`, a
 *   structured-field string or bare (`"abc"` and `abc` are one key; 1–255 printable ASCII, else
 *   400): the same key (per `ctx.idempotencyScope`) with the same request gets its stored
 *   response, nothing changed; with another request, 422 `IdempotencyKeyReused`. Kept 24 hours
 *   from the `at` of its first use; reads ignore the header.
 * - A failure leaves the world as it was (the very same value) and sends no webhook.
 * - Webhook payloads carry the world's stored customer record (merged over every create).
 *
 * A service that keeps its data in a database loads the rows `requestKeys(request, ctx)` names,
 * builds the world with `worldOf`, and writes `changes` (docs/rules.md C15). Only own properties
 * of the request and the context are read.
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
 * const { world, response, deliveries, events, changes } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, ctx)
 * assert.strictEqual(response.status, 201)
 * assert.strictEqual(deliveries[0]?.eventType, 'Initiated')
 * // the events applied, to store as they are (the n-th of a payment names the webhook `${id}:n`)
 * assert.deepStrictEqual(events.map((e) => e.type), ['PaymentCreated'])
 * assert.strictEqual(deliveries[0]?.id, `${id}:1`)
 * // the rows to write: a new payment (from version 0) with its numbered event, and its reference
 * assert.deepStrictEqual(changes.payments.map((p) => [p.fromVersion, p.events.map((e) => e.eventID)]), [[0, [`${id}:1`]]])
 * assert.deepStrictEqual(changes.references.map((r) => r.externalPaymentReferenceID), ['order-1001'])
 * assert.strictEqual(emptyWorld.payments.size, 0) // the world given is not changed
 * // the same request again: the stored payment, 200, nothing new, nothing to write
 * const repeat = handle(world, { method: 'POST', path: '/payments', body }, { ...ctx, paymentReferenceID: '1b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' })
 * assert.strictEqual(repeat.response.status, 200)
 * assert.strictEqual(repeat.world, world)
 * assert.strictEqual(repeat.deliveries.length, 0)
 * assert.strictEqual(repeat.events.length, 0)
 * assert.strictEqual(repeat.changes.payments.length, 0)
 * // charge is for reserved payments only: 409, and the outcome is in the status code; nothing applied
 * const charge = handle(world, { method: 'POST', path: `/payments/${id}/charge` }, { ...ctx, at: '2026-11-21T10:01:00.000Z' })
 * assert.strictEqual(charge.response.status, 409)
 * assert.strictEqual(charge.events.length, 0)
 * // a read: the payment as a webhook reports it
 * const { response: read } = handle(world, { method: 'GET', path: `/payments/${id}` }, ctx)
 * assert.ok(read.status === 200 && 'payment' in read.body && read.body.payment.paymentCreated.status === 'Initiated')
 * // a bad context is the service's fault
 * const { response: fault } = handle(world, { method: 'POST', path: `/payments/${id}/cancel` }, { ...ctx, at: 'yesterday' })
 * assert.strictEqual(fault.status, 500)
 */
export const handle = (world: World, request: HttpRequest, ctx: HandleContext): Handled => {
  try {
    if (!isWorld(world) || !isObject(request)) return unchanged(world, errorResponse(undefined, unreadable))
    const matched = matchRoute(own(request, 'method') as string, own(request, 'path') as string)
    if (E.isLeft(matched)) return unchanged(world, mismatchResponse(matched.left))
    const route = matched.right
    if (isReadRoute(route)) return unchanged(world, handleRead(world, route))
    const create = route.name === 'createPayment'
    const checked = checkContext(ctx, create, create ? 'kid' : undefined)
    if (E.isLeft(checked)) return unchanged(world, errorResponse(route.name, checked.left))
    // safe retries (docs/rules.md C13): the key is checked after the route and the context
    const keyed = checkIdempotencyKey(world, request, ctx, route.name, checked.right.at)
    if (keyed.kind === 'answer') return unchanged(world, keyed.response)
    const body = own(request, 'body')
    const done = create ? handleCreate(world, body, checked.right) : handlePayment(world, route, body, checked.right)
    const [next, kept] = rememberOutcome(keyed, world, done.world, done.response)
    if (kept !== undefined) return { ...done, world: next, changes: { ...done.changes, idempotencyKeys: [kept] } }
    return next === done.world ? done : { ...done, world: next }
  } catch {
    return unchanged(world, errorResponse(undefined, unreadable))
  }
}
