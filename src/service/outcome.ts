/**
 * What an operation on a world decided (docs/rules.md C6, C15): one record — the new world, the
 * operation's own result, the webhooks to send, the events applied, and `changes`, the rows a
 * store writes so that its database holds the world returned.
 *
 * @module outcome
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import type { Payment } from '../payment.js'
import type {
  Camt054MessageRow,
  Camt054TransactionRow,
  CustomerRow,
  Deliveries,
  IdempotencyRecord,
  OcrTransmissionRow,
  ReferenceRow,
  World
} from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** An event applied to a payment, numbered as a store keeps it (docs/rules.md C15). */
export interface VersionedEvent {
  /** The payment's version right after this event. */
  readonly version: number
  /** `<paymentReferenceID>:<version>`, the `eventID` its webhooks carry. */
  readonly eventID: string
  readonly event: PaymentEvent
}

/**
 * A payment an operation changed (docs/rules.md C15): write `state` where the stored version is
 * still `fromVersion` (0: a new payment, insert it), and append `events`. `state.version` is
 * `fromVersion` plus the number of events.
 */
export interface PaymentChange {
  /** The payment's id as it was created (a store keys it lower-cased, as the world does). */
  readonly paymentReferenceID: string
  readonly fromVersion: number
  readonly state: Payment
  readonly events: ReadonlyArray<VersionedEvent>
}

/**
 * The rows an operation wrote into the world (docs/rules.md C15), each list in any order, every
 * row whole and keyed as `worldOf` keys it: applied to the rows of the world given, they give the
 * rows of the world returned. All empty exactly when the world did not change (forgetting expired
 * `idempotency-key`s aside: a store deletes rows older than 24 hours by their `at`, at its own pace).
 */
export interface Changes {
  readonly payments: ReadonlyArray<PaymentChange>
  /** Customers created or updated: the merged record. */
  readonly customers: ReadonlyArray<CustomerRow>
  /** Create references made. */
  readonly references: ReadonlyArray<ReferenceRow>
  /** Answers kept for an `idempotency-key` (a key whose earlier row expired is written again). */
  readonly idempotencyKeys: ReadonlyArray<IdempotencyRecord>
  /** Bank transmissions applied. */
  readonly ocrTransmissions: ReadonlyArray<OcrTransmissionRow>
  /** camt.054 notifications applied: present on `receiveCamt054`'s changes only (see {@link Camt054Changes}). */
  readonly camt054Messages?: ReadonlyArray<Camt054MessageRow>
  /** Transactions of camt.054 notifications applied: present on `receiveCamt054`'s changes only. */
  readonly camt054Transactions?: ReadonlyArray<Camt054TransactionRow>
}

/**
 * The changes of `receiveCamt054` (docs/rules.md C15, C17): {@link Changes} with the rows of the
 * notification applied (`camt054Messages`, one row) and of each transaction it applied or refused
 * for good (`camt054Transactions`, a row per transaction remembered), both lists always present;
 * all empty exactly when the world did not change. The other operations write no camt.054 row:
 * their changes leave both lists out (docs/decisions.md "camt.054 notifications").
 */
export interface Camt054Changes extends Changes {
  readonly camt054Messages: ReadonlyArray<Camt054MessageRow>
  readonly camt054Transactions: ReadonlyArray<Camt054TransactionRow>
}

/**
 * What every operation on a world returns (docs/rules.md C6, C15), beside its own result: the new
 * world (the very one given when nothing changed), the webhooks to send, the events applied (in
 * order, each what `transition` gives for the same command on the same state; `[]` when nothing
 * changed), and the rows to write.
 */
export interface Outcome {
  readonly world: World
  readonly deliveries: Deliveries
  readonly events: ReadonlyArray<PaymentEvent>
  readonly changes: Changes
}

/** The outcome of an operation on one payment (`receiveTransfer`, `receiveTransferByKid`): the payment, or why not. */
export interface Operated extends Outcome {
  readonly result: E.Either<PaymentError, Payment>
}

/**
 * The outcome of a form operation (`completeForm`, `failForm`): as {@link Operated}, plus where the
 * form sends the customer (docs/rules.md C9): the payment's `successUrl` after a completed form,
 * its `failedUrl` after a failed or refused one; `undefined` only when there is no such payment or
 * its stored state cannot be read. A service that hosts the form answers 303 See Other to it.
 */
export interface FormOperated extends Operated {
  readonly redirectUrl: string | undefined
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** Nothing applied, nothing sent. @internal */
export const NONE: ReadonlyArray<never> = Object.freeze([])

/** No rows to write. @internal */
export const noChanges: Changes = Object.freeze({
  payments: NONE,
  customers: NONE,
  references: NONE,
  idempotencyKeys: NONE,
  ocrTransmissions: NONE
})

/** The rows of some lists, the others empty. @internal */
export const changesOf = (rows: Partial<Changes>): Changes => ({ ...noChanges, ...rows })

/**
 * The change of a payment that `events` brought to `payment` (the payment after them): from the
 * version before the first, each event numbered and named as its webhooks name it. @internal
 */
export const paymentChangeOf = (payment: Payment, events: ReadonlyArray<PaymentEvent>): PaymentChange => {
  const fromVersion = payment.version - events.length
  const id = payment.paymentReferenceID
  return {
    paymentReferenceID: id,
    fromVersion,
    state: payment,
    events: events.map((event, i) => {
      const version = fromVersion + i + 1
      return { version, eventID: `${id}:${String(version)}`, event }
    })
  }
}

/** Two changes of one payment, one after the other, as one (`later` starts where `earlier` ends). @internal */
export const followedBy = (earlier: PaymentChange, later: PaymentChange): PaymentChange => ({
  ...earlier,
  state: later.state,
  events: [...earlier.events, ...later.events]
})

/** The world as it was, with this result: nothing sent, nothing applied, nothing to write. @internal */
export const refused = (world: World, error: PaymentError): Operated => ({
  world,
  result: E.left(error),
  deliveries: NONE,
  events: NONE,
  changes: noChanges
})
