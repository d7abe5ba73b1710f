/**
 * Events: what happened to a payment, in the past tense. Plain objects discriminated by `type`,
 * each with the `at` of the command that caused it and the payment's `paymentReferenceID`.
 * They hold enough to rebuild the state with `evolve`; a store may keep them instead of states.
 *
 * @module events
 */
import type { MoneySplit } from './payment.js'
import type { Customer, PaymentIntentRequest } from './codecs/requests.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A split returned to the payer by a refund (docs/rules.md I2.6 `refundedSplit` entry). */
export interface RefundedSplit {
  readonly refundAmount: number
  readonly connectedAccountID: string
  readonly description?: string
  readonly externalID?: string
  readonly isFee: boolean
}

/** A split lowered by an invoice adjustment: a {@link RefundedSplit} with `adjustedAmount`. */
export interface AdjustedSplit {
  readonly adjustedAmount: number
  readonly connectedAccountID: string
  readonly description?: string
  readonly externalID?: string
  readonly isFee: boolean
}

/**
 * A payment intent was created. `request` is the decoded request without its `customer`
 * (that travels in the {@link CustomerUpserted} that follows when the request had one).
 */
export interface PaymentCreated {
  readonly type: 'PaymentCreated'
  readonly at: string
  readonly paymentReferenceID: string
  readonly request: Omit<PaymentIntentRequest, 'customer'>
  readonly kid?: string
}

/** The request carried a customer: it was created or updated with these values. */
export interface CustomerUpserted {
  readonly type: 'CustomerUpserted'
  readonly at: string
  readonly paymentReferenceID: string
  readonly customerExternalID: string
  readonly customer: Customer
}

/** The customer completed the form of a card payment that is charged later. */
export interface PaymentReserved {
  readonly type: 'PaymentReserved'
  readonly at: string
  readonly paymentReferenceID: string
}

/**
 * The payment became `Charged`. `chargedAmount` is what was taken from the payer (the gross for
 * cards, the amount paid for invoices); `excessRefundedAmount` is the part of it that was more
 * than the invoice's amount and went back to the payer (0 for cards). This event is where the
 * excess is booked: the `InvoiceAdjusted` or `InvoiceTransferReceived` before it only reports it.
 */
export interface PaymentCharged {
  readonly type: 'PaymentCharged'
  readonly at: string
  readonly paymentReferenceID: string
  readonly chargedAmount: number
  readonly excessRefundedAmount: number
}

/** The payment was cancelled. */
export interface PaymentCancelled {
  readonly type: 'PaymentCancelled'
  readonly at: string
  readonly paymentReferenceID: string
}

/**
 * The payment was refunded in full: every remaining split went back to 0 (each stays listed).
 * `refundAmount` is what this event returned (0 after a partial refund that emptied the payment).
 */
export interface PaymentRefunded {
  readonly type: 'PaymentRefunded'
  readonly at: string
  readonly paymentReferenceID: string
  readonly refundAmount: number
  readonly refundedSplit: ReadonlyArray<RefundedSplit>
}

/** Part of a charged payment was refunded by a split patch. */
export interface PaymentPartiallyRefunded {
  readonly type: 'PaymentPartiallyRefunded'
  readonly at: string
  readonly paymentReferenceID: string
  readonly newGrossAmount: number
  readonly refundAmount: number
  /** The splits that remain, with their new amounts. */
  readonly splitList: ReadonlyArray<MoneySplit>
  readonly refundedSplit: ReadonlyArray<RefundedSplit>
}

/**
 * An invoice's amount was lowered by a split patch. `excessRefundedAmount` is what of the amount
 * already paid goes back to the payer because of it (booked by the `PaymentCharged` that follows).
 */
export interface InvoiceAdjusted {
  readonly type: 'InvoiceAdjusted'
  readonly at: string
  readonly paymentReferenceID: string
  readonly newGrossAmount: number
  readonly splitList: ReadonlyArray<MoneySplit>
  readonly adjustedSplit: ReadonlyArray<AdjustedSplit>
  readonly excessRefundedAmount: number
}

/** A KID transfer to an invoice arrived. `paidAmount` is the total received after it. */
export interface InvoiceTransferReceived {
  readonly type: 'InvoiceTransferReceived'
  readonly at: string
  readonly paymentReferenceID: string
  readonly amount: number
  readonly kid: string
  readonly paidAmount: number
}

/** A payment-form attempt failed; the payment stays `Initiated`. */
export interface PaymentFormFailed {
  readonly type: 'PaymentFormFailed'
  readonly at: string
  readonly paymentReferenceID: string
  readonly reason?: string
}

/** Every event of a payment. */
export type PaymentEvent =
  | PaymentCreated
  | CustomerUpserted
  | PaymentReserved
  | PaymentCharged
  | PaymentCancelled
  | PaymentRefunded
  | PaymentPartiallyRefunded
  | InvoiceAdjusted
  | InvoiceTransferReceived
  | PaymentFormFailed

/** The `type` of every event. */
export type PaymentEventType = PaymentEvent['type']
