/**
 * `paysplit/codecs`: the validation layer of the wire bodies a caller sends, small enough for a
 * front-end form. It holds the io-ts codecs of the payment-intent request (seed §2.1) and of the
 * money-split patch (seed §2.5), `decode*` functions returning `Either<PaymentError, T>`, and
 * the format predicates a form needs field by field.
 *
 * Every rule of SPEC §3 is checked and every problem is collected, each as an
 * {@link Issue} `{ path, code, message }` with a path relative to the body
 * (`moneySplitList.1.amount`). Decoding:
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
  isAmount,
  isEmail,
  isHttpUrl,
  isMobileNumber,
  isMobilePrefix,
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
  parseWebhookEventType
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

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Issues = Issue[]

/** `Object.prototype.hasOwnProperty`, unbound from any input (an input may shadow it). */
const hasOwn = (o: object, key: PropertyKey): boolean =>
  Object.prototype.hasOwnProperty.call(o, key)

/** The own property `key` of `o`, read once; `undefined` when `o` has no such own property. */
const read = (o: object, key: string | number): unknown =>
  hasOwn(o, key) ? (o as Record<string | number, unknown>)[key] : undefined

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

/** Path of an object: `base` itself, or its entry `index` (`index` < 0: not in a list). */
const objectPath = (base: string, index: number): string =>
  index < 0 ? base : base === '' ? /* v8 ignore next -- unreachable: every caller with an index >= 0 passes a non-empty base */ String(index) : `${base}.${String(index)}`

/** Path of `field` of the object at (`base`, `index`). Built only when an issue needs it. */
const fieldPath = (base: string, index: number, field: string): string => {
  const p = objectPath(base, index)
  return p === '' ? field : `${p}.${field}`
}

const fail = (issues: Issues, path: string, message: string): void => {
  issues.push({ path, code: 'ValidationFailed', message })
}

const lengthMessage = (path: string, max: number): string =>
  `${path} must be at most ${String(max)} characters long.`

/**
 * Checks a string field. Returns it when valid, `undefined` when absent or invalid (an issue
 * is pushed for a required absent field and for every invalid one).
 */
const checkString = (
  issues: Issues,
  v: unknown,
  base: string,
  index: number,
  field: string,
  required: boolean,
  max: number,
  nonEmpty: boolean
): string | undefined => {
  if (v === undefined) {
    if (required) {
      const p = fieldPath(base, index, field)
      fail(issues, p, `${p} is required.`)
    }
    return undefined
  }
  if (typeof v !== 'string') {
    const p = fieldPath(base, index, field)
    fail(issues, p, `${p} must be a string.`)
    return undefined
  }
  if (v.length > max) {
    const p = fieldPath(base, index, field)
    fail(issues, p, lengthMessage(p, max))
    return undefined
  }
  if (nonEmpty && v.length === 0) {
    const p = fieldPath(base, index, field)
    fail(issues, p, `${p} must not be empty.`)
    return undefined
  }
  return v
}

/** A string checked by `ok` (which sees only strings of at most `max` units). */
const checkFormat = (
  issues: Issues,
  v: unknown,
  base: string,
  index: number,
  field: string,
  required: boolean,
  max: number,
  ok: (s: string) => boolean,
  what: string
): string | undefined => {
  const s = checkString(issues, v, base, index, field, required, max, false)
  if (s === undefined || ok(s)) return s
  const p = fieldPath(base, index, field)
  fail(issues, p, `${p} must be ${what}.`)
  return undefined
}

const UUID = 'a UUID (8-4-4-4-12 hexadecimal digits)'
const URL_FORMAT = 'an absolute http or https URL without spaces or control characters'

const checkUuid = (
  issues: Issues,
  v: unknown,
  base: string,
  index: number,
  field: string
): string | undefined => checkFormat(issues, v, base, index, field, true, 36, isUuid, UUID)

const checkUrl = (
  issues: Issues,
  v: unknown,
  base: string,
  index: number,
  field: string
): string | undefined =>
  checkFormat(issues, v, base, index, field, true, MAX_URL_LENGTH, isHttpUrl, URL_FORMAT)

const checkBoolean = (
  issues: Issues,
  v: unknown,
  base: string,
  index: number,
  field: string,
  required: boolean
): boolean | undefined => {
  if (typeof v === 'boolean') return v
  const p = fieldPath(base, index, field)
  if (v === undefined) {
    if (required) fail(issues, p, `${p} is required.`)
    return undefined
  }
  fail(issues, p, `${p} must be true or false.`)
  return undefined
}

/** An amount: a safe integer ≥ `min`; `-0` is read as `0`. */
const checkAmount = (
  issues: Issues,
  v: unknown,
  base: string,
  index: number,
  field: string,
  min: number
): number | undefined => {
  if (isAmount(v) && v >= min) return v === 0 ? 0 : v
  const p = fieldPath(base, index, field)
  fail(
    issues,
    p,
    v === undefined
      ? `${p} is required.`
      : `${p} must be a whole number of minor units, at least ${String(min)} and at most ${String(Number.MAX_SAFE_INTEGER)}.`
  )
  return undefined
}

// -------------------------------------------------------------------------------------
// collectors: parts of the payment-intent request
// -------------------------------------------------------------------------------------

/** One split of `moneySplitList` (or a lone split when `base` is ''). */
const checkSplit = (
  issues: Issues,
  u: unknown,
  base: string,
  index: number
): Mutable<MoneySplitRequestType> | undefined => {
  if (!isRecord(u)) {
    const p = objectPath(base, index)
    fail(issues, p, `${p === '' ? 'A money split' : p} must be an object.`)
    return undefined
  }
  const connectedAccountID = checkUuid(
    issues,
    hasOwn(u, 'connectedAccountID') ? u.connectedAccountID : undefined,
    base,
    index,
    'connectedAccountID'
  )
  const amount = checkAmount(
    issues,
    hasOwn(u, 'amount') ? u.amount : undefined,
    base,
    index,
    'amount',
    0
  )
  const description = checkString(
    issues,
    hasOwn(u, 'description') ? u.description : undefined,
    base,
    index,
    'description',
    false,
    MAX_DESCRIPTION,
    false
  )
  const isFee = checkBoolean(
    issues,
    hasOwn(u, 'isFee') ? u.isFee : undefined,
    base,
    index,
    'isFee',
    true
  )
  const externalID = checkString(
    issues,
    hasOwn(u, 'externalID') ? u.externalID : undefined,
    base,
    index,
    'externalID',
    false,
    MAX_STRING,
    true
  )
  // Fields that failed are `undefined` here; the value is only used when there is no issue.
  const split = { connectedAccountID, amount } as Mutable<MoneySplitRequestType>
  if (description !== undefined) split.description = description
  split.isFee = isFee as boolean
  if (externalID !== undefined) split.externalID = externalID
  return split
}

/** `moneySplitList`: the splits, and their sum when every amount is valid and the sum is safe. */
const checkSplits = (
  issues: Issues,
  v: unknown
): { readonly splits: Array<Mutable<MoneySplitRequestType>>; readonly sum: number | undefined } => {
  const splits: Array<Mutable<MoneySplitRequestType>> = []
  if (v === undefined) {
    fail(issues, 'moneySplitList', 'moneySplitList is required.')
    return { splits, sum: undefined }
  }
  if (!Array.isArray(v)) {
    fail(issues, 'moneySplitList', 'moneySplitList must be an array of money splits.')
    return { splits, sum: undefined }
  }
  const list: ReadonlyArray<unknown> = v
  const n = list.length
  if (n === 0) fail(issues, 'moneySplitList', 'moneySplitList must hold at least one split.')
  if (n > MAX_SPLITS) {
    fail(
      issues,
      'moneySplitList',
      `moneySplitList must hold at most ${String(MAX_SPLITS)} splits; it holds ${String(n)}.`
    )
  }
  let sum = 0
  let sumOk = n >= 1 && n <= MAX_SPLITS
  let feeIndex = -1
  let feeAccount = ''
  const m = n < MAX_SPLITS ? n : MAX_SPLITS
  for (let i = 0; i < m; i++) {
    if (!hasOwn(list, i)) {
      fail(
        issues,
        `moneySplitList.${String(i)}`,
        `moneySplitList.${String(i)} is missing (the array has a hole).`
      )
      sumOk = false
      break
    }
    const split = checkSplit(issues, list[i], 'moneySplitList', i)
    if (split === undefined) {
      sumOk = false
      continue
    }
    const amount = split.amount as number | undefined
    if (amount === undefined) {
      sumOk = false
    } else if (sumOk) {
      sum += amount
      if (sum > Number.MAX_SAFE_INTEGER) {
        fail(
          issues,
          'moneySplitList',
          `The amounts of moneySplitList add up to more than ${String(Number.MAX_SAFE_INTEGER)}.`
        )
        sumOk = false
      }
    }
    const account = split.connectedAccountID as string | undefined
    if (split.isFee && account !== undefined) {
      const key = account.toLowerCase()
      if (feeIndex === -1) {
        feeIndex = i
        feeAccount = key
      } else if (key !== feeAccount) {
        const p = `moneySplitList.${String(i)}.connectedAccountID`
        fail(
          issues,
          p,
          `${p} must be the platform's fee account named by moneySplitList.${String(feeIndex)}: every fee split (isFee true) goes to the same connectedAccountID.`
        )
      }
    }
    splits.push(split)
  }
  return { splits, sum: sumOk ? sum : undefined }
}

const checkCustomer = (issues: Issues, u: unknown, base: string): CustomerType | undefined => {
  if (!isRecord(u)) {
    fail(issues, base, `${base === '' ? 'The customer' : base} must be an object.`)
    return undefined
  }
  const name = checkString(
    issues,
    hasOwn(u, 'name') ? u.name : undefined,
    base,
    -1,
    'name',
    false,
    MAX_STRING,
    false
  )
  const email = checkFormat(
    issues,
    hasOwn(u, 'email') ? u.email : undefined,
    base,
    -1,
    'email',
    false,
    MAX_EMAIL_LENGTH,
    isEmail,
    'an e-mail address (one @, a local part of 1–64 characters, a domain with a dot and no empty label, no spaces)'
  )
  const mobilePrefix = checkFormat(
    issues,
    hasOwn(u, 'mobilePrefix') ? u.mobilePrefix : undefined,
    base,
    -1,
    'mobilePrefix',
    false,
    MAX_STRING,
    isMobilePrefix,
    'an international dialling prefix: + and 1–4 digits'
  )
  const mobile = checkFormat(
    issues,
    hasOwn(u, 'mobile') ? u.mobile : undefined,
    base,
    -1,
    'mobile',
    false,
    MAX_STRING,
    isMobileNumber,
    '4–15 digits'
  )
  const customerType = checkString(
    issues,
    hasOwn(u, 'customerType') ? u.customerType : undefined,
    base,
    -1,
    'customerType',
    false,
    MAX_STRING,
    true
  )
  const customer: Mutable<CustomerType> = {}
  if (name !== undefined) customer.name = name
  if (email !== undefined) customer.email = email
  if (mobilePrefix !== undefined) customer.mobilePrefix = mobilePrefix
  if (mobile !== undefined) customer.mobile = mobile
  if (customerType !== undefined) customer.customerType = customerType
  return customer
}

const EVENT_TYPES =
  'Initiated, Reserved, Charged, Cancelled, Refunded, PartiallyRefunded or InvoiceAdjusted (or the same with "Payment" appended)'

const checkSubscription = (
  issues: Issues,
  u: unknown,
  base: string,
  index: number
): WebhookSubscriptionType | undefined => {
  if (!isRecord(u)) {
    const p = objectPath(base, index)
    fail(issues, p, `${p === '' ? 'A webhook subscription' : p} must be an object.`)
    return undefined
  }
  const rawType = hasOwn(u, 'eventType') ? u.eventType : undefined
  const eventType = parseWebhookEventType(rawType)
  if (eventType === undefined) {
    const p = fieldPath(base, index, 'eventType')
    fail(
      issues,
      p,
      rawType === undefined ? `${p} is required.` : `${p} must be one of ${EVENT_TYPES}.`
    )
  }
  const url = checkUrl(issues, hasOwn(u, 'url') ? u.url : undefined, base, index, 'url')
  return { eventType: eventType as WebhookEventType, url: url as string }
}

const checkSubscriptions = (issues: Issues, v: unknown): WebhookSubscriptionType[] => {
  if (v === undefined) return []
  if (!Array.isArray(v)) {
    fail(issues, 'webhookSubscriptions', 'webhookSubscriptions must be an array.')
    return []
  }
  const list: ReadonlyArray<unknown> = v
  const n = list.length
  if (n > MAX_SUBSCRIPTIONS) {
    fail(
      issues,
      'webhookSubscriptions',
      `webhookSubscriptions must hold at most ${String(MAX_SUBSCRIPTIONS)} subscriptions; it holds ${String(n)}.`
    )
  }
  const m = n < MAX_SUBSCRIPTIONS ? n : MAX_SUBSCRIPTIONS
  // of its final size (it is kept in the payment); used only when every entry is valid
  const subscriptions = new Array<WebhookSubscriptionType>(m)
  for (let i = 0; i < m; i++) {
    if (!hasOwn(list, i)) {
      const p = `webhookSubscriptions.${String(i)}`
      fail(issues, p, `${p} is missing (the array has a hole).`)
      break
    }
    const s = checkSubscription(issues, list[i], 'webhookSubscriptions', i)
    if (s !== undefined) subscriptions[i] = s
  }
  return subscriptions
}

const checkMetaData = (issues: Issues, v: unknown): MetaData => {
  if (v === undefined) return {}
  if (!isRecord(v)) {
    fail(issues, 'metaData', 'metaData must be an object.')
    return {}
  }
  // Object spread reads each own enumerable property of the input once and defines it on a fresh
  // plain object as an own data property (CopyDataProperties): a `__proto__` or `constructor` key
  // stays plain data and no prototype is touched. The rest works on that copy only.
  const copy: Record<PropertyKey, unknown> = { ...v }
  const keys = Object.keys(copy)
  const n = keys.length
  if (n > MAX_METADATA_KEYS) {
    fail(
      issues,
      'metaData',
      `metaData must have at most ${String(MAX_METADATA_KEYS)} keys; it has ${String(n)}.`
    )
  }
  const m = n < MAX_METADATA_KEYS ? n : MAX_METADATA_KEYS
  for (let i = 0; i < m; i++) {
    const key = keys[i] as string
    if (key.length === 0 || key.length > MAX_METADATA_KEY) {
      fail(
        issues,
        `metaData.${key}`,
        `Every metaData key must be 1–${String(MAX_METADATA_KEY)} characters long.`
      )
    }
    const value = copy[key]
    if (typeof value === 'string') {
      if (value.length > MAX_METADATA_VALUE) {
        fail(
          issues,
          `metaData.${key}`,
          `A metaData string value must be at most ${String(MAX_METADATA_VALUE)} characters long.`
        )
      }
    } else if (
      value !== null &&
      typeof value !== 'boolean' &&
      !(typeof value === 'number' && Number.isFinite(value))
    ) {
      fail(
        issues,
        `metaData.${key}`,
        'A metaData value must be a string, a finite number, a boolean or null (metaData is flat).'
      )
    }
  }
  // Symbol-keyed properties are not data a JSON body can carry: dropped like unknown fields.
  for (const symbol of Object.getOwnPropertySymbols(copy)) Reflect.deleteProperty(copy, symbol)
  return copy as MetaData
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
export const validatePaymentIntentRequest = (
  input: unknown
): Validated<PaymentIntentRequestType> => {
  if (!isRecord(input)) {
    return {
      issues: [
        {
          path: '',
          code: 'ValidationFailed',
          message: 'The payment-intent request must be an object.'
        }
      ]
    }
  }
  const issues: Issues = []
  const externalPaymentReferenceID = checkString(
    issues,
    hasOwn(input, 'externalPaymentReferenceID') ? input.externalPaymentReferenceID : undefined,
    '',
    -1,
    'externalPaymentReferenceID',
    true,
    MAX_STRING,
    true
  )

  const rawEnvironment = hasOwn(input, 'environment') ? input.environment : undefined
  const environment: Environment | undefined =
    rawEnvironment === 'test' || rawEnvironment === 'production' ? rawEnvironment : undefined
  if (environment === undefined) {
    fail(
      issues,
      'environment',
      rawEnvironment === undefined
        ? 'environment is required.'
        : "environment must be 'test' or 'production'."
    )
  }

  const rawGateway = hasOwn(input, 'paymentGateway') ? input.paymentGateway : undefined
  const paymentGateway: PaymentGateway | undefined =
    rawGateway === 'creditcard' || rawGateway === 'invoice' ? rawGateway : undefined
  if (paymentGateway === undefined) {
    fail(
      issues,
      'paymentGateway',
      rawGateway === undefined
        ? 'paymentGateway is required.'
        : "paymentGateway must be 'creditcard' or 'invoice'."
    )
  }

  // Required for card payments, optional for invoices; when the gateway itself is invalid only
  // its type is checked.
  const chargeImmediately = checkBoolean(
    issues,
    hasOwn(input, 'chargeImmediately') ? input.chargeImmediately : undefined,
    '',
    -1,
    'chargeImmediately',
    paymentGateway === 'creditcard'
  )
  const sellerConnectedAccountID = checkUuid(
    issues,
    hasOwn(input, 'sellerConnectedAccountID') ? input.sellerConnectedAccountID : undefined,
    '',
    -1,
    'sellerConnectedAccountID'
  )
  const externalObjectIdTag = checkString(
    issues,
    hasOwn(input, 'externalObjectIdTag') ? input.externalObjectIdTag : undefined,
    '',
    -1,
    'externalObjectIdTag',
    false,
    MAX_STRING,
    true
  )
  const description = checkString(
    issues,
    hasOwn(input, 'description') ? input.description : undefined,
    '',
    -1,
    'description',
    false,
    MAX_DESCRIPTION,
    false
  )
  const grossAmount = checkAmount(
    issues,
    hasOwn(input, 'grossAmount') ? input.grossAmount : undefined,
    '',
    -1,
    'grossAmount',
    1
  )

  const rawCurrency = hasOwn(input, 'currency') ? input.currency : undefined
  const currency =
    typeof rawCurrency === 'string' && isCurrencyCode(rawCurrency) ? rawCurrency : undefined
  if (currency === undefined) {
    fail(
      issues,
      'currency',
      rawCurrency === undefined
        ? 'currency is required.'
        : 'currency must be an active ISO 4217 currency code in upper case, such as NOK.'
    )
  }

  const { splits, sum } = checkSplits(
    issues,
    hasOwn(input, 'moneySplitList') ? input.moneySplitList : undefined
  )
  if (grossAmount !== undefined && sum !== undefined && sum !== grossAmount) {
    issues.push({
      path: 'grossAmount',
      code: 'GrossAmountMismatch',
      message: `grossAmount ${String(grossAmount)} differs from the sum of the split amounts, ${String(sum)}.`
    })
  }

  const rawCustomerExternalID = hasOwn(input, 'customerExternalID')
    ? input.customerExternalID
    : undefined
  let customerExternalID: string | undefined
  if (
    rawCustomerExternalID === undefined ||
    rawCustomerExternalID === null ||
    rawCustomerExternalID === ''
  ) {
    issues.push({
      path: 'customerExternalID',
      code: 'MissingCustomerExternalID',
      message: 'customerExternalID is missing: every request must name the customer.'
    })
  } else {
    customerExternalID = checkString(
      issues,
      rawCustomerExternalID,
      '',
      -1,
      'customerExternalID',
      true,
      MAX_STRING,
      true
    )
  }

  const rawCustomer = hasOwn(input, 'customer') ? input.customer : undefined
  const customer =
    rawCustomer === undefined ? undefined : checkCustomer(issues, rawCustomer, 'customer')
  const webhookSubscriptions = checkSubscriptions(
    issues,
    hasOwn(input, 'webhookSubscriptions') ? input.webhookSubscriptions : undefined
  )
  const successUrl = checkUrl(
    issues,
    hasOwn(input, 'successUrl') ? input.successUrl : undefined,
    '',
    -1,
    'successUrl'
  )
  const failedUrl = checkUrl(
    issues,
    hasOwn(input, 'failedUrl') ? input.failedUrl : undefined,
    '',
    -1,
    'failedUrl'
  )
  const metaData = checkMetaData(issues, hasOwn(input, 'metaData') ? input.metaData : undefined)

  if (issues.length > 0) return { issues }
  // No issue: every required field above is defined.
  const value = {
    externalPaymentReferenceID,
    environment,
    paymentGateway
  } as Mutable<PaymentIntentRequestType>
  if (chargeImmediately !== undefined) value.chargeImmediately = chargeImmediately
  value.sellerConnectedAccountID = sellerConnectedAccountID as string
  if (externalObjectIdTag !== undefined) value.externalObjectIdTag = externalObjectIdTag
  if (description !== undefined) value.description = description
  value.grossAmount = grossAmount as number
  value.currency = currency as string
  value.moneySplitList = splits
  value.customerExternalID = customerExternalID as string
  if (customer !== undefined) value.customer = customer
  value.webhookSubscriptions = webhookSubscriptions
  value.successUrl = successUrl as string
  value.failedUrl = failedUrl as string
  value.metaData = metaData
  return { issues, value }
}

const UPDATE_TYPES = "'UpdateAmount', 'DoDeleteSplitEntry' or 'DoNothing'"

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
  if (!isRecord(u)) {
    const p = objectPath(base, index)
    fail(issues, p, `${p === '' ? /* v8 ignore next -- unreachable: entries are always checked under the base 'moneySplitPatch' */ 'A patch entry' : p} must be an object.`)
    return
  }
  const rawSplitID = hasOwn(u, 'splitID') ? u.splitID : undefined
  let splitID: number | undefined
  if (typeof rawSplitID === 'number' && Number.isSafeInteger(rawSplitID) && rawSplitID >= 1) {
    splitID = rawSplitID
  } else {
    const p = fieldPath(base, index, 'splitID')
    fail(
      issues,
      p,
      rawSplitID === undefined ? `${p} is required.` : `${p} must be a whole number ≥ 1.`
    )
  }
  const updateType = hasOwn(u, 'updateType') ? u.updateType : undefined
  switch (updateType) {
    case 'UpdateAmount': {
      const newAmount = checkAmount(
        issues,
        hasOwn(u, 'newAmount') ? u.newAmount : undefined,
        base,
        index,
        'newAmount',
        0
      )
      if (splitID !== undefined && newAmount !== undefined) put(splitID, updateType, newAmount)
      return
    }
    case 'DoDeleteSplitEntry': {
      const doDelete = checkBoolean(
        issues,
        hasOwn(u, 'doDelete') ? u.doDelete : undefined,
        base,
        index,
        'doDelete',
        true
      )
      if (splitID !== undefined && doDelete !== undefined) put(splitID, updateType, doDelete)
      return
    }
    case 'DoNothing':
      if (splitID !== undefined) put(splitID, updateType, undefined)
      return
    default: {
      const p = fieldPath(base, index, 'updateType')
      fail(
        issues,
        p,
        updateType === undefined ? `${p} is required.` : `${p} must be ${UPDATE_TYPES}.`
      )
    }
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
  if (!isRecord(input)) {
    return {
      issues: [
        { path: '', code: 'ValidationFailed', message: 'The money-split patch must be an object.' }
      ]
    }
  }
  const issues: Issues = []
  const raw = hasOwn(input, 'moneySplitPatch') ? input.moneySplitPatch : undefined
  if (raw === undefined) {
    fail(issues, 'moneySplitPatch', 'moneySplitPatch is required.')
  } else if (!Array.isArray(raw)) {
    fail(issues, 'moneySplitPatch', 'moneySplitPatch must be an array of patch entries.')
  } else {
    const list: ReadonlyArray<unknown> = raw
    const n = list.length
    const put = start(n)
    for (let i = 0; i < n; i++) {
      if (!hasOwn(list, i)) {
        const p = `moneySplitPatch.${String(i)}`
        fail(issues, p, `${p} is missing (the array has a hole).`)
        break
      }
      checkPatchEntry(issues, list[i], 'moneySplitPatch', i, put)
    }
  }
  const newGrossAmount = checkAmount(
    issues,
    hasOwn(input, 'newGrossAmount') ? input.newGrossAmount : undefined,
    '',
    -1,
    'newGrossAmount',
    0
  )
  return issues.length > 0 ? { issues } : { issues, newGrossAmount: newGrossAmount }
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
    entries.push(
      updateType === 'UpdateAmount'
        ? { splitID, updateType, newAmount: value as number }
        : updateType === 'DoDeleteSplitEntry'
          ? { splitID, updateType, doDelete: value as boolean }
          : { splitID, updateType }
    )
  })
  if (newGrossAmount === undefined) return { issues }
  return { issues, value: { moneySplitPatch: entries, newGrossAmount } }
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
  r.value !== undefined && r.issues.length === 0
    ? { _tag: 'Right', right: r.value }
    : { _tag: 'Left', left: validationError(r.issues) }

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

/** Turns a collector into the `validate` of an io-ts codec: one failure per issue. */
const toValidate =
  <A>(collect: (u: unknown) => Validated<A>, self: () => t.Decoder<unknown, A>) =>
  (u: unknown, c: t.Context): t.Validation<A> => {
    const r = collect(u)
    if (r.value !== undefined && r.issues.length === 0) return t.success(r.value)
    const type = self()
    return t.failures(
      r.issues.map((issue) => ({
        value: u,
        context: [...c, { key: issue.path, type, actual: u }],
        message: issue.message
      }))
    )
  }

/** An identity copy: the collector rebuilds a valid value as a fresh copy. */
const copyWith =
  <A>(collect: (u: unknown) => Validated<A>) =>
  (a: A): A =>
    collect(a).value ?? a

const isShortEventTypes = (u: unknown): boolean => {
  const list = isRecord(u) ? read(u, 'webhookSubscriptions') : /* v8 ignore next -- unreachable: PaymentIntentRequest.is checks isRecord(u) before calling this */ undefined
  if (!Array.isArray(list)) return false
  for (const s of list as ReadonlyArray<unknown>) {
    const eventType = isRecord(s) ? read(s, 'eventType') : undefined
    if (parseWebhookEventType(eventType) !== eventType) return false
  }
  return true
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
export const PaymentIntentRequest: t.Type<PaymentIntentRequestType> =
  /* @__PURE__ */ new t.Type<PaymentIntentRequestType>(
    'PaymentIntentRequest',
    (u): u is PaymentIntentRequestType =>
      validatePaymentIntentRequest(u).issues.length === 0 &&
      isRecord(u) &&
      isRecord(read(u, 'metaData')) &&
      isShortEventTypes(u),
    /* @__PURE__ */ toValidate(validatePaymentIntentRequest, () => PaymentIntentRequest),
    /* @__PURE__ */ copyWith(validatePaymentIntentRequest)
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
export const MoneySplitPatch: t.Type<MoneySplitPatchType> =
  /* @__PURE__ */ new t.Type<MoneySplitPatchType>(
    'MoneySplitPatch',
    (u): u is MoneySplitPatchType => validateMoneySplitPatch(u).issues.length === 0,
    /* @__PURE__ */ toValidate(validateMoneySplitPatch, () => MoneySplitPatch),
    /* @__PURE__ */ copyWith(validateMoneySplitPatch)
  )

const validateSplit = (u: unknown): Validated<MoneySplitRequestType> => {
  const issues: Issues = []
  const value = checkSplit(issues, u, '', -1)
  return issues.length === 0 ? { issues, value } : { issues }
}

const validateCustomer = (u: unknown): Validated<CustomerType> => {
  const issues: Issues = []
  const value = checkCustomer(issues, u, '')
  return issues.length === 0 ? { issues, value } : { issues }
}

const validateSubscription = (u: unknown): Validated<WebhookSubscriptionType> => {
  const issues: Issues = []
  const value = checkSubscription(issues, u, '', -1)
  return issues.length === 0 ? { issues, value } : { issues }
}

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
export const MoneySplitRequest: t.Type<MoneySplitRequestType> =
  /* @__PURE__ */ new t.Type<MoneySplitRequestType>(
    'MoneySplitRequest',
    (u): u is MoneySplitRequestType => validateSplit(u).issues.length === 0,
    /* @__PURE__ */ toValidate(validateSplit, () => MoneySplitRequest),
    /* @__PURE__ */ copyWith(validateSplit)
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
export const Customer: t.Type<CustomerType> = /* @__PURE__ */ new t.Type<CustomerType>(
  'Customer',
  (u): u is CustomerType => validateCustomer(u).issues.length === 0,
  /* @__PURE__ */ toValidate(validateCustomer, () => Customer),
  /* @__PURE__ */ copyWith(validateCustomer)
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
export const WebhookSubscription: t.Type<WebhookSubscriptionType> =
  /* @__PURE__ */ new t.Type<WebhookSubscriptionType>(
    'WebhookSubscription',
    (u): u is WebhookSubscriptionType =>
      validateSubscription(u).issues.length === 0 &&
      isRecord(u) &&
      parseWebhookEventType(read(u, 'eventType')) === read(u, 'eventType'),
    /* @__PURE__ */ toValidate(validateSubscription, () => WebhookSubscription),
    /* @__PURE__ */ copyWith(validateSubscription)
  )

// -------------------------------------------------------------------------------------
// format predicates, for forms
// -------------------------------------------------------------------------------------

export { currencyCodes, isCurrencyCode, isEmail, isHttpUrl, isUuid }
