/**
 * `paysplit/camt054` — KID payments from ISO 20022 camt.054 bank notifications (docs/rules.md
 * C17), beside the OCR giro files of `paysplit/http`: `parseCamt054` reads and checks a
 * notification, `receiveCamt054` applies it to the world as `receiveOcrGiro` applies a file, and
 * `camt054Xml` writes one (for tests and benchmarks). The only entry that reads XML: it needs the
 * `saxes` package (an optional peer dependency of paysplit), which no other entry imports.
 *
 * @packageDocumentation
 */

// reading a notification
export { CAMT054_MAX_DEPTH, CAMT054_MAX_LENGTH, parseCamt054 } from './bankFiles/camt054.js'
export { CAMT054_VERSIONS } from './bankFiles/camt054Model.js'
export type { Camt054Notification, Camt054Refusal, Camt054Rule, Camt054Transaction, Camt054Version } from './bankFiles/camt054Model.js'

// applying it
export { CAMT054_MEMORY_DAYS, camt054TransactionKey, receiveCamt054 } from './service/camt054Receive.js'
export type { Camt054Received, Camt054ReportRow } from './service/camt054Receive.js'

// writing one
export { camt054Xml } from './bankFiles/camt054Writer.js'
export type { Camt054Draft, Camt054DraftDetail, Camt054DraftEntry, Camt054DraftNotification } from './bankFiles/camt054Writer.js'
