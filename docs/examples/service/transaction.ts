/**
 * The transaction of an operation (docs/service.md, "The transaction of a request"): the store
 * loop of paysplit's store contract. The keys paysplit names, exactly those rows loaded (and
 * locked), `worldOf`, the operation, its `changes` and deliveries written, commit. A lost race (a
 * version that moved, a unique key another process took first, a serialization failure or a
 * deadlock) rolls back and runs the whole operation again on fresh rows, a bounded number of times.
 */
import type { Outcome as Operated, World } from 'paysplit/http'
import { isSqlError, retryableStates, UNIQUE_VIOLATION, type Db, type Queryable } from './db/db.js'
import type { AdmittedRows } from './db/admitted.js'
import { deleteExpiredKeys, keyOfRequest, loadKey, lockKey, writeKey } from './db/idempotency.js'
import { loadRows, worldOfRows, writeChanges, WriteConflict, type StoreKeys } from './db/store.js'
import type { Rules } from './paysplit.js'

/** One attempt of an operation: the keys of its rows, and the operation on the world they hold. */
export interface Step<O extends Operated> {
  readonly keys: StoreKeys
  readonly run: (world: World) => O
}

/** An operation as the transaction runs it. */
export interface Work<O extends Operated, R> {
  /** Lock the rows read (`FOR UPDATE`): every operation that may write. */
  readonly lock: boolean
  /** The attempt's keys and operation; `attempt` starts at 1 (a fresh context per attempt: clock, ids, a KID). */
  readonly step: (attempt: number) => Step<O>
  /** True: nothing is written, and the operation runs again with the next attempt's context (while attempts remain). */
  readonly again?: (outcome: O) => boolean
  /** The service's own rows of the outcome, in the same transaction (a parked transfer, a file's report), and the answer. */
  readonly finish: (tx: Queryable, outcome: O) => Promise<R>
}

export type Outcome<R> =
  | { readonly kind: 'done'; readonly result: R; readonly deliveries: number }
  /** Every attempt lost a race. */
  | { readonly kind: 'conflict' }
  /** The open-KID index refused the new invoice (on the last attempt, or when `retryDuplicateKid` is off). */
  | { readonly kind: 'duplicateKid' }

export interface TransactionOptions {
  readonly attempts: number
  /** A new invoice whose KID the open-KID index refuses runs again (with the next attempt's KID) rather than answering 409. */
  readonly retryDuplicateKid: boolean
  readonly rules: Rules
  readonly admitted: AdmittedRows
  /** How long a request waits for another that holds its Idempotency-Key (docs/service.md, "Safe retries"). */
  readonly idempotencyWaitMs: number
}

/** Unique constraints that mean "another process got there first": run again and see its row. */
const raceConstraints: ReadonlySet<string> = new Set([
  'payments_pkey',
  'payments_external_reference_unique',
  'customers_pkey',
  'payment_events_pkey',
  // a key another process stored first (its lock makes this rare): the next run answers its row
  'idempotency_keys_pkey',
  // a bank file or notification another process applied first: the next run reports it duplicate
  'ocr_transmissions_pkey',
  'camt054_messages_pkey',
  'camt054_transactions_pkey'
])
const OPEN_KID = 'payments_open_kid_unique'

/** The operation asked to run again (`Work.again`): rolled back, nothing written. */
class RunAgain extends Error {}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `work` in one transaction, again on a lost race (up to `attempts` runs, with a short randomised backoff). */
export const runTransaction = async <O extends Operated, R>(db: Db, work: Work<O, R>, options: TransactionOptions): Promise<Outcome<R>> => {
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    try {
      let keyStoredAt: string | undefined
      const done = await db.transaction(async (tx) => {
        const { keys, run } = work.step(attempt)
        const key = keyOfRequest(keys.idempotency)
        // the key's lock first (a request that holds it: wait, bounded), then its row
        if (key !== undefined) await lockKey(tx, key, options.idempotencyWaitMs)
        const kept = key === undefined ? undefined : await loadKey(tx, key)
        const loaded = await loadRows(tx, keys, work.lock, options.rules, options.admitted)
        const outcome = run(worldOfRows(options.rules, loaded, kept))
        if (attempt < options.attempts && work.again?.(outcome) === true) throw new RunAgain()
        await writeChanges(tx, outcome, loaded, options.admitted)
        if (key !== undefined) keyStoredAt = await writeKey(tx, key, outcome.changes.idempotencyKeys)
        const result = await work.finish(tx, outcome)
        return { result, deliveries: outcome.deliveries.length }
      })
      // a stored key makes room: up to 100 expired ones go, after the commit (never a reason to fail the answer)
      if (keyStoredAt !== undefined) await deleteExpiredKeys(db, keyStoredAt).catch(() => 0)
      return { kind: 'done', ...done }
    } catch (e) {
      if (e instanceof RunAgain) continue
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
