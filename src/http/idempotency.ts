/**
 * Safe retries (docs/rules.md C13): the `idempotency-key` request header of every `POST` route of
 * `handle`. The world remembers, per key and `ctx.idempotencyScope`, the request (method, path and
 * body) and the response paysplit gave; the same key with the same request again gets that
 * response, unchanged, and changes nothing; with another request, 409 `IdempotencyKeyReused`. A
 * key is kept 24 hours from the `at` of its first use (docs/decisions.md, "Idempotency keys").
 *
 * @module idempotency
 */
import * as E from '../internal/either.js'
import type { Issue, PaymentError } from '../errors.js'
import { issue, paymentError, validationError } from '../errors.js'
import { sameJson } from '../internal/json.js'
import { isObject, own } from '../internal/own.js'
import { errorResponse, type HttpResponse } from './responses.js'
import type { RouteName } from './routes.js'
import { idempotencyEntryKey, type IdempotencyKeys, type IdempotencyRecord, type StoredResponse, type World } from '../service/world.js'

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
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000

/**
 * The longest key: 255 characters (each printable ASCII, `' '` to `'~'`).
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

const copyResponse = (r: StoredResponse): HttpResponse => copyJson(r) as HttpResponse

const timeOf = (at: unknown): number => (typeof at === 'string' ? Date.parse(at) : Number.NaN)

/** True when the record was first used 24 hours or more before `now` (a record without a readable `at` too). */
const expired = (record: IdempotencyRecord, now: number): boolean => {
  const first = timeOf(own(record, 'at'))
  return !(now - first < IDEMPOTENCY_KEY_TTL_MS)
}

const keysOf = (world: World): IdempotencyKeys | undefined => {
  const keys = own(world, 'idempotencyKeys')
  return keys instanceof Map ? (keys as IdempotencyKeys) : undefined
}

/**
 * The world's keys without those that expired by `now` (the same map when none did): a world
 * keeps at most the keys of the last 24 hours.
 */
const withoutExpired = (keys: IdempotencyKeys, now: number): IdempotencyKeys => {
  let kept: Map<string, IdempotencyRecord> | undefined
  for (const [entry, record] of keys) {
    if (expired(record, now)) {
      kept ??= new Map(keys)
      kept.delete(entry)
    }
  }
  return kept ?? keys
}

// -------------------------------------------------------------------------------------
// the header and the scope
// -------------------------------------------------------------------------------------

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

const keyIssue = (reason: 'type' | 'too_short' | 'too_long' | 'format'): Issue => {
  const path = 'headers.idempotency-key'
  switch (reason) {
    case 'type':
      return issue(path, 'type', { expected: 'string' })
    case 'too_short':
      return issue(path, 'too_short', { min: 1 })
    case 'too_long':
      return issue(path, 'too_long', { max: IDEMPOTENCY_KEY_MAX_LENGTH })
    case 'format':
      return issue(path, 'format', { format: 'idempotency key' })
  }
}

/**
 * The `idempotency-key` of a request's `headers` (own properties, lower-case names): `undefined`
 * when there is none; a 400 `ValidationFailed` at `headers.idempotency-key` when it is not 1–255
 * printable ASCII characters (or at `headers` when the headers are not an object).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { idempotencyKeyOf } from './idempotency.js'
 * assert.deepStrictEqual(idempotencyKeyOf({ method: 'POST', path: '/payments', headers: { 'idempotency-key': 'k-1' } }), E.right('k-1'))
 * assert.deepStrictEqual(idempotencyKeyOf({ method: 'POST', path: '/payments' }), E.right(undefined))
 * const bad = idempotencyKeyOf({ headers: { 'idempotency-key': 'nøkkel' } })
 * assert.ok(E.isLeft(bad) && bad.left.issues?.[0]?.path === 'headers.idempotency-key')
 *
 * @internal
 */
export const idempotencyKeyOf = (request: unknown): E.Either<PaymentError, string | undefined> => {
  const headers = own(request, 'headers')
  if (headers === undefined) return E.right(undefined)
  if (!isObject(headers) || Array.isArray(headers)) return E.left(validationError([issue('headers', 'type', { expected: 'object' })]))
  const key = own(headers, 'idempotency-key')
  if (key === undefined) return E.right(undefined)
  if (typeof key !== 'string') return E.left(validationError([keyIssue('type')]))
  if (key.length === 0) return E.left(validationError([keyIssue('too_short')]))
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return E.left(validationError([keyIssue('too_long')]))
  if (!PRINTABLE_ASCII.test(key)) return E.left(validationError([keyIssue('format')]))
  return E.right(key)
}

/** The context's fault: an `idempotencyScope` that is not a string (500 `InvalidContext`). */
const scopeFault: PaymentError = {
  code: 'InvalidContext',
  message: "The service gave an invalid context (the service's fault, not the request's): check idempotencyScope.",
  issues: [issue('idempotencyScope', 'type', { expected: 'string' })]
}

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
 * Checks the `idempotency-key` of a `POST` whose route and context were found good (docs/rules.md
 * C13): the header (400), the context's `idempotencyScope` (500 `InvalidContext`), then the key:
 * a remembered one with the same method, path and body (compared as JSON values) → its stored
 * response; with another request → 409 `IdempotencyKeyReused`; an unknown or expired one → run.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld } from 'paysplit/http'
 * import { checkIdempotencyKey } from './idempotency.js'
 * const request = { method: 'POST', path: '/payments', body: {}, headers: { 'idempotency-key': 'k-1' } }
 * const checked = checkIdempotencyKey(emptyWorld, request, {}, 'createPayment', '2026-11-21T10:00:00.000Z')
 * assert.strictEqual(checked.kind, 'run')
 *
 * @internal
 */
export const checkIdempotencyKey = (world: World, request: unknown, ctx: unknown, route: RouteName, at: string): KeyCheck => {
  const now = Date.parse(at)
  const key = idempotencyKeyOf(request)
  if (E.isLeft(key)) return { kind: 'answer', response: errorResponse(route, key.left) }
  if (key.right === undefined) return { kind: 'run', now }
  const scope = own(ctx, 'idempotencyScope')
  if (scope !== undefined && typeof scope !== 'string') return { kind: 'answer', response: errorResponse(route, scopeFault) }
  const method = own(request, 'method') as string
  const path = own(request, 'path') as string
  const body = own(request, 'body')
  const stored = keysOf(world)?.get(idempotencyEntryKey(scope, key.right))
  if (stored !== undefined && !expired(stored, now)) {
    const first = own(stored, 'request')
    const same = own(first, 'method') === method && own(first, 'path') === path && sameJson(own(first, 'body'), body)
    return same
      ? { kind: 'answer', response: copyResponse(own(stored, 'response') as HttpResponse) }
      : {
          kind: 'answer',
          response: errorResponse(
            route,
            paymentError('IdempotencyKeyReused', 'This Idempotency-Key was used for a different request; send a new key for a new request.')
          )
        }
  }
  const record = {
    ...(scope !== undefined ? { scope } : {}),
    key: key.right,
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
  const keys = keysOf(before)
  const record = check.record !== undefined && response.status < 500 ? check.record : undefined
  if (record === undefined) {
    if (after === before || keys === undefined) return [after, undefined]
    // the request changed the world: the keys as the world had them, expired ones forgotten
    const kept = withoutExpired(keys, check.now)
    return [keysOf(after) === kept ? after : { ...after, idempotencyKeys: kept }, undefined]
  }
  const next = new Map(keys === undefined ? [] : withoutExpired(keys, check.now))
  const row: IdempotencyRecord = { ...record, response: copyResponse(response) }
  next.set(idempotencyEntryKey(record.scope, record.key), row)
  return [{ ...after, idempotencyKeys: next }, row]
}
