/**
 * Storage of the tests' payments server (./server.ts): a small interface any database can implement, and an
 * in-memory implementation.
 *
 * The server never keeps a whole `World`. For each request it loads the slice the request can
 * touch (the payment of the path; for a create, the new id, the externalPaymentReferenceID and the
 * customer), runs the pure `handle` on that slice, and commits what changed with optimistic
 * concurrency: a payment is written only if its stored `version` is still the one that was read
 * (0: it must not exist yet), a reference only if it is still free, a customer only if it still
 * holds the value read. A commit that finds any of these changed writes nothing and reports a
 * conflict; the server then runs the request again on a fresh slice.
 *
 * Webhook deliveries are written in the same commit (a transactional outbox), so a state change
 * and its webhooks are stored together or not at all.
 */
import { isDeepStrictEqual } from 'node:util'
import type { Customer, Payment } from '../../src/index.js'
import type { CreatedReference, WebhookDelivery, WebhookPayload, World } from '../../src/http.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a request can touch: the keys of the slice to load. */
export interface SliceKeys {
  readonly paymentReferenceIDs: ReadonlyArray<string>
  readonly externalPaymentReferenceIDs: ReadonlyArray<string>
  readonly customerExternalIDs: ReadonlyArray<string>
  /** KIDs whose open (`Initiated`) invoices the request needs. */
  readonly kids?: ReadonlyArray<string>
}

/** What one request changed, with the expectations that make the write safe. */
export interface Changes {
  /** `expectedVersion` 0: the payment must not exist yet. */
  readonly payments: ReadonlyArray<{ readonly payment: Payment; readonly expectedVersion: number }>
  /** Each reference must still be free. */
  readonly references: ReadonlyArray<{ readonly externalPaymentReferenceID: string; readonly reference: CreatedReference }>
  /** Each customer must still hold `expected` (`undefined`: must not exist yet). */
  readonly customers: ReadonlyArray<{
    readonly customerExternalID: string
    readonly customer: Customer
    readonly expected: Customer | undefined
  }>
  /** The webhooks of the change, stored with it. */
  readonly deliveries: ReadonlyArray<WebhookDelivery>
}

/** Where a webhook delivery stands. */
export type DeliveryState = 'pending' | 'delivered' | 'failed'

/** A stored webhook delivery and its outcome. */
export interface DeliveryRecord {
  readonly id: number
  readonly url: string
  readonly eventType: string
  readonly eventID: string
  readonly paymentReferenceID: string
  readonly payload: WebhookPayload
  readonly state: DeliveryState
  readonly attempts: number
  /** HTTP status of the last attempt, when it got a response. */
  readonly lastStatus?: number
  /** Why the last attempt failed, when it did. */
  readonly lastError?: string
}

/** The result of a commit: the ids given to the stored deliveries, or a conflict. */
export type CommitResult =
  | { readonly ok: true; readonly deliveries: ReadonlyArray<DeliveryRecord> }
  | { readonly ok: false }

/** The storage the reference server needs. */
export interface Storage {
  /** The slice of the world these keys name (plus the payments their references point to). */
  load(keys: SliceKeys): Promise<World>
  /** Writes all changes atomically if every expectation holds; otherwise nothing, `{ ok: false }`. */
  commit(changes: Changes): Promise<CommitResult>
  /** Records the outcome of a delivery attempt. */
  updateDelivery(id: number, update: Pick<DeliveryRecord, 'state' | 'attempts' | 'lastStatus' | 'lastError'>): Promise<void>
  /** Every stored delivery, oldest first. */
  deliveries(): Promise<ReadonlyArray<DeliveryRecord>>
}

// -------------------------------------------------------------------------------------
// changes between two slices
// -------------------------------------------------------------------------------------

/**
 * What `after` changed in `before` (both slices of one request; `handle` keeps untouched entries
 * identical, so identity tells what changed).
 */
export const changesBetween = (
  before: World,
  after: World,
  deliveries: ReadonlyArray<WebhookDelivery>
): Changes => {
  const payments: Array<Changes['payments'][number]> = []
  for (const [key, payment] of after.payments) {
    const old = before.payments.get(key)
    if (old !== payment) payments.push({ payment, expectedVersion: old?.version ?? 0 })
  }
  const references: Array<Changes['references'][number]> = []
  for (const [externalPaymentReferenceID, reference] of after.references) {
    if (before.references.get(externalPaymentReferenceID) !== reference) {
      references.push({ externalPaymentReferenceID, reference })
    }
  }
  const customers: Array<Changes['customers'][number]> = []
  for (const [customerExternalID, customer] of after.customers) {
    const old = before.customers.get(customerExternalID)
    if (old !== customer) customers.push({ customerExternalID, customer, expected: old })
  }
  return { payments, references, customers, deliveries }
}

/** True when there is nothing to write. */
export const isEmpty = (c: Changes): boolean =>
  c.payments.length === 0 && c.references.length === 0 && c.customers.length === 0 && c.deliveries.length === 0

// -------------------------------------------------------------------------------------
// in memory
// -------------------------------------------------------------------------------------

/** Options of {@link InMemoryStorage}. */
export interface InMemoryStorageOptions {
  /**
   * Milliseconds each load and commit waits before it runs, to make requests interleave the way
   * they do against a real database (tests of concurrency use it). Default 0.
   */
  readonly latencyMs?: number
  /**
   * Whether commits check the expected versions. Default true. `false` gives the naive
   * last-writer-wins store, only to show what optimistic concurrency prevents.
   */
  readonly checkVersions?: boolean
}

const pause = (ms: number): Promise<void> =>
  ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()

/** A {@link Storage} in process memory. */
export class InMemoryStorage implements Storage {
  private readonly payments = new Map<string, Payment>()
  private readonly references = new Map<string, CreatedReference>()
  private readonly customers = new Map<string, Customer>()
  private readonly outbox: Array<DeliveryRecord> = []
  private readonly latencyMs: number
  private readonly checkVersions: boolean

  constructor(options: InMemoryStorageOptions = {}) {
    this.latencyMs = options.latencyMs ?? 0
    this.checkVersions = options.checkVersions ?? true
  }

  async load(keys: SliceKeys): Promise<World> {
    await pause(this.latencyMs)
    const payments = new Map<string, Payment>()
    const references = new Map<string, CreatedReference>()
    const customers = new Map<string, Customer>()
    const addPayment = (id: string): void => {
      const key = id.toLowerCase()
      const p = this.payments.get(key)
      if (p !== undefined) payments.set(key, p)
    }
    for (const id of keys.paymentReferenceIDs) addPayment(id)
    for (const ext of keys.externalPaymentReferenceIDs) {
      const r = this.references.get(ext)
      if (r !== undefined) {
        references.set(ext, r)
        addPayment(r.paymentReferenceID)
      }
    }
    for (const kid of keys.kids ?? []) {
      // the open invoices that hold the KID: a new invoice must not take it (DuplicateKid), a
      // transfer by KID finds its invoice among them
      for (const [key, p] of this.payments) {
        if (p.kind === 'invoice' && p.status === 'Initiated' && p.kid === kid) payments.set(key, p)
      }
    }
    // the customers the request names, and those of the payments it loaded: webhooks and reads
    // report the stored record
    for (const c of [...keys.customerExternalIDs, ...[...payments.values()].map((p) => p.customerExternalID)]) {
      const customer = this.customers.get(c)
      if (customer !== undefined) customers.set(c, customer)
    }
    return { payments, references, customers }
  }

  async commit(changes: Changes): Promise<CommitResult> {
    await pause(this.latencyMs)
    // Check everything first, then write everything: no await in between, so it is atomic.
    if (this.checkVersions) {
      for (const { payment, expectedVersion } of changes.payments) {
        const current = this.payments.get(payment.paymentReferenceID.toLowerCase())
        if ((current?.version ?? 0) !== expectedVersion) return { ok: false }
      }
      for (const { externalPaymentReferenceID } of changes.references) {
        if (this.references.has(externalPaymentReferenceID)) return { ok: false }
      }
      for (const { customerExternalID, expected } of changes.customers) {
        if (!isDeepStrictEqual(this.customers.get(customerExternalID), expected)) return { ok: false }
      }
    }
    for (const { payment } of changes.payments) this.payments.set(payment.paymentReferenceID.toLowerCase(), payment)
    for (const { externalPaymentReferenceID, reference } of changes.references) {
      this.references.set(externalPaymentReferenceID, reference)
    }
    for (const { customerExternalID, customer } of changes.customers) this.customers.set(customerExternalID, customer)
    const base = this.outbox.length
    const stored: Array<DeliveryRecord> = changes.deliveries.map((d, i) => ({
      id: base + i + 1,
      url: d.url,
      eventType: d.eventType,
      eventID: d.payload.eventID,
      paymentReferenceID: d.payload.payload.payment.paymentCreated.paymentReferenceID,
      payload: d.payload,
      state: 'pending' as const,
      attempts: 0
    }))
    this.outbox.push(...stored)
    return { ok: true, deliveries: stored }
  }

  updateDelivery(
    id: number,
    update: Pick<DeliveryRecord, 'state' | 'attempts' | 'lastStatus' | 'lastError'>
  ): Promise<void> {
    const i = this.outbox.findIndex((r) => r.id === id)
    const current = this.outbox[i]
    if (current !== undefined) this.outbox[i] = { ...current, ...update }
    return Promise.resolve()
  }

  deliveries(): Promise<ReadonlyArray<DeliveryRecord>> {
    return Promise.resolve([...this.outbox])
  }

  /** Every stored payment (for tests and the demo). */
  allPayments(): ReadonlyArray<Payment> {
    return [...this.payments.values()]
  }
}
