/**
 * Validation of a state paysplit did not produce itself: one loaded from a database as JSON, built
 * by hand, or garbage. {@link validateState} checks every field of a {@link Payment} and every money
 * invariant, and returns a fresh deep copy that shares nothing with its input.
 *
 * The fields a payment shares with the create request (identifiers, UUIDs, texts, URLs, currency,
 * environment, gateway, the customer, webhook subscriptions, the splits' own fields) are checked
 * by the codecs' rules (src/codecs/fields.ts), with the codecs' reasons and messages; what is only
 * a state's (status, amounts and their invariants, splitIDs, KID, form attempts, allocation,
 * timestamps, version) is checked here. Where a state differs from a request: lengths are counted
 * in code points, not UTF-16 units, and a metaData key may be empty (both more lenient, so that no
 * request create accepted gives a state that fails here); webhook event types are in their short
 * form, as stored.
 *
 * The input may be hostile (getters, proxies): every property is read exactly once, and only own
 * enumerable keys of `metaData` are copied, as plain data properties. A getter or proxy that throws
 * makes this function throw; the decider wraps the call. Time is linear in the size of the input: a
 * payment may hold a hundred thousand splits after a long replay.
 *
 * @module state
 */
import { own } from '../internal/own.js'
import * as E from '../internal/either.js'
import type { IssueParams, PaymentError } from '../errors.js'
import { invalid, paymentError, validationError } from '../errors.js'
import {
  AMOUNT,
  ARRAY,
  BOOLEAN,
  check,
  checkFields,
  CURRENCY,
  EMAIL,
  ENVIRONMENT,
  type Field,
  GATEWAY,
  isObject,
  isRecord,
  type Issues,
  keySegment,
  NUMBER,
  OBJECT,
  MOBILE,
  MOBILE_PREFIX,
  type Obj,
  oneOf,
  POSITIVE,
  type Rule,
  STRING,
  text,
  TIMESTAMP,
  URL_RULE,
  UUID
} from '../codecs/fields.js'
import { KID_RULE } from '../kid.js'
import type {
  FormAttempt,
  MoneySplit,
  Payment,
  PaymentKind,
  PaymentState,
  PaymentStatus
} from '../payment.js'
import { initialState, SCHEMA_VERSION } from '../payment.js'
import { paymentStatuses } from '../status.js'
import { copyPayment } from '../evolve.js'
import type { Customer, MetaData, PaymentGateway, WebhookSubscription } from '../codecs/requests.js'
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_STRING_LENGTH,
  MAX_SUBSCRIPTIONS,
  parseWebhookEventType,
  webhookEventTypes
} from '../codecs/validators.js'

import { add, checkInvariants, full, notOneOf, type Splits, ZERO } from './stateInvariants.js'

// -------------------------------------------------------------------------------------
// field rules (the shared ones are in src/codecs/fields.ts)
// -------------------------------------------------------------------------------------

/**
 * Length within `max` characters. Counted in code points, so a limit never rejects what a
 * stricter count in UTF-16 units would accept; linear, and constant for strings far too long.
 */
const withinLength = (s: string, max: number): boolean => {
  if (s.length <= max) return true
  if (s.length > 2 * max) return false
  // count code points: a high surrogate followed by a low one is one character (charCodeAt past the end: NaN)
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
    if (n > max) return false
  }
  return true
}

/** The codecs' {@link text} rule, with the length counted in code points. */
const chars = (max: number, nonEmpty: boolean): Rule => {
  const rule = text(max, nonEmpty)
  // more than `max` units (so not empty) but at most `max` code points: kept
  return (v) => (typeof v === 'string' && v.length > max && withinLength(v, max) ? undefined : rule(v))
}

const ID = /* @__PURE__ */ chars(MAX_STRING_LENGTH, true)
const NAME = /* @__PURE__ */ chars(MAX_STRING_LENGTH, false)
const DESCRIPTION = /* @__PURE__ */ chars(MAX_DESCRIPTION_LENGTH, false)
const STATUS = /* @__PURE__ */ oneOf(...paymentStatuses)
const KIND = /* @__PURE__ */ oneOf('card', 'invoice')
const EVENT_TYPE: Rule = (v) =>
  parseWebhookEventType(v) === v ? undefined : ['not_one_of', { allowed: webhookEventTypes }]
const META_VALUE: Rule = (v) =>
  v === null || typeof v === 'boolean' || Number.isFinite(v)
    ? undefined
    : typeof v === 'number'
      ? ['type', NUMBER]
      : typeof v !== 'string'
        ? ['type', STRING]
        : withinLength(v, MAX_METADATA_VALUE_LENGTH)
          ? undefined
          : ['too_long', { max: MAX_METADATA_VALUE_LENGTH }]

/** The customer's fields, each optional. */
const CUSTOMER: ReadonlyArray<Field> = [
  ['name', NAME],
  ['email', EMAIL],
  ['mobilePrefix', MOBILE_PREFIX],
  ['mobile', MOBILE],
  ['customerType', ID]
]

/** Checks the field `key` of the entry being read (read once) by `rule`: its value, or `undefined`. */
type Get = (key: string, rule: Rule, required?: boolean) => unknown

/**
 * Walks the list `o[field]` at `state.<field>`; false, with an issue, when it is not an array (its
 * length read once) or holds more than `max` entries. Calls `read` with each entry that is an
 * object, a {@link Get} of its fields and its index, or with `undefined` (after a `type` issue) for
 * any other entry. A list without a cap may be huge: its walk stops once the issues are full.
 */
const eachEntry = (
  issues: Issues,
  o: Obj,
  field: string,
  read: (e: Obj | undefined, get: Get, i: number) => void,
  max = Infinity
): boolean => {
  const u = own(o, field)
  const n: unknown = Array.isArray(u) ? (u as { readonly length: unknown }).length : -1
  if (!Number.isSafeInteger(n) || (n as number) < 0) {
    add(issues, field, 'type', ARRAY)
    return false
  }
  if ((n as number) > max) {
    add(issues, field, 'too_many', { max })
    return false
  }
  const base = `state.${field}`
  let e: Obj = {}
  let i = 0
  const get: Get = (key, rule, required) => check(issues, own(e, key), base, i, key, rule, required)
  for (; i < (n as number) && (max < Infinity || !full(issues)); i++) {
    const x = own(u, i)
    if (isObject(issues, x, base, i)) read((e = x), get, i)
    else read(undefined, get, i)
  }
  return true
}

// -------------------------------------------------------------------------------------
// parts of a payment
// -------------------------------------------------------------------------------------

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

const readCustomer = (issues: Issues, o: Obj): Customer | undefined => {
  const u = own(o, 'customer')
  if (u === undefined || !isObject(issues, u, 'state.customer', -1)) return undefined
  return checkFields(issues, u, 'state.customer', -1, CUSTOMER, {})
}

const readSubscriptions = (issues: Issues, o: Obj): ReadonlyArray<WebhookSubscription> | undefined => {
  const out: Array<WebhookSubscription> = []
  const read = (e: Obj | undefined, get: Get, i: number): void => {
    if (e === undefined) return
    // read in the order of the interface, checked url first
    const eventTypeIn = own(e, 'eventType')
    const url = get('url', URL_RULE, true) as string | undefined
    const eventType = check(issues, eventTypeIn, 'state.webhookSubscriptions', i, 'eventType', EVENT_TYPE, true)
    if (eventType !== undefined && url !== undefined) {
      out.push({ eventType: eventType as WebhookSubscription['eventType'], url })
    }
  }
  return eachEntry(issues, o, 'webhookSubscriptions', read, MAX_SUBSCRIPTIONS) ? out : undefined
}

const readMetaData = (issues: Issues, o: Obj): MetaData | undefined => {
  const u = own(o, 'metaData')
  if (!isObject(issues, u, 'state.metaData', -1)) return undefined
  const keys = Object.keys(u)
  if (keys.length > MAX_METADATA_KEYS) {
    add(issues, 'metaData', 'too_many', { max: MAX_METADATA_KEYS })
    return undefined
  }
  const entries: Array<readonly [string, unknown]> = []
  for (const key of keys) {
    // the key as a path segment, cut when long (docs/rules.md C3, bounded errors)
    const path = `metaData.${keySegment(key)}`
    if (!withinLength(key, MAX_METADATA_KEY_LENGTH)) {
      add(issues, path, 'too_long', { max: MAX_METADATA_KEY_LENGTH })
      continue
    }
    const v: unknown = u[key]
    const broken = META_VALUE(v)
    if (broken === undefined) entries.push([key, v])
    else add(issues, path, broken[0], own(broken, 1) as IssueParams | undefined)
  }
  // Object.fromEntries defines own data properties: a `__proto__` key stays plain data.
  return Object.fromEntries(entries) as MetaData
}

const readFormAttempts = (issues: Issues, o: Obj): ReadonlyArray<FormAttempt> | undefined => {
  const out: Array<FormAttempt> = []
  const read = (e: Obj | undefined, get: Get): void => {
    if (e === undefined) return
    const at = get('at', TIMESTAMP, true) as string | undefined
    const reason = get('reason', DESCRIPTION) as string | undefined
    if (at !== undefined) out.push(reason === undefined ? { at } : { at, reason })
  }
  return eachEntry(issues, o, 'formAttempts', read) ? out : undefined
}

/**
 * Reads a list of money-split records: the payment's `moneySplits`, or its `allocation` (the
 * splits as they stood at the charge, the same kind of record).
 */
const readSplits = (
  issues: Issues,
  o: Obj,
  field: 'moneySplits' | 'allocation',
  paymentReferenceID: string | undefined
): Splits | undefined => {
  const splits: Array<MoneySplit> = []
  let sum: number | undefined = 0
  let previousID = 0
  const read = (e: Obj | undefined, get: Get, i: number): void => {
    if (e === undefined) {
      sum = undefined
      return
    }
    let splitID = get('splitID', POSITIVE, true) as number | undefined
    if (splitID !== undefined) {
      if (splitID <= previousID) {
        add(issues, `${field}.${i}.splitID`, 'too_small', { min: `${field}.${i - 1}.splitID + 1` })
        splitID = undefined
      } else previousID = splitID
    }
    const ref = get('paymentReferenceID', UUID, true) as string | undefined
    if (ref !== undefined && paymentReferenceID !== undefined && ref !== paymentReferenceID) {
      notOneOf(issues, `${field}.${i}.paymentReferenceID`, 'paymentReferenceID')
    }
    const account = get('connectedAccountID', UUID, true) as string | undefined
    const amount = get('amount', AMOUNT, true) as number | undefined
    const description = get('description', DESCRIPTION) as string | undefined
    const insertTime = get('insertTime', TIMESTAMP, true) as string | undefined
    const externalID = get('externalID', ID) as string | undefined
    const isFee = get('isFee', BOOLEAN, true) as boolean | undefined
    if (amount === undefined || sum === undefined) sum = undefined
    else if ((sum += amount) > Number.MAX_SAFE_INTEGER) {
      // exact: the sum of two safe integers passes MAX_SAFE_INTEGER exactly when its double does
      add(issues, field, 'too_big', { max: Number.MAX_SAFE_INTEGER })
      sum = undefined
    }
    if (
      splitID === undefined ||
      ref === undefined ||
      account === undefined ||
      amount === undefined ||
      insertTime === undefined ||
      isFee === undefined
    ) {
      return
    }
    const split: Mutable<MoneySplit> = { splitID, paymentReferenceID: ref, connectedAccountID: account, amount, insertTime, isFee }
    if (description !== undefined) split.description = description
    if (externalID !== undefined) split.externalID = externalID
    splits.push(split)
  }
  return eachEntry(issues, o, field, read) ? { splits, sum } : undefined
}

/**
 * The allocation as validated: when it holds exactly the current splits (nothing refunded since
 * the charge), the very list of the splits, shared as `transition` shares it; else its own list.
 */
const shareIfSame = (allocation: Splits, splits: Splits | undefined): Splits => {
  if (splits === undefined) return allocation
  const a = allocation.splits
  const b = splits.splits
  if (a.length !== b.length) return allocation
  // each field written out: a read by a variable key costs several times more (docs/performance.md)
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as MoneySplit
    const y = b[i] as MoneySplit
    if (
      x.splitID !== y.splitID ||
      x.connectedAccountID !== y.connectedAccountID ||
      x.amount !== y.amount ||
      x.isFee !== y.isFee ||
      x.insertTime !== y.insertTime ||
      x.description !== y.description ||
      x.externalID !== y.externalID
    ) {
      return allocation
    }
  }
  return splits
}

// -------------------------------------------------------------------------------------
// validation
// -------------------------------------------------------------------------------------

// The top-level fields checked by their rule alone, in the order they are read (the order of the
// interface); the others are read by their own code between these groups (see validatePayment).
const HEAD: ReadonlyArray<Field> = [
  ['paymentGateway', GATEWAY, true],
  ['kind', KIND, true]
]
const IDS: ReadonlyArray<Field> = [
  ['paymentReferenceID', UUID, true],
  ['externalPaymentReferenceID', ID, true],
  ['environment', ENVIRONMENT, true]
]
const TERMS: ReadonlyArray<Field> = [
  ['sellerConnectedAccountID', UUID, true],
  ['externalObjectIdTag', ID],
  ['description', DESCRIPTION],
  ['currency', CURRENCY, true],
  ['grossAmount', AMOUNT, true]
]
const CUSTOMER_ID: ReadonlyArray<Field> = [['customerExternalID', ID, true]]
const URLS: ReadonlyArray<Field> = [
  ['successUrl', URL_RULE, true],
  ['failedUrl', URL_RULE, true]
]
const AMOUNTS: ReadonlyArray<Field> = [
  ['chargedAmount', AMOUNT, true],
  ['refundedAmount', AMOUNT, true],
  ['excessRefundedAmount', AMOUNT, true],
  ['paidAmount', AMOUNT, true]
]
const TIMES: ReadonlyArray<Field> = [
  ['createdAt', TIMESTAMP, true],
  ['updatedAt', TIMESTAMP, true],
  ['version', POSITIVE, true]
]

const kindOf = (gateway: PaymentGateway): PaymentKind => (gateway === 'invoice' ? 'invoice' : 'card')

const validatePayment = (o: Obj, statusIn: unknown): E.Either<PaymentError, Payment> => {
  const issues: Issues = []
  // Each field read once, in the order of the interface, into `r`; a required field absent "is
  // required". The lists, the customer, `metaData` and the KID are read by their own code between.
  const r: Obj = {}
  const fields = (list: ReadonlyArray<Field>): void => {
    checkFields(issues, o, 'state', -1, list, r)
  }
  const status = check(issues, statusIn, 'state', -1, 'status', STATUS, true) as PaymentStatus | undefined
  fields(HEAD)
  const paymentGateway = r['paymentGateway'] as PaymentGateway | undefined
  let kind = r['kind'] as PaymentKind | undefined
  if (kind !== undefined && paymentGateway !== undefined && kind !== kindOf(paymentGateway)) {
    notOneOf(issues, 'kind', kindOf(paymentGateway))
    kind = undefined
  }
  fields(IDS)
  const paymentReferenceID = r['paymentReferenceID'] as string | undefined
  // required for a card; when the kind is invalid only the type is checked
  fields([['chargeImmediately', BOOLEAN, kind === 'card']])
  fields(TERMS)
  const splits = readSplits(issues, o, 'moneySplits', paymentReferenceID)
  fields(CUSTOMER_ID)
  r['customer'] = readCustomer(issues, o)
  r['webhookSubscriptions'] = readSubscriptions(issues, o)
  fields(URLS)
  r['metaData'] = readMetaData(issues, o)
  fields(AMOUNTS)
  const kidIn = own(o, 'kid')
  const kid = kind === 'invoice' ? check(issues, kidIn, 'state', -1, 'kid', KID_RULE, true) as string | undefined : undefined
  // a card payment has no KID: its length must be 0 (docs/decisions.md "Issues: reasons, catalogs and caps")
  if (kind === 'card' && kidIn !== undefined) add(issues, 'kid', 'too_long', ZERO)
  const formAttempts = readFormAttempts(issues, o)
  if (kind === 'invoice' && formAttempts !== undefined && formAttempts.length > 0) {
    // an invoice has no payment form
    add(issues, 'formAttempts', 'too_many', ZERO)
  }
  const allocationRead = readSplits(issues, o, 'allocation', paymentReferenceID)
  const allocation = allocationRead === undefined ? undefined : shareIfSame(allocationRead, splits)
  fields(TIMES)
  checkInvariants(issues, status, kind, r, splits, allocation)

  // Every field read as undefined (a required one absent or invalid) has added an issue: with no
  // issue, every required field below holds a valid value.
  if (issues.length > 0) return E.left(validationError(issues))

  r['status'] = status
  r['moneySplits'] = splits?.splits
  r['kid'] = kid
  r['formAttempts'] = formAttempts
  r['allocation'] = allocation?.splits
  // built as `transition` builds its states (the optional fields only when set): one shape for
  // every state, which keeps the code that reads states fast (docs/performance.md)
  return E.right(copyPayment(r as unknown as Payment))
}

/**
 * Checks a state that paysplit did not produce itself (loaded from storage, received from a
 * caller, garbage) and returns a fresh deep copy of it: plain objects and arrays holding only the
 * known fields of a {@link Payment}, or `initialState` for any object whose `status` is
 * `NoPayment`. Anything else gives `Left` with code `ValidationFailed` and one issue per problem
 * found (at most 100), each at a path below `state`: `state.grossAmount`,
 * `state.moneySplits.2.amount`, or `state` itself for a value that is not an object; each with
 * the codecs' reason and params (`too_small`, `{ min: 0 }`) and message (docs/decisions.md
 * "Issues: reasons, catalogs and caps" maps the invariants of a state onto the reasons). Past 100
 * issues a last `too_many_issues` counts those found before the walk stopped. Only own
 * properties are read. Numbers given as `-0`
 * are copied as `0`, except in `metaData`.
 *
 * Checked: every field's type, format and limits (as on create), the kind against the gateway,
 * and the money invariants: `grossAmount = Σ moneySplits[].amount`; cards have no `paidAmount`,
 * excess or KID; invoices are never `Reserved` or `Cancelled`; before the charge nothing is
 * charged, refunded or allocated (and an `Initiated` invoice is not yet fully paid); once charged
 * `chargedAmount = grossAmount + refundedAmount`, `excessRefundedAmount ≤ refundedAmount ≤
 * chargedAmount`, `Σ allocation = chargedAmount − excessRefundedAmount`, every current split is
 * allocated with at least its current amount, a `Refunded` payment's gross is 0 and a charged
 * invoice's `chargedAmount` is its `paidAmount`.
 *
 * Each property of the input is read once. Does not catch: a throwing getter or proxy throws
 * through (the decider catches it).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { initialState, validateState } from 'paysplit'
 * assert.deepStrictEqual(validateState({ status: 'NoPayment' }), E.right(initialState))
 * const bad = validateState({ status: 'Charged', grossAmount: -1 })
 * assert.ok(E.isLeft(bad) && bad.left.code === 'ValidationFailed')
 * assert.ok(E.isLeft(bad) && bad.left.issues?.some((i) => i.path === 'state.grossAmount'))
 * const garbage = validateState(42)
 * assert.ok(E.isLeft(garbage) && garbage.left.issues?.[0]?.path === 'state')
 */
export const validateState = (input: unknown): E.Either<PaymentError, PaymentState> => {
  if (!isRecord(input)) {
    // a payment, or { status: "NoPayment" }
    return E.left(invalid('state', 'type', OBJECT))
  }
  // docs/rules.md C11: 1 or absent is this release's shape; a higher integer is a newer release's
  const schemaVersion = own(input, 'schemaVersion')
  if (schemaVersion !== undefined && schemaVersion !== SCHEMA_VERSION) {
    return Number.isInteger(schemaVersion) && (schemaVersion as number) > SCHEMA_VERSION
      ? E.left(paymentError('UnsupportedSchemaVersion', `The state was stored by a newer release (schemaVersion above ${SCHEMA_VERSION}); this release cannot read it.`))
      : E.left(invalid('state.schemaVersion', 'not_one_of', { allowed: [SCHEMA_VERSION] }))
  }
  const status = own(input, 'status')
  if (status === 'NoPayment') return E.right(initialState)
  return validatePayment(input, status)
}
