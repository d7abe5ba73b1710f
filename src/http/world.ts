/**
 * The world of the service model (docs/rules.md C6, C9): every payment, customer and create
 * reference of the service as one immutable value, its reads, and what the operations of
 * `service.ts` and `bank.ts` share (the context check, running a command on one payment).
 *
 * @module world
 */
import * as E from '../internal/either.js'
import * as O from '../internal/option.js'
import type { Command } from '../commands.js'
import { transition } from '../decider.js'
import type { Issue, PaymentError } from '../errors.js'
import { invalid, issue } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import type { Payment, PaymentState } from '../payment.js'
import { initialState, isPayment } from '../payment.js'
import type { Customer, PaymentIntentRequest } from '../codecs/requests.js'
import { admitState } from '../state/trustedState.js'
import { isHttpUrl, isTimestamp, isUuid } from '../codecs/validators.js'
import { isObject, own } from '../internal/own.js'
import { notFound, type HttpResponse } from './responses.js'
import { webhookDeliveries, type WebhookDelivery } from './webhooks.js'


// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What the world remembers of the first request that carried a key: the request (its method, its
 * path as given, and a copy of its body), the response paysplit gave, and the `at` of that first
 * use. A service that keeps its data in a database stores these fields as they are and puts the
 * record back into the world it passes to `handle`, under {@link idempotencyEntryKey}.
 */
export interface IdempotencyRecord {
  /** `ctx.idempotencyScope` of the first use; absent: the shared scope. */
  readonly scope?: string
  readonly key: string
  readonly method: string
  readonly path: string
  /** The body as the first request gave it (absent when it had none). */
  readonly body?: unknown
  readonly response: HttpResponse
  /** The `at` of the first use: the record is forgotten 24 hours later. */
  readonly at: string
}

/** The keys a world remembers, by {@link idempotencyEntryKey} of their scope and key. */
export type IdempotencyKeys = ReadonlyMap<string, IdempotencyRecord>


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
 * {@link getCustomer}; change it only through the operations of `paysplit/http`.
 *
 * - `payments`: by `paymentReferenceID`, lower-cased (UUIDs compare case-insensitively);
 * - `customers`: by `customerExternalID`, exactly as given;
 * - `references`: by `externalPaymentReferenceID`, exactly as given;
 * - `idempotencyKeys`: the `idempotency-key`s of the last 24 hours and what they answered, by
 *   `idempotencyEntryKey(scope, key)` (docs/rules.md C13); absent: none.
 *
 * A service that keeps its data elsewhere (a database) builds the slice a request needs: the
 * payment it names; for a create, the reference, the customer, and the open invoices that hold the
 * context's KID; for a transfer by KID, the open invoices that hold it; for a request with an
 * `idempotency-key`, that key's record (docs/decisions.md, "The world a service loads").
 */
export interface World {
  readonly payments: ReadonlyMap<string, Payment>
  readonly customers: ReadonlyMap<string, Customer>
  readonly references: ReadonlyMap<string, CreatedReference>
  readonly idempotencyKeys?: IdempotencyKeys
  /** The OCR giro transmissions applied, by data sender and transmission number (`receiveOcrGiro`). */
  readonly ocrTransmissions?: ReadonlySet<string>
  /** The camt.054 notifications applied, by message id → the day they were applied (`receiveCamt054`, docs/rules.md C17). */
  readonly camt054Messages?: ReadonlyMap<string, string>
  /** The transactions of the camt.054 notifications applied, by `camt054TransactionKey` → booking date (`receiveCamt054`). */
  readonly camt054Transactions?: ReadonlyMap<string, string>
}

/** The webhooks to send after an operation, in order. */
export type Deliveries = ReadonlyArray<WebhookDelivery>

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
  references: new Map<string, CreatedReference>(),
  idempotencyKeys: new Map()
})

// -------------------------------------------------------------------------------------
// reads
// -------------------------------------------------------------------------------------

export const keyOf = (paymentReferenceID: string): string => paymentReferenceID.toLowerCase()

/** True for a world: own `payments`, `customers` and `references` maps (a polluted prototype adds none). */
export const isWorld = (w: unknown): w is World =>
  own(w, 'payments') instanceof Map && own(w, 'customers') instanceof Map && own(w, 'references') instanceof Map

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

/**
 * The world's stored customer record for `payment`'s `customerExternalID`, if any: webhooks and
 * reads report it, else the payment's own (`webhookPaymentOf` falls back to it), else none
 * (docs/rules.md C9).
 */
export const customerOf = (world: World, payment: Payment): Customer | undefined =>
  world.customers.get(payment.customerExternalID)

/**
 * The open (`Initiated`) invoices of the world that hold `kid` (docs/rules.md C9: at most one in a
 * world paysplit made). A linear scan: a service that keeps its payments in a database loads only
 * those into the world it passes.
 */
export const openInvoicesWithKid = (world: World, kid: string): ReadonlyArray<Payment> => {
  const found: Array<Payment> = []
  for (const p of world.payments.values()) {
    if (own(p, 'kind') === 'invoice' && own(p, 'status') === 'Initiated' && own(p, 'kid') === kid) found.push(p)
  }
  return found
}

// -------------------------------------------------------------------------------------
// changes
// -------------------------------------------------------------------------------------

const customerFields = ['name', 'email', 'mobilePrefix', 'mobile', 'customerType'] as const

/** Create-or-update: the given fields overwrite, the absent ones keep their value. */
export const mergeCustomer = (existing: Customer | undefined, given: Customer): Customer => {
  const out: { -readonly [K in keyof Customer]: Customer[K] } = {}
  for (const k of customerFields) {
    const g = own(given, k)
    const v = g !== undefined ? g : own(existing, k)
    if (typeof v === 'string') out[k] = v
  }
  return out
}

export const withEntry = <V>(m: ReadonlyMap<string, V>, key: string, value: V): ReadonlyMap<string, V> => new Map(m).set(key, value)

export const stateOf = (world: World, paymentReferenceID: string): PaymentState =>
  world.payments.get(keyOf(paymentReferenceID)) ?? initialState

/** The payment as stored, validated when paysplit did not make it; an error when it cannot be read. */
export const readable = (stored: Payment): E.Either<PaymentError, Payment> => {
  const admitted = admitState(stored)
  if (E.isLeft(admitted)) return admitted
  /* v8 ignore next -- a stored { status: 'NoPayment' } is no payment */
  return isPayment(admitted.right) ? E.right(admitted.right) : E.left(notFound)
}

/** What running a command on one payment gave: the new world, the payment, its events, its webhooks. */
export type Ran = readonly [world: World, payment: Payment, events: ReadonlyArray<PaymentEvent>, deliveries: Deliveries]

/**
 * Runs a command on one payment of the world; the webhooks report the world's customer record.
 * `state` is the payment's state when the caller admitted it already (so it is validated once).
 */
export const run = (
  world: World,
  paymentReferenceID: string,
  command: Command,
  catchAllUrl: string | undefined,
  state: PaymentState = stateOf(world, paymentReferenceID)
): E.Either<PaymentError, Ran> => {
  // `state`: the payment as stored, or as admitted already by the caller (not validated again)
  const result = transition(state, command)
  if (E.isLeft(result)) return result
  // a state after an accepted command is a payment
  const [after, events] = result.right as readonly [Payment, ReadonlyArray<PaymentEvent>]
  const next: World = { ...world, payments: withEntry(world.payments, keyOf(after.paymentReferenceID), after) }
  return E.right([next, after, events, deliveriesOf(next, after, events, catchAllUrl)])
}

export const deliveriesOf = (
  world: World,
  payment: Payment,
  events: ReadonlyArray<PaymentEvent>,
  catchAllUrl: string | undefined
): Deliveries =>
  // an undefined option is read as an absent one
  webhookDeliveries(payment, events, { catchAllUrl, customer: customerOf(world, payment) })

// -------------------------------------------------------------------------------------
// errors
// -------------------------------------------------------------------------------------

/** The world, the request or the context could not be read: give a World from paysplit and plain objects. */
export const unreadable: PaymentError = invalid('', 'type', { expected: 'object' })

// -------------------------------------------------------------------------------------
// the context (docs/rules.md C6: the service's, not the client's)
// -------------------------------------------------------------------------------------

/** A context as checked: `at` a valid timestamp, `catchAllUrl` absent or an absolute http(s) URL. */
export interface Checked {
  readonly at: string
  readonly catchAllUrl: string | undefined
  /** Only when asked for: a UUID. */
  readonly paymentReferenceID: string
  /** As given, when asked for (checked by the create of an invoice only). */
  readonly kid: unknown
  /** As given, when asked for (a failed form's; the decider checks it). */
  readonly reason: unknown
}

const contextIssue = (path: string, format: string): Issue => issue(path, 'format', { format })

/** An error of the context, the service's own fault: 500 `InvalidContext`, nothing changed. */
export const invalidContext = (issues: ReadonlyArray<Issue>): PaymentError => ({
  code: 'InvalidContext',
  message: `The service gave an invalid context (the service's fault, not the request's): check ${issues.map((i) => i.path || 'the context').join(', ')}.`,
  issues
})

/** A context that is no plain object, or that cannot be read (a getter that throws, a revoked proxy). */
const notAContext: PaymentError = invalidContext([issue('', 'type', { expected: 'object' })])

/** An optional field of the context that only some operations read. */
export type ContextExtra = 'kid' | 'reason' | undefined

/**
 * The fields of a context the operation uses, each read once, own properties only; `undefined`
 * when it cannot be read.
 */
const readContext = (
  ctx: unknown,
  needsId: boolean,
  extra: ContextExtra
): { at: unknown; id: unknown; catchAllUrl: unknown; kid: unknown; reason: unknown } | undefined => {
  try {
    if (!isObject(ctx) || Array.isArray(ctx)) return undefined
    return {
      at: own(ctx, 'at'),
      id: needsId ? own(ctx, 'paymentReferenceID') : undefined,
      catchAllUrl: own(ctx, 'catchAllUrl'),
      kid: extra === 'kid' ? own(ctx, 'kid') : undefined,
      reason: extra === 'reason' ? own(ctx, 'reason') : undefined
    }
  } catch {
    // the context is the service's: one it cannot read is its fault as much as a wrong one
    return undefined
  }
}

/**
 * Checks the fields of a context the operation uses (docs/rules.md C6): `at` always,
 * `paymentReferenceID` when `needsId`, `catchAllUrl` when given; `extra` is read as given. Only
 * own properties are read, each once, here and nowhere else; an own `catchAllUrl: undefined` is no
 * catch-all url. A context that cannot be read (a getter that throws, a revoked proxy) is
 * `InvalidContext` too: the context is the service's.
 */
export const checkContext = (ctx: unknown, needsId: boolean, extra?: ContextExtra): E.Either<PaymentError, Checked> => {
  const read = readContext(ctx, needsId, extra)
  if (read === undefined) return E.left(notAContext)
  const { at, id, catchAllUrl } = read
  const issues: Array<Issue> = []
  if (!isTimestamp(at)) issues.push(contextIssue('at', 'timestamp'))
  if (needsId && (typeof id !== 'string' || !isUuid(id))) issues.push(contextIssue('paymentReferenceID', 'uuid'))
  if (catchAllUrl !== undefined && (typeof catchAllUrl !== 'string' || !isHttpUrl(catchAllUrl))) {
    issues.push(contextIssue('catchAllUrl', 'url'))
  }
  if (issues.length > 0) return E.left(invalidContext(issues))
  return E.right({
    at: at as string,
    catchAllUrl: catchAllUrl as string | undefined,
    paymentReferenceID: typeof id === 'string' ? id : '',
    kid: read.kid,
    reason: read.reason
  })
}

/** The issue of a create of an invoice whose context has no valid KID. */
export const kidIssue: Issue = contextIssue('kid', 'kid')
