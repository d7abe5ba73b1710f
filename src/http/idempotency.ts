/**
 * Safe retries (docs/rules.md C13): the `idempotency-key` request header of every `POST` route of
 * `handle`, read as the IETF draft "The Idempotency-Key HTTP Header Field" writes it (a
 * structured-field string, or bare). The world remembers, per key and `ctx.idempotencyScope`, the
 * request (method, path and body) and the response paysplit gave; the same key with the same
 * request again gets that response, unchanged, and changes nothing; with another request, 422
 * `IdempotencyKeyReused`. A key is kept 24 hours from the `at` of its first use. The keys live in
 * a persistent map, so a keyed request costs O(log n) in the keys kept (docs/decisions.md,
 * "Idempotency keys").
 *
 * @module idempotency
 */
import * as E from '../internal/either.js'
import type { IssueParams, IssueReason, PaymentError } from '../errors.js'
import { issue, paymentError, validationError } from '../errors.js'
import { ExpiringMap } from '../internal/expiringMap.js'
import { sameJson } from '../internal/json.js'
import { isObject, own } from '../internal/own.js'
import { isRecord } from '../codecs/fields.js'
import { errorResponse, type HttpResponse } from './responses.js'
import type { RouteName } from './routes.js'
import {
  idempotencyEntryKey,
  idempotencyTimeOf,
  keyStoreOf,
  type IdempotencyRecord,
  type StoredResponse,
  type World
} from '../service/world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * How long a key is remembered, from the `at` of its first use: 24 hours, in milliseconds. A
 * service that stores keys may delete a record this long after its `at`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { IDEMPOTENCY_KEY_TTL_MS } from 'paysplit/http'
 * assert.strictEqual(IDEMPOTENCY_KEY_TTL_MS, 86_400_000)
 */
export const IDEMPOTENCY_KEY_TTL_MS = 86_400_000 // 24 hours

/**
 * The longest key: 255 characters (each printable ASCII, `' '` to `'~'`), counted as the key is
 * read: a key sent as a structured-field string (`"…"`) counts without its quotes and escapes.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, handle, IDEMPOTENCY_KEY_MAX_LENGTH } from 'paysplit/http'
 * const request = { method: 'POST', path: '/payments', body: {}, headers: { 'idempotency-key': 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1) } }
 * const { response } = handle(emptyWorld, request, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' })
 * assert.strictEqual(response.status, 400)
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

// -------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------

/** A copy of a JSON-like value (own enumerable keys only), so that no caller can change what the world remembers. */
const copyJson = (v: unknown): unknown => {
  if (!isObject(v)) return v
  if (Array.isArray(v)) return v.map(copyJson)
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v)) {
    // defineProperty: a key named __proto__ stays a key
    Object.defineProperty(out, k, { value: copyJson(own(v, k)), enumerable: true, writable: true, configurable: true })
  }
  return out
}

// -------------------------------------------------------------------------------------
// the header and the scope
// -------------------------------------------------------------------------------------

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * A fault of the idempotency-key header (each a 400 at `headers.idempotency-key`): its issue, and a message that names the header and says
 * what is wrong, for cancel, charge and full refund, whose failure body is the message alone
 * (docs/rules.md C13).
 */
const faultOf = (reason: IssueReason, params: IssueParams, message: string): PaymentError => ({
  ...validationError([issue('headers.idempotency-key', reason, params)]),
  message
})

const tooLong = (): PaymentError =>
  faultOf('too_long', { max: IDEMPOTENCY_KEY_MAX_LENGTH }, 'The idempotency-key header is too long: a key has at most 255 characters.')

const headersFault: PaymentError = {
  ...validationError([issue('headers', 'type', { expected: 'object' })]),
  message: 'The request headers, where the idempotency-key header is read, must be an object.'
}

/**
 * The key of a structured-field string (RFC 8941: `"` … `"`, printable ASCII inside, `\"` and
 * `\\` the only escapes, nothing after the closing quote), or `undefined` when `value` is not one.
 */
const unquote = (value: string): string | undefined => {
  let key = ''
  let from = 1
  for (let i = 1; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c === BACKSLASH) {
      const next = value.charCodeAt(i + 1)
      if (next !== QUOTE && next !== BACKSLASH) return undefined
      key += value.slice(from, i)
      // the escaped character starts the next run
      from = ++i
    } else if (c === QUOTE) {
      return i === value.length - 1 ? key + value.slice(from, i) : undefined
    } else if (c < 0x20 || c > 0x7e) {
      return undefined
    }
  }
  // no closing quote
  return undefined
}

/**
 * The `idempotency-key` of a request's `headers` (own properties, lower-case names), read as the
 * IETF draft writes it (docs/rules.md C13): a structured-field string (`"abc"`, with `\"` and
 * `\\` escapes) or the bare value (`abc`), the same key either way. `undefined` when there is
 * none; a 400 `ValidationFailed` at `headers.idempotency-key` when the key is not 1–255
 * printable ASCII characters or a value starting with `"` is no structured-field string (at
 * `headers` when the headers are not an object). Each error's message names the header.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { idempotencyKeyOf } from './idempotency.js'
 * assert.deepStrictEqual(idempotencyKeyOf({ method: 'POST', path: '/payments', headers: { 'idempotency-key': 'k-1' } }), E.right('k-1'))
 * assert.deepStrictEqual(idempotencyKeyOf({ headers: { 'idempotency-key': '"k-1"' } }), E.right('k-1'))
 * assert.deepStrictEqual(idempotencyKeyOf({ headers: { 'idempotency-key': '"say \\"hi\\""' } }), E.right('say "hi"'))
 * assert.deepStrictEqual(idempotencyKeyOf({ method: 'POST', path: '/payments' }), E.right(undefined))
 * const bad = idempotencyKeyOf({ headers: { 'idempotency-key': 'nøkkel' } })
 * assert.ok(E.isLeft(bad) && bad.left.issues?.[0]?.path === 'headers.idempotency-key')
 * const open = idempotencyKeyOf({ headers: { 'idempotency-key': '"k-1' } })
 * assert.ok(E.isLeft(open) && open.left.message.includes('idempotency-key'))
 *
 * @internal
 */
export const idempotencyKeyOf = (request: unknown): E.Either<PaymentError, string | undefined> => {
  const headers = own(request, 'headers')
  if (headers === undefined) return E.right(undefined)
  if (!isRecord(headers)) return E.left(headersFault)
  const value = own(headers, 'idempotency-key')
  if (value === undefined) return E.right(undefined)
  if (typeof value !== 'string') return E.left(faultOf('type', { expected: 'string' }, 'The idempotency-key header must be a string.'))
  let key = value
  if (value.charCodeAt(0) === QUOTE) {
    // a string of 255 characters, each escaped, takes 512 (bounds the work on a huge value)
    if (value.length > 2 * IDEMPOTENCY_KEY_MAX_LENGTH + 2) return E.left(tooLong())
    const unquoted = unquote(value)
    if (unquoted === undefined) {
      return E.left(
        faultOf(
          'format',
          { format: 'structured-field string' },
          'The idempotency-key header starts with a quote but is not a structured-field string: it must end with the closing quote, ' +
            'hold printable ASCII only, and escape nothing but a quote or a backslash.'
        )
      )
    }
    key = unquoted
  }
  if (key.length === 0) return E.left(faultOf('too_short', { min: 1 }, 'The idempotency-key header names no key: a key has 1 to 255 characters.'))
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return E.left(tooLong())
  if (!PRINTABLE_ASCII.test(key)) return E.left(faultOf('format', { format: 'idempotency key' }, 'The idempotency-key header may hold only printable ASCII characters (space to ~).'))
  return E.right(key)
}

/** The context's fault: an `idempotencyScope` that is not a string (500 `InvalidContext`). */
const scopeFault: PaymentError = {
  code: 'InvalidContext',
  message:
    "The service gave an invalid context (the service's fault, not the request's): the idempotencyScope of the idempotency-key header must be a string.",
  issues: [issue('idempotencyScope', 'type', { expected: 'string' })]
}

/** The same key with another request (422, the draft's status). */
const reused: PaymentError = paymentError(
  'IdempotencyKeyReused',
  'This idempotency-key header was sent before with another request (another method, path or body): send a new key for a new request.'
)

// -------------------------------------------------------------------------------------
// the hook of handle
// -------------------------------------------------------------------------------------

/**
 * What the key of a `POST` says before the request runs:
 * - `answer`: answer this and change nothing (a bad key or scope, a reused key, or the stored
 *   response of a retry);
 * - `run`: run the request; then {@link rememberOutcome} gives the world to return.
 *
 * @internal
 */
export type KeyCheck =
  | { readonly kind: 'answer'; readonly response: HttpResponse }
  | {
      readonly kind: 'run'
      /** The `at` of the request, in milliseconds. */
      readonly now: number
      /** The record to keep once the response is known (absent: no key). */
      readonly record?: Omit<IdempotencyRecord, 'response'>
    }

/**
 * The key a request is kept under: its `idempotency-key` (as read) and the context's
 * `idempotencyScope` when it gives one; `undefined` without the header. `Left` for a header that is
 * no key, then for a scope that is no string (read only when there is a key).
 *
 * @internal
 */
export const keyedBy = (request: unknown, ctx: unknown): E.Either<PaymentError, { readonly scope?: string; readonly key: string } | undefined> => {
  const key = idempotencyKeyOf(request)
  if (E.isLeft(key) || key.right === undefined) return key as E.Either<PaymentError, undefined>
  const scope = own(ctx, 'idempotencyScope')
  if (scope === undefined) return E.right({ key: key.right })
  return typeof scope === 'string' ? E.right({ scope, key: key.right }) : E.left(scopeFault)
}

/**
 * Checks the `idempotency-key` of a `POST` whose route and context were found good (docs/rules.md
 * C13): the header (400), the context's `idempotencyScope` (500 `InvalidContext`), then the key
 * (as read: `"abc"` and `abc` are one): a remembered one with the same method, path and body
 * (compared as JSON values) → its stored response; with another request → 422
 * `IdempotencyKeyReused`; an unknown or expired one → run. O(log n) in the keys kept.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld } from 'paysplit/http'
 * import { checkIdempotencyKey } from './idempotency.js'
 * const request = { method: 'POST', path: '/payments', body: {}, headers: { 'idempotency-key': '"k-1"' } }
 * const checked = checkIdempotencyKey(emptyWorld, request, {}, 'createPayment', '2026-11-21T10:00:00.000Z')
 * assert.ok(checked.kind === 'run' && checked.record?.key === 'k-1')
 *
 * @internal
 */
export const checkIdempotencyKey = (world: World, request: unknown, ctx: unknown, route: RouteName, at: string): KeyCheck => {
  const now = Date.parse(at)
  const keyed = keyedBy(request, ctx)
  if (E.isLeft(keyed)) return { kind: 'answer', response: errorResponse(route, keyed.left) }
  if (keyed.right === undefined) return { kind: 'run', now }
  const method = own(request, 'method') as string
  const path = own(request, 'path') as string
  const body = own(request, 'body')
  // the record the world keeps under the key, if any: O(log n) in the keys kept (a `Map` of a
  // world built by hand: O(1)); one first used 24 hours or more before `now` (or without a
  // readable `at`) has expired
  const keys = own(world, 'idempotencyKeys')
  const stored =
    keys instanceof ExpiringMap || keys instanceof Map
      ? (keys as ReadonlyMap<string, IdempotencyRecord>).get(idempotencyEntryKey(keyed.right.scope, keyed.right.key))
      : undefined
  if (stored !== undefined && now - idempotencyTimeOf(stored) < IDEMPOTENCY_KEY_TTL_MS) {
    const first = own(stored, 'request')
    const same = own(first, 'method') === method && own(first, 'path') === path && sameJson(own(first, 'body'), body)
    return { kind: 'answer', response: same ? (copyJson(own(stored, 'response')) as HttpResponse) : errorResponse(route, reused) }
  }
  const record = {
    ...keyed.right,
    at,
    request: { method, path, ...(body !== undefined ? { body: copyJson(body) } : {}) }
  }
  return { kind: 'run', now, record }
}

/**
 * The world `handle` returns after running a request that {@link checkIdempotencyKey} let run,
 * and the row it kept: the world the request left, with the world's keys (expired ones forgotten
 * when the world changes) and, when the request carried a key, its row with a copy of `response`,
 * unless the response is a 5xx (the service's own fault is no answer: the retry runs again).
 * O(log n) in the keys kept, and O(log n) per expired key forgotten; the world given is never
 * changed.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, idempotencyEntryKey } from 'paysplit/http'
 * import { rememberOutcome } from './idempotency.js'
 * const response = { status: 404, body: { success: false, error: { code: 'PaymentNotFound', message: 'No payment.' } } } as const
 * const record = { key: 'k-1', at: '2026-11-21T10:00:00.000Z', request: { method: 'POST', path: '/payments/0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c/charge' } }
 * const [after, kept] = rememberOutcome({ kind: 'run', now: Date.parse(record.at), record }, emptyWorld, emptyWorld, response)
 * assert.deepStrictEqual(after.idempotencyKeys?.get(idempotencyEntryKey(undefined, 'k-1'))?.response, response)
 * assert.deepStrictEqual(kept, { ...record, response })
 * assert.strictEqual(emptyWorld.idempotencyKeys?.size, 0)
 *
 * @internal
 */
export const rememberOutcome = (
  check: Extract<KeyCheck, { kind: 'run' }>,
  before: World,
  after: World,
  response: HttpResponse
): readonly [world: World, kept: IdempotencyRecord | undefined] => {
  const record = check.record !== undefined && response.status < 500 ? check.record : undefined
  // nothing to keep and nothing changed: the very world, expired keys and all
  if (record === undefined && after === before) return [after, undefined]
  const keys = keyStoreOf(before)
  // a key is kept 24 hours: those first used at or before this cutoff are forgotten
  const cutoff = check.now - IDEMPOTENCY_KEY_TTL_MS
  if (record === undefined) {
    if (keys === undefined) return [after, undefined]
    const kept = keys.withoutUntil(cutoff)
    return [own(after, 'idempotencyKeys') === kept ? after : { ...after, idempotencyKeys: kept }, undefined]
  }
  const row: IdempotencyRecord = { ...record, response: copyJson(response) as StoredResponse }
  const next = (keys ?? ExpiringMap.empty<IdempotencyRecord>()).withoutUntil(cutoff).with(idempotencyEntryKey(row.scope, row.key), row, idempotencyTimeOf(row))
  return [{ ...after, idempotencyKeys: next }, row]
}
