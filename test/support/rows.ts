/**
 * A store in miniature, for the laws of the store contract (docs/rules.md C15): the rows of a world
 * keyed as `worldOf` keys them, `changes` applied to rows as a store applies them (a payment only
 * at the version it was read at), and the slice of a world that `requestKeys`, `transferKeys`,
 * `ocrKeys` or `camt054Keys` name, loaded as a store loads it. Pure, for tests only.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Payment } from '../../src/index.js'
import {
  CAMT054_MEMORY_DAYS,
  IDEMPOTENCY_KEY_TTL_MS,
  idempotencyEntryKey,
  ocrTransmissionKey,
  worldOf,
  type BankRowKeys,
  type Camt054MessageRow,
  type Camt054RowKeys,
  type Camt054TransactionRow,
  type Changes,
  type CustomerRow,
  type IdempotencyRecord,
  type OcrTransmissionRow,
  type ReferenceRow,
  type RowKeys,
  type World
} from '../../src/http.js'

/** The rows of a world, each table keyed as `worldOf` keys it. */
export interface Rows {
  readonly payments: ReadonlyMap<string, Payment>
  readonly customers: ReadonlyMap<string, CustomerRow>
  readonly references: ReadonlyMap<string, ReferenceRow>
  readonly idempotencyKeys: ReadonlyMap<string, IdempotencyRecord>
  readonly ocrTransmissions: ReadonlyMap<string, OcrTransmissionRow>
  readonly camt054Messages: ReadonlyMap<string, Camt054MessageRow>
  readonly camt054Transactions: ReadonlyMap<string, Camt054TransactionRow>
}

/** The rows a store holds for `world`. */
export const rowsOf = (world: World): Rows => ({
  payments: new Map(world.payments),
  customers: new Map([...world.customers].map(([customerExternalID, customer]) => [customerExternalID, { customerExternalID, customer }])),
  references: new Map([...world.references].map(([externalPaymentReferenceID, r]) => [externalPaymentReferenceID, { ...r, externalPaymentReferenceID }])),
  idempotencyKeys: new Map(world.idempotencyKeys ?? []),
  ocrTransmissions: new Map(world.ocrTransmissions ?? []),
  camt054Messages: new Map(world.camt054Messages ?? []),
  camt054Transactions: new Map(world.camt054Transactions ?? [])
})

/**
 * The rows without those that expired by `at` (a store deletes them at its own pace): idempotency
 * keys 24 hours after their `at`; camt.054 messages and transactions whose day (`at`, booking
 * date) is more than 400 days before `at`'s.
 */
export const withoutExpired = (rows: Rows, at: string): Rows => {
  const cutoff = new Date(Date.parse(at) - CAMT054_MEMORY_DAYS * 86_400_000).toISOString().slice(0, 10)
  return {
    ...rows,
    idempotencyKeys: new Map([...rows.idempotencyKeys].filter(([, r]) => Date.parse(at) - Date.parse(r.at) < IDEMPOTENCY_KEY_TTL_MS)),
    camt054Messages: new Map([...rows.camt054Messages].filter(([, r]) => r.at.slice(0, 10) >= cutoff)),
    camt054Transactions: new Map([...rows.camt054Transactions].filter(([, r]) => r.bookingDate >= cutoff))
  }
}

/** True when no list of `changes` holds a row. */
export const noRows = (changes: Changes): boolean =>
  changes.payments.length +
    changes.customers.length +
    changes.references.length +
    changes.idempotencyKeys.length +
    changes.ocrTransmissions.length +
    (changes.camt054Messages?.length ?? 0) +
    (changes.camt054Transactions?.length ?? 0) ===
  0

/**
 * `changes` applied to `rows` as a store applies them: each payment written only where its stored
 * version is `fromVersion` (0: none stored), its events numbered from there and named
 * `<paymentReferenceID>:<version>`; every other row written whole under its key. Throws when a
 * change does not fit the rows (that is a broken law, not a lost race: the rows are the very ones
 * the operation ran on).
 */
export const applyChanges = (rows: Rows, changes: Changes): Rows => {
  const payments = new Map(rows.payments)
  for (const c of changes.payments) {
    const key = c.paymentReferenceID.toLowerCase()
    const stored = payments.get(key)?.version ?? 0
    if (stored !== c.fromVersion) throw new Error(`payment ${key}: stored version ${String(stored)}, fromVersion ${String(c.fromVersion)}`)
    if (c.state.version !== c.fromVersion + c.events.length) throw new Error(`payment ${key}: version ${String(c.state.version)} is not fromVersion + events`)
    c.events.forEach((e, i) => {
      const version = c.fromVersion + i + 1
      if (e.version !== version || e.eventID !== `${c.paymentReferenceID}:${String(version)}`) throw new Error(`payment ${key}: event ${String(i)} misnumbered`)
    })
    payments.set(key, c.state)
  }
  const customers = new Map(rows.customers)
  for (const c of changes.customers) customers.set(c.customerExternalID, c)
  const references = new Map(rows.references)
  for (const r of changes.references) references.set(r.externalPaymentReferenceID, r)
  const idempotencyKeys = new Map(rows.idempotencyKeys)
  for (const r of changes.idempotencyKeys) idempotencyKeys.set(idempotencyEntryKey(r.scope, r.key), r)
  const ocrTransmissions = new Map(rows.ocrTransmissions)
  for (const r of changes.ocrTransmissions) ocrTransmissions.set(ocrTransmissionKey(r.dataSender, r.transmissionNumber), r)
  const camt054Messages = new Map(rows.camt054Messages)
  for (const r of changes.camt054Messages ?? []) camt054Messages.set(r.messageId, r)
  const camt054Transactions = new Map(rows.camt054Transactions)
  for (const r of changes.camt054Transactions ?? []) camt054Transactions.set(r.transactionKey, r)
  return { payments, customers, references, idempotencyKeys, ocrTransmissions, camt054Messages, camt054Transactions }
}

/**
 * The world a store builds for these keys: the rows they name (payments by id; references and the
 * payments they name; the `Initiated` invoices holding a KID; customers; the idempotency key; the
 * transmissions; the camt.054 messages and transactions, by key), then with every payment its customer and reference, and with every reference
 * its payment; built by `worldOf` from those rows.
 */
export const sliceOf = (world: World, keys: RowKeys | BankRowKeys | Camt054RowKeys, extraPayments: ReadonlyArray<string> = []): World => {
  const rows = rowsOf(world)
  const payments = new Map<string, Payment>()
  const references = new Map<string, ReferenceRow>()
  const customers = new Map<string, CustomerRow>()
  const addPayment = (id: string): void => {
    const p = rows.payments.get(id.toLowerCase())
    if (p !== undefined) payments.set(p.paymentReferenceID.toLowerCase(), p)
  }
  for (const id of [...keys.paymentReferenceIDs, ...extraPayments]) addPayment(id)
  for (const ext of keys.externalPaymentReferenceIDs) {
    const r = rows.references.get(ext)
    if (r !== undefined) references.set(ext, r)
  }
  for (const p of rows.payments.values()) {
    if (p.kind === 'invoice' && p.status === 'Initiated' && p.kid !== undefined && keys.openInvoiceKids.includes(p.kid)) addPayment(p.paymentReferenceID)
  }
  // each reference's payment, then each payment's customer and reference
  for (const r of [...references.values()]) addPayment(r.paymentReferenceID)
  for (const p of payments.values()) {
    const r = rows.references.get(p.externalPaymentReferenceID)
    if (r !== undefined) references.set(p.externalPaymentReferenceID, r)
  }
  for (const id of [...keys.customerExternalIDs, ...[...payments.values()].map((p) => p.customerExternalID)]) {
    const c = rows.customers.get(id)
    if (c !== undefined) customers.set(id, c)
  }
  const k = keys.idempotency
  const key = k === undefined ? undefined : rows.idempotencyKeys.get(idempotencyEntryKey(k.scope, k.key))
  const transmissions = 'ocrTransmissions' in keys ? keys.ocrTransmissions : []
  const messages = 'camt054Messages' in keys ? keys.camt054Messages : []
  const transactions = 'camt054Transactions' in keys ? keys.camt054Transactions : []
  const built = worldOf({
    payments: [...payments.values()],
    customers: [...customers.values()],
    references: [...references.values()],
    idempotencyKeys: key === undefined ? [] : [key],
    ocrTransmissions: transmissions.flatMap((t) => rows.ocrTransmissions.get(ocrTransmissionKey(t.dataSender, t.transmissionNumber)) ?? []),
    camt054Messages: messages.flatMap((m) => rows.camt054Messages.get(m) ?? []),
    camt054Transactions: transactions.flatMap((k) => rows.camt054Transactions.get(k) ?? [])
  })
  if (E.isLeft(built)) throw new Error(`worldOf refused the rows of a world paysplit made: ${built.left.message}`)
  return built.right
}
