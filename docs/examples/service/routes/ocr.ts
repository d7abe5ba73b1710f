/**
 * `POST /bank/ocr` (bank key): an OCR giro file, as Nets sends KID payments to the payee, body
 * `text/plain`. The file is checked whole by `parseOcrGiro` (a broken one is 400, naming the line
 * and the rule, and nothing of it is applied); then, in one transaction, the transmission is
 * claimed in `ocr_transmissions` (unique by data sender and transmission number: a file sent
 * again, even by two processes at once, is applied once and answered `duplicate: true`), and each
 * transaction is applied in file order as `receiveOcrTransaction` applies it — its invoice's row
 * written, its webhooks put in the outbox, an unmatched transfer parked in `unmatched_transfers`.
 * The answer is the report, one row per transaction (docs/service.md).
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Payment } from 'paysplit'
import { parseOcrGiro, receiveOcrTransaction, type OcrReportRow, type OcrTransaction, type World } from 'paysplit/http'
import { isSqlError, retryableStates } from '../db/db.js'
import { loadSlice, noKeys, writeChanges, WriteConflict, type Slice } from '../db/store.js'
import { json, readBody, type Reply } from '../http.js'
import type { Deps } from './context.js'

/** The default limit of a file: 8 MiB (about 100,000 records). */
export const OCR_MAX_BYTES = 8 * 1024 * 1024

/** A report row as answered: a parked transfer carries the id of its `unmatched_transfers` row. */
type AnsweredRow = OcrReportRow & { readonly unmatchedTransferID?: string }

interface Applied {
  readonly duplicate: boolean
  readonly report: ReadonlyArray<AnsweredRow>
  readonly deliveries: number
}

/** Rows of `unmatched_transfers` written per statement (7 parameters each, under PostgreSQL's 65,535). */
const PARK_BATCH = 1000

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Open invoices by KID: the keys of the payments loaded that are `Initiated` invoices. */
const openByKid = (payments: ReadonlyMap<string, Payment>): Map<string, string[]> => {
  const open = new Map<string, string[]>()
  for (const [key, p] of payments) {
    if (p.kind !== 'invoice' || p.status !== 'Initiated' || p.kid === undefined) continue
    const keys = open.get(p.kid)
    if (keys === undefined) open.set(p.kid, [key])
    else keys.push(key)
  }
  return open
}

/** The transaction of one file: claim the transmission, apply its transactions, store the report. */
const apply = async (deps: Deps, transactions: ReadonlyArray<OcrTransaction>, head: { readonly dataSender: string; readonly transmissionNumber: string; readonly dataRecipient: string; readonly netsDate: string }, requestId: string): Promise<Applied> =>
  deps.db.transaction(async (tx) => {
    const total = transactions.reduce((sum, t) => sum + Math.abs(t.amount), 0)
    const claimed = await tx.query(
      `INSERT INTO ocr_transmissions (data_sender, transmission_number, data_recipient, nets_date, transactions, total_amount, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (data_sender, transmission_number) DO NOTHING
       RETURNING data_sender`,
      [head.dataSender, head.transmissionNumber, head.dataRecipient, head.netsDate, transactions.length, total, requestId]
    )
    if (claimed.rows.length === 0) {
      const report = transactions.map((t): AnsweredRow => ({ transactionNumber: t.transactionNumber, kid: t.kid, amount: t.amount, outcome: 'duplicate' }))
      return { duplicate: true, report, deliveries: 0 }
    }
    // every open invoice the file can reach, locked, loaded once
    const kids = [...new Set(transactions.map((t) => t.kid))]
    const loaded = await loadSlice(tx, { ...noKeys, openKids: kids }, { lock: true, lockCustomers: false }, deps.rules)
    const current = new Map(loaded.world.payments)
    const versions = new Map(loaded.paymentVersions)
    const open = openByKid(current)
    const at = deps.now()
    const catchAll = deps.config.catchAllUrl !== undefined ? { catchAllUrl: deps.config.catchAllUrl } : {}
    const report: AnsweredRow[] = []
    const parked: Array<ReadonlyArray<unknown>> = []
    let deliveries = 0
    for (const t of transactions) {
      // each transfer on the invoices holding its KID (a slice of the slice), written on its own
      const keys = open.get(t.kid) ?? []
      const payments = new Map<string, Payment>()
      for (const k of keys) payments.set(k, current.get(k) as Payment)
      const world: World = { ...loaded.world, payments }
      const slice: Slice = { world, paymentVersions: versions, customerVersions: loaded.customerVersions }
      const { world: after, row, deliveries: sent, events } = receiveOcrTransaction(world, t, { at, ...catchAll })
      if (after !== world) {
        // the events paysplit applied, stored as they are
        await writeChanges(tx, slice, after, sent, events)
        deliveries += sent.length
        for (const [k, p] of after.payments) {
          if (payments.get(k) === p) continue
          current.set(k, p)
          versions.set(k, p.version)
          if (p.status !== 'Initiated') keys.splice(keys.indexOf(k), 1)
        }
      }
      if (row.outcome === 'unmatched') {
        const id = randomUUID()
        parked.push([id, t.kid, t.amount, requestId, head.dataSender, head.transmissionNumber, t.transactionNumber])
        report.push({ ...row, unmatchedTransferID: id })
      } else report.push(row)
    }
    // the parked transfers, a thousand rows a statement
    for (let i = 0; i < parked.length; i += PARK_BATCH) {
      const batch = parked.slice(i, i + PARK_BATCH)
      const values = batch.map((_, r) => `(${[1, 2, 3, 4, 5, 6, 7].map((c) => `$${String(r * 7 + c)}`).join(',')})`).join(',')
      await tx.query(
        `INSERT INTO unmatched_transfers (id, kid, amount, request_id, ocr_data_sender, ocr_transmission_number, ocr_transaction_number) VALUES ${values}`,
        batch.flat()
      )
    }
    await tx.query('UPDATE ocr_transmissions SET report = $3 WHERE data_sender = $1 AND transmission_number = $2', [
      head.dataSender,
      head.transmissionNumber,
      JSON.stringify(report)
    ])
    return { duplicate: false, report, deliveries }
  })

/**
 * Answers `POST /bank/ocr` once server.ts has checked the bank key, the rate limit and the method:
 * the body's size, the file, the report.
 */
export const bankOcr = async (deps: Deps, req: IncomingMessage, requestId: string): Promise<Reply> => {
  const read = await readBody(req, deps.config.ocrMaxBytes ?? OCR_MAX_BYTES)
  if (read.kind === 'tooLarge') return json(413, { success: false, error: { code: 'PayloadTooLarge', message: 'The file is too large.' } })
  if (read.kind === 'aborted') return json(400, undefined)
  const parsed = parseOcrGiro(read.text)
  if (parsed._tag === 'Left') {
    const e = parsed.left
    return json(400, { success: false, error: { code: e.code, message: e.message, ...(e.issues !== undefined ? { issues: e.issues } : {}) } })
  }
  const t = parsed.right
  const transactions = t.assignments.flatMap((a) => a.transactions)
  const head = { dataSender: t.dataSender, transmissionNumber: t.transmissionNumber, dataRecipient: t.dataRecipient, netsDate: t.netsDate }
  const attempts = deps.config.maxTransactionAttempts
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const applied = await apply(deps, transactions, head, requestId)
      if (applied.deliveries > 0) deps.outboxWritten()
      if (!applied.duplicate) {
        const counts: Record<string, number> = {}
        for (const r of applied.report) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1
        deps.log.info('ocr transmission applied', { requestId, transactions: transactions.length, ...counts })
      }
      return json(200, { transmissionNumber: t.transmissionNumber, dataSender: t.dataSender, duplicate: applied.duplicate, report: applied.report })
    } catch (e) {
      // a lost race (a version that moved, a serialization failure, a deadlock): run the file again
      if (!(e instanceof WriteConflict) && !(isSqlError(e) && retryableStates.has(e.code))) throw e
    }
    const backoff = Math.min(50, 2 ** attempt)
    await sleep(backoff / 2 + Math.random() * backoff)
  }
  return json(409, { success: false, error: { code: 'ConcurrentModification', message: 'The invoices kept changing; send the file again.' } })
}
