/**
 * The world of the service model (docs/rules.md C6, C9, C15): every payment, customer, create
 * reference, kept `idempotency-key` answer and applied bank transmission of the service as one
 * immutable value, the rows a store keeps it in, and its reads.
 *
 * @module world
 */
import * as E from '../internal/either.js'
import * as O from '../internal/option.js'
import type { PaymentError } from '../errors.js'
import { paymentError } from '../errors.js'
import type { Payment, PaymentState } from '../payment.js'
import { initialState, isPayment } from '../payment.js'
import type { Customer, PaymentIntentRequest } from '../codecs/requests.js'
import { admitState } from '../state/trustedState.js'
import { own } from '../internal/own.js'
import type { Camt054Transaction } from '../bankFiles/camt054Model.js'
import { ExpiringMap } from '../internal/expiringMap.js'
import type { WebhookDelivery } from './webhooks.js'

// -------------------------------------------------------------------------------------
// model: rows
// -------------------------------------------------------------------------------------

/**
 * A response as the world keeps it for an `idempotency-key` (docs/rules.md C13): its status, its
 * JSON body and, when there are any, its headers (lower-case names). The wire's `HttpResponse` is
 * one.
 */
export interface StoredResponse {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A customer as a store keeps it (docs/rules.md C15): the record every create that named the
 * `customerExternalID` left (given fields overwrite, absent ones keep their value).
 */
export interface CustomerRow {
  readonly customerExternalID: string
  readonly customer: Customer
}

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

/** A create reference as a store keeps it (docs/rules.md C15), keyed by `externalPaymentReferenceID`. */
export interface ReferenceRow extends CreatedReference {
  readonly externalPaymentReferenceID: string
}

/**
 * What the world remembers of the first request that carried an `idempotency-key` (docs/rules.md
 * C13, C15), and the row a store keeps it in, keyed by `scope` and `key`: the request (its
 * method, its path as given, and a copy of its body), the response paysplit gave, and the `at` of
 * that first use.
 */
export interface IdempotencyRecord {
  /** `ctx.idempotencyScope` of the first use; absent: the shared scope. */
  readonly scope?: string
  /**
   * The key as the header names it (docs/rules.md C13): a structured-field string unquoted
   * (`"abc"` and `abc` are the key `abc`).
   */
  readonly key: string
  /** The `at` of the first use: the row is forgotten 24 hours later. */
  readonly at: string
  readonly request: {
    readonly method: string
    readonly path: string
    /** The body as the first request gave it (absent when it had none). */
    readonly body?: unknown
  }
  readonly response: StoredResponse
}

/**
 * A bank transmission applied (docs/rules.md C14, C15), keyed by `dataSender` and
 * `transmissionNumber`; `at` is the context's of the operation that applied it.
 */
export interface OcrTransmissionRow {
  readonly dataSender: string
  readonly transmissionNumber: string
  readonly at: string
}

/**
 * A camt.054 notification applied (docs/rules.md C15, C17), keyed by `messageId`; `at` is the
 * context's of the operation that applied it. Forgotten 400 days after `at`.
 */
export interface Camt054MessageRow {
  readonly messageId: string
  readonly at: string
}

/**
 * A transaction of a camt.054 notification applied (docs/rules.md C15, C17), keyed by
 * `transactionKey` (`camt054TransactionKey`: account, entry and transaction reference), so that the
 * bank sending it again in another notification is recognised; `bookingDate` (`YYYY-MM-DD`) is its
 * entry's. Forgotten 400 days after `bookingDate`.
 */
export interface Camt054TransactionRow {
  readonly transactionKey: string
  readonly bookingDate: string
}

// -------------------------------------------------------------------------------------
// model: the world
// -------------------------------------------------------------------------------------

/**
 * The keys a world remembers, by {@link idempotencyEntryKey} of their scope and key: a
 * `ReadonlyMap`, read with `get`, `has`, `size` and iteration. The worlds paysplit returns (and
 * `emptyWorld`, `worldOf`) hold a persistent map: a keyed request costs O(log n) in the keys
 * kept, and the world given is never changed (docs/decisions.md, "Idempotency keys"). A world
 * built by hand may hold a `Map`: the first request that changes that world takes its entries
 * over, once.
 */
export type IdempotencyKeys = ReadonlyMap<string, IdempotencyRecord>

/**
 * The state of the whole service, an immutable value. Build one from stored rows with `worldOf`;
 * read it with {@link getPayment} and {@link getCustomer}; change it only through the operations
 * of `paysplit/http`, whose `changes` say which rows to write (docs/rules.md C15).
 *
 * - `payments`: by `paymentReferenceID`, lower-cased (UUIDs compare case-insensitively);
 * - `customers`: by `customerExternalID`, exactly as given;
 * - `references`: by `externalPaymentReferenceID`, exactly as given;
 * - `idempotencyKeys`: the `idempotency-key`s of the last 24 hours and what they answered, by
 *   `idempotencyEntryKey(scope, key)` (docs/rules.md C13); absent: none;
 * - `ocrTransmissions`: the bank transmissions applied, by `ocrTransmissionKey(dataSender,
 *   transmissionNumber)` (docs/rules.md C14); absent: none;
 * - `camt054Messages`: the camt.054 notifications applied in the last 400 days, by `messageId`;
 *   `camt054Transactions`: their transactions booked in the last 400 days, by
 *   `camt054TransactionKey` (docs/rules.md C17); absent: none. The worlds paysplit returns hold
 *   both in persistent maps, as the idempotency keys: a notification of k transactions costs
 *   O(k log n) in what is remembered, the expired entries O(log n) each.
 *
 * A service that keeps its data in a database builds the slice an operation needs: the rows
 * `requestKeys`, `transferKeys`, `ocrKeys` or `camt054Keys` name (the form: its payment), with every payment's
 * customer and reference and every reference's payment (docs/rules.md C15).
 */
export interface World {
  readonly payments: ReadonlyMap<string, Payment>
  readonly customers: ReadonlyMap<string, Customer>
  readonly references: ReadonlyMap<string, CreatedReference>
  readonly idempotencyKeys?: IdempotencyKeys
  readonly ocrTransmissions?: ReadonlyMap<string, OcrTransmissionRow>
  readonly camt054Messages?: ReadonlyMap<string, Camt054MessageRow>
  readonly camt054Transactions?: ReadonlyMap<string, Camt054TransactionRow>
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
  idempotencyKeys: ExpiringMap.empty<IdempotencyRecord>(),
  ocrTransmissions: new Map<string, OcrTransmissionRow>(),
  camt054Messages: ExpiringMap.empty<Camt054MessageRow>(),
  camt054Transactions: ExpiringMap.empty<Camt054TransactionRow>()
})

// -------------------------------------------------------------------------------------
// keys
// -------------------------------------------------------------------------------------

/** The key of a payment in `World.payments`: its `paymentReferenceID`, lower-cased. @internal */
export const keyOf = (paymentReferenceID: string): string => paymentReferenceID.toLowerCase()

/**
 * The entry of a key in a world's `idempotencyKeys`: scope and key together, so that two scopes
 * never share a key (`undefined`: the shared scope).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { idempotencyEntryKey } from 'paysplit/http'
 * assert.notStrictEqual(idempotencyEntryKey('key-a', 'k1'), idempotencyEntryKey('key-b', 'k1'))
 * assert.notStrictEqual(idempotencyEntryKey(undefined, 'k1'), idempotencyEntryKey('', 'k1'))
 * assert.strictEqual(idempotencyEntryKey('key-a', 'k1'), idempotencyEntryKey('key-a', 'k1'))
 */
export const idempotencyEntryKey = (scope: string | undefined, key: string): string => JSON.stringify([scope ?? null, key])

/** A time in milliseconds of a row's own field (`NaN`, the oldest time, when it cannot be read). */
const timeOf = (row: unknown, field: string): number => {
  const v = own(row, field)
  return typeof v === 'string' ? Date.parse(v) : Number.NaN
}

/** A row's `at` in milliseconds (`NaN` when it cannot be read). */
const atOf = (row: unknown): number => timeOf(row, 'at')

/**
 * The time of a kept key: its `at` in milliseconds (`NaN`, the oldest time, when it cannot be
 * read). @internal
 */
export const idempotencyTimeOf: (record: IdempotencyRecord) => number = atOf

/**
 * A world's `idempotencyKeys` as the persistent map the key store runs on: the world's own when
 * paysplit made it, the entries of a `Map` taken over (O(n log n), once), `undefined` for anything
 * else (a world built by hand without keys). @internal
 */
export const keyStoreOf = (world: World): ExpiringMap<IdempotencyRecord> | undefined => {
  const keys = own(world, 'idempotencyKeys')
  return keys instanceof ExpiringMap || keys instanceof Map ? expiringMapOf(keys, idempotencyTimeOf) : undefined
}

/** The time a camt.054 notification is remembered from: its row's `at`. @internal */
export const camt054MessageTimeOf: (row: Camt054MessageRow) => number = atOf

/** The time a camt.054 transaction is remembered from: its row's `bookingDate` (midnight UTC). @internal */
export const camt054TransactionTimeOf = (row: Camt054TransactionRow): number => timeOf(row, 'bookingDate')

/**
 * A world's kept rows with a time (its idempotency keys, its camt.054 messages and transactions)
 * as the persistent map the operations run on: the world's own when paysplit made it, the entries
 * of a `Map` taken over (O(n log n), once), an empty one for an empty `Map` (without sorting
 * nothing: most slices hold none) and for anything else. @internal
 */
export const expiringMapOf = <R>(memory: unknown, time: (row: R) => number): ExpiringMap<R> =>
  memory instanceof ExpiringMap
    ? (memory as ExpiringMap<R>)
    : memory instanceof Map && memory.size > 0
      ? ExpiringMap.from(memory as ReadonlyMap<string, R>, time)
      : ExpiringMap.empty<R>()

/**
 * The key a transmission is applied once under (docs/rules.md C14): its data sender and
 * transmission number, the entry of a world's `ocrTransmissions`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { ocrTransmissionKey } from 'paysplit/http'
 * assert.strictEqual(ocrTransmissionKey('00008080', '0170031'), '00008080/0170031')
 */
export const ocrTransmissionKey = (dataSender: string, transmissionNumber: string): string => `${dataSender}/${transmissionNumber}`

/**
 * The key a transaction of a camt.054 notification is recognised by when a bank sends it again in
 * another notification (docs/rules.md C17): its account, its entry's reference and its own
 * reference (or, without one, its position in the entry), as a JSON array — the entry of a world's
 * `camt054Transactions` and the `transactionKey` of its row, text any database column stores. Only
 * own properties are read.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { camt054TransactionKey } from 'paysplit/http'
 * assert.strictEqual(
 *   camt054TransactionKey({ account: 'NO9386011117947', entryReference: 'E-1', transactionReference: 'T-1', detailNumber: 1 }),
 *   '["NO9386011117947","E-1","T-1"]'
 * )
 * // without a transaction reference: its position in the entry, a number (never equal to a reference "2")
 * assert.strictEqual(camt054TransactionKey({ account: 'NO9386011117947', entryReference: 'E-1', detailNumber: 2 }), '["NO9386011117947","E-1",2]')
 */
export const camt054TransactionKey = (transaction: Pick<Camt054Transaction, 'account' | 'entryReference' | 'transactionReference' | 'detailNumber'>): string => {
  const reference = own(transaction, 'transactionReference')
  return JSON.stringify([own(transaction, 'account'), own(transaction, 'entryReference'), reference === undefined ? own(transaction, 'detailNumber') : reference])
}

// -------------------------------------------------------------------------------------
// reads
// -------------------------------------------------------------------------------------

/** True for a world: own `payments`, `customers` and `references` maps (a polluted prototype adds none). @internal */
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
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
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
 * const first = handle(emptyWorld, { method: 'POST', path: '/payments', body: { ...body, customer: { name: 'Kari', email: 'kari@example.no' } } }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const second = handle(
 *   first.world,
 *   { method: 'POST', path: '/payments', body: { ...body, externalPaymentReferenceID: 'order-1002', customer: { email: 'kari@nordmann.no' } } },
 *   { at: '2026-11-21T10:01:00.000Z', paymentReferenceID: '1b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' }
 * )
 * assert.deepStrictEqual(getCustomer(second.world, 'customer-42'), O.some({ name: 'Kari', email: 'kari@nordmann.no' }))
 * // the merged record is also the row to write
 * assert.deepStrictEqual(second.changes.customers, [{ customerExternalID: 'customer-42', customer: { name: 'Kari', email: 'kari@nordmann.no' } }])
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
 *
 * @internal
 */
export const customerOf = (world: World, payment: Payment): Customer | undefined =>
  world.customers.get(payment.customerExternalID)

/**
 * The open (`Initiated`) invoices of the world that hold `kid` (docs/rules.md C9: at most one in a
 * world paysplit made). A linear scan: a service that keeps its payments in a database loads only
 * those into the world it passes (`requestKeys`' `openInvoiceKids`).
 *
 * @internal
 */
export const openInvoicesWithKid = (world: World, kid: string): ReadonlyArray<Payment> => {
  const found: Payment[] = []
  for (const p of world.payments.values()) if (own(p, 'kind') === 'invoice' && own(p, 'status') === 'Initiated' && own(p, 'kid') === kid) found.push(p)
  return found
}

/** The keys of the open invoices (`kind` invoice, `status` Initiated) by KID, in the order of `world.payments`. @internal */
export const openInvoiceKeysByKid = (world: World): Map<string, string[]> => {
  const open = new Map<string, string[]>()
  for (const [k, p] of world.payments) {
    if (own(p, 'kind') !== 'invoice' || own(p, 'status') !== 'Initiated') continue
    const kid = own(p, 'kid')
    if (typeof kid !== 'string') continue
    const keys = open.get(kid)
    if (keys === undefined) open.set(kid, [k])
    else keys.push(k)
  }
  return open
}

/** The payment's state in the world, or "no payment yet". @internal */
export const stateOf = (world: World, paymentReferenceID: string): PaymentState =>
  world.payments.get(keyOf(paymentReferenceID)) ?? initialState

/** The payment as stored, validated when paysplit did not make it; an error when it cannot be read. @internal */
export const readable = (stored: Payment): E.Either<PaymentError, Payment> => {
  const admitted = admitState(stored)
  if (E.isLeft(admitted)) return admitted
  /* v8 ignore next -- a stored { status: 'NoPayment' } is no payment */
  return isPayment(admitted.right) ? E.right(admitted.right) : E.left(notFound)
}

// -------------------------------------------------------------------------------------
// changes
// -------------------------------------------------------------------------------------

const customerFields = ['name', 'email', 'mobilePrefix', 'mobile', 'customerType'] as const

/** Create-or-update: the given fields overwrite, the absent ones keep their value (string fields only, own properties). @internal */
export const mergeCustomer = (existing: Customer | undefined, given: Customer): Customer => {
  const out: { -readonly [K in keyof Customer]: Customer[K] } = {}
  for (const k of customerFields) {
    const g = own(given, k)
    const v = g !== undefined ? g : own(existing, k)
    if (typeof v === 'string') out[k] = v
  }
  return out
}

/** A copy of the map with one entry set. @internal */
export const withEntry = <V>(m: ReadonlyMap<string, V>, key: string, value: V): ReadonlyMap<string, V> => new Map(m).set(key, value)

// -------------------------------------------------------------------------------------
// errors
// -------------------------------------------------------------------------------------

/** No payment has the id a request named (404). @internal */
export const notFound: PaymentError = paymentError('PaymentNotFound', 'No payment has this paymentReferenceID.')
