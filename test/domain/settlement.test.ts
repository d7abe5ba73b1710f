import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/payment.js'
import { settlement } from '../../src/settlement.js'
import { cardPayment, changeSplits, charge, ids, invoicePayment, refundAll, withSplits, type SplitChange } from '../support/fixtures.js'

const row = (connectedAccountID: string, isFee: boolean, allocated: number, refunded = 0) => ({
  connectedAccountID,
  isFee,
  allocated,
  refunded,
  net: allocated - refunded
})

describe('settlement before the charge: the plan', () => {
  it('an Initiated payment: one row per account of a current split, planned amounts, nothing refunded', () => {
    expect(settlement(cardPayment())).toEqual({
      rows: [row(ids.seller, false, 7000), row(ids.partner, false, 2000), row(ids.platform, true, 1000)],
      excessRefundedAmount: 0
    })
  })

  it('sums the splits of one account into one row, in the order of the first splitID where it appears', () => {
    const p = withSplits(cardPayment(), [
      { connectedAccountID: ids.partner, amount: 100, isFee: false },
      { connectedAccountID: ids.platform, amount: 10, isFee: true },
      { connectedAccountID: ids.seller, amount: 200, isFee: false },
      { connectedAccountID: ids.partner, amount: 300, isFee: false },
      { connectedAccountID: ids.platform, amount: 20, isFee: true }
    ])
    expect(settlement(p).rows).toEqual([
      row(ids.partner, false, 400),
      row(ids.platform, true, 30),
      row(ids.seller, false, 200)
    ])
  })

  it('an account holding fee and non-fee splits gets two rows, fees apart', () => {
    const p = withSplits(cardPayment(), [
      { connectedAccountID: ids.platform, amount: 500, isFee: false },
      { connectedAccountID: ids.seller, amount: 9000, isFee: false },
      { connectedAccountID: ids.platform, amount: 500, isFee: true }
    ])
    expect(settlement(p).rows).toEqual([
      row(ids.platform, false, 500),
      row(ids.seller, false, 9000),
      row(ids.platform, true, 500)
    ])
  })

  it('compares account UUIDs without regard to case, reporting the first spelling', () => {
    const p = withSplits(cardPayment(), [
      { connectedAccountID: ids.partner.toUpperCase(), amount: 100, isFee: false },
      { connectedAccountID: ids.partner, amount: 200, isFee: false }
    ])
    expect(settlement(p).rows).toEqual([row(ids.partner.toUpperCase(), false, 300)])
  })

  it('keeps zero-amount splits as rows of 0', () => {
    const p = withSplits(cardPayment(), [
      { connectedAccountID: ids.seller, amount: 100, isFee: false },
      { connectedAccountID: ids.platform, amount: 0, isFee: true }
    ])
    expect(settlement(p).rows).toEqual([row(ids.seller, false, 100), row(ids.platform, true, 0)])
  })

  it('a Reserved or Cancelled card payment still shows the plan', () => {
    for (const status of ['Reserved', 'Cancelled'] as const) {
      const p = cardPayment({ status, chargeImmediately: false })
      expect(settlement(p).rows.map((r) => r.net)).toEqual([7000, 2000, 1000])
    }
  })

  it('an invoice adjusted but not yet paid shows its current splits', () => {
    const p = changeSplits(invoicePayment({ paidAmount: 1000 }), new Map([[1, 3000]]))
    expect(settlement(p)).toEqual({
      rows: [row(ids.seller, false, 3000), row(ids.platform, true, 500)],
      excessRefundedAmount: 0
    })
  })
})

describe('settlement once charged: the allocation less refunds', () => {
  const charged = (): Payment => charge(cardPayment())

  it('a Charged payment without refunds: allocated = net', () => {
    expect(settlement(charged()).rows).toEqual([
      row(ids.seller, false, 7000),
      row(ids.partner, false, 2000),
      row(ids.platform, true, 1000)
    ])
  })

  it('a partial refund shows what was returned from each account', () => {
    const p = changeSplits(charged(), new Map([[1, 4000], [3, 900]]))
    expect(settlement(p).rows).toEqual([
      row(ids.seller, false, 7000, 3000),
      row(ids.partner, false, 2000, 0),
      row(ids.platform, true, 1000, 100)
    ])
  })

  it('a deleted split counts its whole allocation as refunded, and its account stays listed', () => {
    const p = changeSplits(charged(), new Map([[2, 'delete']]))
    expect(settlement(p).rows).toEqual([
      row(ids.seller, false, 7000),
      row(ids.partner, false, 2000, 2000),
      row(ids.platform, true, 1000)
    ])
  })

  it('a full refund returns everything: every net is 0', () => {
    const p = refundAll(changeSplits(charged(), new Map([[1, 5000]])))
    const s = settlement(p)
    expect(s.rows).toEqual([
      row(ids.seller, false, 7000, 7000),
      row(ids.partner, false, 2000, 2000),
      row(ids.platform, true, 1000, 1000)
    ])
    expect(s.rows.reduce((n, r) => n + r.net, 0)).toBe(p.grossAmount)
  })

  it('an overpaid invoice: the excess belongs to no account', () => {
    const p = charge(invoicePayment({ paidAmount: 5700 }))
    expect(settlement(p)).toEqual({
      rows: [row(ids.seller, false, 4500), row(ids.platform, true, 500)],
      excessRefundedAmount: 700
    })
  })

  it('an invoice adjusted below what was paid: allocated is what the splits held at the charge', () => {
    const adjusted = changeSplits(invoicePayment({ paidAmount: 4000 }), new Map([[1, 3000]]))
    const p = charge(adjusted)
    expect(p.excessRefundedAmount).toBe(500)
    const s = settlement(p)
    expect(s.rows).toEqual([row(ids.seller, false, 3000), row(ids.platform, true, 500)])
    expect(s.excessRefundedAmount).toBe(500)
    expect(s.rows.reduce((n, r) => n + r.allocated, 0)).toBe(p.chargedAmount - p.excessRefundedAmount)
  })

  it('an invoice adjusted to 0 by deleting every split has no rows', () => {
    const p = charge(changeSplits(invoicePayment({ paidAmount: 1200 }), new Map([[1, 'delete'], [2, 'delete']])))
    expect(settlement(p)).toEqual({ rows: [], excessRefundedAmount: 1200 })
  })

  it('an account appears once per role even after its splits are all deleted', () => {
    const p = changeSplits(
      charge(
        withSplits(cardPayment(), [
          { connectedAccountID: ids.partner, amount: 100, isFee: false },
          { connectedAccountID: ids.seller, amount: 200, isFee: false },
          { connectedAccountID: ids.partner, amount: 300, isFee: false }
        ])
      ),
      new Map<number, SplitChange>([[1, 'delete'], [3, 50]])
    )
    expect(settlement(p).rows).toEqual([row(ids.partner, false, 400, 350), row(ids.seller, false, 200)])
  })

  it('returns fresh rows, and changes nothing in the payment', () => {
    const p = changeSplits(charged(), new Map([[1, 4000]]))
    const before = JSON.stringify(p)
    const a = settlement(p)
    const b = settlement(p)
    expect(a).toEqual(b)
    expect(a.rows).not.toBe(b.rows)
    expect(JSON.stringify(p)).toBe(before)
  })
})
