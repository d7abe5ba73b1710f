/**
 * `GET /events?after=<cursor>&limit=<1..500>` (API key): the event feed (docs/service.md, "The
 * event feed"). 200 `{ data: [{ cursor, eventID, eventType, createdAt, payload }], next, hasMore }`;
 * `next` is the cursor to pass as `after` next time (the last item's, or the `after` given when
 * the page is empty, so a consumer polls with it); no `after`: from the oldest event kept. A
 * `limit` outside 1..500 or an `after` that is not a cursor is 400 `ValidationFailed`, the issue
 * at `query.limit` or `query.after`.
 */
import type { Queryable } from '../db/db.js'
import { json, type Reply } from '../http.js'
import { FEED_MAX_LIMIT, FEED_START, parseCursor, readFeed } from '../outbox/feed.js'

/** A page of this many events when `limit` is not given. */
export const FEED_DEFAULT_LIMIT = 100

const invalid = (path: string, reason: string, message: string, params?: Readonly<Record<string, number>>): Reply =>
  json(400, {
    success: false,
    error: {
      code: 'ValidationFailed',
      message: 'The query is not valid: 1 problem (see issues).',
      issues: [{ path, code: 'ValidationFailed', reason, ...(params !== undefined ? { params } : {}), message }]
    }
  })

export const eventsRoute = async (db: Queryable, target: string): Promise<Reply> => {
  const q = target.indexOf('?')
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1))
  const afters = query.getAll('after')
  const limits = query.getAll('limit')
  if (afters.length > 1) return invalid('query.after', 'too_many', 'Give at most one cursor.', { max: 1 })
  if (limits.length > 1) return invalid('query.limit', 'too_many', 'Give at most one limit.', { max: 1 })
  const after = afters[0]
  if (after !== undefined && parseCursor(after) === undefined) return invalid('query.after', 'format', 'Must be a cursor this feed gave (the `cursor` of an item, or `next`).')
  const rawLimit = limits[0]
  let limit = FEED_DEFAULT_LIMIT
  if (rawLimit !== undefined) {
    if (!/^-?\d{1,16}$/.test(rawLimit)) return invalid('query.limit', 'not_integer', 'Must be a whole number.')
    limit = Number(rawLimit)
    if (limit < 1) return invalid('query.limit', 'too_small', 'Must be at least 1.', { min: 1 })
    if (limit > FEED_MAX_LIMIT) return invalid('query.limit', 'too_big', `Must be at most ${String(FEED_MAX_LIMIT)}.`, { max: FEED_MAX_LIMIT })
  }
  return json(200, await readFeed(db, after ?? FEED_START, limit))
}
