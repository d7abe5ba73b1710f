/**
 * What the payment form and the bank report (docs/rules.md C6, C9), as pure operations on the
 * world: a completed or failed form (with the URL the form sends the customer back to), and KID
 * transfers, by payment id or by KID alone.
 *
 * @module bank
 */
import * as E from '../internal/either.js'
import type { Command } from '../commands.js'
import type { PaymentError } from '../errors.js'
import { paymentError, validationError } from '../errors.js'
import { KID_RULE } from '../kid.js'
import type { PaymentEvent } from '../events.js'
import type { Payment, PaymentState } from '../payment.js'
import { isPayment } from '../payment.js'
import { admitState } from '../state/trustedState.js'
import { check, POSITIVE, type Issues } from '../codecs/fields.js'
import { own } from '../internal/own.js'
import {
  checkContext,
  isWorld,
  keyOf,
  openInvoicesWithKid,
  run,
  notFound,
  unreadable,
  type Checked,
  type ContextExtra,
  type Ran,
  type Deliveries,
  type World
} from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The context of the operations the payment form and the bank cause. Only own properties are read. */
export interface EventContext {
  readonly at: string
  readonly catchAllUrl?: string
}

/** A bank transfer: the amount (minor units, ≥ 1) and the KID it was paid with. */
export interface Transfer {
  readonly amount: number
  readonly kid: string
}

/**
 * The outcome of a bank operation: the new world, the payment or the error, the webhooks, and the
 * events applied (docs/rules.md C6): in order, each what `transition` gives for the same command on
 * the same state; `[]` when nothing changed.
 */
export type Operated = readonly [
  world: World,
  result: E.Either<PaymentError, Payment>,
  deliveries: Deliveries,
  events: ReadonlyArray<PaymentEvent>
]

/**
 * The outcome of a form operation: the new world, the payment or the error, the webhooks, where the
 * form sends the customer (docs/rules.md C9): the payment's `successUrl` after a completed form, its
 * `failedUrl` after a failed or refused one; `undefined` only when there is no such payment or its
 * stored state cannot be read. A service that hosts the form answers 303 See Other to it. Last, the
 * events applied, as for {@link Operated}.
 */
export type FormOperated = readonly [
  world: World,
  result: E.Either<PaymentError, Payment>,
  deliveries: Deliveries,
  redirectUrl: string | undefined,
  events: ReadonlyArray<PaymentEvent>
]

/** Nothing applied. */
const NONE: ReadonlyArray<never> = Object.freeze([])

/** The world as it was, with this error: nothing sent, nothing applied. */
const refused = (world: World, error: PaymentError): Operated => [world, E.left(error), NONE, NONE]

// -------------------------------------------------------------------------------------
// internals
// -------------------------------------------------------------------------------------

/**
 * The payment as stored, admitted (validated if paysplit did not make it, then trusted): the state
 * the command runs on, so it is validated once; `undefined` when there is none.
 */
const admittedAt = (world: World, paymentReferenceID: string): E.Either<PaymentError, PaymentState> | undefined => {
  const stored = world.payments.get(keyOf(paymentReferenceID))
  return stored === undefined ? undefined : admitState(stored)
}

/** The outcome of running a command: the world it gave, or the world as it was when the command failed. */
const operated = (world: World, ran: E.Either<PaymentError, Ran>): Operated =>
  E.isLeft(ran) ? refused(world, ran.left) : [ran.right[0], E.right(ran.right[1]), ran.right[3], ran.right[2]]

/**
 * Runs the command `commandOf` makes on one payment: the world, the id and the context checked
 * first (in that order), then the command. Also gives the payment as it was, when it can be read.
 */
const operate = (
  world: World,
  paymentReferenceID: unknown,
  ctx: unknown,
  commandOf: (c: Checked) => Command,
  extra?: ContextExtra
): readonly [operated: Operated, before: Payment | undefined] => {
  try {
    if (!isWorld(world) || typeof paymentReferenceID !== 'string') return [refused(world, unreadable), undefined]
    const admitted = admittedAt(world, paymentReferenceID)
    const before = admitted !== undefined && E.isRight(admitted) && isPayment(admitted.right) ? admitted.right : undefined
    const checked = checkContext(ctx, false, extra)
    if (E.isLeft(checked)) return [refused(world, checked.left), before]
    if (admitted === undefined) return [refused(world, notFound), undefined]
    if (E.isLeft(admitted)) return [refused(world, admitted.left), undefined]
    const c = checked.right
    return [operated(world, run(world, paymentReferenceID, commandOf(c), c.catchAllUrl, admitted.right)), before]
  } catch {
    return [refused(world, unreadable), undefined]
  }
}

/**
 * The amount and KID of a transfer, own properties only; `ValidationFailed` for either that is not
 * valid, by the decider's rules for a transfer (the amount a positive safe integer, the KID valid).
 */
const readTransfer = (transfer: unknown): E.Either<PaymentError, Transfer> => {
  const issues: Issues = []
  const amount = check(issues, own(transfer, 'amount'), '', -1, 'amount', POSITIVE, true)
  const kid = check(issues, own(transfer, 'kid'), '', -1, 'kid', KID_RULE, true)
  return issues.length > 0 ? E.left(validationError(issues)) : E.right({ amount: amount as number, kid: kid as string })
}

// -------------------------------------------------------------------------------------
// the payment form
// -------------------------------------------------------------------------------------

/**
 * The customer completed the payment form of a card payment: `Charged` when `chargeImmediately`,
 * else `Reserved`; the webhooks of that status; and the URL to send the customer to
 * (docs/rules.md C9): the payment's `successUrl`, or its `failedUrl` when the attempt is refused,
 * whatever the error (`undefined` only for no such payment, or one whose stored state cannot be
 * read). A context without a valid `at` or with a `catchAllUrl` that is not an absolute http(s)
 * URL is `Left` `InvalidContext`, nothing changed.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { completeForm, emptyWorld, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const [w2, result, deliveries, redirectUrl, events] = completeForm(world, id, { at: '2026-11-21T10:05:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(E.isRight(result) && result.right.status === 'Reserved')
 * assert.strictEqual(deliveries[0]?.eventType, 'Reserved')
 * assert.strictEqual(redirectUrl, 'https://shop.example/ok')
 * assert.deepStrictEqual(events.map((e) => e.type), ['PaymentReserved'])
 * // a second completion is refused: the customer still lands somewhere, nothing is applied
 * const [, again, , back, none] = completeForm(w2, id, { at: '2026-11-21T10:06:00.000Z' })
 * assert.ok(E.isLeft(again) && again.left.code === 'FormNotAllowedInStatus')
 * assert.strictEqual(back, 'https://shop.example/failed')
 * assert.strictEqual(none.length, 0)
 */
export const completeForm = (world: World, paymentReferenceID: string, ctx: EventContext): FormOperated => {
  const [[w, result, deliveries, events], before] = operate(world, paymentReferenceID, ctx, (c) => ({ type: 'CompletePaymentForm', at: c.at }))
  const redirectUrl = before === undefined ? undefined : E.isRight(result) ? before.successUrl : before.failedUrl
  return [w, result, deliveries, redirectUrl, events]
}

/**
 * A payment-form attempt failed: the payment stays `Initiated`, the attempt (and its reason) is
 * recorded; no webhook. The customer goes to the payment's `failedUrl` (docs/rules.md C9), also
 * when the attempt is refused; `undefined` only for no such payment, or one whose stored state
 * cannot be read.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emptyWorld, failForm, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const [, result, deliveries, redirectUrl, events] = failForm(world, id, { at: '2026-11-21T10:05:00.000Z', reason: 'card declined' })
 * assert.strictEqual(redirectUrl, 'https://shop.example/failed')
 * assert.deepStrictEqual(events.map((e) => e.type), ['PaymentFormFailed'])
 * assert.ok(E.isRight(result) && result.right.status === 'Initiated')
 * assert.deepStrictEqual(E.isRight(result) && result.right.formAttempts, [{ at: '2026-11-21T10:05:00.000Z', reason: 'card declined' }])
 * assert.strictEqual(deliveries.length, 0)
 */
export const failForm = (
  world: World,
  paymentReferenceID: string,
  ctx: EventContext & { readonly reason?: string }
): FormOperated => {
  // an absent reason is read as undefined, and the decider reads an undefined one as absent
  const [[w, result, deliveries, events], before] = operate(world, paymentReferenceID, ctx, (c) => ({
    type: 'FailPaymentForm',
    at: c.at,
    reason: c.reason as string
  }), 'reason')
  return [w, result, deliveries, before?.failedUrl, events]
}

// -------------------------------------------------------------------------------------
// the bank
// -------------------------------------------------------------------------------------

/**
 * The bank reports a KID transfer to an invoice the caller found: `paidAmount` grows; once it
 * covers the amount the invoice is `Charged` (any excess refunded) and the `Charged` webhooks go
 * out. A bank that reports the KID alone: {@link receiveTransferByKid}.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle, receiveTransfer } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const made = kid.create('2026112100042', 'mod10')
 * assert.ok(E.isRight(made))
 * const invoiceKid = made.right
 * const body = {
 *   externalPaymentReferenceID: 'invoice-2001', environment: 'test', paymentGateway: 'invoice',
 *   sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [w1] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: invoiceKid })
 * const [w2, part] = receiveTransfer(w1, id, { amount: 4000, kid: invoiceKid }, { at: '2026-11-21T11:00:00.000Z' })
 * assert.ok(E.isRight(part) && part.right.status === 'Initiated' && part.right.paidAmount === 4000)
 * const [, rest, deliveries, events] = receiveTransfer(w2, id, { amount: 6000, kid: invoiceKid }, { at: '2026-11-21T12:00:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(E.isRight(rest) && rest.right.status === 'Charged')
 * assert.strictEqual(deliveries[0]?.eventType, 'Charged')
 * // settling emits the transfer's own event, then the status event
 * assert.deepStrictEqual(events.map((e) => e.type), ['InvoiceTransferReceived', 'PaymentCharged'])
 */
export const receiveTransfer = (
  world: World,
  paymentReferenceID: string,
  transfer: Transfer,
  ctx: EventContext
): Operated =>
  operate(world, paymentReferenceID, ctx, (c) => {
    // The decider validates amount and kid (ValidationFailed for garbage).
    const amount = own(transfer, 'amount') as number
    const kid = own(transfer, 'kid') as string
    return { type: 'ReceiveInvoiceTransfer', at: c.at, amount, kid }
  })[0]

/**
 * The bank reports a transfer with a KID and no payment id (docs/rules.md C9): it is applied to the
 * one open (`Initiated`) invoice that holds the KID, as {@link receiveTransfer} applies it. When no
 * open invoice holds it (or, in a world paysplit did not make, more than one), the result is
 * `Left` `UnmatchedTransfer` and the world is the one given: the caller parks the money for manual
 * matching. Checked first: the context (`InvalidContext`), then the amount and the KID
 * (`ValidationFailed`). A transfer is applied to exactly one invoice or to none.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle, receiveTransferByKid } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const made = kid.create('2026112100042', 'mod10')
 * assert.ok(E.isRight(made))
 * const invoiceKid = made.right
 * const body = {
 *   externalPaymentReferenceID: 'invoice-2001', environment: 'test', paymentGateway: 'invoice',
 *   sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: invoiceKid })
 * const [, paid, deliveries] = receiveTransferByKid(world, { kid: invoiceKid, amount: 10000 }, { at: '2026-11-21T11:00:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(E.isRight(paid) && paid.right.paymentReferenceID === id && paid.right.status === 'Charged')
 * assert.strictEqual(deliveries[0]?.eventType, 'Charged')
 * const other = kid.create('2026112100043', 'mod10')
 * assert.ok(E.isRight(other))
 * const [same, unmatched, , none] = receiveTransferByKid(world, { kid: other.right, amount: 500 }, { at: '2026-11-21T11:00:00.000Z' })
 * assert.ok(E.isLeft(unmatched) && unmatched.left.code === 'UnmatchedTransfer')
 * assert.strictEqual(same, world)
 * assert.strictEqual(none.length, 0)
 */
export const receiveTransferByKid = (world: World, transfer: Transfer, ctx: EventContext): Operated => {
  try {
    if (!isWorld(world)) return refused(world, unreadable)
    const checked = checkContext(ctx, false)
    if (E.isLeft(checked)) return refused(world, checked.left)
    const read = readTransfer(transfer)
    if (E.isLeft(read)) return refused(world, read.left)
    const { amount, kid } = read.right
    const open = openInvoicesWithKid(world, kid)
    const invoice = open.length === 1 ? open[0] : undefined
    if (invoice === undefined) {
      return refused(
        world,
        paymentError('UnmatchedTransfer', 'No open invoice holds this KID: the transfer was not applied; park it for manual matching.')
      )
    }
    return operated(world, run(world, invoice.paymentReferenceID, { type: 'ReceiveInvoiceTransfer', at: checked.right.at, amount, kid }, checked.right.catchAllUrl))
  } catch {
    return refused(world, unreadable)
  }
}
