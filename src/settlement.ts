/**
 * Settlement (docs/rules.md C8): what each connected account gets from a payment. Before the charge it is
 * the plan (the current splits); once charged it is what each account's splits held at the charge
 * (`payment.allocation`), less what was returned from them since.
 *
 * @module settlement
 */
import type { Payment } from './payment.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * What one connected account gets from a payment: `allocated` is what its splits held when the
 * payment became `Charged` (before that, what they hold now), `refunded` what was returned from
 * them since (0 before the charge), and `net = allocated − refunded`.
 *
 * A row is one account in one role: an account that holds both fee and non-fee splits (the
 * platform selling on its own behalf) has two rows, one with `isFee` true and one with it false,
 * so that fees are always reported apart.
 */
export interface SettlementRow {
  readonly connectedAccountID: string
  readonly isFee: boolean
  readonly allocated: number
  readonly refunded: number
  readonly net: number
}

/**
 * The settlement of a payment: one {@link SettlementRow} per account (and role), in the order of
 * the first splitID where each appears, and the payment's `excessRefundedAmount` (an invoice's
 * overpayment or adjustment below what was paid, returned to the payer; it belongs to no account).
 */
export interface Settlement {
  readonly rows: ReadonlyArray<SettlementRow>
  readonly excessRefundedAmount: number
}

// -------------------------------------------------------------------------------------
// settlement
// -------------------------------------------------------------------------------------

/**
 * The settlement of a payment (docs/rules.md C8). Once charged (`Charged` or `Refunded`): one row per
 * account that held a split when the payment became `Charged` (from `payment.allocation`),
 * `allocated` what its splits held then, `refunded` what was returned from them since (a deleted
 * split counts its whole allocation), `net = allocated − refunded`. Before that (`Initiated`,
 * `Reserved`, `Cancelled`): one row per account of a current split, `allocated` the planned
 * amounts, `refunded` 0, `net = allocated`.
 *
 * Rows are grouped by account and fee flag (see {@link SettlementRow}) and ordered by the first
 * splitID where each appears. Laws, for any valid payment: Σ net = `grossAmount`; once charged,
 * Σ allocated = `chargedAmount − excessRefundedAmount` and Σ refunded = `refundedAmount −
 * excessRefundedAmount`. Pure, linear in the number of splits; the result is fresh.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { initialState, isPayment, settlement, transition } from 'paysplit'
 * const at = '2026-11-21T10:00:00.000Z'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const platform = '11111111-2222-4333-8444-555555555555'
 * const created = transition(initialState, {
 *   type: 'CreatePayment', at, paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c',
 *   request: {
 *     externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *     chargeImmediately: true, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *     customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok',
 *     failedUrl: 'https://shop.example/failed', webhookSubscriptions: [], metaData: {},
 *     moneySplitList: [
 *       { connectedAccountID: seller, amount: 9000, isFee: false },
 *       { connectedAccountID: platform, amount: 1000, isFee: true }
 *     ]
 *   }
 * })
 * assert.ok(E.isRight(created))
 * const charged = transition(created.right[0], { type: 'CompletePaymentForm', at })
 * assert.ok(E.isRight(charged))
 * // before any refund: each account nets what it was allocated
 * const p0 = charged.right[0]
 * assert.ok(isPayment(p0))
 * assert.deepStrictEqual(settlement(p0).rows.map((r) => r.net), [9000, 1000])
 * // the seller's split goes from 9000 to 6000
 * const refunded = transition(p0, {
 *   type: 'RefundPartially', at,
 *   patch: {
 *     newGrossAmount: 7000,
 *     moneySplitPatch: [
 *       { splitID: 1, updateType: 'UpdateAmount', newAmount: 6000 },
 *       { splitID: 2, updateType: 'DoNothing' }
 *     ]
 *   }
 * })
 * assert.ok(E.isRight(refunded))
 * const p1 = refunded.right[0]
 * assert.ok(isPayment(p1))
 * const s = settlement(p1)
 * assert.deepStrictEqual(s.rows, [
 *   { connectedAccountID: seller, isFee: false, allocated: 9000, refunded: 3000, net: 6000 },
 *   { connectedAccountID: platform, isFee: true, allocated: 1000, refunded: 0, net: 1000 }
 * ])
 * assert.strictEqual(s.excessRefundedAmount, 0)
 */
export const settlement = (payment: Payment): Settlement => {
  // own fields only (docs/decisions.md, "Own properties only"): a payment a caller hands in
  const field = <K extends keyof Payment>(key: K): Payment[K] | undefined =>
    Object.hasOwn(payment, key) ? payment[key] : undefined
  // rows keyed by account (UUIDs compared without regard to case) and fee flag, in first-seen order
  const index = new Map<string, { -readonly [K in keyof SettlementRow]: SettlementRow[K] }>()
  const add = (connectedAccountID: string, isFee: boolean, allocated: number, refunded: number): void => {
    const key = `${isFee ? 'fee' : 'split'}:${connectedAccountID.toLowerCase()}`
    let row = index.get(key)
    if (row === undefined) index.set(key, (row = { connectedAccountID, isFee, allocated: 0, refunded: 0, net: 0 }))
    row.allocated += allocated
    row.refunded += refunded
  }
  const status = field('status')
  const moneySplits = field('moneySplits') ?? []
  if (status === 'Charged' || status === 'Refunded') {
    const current = new Map<number, number>()
    for (const s of moneySplits) current.set(s.splitID, s.amount)
    for (const a of field('allocation') ?? []) add(a.connectedAccountID, a.isFee, a.amount, a.amount - (current.get(a.splitID) ?? 0))
  } else {
    for (const s of moneySplits) add(s.connectedAccountID, s.isFee, s.amount, 0)
  }
  // a Map keeps its insertion order
  const rows = [...index.values()]
  for (const row of rows) row.net = row.allocated - row.refunded
  return { rows, excessRefundedAmount: field('excessRefundedAmount') ?? 0 }
}
