/**
 * The transition table of docs/rules.md I3 and docs/rules.md C2, as data: for every command, the guards checked in
 * order (the first that fails is the error), and the edges of the state diagram. The decider
 * reads its guards from here, and a test keeps `docs/state-machine.md` in sync with `edges`.
 *
 * @module transitions
 */
import type { CommandType } from './commands.js'
import type { ErrorCode, PaymentError } from './errors.js'
import type { Payment, PaymentKind, PaymentStatus } from './payment.js'
import { paymentStatuses } from './status.js'
import { OP } from './patches.js'


// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One guard of the table: when `fails` holds for the payment, the command gets `code`. */
export interface Guard {
  readonly code: ErrorCode
  readonly fails: (payment: Payment) => boolean
  readonly message: (payment: Payment) => string
}

/** The commands that act on an existing payment. */
export type PaymentCommandType = Exclude<CommandType, 'CreatePayment'>

/**
 * An edge of the state diagram: `command` moves a payment of `kind` from `from` to `to`, when
 * `when` (a condition the command's own fields decide) holds.
 */
export interface Edge {
  readonly from: PaymentStatus | 'NoPayment'
  readonly to: PaymentStatus
  readonly command: CommandType
  readonly kind: PaymentKind | 'any'
  readonly when?: string
}

// -------------------------------------------------------------------------------------
// guards
// -------------------------------------------------------------------------------------

const kindGuard = (kind: PaymentKind, code: ErrorCode, what: string): Guard => ({
  code,
  fails: (p) => p.kind === kind,
  message: () => `${what} (the payment is ${kind === 'invoice' ? 'an invoice' : 'a card payment'}).`
})

const statusGuard = (
  allowed: ReadonlyArray<PaymentStatus>,
  code: ErrorCode,
  what: string
): Guard => ({
  code,
  fails: (p) => !allowed.includes(p.status),
  message: (p) =>
    `${what} only when the payment is ${allowed.join(' or ')}; it is ${
      // the status as a message may name it: one of the five, else no quote of what the state holds
      (paymentStatuses as ReadonlyArray<unknown>).includes(p.status) ? p.status : 'in no known status'
    }.`
})

const formGuards: ReadonlyArray<Guard> = [
  kindGuard('invoice', 'FormNotUsedForInvoice', 'An invoice is paid by KID transfer, not through the payment form'),
  statusGuard(['Initiated'], 'FormNotAllowedInStatus', 'The payment form can be used')
]

/**
 * The guards of every command on an existing payment, in the order they are checked (docs/rules.md C2).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { guards } from 'paysplit'
 * assert.deepStrictEqual(
 *   guards.CancelPayment.map((g) => g.code),
 *   ['InvoiceCannotBeCancelled', 'CancelNotAllowedInStatus']
 * )
 */
export const guards: Readonly<Record<PaymentCommandType, ReadonlyArray<Guard>>> = {
  CompletePaymentForm: formGuards,
  FailPaymentForm: formGuards,
  ChargePayment: [
    kindGuard('invoice', 'ChargeNotAllowedForInvoice', 'An invoice is charged by KID transfer, not by the charge endpoint'),
    {
      code: 'ChargeNotAllowedForImmediateCharge',
      fails: (p) => p.chargeImmediately === true && (!('chargeImmediately' in OP) || Object.hasOwn(p, 'chargeImmediately')),
      message: () =>
        'The payment has chargeImmediately true: it is charged when the payment form is completed, never by the charge endpoint.'
    },
    statusGuard(['Reserved'], 'ChargeNotAllowedInStatus', 'A payment can be charged')
  ],
  CancelPayment: [
    kindGuard('invoice', 'InvoiceCannotBeCancelled', 'An invoice payment cannot be cancelled'),
    statusGuard(['Initiated', 'Reserved'], 'CancelNotAllowedInStatus', 'A payment can be cancelled')
  ],
  RefundPayment: [
    statusGuard(['Charged'], 'RefundNotAllowedInStatus', 'A payment can be refunded'),
    {
      code: 'NothingToRefund',
      fails: (p) => p.grossAmount === 0,
      message: () => 'The payment has nothing left to refund (grossAmount is 0).'
    }
  ],
  RefundPartially: [statusGuard(['Charged'], 'RefundNotAllowedInStatus', 'A payment can be refunded')],
  AdjustInvoice: [
    kindGuard('card', 'NotAnInvoice', 'Only an invoice can be adjusted'),
    statusGuard(['Initiated'], 'AdjustNotAllowedInStatus', 'An invoice can be adjusted')
  ],
  ReceiveInvoiceTransfer: [
    kindGuard('card', 'NotAnInvoice', 'Only an invoice receives KID transfers'),
    statusGuard(['Initiated'], 'TransferNotAllowedInStatus', 'An invoice receives transfers')
  ]
}

/**
 * Checks the guards of `type` against `payment` in order and returns the error of the first that
 * fails, or `undefined` when the command is allowed (its own fields are checked after this).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { checkGuards, guards } from 'paysplit'
 * // any payment-like value with the fields the guards read
 * const charged = { kind: 'card', status: 'Charged', chargeImmediately: true, grossAmount: 100, paymentReferenceID: 'p-1' }
 * assert.strictEqual(checkGuards(charged as never, 'CancelPayment')?.code, 'CancelNotAllowedInStatus')
 * assert.strictEqual(checkGuards(charged as never, 'RefundPayment'), undefined)
 * assert.strictEqual(guards.RefundPayment.length, 2)
 */
export const checkGuards = (payment: Payment, type: PaymentCommandType): PaymentError | undefined => {
  for (const g of guards[type]) {
    if (g.fails(payment)) return { code: g.code, message: g.message(payment) }
  }
  return undefined
}

// -------------------------------------------------------------------------------------
// edges
// -------------------------------------------------------------------------------------

/**
 * Every transition of the state machine (docs/rules.md I3, with paysplit's names for the states the interface leaves unnamed).
 * `docs/state-machine.md` draws exactly these edges; a test keeps the two in sync.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { edges } from 'paysplit'
 * assert.deepStrictEqual(
 *   edges.filter((e) => e.from === 'Charged').map((e) => e.to),
 *   ['Refunded', 'Charged', 'Refunded']
 * )
 */
export const edges: ReadonlyArray<Edge> = [
  { from: 'NoPayment', to: 'Initiated', command: 'CreatePayment', kind: 'any' },
  { from: 'Initiated', to: 'Charged', command: 'CompletePaymentForm', kind: 'card', when: 'chargeImmediately' },
  { from: 'Initiated', to: 'Reserved', command: 'CompletePaymentForm', kind: 'card', when: 'not chargeImmediately' },
  { from: 'Initiated', to: 'Initiated', command: 'FailPaymentForm', kind: 'card' },
  { from: 'Reserved', to: 'Charged', command: 'ChargePayment', kind: 'card' },
  { from: 'Initiated', to: 'Cancelled', command: 'CancelPayment', kind: 'card' },
  { from: 'Reserved', to: 'Cancelled', command: 'CancelPayment', kind: 'card' },
  { from: 'Charged', to: 'Refunded', command: 'RefundPayment', kind: 'any' },
  { from: 'Charged', to: 'Charged', command: 'RefundPartially', kind: 'any', when: 'new gross > 0' },
  { from: 'Charged', to: 'Refunded', command: 'RefundPartially', kind: 'any', when: 'new gross = 0' },
  { from: 'Initiated', to: 'Charged', command: 'AdjustInvoice', kind: 'invoice', when: 'new gross ≤ paid' },
  { from: 'Initiated', to: 'Initiated', command: 'AdjustInvoice', kind: 'invoice', when: 'new gross > paid' },
  { from: 'Initiated', to: 'Charged', command: 'ReceiveInvoiceTransfer', kind: 'invoice', when: 'paid ≥ gross' },
  { from: 'Initiated', to: 'Initiated', command: 'ReceiveInvoiceTransfer', kind: 'invoice', when: 'paid < gross' }
]
