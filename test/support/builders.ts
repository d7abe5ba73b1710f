/**
 * Small builders of commands for the decider's tests: a valid card or invoice request, the
 * commands of a payment's life, and a clock that ticks by one second.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Command } from '../../src/commands.js'
import { transition } from '../../src/decider.js'
import type { PaymentError } from '../../src/errors.js'
import type { PaymentEvent } from '../../src/events.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import { initialState } from '../../src/payment.js'
import type { MoneySplitPatch, PaymentIntentRequest } from '../../src/codecs/requests.js'

export const PAYMENT_ID = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
export const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
export const PARTNER = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'
export const FEE_ACCOUNT = '11111111-2222-4333-8444-555555555555'
/** A valid MOD10 KID: 1234567 → check digit 4 (Luhn). */
export const KID = '12345674'

/** The n-th second of the test day, as a command timestamp. */
export const at = (n = 0): string => new Date(Date.UTC(2026, 10, 21, 10, 0, n)).toISOString()

export const cardRequest = (overrides: Partial<Record<keyof PaymentIntentRequest, unknown>> = {}): PaymentIntentRequest =>
  ({
    externalPaymentReferenceID: 'order-1001',
    environment: 'test',
    paymentGateway: 'creditcard',
    chargeImmediately: false,
    sellerConnectedAccountID: SELLER,
    description: 'Two concert tickets',
    grossAmount: 10000,
    currency: 'NOK',
    moneySplitList: [
      { connectedAccountID: SELLER, amount: 7000, description: 'Tickets', isFee: false, externalID: 'item-1' },
      { connectedAccountID: PARTNER, amount: 2000, description: 'Venue share', isFee: false },
      { connectedAccountID: FEE_ACCOUNT, amount: 1000, description: 'Platform fee', isFee: true }
    ],
    customerExternalID: 'customer-42',
    successUrl: 'https://shop.example/ok',
    failedUrl: 'https://shop.example/failed',
    ...overrides
  }) as PaymentIntentRequest

export const invoiceRequest = (overrides: Partial<Record<keyof PaymentIntentRequest, unknown>> = {}): PaymentIntentRequest =>
  cardRequest({ paymentGateway: 'invoice', chargeImmediately: undefined, ...overrides })

export const create = (request: unknown = cardRequest(), extra: Record<string, unknown> = {}): Command =>
  ({ type: 'CreatePayment', at: at(0), paymentReferenceID: PAYMENT_ID, request, ...extra }) as Command

export const createInvoice = (request: unknown = invoiceRequest()): Command => create(request, { kid: KID })

export const complete = (n = 1): Command => ({ type: 'CompletePaymentForm', at: at(n) })
export const failForm = (n = 1, reason?: string): Command =>
  (reason === undefined ? { type: 'FailPaymentForm', at: at(n) } : { type: 'FailPaymentForm', at: at(n), reason })
export const charge = (n = 2): Command => ({ type: 'ChargePayment', at: at(n) })
export const cancel = (n = 2): Command => ({ type: 'CancelPayment', at: at(n) })
export const refund = (n = 3): Command => ({ type: 'RefundPayment', at: at(n) })
export const refundPartially = (patch: MoneySplitPatch, n = 3): Command => ({ type: 'RefundPartially', at: at(n), patch })
export const adjust = (patch: MoneySplitPatch, n = 2): Command => ({ type: 'AdjustInvoice', at: at(n), patch })
export const transfer = (amount: number, kid = KID, n = 1): Command => ({ type: 'ReceiveInvoiceTransfer', at: at(n), amount, kid })

/** Runs commands from `state`; throws (in tests only) when one is refused. */
export const run = (state: PaymentState, ...commands: ReadonlyArray<Command>): { state: Payment; events: ReadonlyArray<PaymentEvent> } => {
  let s = state
  const events: Array<PaymentEvent> = []
  for (const c of commands) {
    const r = transition(s, c)
    if (E.isLeft(r)) throw new Error(`${c.type} refused: ${r.left.code}: ${r.left.message}`)
    s = r.right[0]
    events.push(...r.right[1])
  }
  if (s.status === 'NoPayment') throw new Error('no payment')
  return { state: s, events }
}

/** A payment after `commands`, starting from nothing. */
export const paymentAfter = (...commands: ReadonlyArray<Command>): Payment => run(initialState, ...commands).state

/** The error `command` gets in `state`; throws (in tests only) when it is accepted. */
export const errorOf = (state: PaymentState, command: unknown): PaymentError => {
  const r = transition(state, command as Command)
  if (E.isRight(r)) throw new Error(`${String((command as { type?: unknown }).type)} was accepted`)
  return r.left
}

/** A patch that keeps every split and sets the listed ones. */
export const patchOf = (p: Payment, amounts: Readonly<Record<number, number | 'delete'>>): MoneySplitPatch => {
  let gross = 0
  const moneySplitPatch = p.moneySplits.map((s) => {
    const a = amounts[s.splitID]
    if (a === undefined) {
      gross += s.amount
      return { splitID: s.splitID, updateType: 'DoNothing' as const }
    }
    if (a === 'delete') return { splitID: s.splitID, updateType: 'DoDeleteSplitEntry' as const, doDelete: true }
    gross += a
    return { splitID: s.splitID, updateType: 'UpdateAmount' as const, newAmount: a }
  })
  return { moneySplitPatch, newGrossAmount: gross }
}
