/**
 * `npm run demo`: one card payment (reserve, charge, partial refund, full refund) and one invoice
 * (partial KID transfer, an adjustment that settles it) through their lives, printing each
 * command, the resulting status, the events and the settlement. Everything here is pure paysplit
 * plus console output; the clock and the identifiers are fixed so the output is the same each run.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Command, Payment, PaymentEvent, PaymentState } from '../../src/index.js'
import { initialState, kid, proportionalPatch, setAmountsPatch, settlement, transition } from '../../src/index.js'

const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const VENUE = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'
const PLATFORM_FEES = '11111111-2222-4333-8444-555555555555'

let clock = Date.UTC(2026, 10, 21, 10, 0, 0)
const now = (): string => new Date((clock += 60_000)).toISOString()

const nok = (minor: number): string => `${(minor / 100).toFixed(2)} NOK`

const describeEvent = (e: PaymentEvent): string => {
  switch (e.type) {
    case 'PaymentCharged':
      return `${e.type} (charged ${nok(e.chargedAmount)}${e.excessRefundedAmount > 0 ? `, excess ${nok(e.excessRefundedAmount)} back to the payer` : ''})`
    case 'PaymentPartiallyRefunded':
      return `${e.type} (${nok(e.refundAmount)} back; ${e.refundedSplit.map((s) => `${s.description ?? s.connectedAccountID} −${nok(s.refundAmount)}`).join(', ')})`
    case 'PaymentRefunded':
      return `${e.type} (${nok(e.refundAmount)} back)`
    case 'InvoiceAdjusted':
      return `${e.type} (new amount ${nok(e.newGrossAmount)}, excess ${nok(e.excessRefundedAmount)})`
    case 'InvoiceTransferReceived':
      return `${e.type} (${nok(e.amount)} by KID ${e.kid}, ${nok(e.paidAmount)} paid in all)`
    default:
      return e.type
  }
}

const printSettlement = (p: Payment): void => {
  const s = settlement(p)
  for (const row of s.rows) {
    console.log(
      `      ${row.isFee ? 'fee    ' : 'account'} ${row.connectedAccountID.slice(0, 8)}…  allocated ${nok(row.allocated).padStart(12)}  refunded ${nok(row.refunded).padStart(12)}  net ${nok(row.net).padStart(12)}`
    )
  }
  if (s.excessRefundedAmount > 0) console.log(`      excess refunded to the payer: ${nok(s.excessRefundedAmount)}`)
}

const step = (state: PaymentState, label: string, command: Command): PaymentState => {
  console.log(`\n  ▸ ${label}`)
  const r = transition(state, command)
  if (E.isLeft(r)) {
    console.log(`    refused: ${r.left.code}: ${r.left.message}`)
    return state
  }
  const [next, events] = r.right
  const p = next as Payment
  console.log(`    status ${p.status}, gross ${nok(p.grossAmount)}, charged ${nok(p.chargedAmount)}, refunded ${nok(p.refundedAmount)}`)
  for (const e of events) console.log(`    event  ${describeEvent(e)}`)
  printSettlement(p)
  return next
}

const baseRequest = {
  environment: 'test' as const,
  sellerConnectedAccountID: SELLER,
  currency: 'NOK',
  customerExternalID: 'customer-42',
  successUrl: 'https://shop.example/ok',
  failedUrl: 'https://shop.example/failed',
  webhookSubscriptions: [],
  metaData: { orderNumber: 'A-1001' }
}

// -------------------------------------------------------------------------------------
// a card payment: reserve, charge, partial refund, full refund
// -------------------------------------------------------------------------------------

console.log('A card payment, reserved first and charged later')
let card: PaymentState = step(initialState, 'CreatePayment: 2 concert tickets, 1 000.00 NOK', {
  type: 'CreatePayment',
  at: now(),
  paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c',
  request: {
    ...baseRequest,
    externalPaymentReferenceID: 'order-1001',
    paymentGateway: 'creditcard',
    chargeImmediately: false,
    grossAmount: 100_000,
    customer: { name: 'Kari Nordmann', email: 'kari@example.no', mobilePrefix: '+47', mobile: '41234567', customerType: 'Individual' },
    moneySplitList: [
      { connectedAccountID: SELLER, amount: 70_000, description: 'Tickets', isFee: false },
      { connectedAccountID: VENUE, amount: 20_000, description: 'Venue share', isFee: false },
      { connectedAccountID: PLATFORM_FEES, amount: 10_000, description: 'Platform fee', isFee: true }
    ]
  }
})
card = step(card, 'CompletePaymentForm: the bank reserves the amount', { type: 'CompletePaymentForm', at: now() })
card = step(card, 'RefundPayment while only reserved (refused)', { type: 'RefundPayment', at: now() })
card = step(card, 'ChargePayment', { type: 'ChargePayment', at: now() })
const patch = proportionalPatch(card as Payment, 25_000, { includeFees: false })
if (E.isRight(patch)) {
  card = step(card, 'RefundPartially: one ticket back (250.00 NOK, fee kept), split by proportionalPatch', {
    type: 'RefundPartially',
    at: now(),
    patch: patch.right
  })
}
card = step(card, 'RefundPayment: the concert is cancelled, everything left goes back', { type: 'RefundPayment', at: now() })
card = step(card, 'CancelPayment after the refund (refused)', { type: 'CancelPayment', at: now() })

// -------------------------------------------------------------------------------------
// an invoice: partial KID transfer, adjustment that settles it
// -------------------------------------------------------------------------------------

console.log('\nAn invoice paid by KID transfer')
const invoiceKid = kid.create('100200300', 'mod10')
if (E.isLeft(invoiceKid)) throw new Error(invoiceKid.left.message)
console.log(`  KID ${invoiceKid.right} (MOD10), valid: ${kid.isValid(invoiceKid.right)}`)
let invoice: PaymentState = step(initialState, 'CreatePayment: consulting invoice, 5 000.00 NOK', {
  type: 'CreatePayment',
  at: now(),
  paymentReferenceID: '5d1e2f30-4a5b-4c6d-9e7f-8a9b0c1d2e3f',
  kid: invoiceKid.right,
  request: {
    ...baseRequest,
    externalPaymentReferenceID: 'invoice-2001',
    paymentGateway: 'invoice',
    grossAmount: 500_000,
    moneySplitList: [
      { connectedAccountID: SELLER, amount: 450_000, description: 'Consulting', isFee: false },
      { connectedAccountID: PLATFORM_FEES, amount: 50_000, description: 'Platform fee', isFee: true }
    ]
  }
})
invoice = step(invoice, 'ReceiveInvoiceTransfer with a wrong KID (refused)', {
  type: 'ReceiveInvoiceTransfer',
  at: now(),
  amount: 100_000,
  kid: '00000000'
})
invoice = step(invoice, 'ReceiveInvoiceTransfer: 3 000.00 NOK of 5 000.00', {
  type: 'ReceiveInvoiceTransfer',
  at: now(),
  amount: 300_000,
  kid: invoiceKid.right
})
invoice = step(invoice, 'CancelPayment on an invoice (refused)', { type: 'CancelPayment', at: now() })
const lower = setAmountsPatch(invoice as Payment, [
  { splitID: 1, amount: 250_000 },
  { splitID: 2, amount: 30_000 }
])
if (E.isRight(lower)) {
  invoice = step(invoice, 'AdjustInvoice down to 2 800.00 NOK: below what was paid, so it settles', {
    type: 'AdjustInvoice',
    at: now(),
    patch: lower.right
  })
}
console.log('')
