/**
 * Dead letters of the outbox (docs/service.md, "Dead letters"): the webhook messages the relay gave
 * up on, listed and sent again. `../dead-letters.ts` is the command; these functions are what it
 * runs, on any database of the service.
 */
import type { Queryable } from '../db/db.js'
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
  const rows =
    ids === 'all'
      ? await db.query<{ id: string }>(`UPDATE outbox ${set} WHERE status = 'dead' RETURNING id::text AS id`)
      : await db.query<{ id: string }>(`UPDATE outbox ${set} WHERE status = 'dead' AND id = ANY($1::bigint[]) RETURNING id::text AS id`, [
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
The database: DATABASE_URL (a PostgreSQL server) or PGLITE_DIR (a PGlite folder; stop the service first).`

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
    if (rest.length === 1 && rest[0] === '--all') {
      const ids = await retryDeadLetters(db, 'all')
      return { out: `${String(ids.length)} message(s) sent again${ids.length > 0 ? `: ${ids.join(', ')}` : ''}.`, code: 0 }
    }
    const wrong = rest.filter((id) => !/^\d{1,18}$/.test(id))
    if (rest.length === 0 || wrong.length > 0) return { out: `retry takes outbox ids (numbers) or --all.\n${usage}`, code: 2 }
    const ids = await retryDeadLetters(db, rest)
    const missed = rest.filter((id) => !ids.includes(String(BigInt(id))))
    return {
      out: `${String(ids.length)} message(s) sent again${ids.length > 0 ? `: ${ids.join(', ')}` : ''}.${missed.length > 0 ? ` Not dead (or unknown): ${missed.join(', ')}.` : ''}`,
      code: missed.length > 0 ? 1 : 0
    }
  }
  return { out: usage, code: 2 }
}
