/**
 * Branches of src/http/responses.ts that the other tests left uncovered (measured with
 * `npm run test:coverage`): `handle` always gives `successResponse` the event of the command, so
 * these are reached by calling the exported functions by hand, as an integrator may.
 */
import { describe, expect, it } from 'vitest'
import type { PaymentEvent } from '../../src/events.js'
import { httpStatusOf, successResponse } from '../../src/http/responses.js'
import { cardPayment, charge, invoicePayment } from '../support/fixtures.js'

describe('responses: the remaining branches', () => {
  it('httpStatusOf of a value that is not an object is 500', () => {
    expect(httpStatusOf(null as never)).toBe(500)
    expect(httpStatusOf('PaymentNotFound' as never)).toBe(500)
    expect(httpStatusOf(undefined as never)).toBe(500)
  })

  it('successResponse of a partial refund without its PaymentPartiallyRefunded event shows the payment as it is and 0 refunded', () => {
    const p = charge(cardPayment())
    const other: PaymentEvent = {
      type: 'PaymentCharged',
      at: p.updatedAt,
      paymentReferenceID: p.paymentReferenceID,
      chargedAmount: p.grossAmount,
      excessRefundedAmount: 0
    }
    const r = successResponse({ name: 'refundPartially', paymentReferenceID: p.paymentReferenceID }, p, [other])
    expect(r.status).toBe(200)
    const body = r.body as { splitList: ReadonlyArray<{ splitID: number }>; refundedSplit: ReadonlyArray<unknown>; message: string }
    expect(body.splitList.map((s) => s.splitID)).toEqual(p.moneySplits.map((s) => s.splitID))
    expect(body.refundedSplit).toEqual([])
    expect(body.message).toBe(`0 was refunded; ${String(p.grossAmount)} remains charged.`)
  })

  it('successResponse of an adjustment without its InvoiceAdjusted event shows the invoice as it is and no excess', () => {
    const p = invoicePayment()
    const r = successResponse({ name: 'adjustInvoice', paymentReferenceID: p.paymentReferenceID }, p, [])
    expect(r.status).toBe(200)
    const body = r.body as { splitList: ReadonlyArray<unknown>; adjustedSplit: ReadonlyArray<unknown>; excessRefundedAmount: number; message: string }
    expect(body.splitList).toHaveLength(p.moneySplits.length)
    expect(body.adjustedSplit).toEqual([])
    expect(body.excessRefundedAmount).toBe(0)
    expect(body.message).toBe(`The invoice now amounts to ${String(p.grossAmount)}; ${String(p.grossAmount)} remains to be paid.`)
  })
})
