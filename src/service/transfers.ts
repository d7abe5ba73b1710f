/**
 * What the bank reports (docs/rules.md C6, C9, C15), as pure operations on the world: KID
 * transfers, by payment id or by KID alone, and the rows a transfer by KID can read.
 *
 * @module transfers
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { paymentError, validationError } from '../errors.js'
import { KID_RULE } from '../kid.js'
import { check, POSITIVE, type Issues } from '../codecs/fields.js'
import { own } from '../internal/own.js'
import { checkContext, unreadable } from './context.js'
import { refused, type Operated } from './outcome.js'
import { operate, operated, run, type EventContext } from './operation.js'
import { noBankKeys, type BankRowKeys } from './rows.js'
import { isWorld, openInvoicesWithKid, type World } from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A bank transfer: the amount (minor units, ≥ 1) and the KID it was paid with. */
export interface Transfer {
  readonly amount: number
  readonly kid: string
}

// -------------------------------------------------------------------------------------
// internals
// -------------------------------------------------------------------------------------

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
// the rows to load
// -------------------------------------------------------------------------------------

/**
 * The rows {@link receiveTransferByKid} can read for this transfer (docs/rules.md C15): the open
 * invoices that hold its KID (a store loads them with their customers and references). The other
 * lists are empty; a transfer whose KID is not a string names none. {@link receiveTransfer} reads
 * the payment it is given. Never throws.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { transferKeys } from 'paysplit/http'
 * assert.deepStrictEqual(transferKeys({ kid: '12345674', amount: 500 }).openInvoiceKids, ['12345674'])
 * assert.deepStrictEqual(transferKeys({ kid: '12345674', amount: 500 }).paymentReferenceIDs, [])
 */
export const transferKeys = (transfer: Transfer): BankRowKeys => {
  try {
    const kid = own(transfer, 'kid')
    return typeof kid === 'string' ? { ...noBankKeys, openInvoiceKids: [kid] } : noBankKeys
  } catch {
    return noBankKeys
  }
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
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: invoiceKid })
 * const part = receiveTransfer(world, id, { amount: 4000, kid: invoiceKid }, { at: '2026-11-21T11:00:00.000Z' })
 * assert.ok(E.isRight(part.result) && part.result.right.status === 'Initiated' && part.result.right.paidAmount === 4000)
 * const { result, deliveries, events, changes } = receiveTransfer(part.world, id, { amount: 6000, kid: invoiceKid }, { at: '2026-11-21T12:00:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(E.isRight(result) && result.right.status === 'Charged')
 * assert.strictEqual(deliveries[0]?.eventType, 'Charged')
 * // settling emits the transfer's own event, then the status event
 * assert.deepStrictEqual(events.map((e) => e.type), ['InvoiceTransferReceived', 'PaymentCharged'])
 * assert.deepStrictEqual(changes.payments[0]?.events.map((e) => e.version), [3, 4])
 */
export const receiveTransfer = (world: World, paymentReferenceID: string, transfer: Transfer, ctx: EventContext): Operated =>
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
 * (`ValidationFailed`). A transfer is applied to exactly one invoice or to none. The rows it can
 * read: {@link transferKeys}.
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
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: invoiceKid })
 * const paid = receiveTransferByKid(world, { kid: invoiceKid, amount: 10000 }, { at: '2026-11-21T11:00:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(E.isRight(paid.result) && paid.result.right.paymentReferenceID === id && paid.result.right.status === 'Charged')
 * assert.strictEqual(paid.deliveries[0]?.eventType, 'Charged')
 * assert.strictEqual(paid.changes.payments[0]?.fromVersion, 1)
 * const other = kid.create('2026112100043', 'mod10')
 * assert.ok(E.isRight(other))
 * const unmatched = receiveTransferByKid(world, { kid: other.right, amount: 500 }, { at: '2026-11-21T11:00:00.000Z' })
 * assert.ok(E.isLeft(unmatched.result) && unmatched.result.left.code === 'UnmatchedTransfer')
 * assert.strictEqual(unmatched.world, world)
 * assert.strictEqual(unmatched.events.length, 0)
 * assert.strictEqual(unmatched.changes.payments.length, 0)
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
