/**
 * The state of one payment: either no payment yet ({@link NoPayment}) or a {@link Payment} in one of
 * the five statuses. Every value here is plain, serialisable data.
 *
 * @module payment
 */
import { markTrusted } from './internal/trust.js'
import type {
  Customer,
  Environment,
  MetaData,
  PaymentGateway,
  WebhookSubscription
} from './codecs/requests.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The statuses of a payment. `Initiated`, `Reserved` and `Charged` are the interface's;
 * `Cancelled` and `Refunded` name the states the interface leaves unnamed. The last two are terminal.
 */
export type PaymentStatus = 'Initiated' | 'Reserved' | 'Charged' | 'Cancelled' | 'Refunded'

/** `card` for `paymentGateway: 'creditcard'`, `invoice` for `paymentGateway: 'invoice'`. */
export type PaymentKind = 'card' | 'invoice'

/** A money-split record (docs/rules.md I2.4). `splitID`s are 1..n in request order. */
export interface MoneySplit {
  readonly splitID: number
  readonly paymentReferenceID: string
  readonly connectedAccountID: string
  readonly amount: number
  readonly description?: string
  /** ISO 8601 UTC timestamp with fractional seconds: the `at` of the create command. */
  readonly insertTime: string
  readonly externalID?: string
  readonly isFee: boolean
}

/**
 * What a split held when the payment became `Charged`: the base of `settlement`. It is the
 * money-split record itself, as it stood then: `Payment.allocation` is the very (frozen) list of
 * splits the payment held at the charge, shared, not copied.
 */
export type Allocation = MoneySplit

/** A failed attempt at the payment form. */
export interface FormAttempt {
  readonly at: string
  readonly reason?: string
}

/**
 * A payment that exists. Money invariants, always: `grossAmount = Σ moneySplits[].amount`; every
 * amount is a safe non-negative integer; once `Charged` or `Refunded`,
 * `chargedAmount = grossAmount + refundedAmount` and `refundedAmount ≤ chargedAmount`.
 */
export interface Payment {
  /**
   * The version of the stored shape (docs/rules.md C11): 1 for every payment this release makes. A
   * later release that changes the shape raises it and reads every older one; this release refuses
   * a higher one (`UnsupportedSchemaVersion`) rather than misread it.
   */
  readonly schemaVersion: typeof SCHEMA_VERSION
  readonly status: PaymentStatus
  readonly kind: PaymentKind
  readonly paymentReferenceID: string
  readonly externalPaymentReferenceID: string
  readonly environment: Environment
  readonly paymentGateway: PaymentGateway
  /** Always present for cards; for invoices only when the request gave it (it has no effect). */
  readonly chargeImmediately?: boolean
  readonly sellerConnectedAccountID: string
  readonly externalObjectIdTag?: string
  readonly description?: string
  readonly currency: string
  /** The current total: Σ of the current splits' amounts. */
  readonly grossAmount: number
  readonly moneySplits: ReadonlyArray<MoneySplit>
  readonly customerExternalID: string
  readonly customer?: Customer
  readonly webhookSubscriptions: ReadonlyArray<WebhookSubscription>
  readonly successUrl: string
  readonly failedUrl: string
  readonly metaData: MetaData
  /** What was taken from the payer: the gross for cards, `paidAmount` for invoices; 0 before. */
  readonly chargedAmount: number
  /** Everything returned to the payer: refunds and refunded excess. */
  readonly refundedAmount: number
  /** The part of `refundedAmount` that was an invoice's excess (overpayment or adjustment). */
  readonly excessRefundedAmount: number
  /** Invoices: the total received by KID transfers. Always 0 for cards. */
  readonly paidAmount: number
  /** Invoices: the KID the customer pays with. */
  readonly kid?: string
  readonly formAttempts: ReadonlyArray<FormAttempt>
  /**
   * The splits as they stood when the payment became `Charged` (the same records, shared with the
   * `moneySplits` of that moment); empty before.
   */
  readonly allocation: ReadonlyArray<Allocation>
  readonly createdAt: string
  readonly updatedAt: string
  /** How many events have been applied to this payment. */
  readonly version: number
}

/**
 * The version of the stored shape of a {@link Payment} this release makes and reads (docs/rules.md C11).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { SCHEMA_VERSION } from 'paysplit'
 * assert.strictEqual(SCHEMA_VERSION, 1)
 */
export const SCHEMA_VERSION = 1

/** The state before a payment exists. */
export interface NoPayment {
  readonly status: 'NoPayment'
}

/** The state the decider works on: no payment yet, or a payment. */
export type PaymentState = NoPayment | Payment

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The state before anything happened: no payment yet. `replay([])` is this value.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { initialState, replay } from 'paysplit'
 * assert.strictEqual(initialState.status, 'NoPayment')
 * assert.strictEqual(replay([]), initialState)
 */
export const initialState: PaymentState = Object.freeze(markTrusted({ status: 'NoPayment' as const }))

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

/**
 * True when the state holds a payment.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { initialState, isPayment } from 'paysplit'
 * assert.strictEqual(isPayment(initialState), false)
 */
export const isPayment = (state: PaymentState): state is Payment => state.status !== 'NoPayment'

/**
 * True for the terminal statuses, `Cancelled` and `Refunded`: every command there is rejected.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { isTerminal } from 'paysplit'
 * assert.strictEqual(isTerminal('Refunded'), true)
 * assert.strictEqual(isTerminal('Charged'), false)
 */
export const isTerminal = (status: PaymentStatus): boolean =>
  status === 'Cancelled' || status === 'Refunded'
