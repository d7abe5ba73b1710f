/**
 * The outbox relay (docs/service.md, "The outbox"): sends the webhook messages the requests'
 * transactions wrote, signed per Standard Webhooks, at least once, in event order per payment and
 * url. Every instance runs one; they share the work through the database:
 *
 * - a claim takes due rows `FOR UPDATE SKIP LOCKED` (two instances never claim one row) and only
 *   the oldest pending row of each (payment, url) (so a later event never overtakes an earlier
 *   one), and moves its `next_attempt_at` past the attempt's time limit: a lease. A process that
 *   dies mid-attempt leaves the row pending; when the lease ends, any instance sends it again;
 * - an answer 2xx marks it delivered; anything else is retried with exponential backoff and
 *   jitter, up to `maxAttempts`, then the row is `dead` (kept, with its last status and error);
 *   410 Gone is dead at once.
 */
import { Webhook } from 'standardwebhooks'
import type { WebhookDelivery } from 'paysplit/http'
import type { RelayConfig } from '../config.js'
import type { Db } from '../db/db.js'
import type { Logger } from '../log.js'
import type { Rules } from '../paysplit.js'
import { post, type AttemptResult } from './send.js'

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
  private readonly leaseMs: number

  constructor(
    private readonly db: Db,
    private readonly config: RelayConfig,
    secret: string,
    private readonly log: Logger,
    private readonly webhookMessage: Rules['webhookMessage'],
    /** Told each attempt's outcome once it is recorded (the service's metrics count them). */
    private readonly onAttempt: (outcome: 'delivered' | 'retry' | 'dead') => void = () => undefined
  ) {
    this.webhook = new Webhook(secret)
    // The attempt is cut at timeoutMs; the rest is room to record its outcome.
    this.leaseMs = Math.max(config.leaseMs, config.timeoutMs + 1000)
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.loop = this.run()
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
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.config.concurrency - this.inFlight.size
      let claimed: ReadonlyArray<Claimed> = []
      if (free > 0) {
        try {
          claimed = (await this.db.query<Claimed>(CLAIM, [free, this.leaseMs])).rows
        } catch (e) {
          this.log.error('outbox claim failed', { error: e instanceof Error ? e.message : String(e) })
        }
      }
      for (const row of claimed) {
        const attempt = this.attempt(row).finally(() => {
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
    const delivery = { url: row.url, eventType: row.event_type, payload: JSON.parse(row.payload) as unknown } as WebhookDelivery
    const timestamp = Math.floor(Date.now() / 1000)
    const message = this.webhookMessage(delivery, timestamp)
    const signature = this.webhook.sign(message.id, new Date(timestamp * 1000), message.body)
    const result = await post(message.url, { ...message.headers, 'webhook-signature': signature }, message.body, this.config)
    await this.record(row, result).catch((e: unknown) => {
      // The row stays pending with its lease: it is sent again when the lease ends (at least once).
      this.log.error('outbox record failed', { outboxId: row.id, error: e instanceof Error ? e.message : String(e) })
    })
  }

  private async record(row: Claimed, result: AttemptResult): Promise<void> {
    const status = 'status' in result ? result.status : null
    const error = 'error' in result ? result.error : status !== null && (status < 200 || status > 299) ? `HTTP ${String(status)}` : null
    const fields = { outboxId: row.id, webhookId: row.webhook_id, url: row.url, attempt: row.attempts, status, error }
    if (status !== null && status >= 200 && status <= 299) {
      await this.db.query(
        `UPDATE outbox SET status = 'delivered', last_status = $2, last_error = NULL, finished_at = now()
          WHERE id = $1 AND attempts = $3 AND status = 'pending'`,
        [row.id, status, row.attempts]
      )
      this.log.info('webhook delivered', fields)
      this.onAttempt('delivered')
      return
    }
    if (row.attempts >= this.config.maxAttempts || status === 410) {
      await this.db.query(
        `UPDATE outbox SET status = 'dead', last_status = $2, last_error = $3, finished_at = now()
          WHERE id = $1 AND attempts = $4 AND status = 'pending'`,
        [row.id, status, error, row.attempts]
      )
      this.log.warn('webhook dead', fields)
      this.onAttempt('dead')
      return
    }
    const delay = backoffMs(row.attempts, this.config, Math.random())
    await this.db.query(
      `UPDATE outbox SET last_status = $2, last_error = $3, next_attempt_at = now() + $4 * interval '1 millisecond'
        WHERE id = $1 AND attempts = $5 AND status = 'pending'`,
      [row.id, status, error, delay, row.attempts]
    )
    this.log.info('webhook retry', { ...fields, retryInMs: delay })
    this.onAttempt('retry')
  }
}

