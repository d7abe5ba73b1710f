/**
 * Small pure predicates for the formats of docs/rules.md C3, shared by the codecs, the decider and the
 * wire mapping. Each runs in time linear in its input and checks length limits before anything
 * else. The regular expressions here cannot backtrack badly: each is anchored or a single
 * character class, and a repeated part never matches the character that ends it (a label cannot
 * hold the dot after it), so a failed match gives back each character at most once. Lengths are
 * counted in UTF-16 code units (`string.length`, as an HTML `maxlength` does).
 *
 * @module validators
 */
import type { WebhookEventType } from './requests.js'

// -------------------------------------------------------------------------------------
// limits
// -------------------------------------------------------------------------------------

/**
 * Longest URL accepted (docs/rules.md C3: URLs ≤ 2048).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { MAX_URL_LENGTH } from './validators.js'
 * assert.strictEqual(MAX_URL_LENGTH, 2048)
 */
export const MAX_URL_LENGTH = 2048

/**
 * Longest e-mail address accepted (docs/rules.md C3: ≤ 254).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { MAX_EMAIL_LENGTH } from './validators.js'
 * assert.strictEqual(MAX_EMAIL_LENGTH, 254)
 */
export const MAX_EMAIL_LENGTH = 254

/**
 * The other limits of docs/rules.md C3, in one place for the codecs and the state validation (@internal;
 * forms read them as `limits` from `paysplit/codecs`): identifying strings and names, descriptions
 * and reasons, splits per request, subscriptions, metaData keys, key length, string value length.
 *
 * @internal
 */
export const MAX_STRING_LENGTH = 255
/** @internal */
export const MAX_DESCRIPTION_LENGTH = 1000
/** @internal */
export const MAX_SPLITS = 500
/** @internal */
export const MAX_SUBSCRIPTIONS = 20
/** @internal */
export const MAX_METADATA_KEYS = 50
/** @internal */
export const MAX_METADATA_KEY_LENGTH = 40
/** @internal */
export const MAX_METADATA_VALUE_LENGTH = 500

// -------------------------------------------------------------------------------------
// characters
// -------------------------------------------------------------------------------------

/**
 * True for a UTF-16 code unit that is Unicode White_Space or a control character (general
 * category Cc): U+0000–U+0020, U+007F–U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
 * U+205F, U+3000.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isSpaceOrControl } from './validators.js'
 * assert.strictEqual(isSpaceOrControl(0x20), true)
 * assert.strictEqual(isSpaceOrControl(0x41), false)
 */
export const isSpaceOrControl = (c: number): boolean =>
  c <= 0x20 ||
  (c >= 0x7f && c <= 0xa0) ||
  (c >= 0x1680 &&
    (c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000))

/**
 * True when `s` contains a Unicode White_Space or control (Cc) character anywhere.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { hasSpaceOrControl } from './validators.js'
 * assert.strictEqual(hasSpaceOrControl('a b'), true)
 * assert.strictEqual(hasSpaceOrControl('ab'), false)
 */
export const hasSpaceOrControl = (s: string): boolean => SPACE_OR_CONTROL.test(s)

/**
 * The code units {@link isSpaceOrControl} accepts, as one character class. {@link EMAIL} and
 * {@link PLAIN_HTTP_URL} write the same set out inside their own classes (to refuse these units in
 * the same pass): change the three together. Built from one string with `new RegExp` instead, they
 * measured 21 B more of `paysplit/codecs`'s min+gzip budget (the copies compress to almost nothing).
 * Exported (internal) for the JSON Schema generator (`npm run openapi`), like the other expressions here.
 *
 * @internal
 */
export const SPACE_OR_CONTROL = /[\0- \x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/

// -------------------------------------------------------------------------------------
// text
// -------------------------------------------------------------------------------------

/**
 * A surrogate pair, or else one surrogate (then a lone one): each match is one or the other, so
 * that a replace keeps the pairs and sees each lone surrogate alone. No lookbehind (older Safari
 * cannot parse one), nothing to backtrack: each alternative reads one or two fixed units.
 */
const SURROGATES = /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g

/**
 * `s` with every lone surrogate replaced by U+FFFD, pairs kept: what `String.prototype.toWellFormed`
 * gives (ES2024, absent from the browsers before 2023 that front-end bundles still target).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { toWellFormed } from './validators.js'
 * assert.strictEqual(toWellFormed('a\ud800b'), 'a\ufffdb')
 * assert.strictEqual(toWellFormed('😀\udc00'), '😀\ufffd')
 */
export const toWellFormed = (s: string): string => s.replace(SURROGATES, (m) => (m.length > 1 ? m : '\ufffd'))

/**
 * True when `s` holds no lone surrogate: a UTF-16 string that is also Unicode text, which UTF-8,
 * a database and a JSON encoder that refuses lone surrogates can all store (docs/rules.md C12,
 * the `text` format). `String.prototype.isWellFormed` where the engine has it (native, and for a
 * string of one-byte characters about free), else {@link toWellFormed}; linear either way.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isWellFormed } from './validators.js'
 * assert.strictEqual(isWellFormed('Blåbær 😀'), true)
 * assert.strictEqual(isWellFormed('a\ud800'), false)
 * assert.strictEqual(isWellFormed('\udc00😀'), false)
 */
export const isWellFormed = (s: string): boolean =>
  (s as { isWellFormed?: () => boolean }).isWellFormed?.() ?? toWellFormed(s) === s

/**
 * The `text` format as a JSON Schema `pattern` (the generator of the codecs' schemas and of the
 * OpenAPI document uses it): no lone surrogate, read alike with or without the `u` flag (with it
 * a pair is one character outside the surrogate range, without it the second alternative takes
 * it). Each unit is taken by exactly one alternative: nothing to backtrack.
 *
 * @internal
 */
export const TEXT_PATTERN = '^(?:[^\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$'

// -------------------------------------------------------------------------------------
// identifiers
// -------------------------------------------------------------------------------------

/**
 * True when `s` is a UUID in its textual form: 8-4-4-4-12 hexadecimal digits separated by
 * hyphens, either case. Version and variant are not checked (docs/rules.md C3).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { isUuid } from 'paysplit/codecs'
 * assert.strictEqual(isUuid('0b7b7f5e-6f3a-4c59-9a52-8f1b2a6f0c11'), true)
 * assert.strictEqual(isUuid('0B7B7F5E-6F3A-4C59-9A52-8F1B2A6F0C11'), true)
 * assert.strictEqual(isUuid('0b7b7f5e6f3a4c599a528f1b2a6f0c11'), false)
 */
export const isUuid = (s: string): boolean => s.length === 36 && UUID.test(s)

/**
 * A fixed length and one way to match each character: nothing to backtrack. The digits are
 * written out one class each, for speed (docs/performance.md, "Why the code looks like this").
 *
 * @internal
 */
export const UUID =
  /^[\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f]-[\da-f][\da-f][\da-f][\da-f]-[\da-f][\da-f][\da-f][\da-f]-[\da-f][\da-f][\da-f][\da-f]-[\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f][\da-f]$/i

// -------------------------------------------------------------------------------------
// time
// -------------------------------------------------------------------------------------

/** The decimal number written by the digits of `s` from `from` to `to` (excluded). */
const digits = (s: string, from: number, to: number): number => {
  let v = 0
  for (let i = from; i < to; i++) v = v * 10 + (s.charCodeAt(i) - 48)
  return v
}

/**
 * The number of days of `month` (1–12) in `year` of the Gregorian calendar: what timestamps and
 * OCR giro dates are checked against.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { daysInMonth } from './validators.js'
 * assert.strictEqual(daysInMonth(2024, 2), 29)
 * assert.strictEqual(daysInMonth(1900, 2), 28)
 * assert.strictEqual(daysInMonth(2023, 11), 30)
 */
export const daysInMonth = (year: number, month: number): number => {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
    return leap ? 29 : 28
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/**
 * The form of {@link isTimestamp} with every range a regular expression can say: months 01–12,
 * days 01–31, hours 00–23, minutes and seconds 00–59. Anchored, and each alternative differs from
 * the others in its first character: nothing to backtrack. One expression, and the year written out
 * as `\d\d\d\d`, for speed (docs/performance.md, "Why the code looks like this").
 *
 * @internal
 */
export const TIMESTAMP = /^\d\d\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{1,9}Z$/

/**
 * True when `s` is an ISO 8601 UTC timestamp with fractional seconds, exactly
 * `YYYY-MM-DDTHH:MM:SS.fZ` with 1–9 fraction digits, upper-case `T` and `Z`, naming a real
 * date and time of the proleptic Gregorian calendar: years 0000–9999, hours 00–23, minutes and
 * seconds 00–59 (no leap second), and no day past the end of its month.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isTimestamp } from './validators.js'
 * assert.strictEqual(isTimestamp('2026-11-21T10:00:00.000Z'), true)
 * assert.strictEqual(isTimestamp('2026-02-30T10:00:00.000Z'), false) // no 30 February
 * assert.strictEqual(isTimestamp('2026-11-21T24:00:00.000Z'), false) // no hour 24
 * assert.strictEqual(isTimestamp('2026-11-21T10:00:00Z'), false) // fraction required
 */
export const isTimestamp = (s: unknown): s is string => {
  // anchored at the start, the expression reads at most 31 units of any string, however long
  if (typeof s !== 'string' || !TIMESTAMP.test(s)) return false
  // the expression allows days up to 31 (and has checked that these are digits): days 01–28 are
  // in every month, so only the 29th to the 31st need the month and year (a third of the cost)
  const day = digits(s, 8, 10)
  return day <= 28 || day <= daysInMonth(digits(s, 0, 4), digits(s, 5, 7))
}

// -------------------------------------------------------------------------------------
// money
// -------------------------------------------------------------------------------------

/**
 * True when `n` is an amount in minor units: a safe integer ≥ 0.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isAmount } from './validators.js'
 * assert.strictEqual(isAmount(0), true)
 * assert.strictEqual(isAmount(1.5), false)
 * assert.strictEqual(isAmount(2 ** 53), false)
 */
export const isAmount = (n: unknown): n is number =>
  typeof n === 'number' && Number.isSafeInteger(n) && n >= 0

// -------------------------------------------------------------------------------------
// contact
// -------------------------------------------------------------------------------------

/**
 * True when `s` is an e-mail address as docs/rules.md C3 has it: at most 254 characters, no White_Space
 * or control character, exactly one `@`, a local part of 1–64 characters, and a domain that
 * holds a dot and has no empty label (no leading, trailing or doubled dot). Nothing more is
 * checked: whether the mailbox exists is for the caller to find out.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { isEmail } from 'paysplit/codecs'
 * assert.strictEqual(isEmail('kari.nordmann@example.no'), true)
 * assert.strictEqual(isEmail('kari@localhost'), false) // no dot in the domain
 * assert.strictEqual(isEmail('kari@example..no'), false) // empty label
 */
export const isEmail = (s: string): boolean => s.length <= MAX_EMAIL_LENGTH && EMAIL.test(s)

/**
 * {@link isEmail} of a string already known to be within `MAX_EMAIL_LENGTH` (the e-mail rule of
 * the codecs checks the length first, so that its bundle needs no second check).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isEmailWithin } from './validators.js'
 * assert.strictEqual(isEmailWithin('kari@example.no'), true)
 * assert.strictEqual(isEmailWithin('kari@localhost'), false)
 */
export const isEmailWithin = (s: string): boolean => EMAIL.test(s)

/**
 * One `@` after 1–64 other characters, then labels of one or more characters (no `@`, no dot)
 * joined by single dots, at least two of them; no character anywhere is one of
 * {@link SPACE_OR_CONTROL} (each class leaves them out: one pass over the string instead of two,
 * about 570 machine instructions less an address). A label cannot hold the dot that ends it, so a
 * failed match gives back each character at most once.
 *
 * @internal
 */
export const EMAIL =
  /^[^@\0- \x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]{1,64}@[^@.\0- \x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+(?:\.[^@.\0- \x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+)+$/

/**
 * True when `s` is an absolute `http:` or `https:` URL as docs/rules.md C3 has it: at most 2048
 * characters, no Unicode White_Space or control (Cc) character anywhere in the string as given,
 * parsed by the WHATWG URL parser (the global `URL`) with a non-empty host. The string is not
 * normalised: callers store it exactly as given.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { isHttpUrl } from 'paysplit/codecs'
 * assert.strictEqual(isHttpUrl('https://shop.example.com/paid?order=42'), true)
 * assert.strictEqual(isHttpUrl('ftp://example.com/'), false)
 * assert.strictEqual(isHttpUrl('https://exa mple.com/'), false)
 * assert.strictEqual(isHttpUrl('/relative/path'), false)
 */
export const isHttpUrl = (s: string): boolean => s.length <= MAX_URL_LENGTH && isHttpUrlWithin(s)

/**
 * {@link isHttpUrl} of a string already known to be within `MAX_URL_LENGTH` (the URL rule of the
 * codecs checks the length first, so that its bundle needs no second check).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isHttpUrlWithin } from './validators.js'
 * assert.strictEqual(isHttpUrlWithin('https://shop.example.com/paid'), true)
 * assert.strictEqual(isHttpUrlWithin('ftp://example.com/'), false)
 */
export const isHttpUrlWithin = (s: string): boolean => {
  // the everyday URL in one pass: its form and the absence of spaces and controls together
  if (PLAIN_HTTP_URL.test(s)) return true
  if (SPACE_OR_CONTROL.test(s)) return false
  let url: URL
  try {
    url = new URL(s)
  } catch {
    return false
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
}

/**
 * The fast path of {@link isHttpUrl}, the everyday shape the WHATWG parser accepts: `http(s)://`,
 * a host name of ASCII letters, digits and hyphens in labels joined by single dots, no label
 * starting with `xn--` and the last one starting with a letter (so no IPv4 address), then the end
 * or `/`, `?`, `#` and anything but a space or control character ({@link SPACE_OR_CONTROL}, so
 * that a match needs no second pass over the string: about 450 machine instructions less a URL;
 * `/i` changes nothing in that class). For anything else (a port, an IP address, an
 * internationalised name, a space…) the slow path decides. A label cannot hold the dot that ends
 * it, so the match cannot backtrack more than once per label.
 */
const PLAIN_HTTP_URL =
  /^https?:\/\/(?:(?!xn--)[a-z\d-]+\.)*(?!xn--)[a-z][a-z\d-]*(?:[/?#][^\0- \x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*)?$/i

/**
 * True when `s` is an international dialling prefix: `+` and 1–4 digits.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isMobilePrefix } from './validators.js'
 * assert.strictEqual(isMobilePrefix('+47'), true)
 * assert.strictEqual(isMobilePrefix('47'), false)
 */
export const isMobilePrefix = (s: string): boolean => MOBILE_PREFIX.test(s)

/** `+` and 1–4 digits; anchored at both ends, so a long string is refused within its first 6 characters. @internal */
export const MOBILE_PREFIX = /^\+\d{1,4}$/

/**
 * True when `s` is a mobile number without its prefix: 4–15 digits.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isMobileNumber } from './validators.js'
 * assert.strictEqual(isMobileNumber('91234567'), true)
 * assert.strictEqual(isMobileNumber('912 34 567'), false)
 */
export const isMobileNumber = (s: string): boolean => MOBILE_NUMBER.test(s)

/** 4–15 digits; anchored at both ends, so a long string is refused within its first 16 characters. @internal */
export const MOBILE_NUMBER = /^\d{4,15}$/

// -------------------------------------------------------------------------------------
// webhooks
// -------------------------------------------------------------------------------------

/**
 * The webhook event types (docs/rules.md C5), in their short form, in the order of the payment's life.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { webhookEventTypes } from './validators.js'
 * assert.strictEqual(webhookEventTypes.length, 7)
 * assert.ok(webhookEventTypes.includes('PartiallyRefunded'))
 */
export const webhookEventTypes: ReadonlyArray<WebhookEventType> = [
  'Initiated',
  'Reserved',
  'Charged',
  'Cancelled',
  'Refunded',
  'PartiallyRefunded',
  'InvoiceAdjusted'
]

/**
 * Reads a webhook event type (docs/rules.md C5) in its short form (`Charged`) or the service's long form
 * (`ChargedPayment`), case-sensitive, and returns the short form; `undefined` for anything else.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { parseWebhookEventType } from './validators.js'
 * assert.strictEqual(parseWebhookEventType('ChargedPayment'), 'Charged')
 * assert.strictEqual(parseWebhookEventType('PartiallyRefunded'), 'PartiallyRefunded')
 * assert.strictEqual(parseWebhookEventType('charged'), undefined)
 */
export const parseWebhookEventType = (s: unknown): WebhookEventType | undefined => {
  if (typeof s !== 'string') return undefined
  // the long form is the short one + 'Payment'
  const short = s.endsWith('Payment') ? s.slice(0, -7) : s
  return (webhookEventTypes as ReadonlyArray<string>).includes(short)
    ? (short as WebhookEventType)
    : undefined
}
