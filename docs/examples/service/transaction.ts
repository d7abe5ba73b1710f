/**
 * The transaction of a request (docs/service.md): load the slice, run paysplit on it, write what
 * changed (state with a version check, events, customers, outbox rows), commit. A lost race (a
 * version that moved, a unique key another process took first, a serialization failure or a
 * deadlock) rolls back and runs the whole request again on fresh rows, a bounded number of times.
 */
import type { PaymentEvent } from 'paysplit'
import type { WebhookDelivery, World } from 'paysplit/http'
import { isSqlError, retryableStates, UNIQUE_VIOLATION, type Db, type Queryable } from './db/db.js'
import { deleteExpiredKeys, loadKey, lockKey, writeKey, type KeyOfRequest } from './db/idempotency.js'
import { loadSlice, writeChanges, WriteConflict, type SliceKeys } from './db/store.js'
import type { Rules } from './paysplit.js'

/** One run of a request on its slice: what paysplit gave back. */
export interface Ran<R> {
  readonly world: World
  readonly result: R
  readonly deliveries: ReadonlyArray<WebhookDelivery>
  /** The events paysplit applied, as it returned them: stored as they are. */
  readonly events: ReadonlyArray<PaymentEvent>
  /** Side rows of the request written in the same transaction (e.g. a parked bank transfer). */
  readonly extra?: (tx: Queryable) => Promise<void>
}

/** A request as the transaction runs it. */
export interface Work<R> {
  readonly keys: SliceKeys
  /** Lock the rows read (`FOR UPDATE`): every request that may write. */
  readonly lock: boolean
  /** A create may write its customer: lock the customer row too. */
  readonly lockCustomers: boolean
  /**
   * The request's Idempotency-Key (docs/service.md, "Safe retries"): its lock is taken first
   * (waiting at most `waitMs` for a request that holds it), its record read into the world, and
   * a new record written in the same transaction.
   */
  readonly idempotency?: { readonly key: KeyOfRequest; readonly waitMs: number }
  /** Runs paysplit on the slice; `attempt` starts at 1 (a fresh KID per attempt, for instance). */
  readonly run: (world: World, attempt: number) => Ran<R>
}

export type Outcome<R> =
  | { readonly kind: 'done'; readonly result: R; readonly deliveries: number }
  /** Every attempt lost a race. */
  | { readonly kind: 'conflict' }
  /** The open-KID index refused the new invoice (on the last attempt, or when `retryDuplicateKid` is off). */
  | { readonly kind: 'duplicateKid' }

/** Unique constraints that mean "another process got there first": run again and see its row. */
const raceConstraints: ReadonlySet<string> = new Set([
  'payments_pkey',
  'payments_external_reference_unique',
  'customers_pkey',
  'payment_events_pkey',
  // a key another process stored first (its lock makes this rare): the next run answers its row
  'idempotency_keys_pkey'
])
const OPEN_KID = 'payments_open_kid_unique'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs `work` in one transaction, again on a lost race (up to `attempts` runs, with a short
 * randomised backoff). `retryDuplicateKid`: a new invoice whose KID the open-KID index refuses is
 * run again (with the next attempt's KID) rather than answered 409.
 */
export const runTransaction = async <R>(
  db: Db,
  work: Work<R>,
  options: { readonly attempts: number; readonly retryDuplicateKid: boolean; readonly rules: Rules }
): Promise<Outcome<R>> => {
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    try {
      const idem = work.idempotency
      let keyStoredAt: string | undefined
      const done = await db.transaction(async (tx) => {
        if (idem !== undefined) await lockKey(tx, idem.key, idem.waitMs)
        const loaded = await loadSlice(tx, work.keys, { lock: work.lock, lockCustomers: work.lockCustomers }, options.rules)
        const slice = idem === undefined ? loaded : { ...loaded, world: await loadKey(tx, idem.key, loaded.world) }
        const ran = work.run(slice.world, attempt)
        if (ran.world !== slice.world) await writeChanges(tx, slice, ran.world, ran.deliveries, ran.events)
        if (idem !== undefined) keyStoredAt = await writeKey(tx, idem.key, slice.world, ran.world)
        if (ran.extra !== undefined) await ran.extra(tx)
        return ran
      })
      // a stored key makes room: up to 100 expired ones go, after the commit (never a reason to fail the answer)
      if (keyStoredAt !== undefined) await deleteExpiredKeys(db, keyStoredAt).catch(() => 0)
      return { kind: 'done', result: done.result, deliveries: done.deliveries.length }
    } catch (e) {
      const unique = isSqlError(e) && e.code === UNIQUE_VIOLATION
      if (unique && e.constraint === OPEN_KID) {
        if (!options.retryDuplicateKid || attempt === options.attempts) return { kind: 'duplicateKid' }
      } else if (
        !(e instanceof WriteConflict) &&
        !(unique && raceConstraints.has(e.constraint ?? '')) &&
        !(isSqlError(e) && retryableStates.has(e.code))
      ) {
        throw e
      }
    }
    const backoff = Math.min(50, 2 ** attempt)
    await sleep(backoff / 2 + Math.random() * backoff)
  }
  return { kind: 'conflict' }
}
