/**
 * The decider's transition table (C2) written with the given/when/then harness that
 * `paysplit/testing` ships: given the events so far, when a command arrives, then these events
 * (or this error). One test per row and guard, named after the rule.
 */
import { describe, expect, it } from 'vitest'
import type { PaymentEvent } from '../../src/events.js'
import { initialState } from '../../src/payment.js'
import { decideWith, given } from '../../src/testing.js'
import * as E from 'fp-ts/lib/Either.js'
import {
  adjust,
  at,
  cancel,
  charge,
  complete,
  create,
  createInvoice,
  cardRequest,
  failForm,
  KID,
  patchOf,
  PAYMENT_ID,
  refund,
  refundPartially,
  run,
  transfer
} from '../support/builders.js'

/** The events of a history, built by running the commands (the builders throw on a refusal). */
const history = (...commands: Parameters<typeof run>[1][]): ReadonlyArray<PaymentEvent> => run(initialState, ...commands).events

const created = history(create())
const immediate = history(create(cardRequest({ chargeImmediately: true })))
const reserved = history(create(), complete())
const charged = history(create(), complete(), charge())
const refunded = history(create(), complete(), charge(), refund(4))
const cancelled = history(create(), cancel())
const invoice = history(createInvoice())
const paidInvoice = history(createInvoice(), transfer(10000))

describe('given/when/then: the transition table', () => {
  it('CreatePayment on nothing → PaymentCreated; on a payment → PaymentAlreadyExists', () => {
    given([]).when(create()).then((events) => { expect(events.map((e) => e.type)).toEqual(['PaymentCreated']); })
    given(created).when(create()).thenFails('PaymentAlreadyExists')
  })

  it('any other command on nothing → PaymentNotFound', () => {
    for (const c of [complete(), charge(), cancel(), refund(), transfer(100)]) given([]).when(c).thenFails('PaymentNotFound')
  })

  it('CompletePaymentForm: Initiated → Reserved (chargeImmediately false) or Charged (true)', () => {
    given(created).when(complete()).then([{ type: 'PaymentReserved', at: at(1), paymentReferenceID: PAYMENT_ID }])
    given(immediate).when(complete()).then([{ type: 'PaymentCharged', at: at(1), paymentReferenceID: PAYMENT_ID, chargedAmount: 10000, excessRefundedAmount: 0 }])
  })

  it('CompletePaymentForm guards: invoice → FormNotUsedForInvoice; not Initiated → FormNotAllowedInStatus', () => {
    given(invoice).when(complete()).thenFails('FormNotUsedForInvoice')
    given(reserved).when(complete(2)).thenFails('FormNotAllowedInStatus')
  })

  it('FailPaymentForm: stays Initiated, the attempt recorded', () => {
    given(created).when(failForm(1, 'card declined')).then([{ type: 'PaymentFormFailed', at: at(1), paymentReferenceID: PAYMENT_ID, reason: 'card declined' }])
    given(created)
      .when(failForm(1, 'card declined'))
      .thenState((s) => { expect(s).toMatchObject({ status: 'Initiated', formAttempts: [{ at: at(1), reason: 'card declined' }] }); })
    given(invoice).when(failForm()).thenFails('FormNotUsedForInvoice')
  })

  it('ChargePayment guards in order: invoice, chargeImmediately, status', () => {
    given(invoice).when(charge()).thenFails('ChargeNotAllowedForInvoice')
    given(immediate).when(charge()).thenFails('ChargeNotAllowedForImmediateCharge')
    given(created).when(charge()).thenFails('ChargeNotAllowedInStatus')
    given(reserved).when(charge()).thenState({ status: 'Charged', chargedAmount: 10000 })
  })

  it('CancelPayment: Initiated or Reserved card → Cancelled; invoice and other statuses refused', () => {
    given(created).when(cancel()).then([{ type: 'PaymentCancelled', at: at(2), paymentReferenceID: PAYMENT_ID }])
    given(reserved).when(cancel()).thenState({ status: 'Cancelled' })
    given(invoice).when(cancel()).thenFails('InvoiceCannotBeCancelled')
    given(charged).when(cancel(3)).thenFails('CancelNotAllowedInStatus')
    given(cancelled).when(cancel(3)).thenFails('CancelNotAllowedInStatus')
  })

  it('RefundPayment: Charged → Refunded with every split at 0; not Charged → RefundNotAllowedInStatus', () => {
    given(charged).when(refund()).thenState((s) => {
      expect(s).toMatchObject({ status: 'Refunded', grossAmount: 0, refundedAmount: 10000 })
      expect(s.status !== 'NoPayment' && s.moneySplits.map((m) => m.amount)).toEqual([0, 0, 0])
    })
    given(reserved).when(refund()).thenFails('RefundNotAllowedInStatus')
    given(refunded).when(refund(5)).thenFails('RefundNotAllowedInStatus')
  })

  it('RefundPartially: the patch rules, in order, after the status guard', () => {
    const p = run(initialState, create(), complete(), charge()).state
    given(charged).when(refundPartially(patchOf(p, { 1: 5000 }))).thenState({ status: 'Charged', grossAmount: 8000, refundedAmount: 2000 })
    given(created).when(refundPartially(patchOf(p, { 1: 5000 }))).thenFails('RefundNotAllowedInStatus')
    given(charged).when(refundPartially({ moneySplitPatch: [], newGrossAmount: 0 })).thenFails('PatchSplitMismatch', { missing: [1, 2, 3], unknown: [], repeated: [] })
    given(charged).when(refundPartially(patchOf(p, { 1: 8000 }))).thenFails('SplitAmountIncrease')
    given(charged).when(refundPartially({ ...patchOf(p, { 1: 5000 }), newGrossAmount: 1 })).thenFails('GrossAmountMismatch')
    given(charged).when(refundPartially(patchOf(p, {}))).thenFails('NothingToChange')
  })

  it('AdjustInvoice: cards refused; only in Initiated; ≤ paid → Charged with the excess refunded', () => {
    const inv = run(initialState, createInvoice(), transfer(6000)).state
    given(history(createInvoice(), transfer(6000)))
      .when(adjust(patchOf(inv, { 1: 3000 })))
      .then((events) => { expect(events.map((e) => e.type)).toEqual(['InvoiceAdjusted', 'PaymentCharged']); })
    given(created).when(adjust(patchOf(inv, { 1: 3000 }))).thenFails('NotAnInvoice')
    given(paidInvoice).when(adjust(patchOf(inv, { 1: 3000 }), 3)).thenFails('AdjustNotAllowedInStatus')
  })

  it('ReceiveInvoiceTransfer: cards refused; only Initiated; the KID must match', () => {
    given(invoice).when(transfer(4000)).thenState({ status: 'Initiated', paidAmount: 4000 })
    given(invoice).when(transfer(12000)).thenState({ status: 'Charged', chargedAmount: 12000, refundedAmount: 2000, excessRefundedAmount: 2000 })
    given(created).when(transfer(100)).thenFails('NotAnInvoice')
    given(paidInvoice).when(transfer(100, KID, 2)).thenFails('TransferNotAllowedInStatus')
    given(invoice).when(transfer(100, '0000000000')).thenFails('KidMismatch')
  })

  it('garbage commands are ValidationFailed, whatever the history', () => {
    given([]).when({ type: 'Nope', at: at(0) } as never).thenFails('ValidationFailed')
    given(charged).when({ type: 'RefundPayment', at: 'yesterday' } as never).thenFails('ValidationFailed')
  })
})

describe('the harness itself: readable failures', () => {
  const failureOf = (f: () => unknown): Error & { expected?: unknown; actual?: unknown } => {
    try {
      f()
    } catch (e) {
      return e as Error
    }
    throw new Error('expected the assertion to fail')
  }

  it('then on a refused command names the history, the command and the error', () => {
    const e = failureOf(() => given(invoice).when(cancel()).then([]))
    expect(e.name).toBe('AssertionError')
    expect(e.message).toContain('given PaymentCreated')
    expect(e.message).toContain('"type": "CancelPayment"')
    expect(e.message).toContain('but it was refused')
    expect(e.message).toContain('InvoiceCannotBeCancelled')
  })

  it('then with other events shows both lists, with expected/actual for the runner’s diff', () => {
    const e = failureOf(() => given(created).when(cancel()).then([{ type: 'PaymentCancelled', at: at(9), paymentReferenceID: PAYMENT_ID }]))
    expect(e.message).toContain('then PaymentCancelled')
    expect(e.message).toContain('but got PaymentCancelled')
    expect(e.actual).toEqual([{ type: 'PaymentCancelled', at: at(2), paymentReferenceID: PAYMENT_ID }])
  })

  it('thenFails on an accepted command, on another code, and on other fields', () => {
    expect(failureOf(() => given(created).when(cancel()).thenFails('CancelNotAllowedInStatus')).message).toContain('but it was accepted: PaymentCancelled')
    expect(failureOf(() => given(invoice).when(cancel()).thenFails('CancelNotAllowedInStatus')).message).toContain('but it failed with InvoiceCannotBeCancelled')
    expect(failureOf(() => given([]).when(cancel()).thenFails('PaymentNotFound', { message: 'x' })).message).toContain('but the error is')
  })

  it('thenState on a mismatch shows the fields asked for', () => {
    const e = failureOf(() => given(created).when(cancel()).thenState({ status: 'Charged' }))
    expect(e.message).toContain('then the state has')
    expect(e.expected).toEqual({ status: 'Charged' })
    expect(e.actual).toEqual({ status: 'Cancelled' })
  })

  it('a decider that throws is reported, not propagated raw', () => {
    const throwing = decideWith<string, number, number, { code: string }>({
      initialState: 0,
      decide: () => {
        throw new Error('boom')
      },
      evolve: (s, e) => s + e
    })
    expect(failureOf(() => throwing([1]).when('x').then([])).message).toContain('but the decider threw: Error: boom')
    expect(failureOf(() => throwing([1]).when('x').thenFails('Nope')).message).toContain('but the decider threw')
  })

  it('works for any decider', () => {
    const counter = decideWith<number, number, number, { code: string; message: string }>({
      initialState: 0,
      decide: (s, n) => (s + n > 10 ? E.left({ code: 'TooBig', message: 'over 10' }) : E.right([n])),
      evolve: (s, e) => s + e
    })
    counter([4, 5]).when(1).then([1])
    counter([4, 5]).when(1).thenState(10)
    counter([4, 5]).when(2).thenFails('TooBig', { message: 'over 10' })
  })
})
