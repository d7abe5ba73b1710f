/**
 * `POST /bank/camt054` (bank key): an ISO 20022 camt.054 credit notification, as every Norwegian
 * bank reports incoming KID payments beside OCR giro, body `application/xml`. The document is read
 * whole by `parseCamt054` (one that is not well-formed, not camt.054, or whose sums disagree is
 * 400, naming the element path and the rule, and nothing of it is applied); then, in one
 * transaction, paysplit's store loop: the rows `camt054Keys` names (the open invoices of its KIDs,
 * the message's row, the rows of its transactions), `receiveCamt054` on them, its `changes` written
 * (the invoices paid, their events and outbox rows, the message and its transactions remembered),
 * and the transfers no open invoice holds parked in `unmatched_transfers`. A notification is
 * applied once (by its message id: sent again, `duplicate: true`), and a transaction the bank sends
 * again in another notification is reported `duplicate`. The answer is the report, one row per
 * transaction, as `POST /bank/ocr` answers (docs/service.md).
 */
import type { IncomingMessage } from 'node:http'
import { CAMT054_MEMORY_DAYS } from 'paysplit/camt054'
import { deleteForgottenCamt054 } from '../db/store.js'
import { json, readBody, type Reply } from '../http.js'
import { runTransaction } from '../transaction.js'
import { eventContext, transactionOptions, type Deps } from './context.js'
import { outcomeCounts, parkUnmatched, refusedDocument } from './ocr.js'

/** The default limit of a notification: 16 MiB (some 10,000 transactions). */
export const CAMT054_MAX_BYTES = 16 * 1024 * 1024

/**
 * Answers `POST /bank/camt054` once server.ts has checked the bank key, the rate limit and the
 * method: the body's size (413 past it, also for a chunked body), the document, the report.
 */
export const bankCamt054 = async (deps: Deps, req: IncomingMessage, requestId: string): Promise<Reply> => {
  const read = await readBody(req, deps.config.camt054MaxBytes ?? CAMT054_MAX_BYTES)
  if (read.kind === 'tooLarge') return json(413, { success: false, error: { code: 'PayloadTooLarge', message: 'The notification is too large.' } })
  if (read.kind === 'aborted') return json(400, undefined)
  const parsed = deps.rules.parseCamt054(read.text)
  if (parsed._tag === 'Left') return refusedDocument(parsed.left)
  const notification = parsed.right
  const outcome = await runTransaction(
    deps.db,
    {
      lock: true,
      step: () => {
        const ctx = eventContext(deps)
        return { keys: deps.rules.camt054Keys(notification), run: (world) => deps.rules.receiveCamt054(world, notification, ctx) }
      },
      finish: async (tx, o) => {
        const duplicate = o.changes.camt054Messages.length === 0
        if (duplicate) return { duplicate, report: o.report }
        const report = await parkUnmatched(tx, o.report, requestId, {
          columns: ['camt054_message_id', 'camt054_transaction_number'],
          values: [notification.messageId]
        })
        // the answer, beside the row paysplit asked for
        await tx.query('UPDATE camt054_messages SET transactions = $2, report = $3, request_id = $4 WHERE message_id = $1', [
          notification.messageId,
          report.length,
          JSON.stringify(report),
          requestId
        ])
        return { duplicate, report }
      }
    },
    transactionOptions(deps)
  )
  // what paysplit has forgotten goes, up to 100 rows of each table, after the commit (never a reason to fail the answer)
  await deleteForgottenCamt054(deps.db, deps.now(), CAMT054_MEMORY_DAYS).catch(() => 0)
  if (outcome.kind !== 'done') return json(409, { success: false, error: { code: 'ConcurrentModification', message: 'The invoices kept changing; send the notification again.' } })
  if (outcome.deliveries > 0) deps.outboxWritten()
  const { duplicate, report } = outcome.result
  if (!duplicate) deps.log.info('camt.054 notification applied', { requestId, transactions: report.length, ...outcomeCounts(report) })
  return json(200, { messageId: notification.messageId, duplicate, report })
}
