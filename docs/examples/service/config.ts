/**
 * Configuration of the reference service: every setting from the environment, each with a
 * default, so `npm run serve` needs no set-up. `describeConfig` prints them at start (secrets
 * masked). See docs/service.md for the table.
 */

import { loopbackNetworks, parseNetwork, urlRefusal, guardOf, type TargetPolicy } from './outbox/guard.js'

/** Where a new invoice's KID comes from (docs/decisions.md, "The reference service"). */
export type KidScheme = 'random' | 'customer'

export interface Config {
  readonly host: string
  readonly port: number
  /** A PostgreSQL server (`pg`); absent: the embedded PGlite. */
  readonly databaseUrl: string | undefined
  /** PGlite's data folder; absent: in memory (gone when the process stops). */
  readonly pgliteDir: string | undefined
  /** Connections of the `pg` pool per process. */
  readonly poolSize: number
  /** Bearer keys of the payments API (`/payments`, `/customers`). */
  readonly apiKeys: ReadonlyArray<string>
  /** Bearer keys of the bank route (`/bank/transfers`). */
  readonly bankKeys: ReadonlyArray<string>
  /** The catch-all webhook url (the seed's "configured in the Platform Dashboard"). */
  readonly catchAllUrl: string | undefined
  /** Standard Webhooks secret (`whsec_` + base64). */
  readonly webhookSecret: string
  readonly kidScheme: KidScheme
  readonly maxBodyBytes: number
  /** Time limit of a whole request (node:http `requestTimeout`). */
  readonly requestTimeoutMs: number
  /** Runs of a request's transaction that lose a race before the answer is 409 ConcurrentModification. */
  readonly maxTransactionAttempts: number
  readonly relay: RelayConfig
  /** The hosted form's action tokens (routes/form.ts). */
  readonly form: FormConfig
  // ocr (POST /bank/ocr)
  /** Bytes of an OCR giro file read at most (`OCR_MAX_BYTES`, default 8 MiB); absent: the default. */
  readonly ocrMaxBytes?: number
}

export interface RelayConfig {
  /** Off: this process only writes the outbox (another one sends). */
  readonly enabled: boolean
  /** Attempts per message, the first included; then the message is `dead`. */
  readonly maxAttempts: number
  /** Delay before the 2nd attempt; doubled each time, with jitter, up to `maxDelayMs`. */
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

/** The development defaults of the keys and the secret: refused when NODE_ENV is production. */
export const devApiKey = 'dev-api-key'
export const devBankKey = 'dev-bank-key'
export const devWebhookSecret = 'whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWRvLW5vdC11c2U='

type Env = Readonly<Record<string, string | undefined>>

const int = (env: Env, name: string, fallback: number, min = 0): number => {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${String(min)}, got "${raw}".`)
  return n
}

const list = (raw: string | undefined): ReadonlyArray<string> =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')

/** Reads the configuration; throws with a sentence naming the variable when one is wrong. */
export const loadConfig = (env: Env = process.env): Config => {
  const production = env['NODE_ENV'] === 'production'
  const apiKeys = list(env['API_KEYS'])
  const bankKeys = list(env['BANK_API_KEYS'])
  const secret = env['WEBHOOK_SECRET']
  if (production && (apiKeys.length === 0 || bankKeys.length === 0 || secret === undefined)) {
    throw new Error('NODE_ENV=production needs API_KEYS, BANK_API_KEYS and WEBHOOK_SECRET (no development defaults).')
  }
  const kidScheme = env['KID_SCHEME'] ?? 'random'
  if (kidScheme !== 'random' && kidScheme !== 'customer') throw new Error(`KID_SCHEME must be random or customer, got "${kidScheme}".`)
  const catchAllUrl = env['CATCH_ALL_URL']
  const databaseUrl = env['DATABASE_URL']
  const pgliteDir = env['PGLITE_DIR']
  const guards = guardSettings(env, !production, catchAllUrl === '' ? undefined : catchAllUrl)
  return {
    host: env['HOST'] ?? '127.0.0.1',
    port: int(env, 'PORT', 8080),
    databaseUrl: databaseUrl === '' ? undefined : databaseUrl,
    pgliteDir: pgliteDir === '' ? undefined : pgliteDir,
    poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1),
    apiKeys: apiKeys.length > 0 ? apiKeys : [devApiKey],
    bankKeys: bankKeys.length > 0 ? bankKeys : [devBankKey],
    catchAllUrl: catchAllUrl === '' ? undefined : catchAllUrl,
    webhookSecret: secret ?? devWebhookSecret,
    kidScheme,
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1024 * 1024, 1),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1),
    maxTransactionAttempts: int(env, 'MAX_TRANSACTION_ATTEMPTS', 12, 1),
    relay: {
      enabled: env['RELAY'] !== 'off',
      maxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', 8, 1),
      baseDelayMs: int(env, 'WEBHOOK_BASE_DELAY_MS', 1000, 1),
      maxDelayMs: int(env, 'WEBHOOK_MAX_DELAY_MS', 10 * 60_000, 1),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 5000, 1),
      ...guards.relay,
      concurrency: int(env, 'WEBHOOK_CONCURRENCY', 16, 1),
      pollMs: int(env, 'WEBHOOK_POLL_MS', 500, 1),
      maxResponseBytes: int(env, 'WEBHOOK_MAX_RESPONSE_BYTES', 64 * 1024, 0)
    },
    form: guards.form,
    // ocr (POST /bank/ocr)
    ocrMaxBytes: int(env, 'OCR_MAX_BYTES', 8 * 1024 * 1024, 1)
  }
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

/** Reads the block's settings; throws with a sentence naming the variable when one is wrong or missing. */
export const guardSettings = (
  env: Env,
  development: boolean,
  catchAllUrl: string | undefined
): { readonly relay: Pick<RelayConfig, 'leaseMs' | 'heartbeatMs' | 'targets'>; readonly form: FormConfig } => {
  const networks = env['WEBHOOK_ALLOW_NETWORKS']
  const allowNetworks = networks === undefined ? (development ? loopbackNetworks : []) : list(networks)
  for (const n of allowNetworks) {
    try {
      parseNetwork(n)
    } catch (e) {
      throw new Error(`WEBHOOK_ALLOW_NETWORKS: ${e instanceof Error ? e.message : String(e)}.`)
    }
  }
  const targets: TargetPolicy = { allowHttp: development, allowNetworks }
  if (catchAllUrl !== undefined) {
    let refused: string | undefined
    try {
      refused = urlRefusal(new URL(catchAllUrl), guardOf(targets))
    } catch {
      refused = 'not a url'
    }
    if (refused !== undefined) throw new Error(`CATCH_ALL_URL is refused: ${refused}.`)
  }
  const heartbeatMs = int(env, 'WEBHOOK_HEARTBEAT_MS', 1000, 10)
  const leaseMs = int(env, 'WEBHOOK_LEASE_MS', 4000, 1)
  if (leaseMs < 2 * heartbeatMs) {
    throw new Error(`WEBHOOK_LEASE_MS (${String(leaseMs)}) must be at least twice WEBHOOK_HEARTBEAT_MS (${String(heartbeatMs)}): a lease must outlive a missed heartbeat.`)
  }
  const secret = env['FORM_SECRET']
  if (!development && (secret === undefined || secret === devFormSecret || secret.length < 32)) {
    throw new Error('FORM_SECRET must be set outside development: at least 32 random characters (e.g. openssl rand -base64 32), not the development value.')
  }
  return {
    relay: { leaseMs, heartbeatMs, targets },
    form: { secret: secret ?? devFormSecret, tokenTtlMs: int(env, 'FORM_TOKEN_TTL_S', 30 * 60, 1) * 1000 }
  }
}

const mask = (s: string): string => (s.length <= 4 ? '****' : `${s.slice(0, 4)}…(${String(s.length)} chars)`)

/** The settings as printed at start: secrets masked, development defaults flagged. */
export const describeConfig = (c: Config): Record<string, unknown> => ({
  host: c.host,
  port: c.port,
  database: c.databaseUrl !== undefined ? c.databaseUrl.replace(/:[^:@/]*@/, ':****@') : `pglite ${c.pgliteDir ?? '(memory)'}`,
  poolSize: c.poolSize,
  apiKeys: c.apiKeys.includes(devApiKey) ? `development default "${devApiKey}"` : c.apiKeys.map(mask),
  bankKeys: c.bankKeys.includes(devBankKey) ? `development default "${devBankKey}"` : c.bankKeys.map(mask),
  catchAllUrl: c.catchAllUrl ?? '(none)',
  webhookSecret: c.webhookSecret === devWebhookSecret ? 'development default' : mask(c.webhookSecret),
  kidScheme: c.kidScheme,
  maxBodyBytes: c.maxBodyBytes,
  requestTimeoutMs: c.requestTimeoutMs,
  maxTransactionAttempts: c.maxTransactionAttempts,
  relay: c.relay,
  form: { secret: c.form.secret === devFormSecret ? 'development default' : mask(c.form.secret), tokenTtlMs: c.form.tokenTtlMs }
})
