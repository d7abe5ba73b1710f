/**
 * Configuration of the reference service: every setting from the environment. Secure by default
 * (docs/service.md, "Running in production"): outside development mode the service refuses to
 * start without its keys, its webhook secret and a durable database, and refuses the development
 * values and weak secrets. Development mode (`DEV_MODE=1`, which `npm run serve` sets; never with
 * `NODE_ENV=production`) supplies development keys, a development secret and an in-memory PGlite,
 * on a loopback address only. `describeConfig` prints the settings at start (secrets masked).
 */
import { createHash } from 'node:crypto'
import { redactText } from './log.js'

import { loopbackNetworks, parseNetwork, urlRefusal, guardOf, type TargetPolicy } from './outbox/guard.js'

/** Where a new invoice's KID comes from (docs/decisions.md, "The reference service"). */
export type KidScheme = 'random' | 'customer'

export interface Config {
  /** `development`: development keys, secret and database allowed (loopback only); `production`: none. */
  readonly mode: Mode
  readonly host: string
  readonly port: number
  /** A PostgreSQL server (`pg`); absent: the embedded PGlite. */
  readonly databaseUrl: string | undefined
  /** PGlite's data folder; absent: in memory (gone when the process stops). */
  readonly pgliteDir: string | undefined
  /** PGlite's `shared_buffers` (`PGLITE_SHARED_BUFFERS`, default 16MB): its buffer pool, in this process's memory. */
  readonly pgliteSharedBuffers: string
  /** Connections of the `pg` pool per process. */
  readonly poolSize: number
  /** Bearer keys of the payments API (`/payments`, `/customers`, `/events`), each with the caller it names. */
  readonly apiKeys: ReadonlyArray<CallerKey>
  /** Bearer keys of the bank routes (`/bank/transfers`, `/bank/ocr`). */
  readonly bankKeys: ReadonlyArray<CallerKey>
  /** The catch-all webhook url (the seed's "configured in the Platform Dashboard"). */
  readonly catchAllUrl: string | undefined
  /**
   * Standard Webhooks secrets (`whsec_` + base64), at least one: every message is signed with each
   * (a space-separated `webhook-signature`), so a receiver verifying with any of them accepts it
   * while a rotation lasts.
   */
  readonly webhookSecrets: ReadonlyArray<string>
  readonly kidScheme: KidScheme
  readonly maxBodyBytes: number
  /** Time limit of a whole request (node:http `requestTimeout`). */
  readonly requestTimeoutMs: number
  /** How long an idle keep-alive connection is kept open (node:http `keepAliveTimeout`). */
  readonly keepAliveTimeoutMs: number
  /** Time limit to receive a request's headers (node:http `headersTimeout`). */
  readonly headersTimeoutMs: number
  /** Requests per key per window and instance; 0: no limit. */
  readonly rateLimit: { readonly points: number; readonly windowS: number }
  /** Bearer keys of `GET /metrics`; empty: `/metrics` is off (404). */
  readonly metricsKeys: ReadonlyArray<CallerKey>
  /** Open connections at most; past it node:http drops new ones at once (`MAX_CONNECTIONS`). */
  readonly maxConnections: number
  /**
   * After SIGTERM: how long the service keeps answering (with `Connection: close`, `/readyz` 503)
   * before it closes its listener, so the load balancer sees it unready and stops sending first.
   */
  readonly drainPeriodMs: number
  /** Days the event feed (`GET /events`) and the replay command keep an event's messages. */
  readonly eventsRetentionDays: number
  /** Runs of a request's transaction that lose a race before the answer is 409 ConcurrentModification. */
  readonly maxTransactionAttempts: number
  readonly relay: RelayConfig
  /** The hosted form's action tokens (routes/form.ts). */
  readonly form: FormConfig
  // -- safe retries (idem: docs/service.md, "Safe retries") --
  /** How long a request waits for another with the same Idempotency-Key before 409 IdempotencyKeyInFlight. */
  readonly idempotencyWaitMs: number
  // ocr (POST /bank/ocr)
  /** Bytes of an OCR giro file read at most (`OCR_MAX_BYTES`, default 8 MiB); absent: the default. */
  readonly ocrMaxBytes?: number
}

export interface RelayConfig {
  /** Off: this process only writes the outbox (another one sends). */
  readonly enabled: boolean
  /** Attempts per message, the first included; then the message is `dead`. */
  readonly maxAttempts: number
  /**
   * Delay before the 2nd attempt; doubled each time up to `maxDelayMs`, each stretched by up to a
   * quarter at random (jitter). A receiver's `Retry-After` on 429 or 503 is honoured, capped at
   * `maxDelayMs`.
   */
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  /** Time limit of one attempt (connect, send, read the answer). */
  readonly timeoutMs: number
  /**
   * How long a claimed message is left to its claimer before another instance may send it again
   * (the claimer died). The claimer renews it every `heartbeatMs` while the attempt runs.
   */
  readonly leaseMs: number
  /** How often the relay renews the leases of the messages it holds. */
  readonly heartbeatMs: number
  /** Where webhooks may go (outbox/guard.ts). */
  readonly targets: TargetPolicy
  /** Messages in flight at once per process. */
  readonly concurrency: number
  /** How often the relay looks for due messages when nothing woke it. */
  readonly pollMs: number
  /** Bytes of a receiver's answer read at most; the rest is dropped with the connection. */
  readonly maxResponseBytes: number
}

export type Mode = 'development' | 'production'

/**
 * One bearer key and the caller it names. Several keys may name one caller (a rotation: the old
 * and the new key of one client, both live until the old is removed); the caller's id, not the
 * key, scopes its Idempotency-Keys and is what the logs show.
 */
export interface CallerKey {
  readonly id: string
  readonly key: string
}

/** The development defaults of the keys and the secret: used and accepted only in development mode. */
export const devApiKey = 'dev-api-key'
export const devBankKey = 'dev-bank-key'
export const devWebhookSecret = 'whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWRvLW5vdC11c2U='
export const devMetricsKey = 'dev-metrics-key'
const devValues: ReadonlySet<string> = new Set([devApiKey, devBankKey, devWebhookSecret, devMetricsKey])

/** Keys shorter than this are refused outside development (32 characters: 128 bits of hex, about 190 of base64). */
export const minKeyLength = 32
/** Bytes of a webhook secret (after `whsec_` and base64) accepted at least and at most: Standard Webhooks' 24–64. */
const secretBytes = { min: 24, max: 64 } as const

/** A configuration the service refuses to start with; `problems` names each variable and why, never a value. */
export class ConfigError extends Error {
  constructor(readonly problems: ReadonlyArray<string>) {
    super(`The service refuses to start: ${problems.join(' ')}`)
    this.name = 'ConfigError'
  }
}

type Env = Readonly<Record<string, string | undefined>>

const int = (env: Env, name: string, fallback: number, min = 0): number => {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min) throw new ConfigError([`${name} must be an integer ≥ ${String(min)}.`])
  return n
}

const list = (raw: string | undefined): ReadonlyArray<string> =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')

/** A caller's id as `API_KEYS` names it: letters, digits, `.`, `_`, `-`; 1–64, a letter or digit first. */
const CALLER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/**
 * The id of a key given without one (`API_KEYS=<key>`): 16 hex digits of its SHA-256, the same in
 * every process and across restarts. The key itself is never an id, a label or a stored value.
 */
export const keyDigestId = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 16)

/**
 * The keys of one variable: `id:key` pairs, or bare keys (whose id is {@link keyDigestId}), comma-separated.
 * Each problem is a sentence naming the variable and the entry's position, never a value.
 */
export const callerKeys = (name: string, raw: string | undefined, problems: Array<string>): ReadonlyArray<CallerKey> => {
  const out: Array<CallerKey> = []
  list(raw).forEach((entry, i) => {
    const colon = entry.indexOf(':')
    const id = colon < 0 ? undefined : entry.slice(0, colon).trim()
    const key = colon < 0 ? entry : entry.slice(colon + 1).trim()
    if (id !== undefined && !CALLER_ID.test(id)) {
      problems.push(`${name}: entry ${String(i + 1)} is not id:key (an id is 1–64 letters, digits, ".", "_" or "-"; a key holds no ":").`)
      return
    }
    if (key === '') {
      problems.push(`${name}: entry ${String(i + 1)} has no key after its id.`)
      return
    }
    out.push({ id: id ?? keyDigestId(key), key })
  })
  if (new Set(out.map((k) => k.key)).size < out.length) problems.push(`${name} holds one key twice.`)
  return out
}

/** The bare keys of a list of caller keys. */
export const keysOf = (keys: ReadonlyArray<CallerKey>): ReadonlyArray<string> => keys.map((k) => k.key)

const loopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)

/** What is wrong with a webhook secret outside development, or undefined when it is strong. */
const secretProblem = (secret: string): string | undefined => {
  if (!secret.startsWith('whsec_')) return 'WEBHOOK_SECRET must be whsec_ followed by base64.'
  const body = secret.slice('whsec_'.length)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return 'WEBHOOK_SECRET must be whsec_ followed by base64.'
  const bytes = Buffer.from(body, 'base64')
  if (bytes.length < secretBytes.min || bytes.length > secretBytes.max) {
    return `WEBHOOK_SECRET must hold ${String(secretBytes.min)} to ${String(secretBytes.max)} random bytes (base64 after whsec_).`
  }
  if (new Set(bytes).size < 8) return 'WEBHOOK_SECRET is not random (too few distinct bytes).'
  return undefined
}

/** What is wrong with the keys of one variable outside development. */
const keyProblems = (name: string, keys: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  if (keys.some((k) => devValues.has(k))) out.push(`${name} holds a development value.`)
  else if (keys.some((k) => k.length < minKeyLength)) out.push(`${name}: every key needs at least ${String(minKeyLength)} characters.`)
  else if (keys.some((k) => new Set(k).size < 8)) out.push(`${name}: a key is not random (too few distinct characters).`)
  return out
}

/**
 * Reads the configuration. Throws a `ConfigError` naming every variable that is missing, weak or
 * wrong (never its value). Development mode is `DEV_MODE=1` without `NODE_ENV=production`.
 */
export const loadConfig = (env: Env = process.env): Config => {
  const production = env['NODE_ENV'] === 'production'
  const development = env['DEV_MODE'] === '1' && !production
  const problems: Array<string> = []
  const apiCallers = callerKeys('API_KEYS', env['API_KEYS'], problems)
  const bankCallers = callerKeys('BANK_API_KEYS', env['BANK_API_KEYS'], problems)
  const metricsCallers = callerKeys('METRICS_KEYS', env['METRICS_KEYS'], problems)
  const apiKeys = keysOf(apiCallers)
  const bankKeys = keysOf(bankCallers)
  const metricsKeys = keysOf(metricsCallers)
  const secrets = list(env['WEBHOOK_SECRET'])
  const databaseUrl = env['DATABASE_URL'] === '' ? undefined : env['DATABASE_URL']
  const pgliteDir = env['PGLITE_DIR'] === '' ? undefined : env['PGLITE_DIR']
  const host = env['HOST'] === undefined || env['HOST'] === '' ? '127.0.0.1' : env['HOST']
  if (new Set(secrets).size < secrets.length) problems.push('WEBHOOK_SECRET holds one secret twice.')
  if (development) {
    if (!loopback(host)) problems.push('Development mode (DEV_MODE=1) listens on a loopback address only: set HOST to 127.0.0.1 or ::1, or configure the service for production.')
    if (secrets.some((secret) => !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret))) problems.push('WEBHOOK_SECRET must be whsec_ followed by base64.')
  } else {
    const missing = [
      // a variable given with entries that are not valid is named by its own problem, not as missing
      ...(list(env['API_KEYS']).length === 0 ? ['API_KEYS'] : []),
      ...(list(env['BANK_API_KEYS']).length === 0 ? ['BANK_API_KEYS'] : []),
      ...(secrets.length === 0 ? ['WEBHOOK_SECRET'] : []),
      ...(env['FORM_SECRET'] === undefined || env['FORM_SECRET'] === '' ? ['FORM_SECRET'] : []),
      ...(databaseUrl === undefined && pgliteDir === undefined ? ['DATABASE_URL or PGLITE_DIR (a durable database)'] : [])
    ]
    if (missing.length > 0) {
      problems.push(
        `Missing ${missing.join(', ')}: outside development mode there are no defaults${production && env['DEV_MODE'] === '1' ? ' (NODE_ENV=production turns DEV_MODE off)' : ''}; for a local run, DEV_MODE=1 or npm run serve.`
      )
    }
    problems.push(...keyProblems('API_KEYS', apiKeys), ...keyProblems('BANK_API_KEYS', bankKeys), ...keyProblems('METRICS_KEYS', metricsKeys))
    if (apiKeys.some((k) => bankKeys.includes(k))) problems.push('A key is in both API_KEYS and BANK_API_KEYS: give the bank its own.')
    if (metricsKeys.some((k) => apiKeys.includes(k) || bankKeys.includes(k))) problems.push('A key of METRICS_KEYS is also an API or bank key: give the scraper its own.')
    const weak = new Set(secrets.map((secret) => (secret === devWebhookSecret ? 'WEBHOOK_SECRET is the development value.' : secretProblem(secret))))
    for (const problem of weak) if (problem !== undefined) problems.push(problem)
  }
  const sharedBuffers = env['PGLITE_SHARED_BUFFERS'] === undefined || env['PGLITE_SHARED_BUFFERS'] === '' ? '16MB' : env['PGLITE_SHARED_BUFFERS']
  if (!/^\d{1,6}(kB|MB|GB)$/.test(sharedBuffers)) problems.push('PGLITE_SHARED_BUFFERS must be a size such as 16MB (kB, MB or GB).')
  const kidScheme = env['KID_SCHEME'] ?? 'random'
  if (kidScheme !== 'random' && kidScheme !== 'customer') problems.push('KID_SCHEME must be random or customer.')
  const read = (name: string, fallback: number, min = 0): number => {
    try {
      return int(env, name, fallback, min)
    } catch (e) {
      problems.push(...(e instanceof ConfigError ? e.problems : [String(e)]))
      return fallback
    }
  }
  const requestTimeoutMs = read('REQUEST_TIMEOUT_MS', 120_000, 1)
  const keepAliveTimeoutMs = read('KEEP_ALIVE_TIMEOUT_MS', 65_000, 1)
  const headersTimeoutMs = read('HEADERS_TIMEOUT_MS', keepAliveTimeoutMs + 1000, 1)
  if (headersTimeoutMs > requestTimeoutMs) problems.push('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS.')
  const timeoutMs = read('WEBHOOK_TIMEOUT_MS', 5000, 1)
  const retention = read('EVENTS_RETENTION_DAYS', MIN_RETENTION_DAYS, 1)
  if (retention < MIN_RETENTION_DAYS) problems.push(`EVENTS_RETENTION_DAYS must be at least ${String(MIN_RETENTION_DAYS)}: events are kept at least 30 days.`)
  const guards = guardSettings(env, development, env['CATCH_ALL_URL'] === '' ? undefined : env['CATCH_ALL_URL'], problems)
  const config: Config = {
    mode: development ? 'development' : 'production',
    host,
    port: read('PORT', 8080),
    databaseUrl,
    pgliteDir,
    pgliteSharedBuffers: sharedBuffers,
    poolSize: read('DATABASE_POOL_SIZE', 10, 1),
    apiKeys: apiCallers.length > 0 ? apiCallers : [{ id: keyDigestId(devApiKey), key: devApiKey }],
    bankKeys: bankCallers.length > 0 ? bankCallers : [{ id: keyDigestId(devBankKey), key: devBankKey }],
    catchAllUrl: env['CATCH_ALL_URL'] === '' ? undefined : env['CATCH_ALL_URL'],
    webhookSecrets: secrets.length > 0 ? secrets : [devWebhookSecret],
    kidScheme: kidScheme === 'customer' ? 'customer' : 'random',
    maxBodyBytes: read('MAX_BODY_BYTES', 1024 * 1024, 1),
    requestTimeoutMs,
    keepAliveTimeoutMs,
    headersTimeoutMs,
    rateLimit: { points: read('RATE_LIMIT_PER_KEY', development ? 0 : 100, 0), windowS: read('RATE_LIMIT_WINDOW_S', 1, 1) },
    metricsKeys: metricsCallers.length > 0 ? metricsCallers : development ? [{ id: keyDigestId(devMetricsKey), key: devMetricsKey }] : [],
    maxConnections: read('MAX_CONNECTIONS', 512, 1),
    // above a balancer's health-check interval (commonly 5–10 s); none in development (no balancer, Ctrl-C stops at once)
    drainPeriodMs: read('DRAIN_PERIOD_MS', development ? 0 : 15_000, 0),
    eventsRetentionDays: Math.max(retention, MIN_RETENTION_DAYS),
    maxTransactionAttempts: read('MAX_TRANSACTION_ATTEMPTS', 12, 1),
    // -- safe retries (idem) --
    idempotencyWaitMs: read('IDEMPOTENCY_WAIT_MS', 5000, 1),
    relay: {
      enabled: env['RELAY'] !== 'off',
      // 5 s doubling to a day, 18 attempts: the retries span 3 days 21 hours at least (Standard Webhooks' example: 3 days)
      maxAttempts: read('WEBHOOK_MAX_ATTEMPTS', 18, 1),
      baseDelayMs: read('WEBHOOK_BASE_DELAY_MS', 5000, 1),
      maxDelayMs: read('WEBHOOK_MAX_DELAY_MS', 24 * 60 * 60_000, 1),
      timeoutMs,
      ...guards.relay,
      concurrency: read('WEBHOOK_CONCURRENCY', 16, 1),
      pollMs: read('WEBHOOK_POLL_MS', 500, 1),
      maxResponseBytes: read('WEBHOOK_MAX_RESPONSE_BYTES', 64 * 1024, 0)
    },
    form: guards.form,
    // ocr (POST /bank/ocr)
    ocrMaxBytes: read('OCR_MAX_BYTES', 8 * 1024 * 1024, 1)
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}

/** Events are kept at least this many days (`EVENTS_RETENTION_DAYS` may only raise it). */
export const MIN_RETENTION_DAYS = 30

/** The exit code of a refused configuration (sysexits' EX_CONFIG). */
export const EXIT_CONFIG = 78

/**
 * The configuration of `process.env`, or the process ends: exit code 78 and one JSON log line
 * (`configuration refused`, with `problems`) on stdout, the same sentence on stderr.
 */
export const configFromEnvironment = (): Config => {
  try {
    return loadConfig(process.env)
  } catch (e) {
    const problems = e instanceof ConfigError ? e.problems : [e instanceof Error ? e.message : String(e)]
    process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'configuration refused', problems }) + '\n')
    process.stderr.write(`The service refuses to start:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee docs/service.md, "Running in production".\n`)
    process.exit(EXIT_CONFIG)
  }
}

/** The secrets of a configuration, for the logger to mask wherever they appear. */
export const secretsOf = (c: Config): ReadonlyArray<string> => {
  const password = c.databaseUrl === undefined ? [] : databasePassword(c.databaseUrl)
  const secrets = [...keysOf(c.apiKeys), ...keysOf(c.bankKeys), ...keysOf(c.metricsKeys), ...c.webhookSecrets, c.form.secret, ...password]
  // the development values are published (and shown at start in development mode): nothing to mask;
  // each also as a URL carries it percent-encoded (a client may put a key in a path or a query)
  const kept = secrets.filter((s) => s.length >= 4 && !devValues.has(s) && s !== devFormSecret)
  return [...new Set([...kept, ...kept.map(encodeURIComponent)])]
}

/** The password of a database URL as written (it may hold an unescaped `@`), decoded too. */
const databasePassword = (url: string): ReadonlyArray<string> => {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
  const at = rest.lastIndexOf('@')
  const userinfo = at < 0 ? '' : rest.slice(0, at)
  const colon = userinfo.indexOf(':')
  const out = colon < 0 ? [] : [userinfo.slice(colon + 1)]
  const query = /[?&]password=([^&#]*)/i.exec(url)?.[1]
  if (query !== undefined) out.push(query)
  const decoded = out.flatMap((p) => {
    try {
      return [decodeURIComponent(p)]
    } catch {
      return []
    }
  })
  return [...out, ...decoded]
}

// -------------------------------------------------------------------------------------
// Settings of the webhook guard, the relay's leases and the hosted form's tokens (one block:
// WEBHOOK_ALLOW_NETWORKS, WEBHOOK_LEASE_MS, WEBHOOK_HEARTBEAT_MS, FORM_SECRET, FORM_TOKEN_TTL_S;
// docs/service.md). `development` is the development mode of the rest of this file.
// -------------------------------------------------------------------------------------

export interface FormConfig {
  /** The key of the form's action tokens (HMAC-SHA256); one per deployment, shared by its instances. */
  readonly secret: string
  /** How long a token issued with the page is accepted. */
  readonly tokenTtlMs: number
}

/** The development key of the form's tokens: refused outside development. */
export const devFormSecret = 'dev-form-secret-do-not-use-in-production'

/**
 * Reads the block's settings. Each problem is a sentence naming its variable (never its value):
 * pushed onto `problems` when given (loadConfig lists them with the others), else the first is
 * thrown. An absent FORM_SECRET outside development is loadConfig's "Missing …" sentence.
 */
export const guardSettings = (
  env: Env,
  development: boolean,
  catchAllUrl: string | undefined,
  problems?: Array<string>
): { readonly relay: Pick<RelayConfig, 'leaseMs' | 'heartbeatMs' | 'targets'>; readonly form: FormConfig } => {
  const found: Array<string> = []
  const networks = env['WEBHOOK_ALLOW_NETWORKS']
  const allowNetworks = (networks === undefined ? (development ? loopbackNetworks : []) : list(networks)).filter((n) => {
    try {
      parseNetwork(n)
      return true
    } catch (e) {
      found.push(`WEBHOOK_ALLOW_NETWORKS: ${e instanceof Error ? e.message : String(e)}.`)
      return false
    }
  })
  const targets: TargetPolicy = { allowHttp: development, allowNetworks }
  if (catchAllUrl !== undefined) {
    let refused: string | undefined
    try {
      refused = urlRefusal(new URL(catchAllUrl), guardOf(targets))
    } catch {
      refused = 'not a url'
    }
    if (refused !== undefined) found.push(`CATCH_ALL_URL is refused: ${refused}.`)
  }
  const read = (name: string, fallback: number, min: number): number => {
    try {
      return int(env, name, fallback, min)
    } catch (e) {
      found.push(...(e instanceof ConfigError ? e.problems : [String(e)]))
      return fallback
    }
  }
  const heartbeatMs = read('WEBHOOK_HEARTBEAT_MS', 1000, 10)
  const leaseMs = read('WEBHOOK_LEASE_MS', 4000, 1)
  if (leaseMs < 2 * heartbeatMs) {
    found.push(`WEBHOOK_LEASE_MS (${String(leaseMs)}) must be at least twice WEBHOOK_HEARTBEAT_MS (${String(heartbeatMs)}): a lease must outlive a missed heartbeat.`)
  }
  const secret = env['FORM_SECRET'] === '' ? undefined : env['FORM_SECRET']
  const absentOnly = secret === undefined && problems !== undefined
  if (!development && !absentOnly && (secret === undefined || secret === devFormSecret || secret.length < 32)) {
    found.push('FORM_SECRET must be set outside development: at least 32 random characters (e.g. openssl rand -base64 32), not the development value.')
  }
  const tokenTtlMs = read('FORM_TOKEN_TTL_S', 30 * 60, 1) * 1000
  if (problems !== undefined) problems.push(...found)
  else if (found.length > 0) throw new Error(found[0])
  return {
    relay: { leaseMs, heartbeatMs, targets },
    form: { secret: secret ?? devFormSecret, tokenTtlMs }
  }
}

const mask = (s: string): string => `set (${String(s.length)} chars)`
/** A caller's key as printed: its id and the key masked. */
const shownKey = (k: CallerKey): string => `${k.id}: ${mask(k.key)}`

/** The settings as printed at start: secrets masked, development defaults flagged. */
export const describeConfig = (c: Config): Record<string, unknown> => ({
  mode: c.mode,
  host: c.host,
  port: c.port,
  database: c.databaseUrl !== undefined ? redactText(c.databaseUrl) : `pglite ${c.pgliteDir ?? '(memory)'}, shared_buffers ${c.pgliteSharedBuffers}`,
  poolSize: c.poolSize,
  apiKeys: keysOf(c.apiKeys).includes(devApiKey) ? `development default "${devApiKey}"` : c.apiKeys.map(shownKey),
  bankKeys: keysOf(c.bankKeys).includes(devBankKey) ? `development default "${devBankKey}"` : c.bankKeys.map(shownKey),
  catchAllUrl: c.catchAllUrl !== undefined ? redactText(c.catchAllUrl) : '(none)',
  webhookSecrets: c.webhookSecrets.includes(devWebhookSecret) ? 'development default' : c.webhookSecrets.map(mask),
  kidScheme: c.kidScheme,
  maxBodyBytes: c.maxBodyBytes,
  requestTimeoutMs: c.requestTimeoutMs,
  keepAliveTimeoutMs: c.keepAliveTimeoutMs,
  headersTimeoutMs: c.headersTimeoutMs,
  rateLimit: c.rateLimit.points === 0 ? 'off' : `${String(c.rateLimit.points)} requests per key per ${String(c.rateLimit.windowS)} s (per instance)`,
  metrics: c.metricsKeys.length === 0 ? 'off (no METRICS_KEYS)' : keysOf(c.metricsKeys).includes(devMetricsKey) ? `on, development key "${devMetricsKey}"` : 'on',
  maxConnections: c.maxConnections,
  drainPeriodMs: c.drainPeriodMs,
  eventsRetentionDays: c.eventsRetentionDays,
  maxTransactionAttempts: c.maxTransactionAttempts,
  relay: c.relay,
  form: { secret: c.form.secret === devFormSecret ? 'development default' : mask(c.form.secret), tokenTtlMs: c.form.tokenTtlMs }
})
