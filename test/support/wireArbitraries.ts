/**
 * Test-only fast-check arbitraries of the wire bodies, mirroring `paysplit/codecs` (C3): every
 * value they generate decodes. What they add to the shipped arbitraries of `paysplit/testing`
 * (src/testing/arbitraries.ts, which every other test uses) is the wire itself: the forms a caller
 * may send and the value decoding must give.
 *
 * - {@link validRequestArb}: valid payment-intent requests in decoded (normal) form: decoding
 *   one gives a deep-equal value.
 * - {@link validWireRequestArb}: `{ input, expected }` — a valid request as a caller may send it
 *   (long-form event types, omitted defaults, unknown fields, `undefined` optionals, `-0`, a
 *   null prototype) and the value decoding must give.
 * - {@link validPatchShapeArb} / {@link validWirePatchArb}: the same for money-split patches
 *   (shape only: the patch need not fit any payment).
 */
import fc from 'fast-check'
import { currencyCodes } from '../../src/codecs/currencies.js'
import { uuidArb } from '../../src/testing/arbitraries.js'
import type {
  Customer,
  MetaData,
  MoneySplitPatch,
  MoneySplitRequest,
  PatchEntry,
  PaymentGateway,
  PaymentIntentRequest,
  WebhookEventType,
  WebhookSubscription
} from '../../src/codecs/requests.js'

// -------------------------------------------------------------------------------------
// building blocks
// -------------------------------------------------------------------------------------

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** Drops the keys whose value is `undefined` (absent optional fields). */
const compact = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T

/** UUIDs in their textual form, either case (the shipped `uuidArb`, each letter's case drawn). */
export const anyCaseUuidArb: fc.Arbitrary<string> = fc
  .tuple(uuidArb, fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }))
  .map(([u, upper]) => u.replace(/[a-f]/g, (ch, i: number) => (upper[i] === true ? ch.toUpperCase() : ch)))

/** Non-empty identifying strings of at most 255 UTF-16 code units. */
export const idStringArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(255), '__proto__', 'constructor', ' ') }
)

/** Free text of at most `max` UTF-16 code units, possibly empty. */
const textArb = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constant('d'.repeat(max)) }
  )

/** Absolute http(s) URLs the WHATWG parser accepts, without spaces or control characters. */
export const httpUrlArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.webUrl({
      validSchemes: ['http', 'https'],
      withQueryParameters: true,
      withFragments: true,
      authoritySettings: { withIPv4: true, withPort: true }
    })
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'https://shop.example.com/paid',
      'http://localhost:3000/callback?x=1#top',
      'HTTPS://EXAMPLE.COM',
      'https://[::1]:8443/hooks',
      'https://bücher.example/zahlung',
      'https://user:pw@example.com/p',
      'http://192.168.0.1/',
      'https://example.com/' + 'p'.repeat(2048 - 'https://example.com/'.length)
    )
  }
)

/** The short webhook event types (C5), written out here: the tests' oracle of the codecs' own list. */
export const webhookEventTypes: ReadonlyArray<WebhookEventType> = [
  'Initiated',
  'Reserved',
  'Charged',
  'Cancelled',
  'Refunded',
  'PartiallyRefunded',
  'InvoiceAdjusted'
]

const digitsArb = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: min, maxLength: max })

/** Customers as C3 allows them: every field optional. */
export const customerArb: fc.Arbitrary<Customer> = fc
  .record(
    {
      name: fc.oneof(textArb(255), fc.constant('')),
      email: fc.oneof(fc.emailAddress(), fc.constant('kari.nordmann@example.no')),
      mobilePrefix: digitsArb(1, 4).map((d) => '+' + d),
      mobile: digitsArb(4, 15),
      customerType: fc.oneof(fc.constantFrom('Individual', 'Company'), idStringArb)
    },
    { requiredKeys: [], noNullPrototype: true }
  )
  .map((c) => compact(c))

const metaKeyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'k'.repeat(40)
    )
  }
)

const metaValueArb: fc.Arbitrary<string | number | boolean | null> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constant('v'.repeat(500)),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null)
)

/**
 * Flat metaData objects (≤ 50 keys, keys 1–40 units, string values ≤ 500), keys such as
 * `__proto__` included as own data properties.
 */
export const metaDataArb: fc.Arbitrary<MetaData> = fc
  .oneof(
    {
      weight: 4,
      arbitrary: fc.uniqueArray(fc.tuple(metaKeyArb, metaValueArb), {
        maxLength: 5,
        selector: ([k]) => k
      })
    },
    {
      weight: 1,
      arbitrary: fc.uniqueArray(fc.tuple(metaKeyArb, metaValueArb), {
        minLength: 45,
        maxLength: 50,
        selector: ([k]) => k
      })
    }
  )
  .map((entries) => Object.fromEntries(entries))

/** Options of {@link validRequestArb}. */
export interface ValidRequestOptions {
  /** The payment gateway; either when absent. */
  readonly gateway?: PaymentGateway
  /** true: always a customer, false: never; sometimes when absent. */
  readonly customer?: boolean
  /** Largest number of splits (1..500); 5 when absent. */
  readonly maxSplits?: number
}

const splitAmountsArb = (maxSplits: number): fc.Arbitrary<number[]> =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 100_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.floor(MAX_SAFE / maxSplits) }) },
        { weight: 1, arbitrary: fc.constant(0) }
      ),
      { minLength: 1, maxLength: maxSplits }
    )
    .map((amounts) => (amounts.some((a) => a > 0) ? amounts : [1, ...amounts.slice(1)]))

/** Case variants of one UUID: the fee-account rule compares UUIDs case-insensitively. */
const caseOf = (uuid: string, upper: boolean): string =>
  upper ? uuid.toUpperCase() : uuid.toLowerCase()

const splitsArb = (maxSplits: number): fc.Arbitrary<MoneySplitRequest[]> =>
  fc.tuple(splitAmountsArb(maxSplits), anyCaseUuidArb).chain(([amounts, feeAccount]) =>
    fc.tuple(
      ...amounts.map((amount) =>
        fc
          .record(
            {
              isFee: fc.boolean(),
              account: anyCaseUuidArb,
              upper: fc.boolean(),
              description: fc.option(textArb(1000), { nil: undefined }),
              externalID: fc.option(idStringArb, { nil: undefined })
            },
            { requiredKeys: ['isFee', 'account', 'upper'], noNullPrototype: true }
          )
          .map(({ isFee, account, upper, description, externalID }) =>
            compact<MoneySplitRequest>({
              connectedAccountID: isFee ? caseOf(feeAccount, upper) : account,
              amount,
              description,
              isFee,
              externalID
            })
          )
      )
    )
  )

const subscriptionsArb: fc.Arbitrary<WebhookSubscription[]> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(
      fc.record(
        { eventType: fc.constantFrom(...webhookEventTypes), url: httpUrlArb },
        { noNullPrototype: true }
      ),
      { maxLength: 3 }
    )
  },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record(
        { eventType: fc.constantFrom(...webhookEventTypes), url: httpUrlArb },
        { noNullPrototype: true }
      ),
      { minLength: 18, maxLength: 20 }
    )
  }
)

// -------------------------------------------------------------------------------------
// requests
// -------------------------------------------------------------------------------------

/**
 * Valid payment-intent requests (C3), in decoded form: `decodePaymentIntentRequest(r)` is
 * `Right` of a value deep-equal to `r`. Cards always carry `chargeImmediately`; invoices
 * sometimes.
 */
export const validRequestArb = (
  options: ValidRequestOptions = {}
): fc.Arbitrary<PaymentIntentRequest> => {
  const maxSplits = Math.min(500, Math.max(1, options.maxSplits ?? 5))
  const gateway: fc.Arbitrary<PaymentGateway> =
    options.gateway === undefined
      ? fc.constantFrom('creditcard', 'invoice')
      : fc.constant(options.gateway)
  const customer: fc.Arbitrary<Customer | undefined> =
    options.customer === undefined
      ? fc.option(customerArb, { nil: undefined })
      : options.customer
        ? customerArb
        : fc.constant(undefined)
  return fc
    .record({
      externalPaymentReferenceID: idStringArb,
      environment: fc.constantFrom('test' as const, 'production' as const),
      paymentGateway: gateway,
      chargeImmediately: fc.boolean(),
      chargeImmediatelyGiven: fc.boolean(),
      sellerConnectedAccountID: anyCaseUuidArb,
      externalObjectIdTag: fc.option(idStringArb, { nil: undefined }),
      description: fc.option(textArb(1000), { nil: undefined }),
      currency: fc.constantFrom(...currencyCodes),
      moneySplitList: splitsArb(maxSplits),
      customerExternalID: idStringArb,
      customer,
      webhookSubscriptions: subscriptionsArb,
      successUrl: httpUrlArb,
      failedUrl: httpUrlArb,
      metaData: metaDataArb
    })
    .map(({ chargeImmediately, chargeImmediatelyGiven, ...r }) => {
      const given = r.paymentGateway === 'creditcard' || chargeImmediatelyGiven
      const request: PaymentIntentRequest = compact({
        externalPaymentReferenceID: r.externalPaymentReferenceID,
        environment: r.environment,
        paymentGateway: r.paymentGateway,
        chargeImmediately: given ? chargeImmediately : undefined,
        sellerConnectedAccountID: r.sellerConnectedAccountID,
        externalObjectIdTag: r.externalObjectIdTag,
        description: r.description,
        grossAmount: r.moneySplitList.reduce((sum, s) => sum + s.amount, 0),
        currency: r.currency,
        moneySplitList: r.moneySplitList,
        customerExternalID: r.customerExternalID,
        customer: r.customer,
        webhookSubscriptions: r.webhookSubscriptions,
        successUrl: r.successUrl,
        failedUrl: r.failedUrl,
        metaData: r.metaData
      })
      return request
    })
}

/** A valid body as a caller may send it, and what decoding it must give. */
export interface WireCase<T> {
  readonly input: Record<string, unknown>
  readonly expected: T
}

const longForm = (t: WebhookEventType): string => `${t}Payment`

/** Adds an own enumerable property, whatever its name (`__proto__` included). */
const withOwn = (
  o: Record<string, unknown>,
  key: string,
  value: unknown
): Record<string, unknown> => {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  return o
}

const junkArb: fc.Arbitrary<ReadonlyArray<readonly [string, unknown]>> = fc.array(
  fc.tuple(
    fc.constantFrom(
      'unknownField',
      '__proto__',
      'constructor',
      'status',
      'paymentReferenceID',
      'extra'
    ),
    fc.oneof(
      fc.string({ maxLength: 5 }),
      fc.integer(),
      fc.constant(null),
      fc.constant({ polluted: true })
    )
  ),
  { maxLength: 2 }
)

const addJunk = (
  o: Record<string, unknown>,
  junk: ReadonlyArray<readonly [string, unknown]>
): Record<string, unknown> => {
  for (const [k, v] of junk) withOwn(o, k, v)
  return o
}

/**
 * Valid requests as a caller may send them, with the value decoding must give: event types in
 * long form, `webhookSubscriptions: []` and `metaData: {}` left out, unknown fields (including an
 * own `__proto__`) at every level, optional fields present as `undefined`, zero amounts as
 * `-0`, and sometimes a null-prototype body.
 */
export const validWireRequestArb = (
  options: ValidRequestOptions = {}
): fc.Arbitrary<WireCase<PaymentIntentRequest>> =>
  validRequestArb(options).chain((expected) =>
    fc
      .record({
        long: fc.array(fc.boolean(), {
          minLength: expected.webhookSubscriptions.length,
          maxLength: expected.webhookSubscriptions.length
        }),
        omitDefaults: fc.boolean(),
        undefinedOptionals: fc.boolean(),
        negativeZero: fc.boolean(),
        nullPrototype: fc.boolean(),
        junk: junkArb,
        splitJunk: junkArb,
        customerJunk: junkArb,
        subscriptionJunk: junkArb
      })
      .map(
        ({
          long,
          omitDefaults,
          undefinedOptionals,
          negativeZero,
          nullPrototype,
          junk,
          splitJunk,
          customerJunk,
          subscriptionJunk
        }) => {
          const input: Record<string, unknown> = { ...expected }
          input['moneySplitList'] = expected.moneySplitList.map((s) => {
            const split: Record<string, unknown> = { ...s }
            if (negativeZero && s.amount === 0) split['amount'] = -0
            if (undefinedOptionals && s.description === undefined) split['description'] = undefined
            return addJunk(split, splitJunk)
          })
          input['webhookSubscriptions'] = expected.webhookSubscriptions.map((s, i) =>
            addJunk(
              { eventType: long[i] === true ? longForm(s.eventType) : s.eventType, url: s.url },
              subscriptionJunk
            )
          )
          if (expected.customer !== undefined)
            input['customer'] = addJunk({ ...expected.customer }, customerJunk)
          input['metaData'] = Object.fromEntries(Object.entries(expected.metaData))
          if (omitDefaults && expected.webhookSubscriptions.length === 0)
            delete input['webhookSubscriptions']
          if (omitDefaults && Object.keys(expected.metaData).length === 0) delete input['metaData']
          if (undefinedOptionals) {
            for (const k of [
              'externalObjectIdTag',
              'description',
              'customer',
              'chargeImmediately'
            ] as const) {
              if (
                expected[k] === undefined &&
                !(expected.paymentGateway === 'creditcard' && k === 'chargeImmediately')
              ) {
                input[k] = undefined
              }
            }
          }
          addJunk(input, junk)
          return {
            input: nullPrototype
              ? (Object.assign(Object.create(null), input) as Record<string, unknown>)
              : input,
            expected
          }
        }
      )
  )

// -------------------------------------------------------------------------------------
// patches
// -------------------------------------------------------------------------------------

const splitIDArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 600 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: MAX_SAFE }) }
)

const amountArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, MAX_SAFE) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: MAX_SAFE }) }
)

/** Patch entries of exactly the {@link PatchEntry} shape. */
export const patchEntryArb: fc.Arbitrary<PatchEntry> = fc.oneof(
  fc.record(
    { splitID: splitIDArb, updateType: fc.constant('UpdateAmount' as const), newAmount: amountArb },
    { noNullPrototype: true }
  ),
  fc.record(
    {
      splitID: splitIDArb,
      updateType: fc.constant('DoDeleteSplitEntry' as const),
      doDelete: fc.boolean()
    },
    { noNullPrototype: true }
  ),
  fc.record(
    { splitID: splitIDArb, updateType: fc.constant('DoNothing' as const) },
    { noNullPrototype: true }
  )
)

/**
 * Money-split patches of a valid SHAPE (I2.5), in decoded form; they need not fit any
 * payment (splitIDs may be unknown or repeated, sums need not match).
 */
export const validPatchShapeArb: fc.Arbitrary<MoneySplitPatch> = fc.record(
  { moneySplitPatch: fc.array(patchEntryArb, { maxLength: 12 }), newGrossAmount: amountArb },
  { noNullPrototype: true }
)

/**
 * Valid patches as a caller may send them: fields an entry's `updateType` ignores present with
 * any value, unknown fields, `-0` amounts; with the value decoding must give.
 */
export const validWirePatchArb: fc.Arbitrary<WireCase<MoneySplitPatch>> = validPatchShapeArb.chain(
  (expected) =>
    fc
      .record({
        ignored: fc.array(
          fc.tuple(
            fc.option(fc.anything(), { nil: undefined }),
            fc.option(fc.anything(), { nil: undefined })
          ),
          {
            minLength: expected.moneySplitPatch.length,
            maxLength: expected.moneySplitPatch.length
          }
        ),
        junk: junkArb,
        negativeZero: fc.boolean()
      })
      .map(({ ignored, junk, negativeZero }) => {
        const entries = expected.moneySplitPatch.map((e, i) => {
          const entry: Record<string, unknown> = { ...e }
          const [a, b] = ignored[i] ?? [undefined, undefined]
          if (e.updateType !== 'UpdateAmount' && a !== undefined) entry['newAmount'] = a
          if (e.updateType !== 'DoDeleteSplitEntry' && b !== undefined) entry['doDelete'] = b
          if (negativeZero && e.updateType === 'UpdateAmount' && e.newAmount === 0)
            entry['newAmount'] = -0
          return addJunk(entry, junk)
        })
        const input: Record<string, unknown> = {
          moneySplitPatch: entries,
          newGrossAmount:
            negativeZero && expected.newGrossAmount === 0 ? -0 : expected.newGrossAmount
        }
        return { input: addJunk(input, junk), expected }
      })
)
