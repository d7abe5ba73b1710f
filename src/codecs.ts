/**
 * `paysplit/codecs`: the validation layer of the wire bodies a caller sends, small enough for a
 * front-end form. It holds the io-ts codecs of the payment-intent request (seed §2.1) and of the
 * money-split patch (seed §2.5), `decode*` functions returning `Either<PaymentError, T>`, and
 * the format predicates a form needs field by field.
 *
 * Every rule of SPEC §3 is checked and every problem is collected, each as an
 * {@link Issue} `{ path, code, message }` with a path relative to the body
 * (`moneySplitList.1.amount`) and a message that is one sentence, the path then the rule broken
 * (`moneySplitList.1.amount must be a safe integer of at least 0.`; "The input" stands for the
 * empty path of the body itself). Decoding:
 *
 * - reads every property of the input once, and only own properties (inherited ones count as
 *   absent); a property whose value is `undefined` counts as absent too; `null` is never a
 *   stand-in for an absent optional field (it is rejected), except that a `null`
 *   `customerExternalID` is reported as missing;
 * - returns a fresh plain object holding only the known fields: unknown fields are dropped
 *   silently, absent optional strings stay absent, `webhookSubscriptions` defaults to `[]`,
 *   `metaData` to `{}`, webhook event types are normalised to their short form, and `-0`
 *   amounts become `0`;
 * - never mutates, freezes or keeps the input, never touches a prototype, and runs in time
 *   linear in the input (length limits are checked before formats; no backtracking regular
 *   expression);
 * - never throws on data (JSON or any plain JavaScript value); only a hostile input whose getter
 *   or proxy trap throws makes it throw, and `transition` catches that.
 *
 * Lengths are counted in UTF-16 code units (`string.length`). A list longer than its limit
 * (500 splits, 20 subscriptions, 50 metaData keys) gets one issue, and only its first entries,
 * up to the limit, are checked further. An array with a hole gets an issue at the hole, and the
 * entries after it are not checked.
 *
 * @module codecs
 */
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { validationError } from './errors.js'
import type { Issue, PaymentError } from './errors.js'
import { currencyCodes, isCurrencyCode } from './currencies.js'
import type {
  Customer as CustomerType,
  Environment,
  MetaData,
  MoneySplitPatch as MoneySplitPatchType,
  MoneySplitRequest as MoneySplitRequestType,
  PatchEntry,
  PaymentGateway,
  PaymentIntentRequest as PaymentIntentRequestType,
  UpdateType,
  WebhookEventType,
  WebhookSubscription as WebhookSubscriptionType
} from './requests.js'
import {
  AMOUNT,
  BOOLEAN,
  check,
  CURRENCY,
  DESCRIPTION,
  EMAIL,
  ENVIRONMENT,
  fail,
  GATEWAY,
  ID,
  isObject,
  isRecord,
  type Issues,
  MOBILE,
  MOBILE_PREFIX,
  NAME,
  type Obj,
  oneOf,
  pathOf,
  POSITIVE,
  type Rule,
  URL_RULE,
  UUID
} from './fields.js'
import {
  isEmail,
  isHttpUrl,
  isUuid,
  MAX_DESCRIPTION_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_SPLITS,
  MAX_STRING_LENGTH,
  MAX_SUBSCRIPTIONS,
  MAX_URL_LENGTH,
  parseWebhookEventType,
  webhookEventTypes
} from './validators.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The payment-intent request, body of `POST /payments` (seed §2.1), as decoded.
 *
 * @example
 * import type { PaymentIntentRequest } from 'paysplit/codecs'
 * const env: PaymentIntentRequest['environment'] = 'test'
 */
export type PaymentIntentRequest = PaymentIntentRequestType
/**
 * The money-split patch, body of partial refund and invoice adjustment (seed §2.5), as decoded.
 *
 * @example
 * import type { MoneySplitPatch } from 'paysplit/codecs'
 * const patch: MoneySplitPatch = { moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }], newGrossAmount: 0 }
 */
export type MoneySplitPatch = MoneySplitPatchType
/**
 * A money-split entry of the create request (seed §2.2), as decoded.
 *
 * @example
 * import type { MoneySplitRequest } from 'paysplit/codecs'
 * const split: MoneySplitRequest = { connectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f', amount: 100, isFee: false }
 */
export type MoneySplitRequest = MoneySplitRequestType
/**
 * A customer as the create request carries it (seed §2.3), as decoded.
 *
 * @example
 * import type { Customer } from 'paysplit/codecs'
 * const customer: Customer = { name: 'Kari Nordmann', customerType: 'Individual' }
 */
export type Customer = CustomerType
/**
 * A per-payment webhook subscription, as decoded (event type in its short form).
 *
 * @example
 * import type { WebhookSubscription } from 'paysplit/codecs'
 * const sub: WebhookSubscription = { eventType: 'Charged', url: 'https://shop.example.com/hooks' }
 */
export type WebhookSubscription = WebhookSubscriptionType
export type {
  Issue,
  PaymentError,
  PatchEntry,
  MetaData,
  WebhookEventType,
  Environment,
  PaymentGateway
}

/**
 * What a collector found: every issue, and the decoded value exactly when there is none.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { validateMoneySplitPatch, type Validated } from 'paysplit/codecs'
 * const r: Validated<unknown> = validateMoneySplitPatch({ moneySplitPatch: [], newGrossAmount: 0 })
 * assert.strictEqual(r.issues.length, 0)
 */
export interface Validated<A> {
  readonly issues: ReadonlyArray<Issue>
  readonly value?: A
}

const MAX_STRING = MAX_STRING_LENGTH
const MAX_DESCRIPTION = MAX_DESCRIPTION_LENGTH
const MAX_METADATA_KEY = MAX_METADATA_KEY_LENGTH
const MAX_METADATA_VALUE = MAX_METADATA_VALUE_LENGTH

/**
 * The limits of SPEC §3, for forms (an input's `maxlength`, a list's maximum size).
 * Lengths are in UTF-16 code units.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { limits } from 'paysplit/codecs'
 * assert.strictEqual(limits.moneySplits, 500)
 * assert.strictEqual(limits.descriptionLength, 1000)
 */
export const limits = /* @__PURE__ */ Object.freeze({
  /** identifiers, names, tags and every other string not listed below */
  stringLength: MAX_STRING,
  /** the payment's and the splits' descriptions */
  descriptionLength: MAX_DESCRIPTION,
  urlLength: MAX_URL_LENGTH,
  emailLength: MAX_EMAIL_LENGTH,
  moneySplits: MAX_SPLITS,
  webhookSubscriptions: MAX_SUBSCRIPTIONS,
  metaDataKeys: MAX_METADATA_KEYS,
  metaDataKeyLength: MAX_METADATA_KEY,
  metaDataValueLength: MAX_METADATA_VALUE
})

// -------------------------------------------------------------------------------------
// internals
// -------------------------------------------------------------------------------------

// The generic field check, the issues and the rules per kind of field live in src/fields.ts,
// shared with `validateState`; what only a request needs stays here.

/** `Object.prototype.hasOwnProperty`, unbound from any input (an input may shadow it). */
const hasOwn = (o: object, key: PropertyKey): boolean =>
  Object.prototype.hasOwnProperty.call(o, key)

/** The own property `key` of `o`, read once; `undefined` when `o` has no such own property. */
const read = (o: object, key: string): unknown => (hasOwn(o, key) ? (o as Obj)[key] : undefined)

const UPDATE_TYPE = /* @__PURE__ */ oneOf('UpdateAmount', 'DoDeleteSplitEntry', 'DoNothing')

/** Reads the field `key` of `from` once and checks it, as {@link check} does. */
const get = (
  issues: Issues,
  from: Obj,
  base: string,
  index: number,
  key: string,
  rule: Rule,
  required = false
): unknown => check(issues, read(from, key), base, index, key, rule, required)

// -------------------------------------------------------------------------------------
// lists
// -------------------------------------------------------------------------------------

/**
 * The length of the list `v` at `path`, read once; -1 when `v` is no array (with an issue unless
 * it is absent and optional). A list of more than `max` entries gets an issue too.
 */
const listLength = (
  issues: Issues,
  v: unknown,
  path: string,
  max: number,
  entries: string,
  required: boolean
): number => {
  if (!Array.isArray(v)) {
    if (v !== undefined || required) {
      fail(issues, path, v === undefined ? 'is required' : `must be an array of ${entries}`)
    }
    return -1
  }
  const n = (v as ReadonlyArray<unknown>).length
  if (n > max) fail(issues, path, `must hold at most ${max} ${entries}`)
  return n
}

/** True when `list` has a hole at `i` (an issue is pushed): the walk stops there. */
const hole = (issues: Issues, list: ReadonlyArray<unknown>, path: string, i: number): boolean => {
  if (hasOwn(list, i)) return false
  fail(issues, `${path}.${i}`, 'is missing (a hole in the array)')
  return true
}

// -------------------------------------------------------------------------------------
// collectors: parts of the payment-intent request
// -------------------------------------------------------------------------------------

// Each collector checks its fields in the order of the seed, which is also the key order of the
// fresh object it builds: required fields are always set (the value is used only when there is
// no issue, and then they hold), optional ones only when given, so that absent ones stay absent.

/**
 * One split of `moneySplitList` (or a lone split when `base` is ''). Its fields are read at their
 * own call sites (`hasOwn(u, 'amount') ? u.amount : undefined`), not through {@link get}: a
 * request holds up to 500 splits, and a property access of its own is several times faster than
 * one that every field shares.
 */
const checkSplit = (issues: Issues, u: unknown, base: string, index: number): Obj | undefined => {
  if (!isObject(issues, u, base, index)) return undefined
  const split: Obj = {
    connectedAccountID: check(
      issues,
      hasOwn(u, 'connectedAccountID') ? u.connectedAccountID : undefined,
      base,
      index,
      'connectedAccountID',
      UUID,
      true
    ),
    amount: check(
      issues,
      hasOwn(u, 'amount') ? u.amount : undefined,
      base,
      index,
      'amount',
      AMOUNT,
      true
    )
  }
  const description = check(
    issues,
    hasOwn(u, 'description') ? u.description : undefined,
    base,
    index,
    'description',
    DESCRIPTION
  )
  if (description !== undefined) split.description = description
  split.isFee = check(
    issues,
    hasOwn(u, 'isFee') ? u.isFee : undefined,
    base,
    index,
    'isFee',
    BOOLEAN,
    true
  )
  const externalID = check(
    issues,
    hasOwn(u, 'externalID') ? u.externalID : undefined,
    base,
    index,
    'externalID',
    ID
  )
  if (externalID !== undefined) split.externalID = externalID
  return split
}

/**
 * `moneySplitList`: the splits, with the rules across them (one fee account, a safe sum). Returns
 * their sum; NaN unless the list holds 1..500 entries, every amount is valid and the sum is safe.
 */
const checkSplits = (issues: Issues, v: unknown, out: Obj): number => {
  const path = 'moneySplitList'
  const n = listLength(issues, v, path, MAX_SPLITS, 'splits', true)
  if (n === 0) fail(issues, path, 'must hold at least one split')
  const list = v as ReadonlyArray<unknown>
  const splits: Obj[] = []
  out.moneySplitList = splits
  // NaN as soon as the sum cannot be known: an invalid amount (undefined) makes it NaN too
  let sum = n >= 1 && n <= MAX_SPLITS ? 0 : NaN
  let feeIndex = -1
  let feeAccount!: string // set with feeIndex, read only once feeIndex ≥ 0
  for (let i = 0; i < n && i < MAX_SPLITS; i++) {
    if (hole(issues, list, path, i)) return NaN
    const split = checkSplit(issues, list[i], path, i) ?? {}
    sum += split.amount as number
    if (sum > Number.MAX_SAFE_INTEGER) {
      fail(issues, path, `amounts must add up to at most ${Number.MAX_SAFE_INTEGER}`)
      sum = NaN
    }
    const account = split.connectedAccountID as string | undefined
    if (split.isFee === true && account !== undefined) {
      const key = account.toLowerCase()
      if (feeIndex < 0) {
        feeIndex = i
        feeAccount = key
      } else if (key !== feeAccount) {
        fail(
          issues,
          `${path}.${i}.connectedAccountID`,
          `must be the fee account of ${path}.${feeIndex}`
        )
      }
    }
    splits.push(split)
  }
  return sum
}

const checkCustomer = (
  issues: Issues,
  u: unknown,
  base: string,
  index: number
): Obj | undefined => {
  if (!isObject(issues, u, base, index)) return undefined
  const name = get(issues, u, base, index, 'name', NAME)
  const email = get(issues, u, base, index, 'email', EMAIL)
  const mobilePrefix = get(issues, u, base, index, 'mobilePrefix', MOBILE_PREFIX)
  const mobile = get(issues, u, base, index, 'mobile', MOBILE)
  const customerType = get(issues, u, base, index, 'customerType', ID)
  const customer: Obj = {}
  if (name !== undefined) customer.name = name
  if (email !== undefined) customer.email = email
  if (mobilePrefix !== undefined) customer.mobilePrefix = mobilePrefix
  if (mobile !== undefined) customer.mobile = mobile
  if (customerType !== undefined) customer.customerType = customerType
  return customer
}

const checkSubscription = (
  issues: Issues,
  u: unknown,
  base: string,
  index: number
): Obj | undefined => {
  if (!isObject(issues, u, base, index)) return undefined
  const raw = read(u, 'eventType')
  const eventType = parseWebhookEventType(raw)
  if (eventType === undefined) {
    fail(
      issues,
      pathOf(base, index, 'eventType'),
      raw === undefined
        ? 'is required'
        : `must be one of ${webhookEventTypes.join(', ')} (or the same + "Payment")`
    )
  }
  return { eventType, url: get(issues, u, base, index, 'url', URL_RULE, true) }
}

const checkSubscriptions = (issues: Issues, v: unknown): Obj[] => {
  const path = 'webhookSubscriptions'
  const n = listLength(issues, v, path, MAX_SUBSCRIPTIONS, 'subscriptions', false)
  const list = v as ReadonlyArray<unknown>
  // used only when every entry is valid
  const subscriptions: Obj[] = []
  for (let i = 0; i < n && i < MAX_SUBSCRIPTIONS && !hole(issues, list, path, i); i++) {
    subscriptions.push(checkSubscription(issues, list[i], path, i) as Obj)
  }
  return subscriptions
}

const checkMetaData = (issues: Issues, v: unknown): MetaData => {
  if (v === undefined || !isObject(issues, v, 'metaData', -1)) return {}
  // Object spread reads each own enumerable property of the input once and defines it on a fresh
  // plain object as an own data property (CopyDataProperties): a `__proto__` or `constructor` key
  // stays plain data and no prototype is touched. The rest works on that copy only.
  const copy: Record<PropertyKey, unknown> = { ...v }
  const keys = Object.keys(copy)
  const n = keys.length
  if (n > MAX_METADATA_KEYS) fail(issues, 'metaData', `must have at most ${MAX_METADATA_KEYS} keys`)
  for (let i = 0; i < n && i < MAX_METADATA_KEYS; i++) {
    const key = keys[i] as string
    if (key.length === 0 || key.length > MAX_METADATA_KEY) {
      fail(issues, `metaData.${key}`, `key must be 1–${MAX_METADATA_KEY} characters`)
    }
    const value = copy[key]
    if (typeof value === 'string') {
      if (value.length > MAX_METADATA_VALUE) {
        fail(issues, `metaData.${key}`, `must be at most ${MAX_METADATA_VALUE} characters`)
      }
    } else if (value !== null && typeof value !== 'boolean' && !Number.isFinite(value)) {
      fail(issues, `metaData.${key}`, 'must be a string, finite number, boolean or null')
    }
  }
  // Symbol-keyed properties are not data a JSON body can carry: dropped like unknown fields.
  for (const symbol of Object.getOwnPropertySymbols(copy)) Reflect.deleteProperty(copy, symbol)
  return copy as MetaData
}

/** The whole request, field by field in the order of seed §2.1. */
const checkRequest = (issues: Issues, u: unknown): Obj | undefined => {
  if (!isObject(issues, u, '', -1)) return undefined
  const out: Obj = {
    externalPaymentReferenceID: get(issues, u, '', -1, 'externalPaymentReferenceID', ID, true),
    environment: get(issues, u, '', -1, 'environment', ENVIRONMENT, true),
    paymentGateway: get(issues, u, '', -1, 'paymentGateway', GATEWAY, true)
  }
  // Required for card payments, optional for invoices; when the gateway itself is invalid only
  // its type is checked.
  const card = out.paymentGateway === 'creditcard'
  const chargeImmediately = get(issues, u, '', -1, 'chargeImmediately', BOOLEAN, card)
  if (chargeImmediately !== undefined) out.chargeImmediately = chargeImmediately
  out.sellerConnectedAccountID = get(issues, u, '', -1, 'sellerConnectedAccountID', UUID, true)
  const externalObjectIdTag = get(issues, u, '', -1, 'externalObjectIdTag', ID)
  if (externalObjectIdTag !== undefined) out.externalObjectIdTag = externalObjectIdTag
  const description = get(issues, u, '', -1, 'description', DESCRIPTION)
  if (description !== undefined) out.description = description
  const grossAmount = get(issues, u, '', -1, 'grossAmount', POSITIVE, true)
  out.grossAmount = grossAmount
  out.currency = get(issues, u, '', -1, 'currency', CURRENCY, true)
  const sum = checkSplits(issues, read(u, 'moneySplitList'), out)
  if (grossAmount !== undefined && sum !== grossAmount && !Number.isNaN(sum)) {
    fail(
      issues,
      'grossAmount',
      `must be the sum of the split amounts, ${sum}`,
      'GrossAmountMismatch'
    )
  }
  const customerID = read(u, 'customerExternalID')
  if (customerID === undefined || customerID === null || customerID === '') {
    fail(issues, 'customerExternalID', 'is required', 'MissingCustomerExternalID')
  } else {
    out.customerExternalID = check(issues, customerID, '', -1, 'customerExternalID', ID)
  }
  const customer = read(u, 'customer')
  if (customer !== undefined) out.customer = checkCustomer(issues, customer, 'customer', -1)
  out.webhookSubscriptions = checkSubscriptions(issues, read(u, 'webhookSubscriptions'))
  out.successUrl = get(issues, u, '', -1, 'successUrl', URL_RULE, true)
  out.failedUrl = get(issues, u, '', -1, 'failedUrl', URL_RULE, true)
  out.metaData = checkMetaData(issues, read(u, 'metaData'))
  return out
}

/**
 * Runs the collector `checkPart` on `u` alone (at the root): every issue, and the value exactly
 * when there is none.
 */
const collect =
  <A>(checkPart: (issues: Issues, u: unknown, base: string, index: number) => Obj | undefined) =>
  (u: unknown): Validated<A> => {
    const issues: Issues = []
    const value = checkPart(issues, u, '', -1)
    return issues.length === 0 ? { issues, value: value as A } : { issues }
  }

// -------------------------------------------------------------------------------------
// collectors
// -------------------------------------------------------------------------------------

/**
 * Checks a payment-intent request (seed §2.1) against every rule of SPEC §3 and collects every
 * problem: `issues` lists them in field order, each with its path and code
 * (`MissingCustomerExternalID`, `ValidationFailed` or `GrossAmountMismatch`); `value`, the fresh
 * decoded request, is present exactly when `issues` is empty. Unknown fields are dropped.
 * `GrossAmountMismatch` is reported (at `grossAmount`) only when `grossAmount` and every split
 * amount are valid and the sum is safe. The caller turns the issues into one error with
 * {@link validationError}.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { validatePaymentIntentRequest } from 'paysplit/codecs'
 * const { issues, value } = validatePaymentIntentRequest({ grossAmount: 0 })
 * assert.strictEqual(value, undefined)
 * assert.ok(issues.some((i) => i.path === 'customerExternalID' && i.code === 'MissingCustomerExternalID'))
 * assert.ok(issues.some((i) => i.path === 'grossAmount' && i.code === 'ValidationFailed'))
 */
export const validatePaymentIntentRequest: (input: unknown) => Validated<PaymentIntentRequestType> =
  /* @__PURE__ */ collect(checkRequest)

/**
 * Where the entries of a money-split patch go as they pass their checks, in order: `value` is the
 * `newAmount` of an `UpdateAmount` entry, the `doDelete` of a `DoDeleteSplitEntry`, `undefined`
 * for `DoNothing`. {@link validateMoneySplitPatch} builds fresh entry objects; the decider keeps
 * the entries in columns of numbers instead (a patch may name 100 000 splits).
 *
 * @internal
 */
export type PatchEntrySink = (splitID: number, updateType: UpdateType, value: number | boolean | undefined) => void

/** Checks one patch entry; when it is valid, hands it to `put`. */
const checkPatchEntry = (
  issues: Issues,
  u: unknown,
  base: string,
  index: number,
  put: PatchEntrySink
): void => {
  if (!isObject(issues, u, base, index)) return
  // each field read at its own call site, as in checkSplit: a patch may name 100 000 splits
  const splitID = check(issues, hasOwn(u, 'splitID') ? u.splitID : undefined, base, index, 'splitID', POSITIVE, true)
  const updateType = check(issues, hasOwn(u, 'updateType') ? u.updateType : undefined, base, index, 'updateType', UPDATE_TYPE, true)
  // the field the update type needs; null for DoNothing, which needs none
  const value =
    updateType === 'UpdateAmount'
      ? check(issues, hasOwn(u, 'newAmount') ? u.newAmount : undefined, base, index, 'newAmount', AMOUNT, true)
      : updateType === 'DoDeleteSplitEntry'
        ? check(issues, hasOwn(u, 'doDelete') ? u.doDelete : undefined, base, index, 'doDelete', BOOLEAN, true)
        : null
  if (splitID !== undefined && updateType !== undefined && value !== undefined) {
    put(splitID as number, updateType as UpdateType, (value ?? undefined) as number | boolean | undefined)
  }
}

/**
 * Checks the SHAPE of a money-split patch, as {@link validateMoneySplitPatch} does, handing each
 * valid entry to the sink `start` returns (called once, with the length of the entry array, when
 * there is one). `newGrossAmount` is present exactly when `issues` is empty; the sink's entries
 * are then the whole patch, in order.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { walkMoneySplitPatch } from 'paysplit/codecs'
 * const seen: Array<unknown> = []
 * const r = walkMoneySplitPatch(
 *   { moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 500 }, { splitID: 2, updateType: 'DoNothing' }], newGrossAmount: 800 },
 *   () => (splitID, updateType, value) => seen.push([splitID, updateType, value])
 * )
 * assert.strictEqual(r.newGrossAmount, 800)
 * assert.deepStrictEqual(seen, [[1, 'UpdateAmount', 500], [2, 'DoNothing', undefined]])
 */
export const walkMoneySplitPatch = (
  input: unknown,
  start: (length: number) => PatchEntrySink
): { readonly issues: ReadonlyArray<Issue>; readonly newGrossAmount?: number } => {
  const issues: Issues = []
  if (!isObject(issues, input, '', -1)) return { issues }
  const path = 'moneySplitPatch'
  const raw = read(input, path)
  const n = listLength(issues, raw, path, Infinity, 'patch entries', true)
  if (n >= 0) {
    const list = raw as ReadonlyArray<unknown>
    const put = start(n)
    for (let i = 0; i < n && !hole(issues, list, path, i); i++) {
      checkPatchEntry(issues, list[i], path, i, put)
    }
  }
  const newGrossAmount = get(issues, input, '', -1, 'newGrossAmount', AMOUNT, true)
  return issues.length > 0 ? { issues } : { issues, newGrossAmount: newGrossAmount as number }
}

/**
 * Checks the SHAPE of a money-split patch (seed §2.5; SPEC §3 last sentence): an object with a
 * `moneySplitPatch` array (any length) of entries `{ splitID ≥ 1, updateType, newAmount? ,
 * doDelete? }` — `newAmount` (a safe integer ≥ 0) is required with `UpdateAmount` and ignored
 * otherwise, `doDelete` (a boolean) is required with `DoDeleteSplitEntry` and ignored otherwise —
 * and a `newGrossAmount` (a safe integer ≥ 0). The rules that need the payment (SPEC §4) are
 * `transition`'s. Every issue is `ValidationFailed`; `value` (fresh entries of exactly the
 * {@link PatchEntry} shape) is present exactly when there is none.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { validateMoneySplitPatch } from 'paysplit/codecs'
 * const r = validateMoneySplitPatch({ moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount' }], newGrossAmount: 0 })
 * assert.deepStrictEqual(r.issues.map((i) => i.path), ['moneySplitPatch.0.newAmount'])
 */
export const validateMoneySplitPatch = (input: unknown): Validated<MoneySplitPatchType> => {
  const entries: PatchEntry[] = []
  const { issues, newGrossAmount } = walkMoneySplitPatch(input, () => (splitID, updateType, value) => {
    const entry: Obj = { splitID, updateType }
    if (value !== undefined) entry[updateType === 'UpdateAmount' ? 'newAmount' : 'doDelete'] = value
    entries.push(entry as PatchEntry)
  })
  return newGrossAmount === undefined
    ? { issues }
    : { issues, value: { moneySplitPatch: entries, newGrossAmount } }
}

// -------------------------------------------------------------------------------------
// decoders
// -------------------------------------------------------------------------------------

/**
 * The collector's result as an `Either`. Built as the plain `{ _tag, left | right }` objects that
 * fp-ts's `left`/`right` return, so that this entry needs no fp-ts code at run time (fp-ts's
 * CommonJS build does not tree-shake: importing `right` would add ~25 kB to a front-end bundle).
 */
const toEither = <A>(r: Validated<A>): Either<PaymentError, A> =>
  r.value === undefined
    ? { _tag: 'Left', left: validationError(r.issues) }
    : { _tag: 'Right', right: r.value }

/**
 * Decodes a payment-intent request (body of `POST /payments`, seed §2.1) by every rule of
 * SPEC §3. `Left` holds one `PaymentError` whose `issues` list every problem and whose `code` is
 * the first that applies of `MissingCustomerExternalID`, `ValidationFailed`,
 * `GrossAmountMismatch`; `Right` holds a fresh request with only the known fields (unknown ones
 * are dropped), `webhookSubscriptions` defaulting to `[]`, `metaData` to `{}`, and event types
 * in their short form. Never throws on JSON input; never mutates its input.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { decodePaymentIntentRequest } from 'paysplit/codecs'
 * const request = {
 *   externalPaymentReferenceID: 'order-1001',
 *   environment: 'test',
 *   paymentGateway: 'creditcard',
 *   chargeImmediately: true,
 *   sellerConnectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f',
 *   grossAmount: 10000,
 *   currency: 'NOK',
 *   moneySplitList: [
 *     { connectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f', amount: 9000, isFee: false },
 *     { connectedAccountID: '9d8c7b6a-5f4e-4d3c-8b2a-0f1e2d3c4b5a', amount: 1000, isFee: true }
 *   ],
 *   customerExternalID: 'customer-42',
 *   webhookSubscriptions: [{ eventType: 'ChargedPayment', url: 'https://shop.example.com/hooks' }],
 *   successUrl: 'https://shop.example.com/paid',
 *   failedUrl: 'https://shop.example.com/failed'
 * }
 * const ok = decodePaymentIntentRequest(request)
 * assert.ok(E.isRight(ok) && ok.right.webhookSubscriptions[0]?.eventType === 'Charged')
 * const bad = decodePaymentIntentRequest({ ...request, grossAmount: 9999, customerExternalID: '' })
 * assert.ok(E.isLeft(bad) && bad.left.code === 'MissingCustomerExternalID')
 * assert.deepStrictEqual(E.isLeft(bad) && bad.left.issues?.map((i) => i.path), ['grossAmount', 'customerExternalID'])
 */
export const decodePaymentIntentRequest = (
  input: unknown
): Either<PaymentError, PaymentIntentRequestType> => toEither(validatePaymentIntentRequest(input))

/**
 * Decodes a money-split patch (body of partial refund and invoice adjustment, seed §2.5),
 * checking its shape only: the rules that compare it with the payment (SPEC §4) are
 * `transition`'s. `Left` holds a `ValidationFailed` error listing every problem; `Right` a fresh
 * patch whose entries have exactly the {@link PatchEntry} shape (fields an entry's `updateType`
 * does not use are dropped).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { decodeMoneySplitPatch } from 'paysplit/codecs'
 * const r = decodeMoneySplitPatch({
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'UpdateAmount', newAmount: 5000 },
 *     { splitID: 2, updateType: 'DoNothing', newAmount: 7 }
 *   ],
 *   newGrossAmount: 6000
 * })
 * assert.deepStrictEqual(E.isRight(r) && r.right.moneySplitPatch[1], { splitID: 2, updateType: 'DoNothing' })
 * const bad = decodeMoneySplitPatch({ moneySplitPatch: [{ splitID: 0, updateType: 'Delete' }] })
 * assert.deepStrictEqual(
 *   E.isLeft(bad) && bad.left.issues?.map((i) => i.path),
 *   ['moneySplitPatch.0.splitID', 'moneySplitPatch.0.updateType', 'newGrossAmount']
 * )
 */
export const decodeMoneySplitPatch = (input: unknown): Either<PaymentError, MoneySplitPatchType> =>
  toEither(validateMoneySplitPatch(input))

// -------------------------------------------------------------------------------------
// io-ts codecs
// -------------------------------------------------------------------------------------

/**
 * The io-ts codec `name` of a collector: `decode` gives one io-ts error per issue (context key =
 * the issue's path, message = the issue's message); `is` holds for what the collector accepts
 * and `decoded` (the decoded form) holds for; `encode` is an identity copy.
 */
const codec = <A>(
  name: string,
  collector: (u: unknown) => Validated<A>,
  decoded: (u: Record<string, unknown>) => boolean = () => true
): t.Type<A> => {
  const type: t.Type<A> = new t.Type<A>(
    name,
    (u): u is A => collector(u).value !== undefined && decoded(u as Record<string, unknown>),
    (u, c) => {
      const r = collector(u)
      return r.value === undefined
        ? t.failures(
            r.issues.map((issue) => ({
              value: u,
              context: [...c, { key: issue.path, type, actual: u }],
              message: issue.message
            }))
          )
        : t.success(r.value)
    },
    (a) => collector(a).value ?? a
  )
  return type
}

/** True when the subscription's event type is in its short form (read again). */
const isShortEventType = (s: unknown): boolean => {
  const eventType = isRecord(s) ? read(s, 'eventType') : undefined
  return parseWebhookEventType(eventType) === eventType
}

/**
 * The io-ts codec of the payment-intent request (seed §2.1): `decode` applies every rule of
 * SPEC §3 and gives one io-ts error per issue (context key = the issue's path, message = the
 * issue's message); `is` holds for a valid request in decoded form (`webhookSubscriptions` and
 * `metaData` present, short event types); `encode` is an identity copy.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { PaymentIntentRequest } from 'paysplit/codecs'
 * const r = PaymentIntentRequest.decode({ environment: 'staging' })
 * assert.ok(E.isLeft(r) && r.left.some((e) => e.context.at(-1)?.key === 'environment'))
 */
export const PaymentIntentRequest: t.Type<PaymentIntentRequestType> = /* @__PURE__ */ codec(
  'PaymentIntentRequest',
  validatePaymentIntentRequest,
  (u) => {
    const subscriptions = read(u, 'webhookSubscriptions')
    return (
      isRecord(read(u, 'metaData')) &&
      Array.isArray(subscriptions) &&
      (subscriptions as ReadonlyArray<unknown>).every(isShortEventType)
    )
  }
)

/**
 * The io-ts codec of the money-split patch (seed §2.5), shape only (see
 * {@link decodeMoneySplitPatch}); `encode` is an identity copy.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { MoneySplitPatch } from 'paysplit/codecs'
 * const r = MoneySplitPatch.decode({ moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }], newGrossAmount: 0 })
 * assert.ok(E.isRight(r))
 */
export const MoneySplitPatch: t.Type<MoneySplitPatchType> = /* @__PURE__ */ codec(
  'MoneySplitPatch',
  validateMoneySplitPatch
)

/**
 * The io-ts codec of one money-split entry (seed §2.2), checked on its own (the rules across
 * splits, the shared fee account and the sum, belong to {@link PaymentIntentRequest}).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { MoneySplitRequest } from 'paysplit/codecs'
 * const r = MoneySplitRequest.decode({ connectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f', amount: -1, isFee: false })
 * assert.ok(E.isLeft(r) && r.left[0]?.context.at(-1)?.key === 'amount')
 */
export const MoneySplitRequest: t.Type<MoneySplitRequestType> = /* @__PURE__ */ codec(
  'MoneySplitRequest',
  /* @__PURE__ */ collect<MoneySplitRequestType>(checkSplit)
)

/**
 * The io-ts codec of the customer object (seed §2.3): every field optional, each given one
 * validated as SPEC §3 says.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { Customer } from 'paysplit/codecs'
 * assert.ok(E.isRight(Customer.decode({ name: 'Kari Nordmann', mobilePrefix: '+47', mobile: '91234567' })))
 * assert.ok(E.isLeft(Customer.decode({ email: 'kari@localhost' })))
 */
export const Customer: t.Type<CustomerType> = /* @__PURE__ */ codec(
  'Customer',
  /* @__PURE__ */ collect<CustomerType>(checkCustomer)
)

/**
 * The io-ts codec of a webhook subscription `{ eventType, url }`: the event type in short or
 * long form (decoded to the short form), the url an absolute http(s) URL.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { WebhookSubscription } from 'paysplit/codecs'
 * const r = WebhookSubscription.decode({ eventType: 'RefundedPayment', url: 'https://example.com/h' })
 * assert.deepStrictEqual(E.isRight(r) && r.right, { eventType: 'Refunded', url: 'https://example.com/h' })
 */
export const WebhookSubscription: t.Type<WebhookSubscriptionType> = /* @__PURE__ */ codec(
  'WebhookSubscription',
  /* @__PURE__ */ collect<WebhookSubscriptionType>(checkSubscription),
  isShortEventType
)

// -------------------------------------------------------------------------------------
// format predicates, for forms
// -------------------------------------------------------------------------------------

export { currencyCodes, isCurrencyCode, isEmail, isHttpUrl, isUuid }
