/**
 * The store of paysplit's store contract (docs/service.md, "The transaction of a request"): the
 * rows an operation's keys name, read from the service's tables into `worldOf`'s rows, and the
 * rows its `changes` list written back, with the outbox rows of its deliveries. It knows no route
 * and compares no worlds: paysplit says what to load and what to write.
 *
 * Rows are locked as they are read (`FOR UPDATE`), so two requests on one payment take turns
 * instead of failing; the version check of every write (`fromVersion`) still guards the rows a
 * request could not lock (a payment or a customer that did not exist yet), and the database's
 * unique constraints decide between two writers that raced.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Payment, PaymentError, PaymentIntentRequest } from 'paysplit'
import type { Camt054RowKeys } from 'paysplit/camt054'
import type {
  Camt054MessageRow,
  Camt054TransactionRow,
  CustomerRow,
  IdempotencyRecord,
  OcrTransmissionRow,
  Outcome,
  ReferenceRow,
  RowKeys,
  World,
  WorldRows
} from 'paysplit/http'
import type { Rules } from '../paysplit.js'
import type { AdmittedRows } from './admitted.js'
import type { Queryable } from './db.js'

/** The keys of any operation: a request's, a transfer's, a bank file's or a notification's. */
export type StoreKeys = RowKeys & Partial<Pick<Camt054RowKeys, 'ocrTransmissions' | 'camt054Messages' | 'camt054Transactions'>>

/** What was loaded: the rows, and which of the rows a write may replace were read (and locked). */
export interface Loaded {
  readonly rows: WorldRows
  /** Customers read, by id, with their version (a write replaces one only at that version). */
  readonly customerVersions: ReadonlyMap<string, number>
  /** camt.054 rows read (an expired one is replaced, a new one inserted). */
  readonly camt054Read: ReadonlySet<string>
}

/** A stored state that paysplit refuses (a newer schemaVersion, or a damaged document): the service's fault, 500. */
export class UnreadableState extends Error {
  constructor(readonly paymentReferenceID: string, readonly error: PaymentError) {
    super(`The stored state of payment ${paymentReferenceID} cannot be read: ${error.message}`)
  }
}

/** Another transaction wrote a row this one read: run the request again. */
export class WriteConflict extends Error {
  constructor(what: string) {
    super(`${what} changed while the request ran.`)
  }
}

interface PaymentRow {
  readonly id: string
  readonly version: number
  /** The state's JSON text, as the database gives it back: the key of the admitted rows. */
  readonly state: string
  readonly request: PaymentIntentRequest | null
  readonly kid: string | null
}

const NONE: ReadonlyArray<never> = []

/**
 * Loads the rows `keys` name (docs/service.md): payments by id, by create reference and the open
 * invoices of the KIDs, each with its reference (kept in its row) and its customer; the customers
 * named; the camt.054 and OCR giro rows named. Locks them (`FOR UPDATE`) when `lock`; customers only
 * when the keys name some (a create may write its customer; other operations only read it). The
 * idempotency key's row is read by the transaction (./idempotency.ts), which holds its lock.
 * Each payment row is checked by `rules.storedPayment` once per id, version and text (`admitted`).
 */
export const loadRows = async (tx: Queryable, keys: StoreKeys, lock: boolean, rules: Rules, admitted: AdmittedRows): Promise<Loaded> => {
  const forUpdate = lock ? ' FOR UPDATE' : ''
  const payments: Array<Payment> = []
  const references: Array<ReferenceRow> = []
  const customerIDs = new Set(keys.customerExternalIDs)
  if (keys.paymentReferenceIDs.length + keys.externalPaymentReferenceIDs.length + keys.openInvoiceKids.length > 0) {
    const rows = await tx.query<PaymentRow>(
      `SELECT payment_reference_id::text AS id, version, state::text AS state, request, kid
         FROM payments
        WHERE payment_reference_id = ANY($1::uuid[])
           OR external_payment_reference_id = ANY($2::text[])
           OR (kid = ANY($3::text[]) AND status = 'Initiated')
        ORDER BY payment_reference_id${forUpdate}`,
      // paysplit names payments by their id lower-cased; a path id that is no UUID names no row
      [keys.paymentReferenceIDs.filter((id) => UUID.test(id)), keys.externalPaymentReferenceIDs, keys.openInvoiceKids]
    )
    for (const row of rows.rows) {
      const checked = admitted.admit(row.id, row.version, row.state, rules.storedPayment)
      if (E.isLeft(checked)) throw new UnreadableState(row.id, checked.left)
      const p = checked.right
      payments.push(p)
      customerIDs.add(p.customerExternalID)
      if (row.request !== null) {
        references.push({
          externalPaymentReferenceID: p.externalPaymentReferenceID,
          paymentReferenceID: p.paymentReferenceID,
          request: row.request,
          ...(row.kid !== null ? { kid: row.kid } : {})
        })
      }
    }
  }
  const customers: Array<CustomerRow> = []
  const customerVersions = new Map<string, number>()
  if (customerIDs.size > 0) {
    const rows = await tx.query<{ id: string; record: CustomerRow['customer']; version: number }>(
      `SELECT customer_external_id AS id, record, version FROM customers
        WHERE customer_external_id = ANY($1::text[])
        ORDER BY customer_external_id${lock && keys.customerExternalIDs.length > 0 ? ' FOR UPDATE' : ''}`,
      [[...customerIDs]]
    )
    for (const row of rows.rows) {
      customers.push({ customerExternalID: row.id, customer: row.record })
      customerVersions.set(row.id, row.version)
    }
  }
  const ocrTransmissions: Array<OcrTransmissionRow> = []
  for (const t of keys.ocrTransmissions ?? NONE) {
    const rows = await tx.query<OcrTransmissionRow>(
      'SELECT data_sender AS "dataSender", transmission_number AS "transmissionNumber", at FROM ocr_transmissions WHERE data_sender = $1 AND transmission_number = $2',
      [t.dataSender, t.transmissionNumber]
    )
    ocrTransmissions.push(...rows.rows)
  }
  const camt054Read = new Set<string>()
  let camt054Messages: ReadonlyArray<Camt054MessageRow> = NONE
  let camt054Transactions: ReadonlyArray<Camt054TransactionRow> = NONE
  if ((keys.camt054Messages ?? NONE).length > 0) {
    camt054Messages = (
      await tx.query<Camt054MessageRow>(
        `SELECT message_id AS "messageId", at FROM camt054_messages WHERE message_id = ANY($1::text[]) ORDER BY message_id${forUpdate}`,
        [keys.camt054Messages]
      )
    ).rows
    for (const m of camt054Messages) camt054Read.add(`m:${m.messageId}`)
  }
  if ((keys.camt054Transactions ?? NONE).length > 0) {
    camt054Transactions = (
      await tx.query<Camt054TransactionRow>(
        `SELECT transaction_key AS "transactionKey", booking_date AS "bookingDate" FROM camt054_transactions
          WHERE transaction_key = ANY($1::text[]) ORDER BY transaction_key${forUpdate}`,
        [keys.camt054Transactions]
      )
    ).rows
    for (const t of camt054Transactions) camt054Read.add(`t:${t.transactionKey}`)
  }
  return {
    rows: { payments, customers, references, ocrTransmissions, camt054Messages, camt054Transactions },
    customerVersions,
    camt054Read
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The world of the rows loaded, with the idempotency key's row when there is one; a row paysplit refuses is the service's fault. */
export const worldOfRows = (rules: Rules, loaded: Loaded, key: IdempotencyRecord | undefined): World => {
  const built = rules.worldOf(key === undefined ? loaded.rows : { ...loaded.rows, idempotencyKeys: [key] })
  if (E.isLeft(built)) throw new UnreadableState(built.left.paymentReferenceID ?? '', built.left)
  return built.right
}

/** Rows of a multi-row VALUES list: `($1,$2,…),($k,…)`. */
export const valuesList = (rows: number, columns: number): string =>
  Array.from({ length: rows }, (_, r) => `(${Array.from({ length: columns }, (_, c) => `$${String(r * columns + c + 1)}`).join(',')})`).join(',')

/**
 * Writes `outcome.changes` (docs/service.md): each payment where its stored version is still
 * `fromVersion` (0: inserted, with the create reference of the same payment in its row), its events,
 * the customers (replaced at the version read, else inserted), the bank rows, and one outbox row per
 * delivery as paysplit gave it (`url`, `id`, `body`). Throws {@link WriteConflict} when a version
 * moved. The idempotency key's row is written by ./idempotency.ts.
 */
export const writeChanges = async (tx: Queryable, outcome: Outcome, loaded: Loaded, admitted: AdmittedRows): Promise<void> => {
  const { changes } = outcome
  const references = new Map(changes.references.map((r) => [r.paymentReferenceID.toLowerCase(), r]))
  /** eventID → the payment and version of its events row (the outbox rows reference it). */
  const eventRows = new Map<string, readonly [string, number]>()
  const events: Array<unknown> = []
  let eventCount = 0
  for (const c of changes.payments) {
    const id = c.paymentReferenceID.toLowerCase()
    const p = c.state
    const state = JSON.stringify(p)
    let written: { readonly rows: ReadonlyArray<{ readonly state: string }> }
    if (c.fromVersion === 0) {
      const reference = references.get(id)
      references.delete(id)
      written = await tx.query<{ state: string }>(
        `INSERT INTO payments (payment_reference_id, external_payment_reference_id, customer_external_id, kind, status, kid, version, state, request)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING state::text AS state`,
        [id, p.externalPaymentReferenceID, p.customerExternalID, p.kind, p.status, p.kid ?? null, p.version, state, JSON.stringify(reference?.request ?? null)]
      )
    } else {
      written = await tx.query<{ state: string }>(
        `UPDATE payments SET status = $2, version = $3, state = $4, updated_at = now()
          WHERE payment_reference_id = $1 AND version = $5 RETURNING state::text AS state`,
        [id, p.status, p.version, state, c.fromVersion]
      )
      if (written.rows.length !== 1) throw new WriteConflict(`Payment ${id}`)
    }
    // the state as the database now holds it: the next request that reads this row takes it as it is
    const text = written.rows[0]?.state
    if (text !== undefined) admitted.wrote(id, p.version, text, p)
    for (const e of c.events) {
      events.push(id, e.version, e.event.type, JSON.stringify(e.event), e.event.at)
      eventRows.set(e.eventID, [id, e.version])
    }
    eventCount += c.events.length
  }
  // every event applied is among the rows to write, and no other: a rules value that says otherwise is not written (500)
  if (eventCount !== outcome.events.length) throw new Error('The events returned do not account for the payments changed.')
  if (references.size > 0) throw new Error('A create reference without its new payment: not a row this store keeps.')
  for (let i = 0; i < events.length; i += BATCH * 5) {
    const batch = events.slice(i, i + BATCH * 5)
    await tx.query(`INSERT INTO payment_events (payment_reference_id, version, type, body, at) VALUES ${valuesList(batch.length / 5, 5)}`, batch)
  }
  for (const c of changes.customers) {
    const version = loaded.customerVersions.get(c.customerExternalID)
    const record = JSON.stringify(c.customer)
    if (version === undefined) {
      await tx.query('INSERT INTO customers (customer_external_id, record, version) VALUES ($1, $2, 1)', [c.customerExternalID, record])
    } else {
      const updated = await tx.query(
        'UPDATE customers SET record = $2, version = version + 1, updated_at = now() WHERE customer_external_id = $1 AND version = $3',
        [c.customerExternalID, record, version]
      )
      if (updated.rowCount !== 1) throw new WriteConflict(`Customer ${c.customerExternalID}`)
    }
  }
  for (const t of changes.ocrTransmissions) {
    // a row another process inserted first: ocr_transmissions_pkey, the race is lost and the file answered from its row
    await tx.query('INSERT INTO ocr_transmissions (data_sender, transmission_number, at) VALUES ($1, $2, $3)', [t.dataSender, t.transmissionNumber, t.at])
  }
  for (const m of changes.camt054Messages ?? NONE) {
    if (loaded.camt054Read.has(`m:${m.messageId}`)) {
      // an expired row paysplit read as forgotten: replaced
      await tx.query('UPDATE camt054_messages SET at = $2, report = NULL, received_at = now() WHERE message_id = $1', [m.messageId, m.at])
    } else await tx.query('INSERT INTO camt054_messages (message_id, at) VALUES ($1, $2)', [m.messageId, m.at])
  }
  const fresh = (changes.camt054Transactions ?? NONE).filter((t) => !loaded.camt054Read.has(`t:${t.transactionKey}`))
  for (const t of changes.camt054Transactions ?? NONE) {
    if (loaded.camt054Read.has(`t:${t.transactionKey}`)) {
      await tx.query('UPDATE camt054_transactions SET booking_date = $2, received_at = now() WHERE transaction_key = $1', [t.transactionKey, t.bookingDate])
    }
  }
  for (let i = 0; i < fresh.length; i += BATCH) {
    const batch = fresh.slice(i, i + BATCH)
    await tx.query(`INSERT INTO camt054_transactions (transaction_key, booking_date) VALUES ${valuesList(batch.length, 2)}`, batch.flatMap((t) => [t.transactionKey, t.bookingDate]))
  }
  const outbox: Array<unknown> = []
  for (const d of outcome.deliveries) {
    const event = eventRows.get(d.id)
    if (event === undefined) throw new Error(`A delivery of an event not among the changes: ${d.id}.`)
    outbox.push(event[0], event[1], d.id, d.url, d.eventType, d.body)
  }
  for (let i = 0; i < outbox.length; i += BATCH * 6) {
    const batch = outbox.slice(i, i + BATCH * 6)
    await tx.query(`INSERT INTO outbox (payment_reference_id, event_version, webhook_id, url, event_type, payload) VALUES ${valuesList(batch.length / 6, 6)}`, batch)
  }
}

/** Rows a statement writes at most (a bank file's many): their parameters stay under PostgreSQL's 65,535. */
export const BATCH = 1000

/**
 * Deletes up to `limit` camt.054 messages and as many transactions that paysplit has forgotten by
 * `now` (the service's clock): a message whose `at`, a transaction whose booking date, is on a day
 * more than `memoryDays` (`CAMT054_MEMORY_DAYS`, 400) before `now`'s. Rows another transaction holds
 * are skipped: processes never wait on each other for it. Run after each notification applied, so
 * the tables hold about the last 400 days.
 */
export const deleteForgottenCamt054 = async (db: Queryable, now: string, memoryDays: number, limit = 100): Promise<number> => {
  const cutoff = new Date(Date.parse(now) - memoryDays * 86_400_000).toISOString().slice(0, 10)
  const messages = await db.query(
    `DELETE FROM camt054_messages WHERE message_id IN (
       SELECT message_id FROM camt054_messages WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [cutoff, limit]
  )
  const transactions = await db.query(
    `DELETE FROM camt054_transactions WHERE transaction_key IN (
       SELECT transaction_key FROM camt054_transactions WHERE booking_date < $1 ORDER BY booking_date LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [cutoff, limit]
  )
  return (messages.rowCount ?? 0) + (transactions.rowCount ?? 0)
}
