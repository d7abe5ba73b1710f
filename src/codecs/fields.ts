/**
 * The field checks that the codecs (`paysplit/codecs`, a create request) and `validateState` (a
 * stored payment) share: one generic check of a field's value against a rule per kind of field
 * (text, format, integer, one of, boolean, currency), each giving the reason and params of the
 * issue it breaks (`too_small`, `{ min: 0 }`; docs/rules.md C12), and the issue list itself, which
 * keeps the first 100 issues and counts the rest (docs/rules.md C3, bounded errors).
 *
 * Internal: not exported by any entry. Everything here is small and pure, so that a bundle that
 * imports only some of it (the codecs entry) keeps only that.
 *
 * @internal
 * @module fields
 */
import { invalid, issue, MAX_ISSUES, type Issue, type IssueCode, type IssueParams, type IssueReason, type PaymentError } from '../errors.js'
import { hasOwn, own } from '../internal/own.js'
import { hundredths } from './currencies.js'
import {
  isEmailWithin,
  isHttpUrlWithin,
  isMobileNumber,
  isMobilePrefix,
  isTimestamp,
  isUuid,
  isWellFormed,
  MAX_DESCRIPTION_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_STRING_LENGTH,
  MAX_URL_LENGTH,
  toWellFormed
} from './validators.js'

// -------------------------------------------------------------------------------------
// issues
// -------------------------------------------------------------------------------------

/**
 * Where a check collects the issues it finds, in the order found: the first 100 (docs/rules.md
 * C3, bounded errors), then only their number (`more`) and the best code among them (`lost`), so
 * that a huge bad list costs time linear in it and memory bounded by the cap.
 * {@link validationError} turns it into the error.
 *
 * @internal
 */
export type Issues = Issue[] & { more?: number; lost?: IssueCode }

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
 * An object key as a path segment: cut to its first 64 UTF-16 units and `…` when longer
 * (docs/rules.md C3, bounded errors), and each lone surrogate written as U+FFFD (one left by
 * the cut too), so that a path, and the error that holds it, is storable text (docs/rules.md
 * C12, the `text` format).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { keySegment } from './fields.js'
 * assert.strictEqual(keySegment('note'), 'note')
 * assert.strictEqual(keySegment('k'.repeat(100)), 'k'.repeat(64) + '…')
 * assert.strictEqual(keySegment('a\ud800'), 'a\ufffd')
 * assert.strictEqual(keySegment('k'.repeat(63) + '😀'), 'k'.repeat(63) + '\ufffd…')
 */
export const keySegment = (key: string): string => toWellFormed(key.length > 64 ? `${key.slice(0, 64)}…` : key)

/**
 * Pushes the issue of `reason` at `path` (`ValidationFailed` unless `code` says otherwise); past
 * 100 issues only counts it. `path` may be a function, called only when the issue is kept.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { fail, type Issues } from './fields.js'
 * const issues: Issues = []
 * fail(issues, 'grossAmount', 'too_small', { min: 1 })
 * assert.deepStrictEqual(issues, [{ path: 'grossAmount', code: 'ValidationFailed', reason: 'too_small', params: { min: 1 }, message: 'Must be at least 1.' }])
 */
export const fail = (
  issues: Issues,
  path: string | (() => string),
  reason: IssueReason,
  params?: IssueParams,
  code: IssueCode = 'ValidationFailed'
): void => {
  if (issues.length < MAX_ISSUES) {
    issues.push(issue(typeof path === 'string' ? path : path(), reason, params, code))
    return
  }
  issues.more = ((own(issues, 'more') as number | undefined) ?? 0) + 1
  // MissingCustomerExternalID, the first code in precedence, is checked after GrossAmountMismatch
  if (code !== 'ValidationFailed') issues.lost = code
}

/** The params of `type` issues, one object each. @internal */
export const STRING = { expected: 'string' } as const
/** @internal */
export const NUMBER = { expected: 'number' } as const
/** @internal */
export const OBJECT = { expected: 'object' } as const
/** @internal */
export const ARRAY = { expected: 'array' } as const

/**
 * True when `u` is an object; else pushes a `type` issue (expected `object`) at its path (as
 * {@link pathOf} builds it for the object itself). A `null` list entry is an entry of the wrong
 * type too, not a missing one (a hole is that): docs/decisions.md "Forms: null and empty fields".
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isObject, type Issues } from './fields.js'
 * const issues: Issues = []
 * assert.strictEqual(isObject(issues, null, 'moneySplitList', 0), false)
 * assert.deepStrictEqual(issues.map((i) => [i.path, i.reason]), [['moneySplitList.0', 'type']])
 */
export const isObject = (issues: Issues, u: unknown, base: string, index: number): u is Obj => {
  if (typeof u === 'object' && u !== null && !Array.isArray(u)) return true
  fail(issues, pathOf(base, index, ''), 'type', OBJECT)
  return false
}

// -------------------------------------------------------------------------------------
// field rules
// -------------------------------------------------------------------------------------

/**
 * What a broken rule says: the reason and its params.
 *
 * @internal
 */
export type Broken = readonly [IssueReason, IssueParams?]

/**
 * A rule of a field: `undefined` when the (present) value `v` keeps it, else what is wrong.
 *
 * @internal
 */
export type Rule = (v: unknown) => Broken | undefined

/**
 * A string of at most `max` UTF-16 units, not empty when `nonEmpty`, and unless `wellFormed` is
 * false (the rules {@link ID}, {@link NAME}, {@link DESCRIPTION}; a request's strings are all
 * checked) in the `text` format: no lone surrogate (docs/rules.md C12), checked after the length,
 * as every format is.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { text } from './fields.js'
 * assert.strictEqual(text(3, true)('abc'), undefined)
 * assert.deepStrictEqual(text(3, true)(''), ['too_short', { min: 1 }])
 * assert.deepStrictEqual(text(3, false)('abcd'), ['too_long', { max: 3 }])
 * assert.deepStrictEqual(text(3, false)(3), ['type', { expected: 'string' }])
 * assert.deepStrictEqual(text(3, false)('a\ud800'), ['format', { format: 'text' }])
 * assert.strictEqual(text(3, false, false)('a\ud800'), undefined)
 */
export const text =
  (max: number, nonEmpty: boolean, wellFormed = true): Rule =>
  (v) =>
    typeof v !== 'string'
      ? ['type', STRING]
      : v.length > max
        ? ['too_long', { max }]
        : nonEmpty && v === ''
          ? ['too_short', { min: 1 }]
          : wellFormed && !isWellFormed(v)
            ? NOT_TEXT
            : undefined

/**
 * A string that `ok` accepts (each `ok` checks the length first, so this stays linear), else a
 * `format` issue naming `name`; a string longer than `max` is `too_long` (`{ max }`), not
 * `format`, as the reason table of docs/rules.md C12 says of every string past its limit.
 * A string holding a lone surrogate that `ok` refuses is `text` (docs/rules.md C12): no format
 * of paysplit holds one, so that is what is wrong with it; with `wellFormed` (a request's e-mail
 * address and URLs, formats that would hold one) also a string `ok` accepts.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { format } from './fields.js'
 * const digits = format((s) => /^\d+$/.test(s), 'digits', 4)
 * assert.strictEqual(digits('123'), undefined)
 * assert.deepStrictEqual(digits('12a'), ['format', { format: 'digits' }])
 * assert.deepStrictEqual(digits('12345'), ['too_long', { max: 4 }])
 * assert.deepStrictEqual(digits('1\ud800'), ['format', { format: 'text' }])
 */
export const format = (ok: (s: string) => boolean, name: string, max = Infinity, wellFormed = false): Rule => {
  const params = { format: name }
  // a string within `max` (else `type` or `too_long`), then in its format (one closure: a
  // request's every UUID, e-mail address and URL runs through it)
  return (v) => {
    if (typeof v !== 'string') return ['type', STRING]
    if (v.length > max) return ['too_long', { max }]
    return ok(v) ? (wellFormed && !isWellFormed(v) ? NOT_TEXT : undefined) : (notText(v) ?? ['format', params])
  }
}

/** `too_big` past the safe range (docs/rules.md C12): above 2^53 − 1. @internal */
export const UNSAFE: Broken = ['too_big', { max: Number.MAX_SAFE_INTEGER }]

/**
 * A safe integer of at least `min`. A number past the safe range is out of bounds, not a
 * fraction: above 2^53 it is `too_big` (`{ max: 2^53 − 1 }`), below −2^53 `too_small`; 2^53 and
 * −2^53 themselves stay `not_integer`, as the reason table says ("2^53 included": the first
 * integer a double cannot tell from its neighbour, docs/decisions.md "Numbers past the safe range").
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { integer } from './fields.js'
 * assert.deepStrictEqual(integer(1)(0), ['too_small', { min: 1 }])
 * assert.deepStrictEqual(integer(1)(1.5), ['not_integer'])
 * assert.deepStrictEqual(integer(1)('1'), ['type', { expected: 'number' }])
 * assert.deepStrictEqual(integer(1)(1e20), ['too_big', { max: Number.MAX_SAFE_INTEGER }])
 * assert.deepStrictEqual(integer(1)(2 ** 53), ['not_integer'])
 * assert.deepStrictEqual(integer(1)(-1e20), ['too_small', { min: 1 }])
 */
export const integer = (min: number): Rule => {
  const params = { min }
  return (v) =>
    typeof v !== 'number'
      ? ['type', NUMBER]
      : Number.isSafeInteger(v)
        ? v < min
          ? ['too_small', params]
          : undefined
        : v > 2 ** 53
          ? UNSAFE
          : v < -(2 ** 53)
            ? ['too_small', params]
            : ['not_integer']
}

/**
 * One of `values`, exactly; a string holding a lone surrogate is `text` (docs/rules.md C12).
 *
 * @internal
 */
export const oneOf = (...values: ReadonlyArray<string | boolean>): Rule => {
  const params = { allowed: values }
  return (v) => (values.includes(v as string) ? undefined : notText(v) ?? ['not_one_of', params])
}

/** What a string breaks that holds a lone surrogate: the `text` format (docs/rules.md C12). @internal */
export const NOT_TEXT: Broken = ['format', { format: 'text' }]

/** {@link NOT_TEXT} for a string holding a lone surrogate (whatever else is wrong with it), else `undefined`. @internal */
export const notText = (v: unknown): Broken | undefined => (typeof v === 'string' && !isWellFormed(v) ? NOT_TEXT : undefined)

/** Identifying strings: non-empty, at most 255 units. @internal */
export const ID = /* @__PURE__ */ text(MAX_STRING_LENGTH, true, false)
/** Names: may be empty. @internal */
export const NAME = /* @__PURE__ */ text(MAX_STRING_LENGTH, false, false)
/** Descriptions. @internal */
export const DESCRIPTION = /* @__PURE__ */ text(MAX_DESCRIPTION_LENGTH, false, false)
/** UUIDs, in either case. @internal */
export const UUID = /* @__PURE__ */ format(isUuid, 'uuid')
/** Absolute http(s) URLs. @internal */
export const URL_RULE = /* @__PURE__ */ format(isHttpUrlWithin, 'url', MAX_URL_LENGTH)
/** Amounts, in minor units. @internal */
export const AMOUNT = /* @__PURE__ */ integer(0)
/** grossAmount, splitID, version. @internal */
export const POSITIVE = /* @__PURE__ */ integer(1)
/** Flags. @internal */
export const BOOLEAN: Rule = (v) => (typeof v === 'boolean' ? undefined : ['type', { expected: 'boolean' }])
/** The environment of a payment. @internal */
export const ENVIRONMENT = /* @__PURE__ */ oneOf('test', 'production')
/** The gateway of a payment. @internal */
export const GATEWAY = /* @__PURE__ */ oneOf('creditcard', 'invoice')
/**
 * Currencies: a listed ISO 4217 code whose minor unit is a hundredth (docs/rules.md C3, currency).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { CURRENCY } from './fields.js'
 * assert.strictEqual(CURRENCY('NOK'), undefined)
 * assert.deepStrictEqual(CURRENCY('JPY'), ['currency_minor_unit'])
 * assert.deepStrictEqual(CURRENCY('XYZ'), ['unknown_currency'])
 */
export const CURRENCY: Rule = (v) => {
  if (typeof v !== 'string') return ['type', STRING]
  const listed = hundredths(v)
  return listed === undefined ? (notText(v) ?? ['unknown_currency']) : listed ? undefined : ['currency_minor_unit']
}
/** Timestamps: ISO 8601 UTC with fractional seconds. @internal */
export const TIMESTAMP = /* @__PURE__ */ format(isTimestamp, 'timestamp')
/** The customer's e-mail address. @internal */
export const EMAIL = /* @__PURE__ */ format(isEmailWithin, 'email', MAX_EMAIL_LENGTH)
/** The customer's mobile prefix. @internal */
export const MOBILE_PREFIX = /* @__PURE__ */ format(isMobilePrefix, 'mobilePrefix')
/** The customer's mobile number. @internal */
export const MOBILE = /* @__PURE__ */ format(isMobileNumber, 'mobile')

/**
 * Checks the value `v` of the field `key` of the object at (`base`, `index`): returns it (`-0`
 * as `0`) when it is present and keeps `rule`; else `undefined`, with an issue when it is
 * present, or absent and `required`. A `null` where a value is needed (`required`) is `required`
 * too; a `null` optional field is present and breaks its rule (`type`), docs/rules.md C12.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { AMOUNT, check, type Issues } from './fields.js'
 * const issues: Issues = []
 * assert.strictEqual(check(issues, 5, 'moneySplitList', 0, 'amount', AMOUNT), 5)
 * assert.strictEqual(check(issues, -1, 'moneySplitList', 0, 'amount', AMOUNT), undefined)
 * assert.strictEqual(check(issues, undefined, '', -1, 'grossAmount', AMOUNT, true), undefined)
 * assert.strictEqual(check(issues, null, '', -1, 'grossAmount', AMOUNT, true), undefined)
 * assert.strictEqual(check(issues, null, 'moneySplitList', 0, 'amount', AMOUNT), undefined)
 * assert.deepStrictEqual(issues.map((i) => [i.path, i.reason]), [
 *   ['moneySplitList.0.amount', 'too_small'],
 *   ['grossAmount', 'required'],
 *   ['grossAmount', 'required'],
 *   ['moneySplitList.0.amount', 'type']
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
  const broken: Broken | undefined =
    v === undefined || (v === null && required) ? (required ? ['required'] : undefined) : rule(v)
  if (broken === undefined) return v === 0 ? 0 : v
  report(issues, () => pathOf(base, index, key), broken)
  return undefined
}

/**
 * The issue of a broken rule at `path`, if it is broken.
 *
 * @internal
 */
export const report = (issues: Issues, path: string | (() => string), broken: Broken | undefined): void => {
  // a rule's tuple may be one entry long: its params are read as an own entry only
  if (broken !== undefined) fail(issues, path, broken[0], own(broken, 1) as IssueParams | undefined)
}

/** A field of an object: its key, its rule, and whether it is required (absent: optional). */
export type Field = readonly [key: string, rule: Rule, required?: boolean]

/**
 * Checks the `fields` of the object `u` in their order with {@link check}, each own property read
 * once, and sets each on `out`: a required one always (its value is used only when no issue was
 * found, and then it holds), an optional one only when given, so that an absent one stays absent.
 * For objects read once per call (a request, a customer, a stored state's top level); the lists'
 * entries, read 100 000 times, read each field at its own call site instead.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { AMOUNT, checkFields, ID, type Issues } from './fields.js'
 * const issues: Issues = []
 * const out = checkFields(issues, { a: 5, b: 'x' }, '', -1, [['a', AMOUNT, true], ['b', ID], ['c', ID]], {})
 * assert.deepStrictEqual(out, { a: 5, b: 'x' })
 * assert.strictEqual(issues.length, 0)
 */
export const checkFields = (
  issues: Issues,
  u: Obj,
  base: string,
  index: number,
  fields: ReadonlyArray<Field>,
  out: Obj
): Obj => {
  for (let i = 0; i < fields.length; i++) {
    const [key, rule, required] = fields[i] as Field
    const v = check(issues, hasOwn(u, key) ? u[key] : undefined, base, index, key, rule, required)
    if (v !== undefined || required === true) out[key] = v
  }
  return out
}

/**
 * The error of a command-level field (`kid`, `paymentReferenceID`, `at`, `type`, a transfer's
 * `amount`…) that `rule` refuses, or that is absent when `required`; `undefined` when it is fine.
 * For the decider, which checks such fields one at a time.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { fieldError, POSITIVE } from './fields.js'
 * assert.strictEqual(fieldError('amount', 5, POSITIVE), undefined)
 * assert.strictEqual(fieldError('amount', 0, POSITIVE)?.issues?.[0]?.reason, 'too_small')
 * assert.strictEqual(fieldError('amount', undefined, POSITIVE)?.issues?.[0]?.reason, 'required')
 */
export const fieldError = (path: string, v: unknown, rule: Rule, required = true): PaymentError | undefined => {
  const issues: Issues = []
  check(issues, v, '', -1, path, rule, required)
  // by length, not `issues[0]`: an empty list's index 0 is read through a polluted prototype
  if (issues.length === 0) return undefined
  const first = issues[0] as Issue
  return invalid(path, first.reason, own(first, 'params') as IssueParams | undefined)
}
