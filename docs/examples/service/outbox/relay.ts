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
 *   jitter, up to `maxAttempts`, then the row is `dead` (kept, with its last status and error and
 *   why: `dead_reason`); 410 Gone is dead at once, and so is a url the guard refuses (guard.ts:
 *   nothing was sent).
 */
import { Webhook } from 'standardwebhooks'
import type { WebhookDelivery } from 'paysplit/http'
import type { RelayConfig } from '../config.js'
import type { Db } from '../db/db.js'
import type { Logger } from '../log.js'
import type { Rules } from '../paysplit.js'
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
}

interface Claimed {
  readonly id: string
  readonly url: string
  readonly event_type: string
  readonly webhook_id: string
  readonly payload: string
  readonly attempts: number
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
RETURNING o.id::text AS id, o.url, o.event_type, o.webhook_id, o.payload, o.attempts`

/** The delay before attempt `attempts + 1`: base·2^(attempts−1), capped, with jitter (half to all of it). */
export const backoffMs = (attempts: number, config: Pick<RelayConfig, 'baseDelayMs' | 'maxDelayMs'>, random: number): number => {
  const full = Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** Math.min(30, attempts - 1))
  return Math.round(full / 2 + (random * full) / 2)
}

export class Relay {
  private readonly webhook: Webhook
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

  constructor(
    private readonly db: Db,
    private readonly config: RelayConfig,
    secret: string,
    private readonly log: Logger,
    private readonly webhookMessage: Rules['webhookMessage'],
    private readonly hooks: RelayHooks = {}
  ) {
    this.webhook = new Webhook(secret)
    this.guard = guardOf(config.targets)
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.heartbeat = setInterval(() => {
      void this.renew()
    }, this.config.heartbeatMs)
    this.heartbeat.unref()
    this.loop = this.run()
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

  /** Stops claiming, waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.running = false
    this.kick()
    await this.loop
    await Promise.allSettled([...this.inFlight])
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

  private async attempt(row: Claimed): Promise<void> {
    const started = performance.now()
    const delivery = { url: row.url, eventType: row.event_type, payload: JSON.parse(row.payload) as unknown } as WebhookDelivery
    const timestamp = Math.floor(Date.now() / 1000)
    const message = this.webhookMessage(delivery, timestamp)
    const signature = this.webhook.sign(message.id, new Date(timestamp * 1000), message.body)
    const result = await post(message.url, { ...message.headers, 'webhook-signature': signature }, message.body, {
      ...this.config,
      guard: this.guard,
      ...(this.hooks.resolve !== undefined ? { resolve: this.hooks.resolve } : {})
    })
    const outcome = await this.record(row, result).catch((e: unknown) => {
      // The row stays pending with its lease: it is sent again when the lease ends (at least once).
      this.log.error('outbox record failed', { outboxId: row.id, error: e instanceof Error ? e.message : String(e) })
      return undefined
    })
    if (outcome !== undefined) this.hooks.onAttempt?.({ ...outcome, ms: performance.now() - started })
  }

  private async record(row: Claimed, result: AttemptResult): Promise<Omit<AttemptOutcome, 'ms'>> {
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
      await this.db.query(
        `UPDATE outbox SET status = 'dead', last_status = $2, last_error = $3, dead_reason = $5, finished_at = now()
          WHERE id = $1 AND attempts = $4 AND status = 'pending'`,
        [row.id, status, error, row.attempts, deadReason]
      )
      this.log.warn('webhook dead', { ...fields, deadReason })
      return { outcome: 'dead', deadReason, status }
    }
    const delay = backoffMs(row.attempts, this.config, Math.random())
    await this.db.query(
      `UPDATE outbox SET last_status = $2, last_error = $3, next_attempt_at = now() + $4 * interval '1 millisecond'
        WHERE id = $1 AND attempts = $5 AND status = 'pending'`,
      [row.id, status, error, delay, row.attempts]
    )
    this.log.info('webhook retry', { ...fields, retryInMs: delay })
    return { outcome: 'retry', status }
  }
}

