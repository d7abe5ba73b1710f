/**
 * `paysplit/camt054` — KID payments from ISO 20022 camt.054 bank notifications (docs/rules.md
 * C15, C17), beside the OCR giro files of `paysplit/http`: `parseCamt054` reads and checks a
 * notification, `receiveCamt054` applies it to the world as `receiveOcrGiro` applies a file (the
 * same record: the report, the webhooks, the events, the rows to write), `camt054Keys` names the
 * rows it reads, and `camt054Xml` writes one (for tests and benchmarks). The only entry that reads
 * XML: it needs the `saxes` package (an optional peer dependency of paysplit), which no other entry
 * imports. `receiveCamt054` and `camt054Keys` read no XML: `paysplit/http` exports them too, for a
 * service that reads its notifications elsewhere.
 *
 * @packageDocumentation
 */

// reading a notification
export { CAMT054_MAX_DEPTH, CAMT054_MAX_LENGTH, parseCamt054 } from './bankFiles/camt054.js'
export { CAMT054_VERSIONS } from './bankFiles/camt054Model.js'
export type { Camt054Notification, Camt054Refusal, Camt054Rule, Camt054Transaction, Camt054Version } from './bankFiles/camt054Model.js'

// applying it, and the rows a store loads and writes (also in `paysplit/http`)
export { CAMT054_MEMORY_DAYS, camt054Keys, receiveCamt054 } from './service/camt054Receive.js'
export type { Camt054Received, Camt054ReportRow } from './service/camt054Receive.js'
export { camt054TransactionKey } from './service/world.js'
export type { Camt054MessageRow, Camt054TransactionRow } from './service/world.js'
export type { Camt054Changes } from './service/outcome.js'
export type { Camt054RowKeys } from './service/rows.js'

// writing one
export { camt054Xml } from './bankFiles/camt054Writer.js'
export type { Camt054Draft, Camt054DraftDetail, Camt054DraftEntry, Camt054DraftNotification } from './bankFiles/camt054Writer.js'
