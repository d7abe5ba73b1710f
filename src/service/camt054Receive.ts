/**
 * Bank notifications, applied (docs/rules.md C15, C17): the transactions of a camt.054 notification
 * applied to the world through `receiveTransferByKid`, as an OCR giro file's are (one function,
 * `bankTransfers.ts`), once per message, each transaction once, with a report row per transaction;
 * and the rows a notification can read. Reads no XML: a notification is what `parseCamt054` gave.
 *
 * @module camt054Receive
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { issue, validationError } from '../errors.js'
import { own } from '../internal/own.js'
import type { Camt054Notification, Camt054Refusal, Camt054Transaction } from '../bankFiles/camt054Model.js'
import { applyTransfers, type BankTransfer, type TransferOutcome } from './bankTransfers.js'
import { checkContext, unreadable } from './context.js'
import { reportRowOf, type OcrReportRow } from './ocrReceive.js'
import type { EventContext } from './operation.js'
import { NONE, noChanges, type Camt054Changes, type Outcome } from './outcome.js'
import { noCamt054Keys, type Camt054RowKeys } from './rows.js'
import {
  expiringMapOf,
  camt054MessageTimeOf,
  camt054TransactionKey,
  camt054TransactionTimeOf,
  isWorld,
  type Camt054MessageRow,
  type Camt054TransactionRow,
  type World
} from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One row of the report of {@link receiveCamt054}, in document order: an OCR giro report row
 * (`transactionNumber` the transaction's position in the notification, `kid` `''` when it has
 * none) with `outcome` `matched`, `unmatched`, `refused` or `duplicate`.
 */
export type Camt054ReportRow = OcrReportRow

/**
 * The outcome of {@link receiveCamt054} (docs/rules.md C15): the record of `receiveOcrGiro` — the
 * report, one row per transaction in document order — with the notification's rows among the
 * changes.
 */
export interface Camt054Received extends Outcome {
  readonly report: ReadonlyArray<Camt054ReportRow>
  readonly changes: Camt054Changes
}

/**
 * How long a world remembers the notifications applied and the transactions seen: 400 days
 * (docs/decisions.md "camt.054 notifications"). A transaction booked longer ago than that is
 * refused rather than applied: whether it was applied before can no longer be known.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emptyWorld } from 'paysplit/http'
 * import { CAMT054_MEMORY_DAYS, camt054Xml, parseCamt054, receiveCamt054 } from 'paysplit/camt054'
 * assert.strictEqual(CAMT054_MEMORY_DAYS, 400)
 * const read = parseCamt054(camt054Xml({ version: 'camt.054.001.02', messageId: 'M-1', createdAt: '2024-01-02T10:00:00', notifications: [{ account: 'NO9386011117947', entries: [
 *   { accountServicerReference: 'E-1', currency: 'NOK', creditDebit: 'CRDT', bookingDate: '2024-01-02', amount: '10.00', details: [] }
 * ] }] }))
 * assert.ok(E.isRight(read))
 * // booked 401 days before `at`: refused, not applied
 * const { report } = receiveCamt054(emptyWorld, read.right, { at: '2025-02-06T10:00:00.000Z' })
 * assert.ok(report[0]?.outcome === 'refused' && report[0].error.issues?.[0]?.params?.rule === 'too-old')
 */
export const CAMT054_MEMORY_DAYS = 400

const DAY_MS = 86_400_000

// -------------------------------------------------------------------------------------
// keys and reasons
// -------------------------------------------------------------------------------------

/** The key a transaction is recognised by (`camt054TransactionKey`); `undefined` without an entry reference. */
const keyOfTransaction = (t: Camt054Transaction): string | undefined => {
  const entryReference = own(t, 'entryReference')
  return typeof entryReference === 'string' && entryReference !== '' ? camt054TransactionKey(t) : undefined
}

const refusedBy = (path: string, reason: Parameters<typeof issue>[1], params: Record<string, string | number | ReadonlyArray<string | number | boolean>>): PaymentError =>
  validationError([issue(path, reason, params)])

/** The error of each reason a transaction is refused when read (docs/rules.md C17). */
const REFUSALS: Readonly<Record<Camt054Refusal, PaymentError>> = {
  currency: refusedBy('currency', 'not_one_of', { allowed: ['NOK'], rule: 'currency' }),
  decimals: refusedBy('decimalAmount', 'format', { format: 'amount in øre', rule: 'decimals' }),
  'amount-range': refusedBy('amount', 'too_big', { max: Number.MAX_SAFE_INTEGER, rule: 'amount-range' }),
  'creditor-references': refusedBy('creditorReferences', 'too_many', { max: 1, rule: 'creditor-references' }),
  'batch-without-details': refusedBy('kid', 'required', { rule: 'batch-without-details' })
}
const reversal = refusedBy('reversal', 'not_one_of', { allowed: [false], rule: 'reversal' })
const noReference = refusedBy('entryReference', 'required', { rule: 'reference' })

const DUPLICATE = { outcome: 'duplicate' } as const

/** No rows to write, the notification's lists included. */
const noCamt054Changes: Camt054Changes = Object.freeze({ ...noChanges, camt054Messages: NONE, camt054Transactions: NONE })

/** A transaction's report row: its number, KID (`''` when it has none) and amount, and what became of it. */
const rowOf = (t: Camt054Transaction, o: TransferOutcome | typeof DUPLICATE): Camt054ReportRow =>
  reportRowOf({ transactionNumber: own(t, 'transactionNumber') as number, kid: (own(t, 'kid') as string | undefined) ?? '', amount: own(t, 'amount') as number }, o)

/** The transactions of a notification in document order, read through own properties only. */
const transactionsOf = (notification: unknown): Camt054Transaction[] => {
  const all = own(notification, 'transactions')
  return Array.isArray(all) ? (all as Camt054Transaction[]) : []
}

// -------------------------------------------------------------------------------------
// the rows to load
// -------------------------------------------------------------------------------------

/**
 * The rows {@link receiveCamt054} can read for this notification (docs/rules.md C15, C17): the open
 * invoices that hold the KIDs of its transactions (each KID once; a store loads them with their
 * customers and references), its own row in `camt054Messages` (by `messageId`), and the rows in
 * `camt054Transactions` of its transactions (by `camt054TransactionKey`, each once; a transaction
 * without an entry reference has none), to know what was applied already. The other lists are
 * empty: a store loads rows by key, never the whole memory. Own properties only; never throws (a
 * notification that cannot be read names no rows).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { camt054Keys, camt054Xml, parseCamt054 } from 'paysplit/camt054'
 * const read = parseCamt054(camt054Xml({ version: 'camt.054.001.08', messageId: 'MSG-1', createdAt: '2026-11-21T10:00:00', notifications: [{ account: 'NO9386011117947', entries: [
 *   { accountServicerReference: 'E-1', currency: 'NOK', creditDebit: 'CRDT', bookingDate: '2026-11-21', details: [
 *     { amount: '100.00', transactionReference: 'T-1', creditorReferences: ['12345674'] },
 *     { amount: '50.00', creditorReferences: ['12345674'] }
 *   ] }
 * ] }] }))
 * assert.ok(E.isRight(read))
 * const keys = camt054Keys(read.right)
 * assert.deepStrictEqual(keys.openInvoiceKids, ['12345674'])
 * assert.deepStrictEqual(keys.camt054Messages, ['MSG-1'])
 * assert.deepStrictEqual(keys.camt054Transactions, ['["NO9386011117947","E-1","T-1"]', '["NO9386011117947","E-1",2]'])
 */
export const camt054Keys = (notification: Camt054Notification): Camt054RowKeys => {
  try {
    const kids = new Set<string>()
    const transactions = new Set<string>()
    for (const t of transactionsOf(notification)) {
      const kid = own(t, 'kid')
      if (typeof kid === 'string') kids.add(kid)
      const key = keyOfTransaction(t)
      if (key !== undefined) transactions.add(key)
    }
    const messageId = own(notification, 'messageId')
    return {
      ...noCamt054Keys,
      openInvoiceKids: [...kids],
      camt054Messages: typeof messageId === 'string' ? [messageId] : NONE,
      camt054Transactions: [...transactions]
    }
  } catch {
    return noCamt054Keys
  }
}

// -------------------------------------------------------------------------------------
// applying a notification
// -------------------------------------------------------------------------------------

/**
 * Applies a notification read by `parseCamt054` (docs/rules.md C17), as `receiveOcrGiro` applies
 * an OCR giro file: every transaction, in document order, through `receiveTransferByKid`, with a
 * report of one row per transaction — `matched` (with the `paymentReferenceID`), `unmatched` (no
 * open invoice holds the KID, or the transaction has no KID: park the money), `refused` (with the
 * `error`, for a person to handle: a reversal; money going out; a currency other than NOK; more
 * than two decimals; several creditor references; no entry reference to recognise it by; booked
 * more than 400 days before `at`; or the KID, the amount or the invoice refused it; the issue's
 * `params.rule` says which) or `duplicate`.
 *
 * A notification is applied once, by its `messageId`: the same one again changes nothing and
 * reports every row `duplicate`. A transaction a bank sends again in another notification — the
 * same account, entry reference and transaction reference (`camt054TransactionKey`) — is
 * `duplicate` and not applied again. The world remembers both for 400 days
 * (`CAMT054_MEMORY_DAYS`; docs/decisions.md "camt.054 notifications"). A context that is not
 * valid refuses every row with `InvalidContext`, and nothing is remembered.
 *
 * It returns `receiveOcrGiro`'s record (docs/rules.md C15): `changes` hold every invoice the
 * notification changed once (from its version before it, with all its events), the notification's
 * row `{ messageId, at }` in `camt054Messages`, and in `camt054Transactions` a row
 * `{ transactionKey, bookingDate }` per transaction it remembered (each one with an entry
 * reference, applied or refused, unless too old); all empty when it changed nothing (a
 * `duplicate` notification, a context that is not valid). The rows it can read:
 * {@link camt054Keys}.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle } from 'paysplit/http'
 * import { parseCamt054, receiveCamt054 } from 'paysplit/camt054'
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
 * const xml = (messageId: string): string => `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02"><BkToCstmrDbtCdtNtfctn>
 *   <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2026-11-21T10:30:00</CreDtTm></GrpHdr>
 *   <Ntfctn><Acct><Id><IBAN>NO9386011117947</IBAN></Id></Acct>
 *     <Ntry><Amt Ccy="NOK">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-21</Dt></BookgDt><AcctSvcrRef>E-1</AcctSvcrRef>
 *       <NtryDtls><TxDtls><RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>${made.right}</Ref></CdtrRefInf></Strd></RmtInf></TxDtls></NtryDtls>
 *     </Ntry></Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`
 * const read = parseCamt054(xml('MSG-1'))
 * assert.ok(E.isRight(read))
 * const applied = receiveCamt054(world, read.right, { at: '2026-11-21T11:00:00.000Z' })
 * assert.deepStrictEqual(applied.report, [{ transactionNumber: 1, kid: made.right, amount: 10000, outcome: 'matched', paymentReferenceID: id }])
 * // the rows a store writes: the invoice, the notification, its transaction
 * assert.deepStrictEqual(applied.changes.payments.map((p) => p.state.status), ['Charged'])
 * assert.deepStrictEqual(applied.changes.camt054Messages, [{ messageId: 'MSG-1', at: '2026-11-21T11:00:00.000Z' }])
 * assert.deepStrictEqual(applied.changes.camt054Transactions, [{ transactionKey: '["NO9386011117947","E-1",1]', bookingDate: '2026-11-21' }])
 * // the same entry sent again in another notification is a duplicate, not a second payment
 * const again = parseCamt054(xml('MSG-2'))
 * assert.ok(E.isRight(again))
 * const twice = receiveCamt054(applied.world, again.right, { at: '2026-11-21T12:00:00.000Z' })
 * assert.strictEqual(twice.report[0]?.outcome, 'duplicate')
 * assert.strictEqual(twice.world.payments, applied.world.payments)
 * assert.strictEqual(twice.changes.payments.length, 0)
 */
export const receiveCamt054 = (world: World, notification: Camt054Notification, ctx: EventContext): Camt054Received => {
  const transactions = transactionsOf(notification)
  const unchanged = (outcome: (t: Camt054Transaction) => TransferOutcome | typeof DUPLICATE): Camt054Received => ({
    world,
    report: transactions.map((t) => rowOf(t, outcome(t))),
    deliveries: NONE,
    events: NONE,
    changes: noCamt054Changes
  })
  const refuseAll = (error: PaymentError): Camt054Received => unchanged(() => ({ outcome: 'refused', error }))
  if (!isWorld(world)) return refuseAll(unreadable)
  const checked = checkContext(ctx, false)
  if (E.isLeft(checked)) return refuseAll(checked.left)
  const messageId = own(notification, 'messageId')
  if (typeof messageId !== 'string') return refuseAll(validationError([issue('messageId', 'type', { expected: 'string' })]))
  const { at } = checked.right
  // what a world remembers is bounded: 400 days of messages and of booked transactions, each
  // forgotten in O(log n) from the persistent maps the world keeps them in (docs/decisions.md)
  const cutoff = new Date(Date.parse(at) - CAMT054_MEMORY_DAYS * DAY_MS).toISOString().slice(0, 10)
  const before = Date.parse(cutoff) - 1
  let messages = expiringMapOf(own(world, 'camt054Messages'), camt054MessageTimeOf).withoutUntil(before)
  if (messages.has(messageId)) return unchanged(() => DUPLICATE)
  let seen = expiringMapOf(own(world, 'camt054Transactions'), camt054TransactionTimeOf).withoutUntil(before)
  const tooOld = refusedBy('bookingDate', 'too_small', { min: cutoff, rule: 'too-old' })
  // each transaction: a duplicate, or a transfer to apply (refused as it is when a rule refuses it)
  const duplicate: boolean[] = []
  const transfers: BankTransfer[] = []
  const remembered: Camt054TransactionRow[] = []
  for (const t of transactions) {
    const bookingDate = own(t, 'bookingDate') as string
    const key = keyOfTransaction(t)
    if (key !== undefined && seen.has(key)) {
      duplicate.push(true)
      continue
    }
    duplicate.push(false)
    const rule = own(t, 'refusal') as Camt054Refusal | undefined
    const refusal =
      rule !== undefined ? REFUSALS[rule] : own(t, 'reversal') === true ? reversal : key === undefined ? noReference : !(bookingDate >= cutoff) ? tooOld : undefined
    // remembered unless it is too old to be: then it is refused each time it comes
    if (key !== undefined && refusal !== tooOld) {
      const row: Camt054TransactionRow = { transactionKey: key, bookingDate }
      seen = seen.with(key, row, camt054TransactionTimeOf(row))
      remembered.push(row)
    }
    const transfer: { kid?: string; amount: number; refusal?: PaymentError } = { amount: own(t, 'amount') as number }
    const kid = own(t, 'kid')
    if (typeof kid === 'string') transfer.kid = kid
    if (refusal !== undefined) transfer.refusal = refusal
    transfers.push(transfer)
  }
  // the context as checked (an own catchAllUrl undefined is none): each transfer checks it again
  const done = applyTransfers(world, transfers, checked.right)
  let next = 0
  const report = transactions.map((t, i): Camt054ReportRow => rowOf(t, duplicate[i] === true ? DUPLICATE : (done.outcomes[next++] as TransferOutcome)))
  const message: Camt054MessageRow = { messageId, at }
  messages = messages.with(messageId, message, camt054MessageTimeOf(message))
  return {
    world: { ...world, payments: done.payments, camt054Messages: messages, camt054Transactions: seen },
    report,
    deliveries: done.deliveries,
    events: done.events,
    changes: { ...noCamt054Changes, payments: done.changes, camt054Messages: [message], camt054Transactions: remembered }
  }
}
