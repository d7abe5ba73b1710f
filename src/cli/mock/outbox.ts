/**
 * The mock's webhooks: each delivery paysplit gave, signed as a Standard Webhooks message (the
 * `standardwebhooks` package) and POSTed, one url's messages in order, retried a few times, kept in
 * a log the mock shows at `GET /_mock/webhooks`. Only to hosts the mock may reach: loopback (what
 * the mock's user runs on this machine) and the hosts the user allowed by name; anything else —
 * the `.example` urls of a test, a real shop's domain — is logged as `blocked` and never dialled
 * (docs/decisions.md, "The mock").
 *
 * @module cli/mock/outbox
 */
import type { WebhookClass } from '../standardWebhooks.js'
import { messageOf, type WebhookDelivery } from './world.js'

/** A delivery's life in the log. */
export interface LoggedDelivery {
  readonly n: number
  readonly url: string
  readonly eventID: string
  readonly eventType: string
  state: 'pending' | 'delivered' | 'failed' | 'blocked'
  attempts: number
  lastStatus?: number
  lastError?: string
}

/** How the outbox sends. */
export interface OutboxOptions {
  /** The Standard Webhooks secret (`whsec_…`) every message is signed with. */
  readonly secret: string
  readonly Webhook: WebhookClass
  /** Host names (or addresses) the mock may reach besides loopback, lower case. */
  readonly allow: ReadonlyArray<string>
  /** The wall clock in ms: a message's timestamp (receivers refuse one far from their own clock). */
  readonly now: () => number
  /** The waits before the second and later attempts, in ms. */
  readonly retryDelaysMs: ReadonlyArray<number>
  /** Called with a line for each attempt's outcome (the command prints them). */
  readonly log?: (line: string) => void
}

/** Whether `host` (a URL's hostname, IPv6 in brackets) is this machine's loopback: `localhost`, 127.0.0.0/8, `[::1]`. */
export const isLoopback = (host: string): boolean => host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)

/**
 * Why the mock does not send to `url`, or undefined when it may: an http(s) url without
 * credentials, to loopback or to a host the user allowed by name.
 */
export const refusal = (url: string, allow: ReadonlyArray<string>): string | undefined => {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return 'not a url'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${u.protocol} is not http(s)`
  if (u.username !== '' || u.password !== '') return 'credentials in the url'
  const host = u.hostname.toLowerCase()
  if (isLoopback(host) || allow.includes(host)) return undefined
  return `${host} is neither loopback nor allowed (--webhook-allow)`
}

const LOG_SIZE = 1000

/** The outbox: `send` queues a request's deliveries; `idle` resolves once nothing is pending. */
export const outbox = (options: OutboxOptions) => {
  const webhook = new options.Webhook(options.secret)
  let log: LoggedDelivery[] = []
  let n = 0
  /** Each url's chain of messages, so that one url's arrive in the order sent. */
  const chains = new Map<string, Promise<void>>()
  let generation = 0
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

  const attempt = async (entry: LoggedDelivery, delivery: WebhookDelivery): Promise<boolean> => {
    const message = messageOf(delivery, Math.floor(options.now() / 1000))
    const signature = webhook.sign(message.id, new Date(message.timestamp * 1000), message.body)
    entry.attempts += 1
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: { ...message.headers, 'webhook-signature': signature },
        body: message.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(5000)
      })
      await res.body?.cancel()
      entry.lastStatus = res.status
      delete entry.lastError
      return res.status >= 200 && res.status < 300
    } catch (e) {
      const cause = e instanceof Error ? (e.cause as { code?: unknown } | undefined)?.code : undefined
      entry.lastError = typeof cause === 'string' ? cause : e instanceof Error ? e.message : String(e)
      return false
    }
  }

  const deliver = async (entry: LoggedDelivery, delivery: WebhookDelivery, mine: number): Promise<void> => {
    for (let i = 0; i <= options.retryDelaysMs.length && mine === generation; i++) {
      if (i > 0) await wait(options.retryDelaysMs[i - 1] ?? 0)
      if (mine !== generation) return
      if (await attempt(entry, delivery)) {
        entry.state = 'delivered'
        options.log?.(`webhook ${entry.eventType} ${entry.eventID} → ${entry.url}: ${String(entry.lastStatus)}`)
        return
      }
    }
    entry.state = 'failed'
    options.log?.(`webhook ${entry.eventType} ${entry.eventID} → ${entry.url}: failed after ${String(entry.attempts)} attempt(s) (${entry.lastError ?? String(entry.lastStatus)})`)
  }

  return {
    /** Queues the deliveries of one operation. */
    send: (deliveries: ReadonlyArray<WebhookDelivery>): void => {
      for (const d of deliveries) {
        n += 1
        const entry: LoggedDelivery = { n, url: d.url, eventID: d.id, eventType: d.eventType, state: 'pending', attempts: 0 }
        log.push(entry)
        if (log.length > LOG_SIZE) log = log.slice(-LOG_SIZE)
        const why = refusal(d.url, options.allow)
        if (why !== undefined) {
          entry.state = 'blocked'
          entry.lastError = why
          options.log?.(`webhook ${entry.eventType} ${entry.eventID} → ${entry.url}: blocked, ${why}`)
          continue
        }
        const mine = generation
        const chain = (chains.get(d.url) ?? Promise.resolve()).then(() => deliver(entry, d, mine))
        chains.set(d.url, chain)
        void chain.finally(() => {
          if (chains.get(d.url) === chain) chains.delete(d.url)
        })
      }
    },
    /** The log, oldest first (the last 1000). */
    entries: (): ReadonlyArray<LoggedDelivery> => log.map((e) => ({ ...e })),
    /** Resolves once every queued message is delivered, failed or dropped. */
    idle: async (): Promise<void> => {
      while (chains.size > 0) await Promise.all([...chains.values()])
    },
    /** Forgets the log and drops what is pending. */
    reset: (): void => {
      generation += 1
      log = []
    }
  }
}

export type Outbox = ReturnType<typeof outbox>
