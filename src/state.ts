/**
 * Validation of a state paysplit did not produce itself: one loaded from a database as JSON, built
 * by hand, or garbage. {@link validateState} checks every field of a {@link Payment} and every money
 * invariant, and returns a fresh deep copy that shares nothing with its input.
 *
 * The input may be hostile (getters, proxies): every property is read exactly once, into a local,
 * and only own enumerable keys of `metaData` are copied, as plain data properties. A getter or proxy
 * that throws makes this function throw; the decider wraps the call. Time is linear in the size of
 * the input: a payment may hold a hundred thousand splits after a long replay.
 *
 * @module state
 */
import * as E from './either.js'
import { isCurrencyCode } from './currencies.js'
import type { Issue, PaymentError } from './errors.js'
import { invalid, validationError } from './errors.js'
import { kid as kidNumber } from './kid.js'
import type {
  Allocation,
  FormAttempt,
  MoneySplit,
  Payment,
  PaymentKind,
  PaymentState,
  PaymentStatus
} from './payment.js'
import { initialState } from './payment.js'
import type {
  Customer,
  Environment,
  MetaData,
  PaymentGateway,
  WebhookEventType,
  WebhookSubscription
} from './requests.js'
import {
  isAmount,
  isEmail,
  isHttpUrl,
  isMobileNumber,
  isMobilePrefix,
  isTimestamp,
  isUuid,
  MAX_DESCRIPTION_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  MAX_STRING_LENGTH,
  MAX_SUBSCRIPTIONS,
  MAX_URL_LENGTH,
  parseWebhookEventType
} from './validators.js'

// -------------------------------------------------------------------------------------
// limits
// -------------------------------------------------------------------------------------

/** Identifying strings and names. */
const MAX_STRING = MAX_STRING_LENGTH
/** Descriptions and failure reasons. */
const MAX_DESCRIPTION = MAX_DESCRIPTION_LENGTH
const MAX_URL = MAX_URL_LENGTH
const MAX_METADATA_KEY = MAX_METADATA_KEY_LENGTH
const MAX_METADATA_STRING = MAX_METADATA_VALUE_LENGTH
/**
 * Validation stops collecting after this many issues: a broken state of 100 000 splits need not
 * produce 100 000 issues, and a hostile array that claims a huge length stops early.
 */
const MAX_ISSUES = 100

// -------------------------------------------------------------------------------------
// reading
// -------------------------------------------------------------------------------------

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

/** A non-null object that is not an array. */
const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * Length within `max` characters. Counted in code points, so a limit never rejects what a
 * stricter count in UTF-16 units would accept; linear, and constant for strings far too long.
 */
const withinLength = (s: string, max: number): boolean => {
  if (s.length <= max) return true
  if (s.length > 2 * max) return false
  // count code points: a high surrogate followed by a low one is one character
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
    if (n > max) return false
  }
  return true
}

const isStatus = (u: unknown): u is PaymentStatus =>
  u === 'Initiated' || u === 'Reserved' || u === 'Charged' || u === 'Cancelled' || u === 'Refunded'

/** Collects issues, each path prefixed by `state.`; stops at {@link MAX_ISSUES}. */
interface Issues {
  readonly list: Array<Issue>
  readonly add: (path: string, message: string) => void
  readonly full: () => boolean
}

const collector = (): Issues => {
  const list: Array<Issue> = []
  return {
    list,
    add: (path, message) => {
      if (list.length < MAX_ISSUES) {
        list.push({ path: path === '' ? /* v8 ignore next -- unreachable: every issue is added under a non-empty path */ 'state' : `state.${path}`, code: 'ValidationFailed', message })
      }
    },
    full: () => list.length >= MAX_ISSUES
  }
}

/** The length of an array read once; `undefined` (and an issue) when it is not an array. */
const arrayLength = (issues: Issues, path: string, u: unknown): number | undefined => {
  if (!Array.isArray(u)) {
    issues.add(path, `${path} must be an array.`)
    return undefined
  }
  const n: unknown = (u as { readonly length: unknown }).length
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    issues.add(path, `${path} must be an array.`)
    return undefined
  }
  return n
}

const amount = (issues: Issues, path: string, u: unknown): number | undefined => {
  if (isAmount(u)) return u
  issues.add(path, `${path} must be a safe integer of at least 0 (minor units).`)
  return undefined
}

const uuid = (issues: Issues, path: string, u: unknown): string | undefined => {
  if (typeof u === 'string' && isUuid(u)) return u
  issues.add(path, `${path} must be a UUID (8-4-4-4-12 hexadecimal digits).`)
  return undefined
}

const timestamp = (issues: Issues, path: string, u: unknown): string | undefined => {
  if (isTimestamp(u)) return u
  issues.add(path, `${path} must be an ISO 8601 UTC timestamp with fractional seconds.`)
  return undefined
}

const bool = (issues: Issues, path: string, u: unknown): boolean | undefined => {
  if (typeof u === 'boolean') return u
  issues.add(path, `${path} must be true or false.`)
  return undefined
}

/** A string of `min`..`max` characters; `undefined` (and an issue) otherwise. */
const text = (issues: Issues, path: string, u: unknown, min: number, max: number): string | undefined => {
  if (typeof u === 'string' && u.length >= min && withinLength(u, max)) return u
  issues.add(
    path,
    min > 0
      ? `${path} must be a non-empty string of at most ${String(max)} characters.`
      : `${path} must be a string of at most ${String(max)} characters.`
  )
  return undefined
}

/** An optional string: `undefined` when absent (or invalid, with an issue). */
const optText = (issues: Issues, path: string, u: unknown, min: number, max: number): string | undefined =>
  u === undefined ? undefined : text(issues, path, u, min, max)

const httpUrl = (issues: Issues, path: string, u: unknown): string | undefined => {
  if (typeof u === 'string' && u.length <= MAX_URL && isHttpUrl(u)) return u
  issues.add(path, `${path} must be an absolute http(s) URL of at most ${String(MAX_URL)} characters.`)
  return undefined
}

// -------------------------------------------------------------------------------------
// parts of a payment
// -------------------------------------------------------------------------------------

const readCustomer = (issues: Issues, u: unknown): Customer | undefined => {
  if (!isRecord(u)) {
    issues.add('customer', 'customer, when present, must be an object.')
    return undefined
  }
  const name = u['name']
  const email = u['email']
  const mobilePrefix = u['mobilePrefix']
  const mobile = u['mobile']
  const customerType = u['customerType']
  const c: Mutable<Customer> = {}
  const n = optText(issues, 'customer.name', name, 0, MAX_STRING)
  if (n !== undefined) c.name = n
  if (email !== undefined) {
    if (typeof email === 'string' && isEmail(email)) c.email = email
    else issues.add('customer.email', 'customer.email must be a valid e-mail address.')
  }
  if (mobilePrefix !== undefined) {
    if (typeof mobilePrefix === 'string' && isMobilePrefix(mobilePrefix)) {
      c.mobilePrefix = mobilePrefix
    } else issues.add('customer.mobilePrefix', 'customer.mobilePrefix must be "+" followed by 1 to 4 digits.')
  }
  if (mobile !== undefined) {
    if (typeof mobile === 'string' && isMobileNumber(mobile)) c.mobile = mobile
    else issues.add('customer.mobile', 'customer.mobile must be 4 to 15 digits.')
  }
  const t = optText(issues, 'customer.customerType', customerType, 1, MAX_STRING)
  if (t !== undefined) c.customerType = t
  return c
}

const readSubscriptions = (issues: Issues, u: unknown): ReadonlyArray<WebhookSubscription> | undefined => {
  const n = arrayLength(issues, 'webhookSubscriptions', u)
  if (n === undefined) return undefined
  if (n > MAX_SUBSCRIPTIONS) {
    issues.add('webhookSubscriptions', `webhookSubscriptions holds at most ${String(MAX_SUBSCRIPTIONS)} entries.`)
    return undefined
  }
  const arr = u as ReadonlyArray<unknown>
  const out: Array<WebhookSubscription> = []
  for (let i = 0; i < n; i++) {
    const path = `webhookSubscriptions.${String(i)}`
    const e = arr[i]
    if (!isRecord(e)) {
      issues.add(path, `${path} must be an object with eventType and url.`)
      continue
    }
    const eventType = e['eventType']
    const url = e['url']
    const parsed: WebhookEventType | undefined = parseWebhookEventType(eventType)
    const checkedUrl = httpUrl(issues, `${path}.url`, url)
    if (parsed === undefined || parsed !== eventType) {
      issues.add(`${path}.eventType`, `${path}.eventType must be a webhook event type in its short form (such as Charged).`)
    } else if (checkedUrl !== undefined) out.push({ eventType: parsed, url: checkedUrl })
  }
  return out
}

const readMetaData = (issues: Issues, u: unknown): MetaData | undefined => {
  if (!isRecord(u)) {
    issues.add('metaData', 'metaData must be a flat object.')
    return undefined
  }
  const keys = Object.keys(u)
  if (keys.length > MAX_METADATA_KEYS) {
    issues.add('metaData', `metaData holds at most ${String(MAX_METADATA_KEYS)} keys.`)
    return undefined
  }
  const entries: Array<readonly [string, string | number | boolean | null]> = []
  for (const key of keys) {
    const path = `metaData.${key}`
    if (!withinLength(key, MAX_METADATA_KEY)) {
      issues.add(path, `metaData keys have at most ${String(MAX_METADATA_KEY)} characters.`)
      continue
    }
    const v: unknown = u[key]
    if (
      v === null ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      (typeof v === 'string' && withinLength(v, MAX_METADATA_STRING))
    ) {
      entries.push([key, v])
    } else {
      issues.add(
        path,
        `${path} must be null, a boolean, a finite number or a string of at most ${String(MAX_METADATA_STRING)} characters.`
      )
    }
  }
  // Object.fromEntries defines own data properties: a `__proto__` key stays plain data.
  return Object.fromEntries(entries)
}

const readFormAttempts = (issues: Issues, u: unknown): ReadonlyArray<FormAttempt> | undefined => {
  const n = arrayLength(issues, 'formAttempts', u)
  if (n === undefined) return undefined
  const arr = u as ReadonlyArray<unknown>
  const out: Array<FormAttempt> = []
  for (let i = 0; i < n && !issues.full(); i++) {
    const path = `formAttempts.${String(i)}`
    const e = arr[i]
    if (!isRecord(e)) {
      issues.add(path, `${path} must be an object with at and an optional reason.`)
      continue
    }
    const at = timestamp(issues, `${path}.at`, e['at'])
    const reason = optText(issues, `${path}.reason`, e['reason'], 0, MAX_DESCRIPTION)
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
  const n = arrayLength(issues, field, u)
  if (n === undefined) return undefined
  const arr = u as ReadonlyArray<unknown>
  const splits: Array<MoneySplit> = []
  let sum: number | undefined = 0
  let previousID = 0
  for (let i = 0; i < n && !issues.full(); i++) {
    const path = `${field}.${String(i)}`
    const e = arr[i]
    if (!isRecord(e)) {
      issues.add(path, `${path} must be a money-split record.`)
      sum = undefined
      continue
    }
    const splitIDIn = e['splitID']
    const refIn = e['paymentReferenceID']
    const accountIn = e['connectedAccountID']
    const amountIn = e['amount']
    const descriptionIn = e['description']
    const insertTimeIn = e['insertTime']
    const externalIDIn = e['externalID']
    const isFeeIn = e['isFee']
    let splitID: number | undefined
    if (typeof splitIDIn !== 'number' || !Number.isSafeInteger(splitIDIn) || splitIDIn < 1) {
      issues.add(`${path}.splitID`, `${path}.splitID must be a safe integer of at least 1.`)
    } else if (splitIDIn <= previousID) {
      issues.add(`${path}.splitID`, `${path}.splitID must be greater than the splitID before it (splitIDs ascend).`)
    } else {
      splitID = splitIDIn
      previousID = splitIDIn
    }
    const ref = uuid(issues, `${path}.paymentReferenceID`, refIn)
    if (ref !== undefined && paymentReferenceID !== undefined && ref !== paymentReferenceID) {
      issues.add(`${path}.paymentReferenceID`, `${path}.paymentReferenceID must be the payment's paymentReferenceID.`)
    }
    const account = uuid(issues, `${path}.connectedAccountID`, accountIn)
    const amt = amount(issues, `${path}.amount`, amountIn)
    const description = optText(issues, `${path}.description`, descriptionIn, 0, MAX_DESCRIPTION)
    const insertTime = timestamp(issues, `${path}.insertTime`, insertTimeIn)
    const externalID = optText(issues, `${path}.externalID`, externalIDIn, 1, MAX_STRING)
    const isFee = bool(issues, `${path}.isFee`, isFeeIn)
    if (amt === undefined || sum === undefined) sum = undefined
    else if (amt > Number.MAX_SAFE_INTEGER - sum) {
      issues.add(field, `The sum of the ${field === 'allocation' ? 'allocation' : 'split'} amounts must stay within the safe-integer range.`)
      sum = undefined
    } else sum += amt
    if (
      splitID === undefined ||
      ref === undefined ||
      account === undefined ||
      amt === undefined ||
      insertTime === undefined ||
      isFee === undefined
    ) {
      continue
    }
    const split: Mutable<MoneySplit> = {
      splitID,
      paymentReferenceID: ref,
      connectedAccountID: account,
      amount: amt,
      insertTime,
      isFee
    }
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
 * Every fee entry (current split or allocation) names the same account (SPEC §3), compared
 * without regard to case, as UUIDs are.
 */
const checkFeeAccount = (
  issues: Issues,
  splits: ReadonlyArray<MoneySplit>,
  allocation: ReadonlyArray<Allocation>
): void => {
  let feeAccount: string | undefined
  const check = (path: string, account: string): void => {
    const a = account.toLowerCase()
    if (feeAccount === undefined) feeAccount = a
    else if (a !== feeAccount) {
      issues.add(path, `${path} must be the same fee account as every other fee entry.`)
    }
  }
  for (let i = 0; i < splits.length; i++) {
    const s = splits[i]
    if (s !== undefined && s.isFee) check(`moneySplits.${String(i)}.connectedAccountID`, s.connectedAccountID)
  }
  for (let i = 0; i < allocation.length; i++) {
    const a = allocation[i]
    if (a !== undefined && a.isFee) check(`allocation.${String(i)}.connectedAccountID`, a.connectedAccountID)
  }
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
  for (let i = 0; i < splits.length && !issues.full(); i++) {
    const s = splits[i]
    /* v8 ignore if -- unreachable: readSplits builds the list by push, without holes */
    if (s === undefined) continue
    while (j < allocation.length && /* v8 ignore next -- unreachable `?? 0`: j < allocation.length, and readSplits builds the list without holes */ (allocation[j]?.splitID ?? 0) < s.splitID) j++
    const a = allocation[j]
    const path = `moneySplits.${String(i)}`
    if (a === undefined || a.splitID !== s.splitID) {
      issues.add(`${path}.splitID`, `Split ${String(s.splitID)} is not in the allocation made when the payment was charged.`)
      continue
    }
    if (a.connectedAccountID !== s.connectedAccountID) {
      issues.add(`${path}.connectedAccountID`, `${path}.connectedAccountID differs from the account allocated to split ${String(s.splitID)}.`)
    }
    if (a.isFee !== s.isFee) {
      issues.add(`${path}.isFee`, `${path}.isFee differs from the allocation of split ${String(s.splitID)}.`)
    }
    if (s.amount > a.amount) {
      issues.add(
        `${path}.amount`,
        `${path}.amount ${String(s.amount)} is more than split ${String(s.splitID)} held when charged, ${String(a.amount)}.`
      )
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
    issues.add('grossAmount', `grossAmount ${String(gross)} differs from the sum of the split amounts, ${String(m.splitSum)}.`)
  }
  if (kind === 'card') {
    if (paid !== undefined && paid !== 0) issues.add('paidAmount', 'paidAmount must be 0 for a card payment.')
    if (excess !== undefined && excess !== 0) {
      issues.add('excessRefundedAmount', 'excessRefundedAmount must be 0 for a card payment.')
    }
  } else if (status === 'Reserved' || status === 'Cancelled') {
    issues.add('status', `An invoice cannot be ${status}: it goes from Initiated to Charged only.`)
  }
  if (status === 'Reserved' && kind === 'card' && m.chargeImmediately === true) {
    issues.add('chargeImmediately', 'A Reserved payment has chargeImmediately false: with true it is charged at once.')
  }
  const charges = status === 'Charged' || status === 'Refunded'
  if (!charges) {
    if (charged !== undefined && charged !== 0) issues.add('chargedAmount', `chargedAmount must be 0 while the payment is ${status}.`)
    if (refunded !== undefined && refunded !== 0) issues.add('refundedAmount', `refundedAmount must be 0 while the payment is ${status}.`)
    if (excess !== undefined && excess !== 0) {
      issues.add('excessRefundedAmount', `excessRefundedAmount must be 0 while the payment is ${status}.`)
    }
    if (m.allocationLength !== undefined && m.allocationLength !== 0) {
      issues.add('allocation', `allocation must be empty while the payment is ${status}.`)
    }
    if (gross !== undefined && gross < 1) {
      issues.add('grossAmount', `grossAmount must be at least 1 while the payment is ${status}.`)
    }
    if (status === 'Initiated' && kind === 'invoice' && paid !== undefined && gross !== undefined && paid >= gross) {
      issues.add('paidAmount', `paidAmount ${String(paid)} of an Initiated invoice must be less than its grossAmount ${String(gross)}.`)
    }
    return
  }
  if (charged !== undefined && refunded !== undefined && gross !== undefined) {
    if (refunded > charged) {
      issues.add('refundedAmount', `refundedAmount ${String(refunded)} must not exceed chargedAmount ${String(charged)}.`)
    } else if (charged - refunded !== gross) {
      issues.add(
        'chargedAmount',
        `chargedAmount ${String(charged)} must equal grossAmount ${String(gross)} plus refundedAmount ${String(refunded)}.`
      )
    }
  }
  if (excess !== undefined && refunded !== undefined && excess > refunded) {
    issues.add('excessRefundedAmount', `excessRefundedAmount ${String(excess)} must not exceed refundedAmount ${String(refunded)}.`)
  }
  if (
    m.allocationSum !== undefined &&
    charged !== undefined &&
    excess !== undefined &&
    excess <= charged &&
    m.allocationSum !== charged - excess
  ) {
    issues.add(
      'allocation',
      `The allocation sums to ${String(m.allocationSum)}; it must be chargedAmount minus excessRefundedAmount, ${String(charged - excess)}.`
    )
  }
  if (status === 'Refunded' && gross !== undefined && gross !== 0) {
    issues.add('grossAmount', 'grossAmount must be 0 once the payment is Refunded.')
  }
  if (kind === 'invoice' && charged !== undefined && paid !== undefined && charged !== paid) {
    issues.add('chargedAmount', `chargedAmount ${String(charged)} of a charged invoice must equal its paidAmount ${String(paid)}.`)
  }
}

// -------------------------------------------------------------------------------------
// validation
// -------------------------------------------------------------------------------------

const kindOf = (gateway: PaymentGateway): PaymentKind => (gateway === 'invoice' ? 'invoice' : 'card')

const validatePayment = (o: Readonly<Record<string, unknown>>, statusIn: unknown): E.Either<PaymentError, Payment> => {
  // Every property read once, here, in the order of the Payment type.
  const kindIn = o['kind']
  const paymentReferenceIDIn = o['paymentReferenceID']
  const externalPaymentReferenceIDIn = o['externalPaymentReferenceID']
  const environmentIn = o['environment']
  const paymentGatewayIn = o['paymentGateway']
  const chargeImmediatelyIn = o['chargeImmediately']
  const sellerConnectedAccountIDIn = o['sellerConnectedAccountID']
  const externalObjectIdTagIn = o['externalObjectIdTag']
  const descriptionIn = o['description']
  const currencyIn = o['currency']
  const grossAmountIn = o['grossAmount']
  const moneySplitsIn = o['moneySplits']
  const customerExternalIDIn = o['customerExternalID']
  const customerIn = o['customer']
  const webhookSubscriptionsIn = o['webhookSubscriptions']
  const successUrlIn = o['successUrl']
  const failedUrlIn = o['failedUrl']
  const metaDataIn = o['metaData']
  const chargedAmountIn = o['chargedAmount']
  const refundedAmountIn = o['refundedAmount']
  const excessRefundedAmountIn = o['excessRefundedAmount']
  const paidAmountIn = o['paidAmount']
  const kidIn = o['kid']
  const formAttemptsIn = o['formAttempts']
  const allocationIn = o['allocation']
  const createdAtIn = o['createdAt']
  const updatedAtIn = o['updatedAt']
  const versionIn = o['version']

  const issues = collector()

  const status = isStatus(statusIn) ? statusIn : undefined
  if (status === undefined) {
    issues.add('status', 'status must be one of Initiated, Reserved, Charged, Cancelled, Refunded (or NoPayment).')
  }
  const paymentGateway: PaymentGateway | undefined =
    paymentGatewayIn === 'creditcard' || paymentGatewayIn === 'invoice' ? paymentGatewayIn : undefined
  if (paymentGateway === undefined) issues.add('paymentGateway', 'paymentGateway must be creditcard or invoice.')
  let kind: PaymentKind | undefined = kindIn === 'card' || kindIn === 'invoice' ? kindIn : undefined
  if (kind === undefined) issues.add('kind', 'kind must be card or invoice.')
  else if (paymentGateway !== undefined && kind !== kindOf(paymentGateway)) {
    issues.add('kind', `kind must be ${kindOf(paymentGateway)} for paymentGateway ${paymentGateway}.`)
    kind = undefined
  }
  const paymentReferenceID = uuid(issues, 'paymentReferenceID', paymentReferenceIDIn)
  const externalPaymentReferenceID = text(issues, 'externalPaymentReferenceID', externalPaymentReferenceIDIn, 1, MAX_STRING)
  const environment: Environment | undefined =
    environmentIn === 'test' || environmentIn === 'production' ? environmentIn : undefined
  if (environment === undefined) issues.add('environment', 'environment must be test or production.')
  let chargeImmediately: boolean | undefined
  if (chargeImmediatelyIn !== undefined || kind === 'card') {
    chargeImmediately = bool(issues, 'chargeImmediately', chargeImmediatelyIn)
  }
  const sellerConnectedAccountID = uuid(issues, 'sellerConnectedAccountID', sellerConnectedAccountIDIn)
  const externalObjectIdTag = optText(issues, 'externalObjectIdTag', externalObjectIdTagIn, 1, MAX_STRING)
  const description = optText(issues, 'description', descriptionIn, 0, MAX_DESCRIPTION)
  let currency: string | undefined
  if (typeof currencyIn === 'string' && isCurrencyCode(currencyIn)) currency = currencyIn
  else issues.add('currency', 'currency must be an active ISO 4217 code in upper case.')
  const grossAmount = amount(issues, 'grossAmount', grossAmountIn)
  const splits = readSplits(issues, 'moneySplits', moneySplitsIn, paymentReferenceID)
  const customerExternalID = text(issues, 'customerExternalID', customerExternalIDIn, 1, MAX_STRING)
  const customer = customerIn === undefined ? undefined : readCustomer(issues, customerIn)
  const webhookSubscriptions = readSubscriptions(issues, webhookSubscriptionsIn)
  const successUrl = httpUrl(issues, 'successUrl', successUrlIn)
  const failedUrl = httpUrl(issues, 'failedUrl', failedUrlIn)
  const metaData = readMetaData(issues, metaDataIn)
  const chargedAmount = amount(issues, 'chargedAmount', chargedAmountIn)
  const refundedAmount = amount(issues, 'refundedAmount', refundedAmountIn)
  const excessRefundedAmount = amount(issues, 'excessRefundedAmount', excessRefundedAmountIn)
  const paidAmount = amount(issues, 'paidAmount', paidAmountIn)
  let kid: string | undefined
  if (kind === 'invoice') {
    if (typeof kidIn === 'string' && kidNumber.isValid(kidIn)) kid = kidIn
    else issues.add('kid', 'An invoice needs a valid KID: 2 to 25 digits, the last a MOD10 or MOD11 check digit.')
  } else if (kind === 'card' && kidIn !== undefined) {
    issues.add('kid', 'A card payment has no KID.')
  }
  const formAttempts = readFormAttempts(issues, formAttemptsIn)
  if (kind === 'invoice' && formAttempts !== undefined && formAttempts.length > 0) {
    issues.add('formAttempts', 'An invoice has no payment form, so no form attempts.')
  }
  const allocationRead = readSplits(issues, 'allocation', allocationIn, paymentReferenceID)
  const allocation = allocationRead === undefined ? undefined : shareIfSame(allocationRead, splits)
  const createdAt = timestamp(issues, 'createdAt', createdAtIn)
  const updatedAt = timestamp(issues, 'updatedAt', updatedAtIn)
  let version: number | undefined
  if (typeof versionIn === 'number' && Number.isSafeInteger(versionIn) && versionIn >= 1) version = versionIn
  else issues.add('version', 'version must be a safe integer of at least 1.')

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

  if (
    issues.list.length > 0 ||
    status === undefined ||
    kind === undefined ||
    paymentReferenceID === undefined ||
    externalPaymentReferenceID === undefined ||
    environment === undefined ||
    paymentGateway === undefined ||
    sellerConnectedAccountID === undefined ||
    currency === undefined ||
    grossAmount === undefined ||
    splits === undefined ||
    customerExternalID === undefined ||
    webhookSubscriptions === undefined ||
    successUrl === undefined ||
    failedUrl === undefined ||
    metaData === undefined ||
    chargedAmount === undefined ||
    refundedAmount === undefined ||
    excessRefundedAmount === undefined ||
    paidAmount === undefined ||
    formAttempts === undefined ||
    allocation === undefined ||
    createdAt === undefined ||
    updatedAt === undefined ||
    version === undefined
  ) {
    return E.left(issues.list.length > 0 ? validationError(issues.list) : /* v8 ignore next -- unreachable: every field read as undefined above has added an issue */ invalid('state', 'The state is not a valid payment.'))
  }

  const p: Mutable<Payment> = {
    status,
    kind,
    paymentReferenceID,
    externalPaymentReferenceID,
    environment,
    paymentGateway,
    sellerConnectedAccountID,
    currency,
    grossAmount,
    moneySplits: splits.splits,
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
    allocation: allocation.splits,
    createdAt,
    updatedAt,
    version
  }
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
 * `state.moneySplits.2.amount`, or `state` itself for a value that is not an object.
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
    return E.left(invalid('state', 'The state must be an object: a payment, or { status: "NoPayment" }.'))
  }
  const status = input['status']
  if (status === 'NoPayment') return E.right(initialState)
  return validatePayment(input, status)
}
