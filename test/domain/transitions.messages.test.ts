/**
 * Kills the mutants Stryker left alive in src/transitions.ts (docs/testing.md): every one was in
 * the text of a guard's error. C2 wants "a sentence a person can read"; these tests pin what
 * each sentence must tell: what is refused, which payment, and why (its kind, or its status and
 * the statuses that allow the command).
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { transition } from '../../src/decider.js'
import type { Command } from '../../src/commands.js'
import type { PaymentState } from '../../src/payment.js'
import { adjust, cancel, charge, complete, create, createInvoice, PAYMENT_ID, patchOf, paymentAfter, refund, transfer } from '../support/builders.js'

const messageOf = (state: PaymentState, command: Command): string => {
  const r = transition(state, command)
  return E.isLeft(r) ? r.left.message : 'accepted'
}

describe('guard messages say what the payment is and why, quoting no identifier', () => {
  it('a kind guard says what the payment is', () => {
    expect(messageOf(paymentAfter(createInvoice()), cancel())).toMatch(/\(the payment is an invoice\)\.$/)
    expect(messageOf(paymentAfter(createInvoice()), complete())).toBe('An invoice is paid by KID transfer, not through the payment form (the payment is an invoice).')
    expect(messageOf(paymentAfter(create()), transfer(100))).toMatch(/\(the payment is a card payment\)\.$/)
    const card = paymentAfter(create())
    expect(messageOf(card, adjust(patchOf(card, { 1: 1 })))).toMatch(/is a card payment\)\.$/)
    expect(messageOf(card, transfer(100))).not.toContain(PAYMENT_ID)
  })

  it('a status guard names the statuses that allow the command and the payment’s own', () => {
    const charged = paymentAfter(create(), complete(), charge())
    expect(messageOf(charged, cancel(3))).toMatch(/only when the payment is Initiated or Reserved; it is Charged\.$/)
    expect(messageOf(paymentAfter(create()), refund())).toMatch(/only when the payment is Charged; it is Initiated\.$/)
  })

  it('NothingToRefund says the payment has nothing left', () => {
    const inv = paymentAfter(createInvoice())
    const zero = paymentAfter(createInvoice(), adjust(patchOf(inv, { 1: 'delete', 2: 'delete', 3: 'delete' })))
    expect(messageOf(zero, refund())).toBe('The payment has nothing left to refund (grossAmount is 0).')
  })
})
