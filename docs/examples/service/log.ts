/**
 * JSON logs, one object a line on stdout, each with a time and a level; requests add their id.
 *
 * Every line is redacted before it is written (`redact`): credentials in URLs (the password of
 * `postgres://user:pa@ss@host`, however many `@` it holds; `?password=…` and every other query
 * value, so a webhook URL's query string never reaches the log), `Bearer …` tokens, `whsec_`
 * secrets, `password=…`-style pairs of connection strings, and the configured keys and secrets
 * wherever they appear (`secrets`).
 */
export interface Logger {
  info(msg: string, fields?: Readonly<Record<string, unknown>>): void
  warn(msg: string, fields?: Readonly<Record<string, unknown>>): void
  error(msg: string, fields?: Readonly<Record<string, unknown>>): void
}

const MASK = '****'

/** `scheme://userinfo@` up to the last `@` of the authority (a password may hold an unescaped `@`). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)@/gi
/** The query of a URL: each value masked, the names kept. */
const QUERY = /\b([a-z][a-z0-9+.-]*:\/\/[^\s?#]*)\?([^\s#]*)/gi
const BEARER = /\b(bearer)\s+[^\s,;"']+/gi
const WHSEC = /\bwhsec_[A-Za-z0-9+/=_-]*/g
/** `password=…` and friends outside URLs (libpq key/value strings, error messages). */
const PAIR = /\b(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?token|sslpassword)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&,;]+)/gi

/** Masks every credential form of `text` (see the module's comment); `secrets` are masked wherever they appear. */
export const redactText = (text: string, secrets: ReadonlyArray<string> = []): string => {
  let out = text
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(MASK)
  return out
    .replace(USERINFO, (_all, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(':')
      return `${scheme}${colon < 0 ? MASK : `${userinfo.slice(0, colon)}:${MASK}`}@`
    })
    .replace(QUERY, (_all, base: string, query: string) => `${base}?${query.split('&').map((p) => `${p.split('=')[0] ?? ''}=${MASK}`).join('&')}`)
    .replace(BEARER, (_all, word: string) => `${word} ${MASK}`)
    .replace(WHSEC, `whsec_${MASK}`)
    .replace(PAIR, (_all, name: string, sep: string) => `${name}${sep}${MASK}`)
}

/** A copy of `value` with every string redacted (objects and arrays walked, at most 8 deep). */
export const redact = (value: unknown, secrets: ReadonlyArray<string> = [], depth = 0): unknown => {
  if (typeof value === 'string') return redactText(value, secrets)
  if (depth >= 8 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets, depth + 1))
  if (value instanceof Error) return redactText(value.message, secrets)
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, secrets, depth + 1)]))
}

/** Writes redacted JSON lines to `write` (default: stdout); `secrets`: values masked wherever they appear. */
export const jsonLogger = (
  write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  secrets: ReadonlyArray<string> = []
): Logger => {
  const at =
    (level: string) =>
    (msg: string, fields: Readonly<Record<string, unknown>> = {}): void => {
      write(JSON.stringify({ time: new Date().toISOString(), level, msg: redactText(msg, secrets), ...(redact(fields, secrets) as object) }))
    }
  return { info: at('info'), warn: at('warn'), error: at('error') }
}

/** Writes nothing (tests). */
export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined }
