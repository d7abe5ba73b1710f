/**
 * Validation of a state paysplit did not produce itself: one loaded from a database as JSON, built
 * by hand, or garbage. {@link validateState} checks every field of a {@link Payment} and every money
 * invariant, and returns a fresh deep copy that shares nothing with its input.
 *
 * The fields a payment shares with the create request (identifiers, UUIDs, texts, URLs, currency,
 * environment, gateway, the customer, webhook subscriptions, the splits' own fields) are checked
 * by the codecs' rules (src/codecs/fields.ts), with the codecs' messages (`<path> <rule>.`); what is only
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
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { invalid, paymentError, validationError } from '../errors.js'
import {
  AMOUNT,
  BOOLEAN,
  check,
  CURRENCY,
  EMAIL,
  ENVIRONMENT,
  fail,
  format,
  GATEWAY,
  isObject,
  isRecord,
  type Issues,
  MOBILE,
  MOBILE_PREFIX,
  type Obj,
  oneOf,
  POSITIVE,
  type Rule,
  text,
  URL_RULE,
  UUID
} from './fields.js'
import { kid as kidNumber } from '../kid.js'
import type {
  Allocation,
  FormAttempt,
  MoneySplit,
  Payment,
  PaymentKind,
  PaymentState,
  PaymentStatus
} from '../payment.js'
import { initialState, SCHEMA_VERSION } from '../payment.js'
import type { Customer, MetaData, PaymentGateway, WebhookSubscription } from './requests.js'
import {
  isTimestamp,
  MAX_DESCRIPTION_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_STRING_LENGTH,
  MAX_SUBSCRIPTIONS,
  parseWebhookEventType
} from './validators.js'

// -------------------------------------------------------------------------------------
// issues
// -------------------------------------------------------------------------------------

/**
 * Validation stops collecting after this many issues: a broken state of 100 000 splits need not
 * produce 100 000 issues, and a hostile array that claims a huge length stops early. Every loop
 * over a list of the input stops once this many are found, and the list is cut to this many.
 */
const MAX_ISSUES = 100

const full = (issues: Issues): boolean => issues.length >= MAX_ISSUES

/** Adds the issue "state.`path` `rule`.", unless {@link MAX_ISSUES} are found already. */
const add = (issues: Issues, path: string, rule: string): void => {
  if (!full(issues)) fail(issues, `state.${path}`, rule)
}

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
  return (v) => (typeof v === 'string' && v.length > max && withinLength(v, max) ? '' : rule(v))
}

const ID = /* @__PURE__ */ chars(MAX_STRING_LENGTH, true)
const NAME = /* @__PURE__ */ chars(MAX_STRING_LENGTH, false)
const DESCRIPTION = /* @__PURE__ */ chars(MAX_DESCRIPTION_LENGTH, false)
const TIMESTAMP = /* @__PURE__ */ format(isTimestamp, 'an ISO 8601 UTC timestamp with fractional seconds')
const STATUS = /* @__PURE__ */ oneOf('Initiated', 'Reserved', 'Charged', 'Cancelled', 'Refunded')
const KIND = /* @__PURE__ */ oneOf('card', 'invoice')
const KID = /* @__PURE__ */ format(kidNumber.isValid, 'a KID of 2–25 digits, the last a MOD10 or MOD11 check digit')
const EVENT_TYPE = /* @__PURE__ */ format(
  (s) => parseWebhookEventType(s) === s,
  'a webhook event type in its short form, such as Charged'
)
const META_VALUE: Rule = (v) =>
  v === null ||
  typeof v === 'boolean' ||
  Number.isFinite(v) ||
  (typeof v === 'string' && withinLength(v, MAX_METADATA_VALUE_LENGTH))
    ? ''
    : `must be null, true, false, a finite number or a string of at most ${MAX_METADATA_VALUE_LENGTH} characters`

/** The customer's fields, each optional. */
const CUSTOMER: ReadonlyArray<readonly [string, Rule]> = [
  ['name', NAME],
  ['email', EMAIL],
  ['mobilePrefix', MOBILE_PREFIX],
  ['mobile', MOBILE],
  ['customerType', ID]
]

/** The length of the array `u`, read once; -1 (and an issue) when `u` is not an array. */
const lengthOf = (issues: Issues, key: string, u: unknown): number => {
  const n: unknown = Array.isArray(u) ? (u as { readonly length: unknown }).length : -1
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n
  add(issues, key, 'must be an array')
  return -1
}

// -------------------------------------------------------------------------------------
// parts of a payment
// -------------------------------------------------------------------------------------

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

const readCustomer = (issues: Issues, u: unknown): Customer | undefined => {
  if (!isObject(issues, u, 'state.customer', -1)) return undefined
  const c: Obj = {}
  for (const [key, rule] of CUSTOMER) {
    const v = check(issues, u[key], 'state.customer', -1, key, rule)
    if (v !== undefined) c[key] = v
  }
  return c
}

const readSubscriptions = (issues: Issues, u: unknown): ReadonlyArray<WebhookSubscription> | undefined => {
  const n = lengthOf(issues, 'webhookSubscriptions', u)
  if (n < 0) return undefined
  if (n > MAX_SUBSCRIPTIONS) {
    add(issues, 'webhookSubscriptions', `must hold at most ${MAX_SUBSCRIPTIONS} subscriptions`)
    return undefined
  }
  const base = 'state.webhookSubscriptions'
  const arr = u as ReadonlyArray<unknown>
  const out: Array<WebhookSubscription> = []
  for (let i = 0; i < n; i++) {
    const e = arr[i]
    if (!isObject(issues, e, base, i)) continue
    const eventTypeIn = e['eventType']
    const url = check(issues, e['url'], base, i, 'url', URL_RULE, true) as string | undefined
    const eventType = check(issues, eventTypeIn, base, i, 'eventType', EVENT_TYPE, true)
    if (eventType !== undefined && url !== undefined) {
      out.push({ eventType: eventType as WebhookSubscription['eventType'], url })
    }
  }
  return out
}

const readMetaData = (issues: Issues, u: unknown): MetaData | undefined => {
  if (!isObject(issues, u, 'state.metaData', -1)) return undefined
  const keys = Object.keys(u)
  if (keys.length > MAX_METADATA_KEYS) {
    add(issues, 'metaData', `must have at most ${MAX_METADATA_KEYS} keys`)
    return undefined
  }
  const entries: Array<readonly [string, unknown]> = []
  for (const key of keys) {
    const path = `metaData.${key}`
    if (!withinLength(key, MAX_METADATA_KEY_LENGTH)) {
      add(issues, path, `key must be at most ${MAX_METADATA_KEY_LENGTH} characters`)
      continue
    }
    const v: unknown = u[key]
    const broken = META_VALUE(v)
    if (broken === '') entries.push([key, v])
    else add(issues, path, broken)
  }
  // Object.fromEntries defines own data properties: a `__proto__` key stays plain data.
  return Object.fromEntries(entries) as MetaData
}

const readFormAttempts = (issues: Issues, u: unknown): ReadonlyArray<FormAttempt> | undefined => {
  const n = lengthOf(issues, 'formAttempts', u)
  if (n < 0) return undefined
  const base = 'state.formAttempts'
  const arr = u as ReadonlyArray<unknown>
  const out: Array<FormAttempt> = []
  for (let i = 0; i < n && !full(issues); i++) {
    const e = arr[i]
    if (!isObject(issues, e, base, i)) continue
    const at = check(issues, e['at'], base, i, 'at', TIMESTAMP, true) as string | undefined
    const reason = check(issues, e['reason'], base, i, 'reason', DESCRIPTION) as string | undefined
    if (at !== undefined) out.push(reason === undefined ? { at } : { at, reason })
  }
  return out
}

interface Splits {
  readonly splits: ReadonlyArray<MoneySplit>
  /** Σ amounts, when every amount is valid and the sum stays safe. */
  readonly sum: number | undefined
}

/**
 * Reads a list of money-split records: the payment's `moneySplits`, or its `allocation` (the
 * splits as they stood at the charge, the same kind of record).
 */
const readSplits = (
  issues: Issues,
  field: 'moneySplits' | 'allocation',
  u: unknown,
  paymentReferenceID: string | undefined
): Splits | undefined => {
  const n = lengthOf(issues, field, u)
  if (n < 0) return undefined
  const base = `state.${field}`
  const arr = u as ReadonlyArray<unknown>
  const splits: Array<MoneySplit> = []
  let sum: number | undefined = 0
  let previousID = 0
  for (let i = 0; i < n && !full(issues); i++) {
    const e = arr[i]
    if (!isObject(issues, e, base, i)) {
      sum = undefined
      continue
    }
    let splitID = check(issues, e['splitID'], base, i, 'splitID', POSITIVE, true) as number | undefined
    if (splitID !== undefined) {
      if (splitID <= previousID) {
        add(issues, `${field}.${i}.splitID`, 'must be greater than the splitID before it')
        splitID = undefined
      } else previousID = splitID
    }
    const ref = check(issues, e['paymentReferenceID'], base, i, 'paymentReferenceID', UUID, true) as string | undefined
    if (ref !== undefined && paymentReferenceID !== undefined && ref !== paymentReferenceID) {
      add(issues, `${field}.${i}.paymentReferenceID`, "must be the payment's paymentReferenceID")
    }
    const account = check(issues, e['connectedAccountID'], base, i, 'connectedAccountID', UUID, true) as string | undefined
    const amount = check(issues, e['amount'], base, i, 'amount', AMOUNT, true) as number | undefined
    const description = check(issues, e['description'], base, i, 'description', DESCRIPTION) as string | undefined
    const insertTime = check(issues, e['insertTime'], base, i, 'insertTime', TIMESTAMP, true) as string | undefined
    const externalID = check(issues, e['externalID'], base, i, 'externalID', ID) as string | undefined
    const isFee = check(issues, e['isFee'], base, i, 'isFee', BOOLEAN, true) as boolean | undefined
    if (amount === undefined || sum === undefined) sum = undefined
    else if ((sum += amount) > Number.MAX_SAFE_INTEGER) {
      // exact: the sum of two safe integers passes MAX_SAFE_INTEGER exactly when its double does
      add(issues, field, `amounts must add up to at most ${Number.MAX_SAFE_INTEGER}`)
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
      continue
    }
    const split: Mutable<MoneySplit> = { splitID, paymentReferenceID: ref, connectedAccountID: account, amount, insertTime, isFee }
    if (description !== undefined) split.description = description
    if (externalID !== undefined) split.externalID = externalID
    splits.push(split)
  }
  return { splits, sum }
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
// invariants
// -------------------------------------------------------------------------------------

/**
 * Every fee entry (current split or allocation) names the same account (docs/rules.md C3), compared
 * without regard to case, as UUIDs are.
 */
const checkFeeAccount = (
  issues: Issues,
  splits: ReadonlyArray<MoneySplit>,
  allocation: ReadonlyArray<Allocation>
): void => {
  let feeAccount: string | undefined
  const same = (field: string, list: ReadonlyArray<Allocation>): void => {
    for (let i = 0; i < list.length; i++) {
      const s = list[i] as Allocation
      if (!s.isFee) continue
      const a = s.connectedAccountID.toLowerCase()
      if (feeAccount === undefined) feeAccount = a
      else if (a !== feeAccount) add(issues, `${field}.${i}.connectedAccountID`, 'must be the fee account of every other fee entry')
    }
  }
  same('moneySplits', splits)
  same('allocation', allocation)
}

/**
 * Once charged, every current split stands in the allocation under its splitID, for the same
 * account and fee flag, with at least its current amount. Both lists ascend by splitID: one merge.
 */
const checkSplitsAllocated = (
  issues: Issues,
  splits: ReadonlyArray<MoneySplit>,
  allocation: ReadonlyArray<Allocation>
): void => {
  let j = 0
  for (let i = 0; i < splits.length && !full(issues); i++) {
    // readSplits builds both lists by push, without holes
    const s = splits[i] as MoneySplit
    while (j < allocation.length && (allocation[j] as Allocation).splitID < s.splitID) j++
    const a = allocation[j]
    const path = `moneySplits.${i}`
    const id = s.splitID
    if (a === undefined || a.splitID !== id) {
      add(issues, `${path}.splitID`, `must be in the allocation made at the charge (split ${id} is not)`)
      continue
    }
    if (a.connectedAccountID !== s.connectedAccountID) {
      add(issues, `${path}.connectedAccountID`, `must be the account allocated to split ${id}`)
    }
    if (a.isFee !== s.isFee) add(issues, `${path}.isFee`, `must be the isFee allocated to split ${id}`)
    if (s.amount > a.amount) {
      add(issues, `${path}.amount`, `must be at most the ${a.amount} allocated to split ${id} at the charge`)
    }
  }
}

interface Money {
  readonly status: PaymentStatus
  readonly kind: PaymentKind
  readonly chargeImmediately: boolean | undefined
  readonly grossAmount: number | undefined
  readonly splitSum: number | undefined
  readonly allocationSum: number | undefined
  readonly allocationLength: number | undefined
  readonly chargedAmount: number | undefined
  readonly refundedAmount: number | undefined
  readonly excessRefundedAmount: number | undefined
  readonly paidAmount: number | undefined
}

const checkMoney = (issues: Issues, m: Money): void => {
  const { status, kind, grossAmount: gross, chargedAmount: charged, refundedAmount: refunded } = m
  const excess = m.excessRefundedAmount
  const paid = m.paidAmount
  if (gross !== undefined && m.splitSum !== undefined && gross !== m.splitSum) {
    add(issues, 'grossAmount', `must be the sum of the split amounts, ${m.splitSum}`)
  }
  if (kind === 'card') {
    if (paid !== undefined && paid !== 0) add(issues, 'paidAmount', 'must be 0 for a card payment')
    if (excess !== undefined && excess !== 0) add(issues, 'excessRefundedAmount', 'must be 0 for a card payment')
  } else if (status === 'Reserved' || status === 'Cancelled') {
    add(issues, 'status', `must not be ${status} for an invoice (it goes from Initiated to Charged)`)
  }
  if (status === 'Reserved' && kind === 'card' && m.chargeImmediately === true) {
    add(issues, 'chargeImmediately', 'must be false while the payment is Reserved')
  }
  const charges = status === 'Charged' || status === 'Refunded'
  if (!charges) {
    const before = `while the payment is ${status}`
    if (charged !== undefined && charged !== 0) add(issues, 'chargedAmount', `must be 0 ${before}`)
    if (refunded !== undefined && refunded !== 0) add(issues, 'refundedAmount', `must be 0 ${before}`)
    if (excess !== undefined && excess !== 0) add(issues, 'excessRefundedAmount', `must be 0 ${before}`)
    if (m.allocationLength !== undefined && m.allocationLength !== 0) {
      add(issues, 'allocation', `must be empty ${before}`)
    }
    if (gross !== undefined && gross < 1) add(issues, 'grossAmount', `must be at least 1 ${before}`)
    if (status === 'Initiated' && kind === 'invoice' && paid !== undefined && gross !== undefined && paid >= gross) {
      add(issues, 'paidAmount', `must be less than grossAmount ${gross} ${before}`)
    }
    return
  }
  if (charged !== undefined && refunded !== undefined && gross !== undefined) {
    if (refunded > charged) {
      add(issues, 'refundedAmount', `must be at most chargedAmount ${charged}`)
    } else if (charged - refunded !== gross) {
      add(issues, 'chargedAmount', `must be grossAmount ${gross} plus refundedAmount ${refunded}`)
    }
  }
  if (excess !== undefined && refunded !== undefined && excess > refunded) {
    add(issues, 'excessRefundedAmount', `must be at most refundedAmount ${refunded}`)
  }
  if (
    m.allocationSum !== undefined &&
    charged !== undefined &&
    excess !== undefined &&
    excess <= charged &&
    m.allocationSum !== charged - excess
  ) {
    add(issues, 'allocation', `amounts must add up to chargedAmount minus excessRefundedAmount, ${charged - excess}`)
  }
  if (status === 'Refunded' && gross !== undefined && gross !== 0) {
    add(issues, 'grossAmount', 'must be 0 once the payment is Refunded')
  }
  if (kind === 'invoice' && charged !== undefined && paid !== undefined && charged !== paid) {
    add(issues, 'chargedAmount', `must be paidAmount ${paid} once the invoice is charged`)
  }
}

// -------------------------------------------------------------------------------------
// validation
// -------------------------------------------------------------------------------------

const kindOf = (gateway: PaymentGateway): PaymentKind => (gateway === 'invoice' ? 'invoice' : 'card')

const validatePayment = (o: Obj, statusIn: unknown): E.Either<PaymentError, Payment> => {
  const issues: Issues = []
  // Every property read once, as it is checked, each with its key written out: a read that every
  // field shares (`o[key]`) is several times slower. A required field absent "is required".
  const top = (v: unknown, key: string, rule: Rule, required = true): unknown =>
    check(issues, v, 'state', -1, key, rule, required)

  const status = check(issues, statusIn, 'state', -1, 'status', STATUS, true) as PaymentStatus | undefined
  const paymentGateway = top(o['paymentGateway'], 'paymentGateway', GATEWAY) as PaymentGateway | undefined
  let kind = top(o['kind'], 'kind', KIND) as PaymentKind | undefined
  if (kind !== undefined && paymentGateway !== undefined && kind !== kindOf(paymentGateway)) {
    add(issues, 'kind', `must be ${kindOf(paymentGateway)} for paymentGateway ${paymentGateway}`)
    kind = undefined
  }
  const paymentReferenceID = top(o['paymentReferenceID'], 'paymentReferenceID', UUID) as string | undefined
  const externalPaymentReferenceID = top(o['externalPaymentReferenceID'], 'externalPaymentReferenceID', ID) as string | undefined
  const environment = top(o['environment'], 'environment', ENVIRONMENT) as Payment['environment'] | undefined
  // required for a card; when the kind is invalid only the type is checked
  const chargeImmediately = top(o['chargeImmediately'], 'chargeImmediately', BOOLEAN, kind === 'card') as boolean | undefined
  const sellerConnectedAccountID = top(o['sellerConnectedAccountID'], 'sellerConnectedAccountID', UUID) as string | undefined
  const externalObjectIdTag = top(o['externalObjectIdTag'], 'externalObjectIdTag', ID, false) as string | undefined
  const description = top(o['description'], 'description', DESCRIPTION, false) as string | undefined
  const currency = top(o['currency'], 'currency', CURRENCY) as string | undefined
  const grossAmount = top(o['grossAmount'], 'grossAmount', AMOUNT) as number | undefined
  const splits = readSplits(issues, 'moneySplits', o['moneySplits'], paymentReferenceID)
  const customerExternalID = top(o['customerExternalID'], 'customerExternalID', ID) as string | undefined
  const customerIn = o['customer']
  const customer = customerIn === undefined ? undefined : readCustomer(issues, customerIn)
  const webhookSubscriptions = readSubscriptions(issues, o['webhookSubscriptions'])
  const successUrl = top(o['successUrl'], 'successUrl', URL_RULE) as string | undefined
  const failedUrl = top(o['failedUrl'], 'failedUrl', URL_RULE) as string | undefined
  const metaData = readMetaData(issues, o['metaData'])
  const chargedAmount = top(o['chargedAmount'], 'chargedAmount', AMOUNT) as number | undefined
  const refundedAmount = top(o['refundedAmount'], 'refundedAmount', AMOUNT) as number | undefined
  const excessRefundedAmount = top(o['excessRefundedAmount'], 'excessRefundedAmount', AMOUNT) as number | undefined
  const paidAmount = top(o['paidAmount'], 'paidAmount', AMOUNT) as number | undefined
  const kidIn = o['kid']
  const kid = kind === 'invoice' ? check(issues, kidIn, 'state', -1, 'kid', KID, true) as string | undefined : undefined
  if (kind === 'card' && kidIn !== undefined) add(issues, 'kid', 'must be absent for a card payment')
  const formAttempts = readFormAttempts(issues, o['formAttempts'])
  if (kind === 'invoice' && formAttempts !== undefined && formAttempts.length > 0) {
    add(issues, 'formAttempts', 'must be empty for an invoice (it has no payment form)')
  }
  const allocationRead = readSplits(issues, 'allocation', o['allocation'], paymentReferenceID)
  const allocation = allocationRead === undefined ? undefined : shareIfSame(allocationRead, splits)
  const createdAt = top(o['createdAt'], 'createdAt', TIMESTAMP) as string | undefined
  const updatedAt = top(o['updatedAt'], 'updatedAt', TIMESTAMP) as string | undefined
  const version = top(o['version'], 'version', POSITIVE) as number | undefined

  if (status !== undefined && kind !== undefined) {
    checkMoney(issues, {
      status,
      kind,
      chargeImmediately,
      grossAmount,
      splitSum: splits?.sum,
      allocationSum: allocation?.sum,
      allocationLength: allocation?.splits.length,
      chargedAmount,
      refundedAmount,
      excessRefundedAmount,
      paidAmount
    })
    if ((status === 'Charged' || status === 'Refunded') && splits !== undefined && allocation !== undefined) {
      checkSplitsAllocated(issues, splits.splits, allocation.splits)
    }
  }
  if (splits !== undefined && allocation !== undefined) checkFeeAccount(issues, splits.splits, allocation.splits)

  // Every field read as undefined (a required one absent or invalid) has added an issue: with no
  // issue, every required field below holds a valid value.
  if (issues.length > 0) return E.left(validationError(issues.slice(0, MAX_ISSUES)))

  const p = {
    schemaVersion: SCHEMA_VERSION,
    status,
    kind,
    paymentReferenceID,
    externalPaymentReferenceID,
    environment,
    paymentGateway,
    sellerConnectedAccountID,
    currency,
    grossAmount,
    moneySplits: splits?.splits,
    customerExternalID,
    webhookSubscriptions,
    successUrl,
    failedUrl,
    metaData,
    chargedAmount,
    refundedAmount,
    excessRefundedAmount,
    paidAmount,
    formAttempts,
    allocation: allocation?.splits,
    createdAt,
    updatedAt,
    version
  } as Mutable<Payment>
  if (chargeImmediately !== undefined) p.chargeImmediately = chargeImmediately
  if (externalObjectIdTag !== undefined) p.externalObjectIdTag = externalObjectIdTag
  if (description !== undefined) p.description = description
  if (customer !== undefined) p.customer = customer
  if (kid !== undefined) p.kid = kid
  return E.right(p)
}

/**
 * Checks a state that paysplit did not produce itself (loaded from storage, received from a
 * caller, garbage) and returns a fresh deep copy of it: plain objects and arrays holding only the
 * known fields of a {@link Payment}, or `initialState` for any object whose `status` is
 * `NoPayment`. Anything else gives `Left` with code `ValidationFailed` and one issue per problem
 * found (at most 100), each at a path below `state`: `state.grossAmount`,
 * `state.moneySplits.2.amount`, or `state` itself for a value that is not an object; each
 * message is the codecs' sentence, the path then the rule broken
 * (`state.moneySplits.2.amount must be a safe integer of at least 0.`). Numbers given as `-0`
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
    return E.left(invalid('state', 'state must be an object: a payment, or { status: "NoPayment" }.'))
  }
  // docs/rules.md C11: 1 or absent is this release's shape; a higher integer is a newer release's
  const schemaVersion = Object.hasOwn(input, 'schemaVersion') ? input['schemaVersion'] : undefined
  if (schemaVersion !== undefined && schemaVersion !== SCHEMA_VERSION) {
    return Number.isInteger(schemaVersion) && (schemaVersion as number) > SCHEMA_VERSION
      ? E.left(paymentError('UnsupportedSchemaVersion', `The state was stored by a newer release (schemaVersion above ${SCHEMA_VERSION}); this release cannot read it.`))
      : E.left(invalid('state.schemaVersion', `state.schemaVersion must be ${SCHEMA_VERSION}, or absent.`))
  }
  const status = input['status']
  if (status === 'NoPayment') return E.right(initialState)
  return validatePayment(input, status)
}
