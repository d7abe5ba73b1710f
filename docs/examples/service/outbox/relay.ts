/**
 * The outbox relay (docs/service.md, "The outbox"): sends the webhook messages the requests'
 * transactions wrote, signed per Standard Webhooks, at least once, in event order per payment and
 * url. Every instance runs one; they share the work through the database:
 *
 * - a claim takes due rows `FOR UPDATE SKIP LOCKED` (two instances never claim one row) and only
 *   the oldest pending row of each (payment, url) (so a later event never overtakes an earlier
 *   one), and moves its `next_attempt_at` a short lease ahead. While the attempt runs, a heartbeat
 *   renews the leases of every row this process holds (`heartbeatMs`), so the lease needs not
 *   cover an attempt's time limit: a process that dies (kill -9) stops renewing, and its rows are
 *   sent again by any instance within a lease (`leaseMs`, a few seconds), not a time limit;
 * - an answer 2xx marks it delivered; anything else is retried with exponential backoff and
 *   jitter (5 s doubling to a day by default, the attempts spanning more than 3 days, as Standard
 *   Webhooks recommends), never sooner than a 429's or 503's `Retry-After` asks (capped at the
 *   longest delay), up to `maxAttempts`, then the row is `dead` (kept, with its last status and
 *   error and why: `dead_reason`); a url the guard refuses is dead at once (guard.ts: nothing was
 *   sent);
 * - 410 Gone disables the url (Standard Webhooks: the receiver wants no more): that message and
 *   every later one to the url are dead with reason `gone`, unsent, until an operator enables it
 *   again (the dead-letter command);
 * - each message is signed with every configured secret (a space-separated `webhook-signature`),
 *   so receivers keep verifying while a secret is rotated;
 * - it removes the messages of events older than the retention (the event feed's 30 days).
 */
import { Webhook } from 'standardwebhooks'
import type { WebhookDelivery } from 'paysplit/http'
import type { RelayConfig } from '../config.js'
import type { Db } from '../db/db.js'
import type { Logger } from '../log.js'
import type { Rules } from '../paysplit.js'
import { deleteExpiredEvents } from './feed.js'
import { guardOf, shownUrl, type Guard } from './guard.js'
import { post, type AttemptResult, type Resolve } from './send.js'

/** What one attempt came to (for metrics and tests). */
export interface AttemptOutcome {
  readonly outcome: 'delivered' | 'retry' | 'dead'
  /** Why dead: every attempt failed, 410 Gone, or the guard refused the address. */
  readonly deadReason?: 'attempts' | 'gone' | 'refused'
  readonly status: number | null
  readonly ms: number
}

/** Optional collaborators of the relay: the resolver (tests stub it) and a hook per attempt (metrics). */
export interface RelayHooks {
  readonly resolve?: Resolve
  readonly onAttempt?: (outcome: AttemptOutcome) => void
  /** Events older than this many days are removed (hourly, and at start); absent: none are. */
  readonly retentionDays?: number
}

interface Claimed {
  readonly id: string
  readonly url: string
  readonly event_type: string
  readonly webhook_id: string
  readonly payload: string
  readonly attempts: number
  /** The url answered 410 Gone before: dead at once, unsent. */
  readonly disabled: boolean
}

const CLAIM = `
WITH due AS (
  SELECT o.id FROM outbox o
   WHERE o.status = 'pending' AND o.next_attempt_at <= now()
     AND NOT EXISTS (
       SELECT 1 FROM outbox e
        WHERE e.status = 'pending' AND e.payment_reference_id = o.payment_reference_id
          AND e.url = o.url AND e.id < o.id)
   ORDER BY o.id
   LIMIT $1
   FOR UPDATE SKIP LOCKED)
UPDATE outbox o
   SET attempts = o.attempts + 1, next_attempt_at = now() + $2 * interval '1 millisecond'
  FROM due
 WHERE o.id = due.id
RETURNING o.id::text AS id, o.url, o.event_type, o.webhook_id, o.payload, o.attempts,
          EXISTS (SELECT 1 FROM webhook_disabled_urls d WHERE d.url = o.url) AS disabled`

/** The delay of the schedule before attempt `attempts + 1`, without jitter: base·2^(attempts−1), capped. */
const nominalMs = (attempts: number, config: Pick<RelayConfig, 'baseDelayMs' | 'maxDelayMs'>): number =>
  Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** Math.min(40, attempts - 1))

/**
 * The delay before attempt `attempts + 1`: base·2^(attempts−1), capped at `maxDelayMs`, stretched
 * by up to a quarter (`random` in [0, 1)): jitter spreads the retries of many messages that failed
 * together, and never makes a delay shorter than the schedule.
 */
export const backoffMs = (attempts: number, config: Pick<RelayConfig, 'baseDelayMs' | 'maxDelayMs'>, random: number): number =>
  Math.round(nominalMs(attempts, config) * (1 + random / 4))

/** The shortest time from a message's first attempt to its last: the schedule's delays summed, without jitter. */
export const retrySpanMs = (config: Pick<RelayConfig, 'baseDelayMs' | 'maxDelayMs' | 'maxAttempts'>): number => {
  let total = 0
  for (let n = 1; n < config.maxAttempts; n++) total += nominalMs(n, config)
  return total
}

/**
 * The delay before the next attempt after an answer `status` with `retryAfterMs`: the schedule's,
 * or longer when a 429 or 503 asked for it (`Retry-After`), capped at `maxDelayMs`.
 */
export const nextDelayMs = (
  attempts: number,
  result: { readonly status?: number; readonly retryAfterMs?: number },
  config: Pick<RelayConfig, 'baseDelayMs' | 'maxDelayMs'>,
  random: number
): number => {
  const scheduled = backoffMs(attempts, config, random)
  const asked = (result.status === 429 || result.status === 503) && result.retryAfterMs !== undefined ? Math.min(result.retryAfterMs, config.maxDelayMs) : 0
  return Math.max(scheduled, asked)
}

/** How often the relay removes expired events. */
const RETENTION_EVERY_MS = 60 * 60_000

export class Relay {
  private readonly webhooks: ReadonlyArray<Webhook>
  private running = false
  private readonly inFlight = new Set<Promise<void>>()
  private wake: (() => void) | undefined
  private loop: Promise<void> | undefined
  private readonly guard: Guard
  /** The rows this process holds (id → attempts of its claim): the heartbeat renews their leases. */
  private readonly held = new Map<string, number>()
  private heartbeat: NodeJS.Timeout | undefined
  /** A renewal is running: a slow database does not pile them up. */
  private renewing = false
  private retention: NodeJS.Timeout | undefined
  /** The removal of expired events in progress (awaited by `stop`). */
  private removing: Promise<void> | undefined

  /** `secrets`: the Standard Webhooks secrets (`whsec_…`), each signing every message. */
  constructor(
    private readonly db: Db,
    private readonly config: RelayConfig,
    secrets: ReadonlyArray<string>,
    private readonly log: Logger,
    private readonly webhookMessage: Rules['webhookMessage'],
    private readonly hooks: RelayHooks = {}
  ) {
    this.webhooks = secrets.map((secret) => new Webhook(secret))
    this.guard = guardOf(config.targets)
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.heartbeat = setInterval(() => {
      void this.renew()
    }, this.config.heartbeatMs)
    this.heartbeat.unref()
    const days = this.hooks.retentionDays
    if (days !== undefined) {
      const remove = (): void => {
        this.removing ??= this.removeExpired(days).finally(() => {
          this.removing = undefined
        })
      }
      this.retention = setInterval(remove, RETENTION_EVERY_MS)
      this.retention.unref()
      remove()
    }
    this.loop = this.run()
  }

  /** Removes the messages of events older than `days`, a batch at a time, while the relay runs. */
  private async removeExpired(days: number): Promise<void> {
    try {
      let removed = 0
      for (let batch = await deleteExpiredEvents(this.db, days); batch > 0 && this.running; batch = await deleteExpiredEvents(this.db, days)) removed += batch
      if (removed > 0) this.log.info('expired events removed', { messages: removed, retentionDays: days })
    } catch (e) {
      this.log.error('removing expired events failed', { error: e instanceof Error ? e.message : String(e) })
    }
  }

  /**
   * Renews the leases of the rows this process holds. A row whose claim another instance took
   * over (its lease ran out: this process stalled longer than a lease) is not renewed: its
   * `attempts` moved on, and this process's outcome will not be recorded either.
   */
  private async renew(): Promise<void> {
    if (this.held.size === 0 || this.renewing) return
    this.renewing = true
    const ids = [...this.held.keys()]
    const attempts = ids.map((id) => this.held.get(id) ?? 0)
    try {
      const renewed = await this.db.query<{ id: string }>(
        `UPDATE outbox o SET next_attempt_at = now() + $3 * interval '1 millisecond'
           FROM unnest($1::bigint[], $2::int[]) AS h(id, attempts)
          WHERE o.id = h.id AND o.attempts = h.attempts AND o.status = 'pending'
        RETURNING o.id::text AS id`,
        [ids, attempts, this.config.leaseMs]
      )
      if (renewed.rows.length < ids.length) {
        const kept = new Set(renewed.rows.map((r) => r.id))
        const lost = ids.filter((id) => !kept.has(id) && this.held.has(id))
        if (lost.length > 0) this.log.warn('outbox lease lost', { outboxIds: lost })
      }
    } catch (e) {
      this.log.error('outbox heartbeat failed', { error: e instanceof Error ? e.message : String(e) })
    } finally {
      this.renewing = false
    }
  }

  /** New messages were committed: look now rather than at the next poll. */
  kick(): void {
    this.wake?.()
  }

  /** Stops claiming, waits for the attempts in flight (each bounded by its time limit) and records them. */
  async stop(): Promise<void> {
    this.running = false
    clearInterval(this.retention)
    this.kick()
    await this.loop
    await Promise.allSettled([...this.inFlight])
    await this.removing
    clearInterval(this.heartbeat)
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.config.concurrency - this.inFlight.size
      let claimed: ReadonlyArray<Claimed> = []
      if (free > 0) {
        try {
          claimed = (await this.db.query<Claimed>(CLAIM, [free, this.config.leaseMs])).rows
        } catch (e) {
          this.log.error('outbox claim failed', { error: e instanceof Error ? e.message : String(e) })
        }
      }
      for (const row of claimed) {
        this.held.set(row.id, row.attempts)
        const attempt = this.attempt(row).finally(() => {
          this.held.delete(row.id)
          this.inFlight.delete(attempt)
          this.kick()
        })
        this.inFlight.add(attempt)
      }
      // A full batch: there may be more due at once. Otherwise wait for a kick or the poll.
      if (claimed.length > 0 && claimed.length === free) continue
      if (!this.running) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.config.pollMs)
        this.wake = () => {
          clearTimeout(timer)
          this.wake = undefined
          resolve()
        }
      })
    }
  }

  /** The message of a row, signed with every secret: `webhook-signature` lists them, space-separated. */
  private signed(row: Claimed): { readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body: string } {
    const delivery = { url: row.url, eventType: row.event_type, payload: JSON.parse(row.payload) as unknown } as WebhookDelivery
    const timestamp = Math.floor(Date.now() / 1000)
    const message = this.webhookMessage(delivery, timestamp)
    const signature = this.webhooks.map((w) => w.sign(message.id, new Date(timestamp * 1000), message.body)).join(' ')
    return { url: message.url, headers: { ...message.headers, 'webhook-signature': signature }, body: message.body }
  }

  private async attempt(row: Claimed): Promise<void> {
    const started = performance.now()
    let result: AttemptResult | 'disabled'
    if (row.disabled) result = 'disabled'
    else {
      const message = this.signed(row)
      result = await post(message.url, message.headers, message.body, {
        ...this.config,
        guard: this.guard,
        ...(this.hooks.resolve !== undefined ? { resolve: this.hooks.resolve } : {})
      })
    }
    const outcome = await this.record(row, result).catch((e: unknown) => {
      // The row stays pending with its lease: it is sent again when the lease ends (at least once).
      this.log.error('outbox record failed', { outboxId: row.id, error: e instanceof Error ? e.message : String(e) })
      return undefined
    })
    if (outcome !== undefined) this.hooks.onAttempt?.({ ...outcome, ms: performance.now() - started })
  }

  private async record(row: Claimed, result: AttemptResult | 'disabled'): Promise<Omit<AttemptOutcome, 'ms'>> {
    if (result === 'disabled') {
      const error = 'not sent: the url answered 410 Gone before (dead-letters enable sends to it again)'
      await this.db.query(
        `UPDATE outbox SET status = 'dead', last_error = $2, dead_reason = 'gone', finished_at = now()
          WHERE id = $1 AND attempts = $3 AND status = 'pending'`,
        [row.id, error, row.attempts]
      )
      this.log.warn('webhook dead', { outboxId: row.id, webhookId: row.webhook_id, url: shownUrl(row.url), attempt: row.attempts, status: null, error, deadReason: 'gone' })
      return { outcome: 'dead', deadReason: 'gone', status: null }
    }
    const status = 'status' in result ? result.status : null
    const error =
      'refused' in result
        ? `refused: ${result.refused}`
        : 'error' in result
          ? result.error
          : status !== null && (status < 200 || status > 299)
            ? `HTTP ${String(status)}${status >= 300 && status <= 399 ? ' (redirects are not followed)' : ''}`
            : null
    // the url without its query string: it may carry a receiver's token
    const fields = { outboxId: row.id, webhookId: row.webhook_id, url: shownUrl(row.url), attempt: row.attempts, status, error }
    if (status !== null && status >= 200 && status <= 299) {
      await this.db.query(
        `UPDATE outbox SET status = 'delivered', last_status = $2, last_error = NULL, finished_at = now()
          WHERE id = $1 AND attempts = $3 AND status = 'pending'`,
        [row.id, status, row.attempts]
      )
      this.log.info('webhook delivered', fields)
      return { outcome: 'delivered', status }
    }
    const deadReason = 'refused' in result ? 'refused' : status === 410 ? 'gone' : row.attempts >= this.config.maxAttempts ? 'attempts' : undefined
    if (deadReason !== undefined) {
      // 410: the url is disabled too (in the same statement), so later messages to it die unsent
      await this.db.query(
        `WITH disabled AS (
           INSERT INTO webhook_disabled_urls (url, webhook_id)
           SELECT url, webhook_id FROM outbox WHERE $5 = 'gone' AND id = $1 AND attempts = $4 AND status = 'pending'
           ON CONFLICT (url) DO NOTHING)
         UPDATE outbox SET status = 'dead', last_status = $2, last_error = $3, dead_reason = $5, finished_at = now()
          WHERE id = $1 AND attempts = $4 AND status = 'pending'`,
        [row.id, status, error, row.attempts, deadReason]
      )
      this.log.warn('webhook dead', { ...fields, deadReason })
      return { outcome: 'dead', deadReason, status }
    }
    const delay = nextDelayMs(row.attempts, 'status' in result ? result : {}, this.config, Math.random())
    await this.db.query(
      `UPDATE outbox SET last_status = $2, last_error = $3, next_attempt_at = now() + $4 * interval '1 millisecond'
        WHERE id = $1 AND attempts = $5 AND status = 'pending'`,
      [row.id, status, error, delay, row.attempts]
    )
    this.log.info('webhook retry', { ...fields, retryInMs: delay })
    return { outcome: 'retry', status }
  }
}

