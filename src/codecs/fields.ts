/**
 * The field checks that the codecs (`paysplit/codecs`, a create request) and `validateState` (a
 * stored payment) share: one generic check of a field's value against a rule per kind of field
 * (text, format, integer, one of, boolean), and issues whose message is one sentence, the path
 * then the rule broken (`moneySplitList.1.amount must be a safe integer of at least 0.`).
 *
 * Internal: not exported by any entry. Everything here is small and pure, so that a bundle that
 * imports only some of it (the codecs entry) keeps only that.
 *
 * @internal
 * @module fields
 */
import type { Issue } from '../errors.js'
import { isCurrencyCode } from './currencies.js'
import {
  isEmail,
  isHttpUrl,
  isMobileNumber,
  isMobilePrefix,
  isUuid,
  MAX_DESCRIPTION_LENGTH,
  MAX_STRING_LENGTH
} from './validators.js'

// -------------------------------------------------------------------------------------
// issues
// -------------------------------------------------------------------------------------

/**
 * Where a check collects the issues it finds, in the order found.
 *
 * @internal
 */
export type Issues = Issue[]

/**
 * A plain object as read from an input.
 *
 * @internal
 */
export type Obj = Record<string, unknown>

/**
 * A non-null object that is not an array.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isRecord } from './fields.js'
 * assert.strictEqual(isRecord({}), true)
 * assert.strictEqual(isRecord([]), false)
 */
export const isRecord = (u: unknown): u is Obj =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * The path of `key` ('' for the object itself) in the object at `base`, or at entry `index` of
 * the list `base` when `index` ≥ 0. Built only when an issue needs it.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { pathOf } from './fields.js'
 * assert.strictEqual(pathOf('moneySplitList', 1, 'amount'), 'moneySplitList.1.amount')
 * assert.strictEqual(pathOf('', -1, 'grossAmount'), 'grossAmount')
 * assert.strictEqual(pathOf('customer', -1, ''), 'customer')
 */
export const pathOf = (base: string, index: number, key: string): string => {
  const p = index < 0 ? base : `${base}.${index}`
  return p === '' ? key : key === '' ? p : `${p}.${key}`
}

/**
 * Pushes the issue "`path` `rule`." ("The input `rule`." at the root), `ValidationFailed` unless
 * `code` says otherwise.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { fail } from './fields.js'
 * const issues: Array<{ path: string; code: string; message: string }> = []
 * fail(issues as never, 'grossAmount', 'must be at least 1')
 * assert.deepStrictEqual(issues, [{ path: 'grossAmount', code: 'ValidationFailed', message: 'grossAmount must be at least 1.' }])
 */
export const fail = (
  issues: Issues,
  path: string,
  rule: string,
  code: Issue['code'] = 'ValidationFailed'
): void => {
  issues.push({ path, code, message: `${path || 'The input'} ${rule}.` })
}

/**
 * True when `u` is an object; else pushes "<its path> must be an object." (path as
 * {@link pathOf} builds it for the object itself).
 *
 * @internal
 */
export const isObject = (issues: Issues, u: unknown, base: string, index: number): u is Obj => {
  if (isRecord(u)) return true
  fail(issues, pathOf(base, index, ''), 'must be an object')
  return false
}

// -------------------------------------------------------------------------------------
// field rules
// -------------------------------------------------------------------------------------

/**
 * A rule of a field: '' when the (present) value `v` keeps it, else what `v` must be, in words.
 *
 * @internal
 */
export type Rule = (v: unknown) => string

/**
 * A string of at most `max` UTF-16 units, not empty when `nonEmpty`.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { text } from './fields.js'
 * assert.strictEqual(text(3, true)('abc'), '')
 * assert.strictEqual(text(3, true)(''), 'must not be empty')
 * assert.strictEqual(text(3, false)('abcd'), 'must be at most 3 characters')
 */
export const text =
  (max: number, nonEmpty: boolean): Rule =>
  (v) =>
    typeof v !== 'string'
      ? 'must be a string'
      : v.length > max
        ? `must be at most ${max} characters`
        : nonEmpty && v === ''
          ? 'must not be empty'
          : ''

/**
 * A string that `ok` accepts (each `ok` checks the length first, so this stays linear).
 *
 * @internal
 */
export const format =
  (ok: (s: string) => boolean, what: string): Rule =>
  (v) =>
    typeof v === 'string' && ok(v) ? '' : `must be ${what}`

/**
 * A safe integer of at least `min`.
 *
 * @internal
 */
export const integer =
  (min: number): Rule =>
  (v) =>
    typeof v === 'number' && Number.isSafeInteger(v) && v >= min
      ? ''
      : `must be a safe integer of at least ${min}`

/**
 * One of `values`, exactly.
 *
 * @internal
 */
export const oneOf =
  (...values: ReadonlyArray<unknown>): Rule =>
  (v) =>
    values.includes(v) ? '' : `must be one of ${values.join(', ')}`

/** Identifying strings: non-empty, at most 255 units. @internal */
export const ID = /* @__PURE__ */ text(MAX_STRING_LENGTH, true)
/** Names: may be empty. @internal */
export const NAME = /* @__PURE__ */ text(MAX_STRING_LENGTH, false)
/** Descriptions. @internal */
export const DESCRIPTION = /* @__PURE__ */ text(MAX_DESCRIPTION_LENGTH, false)
/** UUIDs, in either case. @internal */
export const UUID = /* @__PURE__ */ format(isUuid, 'a UUID (8-4-4-4-12 hex digits)')
/** Absolute http(s) URLs. @internal */
export const URL_RULE = /* @__PURE__ */ format(isHttpUrl, 'an absolute http(s) URL')
/** Amounts, in minor units. @internal */
export const AMOUNT = /* @__PURE__ */ integer(0)
/** grossAmount, splitID, version. @internal */
export const POSITIVE = /* @__PURE__ */ integer(1)
/** Flags. @internal */
export const BOOLEAN: Rule = (v) => (typeof v === 'boolean' ? '' : 'must be true or false')
/** The environment of a payment. @internal */
export const ENVIRONMENT = /* @__PURE__ */ oneOf('test', 'production')
/** The gateway of a payment. @internal */
export const GATEWAY = /* @__PURE__ */ oneOf('creditcard', 'invoice')
/** Currencies. @internal */
export const CURRENCY = /* @__PURE__ */ format(isCurrencyCode, 'an active ISO 4217 code such as NOK')
/** The customer's e-mail address. @internal */
export const EMAIL = /* @__PURE__ */ format(isEmail, 'an e-mail address')
/** The customer's mobile prefix. @internal */
export const MOBILE_PREFIX = /* @__PURE__ */ format(isMobilePrefix, '+ and 1–4 digits')
/** The customer's mobile number. @internal */
export const MOBILE = /* @__PURE__ */ format(isMobileNumber, '4–15 digits')

/**
 * Checks the value `v` of the field `key` of the object at (`base`, `index`): returns it (`-0`
 * as `0`) when it is present and keeps `rule`; else `undefined`, with an issue when it is
 * present, or absent and `required`.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { AMOUNT, check } from './fields.js'
 * const issues: Array<{ path: string; message: string }> = []
 * assert.strictEqual(check(issues as never, 5, 'moneySplitList', 0, 'amount', AMOUNT), 5)
 * assert.strictEqual(check(issues as never, -1, 'moneySplitList', 0, 'amount', AMOUNT), undefined)
 * assert.strictEqual(check(issues as never, undefined, '', -1, 'grossAmount', AMOUNT, true), undefined)
 * assert.deepStrictEqual(issues.map((i) => i.message), [
 *   'moneySplitList.0.amount must be a safe integer of at least 0.',
 *   'grossAmount is required.'
 * ])
 */
export const check = (
  issues: Issues,
  v: unknown,
  base: string,
  index: number,
  key: string,
  rule: Rule,
  required = false
): unknown => {
  const broken = v === undefined ? (required ? 'is required' : '') : rule(v)
  if (broken === '') return v === 0 ? 0 : v
  fail(issues, pathOf(base, index, key), broken)
  return undefined
}
