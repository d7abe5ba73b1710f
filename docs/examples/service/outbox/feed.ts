/**
 * The event feed (`GET /events`, docs/service.md "The event feed"), the replay of a time range and
 * the retention of events, all read from the outbox: one feed item per event that sent webhooks
 * (its first outbox row; the event's other urls are the same payload), `payload` the message's
 * body exactly as stored and sent.
 *
 * Positions that never let a reader skip a late commit (as emmett-postgresql orders its messages):
 * every outbox row carries the id of the transaction that wrote it (`transaction_id xid8`, a
 * column default), and the feed is read in (transaction_id, id) order, only below the oldest
 * transaction still running (`pg_snapshot_xmin(pg_current_snapshot())`). A transaction that took
 * its row ids early and commits late is still running while a reader passes its ids, so none of
 * its rows is read until it ends; then they sort after every row read so far, because its
 * transaction id is at least the horizon the reader stopped under. A cursor is the position of
 * the last item read: `<transaction_id>.<id>`.
 */
import type { Queryable } from '../db/db.js'

/** One item of the feed. */
export interface FeedItem {
  readonly cursor: string
  readonly eventID: string
  readonly eventType: string
  /** When the event was stored: its transaction's time, ISO 8601 UTC. */
  readonly createdAt: string
  /** The webhook payload of the event, as sent. */
  readonly payload: unknown
}

export interface FeedPage {
  readonly data: ReadonlyArray<FeedItem>
  readonly next: string
  readonly hasMore: boolean
}

/** The position before every event: a feed read without `after` starts here. */
export const FEED_START = '0.0'

const CURSOR = /^(\d{1,20})\.(\d{1,19})$/

/** A cursor's (transaction id, row id), or undefined when it is not one. */
export const parseCursor = (cursor: string): { readonly transactionId: string; readonly id: string } | undefined => {
  const m = CURSOR.exec(cursor)
  if (m === null) return undefined
  const [, transactionId = '', id = ''] = m
  // within PostgreSQL's ranges: xid8 is 64 bits unsigned, a bigint 63 bits
  if (BigInt(transactionId) > 2n ** 64n - 1n || BigInt(id) > 2n ** 63n - 1n) return undefined
  return { transactionId, id }
}

/** The largest page. */
export const FEED_MAX_LIMIT = 500

interface FeedRow {
  readonly tx: string
  readonly id: string
  readonly webhook_id: string
  readonly event_type: string
  readonly payload: string
  readonly created_at: string
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`

/**
 * Reads up to `limit` events after `after` (a cursor; {@link FEED_START} for the oldest kept),
 * committed and below the oldest running transaction. `hasMore`: more such events are there now.
 */
export const readFeed = async (db: Queryable, after: string, limit: number): Promise<FeedPage> => {
  const from = parseCursor(after) ?? { transactionId: '0', id: '0' }
  const rows = await db.query<FeedRow>(
    `SELECT o.transaction_id::text AS tx, o.id::text AS id, o.webhook_id, o.event_type, o.payload,
            to_char(o.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at
       FROM outbox o
      WHERE o.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        AND (o.transaction_id, o.id) > ($1::xid8, $2::bigint)
        AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.webhook_id = o.webhook_id AND e.id < o.id)
      ORDER BY o.transaction_id, o.id
      LIMIT $3`,
    [from.transactionId, from.id, limit + 1]
  )
  const page = rows.rows.slice(0, limit)
  const data = page.map((r) => ({
    cursor: `${r.tx}.${r.id}`,
    eventID: r.webhook_id,
    eventType: r.event_type,
    createdAt: r.created_at,
    payload: JSON.parse(r.payload) as unknown
  }))
  return { data, next: data.at(-1)?.cursor ?? after, hasMore: rows.rows.length > limit }
}

/**
 * Sends again every message of the events stored in [`from`, `to`) (ISO 8601 times), or only
 * those addressed to `url` (the url as stored, or as shown without its query string): each goes
 * back to `pending`, due now, with a fresh budget of attempts, its original `webhook-id` and body
 * (the row is the message). A message already pending is left as it is (it is being sent), and so
 * is one to a url disabled by a 410 (enable it first). Returns the counts.
 */
export const replayRange = async (
  db: Queryable,
  range: { readonly from: string; readonly to: string; readonly url?: string }
): Promise<{ readonly replayed: number; readonly pending: number; readonly disabled: number }> => {
  const url = range.url ?? null
  const counted = await db.query<{ pending: string; disabled: string }>(
    `SELECT count(*) FILTER (WHERE o.status = 'pending')::text AS pending,
            count(*) FILTER (WHERE o.status <> 'pending' AND d.url IS NOT NULL)::text AS disabled
       FROM outbox o LEFT JOIN webhook_disabled_urls d ON d.url = o.url
      WHERE o.created_at >= $1 AND o.created_at < $2
        AND ($3::text IS NULL OR o.url = $3 OR split_part(o.url, '?', 1) = $3)`,
    [range.from, range.to, url]
  )
  const replayed = await db.query(
    `UPDATE outbox o
        SET status = 'pending', attempts = 0, next_attempt_at = now(), dead_reason = NULL, finished_at = NULL, replays = o.replays + 1
      WHERE o.created_at >= $1 AND o.created_at < $2 AND o.status <> 'pending'
        AND ($3::text IS NULL OR o.url = $3 OR split_part(o.url, '?', 1) = $3)
        AND NOT EXISTS (SELECT 1 FROM webhook_disabled_urls d WHERE d.url = o.url)`,
    [range.from, range.to, url]
  )
  const row = counted.rows[0]
  return { replayed: replayed.rowCount, pending: Number(row?.pending ?? 0), disabled: Number(row?.disabled ?? 0) }
}

/**
 * Deletes the messages of up to `batch` events stored more than `days` days ago, whole events at a
 * time (the feed shows an event at its first row: deleting only that one would show it again at
 * the next), never an event with a message still pending. Returns the rows deleted.
 */
export const deleteExpiredEvents = async (db: Queryable, days: number, batch = 500): Promise<number> => {
  const deleted = await db.query(
    `WITH old AS (
       SELECT DISTINCT o.webhook_id FROM outbox o
        WHERE o.created_at < now() - $1 * interval '1 day'
          AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.webhook_id = o.webhook_id AND p.status = 'pending')
        LIMIT $2)
     DELETE FROM outbox o USING old WHERE o.webhook_id = old.webhook_id`,
    [days, batch]
  )
  return deleted.rowCount
}
