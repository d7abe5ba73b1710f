/**
 * KID transfers reported by a bank file, applied in order (docs/rules.md C14, C17): what applying an
 * OCR giro transmission and a camt.054 notification share. Each transfer goes through
 * `receiveTransferByKid` on the slice of the world it can touch; a transfer refused before it is
 * applied (a reversal, money going out, a currency paysplit cannot book) changes nothing.
 *
 * @module bankTransfers
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { issue, validationError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import type { Payment } from '../payment.js'
import { own } from '../internal/own.js'
import { followedBy, NONE, noChanges, type Outcome, type PaymentChange } from './outcome.js'
import type { EventContext } from './operation.js'
import { receiveTransferByKid } from './transfers.js'
import { keyOf, openInvoiceKeysByKid, type Deliveries, type World } from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What applying one transfer of a bank file gave (docs/rules.md C14, C17). */
export type TransferOutcome =
  | { readonly outcome: 'matched'; readonly paymentReferenceID: string }
  | { readonly outcome: 'unmatched' }
  | { readonly outcome: 'refused'; readonly error: PaymentError }

/**
 * One transfer of a bank file: its KID and amount in øre as the file gives them (no KID: a
 * transfer that names no invoice), and, when the file's own rules already refuse it, why (it is
 * then reported `refused` and not applied).
 */
export interface BankTransfer {
  readonly kid?: string
  readonly amount: number
  readonly refusal?: PaymentError
}

/** One transfer applied: the outcome of the operation (docs/rules.md C15) and what became of the transfer. */
export interface TransferApplied extends Outcome {
  readonly outcome: TransferOutcome
}

/**
 * Transfers applied in order: the payments after them (the whole map), an outcome per transfer,
 * the webhooks, the events, and one change per payment they changed (docs/rules.md C15).
 */
export interface TransfersApplied {
  readonly payments: ReadonlyMap<string, Payment>
  readonly outcomes: ReadonlyArray<TransferOutcome>
  readonly deliveries: Deliveries
  readonly events: ReadonlyArray<PaymentEvent>
  readonly changes: ReadonlyArray<PaymentChange>
}

// -------------------------------------------------------------------------------------
// applying
// -------------------------------------------------------------------------------------

/**
 * The error of a transfer whose amount is negative — an OCR giro credit note, a camt.054 debit:
 * money going back, never applied as a payment (docs/rules.md C14, C17). `params.rule` says why.
 *
 * @internal
 */
export const negativeAmount: PaymentError = validationError([issue('amount', 'too_small', { min: 1, rule: 'negative-amount' })])

/**
 * Applies one transfer of a bank file (docs/rules.md C14, C17): refused as it is when it carries
 * a refusal, refused when its amount is negative (money going back is never applied as a
 * payment), `unmatched` when it has no KID, else through `receiveTransferByKid` — `matched`,
 * `unmatched` (no open invoice holds the KID) or `refused` with the error. Only own properties of
 * the transfer are read.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld } from 'paysplit/http'
 * import { applyTransfer } from './bankTransfers.js'
 * const at = { at: '2026-11-21T10:00:00.000Z' }
 * assert.deepStrictEqual(applyTransfer(emptyWorld, { kid: '12345674', amount: 500 }, at).outcome, { outcome: 'unmatched' })
 * const credit = applyTransfer(emptyWorld, { kid: '12345674', amount: -500 }, at)
 * assert.strictEqual(credit.outcome.outcome, 'refused')
 * assert.strictEqual(credit.world, emptyWorld)
 */
export const applyTransfer = (world: World, transfer: BankTransfer, ctx: EventContext): TransferApplied => {
  const unchanged = (outcome: TransferOutcome): TransferApplied => ({ world, outcome, deliveries: NONE, events: NONE, changes: noChanges })
  const refusal = own(transfer, 'refusal') as PaymentError | undefined
  if (refusal !== undefined) return unchanged({ outcome: 'refused', error: refusal })
  const amount = own(transfer, 'amount')
  if (typeof amount === 'number' && amount < 0) return unchanged({ outcome: 'refused', error: negativeAmount })
  const kid = own(transfer, 'kid')
  // money that names no invoice: nothing to match, park it
  if (kid === undefined) return unchanged({ outcome: 'unmatched' })
  const { result, ...done } = receiveTransferByKid(world, { kid: kid as string, amount: amount as number }, ctx)
  const outcome: TransferOutcome = E.isRight(result)
    ? { outcome: 'matched', paymentReferenceID: result.right.paymentReferenceID }
    : result.left.code === 'UnmatchedTransfer'
      ? { outcome: 'unmatched' }
      : { outcome: 'refused', error: result.left }
  return { ...done, outcome }
}

/**
 * Applies the transfers of a bank file in order, each as {@link applyTransfer} applies it, and
 * gives the payments after all of them, an outcome per transfer, the webhooks and the events. The
 * context is the caller's, already checked. Each transfer runs on the slice of the world it can
 * touch — the open invoices holding its KID, as a service loads it (docs/rules.md C15) — and the changed payments are written into one new map at the end: linear in
 * the file and the world, where copying the whole world once per transfer would be quadratic. Same
 * outcome, transfer by transfer.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld } from 'paysplit/http'
 * import { applyTransfers } from './bankTransfers.js'
 * const applied = applyTransfers(emptyWorld, [{ kid: '12345674', amount: 500 }, { kid: '12345674', amount: -500 }], { at: '2026-11-21T10:00:00.000Z' })
 * assert.deepStrictEqual(applied.outcomes.map((o) => o.outcome), ['unmatched', 'refused'])
 * assert.strictEqual(applied.payments, emptyWorld.payments)
 * assert.strictEqual(applied.changes.length, 0)
 */
export const applyTransfers = (world: World, transfers: ReadonlyArray<BankTransfer>, ctx: EventContext): TransfersApplied => {
  const open = openInvoiceKeysByKid(world)
  const changed = new Map<string, Payment>()
  // one change per payment, from its version before the file, even when the file pays it twice
  const changes = new Map<string, PaymentChange>()
  const outcomes: TransferOutcome[] = []
  const deliveries: Array<Deliveries[number]> = []
  const events: PaymentEvent[] = []
  for (const t of transfers) {
    const kid = own(t, 'kid')
    const keys = typeof kid === 'string' ? open.get(kid) : undefined
    const payments = new Map<string, Payment>()
    if (keys !== undefined) for (const k of keys) payments.set(k, changed.get(k) ?? (world.payments.get(k) as Payment))
    const slice: World = { ...world, payments }
    const done = applyTransfer(slice, t, ctx)
    if (done.world !== slice && keys !== undefined) {
      for (const k of [...keys]) {
        const after = done.world.payments.get(k)
        if (after === undefined || after === payments.get(k)) continue
        changed.set(k, after)
        // an invoice no longer Initiated holds its KID no more
        if (own(after, 'status') !== 'Initiated') keys.splice(keys.indexOf(k), 1)
      }
      for (const c of done.changes.payments) {
        const k = keyOf(c.paymentReferenceID)
        const earlier = changes.get(k)
        changes.set(k, earlier === undefined ? c : followedBy(earlier, c))
      }
    }
    outcomes.push(done.outcome)
    for (const d of done.deliveries) deliveries.push(d)
    for (const e of done.events) events.push(e)
  }
  let payments = world.payments
  if (changed.size > 0) {
    const all = new Map(world.payments)
    for (const [k, p] of changed) all.set(k, p)
    payments = all
  }
  return { payments, outcomes, deliveries, events, changes: [...changes.values()] }
}
