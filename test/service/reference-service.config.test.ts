/**
 * The reference service's configuration, secure by default (docs/service.md, "Running in
 * production"): development values only in development mode, never with NODE_ENV=production;
 * outside it every credential and a durable database are required, development values and weak
 * secrets refused, each problem named without its value. And the log's redaction of every
 * credential form, as rules.
 */
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ConfigError, describeConfig, devApiKey, devBankKey, devWebhookSecret, keyDigestId, keysOf, loadConfig, secretsOf } from '../../docs/examples/service/config.js'
import { jsonLogger, redactText } from '../../docs/examples/service/log.js'

const key = (): string => randomBytes(24).toString('base64url')
const secret = (bytes = 32): string => `whsec_${randomBytes(bytes).toString('base64')}`
/** A production configuration that starts. */
const good = (): Record<string, string> => ({
  API_KEYS: `${key()},${key()}`,
  BANK_API_KEYS: key(),
  WEBHOOK_SECRET: secret(),
  FORM_SECRET: key() + key(),
  DATABASE_URL: 'postgres://svc:s3cret-pass@db.internal:5432/payments'
})

const problemsOf = (env: Record<string, string>): ReadonlyArray<string> => {
  try {
    loadConfig(env)
  } catch (e) {
    if (e instanceof ConfigError) return e.problems
    throw e
  }
  return []
}

describe('development mode: DEV_MODE=1, never with NODE_ENV=production, loopback only', () => {
  it('DEV_MODE=1 supplies the development keys, secret and an in-memory PGlite', () => {
    const c = loadConfig({ DEV_MODE: '1' })
    expect(c).toMatchObject({
      mode: 'development',
      apiKeys: [{ id: keyDigestId(devApiKey), key: devApiKey }],
      bankKeys: [{ id: keyDigestId(devBankKey), key: devBankKey }],
      webhookSecrets: [devWebhookSecret],
      databaseUrl: undefined,
      pgliteDir: undefined
    })
    // no rate limit unless set: test suites and paysplit-check drive a development service flat out
    expect(c.rateLimit.points).toBe(0)
    expect(loadConfig({ DEV_MODE: '1', RATE_LIMIT_PER_KEY: '5' }).rateLimit.points).toBe(5)
  })

  it('NODE_ENV=production turns DEV_MODE off: no defaults, and the message says why', () => {
    const problems = problemsOf({ DEV_MODE: '1', NODE_ENV: 'production' })
    expect(problems.join(' ')).toMatch(/Missing API_KEYS, BANK_API_KEYS, WEBHOOK_SECRET, FORM_SECRET, DATABASE_URL or PGLITE_DIR/)
    expect(problems.join(' ')).toMatch(/NODE_ENV=production turns DEV_MODE off/)
  })

  it.each(['0.0.0.0', '::', '10.0.0.5', 'example.com'])('development mode on HOST=%s is refused', (host) => {
    expect(problemsOf({ DEV_MODE: '1', HOST: host })).toEqual([expect.stringMatching(/loopback address only/)])
  })

  it.each(['127.0.0.1', '127.1.2.3', '::1', 'localhost'])('development mode on HOST=%s starts', (host) => {
    expect(loadConfig({ DEV_MODE: '1', HOST: host }).host).toBe(host)
  })

  it.each([undefined, '', '0', 'true', 'yes'])('DEV_MODE=%s is not development mode', (dev) => {
    expect(problemsOf(dev === undefined ? {} : { DEV_MODE: dev }).join(' ')).toMatch(/^Missing API_KEYS/)
  })
})

describe('outside development mode: every credential and a durable database, strong, or no start', () => {
  it('a complete strong configuration starts, in production mode', () => {
    expect(loadConfig(good()).mode).toBe('production')
    expect(loadConfig({ ...good(), DATABASE_URL: '', PGLITE_DIR: '/var/lib/paysplit' }).pgliteDir).toBe('/var/lib/paysplit')
  })

  it.each([
    ['API_KEYS', 'API_KEYS'],
    ['BANK_API_KEYS', 'BANK_API_KEYS'],
    ['WEBHOOK_SECRET', 'WEBHOOK_SECRET'],
    ['FORM_SECRET', 'FORM_SECRET'],
    ['DATABASE_URL', 'DATABASE_URL or PGLITE_DIR']
  ])('without %s: refused, naming it', (name, named) => {
    const env = { ...good(), [name]: '' }
    expect(problemsOf(env)).toEqual([expect.stringContaining(`Missing ${named}`)])
  })

  it('nothing set: every missing setting named in one sentence', () => {
    expect(problemsOf({})).toEqual([expect.stringMatching(/^Missing API_KEYS, BANK_API_KEYS, WEBHOOK_SECRET, FORM_SECRET, DATABASE_URL or PGLITE_DIR \(a durable database\)/)])
  })

  const cases: ReadonlyArray<readonly [string, Record<string, string>, RegExp]> = [
    ['the development API key', { API_KEYS: devApiKey }, /API_KEYS holds a development value/],
    ['the development API key beside a good one', { API_KEYS: `${key()},${devApiKey}` }, /API_KEYS holds a development value/],
    ['the development bank key', { BANK_API_KEYS: devBankKey }, /BANK_API_KEYS holds a development value/],
    ['the development webhook secret', { WEBHOOK_SECRET: devWebhookSecret }, /WEBHOOK_SECRET is the development value/],
    ['a short API key', { API_KEYS: 'short-key-123' }, /API_KEYS: every key needs at least 32 characters/],
    ['a long key of few characters', { BANK_API_KEYS: 'ab'.repeat(20) }, /BANK_API_KEYS: a key is not random/],
    ['a secret without whsec_', { WEBHOOK_SECRET: randomBytes(32).toString('base64') }, /WEBHOOK_SECRET must be whsec_ followed by base64/],
    ['a secret that is not base64', { WEBHOOK_SECRET: 'whsec_not base64!' }, /WEBHOOK_SECRET must be whsec_ followed by base64/],
    ['a secret of 16 bytes', { WEBHOOK_SECRET: secret(16) }, /WEBHOOK_SECRET must hold 24 to 64 random bytes/],
    ['a secret of 32 equal bytes', { WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}` }, /WEBHOOK_SECRET is not random/],
    ['a short metrics key', { METRICS_KEYS: 'metrics' }, /METRICS_KEYS: every key needs at least 32 characters/],
    ['the development metrics key', { METRICS_KEYS: 'dev-metrics-key' }, /METRICS_KEYS holds a development value/]
  ]
  it.each(cases)('%s: refused', (_what, env, message) => {
    expect(problemsOf({ ...good(), ...env })).toEqual([expect.stringMatching(message)])
  })

  it('one key for the API and the bank, or for the scraper and the API: refused', () => {
    const shared = key()
    expect(problemsOf({ ...good(), API_KEYS: shared, BANK_API_KEYS: shared })).toEqual([expect.stringMatching(/both API_KEYS and BANK_API_KEYS/)])
    expect(problemsOf({ ...good(), API_KEYS: shared, METRICS_KEYS: shared })).toEqual([expect.stringMatching(/METRICS_KEYS is also an API or bank key/)])
  })

  it('several problems are named together, and no message holds a value it refuses', () => {
    const weak = 'weak-key-42'
    const problems = problemsOf({ ...good(), API_KEYS: weak, WEBHOOK_SECRET: 'whsec_c2hvcnQ=', PORT: 'eighty', KID_SCHEME: 'mine' })
    expect(problems).toHaveLength(4)
    const text = problems.join(' ')
    for (const value of [weak, 'c2hvcnQ=', 'eighty', 'mine']) expect(text).not.toContain(value)
  })

  it('HEADERS_TIMEOUT_MS above REQUEST_TIMEOUT_MS: refused (node:http would throw)', () => {
    expect(problemsOf({ ...good(), HEADERS_TIMEOUT_MS: '70000', REQUEST_TIMEOUT_MS: '60000' })).toEqual([expect.stringMatching(/HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/)])
  })

  it('the timeouts default above a load balancer’s 60 s idle timeout, headers above keep-alive', () => {
    const c = loadConfig(good())
    expect(c.keepAliveTimeoutMs).toBe(65_000)
    expect(c.headersTimeoutMs).toBeGreaterThan(c.keepAliveTimeoutMs)
    expect(c.requestTimeoutMs).toBeGreaterThanOrEqual(c.headersTimeoutMs)
    expect(c.rateLimit).toEqual({ points: 100, windowS: 1 })
  })
})

describe('keys as id:key pairs, secrets as a list, the drain and the connection cap', () => {
  it('id:key pairs and bare keys, comma-separated: several keys may name one caller', () => {
    const [a, b, c] = [key(), key(), key()]
    const conf = loadConfig({ ...good(), API_KEYS: `shop-a:${a}, shop-a:${b},${c}` })
    expect(conf.apiKeys).toStrictEqual([
      { id: 'shop-a', key: a },
      { id: 'shop-a', key: b },
      { id: keyDigestId(c), key: c }
    ])
  })

  it.each([
    ['an id with a blank', 'shop a:KEY', /API_KEYS: entry 1 is not id:key/],
    ['an id too long', `${'x'.repeat(65)}:KEY`, /API_KEYS: entry 1 is not id:key/],
    ['an id without a key', 'shop:', /API_KEYS: entry 1 has no key after its id/],
    ['one key twice, under two ids', 'a:KEY,b:KEY', /API_KEYS holds one key twice/],
    ['a short key behind an id', 'shop:short-key', /API_KEYS: every key needs at least 32 characters/]
  ])('%s: refused, the value not echoed', (_what, value, message) => {
    const k = key()
    const problems = problemsOf({ ...good(), API_KEYS: value.replaceAll('KEY', k) })
    expect(problems).toEqual([expect.stringMatching(message)])
    expect(problems.join(' ')).not.toContain(k)
  })

  it('WEBHOOK_SECRET as a list: each must be strong; one twice is refused; the development one is refused among others', () => {
    const [a, b] = [secret(), secret()]
    expect(loadConfig({ ...good(), WEBHOOK_SECRET: `${a},${b}` }).webhookSecrets).toStrictEqual([a, b])
    expect(problemsOf({ ...good(), WEBHOOK_SECRET: `${a},${secret(16)}` })).toEqual([expect.stringMatching(/WEBHOOK_SECRET must hold 24 to 64 random bytes/)])
    expect(problemsOf({ ...good(), WEBHOOK_SECRET: `${a},${a}` })).toEqual([expect.stringMatching(/WEBHOOK_SECRET holds one secret twice/)])
    expect(problemsOf({ ...good(), WEBHOOK_SECRET: `${a},${devWebhookSecret}` })).toEqual([expect.stringMatching(/WEBHOOK_SECRET is the development value/)])
  })

  it('the drain lasts 15 s by default (above a balancer’s probe interval), none in development; 512 connections at most', () => {
    expect(loadConfig(good())).toMatchObject({ drainPeriodMs: 15_000, maxConnections: 512, eventsRetentionDays: 30 })
    expect(loadConfig({ DEV_MODE: '1' }).drainPeriodMs).toBe(0)
    expect(loadConfig({ ...good(), DRAIN_PERIOD_MS: '30000', MAX_CONNECTIONS: '2000' })).toMatchObject({ drainPeriodMs: 30_000, maxConnections: 2000 })
    expect(problemsOf({ ...good(), MAX_CONNECTIONS: '0' })).toEqual([expect.stringMatching(/MAX_CONNECTIONS must be an integer ≥ 1/)])
    expect(problemsOf({ ...good(), DRAIN_PERIOD_MS: '-1' })).toEqual([expect.stringMatching(/DRAIN_PERIOD_MS must be an integer ≥ 0/)])
  })
})

describe('log redaction: every credential form, as rules', () => {
  const rules: ReadonlyArray<readonly [string, string, string]> = [
    ['a URL password', 'postgres://svc:hunter2-pass@db:5432/p', 'postgres://svc:****@db:5432/p'],
    ['a password holding @', 'postgres://svc:p@ss@w0rd@db.internal:5432/p', 'postgres://svc:****@db.internal:5432/p'],
    ['a password holding : and @', 'postgresql://svc:a:b@c@db/p?sslmode=require', 'postgresql://svc:****@db/p?sslmode=****'],
    ['a user without a password (a token as user)', 'https://ghp_token123@hooks.example/x', 'https://****@hooks.example/x'],
    ['?password=', 'postgres://db.internal/p?user=svc&password=hunter2', 'postgres://db.internal/p?user=****&password=****'],
    ['a webhook URL query string', 'https://shop.example/hooks?token=abc123&sig=zz', 'https://shop.example/hooks?token=****&sig=****'],
    ['a bearer key', 'authorization: Bearer sk_live_abcdef', 'authorization: Bearer ****'],
    ['a whsec_ secret', 'secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw=', 'secret whsec_****'],
    ['a libpq password pair', 'host=db user=svc password=hunter2 dbname=p', 'host=db user=svc password=**** dbname=p'],
    ['a quoted pair', "password='with space'", 'password=****'],
    ['plain text', 'nothing to hide at https://shop.example/ok', 'nothing to hide at https://shop.example/ok']
  ]
  it.each(rules)('%s', (_what, input, output) => {
    expect(redactText(input)).toBe(output)
  })

  it('the configured keys, secret and database password are masked wherever they appear', () => {
    const env = { ...good(), DATABASE_URL: 'postgres://svc:we/ird?#pw@db/p' }
    const c = loadConfig(env)
    const lines: Array<string> = []
    const log = jsonLogger((l) => lines.push(l), secretsOf(c))
    log.error('boom', { apiKey: c.apiKeys[0]?.key, nested: { list: [`key ${c.bankKeys[0]?.key ?? ''} used`] }, secret: c.webhookSecrets[0], form: c.form.secret, error: new Error(`connect failed: ${env.DATABASE_URL}`) })
    const line = lines.join('\n')
    for (const s of [...keysOf(c.apiKeys), ...keysOf(c.bankKeys), ...c.webhookSecrets, c.form.secret, 'we/ird?#pw']) expect(line).not.toContain(s)
    expect(JSON.stringify(describeConfig(c))).not.toContain('we/ird?#pw')
  })

  it('property: a database password of any characters but / ? # and blanks never reaches a log line', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9@:!$%&'()*+,;=._~-]{1,40}$/), (pw) => {
        const url = `postgres://svc:${pw}@db.internal:5432/payments`
        const out = redactText(`connect ${url} failed`)
        expect(out).toBe('connect postgres://svc:****@db.internal:5432/payments failed')
      })
    )
  })

  it('property: any query string of a webhook URL: every value masked', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9._~%-]{1,20}$/)), { minLength: 1, maxLength: 5 }), (pairs) => {
        const url = `https://shop.example/hooks?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`
        expect(redactText(url)).toBe(`https://shop.example/hooks?${pairs.map(([k]) => `${k}=****`).join('&')}`)
      })
    )
  })
})
