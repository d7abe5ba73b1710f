/**
 * `evolve`: a state and one event → the next state. Pure, and trusting: it applies the events
 * `decide` made. It reads only own properties of the state and the event (docs/decisions.md,
 * "Own properties only"): a polluted `Object.prototype` adds nothing to either.
 *
 * @module evolve
 */
import type { PaymentCreated, PaymentEvent } from './events.js'
import { withAmount } from './patches.js'
import type { MoneySplit, Payment, PaymentState } from './payment.js'
import { isPayment, SCHEMA_VERSION } from './payment.js'

// -------------------------------------------------------------------------------------
// evolve
// -------------------------------------------------------------------------------------

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

/**
 * The prototypes a plain object or array inherits from. An optional field is read as given when
 * it is the object's own: a value found is own for sure when `Object.prototype` lacks the key,
 * a test that costs next to nothing, and `Object.hasOwn` decides otherwise (docs/decisions.md,
 * "Own properties only"; docs/performance.md, "Why the code looks like this").
 */
const OP: object = Object.prototype
const AP: object = Array.prototype

/** The empty list a new payment starts with (no form attempts, no allocation): one, frozen, shared. */
const NONE: ReadonlyArray<never> = Object.freeze([])

const created = (e: PaymentCreated): Payment => {
  const r = e.request
  const id = e.paymentReferenceID
  // an array of its final size: a pushed-to array keeps room for more, in every payment stored
  const list = r.moneySplitList
  const moneySplits = new Array<MoneySplit>(list.length)
  let count = 0
  for (let i = 0; i < list.length; i++) {
    const s = list[i]
    if (s === undefined || (i in AP && !Object.hasOwn(list, i))) continue
    const split: Mutable<MoneySplit> = {
      splitID: i + 1,
      paymentReferenceID: id,
      connectedAccountID: s.connectedAccountID,
      amount: s.amount,
      insertTime: e.at,
      isFee: s.isFee
    }
    // an optional field is read as given only when it is the split's own (docs/decisions.md)
    const description = s.description
    if (description !== undefined && (!('description' in OP) || Object.hasOwn(s, 'description'))) split.description = description
    const externalID = s.externalID
    if (externalID !== undefined && (!('externalID' in OP) || Object.hasOwn(s, 'externalID'))) split.externalID = externalID
    moneySplits[count++] = split
  }
  if (count < moneySplits.length) moneySplits.length = count
  const p: Mutable<Payment> = {
    schemaVersion: SCHEMA_VERSION,
    status: 'Initiated',
    kind: r.paymentGateway === 'invoice' ? 'invoice' : 'card',
    paymentReferenceID: id,
    externalPaymentReferenceID: r.externalPaymentReferenceID,
    environment: r.environment,
    paymentGateway: r.paymentGateway,
    sellerConnectedAccountID: r.sellerConnectedAccountID,
    currency: r.currency,
    grossAmount: r.grossAmount,
    moneySplits,
    customerExternalID: r.customerExternalID,
    webhookSubscriptions: r.webhookSubscriptions,
    successUrl: r.successUrl,
    failedUrl: r.failedUrl,
    metaData: r.metaData,
    chargedAmount: 0,
    refundedAmount: 0,
    excessRefundedAmount: 0,
    paidAmount: 0,
    formAttempts: NONE,
    allocation: NONE,
    createdAt: e.at,
    updatedAt: e.at,
    version: 1
  }
  const chargeImmediately = r.chargeImmediately
  if (chargeImmediately !== undefined && (!('chargeImmediately' in OP) || Object.hasOwn(r, 'chargeImmediately'))) p.chargeImmediately = chargeImmediately
  const tag = r.externalObjectIdTag
  if (tag !== undefined && (!('externalObjectIdTag' in OP) || Object.hasOwn(r, 'externalObjectIdTag'))) p.externalObjectIdTag = tag
  const description = r.description
  if (description !== undefined && (!('description' in OP) || Object.hasOwn(r, 'description'))) p.description = description
  const kid = e.kid
  if (kid !== undefined && p.kind === 'invoice' && (!('kid' in OP) || Object.hasOwn(e, 'kid'))) p.kid = kid
  return p
}

/**
 * The splits with every amount 0 (the records already at 0 shared): a plain copy of the frozen
 * list changed in place, faster than mapping over the frozen list (docs/performance.md, "Why the code looks like this").
 */
const zeroed = (frozen: ReadonlyArray<MoneySplit>): ReadonlyArray<MoneySplit> => {
  const out = [...frozen]
  for (let i = 0; i < out.length; i++) {
    const s = out[i] as MoneySplit
    if (s.amount !== 0) out[i] = withAmount(s, 0)
  }
  return out
}

/**
 * A fresh copy of `p` after one more event: the event's `at` as `updatedAt`, the version counted
 * up; the caller then sets the fields its event changes on this new, not yet shared object.
 * One object literal that names every field of {@link Payment} (optional ones only when present,
 * so `'customer' in p` stays false when there is none), not a spread (docs/performance.md, "Why
 * the code looks like this"). `validateState` has its own copy ({@link copyPayment}): sharing one
 * with a state built field by field makes its reads polymorphic, and `replay` 1.9× slower.
 */
const next = (p: Payment, at: string): Mutable<Payment> => {
  const n: Mutable<Payment> = {
    schemaVersion: SCHEMA_VERSION,
    status: p.status,
    kind: p.kind,
    paymentReferenceID: p.paymentReferenceID,
    externalPaymentReferenceID: p.externalPaymentReferenceID,
    environment: p.environment,
    paymentGateway: p.paymentGateway,
    sellerConnectedAccountID: p.sellerConnectedAccountID,
    currency: p.currency,
    grossAmount: p.grossAmount,
    moneySplits: p.moneySplits,
    customerExternalID: p.customerExternalID,
    webhookSubscriptions: p.webhookSubscriptions,
    successUrl: p.successUrl,
    failedUrl: p.failedUrl,
    metaData: p.metaData,
    chargedAmount: p.chargedAmount,
    refundedAmount: p.refundedAmount,
    excessRefundedAmount: p.excessRefundedAmount,
    paidAmount: p.paidAmount,
    formAttempts: p.formAttempts,
    allocation: p.allocation,
    createdAt: p.createdAt,
    updatedAt: at,
    version: p.version + 1
  }
  // optional fields: a value found is copied only when it is `p`'s own (docs/decisions.md); the
  // own-property test runs only for a field that is there, so an absent one costs nothing
  const chargeImmediately = p.chargeImmediately
  if (chargeImmediately !== undefined && (!('chargeImmediately' in OP) || Object.hasOwn(p, 'chargeImmediately'))) n.chargeImmediately = chargeImmediately
  const tag = p.externalObjectIdTag
  if (tag !== undefined && (!('externalObjectIdTag' in OP) || Object.hasOwn(p, 'externalObjectIdTag'))) n.externalObjectIdTag = tag
  const description = p.description
  if (description !== undefined && (!('description' in OP) || Object.hasOwn(p, 'description'))) n.description = description
  const kid = p.kid
  if (kid !== undefined && (!('kid' in OP) || Object.hasOwn(p, 'kid'))) n.kid = kid
  const customer = p.customer
  if (customer !== undefined && (!('customer' in OP) || Object.hasOwn(p, 'customer'))) n.customer = customer
  return n
}


/**
 * A fresh copy of `p`: one object literal that names every field of {@link Payment} (optional
 * ones only when present, so `'customer' in p` stays false when there is none), not a spread
 * (docs/performance.md, "Why the code looks like this"). What `validateState` builds its payments
 * with, so that they have the shape of those `transition` makes (the code that reads states then
 * sees one shape).
 *
 * @internal
 */
export const copyPayment = (p: Payment): Mutable<Payment> => {
  const n: Mutable<Payment> = {
    schemaVersion: SCHEMA_VERSION,
    status: p.status,
    kind: p.kind,
    paymentReferenceID: p.paymentReferenceID,
    externalPaymentReferenceID: p.externalPaymentReferenceID,
    environment: p.environment,
    paymentGateway: p.paymentGateway,
    sellerConnectedAccountID: p.sellerConnectedAccountID,
    currency: p.currency,
    grossAmount: p.grossAmount,
    moneySplits: p.moneySplits,
    customerExternalID: p.customerExternalID,
    webhookSubscriptions: p.webhookSubscriptions,
    successUrl: p.successUrl,
    failedUrl: p.failedUrl,
    metaData: p.metaData,
    chargedAmount: p.chargedAmount,
    refundedAmount: p.refundedAmount,
    excessRefundedAmount: p.excessRefundedAmount,
    paidAmount: p.paidAmount,
    formAttempts: p.formAttempts,
    allocation: p.allocation,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    version: p.version
  }
  // optional fields: a value found is copied only when it is `p`'s own (docs/decisions.md); the
  // own-property test runs only for a field that is there, so an absent one costs nothing
  const chargeImmediately = p.chargeImmediately
  if (chargeImmediately !== undefined && (!('chargeImmediately' in OP) || Object.hasOwn(p, 'chargeImmediately'))) n.chargeImmediately = chargeImmediately
  const tag = p.externalObjectIdTag
  if (tag !== undefined && (!('externalObjectIdTag' in OP) || Object.hasOwn(p, 'externalObjectIdTag'))) n.externalObjectIdTag = tag
  const description = p.description
  if (description !== undefined && (!('description' in OP) || Object.hasOwn(p, 'description'))) n.description = description
  const kid = p.kid
  if (kid !== undefined && (!('kid' in OP) || Object.hasOwn(p, 'kid'))) n.kid = kid
  const customer = p.customer
  if (customer !== undefined && (!('customer' in OP) || Object.hasOwn(p, 'customer'))) n.customer = customer
  return n
}


/**
 * {@link evolve} for an event `decide` made (every field its own): what `transition` folds with.
 *
 * @internal
 */
export const applyEvent = (state: PaymentState, event: PaymentEvent): PaymentState => {
  if (!isPayment(state)) return event.type === 'PaymentCreated' ? created(event) : state
  const p = state
  const at = event.at
  switch (event.type) {
    case 'PaymentCreated':
      return p
    case 'CustomerUpserted': {
      const n = next(p, at)
      n.customer = event.customer
      return n
    }
    case 'PaymentReserved': {
      const n = next(p, at)
      n.status = 'Reserved'
      return n
    }
    case 'PaymentCharged': {
      const excess = p.kind === 'invoice' ? p.paidAmount - p.grossAmount : 0
      const n = next(p, at)
      n.status = 'Charged'
      n.chargedAmount = p.kind === 'invoice' ? p.paidAmount : p.grossAmount
      n.excessRefundedAmount = p.excessRefundedAmount + excess
      n.refundedAmount = p.refundedAmount + excess
      // the splits as they stand now; they never change (a patch makes new ones), so shared
      n.allocation = p.moneySplits
      return n
    }
    case 'PaymentCancelled': {
      const n = next(p, at)
      n.status = 'Cancelled'
      return n
    }
    case 'PaymentRefunded': {
      const n = next(p, at)
      n.status = 'Refunded'
      n.moneySplits = zeroed(p.moneySplits)
      n.grossAmount = 0
      n.refundedAmount = p.refundedAmount + p.grossAmount
      return n
    }
    case 'PaymentPartiallyRefunded': {
      const n = next(p, at)
      n.moneySplits = event.splitList
      n.grossAmount = event.newGrossAmount
      n.refundedAmount = p.refundedAmount + (p.grossAmount - event.newGrossAmount)
      return n
    }
    case 'InvoiceAdjusted': {
      const n = next(p, at)
      n.moneySplits = event.splitList
      n.grossAmount = event.newGrossAmount
      return n
    }
    case 'InvoiceTransferReceived': {
      const n = next(p, at)
      n.paidAmount = p.paidAmount + event.amount
      return n
    }
    case 'PaymentFormFailed': {
      const n = next(p, at)
      const reason = event.reason
      n.formAttempts = [
        ...p.formAttempts,
        reason === undefined || ('reason' in OP && !Object.hasOwn(event, 'reason')) ? { at } : { at, reason }
      ]
      return n
    }
    default: {
      // an event type this version does not know (a JS caller, a newer store): it does not apply
      event satisfies never
      return p
    }
  }
}


/** The fields {@link applyEvent} reads of an event. */
const EVENT_FIELDS = ['type', 'at', 'paymentReferenceID', 'request', 'kid', 'customer', 'splitList', 'newGrossAmount', 'amount', 'reason'] as const

/**
 * `event` as {@link applyEvent} may read it: itself when it is a plain object and
 * `Object.prototype` holds none of the fields read, else a plain copy of its own fields in which
 * every field it lacks is an own `undefined` (so nothing inherited is read).
 */
const ownEvent = (event: PaymentEvent): PaymentEvent => {
  if (
    Object.getPrototypeOf(event) === OP &&
    !('type' in OP || 'at' in OP || 'paymentReferenceID' in OP || 'request' in OP || 'kid' in OP ||
      'customer' in OP || 'splitList' in OP || 'newGrossAmount' in OP || 'amount' in OP || 'reason' in OP)
  ) {
    return event
  }
  const copy: object = { ...event }
  for (const key of EVENT_FIELDS) {
    if (!Object.hasOwn(copy, key)) Object.defineProperty(copy, key, { value: undefined, writable: true, enumerable: true, configurable: true })
  }
  return copy as PaymentEvent
}

/**
 * Applies one event to a state and returns the new state; the state given is not changed. Events
 * that do not apply to the state (anything but `PaymentCreated` before a payment exists, a second
 * `PaymentCreated`, an event of no known type) leave it as it is. Pure; trusts its events: give it
 * the events `decide` made. Reads only the event's own fields (docs/decisions.md, "Own properties
 * only").
 *
 * @example
 * import * as assert from 'node:assert'
 * import { evolve, initialState } from 'paysplit'
 * const cancelled = { type: 'PaymentCancelled', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' } as const
 * assert.strictEqual(evolve(initialState, cancelled), initialState) // no payment to cancel
 */
export const evolve = (state: PaymentState, event: PaymentEvent): PaymentState =>
  evolvePlain(typeof state === 'object' && state !== null && Object.getPrototypeOf(state) !== OP ? { ...state } : state, event)

/**
 * {@link evolve} on a state whose prototype is `Object.prototype` (every state paysplit makes):
 * what `replay` folds with after its first event.
 *
 * @internal
 */
export const evolvePlain = (state: PaymentState, event: PaymentEvent): PaymentState => {
  // anything but an object is no event, and does not apply (a JS caller, a newer store)
  return typeof event === 'object' && event !== null ? applyEvent(state, ownEvent(event)) : state
}
