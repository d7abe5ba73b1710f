/**
 * `paysplit/codecs`: the validation layer of the wire bodies a caller sends, small enough for a
 * front-end form. It holds the io-ts codecs of the payment-intent request (docs/rules.md I2.1) and of the
 * money-split patch (docs/rules.md I2.5), `decode*` functions returning `Either<PaymentError, T>`, and
 * the format predicates a form needs field by field.
 *
 * Every rule of docs/rules.md C3 is checked and every problem is collected, each as an
 * `Issue` `{ path, code, reason, params?, message }` with a path relative to the body
 * (`moneySplitList.1.amount`; '' for the body itself), a `reason` from the closed list
 * `issueReasons` with the `params` its message needs (`too_small`, `{ min: 0 }`), and the English
 * message of that reason (`Must be at least 0.`), which quotes neither the input nor the path
 * (docs/rules.md C12). At most 100 issues are listed, then one `too_many_issues` issue counts the
 * rest (docs/rules.md C3, bounded errors). Every codec is also a Standard Schema v1. Decoding:
 *
 * - reads every property of the input once, and only own properties (inherited ones count as
 *   absent; a patch entry reads only the fields its update type uses, never one it ignores); a
 *   property whose value is `undefined` counts as absent too; `null` is never a
 *   stand-in for an absent field: where a value is needed (a required field, a list entry) it is
 *   reported as `required` (a `null` `customerExternalID` as missing), and a `null` optional
 *   field is rejected as the wrong type (`forForm` reads `null` and `''` as absent instead, for
 *   forms: docs/decisions.md "Forms: a form mode");
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
 * The checks themselves are plain collectors in `src/codecs/requestChecks.ts`, which the decider uses
 * without io-ts; this module wraps them into `decode*` functions and io-ts codecs.
 *
 * Lengths are counted in UTF-16 code units (`string.length`). A list longer than its limit
 * (500 splits, 20 subscriptions, 50 metaData keys) gets one issue, and only its first entries,
 * up to the limit, are checked further. An array with a hole gets an issue at the hole, and the
 * entries after it are not checked.
 *
 * @module codecs
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { left, right } from '../internal/either.js'
import { Type } from '../internal/ioType.js'
import { validationError } from '../errors.js'
import type { PaymentError } from '../errors.js'
import type {
  Customer as CustomerType,
  CustomerInput,
  MoneySplitPatchInput,
  MoneySplitRequestInput,
  PaymentIntentRequestInput,
  WebhookSubscriptionInput,
  MoneySplitPatch as MoneySplitPatchType,
  MoneySplitRequest as MoneySplitRequestType,
  PaymentIntentRequest as PaymentIntentRequestType,
  WebhookSubscription as WebhookSubscriptionType
} from './requests.js'
import { own } from '../internal/own.js'
import { isRecord, type Issues } from './fields.js'
import {
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
import {
  checkCustomer,
  checkRequest,
  checkSplit,
  checkSubscription,
  collect,
  validateMoneySplitPatch,
  validatePaymentIntentRequest,
  type Validated
} from './requestChecks.js'
import { issuesOf, standard, type Schema } from './standardSchema.js'
import {
  converter,
  customerSchema,
  type JsonSchemaConverter,
  patchSchema,
  requestSchema,
  type SchemaOf,
  splitSchema,
  subscriptionSchema
} from './jsonSchema.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The payment-intent request, body of `POST /payments` (docs/rules.md I2.1), as decoded.
 *
 * @example
 * import type { PaymentIntentRequest } from 'paysplit/codecs'
 * const env: PaymentIntentRequest['environment'] = 'test'
 */
export type PaymentIntentRequest = PaymentIntentRequestType
/**
 * The money-split patch, body of partial refund and invoice adjustment (docs/rules.md I2.5), as decoded.
 *
 * @example
 * import type { MoneySplitPatch } from 'paysplit/codecs'
 * const patch: MoneySplitPatch = { moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }], newGrossAmount: 0 }
 */
export type MoneySplitPatch = MoneySplitPatchType
/**
 * A money-split entry of the create request (docs/rules.md I2.2), as decoded.
 *
 * @example
 * import type { MoneySplitRequest } from 'paysplit/codecs'
 * const split: MoneySplitRequest = { connectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f', amount: 100, isFee: false }
 */
export type MoneySplitRequest = MoneySplitRequestType
/**
 * A customer as the create request carries it (docs/rules.md I2.3), as decoded.
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

/**
 * The limits of docs/rules.md C3, for forms (an input's `maxlength`, a list's maximum size).
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
  stringLength: MAX_STRING_LENGTH,
  /** the payment's and the splits' descriptions */
  descriptionLength: MAX_DESCRIPTION_LENGTH,
  urlLength: MAX_URL_LENGTH,
  emailLength: MAX_EMAIL_LENGTH,
  moneySplits: MAX_SPLITS,
  webhookSubscriptions: MAX_SUBSCRIPTIONS,
  metaDataKeys: MAX_METADATA_KEYS,
  metaDataKeyLength: MAX_METADATA_KEY_LENGTH,
  metaDataValueLength: MAX_METADATA_VALUE_LENGTH
})

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
 * Decodes a payment-intent request (body of `POST /payments`, docs/rules.md I2.1) by every rule of
 * docs/rules.md C3. `Left` holds one `PaymentError` whose `issues` list every problem and whose `code` is
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
): Either<PaymentError, PaymentIntentRequestType> => {
  // collected here rather than through validatePaymentIntentRequest and toEither: the same
  // steps, fewer bytes for a front-end that imports this function alone
  const issues: Issues = []
  const value = checkRequest(issues, input)
  return issues.length === 0
    ? { _tag: 'Right', right: value as unknown as PaymentIntentRequestType }
    : { _tag: 'Left', left: validationError(issues) }
}

/**
 * Decodes a money-split patch (body of partial refund and invoice adjustment, docs/rules.md I2.5),
 * checking its shape only: the rules that compare it with the payment (docs/rules.md C4) are
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
 * A codec of `paysplit/codecs`: an io-ts `Type` that is also a Standard Schema v1
 * (`~standard`, vendor `paysplit`, synchronous `validate`) and a Standard JSON Schema v1
 * (`~standard.jsonSchema.input` and `output`, targets `draft-2020-12`, `draft-07`, `openapi-3.0`;
 * docs/rules.md C12).
 */
export type Codec<Input, A> = t.Type<A> &
  Schema<Input, A> & { readonly '~standard': { readonly jsonSchema: JsonSchemaConverter } }

/**
 * The io-ts codec `name` of a collector: `decode` gives one io-ts error per issue (context key =
 * the issue's path, message = the issue's message); `is` holds for what the collector accepts
 * and `decoded` (the decoded form) holds for; `encode` is an identity copy; `~standard` validates
 * as a Standard Schema.
 */
const codec = <Input, A>(
  name: string,
  collector: (u: unknown) => Validated<A>,
  schema: SchemaOf,
  decoded: (u: Record<string, unknown>) => boolean = () => true
): Codec<Input, A> => {
  // io-ts's Type by its members, not its class (docs/decisions.md, "io-ts codecs without io-ts code")
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
  const type: t.Type<A> = new Type<A>(
    name,
    (u): u is A => collector(u).value !== undefined && decoded(u as Record<string, unknown>),
    (u, c) => {
      const r = collector(u)
      return r.value === undefined
        ? left(
            issuesOf(r.issues).map((issue) => ({
              value: u,
              context: [...c, { key: issue.path, type, actual: u }],
              message: issue.message
            }))
          )
        : right(r.value)
    },
    (a) => collector(a).value ?? a
  )
  return Object.assign(type, { '~standard': { ...standard<Input, A>(collector), jsonSchema: converter(schema) } })
}

/** True when the subscription's event type is in its short form (read again). */
const isShortEventType = (s: unknown): boolean => {
  const eventType = isRecord(s) ? own(s, 'eventType') : undefined
  return parseWebhookEventType(eventType) === eventType
}

/**
 * The io-ts codec of the payment-intent request (docs/rules.md I2.1): `decode` applies every rule of
 * docs/rules.md C3 and gives one io-ts error per issue (context key = the issue's path, message = the
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
export const PaymentIntentRequest: Codec<PaymentIntentRequestInput, PaymentIntentRequestType> = /* @__PURE__ */ codec(
  'PaymentIntentRequest',
  validatePaymentIntentRequest,
  requestSchema,
  (u) => {
    const subscriptions = own(u, 'webhookSubscriptions')
    return (
      isRecord(own(u, 'metaData')) &&
      Array.isArray(subscriptions) &&
      (subscriptions as ReadonlyArray<unknown>).every(isShortEventType)
    )
  }
)

/**
 * The io-ts codec of the money-split patch (docs/rules.md I2.5), shape only (see
 * {@link decodeMoneySplitPatch}); `encode` is an identity copy.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { MoneySplitPatch } from 'paysplit/codecs'
 * const r = MoneySplitPatch.decode({ moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }], newGrossAmount: 0 })
 * assert.ok(E.isRight(r))
 */
export const MoneySplitPatch: Codec<MoneySplitPatchInput, MoneySplitPatchType> = /* @__PURE__ */ codec(
  'MoneySplitPatch',
  validateMoneySplitPatch,
  patchSchema
)

/**
 * The io-ts codec of one money-split entry (docs/rules.md I2.2), checked on its own (the rules across
 * splits, the shared fee account and the sum, belong to {@link PaymentIntentRequest}).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { MoneySplitRequest } from 'paysplit/codecs'
 * const r = MoneySplitRequest.decode({ connectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f', amount: -1, isFee: false })
 * assert.ok(E.isLeft(r) && r.left[0]?.context.at(-1)?.key === 'amount')
 */
export const MoneySplitRequest: Codec<MoneySplitRequestInput, MoneySplitRequestType> = /* @__PURE__ */ codec(
  'MoneySplitRequest',
  /* @__PURE__ */ collect<MoneySplitRequestType>(checkSplit),
  splitSchema
)

/**
 * The io-ts codec of the customer object (docs/rules.md I2.3): every field optional, each given one
 * validated as docs/rules.md C3 says.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { Customer } from 'paysplit/codecs'
 * assert.ok(E.isRight(Customer.decode({ name: 'Kari Nordmann', mobilePrefix: '+47', mobile: '91234567' })))
 * assert.ok(E.isLeft(Customer.decode({ email: 'kari@localhost' })))
 */
export const Customer: Codec<CustomerInput, CustomerType> = /* @__PURE__ */ codec(
  'Customer',
  /* @__PURE__ */ collect<CustomerType>(checkCustomer),
  customerSchema
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
export const WebhookSubscription: Codec<WebhookSubscriptionInput, WebhookSubscriptionType> = /* @__PURE__ */ codec(
  'WebhookSubscription',
  /* @__PURE__ */ collect<WebhookSubscriptionType>(checkSubscription),
  subscriptionSchema,
  isShortEventType
)
