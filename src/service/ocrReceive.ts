/**
 * Bank files, applied (docs/rules.md C14, C15): the transmission an OCR giro file holds, applied
 * to the world transfer by transfer through `receiveTransferByKid`, once per transmission, with a
 * report row per transaction; and the rows a transmission can read.
 *
 * @module ocrReceive
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { issue, validationError } from '../errors.js'
import { own } from '../internal/own.js'
import type { OcrTransaction, OcrTransmission } from '../bankFiles/ocrGiro.js'
import { applyTransfer, applyTransfers, type BankTransfer } from './bankTransfers.js'
import { checkContext, unreadable } from './context.js'
import { NONE, noChanges, type Outcome } from './outcome.js'
import type { EventContext } from './operation.js'
import { noBankKeys, type BankRowKeys } from './rows.js'
import { isWorld, ocrTransmissionKey, type OcrTransmissionRow, type World } from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What happened to one transaction of a transmission (docs/rules.md C14). */
export type OcrOutcome =
  | { readonly outcome: 'matched'; readonly paymentReferenceID: string }
  | { readonly outcome: 'unmatched' }
  | { readonly outcome: 'refused'; readonly error: PaymentError }
  | { readonly outcome: 'duplicate' }

/** One row of the report of {@link receiveOcrGiro}, in file order. */
export type OcrReportRow = {
  readonly transactionNumber: number
  readonly kid: string
  readonly amount: number
} & OcrOutcome

/** The outcome of {@link receiveOcrGiro} (docs/rules.md C15): the report, one row per transaction in file order. */
export interface OcrReceived extends Outcome {
  readonly report: ReadonlyArray<OcrReportRow>
}

/** The outcome of {@link receiveOcrTransaction}: its report row. */
export interface OcrTransactionReceived extends Outcome {
  readonly row: OcrReportRow
}

// -------------------------------------------------------------------------------------
// applying a transmission
// -------------------------------------------------------------------------------------

/** The transaction types that are money received; 18 and 20 are reversals reported by terminals. */
const PAYMENT_TYPES: ReadonlyArray<number> = [10, 11, 12, 13, 14, 15, 16, 17, 19, 21]

const reversal: PaymentError = validationError([issue('transactionType', 'not_one_of', { allowed: PAYMENT_TYPES, rule: 'reversal' })])

interface Row {
  readonly transactionNumber: number
  readonly transactionType: number
  readonly kid: string
  readonly amount: number
}

/** What applying a transaction reads of it, through own properties only. */
const rowOf = (t: unknown): Row => ({
  transactionNumber: own(t, 'transactionNumber') as number,
  transactionType: own(t, 'transactionType') as number,
  kid: own(t, 'kid') as string,
  amount: own(t, 'amount') as number
})

/** A transaction as a transfer to apply: a reversal is refused as it is, never applied. */
const transferOf = (r: Row): BankTransfer =>
  PAYMENT_TYPES.includes(r.transactionType) ? { kid: r.kid, amount: r.amount } : { kid: r.kid, amount: r.amount, refusal: reversal }

/** The transactions of a transmission in file order, read through own properties only. */
/**
 * A row of a report: the transaction's number, KID and amount, then its outcome's fields (as in
 * {@link OcrReportRow}); the camt.054 report is made of the same rows.
 *
 * @internal
 */
export const reportRowOf = (r: { readonly transactionNumber: number; readonly kid: string; readonly amount: number }, o: OcrOutcome): OcrReportRow => ({
  transactionNumber: r.transactionNumber,
  kid: r.kid,
  amount: r.amount,
  ...o
})

const rowsOf = (transmission: unknown): Row[] => {
  const rows: Row[] = []
  const assignments = own(transmission, 'assignments')
  if (!Array.isArray(assignments)) return rows
  for (const a of assignments as unknown[]) {
    const transactions = own(a, 'transactions')
    if (!Array.isArray(transactions)) continue
    for (const t of transactions as unknown[]) rows.push(rowOf(t))
  }
  return rows
}

// -------------------------------------------------------------------------------------
// the rows to load
// -------------------------------------------------------------------------------------

/**
 * The rows {@link receiveOcrGiro} can read for this transmission (docs/rules.md C15): the open
 * invoices that hold the KIDs of its transactions (each KID once; a store loads them with their
 * customers and references), and its own row in `ocrTransmissions` (by data sender and
 * transmission number), to know whether it was applied already. The other lists are empty.
 * Own properties only; never throws (a transmission that cannot be read names no rows).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { ocrKeys, parseOcrGiro } from 'paysplit/http'
 * const pad = (s: string): string => s.padEnd(80, '0')
 * const file = [
 *   pad('NY000010000080800170031000102'),
 *   pad('NY090020001008566000000299991042764'),
 *   'NY09103000000012111262620101464000000000000010000' + '12345674'.padStart(25, ' ') + '000000',
 *   pad('NY091031000000100000000000000000000000000211126000000000000'),
 *   pad('NY090088000000010000000400000000000010000211126211126211126'),
 *   pad('NY000089000000010000000600000000000010000211126')
 * ].join('\n')
 * const read = parseOcrGiro(file)
 * assert.ok(E.isRight(read))
 * const keys = ocrKeys(read.right)
 * assert.deepStrictEqual(keys.openInvoiceKids, ['12345674'])
 * assert.deepStrictEqual(keys.ocrTransmissions, [{ dataSender: '00008080', transmissionNumber: '0170031' }])
 */
export const ocrKeys = (transmission: OcrTransmission): BankRowKeys => {
  try {
    const kids = new Set<string>()
    for (const r of rowsOf(transmission)) if (typeof r.kid === 'string') kids.add(r.kid)
    const dataSender = own(transmission, 'dataSender')
    const transmissionNumber = own(transmission, 'transmissionNumber')
    return {
      ...noBankKeys,
      openInvoiceKids: [...kids],
      ocrTransmissions: typeof dataSender === 'string' && typeof transmissionNumber === 'string' ? [{ dataSender, transmissionNumber }] : []
    }
  } catch {
    return noBankKeys
  }
}

// -------------------------------------------------------------------------------------
// applying a transmission
// -------------------------------------------------------------------------------------

/**
 * Applies one transaction of an OCR giro file (docs/rules.md C14) as {@link receiveOcrGiro} applies
 * each: a reversal (transaction types 18 and 20) and a credit note (a negative amount) are
 * `refused` and change nothing; any other goes through `receiveTransferByKid` — `matched`,
 * `unmatched` (no open invoice holds the KID) or `refused` (with its error). The transmission's
 * once-only rule is {@link receiveOcrGiro}'s: a store that writes `changes` needs only that one,
 * for the whole file in one transaction.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, receiveOcrTransaction } from 'paysplit/http'
 * const { world, row, changes } = receiveOcrTransaction(emptyWorld, { transactionNumber: 1, transactionType: 10, kid: '12345674', amount: 500 }, { at: '2026-11-21T10:00:00.000Z' })
 * assert.deepStrictEqual(row, { transactionNumber: 1, kid: '12345674', amount: 500, outcome: 'unmatched' })
 * assert.strictEqual(world, emptyWorld)
 * assert.strictEqual(changes.payments.length, 0)
 * const reversal = receiveOcrTransaction(emptyWorld, { transactionNumber: 2, transactionType: 18, kid: '12345674', amount: 500 }, { at: '2026-11-21T10:00:00.000Z' })
 * assert.strictEqual(reversal.row.outcome, 'refused')
 */
export const receiveOcrTransaction = (
  world: World,
  transaction: Pick<OcrTransaction, 'transactionNumber' | 'transactionType' | 'kid' | 'amount'>,
  ctx: EventContext
): OcrTransactionReceived => {
  const r = rowOf(transaction)
  const { outcome, ...done } = applyTransfer(world, transferOf(r), ctx)
  return { ...done, row: reportRowOf(r, outcome) }
}

/**
 * Applies a transmission read by {@link parseOcrGiro} (docs/rules.md C14): every transaction, in
 * file order, through `receiveTransferByKid`, and a report of one row per transaction:
 * `matched` (with the `paymentReferenceID`), `unmatched` (no open invoice holds the KID: park the
 * money), `refused` (with the `error`: a KID or amount that is not valid, the invoice refused it, or
 * — never applied as payments, for a person to handle — a credit note, its amount negative, and a
 * reversal, transaction types 18 and 20; `params.rule` of the error's issue says which) or
 * `duplicate`. A transmission is applied once, by its data sender and transmission number:
 * the world remembers it, and the same transmission again changes nothing and reports every row
 * `duplicate`. A second transfer in one file to an invoice the first one settled finds no open
 * invoice: `unmatched`. A context that is not valid refuses every row with `InvalidContext`, and
 * the transmission is not remembered (nothing of it was applied).
 *
 * `changes` (docs/rules.md C15) hold every invoice the file changed once (from its version before
 * the file, with all its events), and the transmission's row; the rows it can read:
 * {@link ocrKeys}.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle, parseOcrGiro, receiveOcrGiro } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const made = kid.create('2026112100042', 'mod10')
 * assert.ok(E.isRight(made))
 * const body = {
 *   externalPaymentReferenceID: 'invoice-2001', environment: 'test', paymentGateway: 'invoice',
 *   sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: made.right })
 * const pad = (s: string): string => s.padEnd(80, '0')
 * const file = [
 *   pad('NY000010000080800170031000102'),
 *   pad('NY090020001008566000000299991042764'),
 *   'NY09103000000012111262620101464000000000000010000' + made.right.padStart(25, ' ') + '000000',
 *   pad('NY091031000000100000000000000000000000000211126000000000000'),
 *   pad('NY090088000000010000000400000000000010000211126211126211126'),
 *   pad('NY000089000000010000000600000000000010000211126')
 * ].join('\n')
 * const read = parseOcrGiro(file)
 * assert.ok(E.isRight(read))
 * const applied = receiveOcrGiro(world, read.right, { at: '2026-11-21T11:00:00.000Z' })
 * assert.deepStrictEqual(applied.report, [{ transactionNumber: 1, kid: made.right, amount: 10000, outcome: 'matched', paymentReferenceID: id }])
 * assert.deepStrictEqual(applied.changes.ocrTransmissions, [{ dataSender: '00008080', transmissionNumber: '0170031', at: '2026-11-21T11:00:00.000Z' }])
 * assert.deepStrictEqual(applied.changes.payments.map((p) => p.state.status), ['Charged'])
 * const again = receiveOcrGiro(applied.world, read.right, { at: '2026-11-21T12:00:00.000Z' })
 * assert.strictEqual(again.world, applied.world)
 * assert.strictEqual(again.report[0]?.outcome, 'duplicate')
 * assert.strictEqual(again.changes.ocrTransmissions.length, 0)
 */
export const receiveOcrGiro = (world: World, transmission: OcrTransmission, ctx: EventContext): OcrReceived => {
  const rows = rowsOf(transmission)
  const unchanged = (o: OcrOutcome): OcrReceived => ({ world, report: rows.map((r) => reportRowOf(r, o)), deliveries: NONE, events: NONE, changes: noChanges })
  const refuseAll = (error: PaymentError): OcrReceived => unchanged({ outcome: 'refused', error })
  if (!isWorld(world)) return refuseAll(unreadable)
  const checked = checkContext(ctx, false)
  if (E.isLeft(checked)) return refuseAll(checked.left)
  const dataSender = own(transmission, 'dataSender')
  const transmissionNumber = own(transmission, 'transmissionNumber')
  if (typeof dataSender !== 'string' || typeof transmissionNumber !== 'string') {
    return refuseAll(validationError([issue(typeof dataSender !== 'string' ? 'dataSender' : 'transmissionNumber', 'type', { expected: 'string' })]))
  }
  const key = ocrTransmissionKey(dataSender, transmissionNumber)
  const applied = own(world, 'ocrTransmissions')
  if (applied instanceof Map && applied.has(key)) {
    return unchanged({ outcome: 'duplicate' })
  }
  const at = checked.right.at
  // linear in the file and the world: each transfer on its slice (docs/rules.md C15); the context as
  // checked (an own catchAllUrl undefined is none), which each transfer checks again
  const done = applyTransfers(world, rows.map(transferOf), checked.right)
  const report = rows.map((r, i) => reportRowOf(r, done.outcomes[i] as OcrOutcome))
  const row: OcrTransmissionRow = { dataSender, transmissionNumber, at }
  const remembered = new Map<string, OcrTransmissionRow>(applied instanceof Map ? (applied as ReadonlyMap<string, OcrTransmissionRow>) : [])
  remembered.set(key, row)
  return {
    world: { ...world, payments: done.payments, ocrTransmissions: remembered },
    report,
    deliveries: done.deliveries,
    events: done.events,
    changes: { ...noChanges, payments: done.changes, ocrTransmissions: [row] }
  }
}
