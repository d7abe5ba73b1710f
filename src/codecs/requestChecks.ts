/**
 * The checks of the wire bodies a caller sends, as plain collectors: the payment-intent request
 * (docs/rules.md I2.1) against every rule of docs/rules.md C3, and the money-split patch (docs/rules.md I2.5) against its
 * shape. Each reads its input once and collects every problem as an {@link Issue}; the decoded
 * value comes back exactly when there is none. `paysplit/codecs` wraps these into `decode*`
 * functions and io-ts codecs; the decider uses them directly (and the patch walk into columns of
 * numbers), so the domain does not depend on io-ts. The behaviour every collector shares (own
 * properties only, fresh values, linear time, unknown fields dropped) is described in
 * `src/codecs.ts`.
 *
 * @internal
 * @module requestChecks
 */
import { hasOwn, own } from '../internal/own.js'
import type {
  MetaData,
  MoneySplitPatch as MoneySplitPatchType,
  PatchEntry,
  PaymentIntentRequest as PaymentIntentRequestType,
  UpdateType
} from './requests.js'
import {
  AMOUNT,
  ARRAY,
  BOOLEAN,
  check,
  checkFields,
  CURRENCY,
  ENVIRONMENT,
  fail,
  type Field,
  format,
  GATEWAY,
  isObject,
  type Issues,
  notText,
  MOBILE,
  MOBILE_PREFIX,
  keySegment,
  NUMBER,
  type Obj,
  oneOf,
  pathOf,
  report,
  text,
  POSITIVE,
  UNSAFE,
  type Rule,
  STRING,
  UUID
} from './fields.js'
import {
  isEmailWithin,
  isHttpUrlWithin,
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

/**
 * What a collector found: every issue, and the decoded value exactly when there is none.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { validateMoneySplitPatch, type Validated } from './requestChecks.js'
 * const r: Validated<unknown> = validateMoneySplitPatch({ moneySplitPatch: [], newGrossAmount: 0 })
 * assert.strictEqual(r.issues.length, 0)
 */
export interface Validated<A> {
  readonly issues: Issues
  readonly value: A | undefined
}

// -------------------------------------------------------------------------------------
// internals
// -------------------------------------------------------------------------------------

// The generic field check, the issues and the rules per kind of field live in src/codecs/fields.ts,
// shared with `validateState`; what only a request needs stays here.


// Every string of a request in the `text` format too (docs/rules.md C12): the shared rules, with a
// lone surrogate refused as `text` (the stored states' rules, in fields.ts, stay as they are).
/** @internal */
export const ID_T = /* @__PURE__ */ text(MAX_STRING_LENGTH, true)
const NAME_T = /* @__PURE__ */ text(MAX_STRING_LENGTH, false)
const DESCRIPTION_T = /* @__PURE__ */ text(MAX_DESCRIPTION_LENGTH, false)
/** @internal */
export const URL_T = /* @__PURE__ */ format(isHttpUrlWithin, 'url', MAX_URL_LENGTH, true)
/** @internal */
export const UPDATE_TYPE = /* @__PURE__ */ oneOf('UpdateAmount', 'DoDeleteSplitEntry', 'DoNothing')

// The fields of a request checked by their rule alone, in the order of the interface (docs/rules.md
// I2.1); `chargeImmediately` (required by the gateway), the lists, the customer and `metaData` are
// checked between them by their own code. The JSON Schema generator reads the same tables
// (jsonSchema.ts).
/** @internal */
export const REQUEST_HEAD: ReadonlyArray<Field> = [
  ['externalPaymentReferenceID', ID_T, true],
  ['environment', ENVIRONMENT, true],
  ['paymentGateway', GATEWAY, true]
]
/** @internal */
export const REQUEST_BODY: ReadonlyArray<Field> = [
  ['sellerConnectedAccountID', UUID, true],
  ['externalObjectIdTag', ID_T],
  ['description', DESCRIPTION_T],
  ['grossAmount', POSITIVE, true],
  ['currency', CURRENCY, true]
]
/** @internal */
export const REQUEST_URLS: ReadonlyArray<Field> = [
  ['successUrl', URL_T, true],
  ['failedUrl', URL_T, true]
]
/** @internal */
export const CUSTOMER: ReadonlyArray<Field> = [
  ['name', NAME_T],
  ['email', /* @__PURE__ */ format(isEmailWithin, 'email', MAX_EMAIL_LENGTH, true)],
  ['mobilePrefix', MOBILE_PREFIX],
  ['mobile', MOBILE],
  ['customerType', ID_T]
]

// -------------------------------------------------------------------------------------
// lists
// -------------------------------------------------------------------------------------

/**
 * The length of the list `v` at `path`, read once; -1 when `v` is no array (with an issue unless
 * it is absent and optional). A list of more than `max` entries gets an issue too.
 */
const listLength = (issues: Issues, v: unknown, path: string, max: number, required: boolean): number => {
  if (!Array.isArray(v)) {
    // through the field check, whose rule no value keeps: absent (or null where the list is
    // needed) is `required`, as for every field (docs/rules.md C12), anything else the wrong type
    check(issues, v, '', -1, path, () => ['type', ARRAY], required)
    return -1
  }
  const n = (v as ReadonlyArray<unknown>).length
  if (n > max) fail(issues, path, 'too_many', { max })
  return n
}

/** True when `list` has a hole at `i` (an issue is pushed): the walk stops there. */
const hole = (issues: Issues, list: ReadonlyArray<unknown>, path: string, i: number): boolean => {
  if (hasOwn(list, i)) return false
  fail(issues, pathOf(path, i, ''), 'required')
  return true
}

// -------------------------------------------------------------------------------------
// collectors: parts of the payment-intent request
// -------------------------------------------------------------------------------------

// Each collector checks its fields in the order of the interface (docs/rules.md I2.1), which is also the key order of the
// fresh object it builds: required fields are always set (the value is used only when there is
// no issue, and then they hold), optional ones only when given, so that absent ones stay absent.

/**
 * A split's fields and their rules (checkSplit calls each rule at its own site and reports a
 * refused split through them; the JSON Schema generator reads them here). @internal
 */
export const SPLIT: ReadonlyArray<Field> = [
  ['connectedAccountID', UUID, true],
  ['amount', AMOUNT, true],
  ['description', DESCRIPTION_T],
  ['isFee', BOOLEAN, true],
  ['externalID', ID_T]
]

/**
 * One split of `moneySplitList` (or a lone split when `base` is ''). Each field is read at its own
 * site (one read by key that every field shared would go megamorphic) and checked first by its rule
 * called at its own call site, where it is always the same function, which the engine then
 * inlines; a split every rule accepts is built there, and only a split one of them refuses goes
 * through `checkFields` with {@link SPLIT}, which reports (the same issues). A request holds up to
 * 500 splits (docs/decisions.md, "Bundle size against the speed of a decode"). The io-ts codec
 * `MoneySplitRequest` runs it on a lone split.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { checkSplit } from './requestChecks.js'
 * const issues: Array<{ path: string }> = []
 * checkSplit(issues as never, { connectedAccountID: 'x', amount: 1, isFee: false }, '', -1)
 * assert.deepStrictEqual(issues.map((i) => i.path), ['connectedAccountID'])
 */
export const checkSplit = (issues: Issues, u: unknown, base: string, index: number): Obj | undefined => {
  if (!isObject(issues, u, base, index)) return undefined
  const account = hasOwn(u, 'connectedAccountID') ? u.connectedAccountID : undefined
  const amount = hasOwn(u, 'amount') ? u.amount : undefined
  const description = hasOwn(u, 'description') ? u.description : undefined
  const isFee = hasOwn(u, 'isFee') ? u.isFee : undefined
  const externalID = hasOwn(u, 'externalID') ? u.externalID : undefined
  // each rule called here first, where it is always the same function (so the engine inlines it);
  // `checkFields`, which reports, only for a split one of them refuses; 0 (and -0) by
  // `checkFields`, which gives 0
  if (
    UUID(account) === undefined &&
    amount !== 0 &&
    AMOUNT(amount) === undefined &&
    (description === undefined || DESCRIPTION_T(description) === undefined) &&
    BOOLEAN(isFee) === undefined &&
    (externalID === undefined || ID_T(externalID) === undefined)
  ) {
    const split: Obj = { connectedAccountID: account, amount }
    if (description !== undefined) split.description = description
    split.isFee = isFee
    if (externalID !== undefined) split.externalID = externalID
    return split
  }
  return checkFields(issues, u, base, index, SPLIT, {})
}

/**
 * `moneySplitList`: the splits, with the rules across them (one fee account, a safe sum). Returns
 * their sum; NaN unless the list holds 1..500 entries, every amount is valid and the sum is safe.
 * `list` is the field's value as read, any value: typed as a list (as {@link checkSubscriptions}'s)
 * because only a list is walked, which `listLength` checks; no second name for it (15 B less of
 * `decodePaymentIntentRequest`'s bundle).
 */
const checkSplits = (issues: Issues, list: ReadonlyArray<unknown>, out: Obj): number => {
  const path = 'moneySplitList'
  const n = listLength(issues, list, path, MAX_SPLITS, true)
  if (n === 0) fail(issues, path, 'too_few', { min: 1 })
  const splits: Obj[] = (out.moneySplitList = [])
  // NaN as soon as the sum cannot be known: an invalid amount (undefined) makes it NaN too
  let sum = n >= 1 && n <= MAX_SPLITS ? 0 : NaN
  // the first fee split's account, in lower case
  let feeAccount: string | undefined
  for (let i = 0; i < n && i < MAX_SPLITS; i++) {
    if (hole(issues, list, path, i)) return NaN
    const split = checkSplit(issues, list[i], path, i) ?? {}
    sum += split.amount as number
    if (sum > Number.MAX_SAFE_INTEGER) {
      report(issues, path, UNSAFE)
      sum = NaN
    }
    const account = split.connectedAccountID as string | undefined
    if (split.isFee === true && account !== undefined) {
      const key = account.toLowerCase()
      if (feeAccount === undefined) feeAccount = key
      else if (key !== feeAccount) fail(issues, pathOf(path, i, 'connectedAccountID'), 'fee_account_differs')
    }
    splits.push(split)
  }
  return sum
}

/**
 * The request's `customer` at `base` (the io-ts codec `Customer` runs it at the root): each given
 * field checked, a fresh object of the given ones.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { checkCustomer } from './requestChecks.js'
 * const issues: Array<{ path: string }> = []
 * assert.deepStrictEqual(checkCustomer(issues as never, { name: 'Kari' }, '', -1), { name: 'Kari' })
 */
export const checkCustomer = (
  issues: Issues,
  u: unknown,
  base: string,
  index: number
): Obj | undefined => {
  if (!isObject(issues, u, base, index)) return undefined
  return checkFields(issues, u, base, index, CUSTOMER, {})
}

/** The rule of an event type no value keeps (it runs only when the type is none of them): `text` for a lone surrogate. */
const EVENT_TYPE: Rule = (v) =>
  notText(v) ?? ['not_one_of', { allowed: webhookEventTypes }]

/**
 * One webhook subscription at `base` (the io-ts codec `WebhookSubscription` runs it at the root):
 * its event type in the short form and an absolute http(s) url.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { checkSubscription } from './requestChecks.js'
 * const issues: Array<{ path: string }> = []
 * const s = checkSubscription(issues as never, { eventType: 'ChargedPayment', url: 'https://a.example/h' }, '', -1)
 * assert.deepStrictEqual(s, { eventType: 'Charged', url: 'https://a.example/h' })
 */
export const checkSubscription = (
  issues: Issues,
  u: unknown,
  base: string,
  index: number
): Obj | undefined => {
  if (!isObject(issues, u, base, index)) return undefined
  const raw = own(u, 'eventType')
  const url = own(u, 'url')
  const eventType = parseWebhookEventType(raw)
  if (eventType === undefined) {
    // through the field check, whose rule no value keeps here: absent or null is `required`
    check(issues, raw, base, index, 'eventType', EVENT_TYPE, true)
  }
  return { eventType, url: check(issues, url, base, index, 'url', URL_T, true) }
}

/** `webhookSubscriptions`: each subscription checked; `list` is the value as read, any value (see {@link checkSplits}). */
const checkSubscriptions = (issues: Issues, list: ReadonlyArray<unknown>): Obj[] => {
  const path = 'webhookSubscriptions'
  const n = listLength(issues, list, path, MAX_SUBSCRIPTIONS, false)
  // used only when every entry is valid
  const subscriptions: Obj[] = []
  for (let i = 0; i < n && i < MAX_SUBSCRIPTIONS && !hole(issues, list, path, i); i++) {
    subscriptions.push(checkSubscription(issues, list[i], path, i) as Obj)
  }
  return subscriptions
}

/** @internal */
export const META_KEY = /* @__PURE__ */ text(MAX_METADATA_KEY_LENGTH, true)
/** @internal */
export const META_TEXT = /* @__PURE__ */ text(MAX_METADATA_VALUE_LENGTH, false)
/** A metaData value: a string, a finite number (NaN and ±Infinity are no JSON number), a boolean or null. */
const META_VALUE: Rule = (v) =>
  typeof v === 'string'
    ? META_TEXT(v)
    : typeof v === 'number'
      ? Number.isFinite(v)
        ? undefined
        : ['type', NUMBER]
      : v === null || typeof v === 'boolean'
        ? undefined
        : ['type', STRING]

const checkMetaData = (issues: Issues, v: unknown): MetaData => {
  if (v === undefined || !isObject(issues, v, 'metaData', -1)) return {}
  // Object.keys lists each own enumerable string-keyed property of the input, each read once
  // below (symbol keys are no data a JSON body can carry: dropped, like unknown fields). The copy
  // is built by assignment into `{}`, so that every payment's metaData with the same keys shares
  // one shape (docs/performance.md, "Why the code looks like this"); a key that Object.prototype
  // has (`__proto__`, or one a script put there) is added through a literal instead, so it stays
  // plain data and no prototype or setter is touched.
  const keys = Object.keys(v)
  let out: Obj = {}
  const n = keys.length
  // past the limit only the first keys are checked (and the copy is of no use)
  if (n > MAX_METADATA_KEYS) fail(issues, 'metaData', 'too_many', { max: MAX_METADATA_KEYS })
  for (let i = 0; i < n && i < MAX_METADATA_KEYS; i++) {
    const key = keys[i] as string
    // the key as a path segment, cut when long (docs/rules.md C3, bounded errors); built only when an issue needs it
    const at = (): string => `metaData.${keySegment(key)}`
    const value = v[key]
    report(issues, at, META_KEY(key))
    report(issues, at, META_VALUE(value))
    // a computed key in a literal defines an own data property, whatever the key
    if (key in Object.prototype) out = { ...out, [key]: value }
    else out[key] = value
  }
  return out as MetaData
}

/**
 * The collector of a payment-intent request (docs/rules.md C3): adds every issue of `u` to
 * `issues` and returns the fresh request, which holds only when no issue was added.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { checkRequest } from './requestChecks.js'
 * const issues: Parameters<typeof checkRequest>[0] = []
 * checkRequest(issues, { grossAmount: 0 })
 * assert.ok(issues.some((i) => i.path === 'grossAmount' && i.reason === 'too_small'))
 */
export const checkRequest = (issues: Issues, u: unknown): Obj | undefined => {
  if (!isObject(issues, u, '', -1)) return undefined
  const out = checkFields(issues, u, '', -1, REQUEST_HEAD, {})
  // Required for card payments, optional for invoices; when the gateway itself is invalid only
  // its type is checked.
  const card = out.paymentGateway === 'creditcard'
  const charge = check(issues, own(u, 'chargeImmediately'), '', -1, 'chargeImmediately', BOOLEAN, card)
  if (charge !== undefined || card) out.chargeImmediately = charge
  checkFields(issues, u, '', -1, REQUEST_BODY, out)
  const grossAmount = out.grossAmount
  const sum = checkSplits(issues, own(u, 'moneySplitList') as ReadonlyArray<unknown>, out)
  // the sum is NaN or a safe integer ≥ 0: `sum >= 0` is false exactly when it is NaN
  if (grossAmount !== undefined && sum !== grossAmount && sum >= 0) {
    fail(issues, 'grossAmount', 'sum_mismatch', undefined, 'GrossAmountMismatch')
  }
  const customerID = own(u, 'customerExternalID')
  if (customerID === undefined || customerID === null || customerID === '') {
    fail(issues, 'customerExternalID', 'required', undefined, 'MissingCustomerExternalID')
  } else {
    out.customerExternalID = check(issues, customerID, '', -1, 'customerExternalID', ID_T)
  }
  const customer = own(u, 'customer')
  if (customer !== undefined) out.customer = checkCustomer(issues, customer, 'customer', -1)
  out.webhookSubscriptions = checkSubscriptions(issues, own(u, 'webhookSubscriptions') as ReadonlyArray<unknown>)
  checkFields(issues, u, '', -1, REQUEST_URLS, out)
  out.metaData = checkMetaData(issues, own(u, 'metaData'))
  return out
}

/**
 * Runs the collector `checkPart` on `u` alone (at the root): every issue, and the value exactly
 * when there is none.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { collect, checkCustomer } from './requestChecks.js'
 * const customer = collect(checkCustomer)
 * assert.deepStrictEqual(customer({ email: 'kari@example.no' }).value, { email: 'kari@example.no' })
 */
export const collect =
  <A>(checkPart: (issues: Issues, u: unknown, base: string, index: number) => Obj | undefined) =>
  (u: unknown): Validated<A> => {
    const issues: Issues = []
    const value = checkPart(issues, u, '', -1)
    // `value` always an own property, so that a polluted Object.prototype cannot supply one
    return { issues, value: issues.length === 0 ? (value as A) : undefined }
  }

// -------------------------------------------------------------------------------------
// collectors
// -------------------------------------------------------------------------------------

/**
 * Checks a payment-intent request (docs/rules.md I2.1) against every rule of docs/rules.md C3 and collects every
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
 * import { validatePaymentIntentRequest } from './requestChecks.js'
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
  // each field read at its own call site, and only the ones its update type uses: a patch may
  // name 100 000 splits, and a field the update type ignores is never read
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
 * import { walkMoneySplitPatch } from './requestChecks.js'
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
): { readonly issues: Issues; readonly newGrossAmount: number | undefined } => {
  const issues: Issues = []
  if (!isObject(issues, input, '', -1)) return { issues, newGrossAmount: undefined }
  const path = 'moneySplitPatch'
  const raw = own(input, path)
  const n = listLength(issues, raw, path, Infinity, true)
  if (n >= 0) {
    const list = raw as ReadonlyArray<unknown>
    const put = start(n)
    for (let i = 0; i < n && !hole(issues, list, path, i); i++) {
      checkPatchEntry(issues, list[i], path, i, put)
    }
  }
  const newGrossAmount = check(issues, own(input, 'newGrossAmount'), '', -1, 'newGrossAmount', AMOUNT, true)
  return { issues, newGrossAmount: issues.length > 0 ? undefined : (newGrossAmount as number) }
}

/**
 * Checks the SHAPE of a money-split patch (docs/rules.md I2.5; docs/rules.md C3 last sentence): an object with a
 * `moneySplitPatch` array (any length) of entries `{ splitID ≥ 1, updateType, newAmount? ,
 * doDelete? }` — `newAmount` (a safe integer ≥ 0) is required with `UpdateAmount` and ignored
 * otherwise, `doDelete` (a boolean) is required with `DoDeleteSplitEntry` and ignored otherwise —
 * and a `newGrossAmount` (a safe integer ≥ 0). The rules that need the payment (docs/rules.md C4) are
 * `transition`'s. Every issue is `ValidationFailed`; `value` (fresh entries of exactly the
 * {@link PatchEntry} shape) is present exactly when there is none.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { validateMoneySplitPatch } from './requestChecks.js'
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
  return { issues, value: newGrossAmount === undefined ? undefined : { moneySplitPatch: entries, newGrossAmount } }
}
