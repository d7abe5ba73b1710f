/**
 * The store contract (docs/rules.md C15): which rows an operation can read (`RowKeys`, named by
 * `requestKeys`, `transferKeys`, `ocrKeys` and `camt054Keys`), and a world built from the rows a store loaded
 * (`worldOf`). What to write back is each operation's `changes`.
 *
 * @module rows
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { invalid, issue, validationError } from '../errors.js'
import type { Payment } from '../payment.js'
import { isPayment } from '../payment.js'
import { paymentStatuses } from '../status.js'
import type { Customer, PaymentIntentRequest } from '../codecs/requests.js'
import { admitState } from '../state/trustedState.js'
import { isTimestamp } from '../codecs/validators.js'
import { NONE } from './outcome.js'
import { own } from '../internal/own.js'
import { isRecord } from '../codecs/fields.js'
import {
  idempotencyEntryKey,
  idempotencyTimeOf,
  keyOf,
  expiringMapOf,
  camt054MessageTimeOf,
  camt054TransactionTimeOf,
  type Camt054MessageRow,
  type Camt054TransactionRow,
  mergeCustomer,
  ocrTransmissionKey,
  type CustomerRow,
  type IdempotencyRecord,
  type OcrTransmissionRow,
  type ReferenceRow,
  type StoredResponse,
  type World
} from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The rows an operation can read (docs/rules.md C15). A store loads them, and with every payment
 * its customer (by `customerExternalID`) and its reference (by `externalPaymentReferenceID`), and
 * with every reference the payment it names; then builds the world with `worldOf`.
 *
 * - `paymentReferenceIDs`: payments by id, lower-cased (as the world keys them);
 * - `externalPaymentReferenceIDs`: create references (and their payments);
 * - `customerExternalIDs`: customers;
 * - `openInvoiceKids`: every `Initiated` invoice that holds one of these KIDs;
 * - `idempotency`: the kept answer of this `idempotency-key` (`scope` absent: the shared scope).
 */
export interface RowKeys {
  readonly paymentReferenceIDs: ReadonlyArray<string>
  readonly externalPaymentReferenceIDs: ReadonlyArray<string>
  readonly customerExternalIDs: ReadonlyArray<string>
  readonly openInvoiceKids: ReadonlyArray<string>
  readonly idempotency?: { readonly scope?: string; readonly key: string }
}

/** A bank transmission, as `ocrTransmissions` rows are keyed. */
export interface OcrTransmissionKey {
  readonly dataSender: string
  readonly transmissionNumber: string
}

/** The rows a bank operation can read: as {@link RowKeys}, plus the transmissions applied already. */
export interface BankRowKeys extends RowKeys {
  readonly ocrTransmissions: ReadonlyArray<OcrTransmissionKey>
}

/**
 * The rows `receiveCamt054` can read (docs/rules.md C15, C17): as {@link BankRowKeys} (its
 * `ocrTransmissions` empty), plus the notification's own row in `camt054Messages` (by `messageId`)
 * and the rows in `camt054Transactions` of its transactions (by `camt054TransactionKey`), to know
 * which were applied already.
 */
export interface Camt054RowKeys extends BankRowKeys {
  readonly camt054Messages: ReadonlyArray<string>
  readonly camt054Transactions: ReadonlyArray<string>
}

/**
 * Stored rows, as `worldOf` takes them (docs/rules.md C15); every list optional. `payments` are
 * stored states (a payment's JSON read back, or one paysplit returned).
 */
export interface WorldRows {
  readonly payments?: ReadonlyArray<unknown>
  readonly customers?: ReadonlyArray<CustomerRow>
  readonly references?: ReadonlyArray<ReferenceRow>
  readonly idempotencyKeys?: ReadonlyArray<IdempotencyRecord>
  readonly ocrTransmissions?: ReadonlyArray<OcrTransmissionRow>
  readonly camt054Messages?: ReadonlyArray<Camt054MessageRow>
  readonly camt054Transactions?: ReadonlyArray<Camt054TransactionRow>
}

/** A row `worldOf` refused: the error, and for a payment row the id it holds (`''` when it holds none). */
export type RowError = PaymentError & { readonly paymentReferenceID?: string }

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** No rows. @internal */
export const noKeys: RowKeys = Object.freeze({
  paymentReferenceIDs: NONE,
  externalPaymentReferenceIDs: NONE,
  customerExternalIDs: NONE,
  openInvoiceKids: NONE
})

/** No rows, for a bank operation. @internal */
export const noBankKeys: BankRowKeys = Object.freeze({ ...noKeys, ocrTransmissions: NONE })

/** No rows, for a camt.054 notification. @internal */
export const noCamt054Keys: Camt054RowKeys = Object.freeze({ ...noBankKeys, camt054Messages: NONE, camt054Transactions: NONE })

// -------------------------------------------------------------------------------------
// a world from rows
// -------------------------------------------------------------------------------------

type Read<T> = E.Either<RowError, T>

const wrong = (path: string, v: unknown, expected: string): Read<never> =>
  E.left(v === undefined ? invalid(path, 'required') : invalid(path, 'type', { expected }))

/** The own fields of a row that must be strings, in order: the first that is not is the error. */
const texts = <K extends string>(row: unknown, path: string, keys: ReadonlyArray<K>): Read<Record<K, string>> => {
  const out: Partial<Record<K, string>> = {}
  for (const key of keys) {
    const v = own(row, key)
    if (typeof v !== 'string') return wrong(`${path}.${key}`, v, 'string')
    out[key] = v
  }
  return E.right(out as Record<K, string>)
}

/** An own field of a row that must be an object. */
const object = (row: unknown, path: string, key: string): Read<object> => {
  const v = own(row, key)
  return isRecord(v) ? E.right(v) : wrong(`${path}.${key}`, v, 'object')
}

/** An own field of a row that may be absent (or SQL's `null`) or a string. */
const optionalText = (row: unknown, path: string, key: string): Read<string | undefined> => {
  const v = own(row, key)
  return v === undefined || v === null ? E.right(undefined) : typeof v === 'string' ? E.right(v) : wrong(`${path}.${key}`, v, 'string')
}

/** A stored state admitted once (validated unless paysplit made it), or the row's error naming it. */
const paymentOf = (row: unknown): Read<Payment> => {
  const id = own(row, 'paymentReferenceID')
  const named = typeof id === 'string' ? id : ''
  const admitted = admitState(row)
  if (E.isLeft(admitted)) return E.left({ ...admitted.left, paymentReferenceID: named })
  // `{ status: 'NoPayment' }` is a state, but no payment a store keeps
  return isPayment(admitted.right)
    ? E.right(admitted.right)
    : E.left({ ...validationError([issue('state.status', 'not_one_of', { allowed: [...paymentStatuses] })]), paymentReferenceID: named })
}

const customerOf = (row: unknown, path: string): Read<CustomerRow> => {
  const id = texts(row, path, ['customerExternalID'])
  if (E.isLeft(id)) return id
  const customer = object(row, path, 'customer')
  return E.isLeft(customer) ? customer : E.right({ ...id.right, customer: mergeCustomer(undefined, customer.right as Customer) })
}

const referenceOf = (row: unknown, path: string): Read<ReferenceRow> => {
  const ids = texts(row, path, ['externalPaymentReferenceID', 'paymentReferenceID'])
  if (E.isLeft(ids)) return ids
  const request = object(row, path, 'request')
  if (E.isLeft(request)) return request
  const kid = optionalText(row, path, 'kid')
  if (E.isLeft(kid)) return kid
  return E.right({ ...ids.right, request: request.right as PaymentIntentRequest, ...(kid.right !== undefined ? { kid: kid.right } : {}) })
}

const idempotencyKeyOf = (row: unknown, path: string): Read<IdempotencyRecord> => {
  const scope = optionalText(row, path, 'scope')
  if (E.isLeft(scope)) return scope
  const first = texts(row, path, ['key', 'at'])
  if (E.isLeft(first)) return first
  const request = object(row, path, 'request')
  if (E.isLeft(request)) return request
  const sent = texts(request.right, `${path}.request`, ['method', 'path'])
  if (E.isLeft(sent)) return sent
  const response = object(row, path, 'response')
  if (E.isLeft(response)) return response
  const status = own(response.right, 'status')
  if (!Number.isSafeInteger(status)) return wrong(`${path}.response.status`, status, 'integer')
  const body = own(request.right, 'body')
  return E.right({
    ...(scope.right !== undefined ? { scope: scope.right } : {}),
    ...first.right,
    request: { ...sent.right, ...(body !== undefined ? { body } : {}) },
    response: response.right as StoredResponse
  })
}

const transmissionOf = (row: unknown, path: string): Read<OcrTransmissionRow> => texts(row, path, ['dataSender', 'transmissionNumber', 'at'])

/** A camt.054 row's date field, which its memory expires by: a timestamp as `at` (or a calendar date `YYYY-MM-DD`). */
const dated = <R extends object>(read: Read<R>, path: string, field: keyof R & string, isDate: (s: string) => boolean): Read<R> =>
  E.isLeft(read) || isDate(read.right[field] as string) ? read : E.left(invalid(`${path}.${field}`, 'format', { format: field === 'at' ? 'timestamp' : 'date' }))

const messageOf = (row: unknown, path: string): Read<Camt054MessageRow> => dated(texts(row, path, ['messageId', 'at']), path, 'at', isTimestamp)

const camt054TransactionOf = (row: unknown, path: string): Read<Camt054TransactionRow> =>
  dated(texts(row, path, ['transactionKey', 'bookingDate']), path, 'bookingDate', (s) => s.length === 10 && isTimestamp(`${s}T00:00:00.000Z`))

/** A list of rows: its name, how a row is read, the entry it is kept under, and for a persistent map the time it expires by. */
type Table = readonly [
  name: keyof WorldRows,
  read: (row: unknown, path: string) => Read<unknown>,
  entry: (r: never) => readonly [string, unknown],
  timeOf?: (value: never) => number
]

/** Every list of rows, in the order they are checked, read and kept. */
const TABLES: ReadonlyArray<Table> = [
  ['payments', paymentOf, (p: Payment) => [keyOf(p.paymentReferenceID), p]],
  ['customers', customerOf, (c: CustomerRow) => [c.customerExternalID, c.customer]],
  ['references', referenceOf, (r: ReferenceRow) => [r.externalPaymentReferenceID, r]],
  ['idempotencyKeys', idempotencyKeyOf, (r: IdempotencyRecord) => [idempotencyEntryKey(r.scope, r.key), r], idempotencyTimeOf],
  ['ocrTransmissions', transmissionOf, (r: OcrTransmissionRow) => [ocrTransmissionKey(r.dataSender, r.transmissionNumber), r]],
  ['camt054Messages', messageOf, (r: Camt054MessageRow) => [r.messageId, r], camt054MessageTimeOf],
  ['camt054Transactions', camt054TransactionOf, (r: Camt054TransactionRow) => [r.transactionKey, r], camt054TransactionTimeOf]
]

/**
 * The world stored rows hold (docs/rules.md C15), to run an operation on: `payments` are stored
 * states, each admitted by `validateState` once (a state paysplit returned is taken as it is) and
 * kept by its `paymentReferenceID`, lower-cased; `customers` by `customerExternalID` (the record's
 * string fields); `references` by `externalPaymentReferenceID`; `idempotencyKeys` by `scope` and
 * `key`; `ocrTransmissions` by `dataSender` and `transmissionNumber`; `camt054Messages` by
 * `messageId`; `camt054Transactions` by `transactionKey`. Every list is optional; of
 * two rows with one key the later is kept, as a `Map` keeps it.
 *
 * The rows are the store's own, not a client's input: a payment row that is not valid gives `Left`
 * with `validateState`'s code and issues and a field `paymentReferenceID` naming the row (`''`
 * when it holds none); another row whose fields have the wrong type gives `Left`
 * `ValidationFailed` with an issue at its path (`customers.2.customer`). Nothing is built then.
 * Only own properties are read; nothing is thrown.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emptyWorld, handle, worldOf } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: true, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', customer: { name: 'Kari' }, successUrl: 'https://shop.example/ok',
 *   failedUrl: 'https://shop.example/failed', moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const { changes } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * // the rows as a database gives them back: JSON
 * const stored = JSON.parse(JSON.stringify({ payments: changes.payments.map((p) => p.state), customers: changes.customers, references: changes.references }))
 * const world = worldOf(stored)
 * assert.ok(E.isRight(world))
 * assert.strictEqual(world.right.payments.get(id)?.status, 'Initiated')
 * assert.strictEqual(world.right.customers.get('customer-42')?.name, 'Kari')
 * const read = handle(world.right, { method: 'GET', path: '/payments?externalPaymentReferenceID=order-1001' }, { at: '2026-11-21T10:01:00.000Z', paymentReferenceID: id })
 * assert.strictEqual(read.response.status, 200)
 * // a damaged row: nothing is built, the row is named
 * const bad = worldOf({ payments: [{ ...stored.payments[0], grossAmount: -1 }] })
 * assert.ok(E.isLeft(bad) && bad.left.code === 'ValidationFailed' && bad.left.paymentReferenceID === id)
 * assert.ok(E.isRight(worldOf({})))
 */
export const worldOf = (rows: WorldRows): E.Either<RowError, World> => {
  try {
    if (!isRecord(rows)) return E.left(invalid('', 'type', { expected: 'object' }))
    // every list is checked to be one before a row is read
    const lists: Array<ReadonlyArray<unknown>> = []
    for (const [name] of TABLES) {
      const list = own(rows, name)
      if (list !== undefined && !Array.isArray(list)) return E.left(invalid(name, 'type', { expected: 'array' }))
      lists.push(list ?? [])
    }
    const maps: unknown[] = []
    for (let t = 0; t < TABLES.length; t++) {
      const [name, read, entry, timeOf] = TABLES[t] as Table
      const list = lists[t] as ReadonlyArray<unknown>
      const into = new Map<string, unknown>()
      for (let i = 0; i < list.length; i++) {
        const r = read(own(list, i), `${name}.${String(i)}`)
        if (E.isLeft(r)) return r
        into.set(...entry(r.right as never))
      }
      // the keys and the camt.054 memory as the persistent maps the operations run on in O(log n)
      // (docs/decisions.md, "Idempotency keys")
      maps.push(timeOf === undefined ? into : expiringMapOf(into, timeOf as (value: unknown) => number))
    }
    // one literal: every world has the same shape
    const [payments, customers, references, idempotencyKeys, ocrTransmissions, camt054Messages, camt054Transactions] = maps
    return E.right({ payments, customers, references, idempotencyKeys, ocrTransmissions, camt054Messages, camt054Transactions } as World)
  } catch {
    // rows that cannot be read (a getter that throws, a revoked proxy)
    return E.left(invalid('', 'type', { expected: 'object' }))
  }
}
