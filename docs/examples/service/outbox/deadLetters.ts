/**
 * Dead letters of the outbox (docs/service.md, "Dead letters"): the webhook messages the relay gave
 * up on, listed and sent again; the urls disabled by a 410, listed and enabled again; and the
 * replay of every message of a time range (docs/service.md, "Replay"). `../dead-letters.ts` is the
 * command; these functions are what it runs, on any database of the service.
 */
import type { Queryable } from '../db/db.js'
import { replayRange } from './feed.js'
import { shownUrl } from './guard.js'

/** One dead message, as the list shows it: the url without its query string (it may carry a token). */
export interface DeadLetter {
  readonly id: string
  readonly webhookId: string
  readonly eventType: string
  readonly url: string
  /** `attempts` (every attempt failed), `gone` (410), `refused` (the guard would not connect). */
  readonly reason: string
  readonly attempts: number
  readonly lastStatus: number | null
  readonly lastError: string | null
  /** When it was given up, ISO 8601. */
  readonly deadAt: string | null
  /** Times an operator sent it again before. */
  readonly replays: number
}

interface Row {
  readonly id: string
  readonly webhook_id: string
  readonly event_type: string
  readonly url: string
  readonly dead_reason: string | null
  readonly attempts: number
  readonly last_status: number | null
  readonly last_error: string | null
  readonly dead_at: string | null
  readonly replays: number
}

/** The dead messages, the most recently given up first, `limit` at most. */
export const listDeadLetters = async (db: Queryable, limit = 100): Promise<ReadonlyArray<DeadLetter>> => {
  const rows = await db.query<Row>(
    `SELECT id::text AS id, webhook_id, event_type, url, dead_reason, attempts, last_status, last_error,
            to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS dead_at, replays
       FROM outbox WHERE status = 'dead'
      ORDER BY finished_at DESC NULLS LAST, id DESC
      LIMIT $1`,
    [limit]
  )
  return rows.rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    eventType: r.event_type,
    url: shownUrl(r.url),
    // rows given up before dead_reason existed: by their last status
    reason: r.dead_reason ?? (r.last_status === 410 ? 'gone' : 'attempts'),
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error,
    deadAt: r.dead_at,
    replays: r.replays
  }))
}

/**
 * Sends dead messages again: each goes back to `pending`, due now, with a fresh budget of attempts
 * (its last status and error are kept until the next attempt replaces them). `ids`: those
 * messages; `'all'`: every dead one. Returns the ids put back; an id that is not dead (unknown,
 * pending, delivered) is left alone. The running relays pick them up at their next poll.
 */
export const retryDeadLetters = async (db: Queryable, ids: ReadonlyArray<string> | 'all'): Promise<ReadonlyArray<string>> => {
  const set = `SET status = 'pending', attempts = 0, next_attempt_at = now(), dead_reason = NULL, finished_at = NULL, replays = replays + 1`
  const which = ids === 'all' ? `status = 'dead'` : `status = 'dead' AND id = ANY($1::bigint[])`
  const params = ids === 'all' ? [] : [ids.filter((id) => /^\d{1,18}$/.test(id))]
  // a message dead because its url answered 410 is sent again only if its url is enabled again
  const rows = await db.query<{ id: string }>(
    `WITH enabled AS (
       DELETE FROM webhook_disabled_urls WHERE url IN (SELECT url FROM outbox WHERE ${which} AND dead_reason = 'gone'))
     UPDATE outbox ${set} WHERE ${which} RETURNING id::text AS id`,
    params
  )
  return rows.rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b))
}

/** A url disabled by a 410 Gone, as listed: shown without its query string. */
export interface DisabledUrl {
  readonly id: string
  readonly url: string
  readonly disabledAt: string
  /** The message whose attempt was answered 410. */
  readonly webhookId: string
  /** Messages to it that are dead now. */
  readonly dead: number
}

/** The disabled urls, the most recently disabled first. */
export const listDisabledUrls = async (db: Queryable): Promise<ReadonlyArray<DisabledUrl>> => {
  const rows = await db.query<{ id: string; url: string; disabled_at: string; webhook_id: string; dead: string }>(
    `SELECT d.id::text AS id, d.url, to_char(d.disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS disabled_at, d.webhook_id,
            (SELECT count(*) FROM outbox o WHERE o.url = d.url AND o.status = 'dead')::text AS dead
       FROM webhook_disabled_urls d ORDER BY d.disabled_at DESC, d.id DESC`
  )
  return rows.rows.map((r) => ({ id: r.id, url: shownUrl(r.url), disabledAt: r.disabled_at, webhookId: r.webhook_id, dead: Number(r.dead) }))
}

/**
 * Enables disabled urls again (`ids` from the list, or `'all'`): later messages to them are sent.
 * The messages that died meanwhile stay dead: `retry` sends them. Returns the ids enabled.
 */
export const enableUrls = async (db: Queryable, ids: ReadonlyArray<string> | 'all'): Promise<ReadonlyArray<string>> => {
  const rows =
    ids === 'all'
      ? await db.query<{ id: string }>('DELETE FROM webhook_disabled_urls RETURNING id::text AS id')
      : await db.query<{ id: string }>('DELETE FROM webhook_disabled_urls WHERE id = ANY($1::bigint[]) RETURNING id::text AS id', [
          ids.filter((id) => /^\d{1,18}$/.test(id))
        ])
  return rows.rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b))
}

/** The list as a text table, one message a line. */
export const formatDeadLetters = (letters: ReadonlyArray<DeadLetter>): string => {
  if (letters.length === 0) return 'No dead webhook messages.'
  const head = ['id', 'dead at', 'reason', 'attempts', 'last status', 'event', 'url', 'last error']
  const lines = letters.map((l) => [
    l.id,
    l.deadAt ?? '',
    l.reason,
    String(l.attempts),
    l.lastStatus === null ? '—' : String(l.lastStatus),
    `${l.eventType} ${l.webhookId}`,
    l.url,
    l.lastError ?? ''
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((cells) => (cells[i] ?? '').length)))
  const row = (cells: ReadonlyArray<string>): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [row(head), ...lines.map(row)].join('\n')
}

export const usage = `Usage: dead-letters list [--json] [--limit N]
       dead-letters retry <id>...
       dead-letters retry --all
       dead-letters disabled [--json]
       dead-letters enable <id>...
       dead-letters enable --all
       dead-letters replay --from <time> --to <time> [--url <url>]
retry sends dead messages again (and enables the url of one that died of a 410); disabled lists the
urls a 410 Gone disabled, enable sends to them again; replay sends again every message of the events
stored from --from up to (not including) --to, ISO 8601 times, only those to <url> with --url.
The database: DATABASE_URL (a PostgreSQL server) or PGLITE_DIR (a PGlite folder; stop the service first).`

/** The value after `flag` in `args`, or undefined. */
const option = (args: ReadonlyArray<string>, flag: string): string | undefined => {
  const at = args.indexOf(flag)
  return at >= 0 ? args[at + 1] : undefined
}

/** An ISO 8601 time with a date, a time and a zone (`2026-11-21T10:00:00Z`, `…+01:00`), as ISO 8601 UTC; else undefined. */
const isoTime = (s: string | undefined): string | undefined =>
  s !== undefined && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))
    ? new Date(Date.parse(s)).toISOString()
    : undefined

/** `ids` or `--all` of a command line; undefined when neither. */
const idsOf = (rest: ReadonlyArray<string>): ReadonlyArray<string> | 'all' | undefined =>
  rest.length === 1 && rest[0] === '--all' ? 'all' : rest.length > 0 && rest.every((id) => /^\d{1,18}$/.test(id)) ? rest : undefined

/** Names the ids of `asked` missing from `done`. */
const missedOf = (asked: ReadonlyArray<string> | 'all', done: ReadonlyArray<string>): ReadonlyArray<string> =>
  asked === 'all' ? [] : asked.filter((id) => !done.includes(String(BigInt(id))))

/** Runs one command line on `db`; returns the text to print and the exit code. */
export const runDeadLetters = async (db: Queryable, args: ReadonlyArray<string>): Promise<{ readonly out: string; readonly code: number }> => {
  const [command, ...rest] = args
  if (command === 'list') {
    const at = rest.indexOf('--limit')
    const limit = at >= 0 ? Number(rest[at + 1]) : 100
    if (!Number.isSafeInteger(limit) || limit < 1) return { out: `--limit takes a positive integer.\n${usage}`, code: 2 }
    const letters = await listDeadLetters(db, limit)
    return { out: rest.includes('--json') ? letters.map((l) => JSON.stringify(l)).join('\n') : formatDeadLetters(letters), code: 0 }
  }
  if (command === 'retry') {
    const asked = idsOf(rest)
    if (asked === undefined) return { out: `retry takes outbox ids (numbers) or --all.\n${usage}`, code: 2 }
    const ids = await retryDeadLetters(db, asked)
    const missed = missedOf(asked, ids)
    return {
      out: `${String(ids.length)} message(s) sent again${ids.length > 0 ? `: ${ids.join(', ')}` : ''}.${missed.length > 0 ? ` Not dead (or unknown): ${missed.join(', ')}.` : ''}`,
      code: missed.length > 0 ? 1 : 0
    }
  }
  if (command === 'disabled') {
    const urls = await listDisabledUrls(db)
    if (rest.includes('--json')) return { out: urls.map((u) => JSON.stringify(u)).join('\n'), code: 0 }
    if (urls.length === 0) return { out: 'No disabled urls.', code: 0 }
    return { out: urls.map((u) => `${u.id}  ${u.disabledAt}  ${u.url}  (410 to ${u.webhookId}; ${String(u.dead)} dead message(s))`).join('\n'), code: 0 }
  }
  if (command === 'enable') {
    const asked = idsOf(rest)
    if (asked === undefined) return { out: `enable takes ids of disabled urls (numbers) or --all.\n${usage}`, code: 2 }
    const ids = await enableUrls(db, asked)
    const missed = missedOf(asked, ids)
    return {
      out: `${String(ids.length)} url(s) enabled${ids.length > 0 ? `: ${ids.join(', ')}` : ''}.${missed.length > 0 ? ` Not disabled (or unknown): ${missed.join(', ')}.` : ''} Their dead messages stay dead until retried.`,
      code: missed.length > 0 ? 1 : 0
    }
  }
  if (command === 'replay') {
    const from = isoTime(option(rest, '--from'))
    const to = isoTime(option(rest, '--to'))
    const url = option(rest, '--url')
    if (from === undefined || to === undefined || from >= to || (rest.includes('--url') && (url === undefined || url === ''))) {
      return { out: `replay takes --from and --to, ISO 8601 times with a zone, --from before --to; --url a url.\n${usage}`, code: 2 }
    }
    const r = await replayRange(db, { from, to, ...(url !== undefined ? { url } : {}) })
    const notes = [
      ...(r.pending > 0 ? [`${String(r.pending)} already pending (being sent)`] : []),
      ...(r.disabled > 0 ? [`${String(r.disabled)} to disabled urls left alone (dead-letters enable, then replay again)`] : [])
    ]
    return { out: `${String(r.replayed)} message(s) sent again, of the events stored from ${from} to ${to}${url !== undefined ? ` to ${shownUrl(url)}` : ''}.${notes.length > 0 ? ` ${notes.join('; ')}.` : ''}`, code: 0 }
  }
  return { out: usage, code: 2 }
}
