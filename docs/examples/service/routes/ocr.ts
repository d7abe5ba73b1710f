/**
 * `POST /bank/ocr` (bank key): an OCR giro file, as Nets sends KID payments to the payee, body
 * `text/plain`. The file is checked whole by `parseOcrGiro` (a broken one is 400, naming the line
 * and the rule, and nothing of it is applied); then, in one transaction, paysplit's store loop:
 * the rows `ocrKeys` names (the open invoices of its KIDs, the transmission's row), `receiveOcrGiro`
 * on them, its `changes` written — every invoice it paid, at the version read, its events and
 * outbox rows, the transmission's row (unique by data sender and transmission number: a file sent
 * again, even by two processes at once, is applied once and answered `duplicate: true`) — and the
 * transfers no open invoice holds parked in `unmatched_transfers`. The answer is the report, one
 * row per transaction (docs/service.md).
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Either } from 'fp-ts/lib/Either.js'
import type { PaymentError } from 'paysplit'
import type { OcrReportRow, OcrTransaction, OcrTransmission, Outcome as Operated } from 'paysplit/http'
import type { Queryable } from '../db/db.js'
import { BATCH, valuesList } from '../db/store.js'
import { json, readBody, type Reply } from '../http.js'
import { runTransaction, type Step } from '../transaction.js'
import { eventContext, transactionOptions, type Deps } from './context.js'

/** The default limit of a file: 8 MiB (about 100,000 records). */
export const OCR_MAX_BYTES = 8 * 1024 * 1024

/** A report row as answered: a parked transfer carries the id of its `unmatched_transfers` row. */
export type AnsweredRow = OcrReportRow & { readonly unmatchedTransferID?: string }

/**
 * The report with every `unmatched` row parked in `unmatched_transfers` (`source`: the columns that
 * name the file or notification and the row's transaction number, after `id, kid, amount,
 * request_id`), a thousand rows a statement; each parked row answered with its id.
 */
export const parkUnmatched = async (
  tx: Queryable,
  report: ReadonlyArray<OcrReportRow>,
  requestId: string,
  source: { readonly columns: ReadonlyArray<string>; readonly values: ReadonlyArray<unknown> }
): Promise<ReadonlyArray<AnsweredRow>> => {
  const parked: Array<ReadonlyArray<unknown>> = []
  const answered = report.map((row): AnsweredRow => {
    if (row.outcome !== 'unmatched') return row
    const id = randomUUID()
    parked.push([id, row.kid, row.amount, requestId, ...source.values, row.transactionNumber])
    return { ...row, unmatchedTransferID: id }
  })
  const columns = ['id', 'kid', 'amount', 'request_id', ...source.columns]
  for (let i = 0; i < parked.length; i += BATCH) {
    const batch = parked.slice(i, i + BATCH)
    await tx.query(`INSERT INTO unmatched_transfers (${columns.join(', ')}) VALUES ${valuesList(batch.length, columns.length)}`, batch.flat())
  }
  return answered
}

/** A refused file or notification: 400, its code, message and issues (the line or element path and the rule). */
export const refusedDocument = (e: PaymentError): Reply =>
  json(400, { success: false, error: { code: e.code, message: e.message, ...(e.issues !== undefined ? { issues: e.issues } : {}) } })

/** Counts of a report's outcomes, for the log line. */
export const outcomeCounts = (report: ReadonlyArray<OcrReportRow>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const r of report) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1
  return counts
}

/**
 * What tells one kind of bank document apart in its route (an OCR giro file, a camt.054
 * notification); {@link bankDocumentRoute} is the flow they share.
 */
export interface BankDocument<D, O extends Operated & { readonly report: ReadonlyArray<OcrReportRow> }> {
  /** `file` or `notification`, as the answers name it. */
  readonly noun: string
  readonly maxBytes: (deps: Deps) => number
  readonly parse: (deps: Deps, text: string) => Either<PaymentError, D>
  /** The rows to load and paysplit's operation on them, in `ctx` (a fresh one each attempt). */
  readonly step: (deps: Deps, document: D, ctx: ReturnType<typeof eventContext>) => Step<O>
  /** True when paysplit asked to remember nothing: the document was applied before. */
  readonly duplicate: (outcome: O) => boolean
  /** The columns naming the document in `unmatched_transfers`, and their values (see {@link parkUnmatched}). */
  readonly parkedAs: (document: D) => { readonly columns: ReadonlyArray<string>; readonly values: ReadonlyArray<unknown> }
  /** Writes the answer (and the document's details) beside the row paysplit asked for. */
  readonly remember: (tx: Queryable, document: D, report: ReadonlyArray<AnsweredRow>, requestId: string) => Promise<unknown>
  /** After the commit, whatever the outcome (never a reason to fail the answer). */
  readonly after?: (deps: Deps) => Promise<unknown>
  /** The log line of a document applied, and its number of transactions. */
  readonly logged: string
  readonly transactions: (document: D, report: ReadonlyArray<AnsweredRow>) => number
  /** The fields of the answer that name the document. */
  readonly named: (document: D) => Record<string, unknown>
}

/**
 * Answers a bank document's route once server.ts has checked the bank key, the rate limit and the
 * method: the body's size (413 past it, also for a chunked body), the document (400 when refused,
 * nothing applied), then paysplit's store loop in one transaction with the unmatched transfers
 * parked, and the report.
 */
export const bankDocumentRoute =
  <D, O extends Operated & { readonly report: ReadonlyArray<OcrReportRow> }>(doc: BankDocument<D, O>) =>
  async (deps: Deps, req: IncomingMessage, requestId: string): Promise<Reply> => {
    const read = await readBody(req, doc.maxBytes(deps))
    if (read.kind === 'tooLarge') return json(413, { success: false, error: { code: 'PayloadTooLarge', message: `The ${doc.noun} is too large.` } })
    if (read.kind === 'aborted') return json(400, undefined)
    const parsed = doc.parse(deps, read.text)
    if (parsed._tag === 'Left') return refusedDocument(parsed.left)
    const document = parsed.right
    const outcome = await runTransaction(
      deps.db,
      {
        lock: true,
        step: () => doc.step(deps, document, eventContext(deps)),
        finish: async (tx, o) => {
          const duplicate = doc.duplicate(o)
          if (duplicate) return { duplicate, report: o.report }
          const report = await parkUnmatched(tx, o.report, requestId, doc.parkedAs(document))
          await doc.remember(tx, document, report, requestId)
          return { duplicate, report }
        }
      },
      transactionOptions(deps)
    )
    await doc.after?.(deps).catch(() => 0)
    if (outcome.kind !== 'done') {
      return json(409, { success: false, error: { code: 'ConcurrentModification', message: `The invoices kept changing; send the ${doc.noun} again.` } })
    }
    if (outcome.deliveries > 0) deps.outboxWritten()
    const { duplicate, report } = outcome.result
    if (!duplicate) deps.log.info(doc.logged, { requestId, transactions: doc.transactions(document, report), ...outcomeCounts(report) })
    return json(200, { ...doc.named(document), duplicate, report })
  }

const transactionsOf = (t: OcrTransmission): ReadonlyArray<OcrTransaction> => t.assignments.flatMap((a) => a.transactions)

/** Answers `POST /bank/ocr`. */
export const bankOcr = bankDocumentRoute({
  noun: 'file',
  maxBytes: (deps) => deps.config.ocrMaxBytes ?? OCR_MAX_BYTES,
  parse: (deps, text) => deps.rules.parseOcrGiro(text),
  step: (deps, t, ctx) => ({ keys: deps.rules.ocrKeys(t), run: (world) => deps.rules.receiveOcrGiro(world, t, ctx) }),
  duplicate: (o) => o.changes.ocrTransmissions.length === 0,
  parkedAs: (t) => ({ columns: ['ocr_data_sender', 'ocr_transmission_number', 'ocr_transaction_number'], values: [t.dataSender, t.transmissionNumber] }),
  // the file's details and the answer
  remember: (tx, t, report, requestId) => {
    const transactions = transactionsOf(t)
    return tx.query(
      `UPDATE ocr_transmissions SET data_recipient = $3, nets_date = $4, transactions = $5, total_amount = $6, report = $7, request_id = $8
        WHERE data_sender = $1 AND transmission_number = $2`,
      [t.dataSender, t.transmissionNumber, t.dataRecipient, t.netsDate, transactions.length, transactions.reduce((sum, x) => sum + Math.abs(x.amount), 0), JSON.stringify(report), requestId]
    )
  },
  logged: 'ocr transmission applied',
  transactions: (t) => transactionsOf(t).length,
  named: (t) => ({ transmissionNumber: t.transmissionNumber, dataSender: t.dataSender })
})
