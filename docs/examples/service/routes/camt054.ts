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
import { CAMT054_MEMORY_DAYS } from 'paysplit/camt054'
import { deleteForgottenCamt054 } from '../db/store.js'
import { bankDocumentRoute } from './ocr.js'

/** The default limit of a notification: 16 MiB (some 10,000 transactions). */
export const CAMT054_MAX_BYTES = 16 * 1024 * 1024

/** Answers `POST /bank/camt054`; what paysplit has forgotten goes after each, up to 100 rows of each table. */
export const bankCamt054 = bankDocumentRoute({
  noun: 'notification',
  maxBytes: (deps) => deps.config.camt054MaxBytes ?? CAMT054_MAX_BYTES,
  parse: (deps, text) => deps.rules.parseCamt054(text),
  step: (deps, n, ctx) => ({ keys: deps.rules.camt054Keys(n), run: (world) => deps.rules.receiveCamt054(world, n, ctx) }),
  duplicate: (o) => o.changes.camt054Messages.length === 0,
  parkedAs: (n) => ({ columns: ['camt054_message_id', 'camt054_transaction_number'], values: [n.messageId] }),
  // the answer
  remember: (tx, n, report, requestId) =>
    tx.query('UPDATE camt054_messages SET transactions = $2, report = $3, request_id = $4 WHERE message_id = $1', [n.messageId, report.length, JSON.stringify(report), requestId]),
  after: (deps) => deleteForgottenCamt054(deps.db, deps.now(), CAMT054_MEMORY_DAYS),
  logged: 'camt.054 notification applied',
  transactions: (_, report) => report.length,
  named: (n) => ({ messageId: n.messageId })
})
