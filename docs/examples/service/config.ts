/**
 * Configuration of the reference service: every setting from the environment, each with a
 * default, so `npm run serve` needs no set-up. `describeConfig` prints them at start (secrets
 * masked). See docs/service.md for the table.
 */

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
   * (the claimer died): longer than an attempt plus the time to record its outcome on a busy database.
   */
  readonly leaseMs: number
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
      leaseMs: int(env, 'WEBHOOK_LEASE_MS', int(env, 'WEBHOOK_TIMEOUT_MS', 5000, 1) + 30_000, 1),
      concurrency: int(env, 'WEBHOOK_CONCURRENCY', 16, 1),
      pollMs: int(env, 'WEBHOOK_POLL_MS', 500, 1),
      maxResponseBytes: int(env, 'WEBHOOK_MAX_RESPONSE_BYTES', 64 * 1024, 0)
    },
    // ocr (POST /bank/ocr)
    ocrMaxBytes: int(env, 'OCR_MAX_BYTES', 8 * 1024 * 1024, 1)
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
  relay: c.relay
})
