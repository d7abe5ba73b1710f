/**
 * Bank notifications, applied (docs/rules.md C17): the transactions of a camt.054 notification
 * applied to the world through `receiveTransferByKid`, as an OCR giro file's are (one function,
 * `bankTransfers.ts`), once per message, each transaction once, with a report row per
 * transaction. Reads no XML: a notification is what `parseCamt054` gave.
 *
 * @module camt054Receive
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { issue, validationError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import { own } from '../internal/own.js'
import type { EventContext } from './operation.js'
import type { OcrReportRow } from './ocrReceive.js'
import { checkContext, unreadable } from './context.js'
import { isWorld, type Deliveries, type World } from './world.js'
import type { Camt054Notification, Camt054Refusal, Camt054Transaction } from '../bankFiles/camt054Model.js'
import { applyTransfers, type BankTransfer, type TransferOutcome } from './bankTransfers.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One row of the report of {@link receiveCamt054}, in document order: an OCR giro report row
 * (`transactionNumber` the transaction's position in the notification, `kid` `''` when it has
 * none) with `outcome` `matched`, `unmatched`, `refused` or `duplicate`.
 */
export type Camt054ReportRow = OcrReportRow

/** The outcome of {@link receiveCamt054}: the new world, the report, the webhooks, the events. */
export type Camt054Received = readonly [
  world: World,
  report: ReadonlyArray<Camt054ReportRow>,
  deliveries: Deliveries,
  events: ReadonlyArray<PaymentEvent>
]

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
 * const [, report] = receiveCamt054(emptyWorld, read.right, { at: '2025-02-06T10:00:00.000Z' })
 * assert.ok(report[0]?.outcome === 'refused' && report[0].error.issues?.[0]?.params?.rule === 'too-old')
 */
export const CAMT054_MEMORY_DAYS = 400

const DAY_MS = 86_400_000

// -------------------------------------------------------------------------------------
// keys and reasons
// -------------------------------------------------------------------------------------

/**
 * The key a transaction is recognised by when a bank sends it again in another notification
 * (docs/rules.md C17): its account, its entry's reference and its own reference (or, without one,
 * its position in the entry), joined by U+0000 (a character no XML text holds, so no two
 * transactions read from documents share a key by accident). A world remembers the keys of the
 * transactions seen; a service stores them as they are.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { camt054TransactionKey } from 'paysplit/camt054'
 * assert.strictEqual(
 *   camt054TransactionKey({ account: 'NO9386011117947', entryReference: 'E-1', transactionReference: 'T-1', detailNumber: 1 }),
 *   'NO9386011117947\u0000E-1\u0000RT-1'
 * )
 * assert.strictEqual(camt054TransactionKey({ account: 'NO9386011117947', entryReference: 'E-1', detailNumber: 2 }), 'NO9386011117947\u0000E-1\u0000N2')
 */
export const camt054TransactionKey = (t: Pick<Camt054Transaction, 'account' | 'entryReference' | 'transactionReference' | 'detailNumber'>): string => {
  const reference = own(t, 'transactionReference') as string | undefined
  return `${own(t, 'account') as string}\u0000${own(t, 'entryReference') as string}\u0000${reference === undefined ? `N${String(own(t, 'detailNumber'))}` : `R${reference}`}`
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

/** A transaction's report row: its number, KID (`''` when it has none) and amount, and what became of it. */
const rowOf = (t: Camt054Transaction, o: TransferOutcome | typeof DUPLICATE): Camt054ReportRow => {
  const transactionNumber = own(t, 'transactionNumber') as number
  const kid = (own(t, 'kid') as string | undefined) ?? ''
  const amount = own(t, 'amount') as number
  switch (o.outcome) {
    case 'matched':
      return { transactionNumber, kid, amount, outcome: 'matched', paymentReferenceID: o.paymentReferenceID }
    case 'refused':
      return { transactionNumber, kid, amount, outcome: 'refused', error: o.error }
    case 'unmatched':
      return { transactionNumber, kid, amount, outcome: 'unmatched' }
    case 'duplicate':
      return { transactionNumber, kid, amount, outcome: 'duplicate' }
  }
}

/** The transactions of a notification in document order, read through own properties only. */
const transactionsOf = (notification: unknown): Camt054Transaction[] => {
  const all = own(notification, 'transactions')
  return Array.isArray(all) ? (all as Camt054Transaction[]) : []
}

/** A map of `key → YYYY-MM-DD` without the entries before `cutoff`. */
const since = (m: unknown, cutoff: string): Map<string, string> => {
  const kept = new Map<string, string>()
  if (m instanceof Map) for (const [k, day] of m as Map<string, string>) if (day >= cutoff) kept.set(k, day)
  return kept
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
 * const [after, report] = receiveCamt054(world, read.right, { at: '2026-11-21T11:00:00.000Z' })
 * assert.deepStrictEqual(report, [{ transactionNumber: 1, kid: made.right, amount: 10000, outcome: 'matched', paymentReferenceID: id }])
 * // the same entry sent again in another notification is a duplicate, not a second payment
 * const again = parseCamt054(xml('MSG-2'))
 * assert.ok(E.isRight(again))
 * const [same, twice] = receiveCamt054(after, again.right, { at: '2026-11-21T12:00:00.000Z' })
 * assert.strictEqual(twice[0]?.outcome, 'duplicate')
 * assert.strictEqual(same.payments, after.payments)
 */
export const receiveCamt054 = (world: World, notification: Camt054Notification, ctx: EventContext): Camt054Received => {
  const transactions = transactionsOf(notification)
  const refuseAll = (error: PaymentError): Camt054Received => [world, transactions.map((t) => rowOf(t, { outcome: 'refused', error })), [], []]
  if (!isWorld(world)) return refuseAll(unreadable)
  const checked = checkContext(ctx, false)
  if (E.isLeft(checked)) return refuseAll(checked.left)
  const messageId = own(notification, 'messageId')
  if (typeof messageId !== 'string') return refuseAll(validationError([issue('messageId', 'type', { expected: 'string' })]))
  const { at, catchAllUrl } = checked.right
  const today = at.slice(0, 10)
  // what a world remembers is bounded: 400 days of messages and of booked transactions (docs/decisions.md)
  const cutoff = new Date(Date.parse(at) - CAMT054_MEMORY_DAYS * DAY_MS).toISOString().slice(0, 10)
  const messages = since(own(world, 'camt054Messages'), cutoff)
  if (messages.has(messageId)) return [world, transactions.map((t) => rowOf(t, DUPLICATE)), [], []]
  const seen = since(own(world, 'camt054Transactions'), cutoff)
  const tooOld = refusedBy('bookingDate', 'too_small', { min: cutoff, rule: 'too-old' })
  // each transaction: a duplicate, or a transfer to apply (refused as it is when a rule refuses it)
  const duplicate: boolean[] = []
  const transfers: BankTransfer[] = []
  for (const t of transactions) {
    const entryReference = own(t, 'entryReference')
    const bookingDate = own(t, 'bookingDate') as string
    const key = typeof entryReference === 'string' && entryReference !== '' ? camt054TransactionKey(t) : undefined
    if (key !== undefined && seen.has(key)) {
      duplicate.push(true)
      continue
    }
    duplicate.push(false)
    const rule = own(t, 'refusal') as Camt054Refusal | undefined
    const refusal =
      rule !== undefined ? REFUSALS[rule] : own(t, 'reversal') === true ? reversal : key === undefined ? noReference : !(bookingDate >= cutoff) ? tooOld : undefined
    if (key !== undefined && refusal !== tooOld) seen.set(key, bookingDate)
    const transfer: { kid?: string; amount: number; refusal?: PaymentError } = { amount: own(t, 'amount') as number }
    const kid = own(t, 'kid')
    if (typeof kid === 'string') transfer.kid = kid
    if (refusal !== undefined) transfer.refusal = refusal
    transfers.push(transfer)
  }
  const context: EventContext = catchAllUrl === undefined ? { at } : { at, catchAllUrl }
  const done = applyTransfers(world, transfers, context)
  let next = 0
  const report = transactions.map((t, i): Camt054ReportRow => rowOf(t, duplicate[i] === true ? DUPLICATE : (done.outcomes[next++] as TransferOutcome)))
  messages.set(messageId, today)
  return [{ ...world, payments: done.payments, camt054Messages: messages, camt054Transactions: seen }, report, done.deliveries, done.events]
}
