/**
 * `evolve`: a state and one event → the next state. Pure, and trusting: it applies the events
 * `decide` made.
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

/** The empty list a new payment starts with (no form attempts, no allocation): one, frozen, shared. */
const NONE: ReadonlyArray<never> = Object.freeze([])

const created = (e: PaymentCreated): Payment => {
  const r = e.request
  const id = e.paymentReferenceID
  // an array of its final size: a pushed-to array keeps room for more, in every payment stored
  const moneySplits = new Array<MoneySplit>(r.moneySplitList.length)
  let count = 0
  for (let i = 0; i < r.moneySplitList.length; i++) {
    const s = r.moneySplitList[i]
    if (s === undefined) continue
    const split: Mutable<MoneySplit> = {
      splitID: i + 1,
      paymentReferenceID: id,
      connectedAccountID: s.connectedAccountID,
      amount: s.amount,
      insertTime: e.at,
      isFee: s.isFee
    }
    if (s.description !== undefined) split.description = s.description
    if (s.externalID !== undefined) split.externalID = s.externalID
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
  if (r.chargeImmediately !== undefined) p.chargeImmediately = r.chargeImmediately
  if (r.externalObjectIdTag !== undefined) p.externalObjectIdTag = r.externalObjectIdTag
  if (r.description !== undefined) p.description = r.description
  if (e.kid !== undefined && p.kind === 'invoice') p.kid = e.kid
  return p
}

/**
 * The splits with every amount 0 (the records already at 0 shared). A plain copy of the frozen
 * list, changed in place, not `splits.map`: V8 reads a frozen array's elements (and maps over it)
 * through a slow generic path, ~100 machine instructions a split against ~5 to copy it.
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
 * Written as one object literal that names every field of {@link Payment} (optional ones only
 * when present, so `'customer' in p` stays false when there is none), not as `{ ...p, ...changes }`:
 * V8 copies a spread many times slower, and `replay` of 10⁶ events shows it.
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
  if (p.chargeImmediately !== undefined) n.chargeImmediately = p.chargeImmediately
  if (p.externalObjectIdTag !== undefined) n.externalObjectIdTag = p.externalObjectIdTag
  if (p.description !== undefined) n.description = p.description
  if (p.kid !== undefined) n.kid = p.kid
  if (p.customer !== undefined) n.customer = p.customer
  return n
}

/**
 * Applies one event to a state and returns the new state; the state given is not changed. Events
 * that do not apply to the state (anything but `PaymentCreated` before a payment exists, a second
 * `PaymentCreated`) leave it as it is. Pure; trusts its events: give it the events `decide` made.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { evolve, initialState } from 'paysplit'
 * const cancelled = { type: 'PaymentCancelled', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' } as const
 * assert.strictEqual(evolve(initialState, cancelled), initialState) // no payment to cancel
 */
export const evolve = (state: PaymentState, event: PaymentEvent): PaymentState => {
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
      n.formAttempts = [...p.formAttempts, event.reason === undefined ? { at } : { at, reason: event.reason }]
      return n
    }
    default: {
      // an event type this version does not know (a JS caller, a newer store): it does not apply
      event satisfies never
      return p
    }
  }
}

