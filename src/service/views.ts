/**
 * What the service reports about a payment (docs/rules.md I2.4, C5, C9): the `paymentCreated`
 * view and the money-split records that the create response, every webhook and the reads share.
 * Fresh objects, own properties only.
 *
 * @module views
 */
import type { MoneySplit, Payment, PaymentStatus } from '../payment.js'
import type { Customer, Environment, MetaData, PaymentGateway } from '../codecs/requests.js'
import { own } from '../internal/own.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The `paymentCreated` object of the create response and of every webhook: the payment's
 * identity, status (short form) and amounts. Optional request fields appear only when given.
 */
export interface PaymentCreatedView {
  readonly paymentReferenceID: string
  readonly externalPaymentReferenceID: string
  readonly status: PaymentStatus
  readonly environment: Environment
  readonly paymentGateway: PaymentGateway
  readonly chargeImmediately?: boolean
  readonly sellerConnectedAccountID: string
  readonly externalObjectIdTag?: string
  readonly description?: string
  readonly currency: string
  readonly grossAmount: number
  readonly chargedAmount: number
  readonly refundedAmount: number
  readonly excessRefundedAmount: number
  readonly customerExternalID: string
  /** Invoices: the KID the customer pays with (also in a webhook's `kidNorwayInvoice`). */
  readonly kid?: string
  readonly successUrl: string
  readonly failedUrl: string
  readonly createdAt: string
  readonly updatedAt: string
}

/**
 * What a webhook tells about the payment: its state after the events that caused it (and the body
 * of the payment reads, `PaymentBody`).
 */
export interface WebhookPayment {
  readonly paymentCreated: PaymentCreatedView
  /**
   * The customer record: the service's stored one for the payment's `customerExternalID` (merged
   * over every create that named it, docs/rules.md C9) when there is one, else the payment's own;
   * absent when neither holds one.
   */
  readonly customer?: Customer
  /** Present for invoices: the KID and the total received so far. */
  readonly kidNorwayInvoice?: { readonly kid: string; readonly paidAmount: number }
  readonly moneySplit: ReadonlyArray<MoneySplit>
  readonly metaData: MetaData
}

// -------------------------------------------------------------------------------------
// views
// -------------------------------------------------------------------------------------

/** `{ [key]: o[key] }` when `o` has that own property, defined; else `{}` (a polluted prototype adds nothing). @internal */
export const optional = <O extends object, K extends keyof O & string>(o: O, key: K): Partial<Pick<O, K>> => {
  const v = own(o, key)
  return v === undefined ? {} : ({ [key]: v } as Partial<Pick<O, K>>)
}

/**
 * A money split as a docs/rules.md I2.4 record: a fresh object, optional fields only when set.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { moneySplitRecordOf } from 'paysplit/http'
 * const r = moneySplitRecordOf({
 *   splitID: 1, paymentReferenceID: '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10',
 *   connectedAccountID: '0b7e9d2c-5d0a-4c57-8f7e-3a1f4f7d2e11', amount: 900,
 *   insertTime: '2026-11-21T10:00:00.000Z', isFee: false
 * })
 * assert.strictEqual(r.amount, 900)
 * assert.strictEqual('description' in r, false)
 */
export const moneySplitRecordOf = (s: MoneySplit): MoneySplit => ({
  splitID: s.splitID,
  paymentReferenceID: s.paymentReferenceID,
  connectedAccountID: s.connectedAccountID,
  amount: s.amount,
  ...optional(s, 'description'),
  insertTime: s.insertTime,
  ...optional(s, 'externalID'),
  isFee: s.isFee
})

/**
 * The `paymentCreated` view of a payment (create response, webhooks): a fresh object.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, handle, paymentCreatedOf } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: true, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, description: 'Tickets', isFee: false }]
 * }
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const payment = world.payments.get(id)
 * assert.ok(payment !== undefined)
 * const view = paymentCreatedOf(payment)
 * assert.strictEqual(view.status, 'Initiated')
 * assert.strictEqual(view.externalPaymentReferenceID, 'order-1001')
 */
export const paymentCreatedOf = (p: Payment): PaymentCreatedView => ({
  paymentReferenceID: p.paymentReferenceID,
  externalPaymentReferenceID: p.externalPaymentReferenceID,
  status: p.status,
  environment: p.environment,
  paymentGateway: p.paymentGateway,
  ...optional(p, 'chargeImmediately'),
  sellerConnectedAccountID: p.sellerConnectedAccountID,
  ...optional(p, 'externalObjectIdTag'),
  ...optional(p, 'description'),
  currency: p.currency,
  grossAmount: p.grossAmount,
  chargedAmount: p.chargedAmount,
  refundedAmount: p.refundedAmount,
  excessRefundedAmount: p.excessRefundedAmount,
  customerExternalID: p.customerExternalID,
  ...optional(p, 'kid'),
  successUrl: p.successUrl,
  failedUrl: p.failedUrl,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt
})
