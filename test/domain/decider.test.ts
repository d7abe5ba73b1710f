/**
 * One test per rule of the interface (docs/rules.md), named after the rule, and the
 * guards and events of C2 and C5. Field rules of the create request are in codecs.test.ts,
 * split-patch rules in patches.test.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { decide } from '../../src/decide.js'
import { replay, transition } from '../../src/decider.js'
import { evolve } from '../../src/evolve.js'
import type { PaymentEvent } from '../../src/events.js'
import { initialState } from '../../src/payment.js'
import {
  adjust,
  at,
  cancel,
  cardRequest,
  charge,
  complete,
  create,
  createInvoice,
  errorOf,
  failForm,
  invoiceRequest,
  KID,
  PAYMENT_ID,
  patchOf,
  paymentAfter,
  refund,
  refundPartially,
  run,
  transfer
} from '../support/builders.js'

const types = (events: ReadonlyArray<PaymentEvent>): ReadonlyArray<string> => events.map((e) => e.type)

const immediateCard = () => create(cardRequest({ chargeImmediately: true }))

describe('I1: what the service does', () => {
  it('I1.1 a payment intent carries gross amount, currency, gateway, money splits and a customer reference', () => {
    const p = paymentAfter(create())
    expect(p).toMatchObject({
      grossAmount: 10000,
      currency: 'NOK',
      paymentGateway: 'creditcard',
      kind: 'card',
      customerExternalID: 'customer-42'
    })
    expect(p.moneySplits.map((s) => [s.splitID, s.amount, s.isFee])).toEqual([
      [1, 7000, false],
      [2, 2000, false],
      [3, 1000, true]
    ])
  })

  it('I1.2 a split can be marked as the platform fee', () => {
    const p = paymentAfter(create())
    expect(p.moneySplits.filter((s) => s.isFee).map((s) => s.amount)).toEqual([1000])
  })

  it('I1.3 the customer is created or updated inside the create request (CustomerUpserted)', () => {
    const customer = { name: 'Kari Nordmann', email: 'kari@example.no', mobilePrefix: '+47', mobile: '41234567', customerType: 'Individual' }
    const { state, events } = run(initialState, create(cardRequest({ customer })))
    expect(types(events)).toEqual(['PaymentCreated', 'CustomerUpserted'])
    expect(state.customer).toEqual(customer)
    const without = run(initialState, create())
    expect(types(without.events)).toEqual(['PaymentCreated'])
    expect('customer' in without.state).toBe(false)
  })

  it('I1.6 chargeImmediately has no effect on invoices', () => {
    for (const chargeImmediately of [true, false, undefined]) {
      const inv = paymentAfter(createInvoice(invoiceRequest({ chargeImmediately })))
      expect(errorOf(inv, complete()).code).toBe('FormNotUsedForInvoice')
      expect(errorOf(inv, charge()).code).toBe('ChargeNotAllowedForInvoice')
      const paid = run(inv, transfer(10000))
      expect(paid.state.status).toBe('Charged')
    }
  })

  it('I1.6 an invoice can only go from Initiated to Charged', () => {
    const inv = paymentAfter(createInvoice())
    expect(inv.status).toBe('Initiated')
    expect(errorOf(inv, complete()).code).toBe('FormNotUsedForInvoice')
    expect(errorOf(inv, failForm()).code).toBe('FormNotUsedForInvoice')
    expect(errorOf(inv, cancel()).code).toBe('InvoiceCannotBeCancelled')
    expect(run(inv, transfer(10000)).state.status).toBe('Charged')
  })

  it('I1.6 an invoice payment cannot be cancelled', () => {
    const inv = paymentAfter(createInvoice())
    expect(errorOf(inv, cancel()).code).toBe('InvoiceCannotBeCancelled')
    const partly = paymentAfter(createInvoice(), transfer(100))
    expect(errorOf(partly, cancel()).code).toBe('InvoiceCannotBeCancelled')
  })

  it('I1.7 amounts are integers in minor units: fractions, unsafe and negative amounts are rejected', () => {
    for (const bad of [100.5, -1, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Infinity, '100']) {
      const e = errorOf(initialState, create(cardRequest({ grossAmount: bad })))
      expect(e.code).toBe('ValidationFailed')
      expect(e.issues?.some((i) => i.path === 'grossAmount')).toBe(true)
    }
    const inv = paymentAfter(createInvoice())
    expect(errorOf(inv, transfer(0.5)).code).toBe('ValidationFailed')
    expect(errorOf(inv, transfer(0)).code).toBe('ValidationFailed')
  })
})

describe('I3: states and transitions', () => {
  it('(none) → Initiated on create, with a webhook-bearing PaymentCreated', () => {
    const { state, events } = run(initialState, create())
    expect(state.status).toBe('Initiated')
    expect(types(events)).toEqual(['PaymentCreated'])
    expect(state).toMatchObject({ chargedAmount: 0, refundedAmount: 0, excessRefundedAmount: 0, paidAmount: 0, version: 1 })
  })

  it('Initiated → Charged when the form is completed and chargeImmediately is true (skips Reserved)', () => {
    const { state, events } = run(paymentAfter(immediateCard()), complete())
    expect(state.status).toBe('Charged')
    expect(types(events)).toEqual(['PaymentCharged'])
    expect(state.chargedAmount).toBe(10000)
  })

  it('Initiated → Reserved when the form is completed and chargeImmediately is false', () => {
    const { state, events } = run(paymentAfter(create()), complete())
    expect(state.status).toBe('Reserved')
    expect(types(events)).toEqual(['PaymentReserved'])
    expect(state.chargedAmount).toBe(0)
  })

  it('Reserved → Charged by the charge command when chargeImmediately was false', () => {
    const { state, events } = run(paymentAfter(create(), complete()), charge())
    expect(state.status).toBe('Charged')
    expect(types(events)).toEqual(['PaymentCharged'])
    expect(state.chargedAmount).toBe(10000)
  })

  it('Initiated → Cancelled and Reserved → Cancelled for a card payment; the lifetime ends', () => {
    for (const p of [paymentAfter(create()), paymentAfter(create(), complete())]) {
      const { state, events } = run(p, cancel())
      expect(state.status).toBe('Cancelled')
      expect(types(events)).toEqual(['PaymentCancelled'])
      for (const c of [complete(3), charge(3), cancel(3), refund(3), transfer(1, KID, 3)]) {
        expect(E.isLeft(transition(state, c))).toBe(true)
      }
    }
  })

  it('Initiated (invoice) → Charged when the customer transfers the money using KID', () => {
    const { state, events } = run(paymentAfter(createInvoice()), transfer(10000))
    expect(state.status).toBe('Charged')
    expect(types(events)).toEqual(['InvoiceTransferReceived', 'PaymentCharged'])
    expect(state).toMatchObject({ paidAmount: 10000, chargedAmount: 10000, refundedAmount: 0 })
  })

  it('partial KID transfers add up; the invoice is Charged when they reach the gross, the excess refunded', () => {
    const part = run(paymentAfter(createInvoice()), transfer(4000))
    expect(part.state.status).toBe('Initiated')
    expect(types(part.events)).toEqual(['InvoiceTransferReceived'])
    const rest = run(part.state, transfer(7000, KID, 2))
    expect(rest.state).toMatchObject({
      status: 'Charged',
      paidAmount: 11000,
      chargedAmount: 11000,
      refundedAmount: 1000,
      excessRefundedAmount: 1000,
      grossAmount: 10000
    })
  })

  it('Adjust invoice: new amount ≤ amount paid → Charged, the excess already paid refunded', () => {
    const partly = paymentAfter(createInvoice(), transfer(6000))
    const { state, events } = run(partly, adjust(patchOf(partly, { 1: 3000, 2: 1000, 3: 1000 })))
    expect(types(events)).toEqual(['InvoiceAdjusted', 'PaymentCharged'])
    expect(state).toMatchObject({
      status: 'Charged',
      grossAmount: 5000,
      paidAmount: 6000,
      chargedAmount: 6000,
      refundedAmount: 1000,
      excessRefundedAmount: 1000
    })
    const adjusted = events[0]
    expect(adjusted?.type === 'InvoiceAdjusted' && adjusted.excessRefundedAmount).toBe(1000)
  })

  it('Adjust invoice: new amount equal to the amount paid → Charged with nothing refunded', () => {
    const partly = paymentAfter(createInvoice(), transfer(9000))
    const { state } = run(partly, adjust(patchOf(partly, { 2: 1000 })))
    expect(state).toMatchObject({ status: 'Charged', grossAmount: 9000, chargedAmount: 9000, refundedAmount: 0 })
  })

  it('Adjust invoice: new amount zero → Charged; if partly paid, the excess is refunded', () => {
    const unpaid = paymentAfter(createInvoice())
    const zero = run(unpaid, adjust(patchOf(unpaid, { 1: 'delete', 2: 'delete', 3: 0 })))
    expect(zero.state).toMatchObject({ status: 'Charged', grossAmount: 0, chargedAmount: 0, refundedAmount: 0 })
    const partly = paymentAfter(createInvoice(), transfer(2500))
    const zeroPaid = run(partly, adjust(patchOf(partly, { 1: 0, 2: 0, 3: 0 })))
    expect(zeroPaid.state).toMatchObject({ status: 'Charged', grossAmount: 0, chargedAmount: 2500, refundedAmount: 2500, excessRefundedAmount: 2500 })
  })

  it('Adjust invoice above the amount paid lowers the amount and stays Initiated', () => {
    const partly = paymentAfter(createInvoice(), transfer(1000))
    const { state, events } = run(partly, adjust(patchOf(partly, { 1: 5000 })))
    expect(types(events)).toEqual(['InvoiceAdjusted'])
    expect(state).toMatchObject({ status: 'Initiated', grossAmount: 8000, paidAmount: 1000 })
    expect(run(state, transfer(7000, KID, 3)).state.status).toBe('Charged')
  })

  it('Charged → Charged on a partial refund; the money goes back to the payer', () => {
    const p = paymentAfter(create(), complete(), charge())
    const { state, events } = run(p, refundPartially(patchOf(p, { 1: 5000, 3: 'delete' })))
    expect(types(events)).toEqual(['PaymentPartiallyRefunded'])
    expect(state).toMatchObject({ status: 'Charged', grossAmount: 7000, refundedAmount: 3000, chargedAmount: 10000 })
    expect(state.moneySplits.map((s) => [s.splitID, s.amount])).toEqual([
      [1, 5000],
      [2, 2000]
    ])
  })

  it('Charged → Refunded on a full refund: every split back to 0 and listed', () => {
    const p = paymentAfter(create(), complete(), charge())
    const { state, events } = run(p, refund())
    expect(types(events)).toEqual(['PaymentRefunded'])
    expect(state).toMatchObject({ status: 'Refunded', grossAmount: 0, refundedAmount: 10000, chargedAmount: 10000 })
    expect(state.moneySplits.map((s) => s.amount)).toEqual([0, 0, 0])
  })

  it('a partial refund to a gross of 0 ends Refunded, with PaymentPartiallyRefunded then PaymentRefunded', () => {
    const p = paymentAfter(immediateCard(), complete())
    const { state, events } = run(p, refundPartially(patchOf(p, { 1: 0, 2: 'delete', 3: 0 })))
    expect(types(events)).toEqual(['PaymentPartiallyRefunded', 'PaymentRefunded'])
    expect(state).toMatchObject({ status: 'Refunded', grossAmount: 0, refundedAmount: 10000 })
  })

  it('rule 1: cancel is allowed only in Initiated or Reserved', () => {
    expect(errorOf(paymentAfter(immediateCard(), complete()), cancel()).code).toBe('CancelNotAllowedInStatus')
    expect(errorOf(paymentAfter(create(), complete(), charge(), refund(4)), cancel(5)).code).toBe('CancelNotAllowedInStatus')
    expect(errorOf(paymentAfter(create(), cancel()), cancel(3)).code).toBe('CancelNotAllowedInStatus')
  })

  it('rule 2: refunds, partial and full, are allowed only in Charged', () => {
    const notCharged = [paymentAfter(create()), paymentAfter(create(), complete()), paymentAfter(create(), cancel())]
    for (const p of notCharged) {
      expect(errorOf(p, refund()).code).toBe('RefundNotAllowedInStatus')
      expect(errorOf(p, refundPartially(patchOf(p, { 1: 0 }))).code).toBe('RefundNotAllowedInStatus')
    }
    const inv = paymentAfter(createInvoice(), transfer(100))
    expect(errorOf(inv, refund()).code).toBe('RefundNotAllowedInStatus')
  })

  it('rule 3: charge is available only when chargeImmediately is false', () => {
    expect(errorOf(paymentAfter(immediateCard()), charge()).code).toBe('ChargeNotAllowedForImmediateCharge')
    expect(errorOf(paymentAfter(immediateCard(), complete()), charge()).code).toBe('ChargeNotAllowedForImmediateCharge')
    expect(errorOf(paymentAfter(create()), charge()).code).toBe('ChargeNotAllowedInStatus')
  })

  it('rule 4: an invoice payment cannot be cancelled', () => {
    expect(errorOf(paymentAfter(createInvoice()), cancel()).code).toBe('InvoiceCannotBeCancelled')
  })
})

describe('I4: endpoint rules', () => {
  it('rule 1: the outcome of cancel, charge and full refund is the Either (its error code fixes the HTTP status), not a success field', () => {
    const ok = transition(paymentAfter(create()), cancel())
    const refused = transition(paymentAfter(createInvoice()), cancel())
    expect(E.isRight(ok)).toBe(true)
    expect(E.isLeft(refused) && refused.left.code).toBe('InvoiceCannotBeCancelled')
  })

  it('rule 2: create: grossAmount must equal the sum of the split amounts', () => {
    const e = errorOf(initialState, create(cardRequest({ grossAmount: 9999 })))
    expect(e.code).toBe('GrossAmountMismatch')
    expect(e.issues?.map((i) => i.path)).toEqual(['grossAmount'])
  })

  it('rule 3: a partial refund works like adjusting an invoice, but on a Charged payment', () => {
    const card = paymentAfter(create(), complete(), charge())
    const inv = paymentAfter(createInvoice())
    const cardPatch = patchOf(card, { 2: 500 })
    const invPatch = patchOf(inv, { 2: 500 })
    expect(cardPatch).toEqual(invPatch)
    const refunded = run(card, refundPartially(cardPatch)).events[0]
    const adjusted = run(inv, adjust(invPatch)).events[0]
    expect(refunded?.type === 'PaymentPartiallyRefunded' && refunded.splitList).toEqual(
      adjusted?.type === 'InvoiceAdjusted' && adjusted.splitList
    )
    expect(refunded?.type === 'PaymentPartiallyRefunded' && refunded.refundedSplit).toEqual([
      { refundAmount: 1500, connectedAccountID: card.moneySplits[1]?.connectedAccountID, description: 'Venue share', isFee: false }
    ])
    expect(adjusted?.type === 'InvoiceAdjusted' && adjusted.adjustedSplit).toEqual([
      { adjustedAmount: 1500, connectedAccountID: card.moneySplits[1]?.connectedAccountID, description: 'Venue share', isFee: false }
    ])
    expect(errorOf(card, adjust(cardPatch)).code).toBe('NotAnInvoice')
    expect(errorOf(inv, refundPartially(invPatch)).code).toBe('RefundNotAllowedInStatus')
  })

  it('rule 4: every successful operation that changes status emits exactly one status event', () => {
    const statusEvents = new Set(['PaymentCreated', 'PaymentReserved', 'PaymentCharged', 'PaymentCancelled', 'PaymentRefunded'])
    const steps = [
      [initialState, create()],
      [paymentAfter(create()), complete()],
      [paymentAfter(create(), complete()), charge()],
      [paymentAfter(create()), cancel()],
      [paymentAfter(create(), complete(), charge()), refund()],
      [paymentAfter(createInvoice()), transfer(10000)]
    ] as const
    for (const [s, c] of steps) {
      const r = transition(s, c)
      if (E.isLeft(r)) throw new Error(r.left.message)
      expect(r.right[1].filter((e) => statusEvents.has(e.type))).toHaveLength(1)
    }
  })
})

describe('I7 item 2: conditions that must be rejected', () => {
  it('cancelling an invoice payment', () => {
    expect(errorOf(paymentAfter(createInvoice()), cancel()).code).toBe('InvoiceCannotBeCancelled')
  })
  it('cancelling outside Initiated or Reserved', () => {
    expect(errorOf(paymentAfter(create(), complete(), charge()), cancel(3)).code).toBe('CancelNotAllowedInStatus')
  })
  it('refunding a payment that is not Charged', () => {
    expect(errorOf(paymentAfter(create(), complete()), refund()).code).toBe('RefundNotAllowedInStatus')
  })
  it('charging when chargeImmediately is true', () => {
    expect(errorOf(paymentAfter(immediateCard()), charge()).code).toBe('ChargeNotAllowedForImmediateCharge')
  })
  it('a grossAmount that differs from the sum of split amounts', () => {
    expect(errorOf(initialState, create(cardRequest({ grossAmount: 10001 }))).code).toBe('GrossAmountMismatch')
  })
  it('a newGrossAmount that differs from the sum of split amounts', () => {
    const p = paymentAfter(create(), complete(), charge())
    const patch = patchOf(p, { 1: 6000 })
    expect(errorOf(p, refundPartially({ ...patch, newGrossAmount: patch.newGrossAmount + 1 })).code).toBe('GrossAmountMismatch')
  })
  it('a missing customerExternalID', () => {
    for (const v of [undefined, null, '']) {
      const e = errorOf(initialState, create(cardRequest({ customerExternalID: v })))
      expect(e.code).toBe('MissingCustomerExternalID')
      expect(e.issues?.[0]?.path).toBe('customerExternalID')
    }
  })
})

describe('C2: order of checks and the remaining guards', () => {
  it('the envelope comes first: an unknown type or a bad at is ValidationFailed, even with no payment', () => {
    expect(errorOf(initialState, { type: 'Teleport', at: at(1) }).issues?.[0]?.path).toBe('type')
    expect(errorOf(initialState, { type: 'ChargePayment', at: '2026-11-21 10:00' }).issues?.[0]?.path).toBe('at')
    expect(errorOf(initialState, { type: 'ChargePayment', at: '2026-02-30T10:00:00.000Z' }).code).toBe('ValidationFailed')
  })

  it('existence second: a second create is PaymentAlreadyExists, any other command on nothing PaymentNotFound', () => {
    expect(errorOf(paymentAfter(create()), create(cardRequest({ grossAmount: -5 }))).code).toBe('PaymentAlreadyExists')
    for (const c of [complete(), charge(), cancel(), refund(), transfer(1)]) {
      expect(errorOf(initialState, c).code).toBe('PaymentNotFound')
    }
  })

  it('guards before fields: a wrong-status refund with a broken patch is RefundNotAllowedInStatus', () => {
    expect(errorOf(paymentAfter(create()), { type: 'RefundPartially', at: at(2), patch: 'garbage' }).code).toBe(
      'RefundNotAllowedInStatus'
    )
  })

  it('guard order for charge: invoice, then chargeImmediately, then status', () => {
    expect(errorOf(paymentAfter(createInvoice(invoiceRequest({ chargeImmediately: true }))), charge()).code).toBe(
      'ChargeNotAllowedForInvoice'
    )
    expect(errorOf(paymentAfter(immediateCard(), complete()), charge()).code).toBe('ChargeNotAllowedForImmediateCharge')
    expect(errorOf(paymentAfter(create(), complete(), charge()), charge(3)).code).toBe('ChargeNotAllowedInStatus')
  })

  it('the payment form: not for invoices, only in Initiated; a failed attempt is recorded and the payment stays Initiated', () => {
    expect(errorOf(paymentAfter(create(), complete()), complete(2)).code).toBe('FormNotAllowedInStatus')
    expect(errorOf(paymentAfter(create(), complete()), failForm(2)).code).toBe('FormNotAllowedInStatus')
    const { state, events } = run(paymentAfter(create()), failForm(1, 'card declined'), failForm(2))
    expect(types(events)).toEqual(['PaymentFormFailed', 'PaymentFormFailed'])
    expect(state.status).toBe('Initiated')
    expect(state.formAttempts).toEqual([{ at: at(1), reason: 'card declined' }, { at: at(2) }])
    expect(errorOf(paymentAfter(create()), { type: 'FailPaymentForm', at: at(1), reason: 42 }).code).toBe('ValidationFailed')
  })

  it('full refund of a payment refunded down to 0 by patches is impossible: it is already Refunded', () => {
    const p = paymentAfter(immediateCard(), complete())
    const empty = run(p, refundPartially(patchOf(p, { 1: 0, 2: 0, 3: 0 }))).state
    expect(errorOf(empty, refund(4)).code).toBe('RefundNotAllowedInStatus')
  })

  it('NothingToRefund: a Charged invoice adjusted to 0 has nothing to refund', () => {
    const unpaid = paymentAfter(createInvoice())
    const zero = run(unpaid, adjust(patchOf(unpaid, { 1: 0, 2: 0, 3: 0 }))).state
    expect(zero.status).toBe('Charged')
    expect(errorOf(zero, refund()).code).toBe('NothingToRefund')
  })

  it('adjust: only invoices, only in Initiated', () => {
    const card = paymentAfter(create())
    expect(errorOf(card, adjust(patchOf(card, { 1: 1 }))).code).toBe('NotAnInvoice')
    const paid = paymentAfter(createInvoice(), transfer(10000))
    expect(errorOf(paid, adjust(patchOf(paid, { 1: 1 }))).code).toBe('AdjustNotAllowedInStatus')
  })

  it('transfer: only invoices, only in Initiated, amount then KID', () => {
    expect(errorOf(paymentAfter(create()), transfer(100)).code).toBe('NotAnInvoice')
    expect(errorOf(paymentAfter(createInvoice(), transfer(10000)), transfer(1, KID, 2)).code).toBe('TransferNotAllowedInStatus')
    const inv = paymentAfter(createInvoice())
    expect(errorOf(inv, transfer(-1, '000')).code).toBe('ValidationFailed')
    expect(errorOf(inv, transfer(100, '12345682')).code).toBe('KidMismatch')
    expect(errorOf(inv, { type: 'ReceiveInvoiceTransfer', at: at(1), amount: 100 }).code).toBe('ValidationFailed')
  })

  it('an invoice needs a valid KID on the create command; a card ignores one', () => {
    expect(errorOf(initialState, create(invoiceRequest())).issues?.map((i) => i.path)).toEqual(['kid'])
    expect(errorOf(initialState, create(invoiceRequest(), { kid: '12345675' })).code).toBe('ValidationFailed')
    expect(paymentAfter(createInvoice()).kid).toBe(KID)
    expect('kid' in paymentAfter(create(cardRequest(), { kid: KID }))).toBe(false)
  })

  it('the create command: paymentReferenceID must be a UUID; every problem is collected', () => {
    const e = errorOf(initialState, create(cardRequest({ currency: 'nok', grossAmount: 1 }), { paymentReferenceID: 'x' }))
    expect(e.code).toBe('ValidationFailed')
    expect(e.issues?.map((i) => i.path).sort()).toEqual(['currency', 'paymentReferenceID', 'grossAmount'].sort())
  })
})

describe('C2: the Payment after create', () => {
  it('holds every field the contract names, the request’s optional ones only when given, splitIDs 1..n in request order', () => {
    const p = paymentAfter(create())
    expect(p).toMatchObject({
      paymentReferenceID: PAYMENT_ID,
      externalPaymentReferenceID: 'order-1001',
      environment: 'test',
      paymentGateway: 'creditcard',
      kind: 'card',
      chargeImmediately: false,
      description: 'Two concert tickets',
      webhookSubscriptions: [],
      metaData: {},
      formAttempts: [],
      createdAt: at(0),
      updatedAt: at(0),
      version: 1
    })
    expect('externalObjectIdTag' in p).toBe(false)
    expect(p.moneySplits[0]).toEqual({
      splitID: 1,
      paymentReferenceID: PAYMENT_ID,
      connectedAccountID: p.moneySplits[0]?.connectedAccountID,
      amount: 7000,
      description: 'Tickets',
      insertTime: at(0),
      externalID: 'item-1',
      isFee: false
    })
    expect('externalID' in (p.moneySplits[1] ?? {})).toBe(false)
  })

  it('version counts the events applied; updatedAt is the last event’s at', () => {
    const p = paymentAfter(create(), complete(1), charge(2), refund(3))
    expect(p.version).toBe(4)
    expect(p.updatedAt).toBe(at(3))
  })
})

describe('the decider laws on examples', () => {
  it('transition = decide + fold evolve; replay(events) = the final state', () => {
    const commands = [create(), complete(), charge()]
    let s = initialState
    const all: Array<PaymentEvent> = []
    for (const c of commands) {
      const d = decide(s, c)
      const t = transition(s, c)
      if (E.isLeft(d) || E.isLeft(t)) throw new Error('refused')
      expect(t.right[1]).toEqual(d.right)
      expect(t.right[0]).toEqual(d.right.reduce(evolve, s))
      s = t.right[0]
      all.push(...d.right)
    }
    expect(replay(all)).toEqual(s)
  })

  it('the new state is deep-frozen and the input state is left as it was', () => {
    const before = paymentAfter(create())
    const copy = structuredClone(before)
    const after = run(before, complete()).state
    expect(before).toEqual(copy)
    expect(Object.isFrozen(after)).toBe(true)
    expect(Object.isFrozen(after.moneySplits)).toBe(true)
    expect(Object.isFrozen(after.moneySplits[0])).toBe(true)
  })

  it('a state loaded from storage (plain JSON) is accepted after validation', () => {
    const stored = JSON.parse(JSON.stringify(paymentAfter(create(), complete()))) as unknown
    const r = transition(stored as Parameters<typeof transition>[0], charge())
    expect(E.isRight(r) && r.right[0].status).toBe('Charged')
  })

  it('garbage instead of a state is ValidationFailed, never an exception', () => {
    for (const garbage of [null, undefined, 42, 'Charged', [], {}, { status: 'Charged' }]) {
      expect(errorOf(garbage as never, charge()).code).toBe('ValidationFailed')
    }
  })

  it('a hostile command (throwing getter, revoked proxy) is ValidationFailed, never an exception', () => {
    const getter = Object.defineProperty({ at: at(1) }, 'type', {
      enumerable: true,
      get() {
        throw new Error('boom')
      }
    })
    expect(errorOf(paymentAfter(create()), getter).code).toBe('ValidationFailed')
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(errorOf(paymentAfter(create()), proxy).code).toBe('ValidationFailed')
    expect(errorOf(proxy as never, charge()).code).toBe('ValidationFailed')
  })

  it('only the states transition made are trusted: a copy, a frozen forgery or a proxy of one is validated', () => {
    const reserved = paymentAfter(create(), complete())
    // a valid spread copy is validated and accepted
    const copied = transition({ ...reserved }, charge())
    expect(E.isRight(copied) && copied.right[0].status).toBe('Charged')
    // a frozen copy with a broken invariant is not mistaken for a trusted state
    const forged = Object.freeze({ ...reserved, grossAmount: reserved.grossAmount + 1 })
    expect(errorOf(forged, charge()).code).toBe('ValidationFailed')
    const cloned = structuredClone(reserved)
    expect(E.isRight(transition(cloned, charge()))).toBe(true)
    // a proxy over the (frozen) trusted state that lies about a field is caught, not trusted
    const lying = new Proxy(reserved, {
      get: (target, key, receiver): unknown => (key === 'grossAmount' ? 1 : Reflect.get(target, key, receiver))
    })
    expect(errorOf(lying, charge()).code).toBe('ValidationFailed')
    // an honest proxy is validated like any foreign state, and accepted
    const honest = transition(new Proxy(reserved, {}), charge())
    expect(E.isRight(honest) && honest.right[0].status).toBe('Charged')
  })
})
