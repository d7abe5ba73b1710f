/**
 * Idempotency keys in the database (docs/service.md, "Safe retries"): the record of one key read
 * into the request's world, written back in the same transaction when paysplit remembered a new
 * answer, a bounded wait for a key whose first request is still running, and the removal of
 * expired keys.
 *
 * A key in flight is held by a row lock, which every PostgreSQL-compatible database has (an
 * advisory lock is not portable): the request's transaction inserts the key's row if it is not
 * there (`INSERT … ON CONFLICT DO NOTHING`: a second request inserting the same key waits for the
 * first's transaction to end) and locks it (`SELECT … FOR UPDATE`: a second request on a row that
 * exists waits for the first's lock), both bounded by `lock_timeout`. A row this transaction
 * inserted has no response until paysplit's answer is written into it; one never committed
 * without a response: it is deleted when there is nothing to store (a 5xx) and vanishes with a
 * rollback.
 */
import { createHash } from 'node:crypto'
import {
  IDEMPOTENCY_KEY_TTL_MS,
  idempotencyEntryKey,
  requestKeys,
  type HandleContext,
  type HttpRequest,
  type IdempotencyRecord,
  type StoredResponse,
  type World
} from 'paysplit/http'
import { currentMarks } from '../marks.js'
import { isSqlError, type Queryable } from './db.js'

/** The key of a request and whose it is. */
export interface KeyOfRequest {
  readonly scope: string
  readonly key: string
}

/** Another request with this key still runs, and did not finish within the wait: 409 `IdempotencyKeyInFlight`. */
export class KeyInFlight extends Error {
  constructor() {
    super('Another request with this Idempotency-Key is still running.')
  }
}

/**
 * The scope of a request's keys (`ctx.idempotencyScope`): the id of the caller whose key is in
 * `authorization`, as server.ts found it when it checked the key (the request's marks), so the
 * old and the new key of one caller share their stored answers across a rotation. Without marks
 * (a request answered outside server.ts), the key's digest id: 16 hex digits of its SHA-256, which
 * is also the id of a key configured without one (config.ts, `keyDigestId`). The key itself is
 * never stored.
 */
export const scopeOf = (authorization: string | undefined): string => {
  const caller = currentMarks()?.caller
  if (caller !== undefined) return caller
  const bearer = authorization?.startsWith('Bearer ') === true ? authorization.slice('Bearer '.length).trim() : ''
  return createHash('sha256').update(bearer, 'utf8').digest('hex').slice(0, 16)
}

/**
 * The key of a POST as the database keeps it, as paysplit reads the header (`"abc"` and `abc`
 * are the one key `abc`, one row), or `undefined`: none, a read, or one paysplit refuses (it
 * answers 400 itself; nothing to load).
 */
export const keyOfRequest = (request: HttpRequest, ctx: HandleContext & { readonly idempotencyScope: string }): KeyOfRequest | undefined => {
  const named = requestKeys(request, ctx).idempotency
  return named === undefined ? undefined : { scope: ctx.idempotencyScope, key: named.key }
}

/**
 * The key's row for a request in flight: no response yet. `first_at` and `expires_at` are filled
 * when the answer is written; until then the row is only ever seen by its own transaction.
 */
export const claimSql = `INSERT INTO idempotency_keys (scope, key, method, path, body, response, first_at, expires_at)
  VALUES ($1, $2, '', '', NULL, NULL, '', now()) ON CONFLICT (scope, key) DO NOTHING`
export const lockRowSql = 'SELECT 1 FROM idempotency_keys WHERE scope = $1 AND key = $2 FOR UPDATE'

/**
 * Takes the key's row lock for the rest of the transaction (inserting the row when there is none),
 * waiting at most `waitMs` for a request that holds it (one with the same key, still running):
 * then {@link KeyInFlight}. When the other request commits, its row (with its answer) is what this
 * one reads; when it rolls back, this one inserts the row and runs.
 */
export const lockKey = async (tx: Queryable, k: KeyOfRequest, waitMs: number): Promise<void> => {
  // the wait bounds these two statements only: the transaction's own lock_timeout is put back after them
  const prior = (await tx.query<{ v: string }>("SELECT current_setting('lock_timeout') AS v")).rows[0]?.v
  await tx.query("SELECT set_config('lock_timeout', $1, true)", [`${String(waitMs)}ms`])
  try {
    await tx.query(claimSql, [k.scope, k.key])
    await tx.query(lockRowSql, [k.scope, k.key])
  } catch (e) {
    // 55P03 lock_not_available: the lock_timeout ran out
    if (isSqlError(e) && e.code === '55P03') throw new KeyInFlight()
    throw e
  }
  await tx.query("SELECT set_config('lock_timeout', $1, true)", [prior ?? '0'])
}

interface KeyRow {
  readonly method: string
  readonly path: string
  readonly body: string | null
  /** NULL: the row this transaction inserted for its own request (no answer yet). */
  readonly response: string | null
  readonly first_at: string
}

/**
 * The world with the key's record, when the database has one with an answer (expired or not:
 * paysplit decides). The request's marks keep the stored answer, so its log line and metrics can
 * tell a replay from a new answer.
 */
export const loadKey = async (tx: Queryable, k: KeyOfRequest, world: World): Promise<World> => {
  const rows = await tx.query<KeyRow>('SELECT method, path, body, response, first_at FROM idempotency_keys WHERE scope = $1 AND key = $2', [k.scope, k.key])
  const row = rows.rows[0]
  const marks = currentMarks()
  if (marks !== undefined) delete marks.stored
  if (row?.response == null) return world
  const record: IdempotencyRecord = {
    scope: k.scope,
    key: k.key,
    at: row.first_at,
    request: { method: row.method, path: row.path, ...(row.body === null ? {} : { body: JSON.parse(row.body) as unknown }) },
    response: JSON.parse(row.response) as StoredResponse
  }
  if (marks !== undefined) marks.stored = record.response
  return { ...world, idempotencyKeys: new Map([[idempotencyEntryKey(k.scope, k.key), record]]) }
}

/**
 * Writes the key's record when paysplit remembered a new one (a first use, or a use after it
 * expired); its `at` when it did. When it remembered none (a 5xx is not remembered), the row this
 * transaction inserted for the request is deleted: a key's row is never committed without an answer.
 */
export const writeKey = async (tx: Queryable, k: KeyOfRequest, before: World, after: World): Promise<string | undefined> => {
  const entry = idempotencyEntryKey(k.scope, k.key)
  const record = after.idempotencyKeys?.get(entry)
  if (record === undefined || record === before.idempotencyKeys?.get(entry)) {
    await tx.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND response IS NULL', [k.scope, k.key])
    return undefined
  }
  const marks = currentMarks()
  if (marks !== undefined) delete marks.stored
  await tx.query(
    `INSERT INTO idempotency_keys (scope, key, method, path, body, response, first_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (scope, key) DO UPDATE
       SET method = $3, path = $4, body = $5, response = $6, first_at = $7, expires_at = $8`,
    [
      k.scope,
      k.key,
      record.request.method,
      record.request.path,
      record.request.body === undefined ? null : JSON.stringify(record.request.body),
      JSON.stringify(record.response),
      record.at,
      new Date(Date.parse(record.at) + IDEMPOTENCY_KEY_TTL_MS).toISOString()
    ]
  )
  return record.at
}

/**
 * Deletes up to `limit` keys expired by `now` (the service's clock), skipping rows another
 * transaction holds: processes never wait on each other for it. Run after each request that
 * stored a key, so the table holds about the keys of the last 24 hours.
 */
export const deleteExpiredKeys = async (db: Queryable, now: string, limit = 100): Promise<number> => {
  const deleted = await db.query(
    `DELETE FROM idempotency_keys WHERE (scope, key) IN (
       SELECT scope, key FROM idempotency_keys WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [now, limit]
  )
  return deleted.rowCount ?? 0
}
