/**
 * Reading a request's slice of the world from the database, and writing back what paysplit
 * changed in it: the SQL of the transaction of a request (docs/service.md).
 *
 * Rows are locked as they are read (`FOR UPDATE`), so two requests on one payment take turns
 * instead of failing; the version check of every write still guards the rows a request could not
 * lock (a payment or a customer that did not exist yet), and the database's unique constraints
 * decide between two creates that raced.
 */
import * as E from 'fp-ts/lib/Either.js'
import {
  type Customer,
  type Payment,
  type PaymentError,
  type PaymentEvent,
  type PaymentIntentRequest
} from 'paysplit'
import type { CreatedReference, WebhookDelivery, World } from 'paysplit/http'
import { worldOf, type Rules } from '../paysplit.js'
import type { Queryable } from './db.js'

/** What a request may touch: the rows to load. */
export interface SliceKeys {
  readonly paymentReferenceIDs: ReadonlyArray<string>
  readonly externalPaymentReferenceIDs: ReadonlyArray<string>
  readonly customerExternalIDs: ReadonlyArray<string>
  /** Open invoices holding one of these KIDs. */
  readonly openKids: ReadonlyArray<string>
}

export const noKeys: SliceKeys = { paymentReferenceIDs: [], externalPaymentReferenceIDs: [], customerExternalIDs: [], openKids: [] }

/** A loaded slice: the world paysplit runs on, and the versions the writes will check. */
export interface Slice {
  readonly world: World
  readonly paymentVersions: ReadonlyMap<string, number>
  readonly customerVersions: ReadonlyMap<string, number>
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
  readonly state: unknown
  readonly request: unknown
  readonly kid: string | null
  readonly version: number
}

interface CustomerRow {
  readonly customer_external_id: string
  readonly record: Customer
  readonly version: number
}

/**
 * Loads the slice `keys` name, locking its rows (`FOR UPDATE`) when `lock`; customers are
 * locked only when `lockCustomers` (a create may write its customer; other requests only read it).
 */
export const loadSlice = async (
  tx: Queryable,
  keys: SliceKeys,
  options: { readonly lock: boolean; readonly lockCustomers: boolean },
  rules: Rules
): Promise<Slice> => {
  const payments = new Map<string, Payment>()
  const references = new Map<string, CreatedReference>()
  const paymentVersions = new Map<string, number>()
  const customerIDs = new Set(keys.customerExternalIDs)
  const ids = keys.paymentReferenceIDs.map((id) => id.toLowerCase())
  if (ids.length + keys.externalPaymentReferenceIDs.length + keys.openKids.length > 0) {
    const rows = await tx.query<PaymentRow>(
      `SELECT payment_reference_id::text AS id, state, request, kid, version
         FROM payments
        WHERE payment_reference_id = ANY($1::uuid[])
           OR external_payment_reference_id = ANY($2::text[])
           OR (kid = ANY($3::text[]) AND status = 'Initiated')
        ORDER BY payment_reference_id${options.lock ? ' FOR UPDATE' : ''}`,
      [ids, keys.externalPaymentReferenceIDs, keys.openKids]
    )
    for (const row of rows.rows) {
      const checked = rules.storedPayment(row.state)
      if (E.isLeft(checked)) throw new UnreadableState(row.id, checked.left)
      const payment = checked.right
      payments.set(row.id, payment)
      paymentVersions.set(row.id, row.version)
      references.set(payment.externalPaymentReferenceID, {
        paymentReferenceID: payment.paymentReferenceID,
        request: row.request as PaymentIntentRequest,
        ...(row.kid !== null ? { kid: row.kid } : {})
      })
      customerIDs.add(payment.customerExternalID)
    }
  }
  const customers = new Map<string, Customer>()
  const customerVersions = new Map<string, number>()
  if (customerIDs.size > 0) {
    const rows = await tx.query<CustomerRow>(
      `SELECT customer_external_id, record, version FROM customers
        WHERE customer_external_id = ANY($1::text[])
        ORDER BY customer_external_id${options.lockCustomers ? ' FOR UPDATE' : ''}`,
      [[...customerIDs]]
    )
    for (const row of rows.rows) {
      customers.set(row.customer_external_id, row.record)
      customerVersions.set(row.customer_external_id, row.version)
    }
  }
  return { world: worldOf(payments, customers, references), paymentVersions, customerVersions }
}

/** Rows of a multi-row VALUES list: `($1,$2,…),($k,…)`. */
const valuesList = (rows: number, columns: number, casts: ReadonlyArray<string> = []): string =>
  Array.from({ length: rows }, (_, r) =>
    `(${Array.from({ length: columns }, (_, c) => `$${String(r * columns + c + 1)}${casts[c] ?? ''}`).join(',')})`
  ).join(',')

/**
 * Writes what `after` changed in the slice: payments (inserted, or updated only at the version
 * read), their events (exactly those paysplit returned: `applied`), customers (same check), and
 * one outbox row per webhook delivery. Throws {@link WriteConflict} when a version moved.
 */
export const writeChanges = async (
  tx: Queryable,
  slice: Slice,
  after: World,
  deliveries: ReadonlyArray<WebhookDelivery>,
  applied: ReadonlyArray<PaymentEvent>
): Promise<void> => {
  const before = slice.world
  const events: Array<unknown> = []
  // paysplit changes at most one payment a request, and its events are that payment's, in order
  let changed = 0
  for (const [key, payment] of after.payments) {
    const old = before.payments.get(key)
    if (old === payment) continue
    changed++
    const first = (old?.version ?? 0) + 1
    if (changed > 1 || payment.version - first + 1 !== applied.length) {
      // not what paysplit returns: write nothing (500) rather than a history that does not add up
      throw new Error(`The events returned do not account for the change of payment ${payment.paymentReferenceID}.`)
    }
    const state = JSON.stringify(payment)
    if (old === undefined) {
      const reference = after.references.get(payment.externalPaymentReferenceID)
      await tx.query(
        `INSERT INTO payments (payment_reference_id, external_payment_reference_id, customer_external_id, kind, status, kid, version, state, request)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          key,
          payment.externalPaymentReferenceID,
          payment.customerExternalID,
          payment.kind,
          payment.status,
          payment.kid ?? null,
          payment.version,
          state,
          JSON.stringify(reference?.request ?? null)
        ]
      )
    } else {
      const updated = await tx.query(
        `UPDATE payments SET status = $2, version = $3, state = $4, updated_at = now()
          WHERE payment_reference_id = $1 AND version = $5`,
        [key, payment.status, payment.version, state, slice.paymentVersions.get(key)]
      )
      if (updated.rowCount !== 1) throw new WriteConflict(`Payment ${key}`)
    }
    applied.forEach((event, i) => {
      events.push(key, first + i, event.type, JSON.stringify(event), event.at)
    })
  }
  if (events.length > 0) {
    await tx.query(
      `INSERT INTO payment_events (payment_reference_id, version, type, body, at) VALUES ${valuesList(events.length / 5, 5)}`,
      events
    )
  }
  for (const [id, customer] of after.customers) {
    if (before.customers.get(id) === customer) continue
    const version = slice.customerVersions.get(id)
    if (version === undefined) {
      await tx.query('INSERT INTO customers (customer_external_id, record, version) VALUES ($1, $2, 1)', [id, JSON.stringify(customer)])
    } else {
      const updated = await tx.query(
        'UPDATE customers SET record = $2, version = version + 1, updated_at = now() WHERE customer_external_id = $1 AND version = $3',
        [id, JSON.stringify(customer), version]
      )
      if (updated.rowCount !== 1) throw new WriteConflict(`Customer ${id}`)
    }
  }
  if (deliveries.length > 0) {
    const params: Array<unknown> = []
    for (const d of deliveries) {
      const eventID = d.payload.eventID
      const colon = eventID.lastIndexOf(':')
      params.push(eventID.slice(0, colon).toLowerCase(), Number(eventID.slice(colon + 1)), eventID, d.url, d.eventType, JSON.stringify(d.payload))
    }
    await tx.query(
      `INSERT INTO outbox (payment_reference_id, event_version, webhook_id, url, event_type, payload) VALUES ${valuesList(deliveries.length, 6)}`,
      params
    )
  }
}
