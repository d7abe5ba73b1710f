/**
 * fast-check arbitraries of paysplit's inputs (docs/rules.md C3–C4), for integrators' property tests:
 * valid payment-intent requests, invalid ones labelled with the rule they break and the code
 * they must get, valid patches for a payment, commands valid in a state, and whole scenarios (a
 * payment's life as a command sequence). Every generator is pure: its only randomness is
 * fast-check's, so a failure replays from its seed.
 *
 * @module testing/arbitraries
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import fc from 'fast-check'
import type { Command } from '../commands.js'
import { currencyCodes } from '../codecs/currencies.js'
import { transition } from '../decider.js'
import type { IssueCode } from '../errors.js'
import { kid } from '../kid.js'
import { initialState, type Payment, type PaymentKind, type PaymentState } from '../payment.js'
import type {
  Customer,
  MetaData,
  MoneySplitPatch,
  MoneySplitRequest,
  PatchEntry,
  PaymentIntentRequest,
  WebhookSubscription
} from '../codecs/requests.js'
import { webhookEventTypes } from '../codecs/validators.js'

// -------------------------------------------------------------------------------------
// options
// -------------------------------------------------------------------------------------

/** The environments asked for, known ones only; both when none is left. */
const environmentsOf = (asked: ReadonlyArray<'test' | 'production'> | undefined): ReadonlyArray<'test' | 'production'> => {
  const known = (asked ?? []).filter((e) => e === 'test' || e === 'production')
  return known.length > 0 ? known : ['test', 'production']
}

/** How {@link paymentIntentRequestArb} shapes its requests. Every field has a default. */
export interface RequestOptions {
  /** Payment kinds to generate. Default both, `card` (gateway `creditcard`) and `invoice`. */
  readonly kinds?: ReadonlyArray<PaymentKind>
  /** Environments to generate. Default both, `test` and `production`. */
  readonly environments?: ReadonlyArray<'test' | 'production'>
  /** Number of money splits, within 1..500. Default `{ min: 1, max: 5 }`. */
  readonly splits?: { readonly min?: number; readonly max?: number }
  /** Amount of each split in minor units, within 0..2^53−1. Default `{ min: 0, max: 100000 }`. */
  readonly amounts?: { readonly min?: number; readonly max?: number }
  /** `true` always a customer, `false` never; sometimes when absent. */
  readonly customer?: boolean
  /** `true` sometimes metaData (the default), `false` always `{}`. */
  readonly metaData?: boolean
  /**
   * The urls webhook subscriptions may use. Default: generated http(s) urls on names that never
   * resolve (`.example`, `.test`, `.invalid`), as every url the kit makes up. `[]` gives no
   * subscriptions (point them at your receiver when a service will really send them).
   */
  readonly webhookUrls?: ReadonlyArray<string>
  /** Largest number of webhook subscriptions, within 0..20. Default 3. */
  readonly maxSubscriptions?: number
}

// -------------------------------------------------------------------------------------
// building blocks
// -------------------------------------------------------------------------------------

const MAX_SAFE = Number.MAX_SAFE_INTEGER

const clamp = (n: unknown, lo: number, hi: number, fallback: number): number =>
  typeof n === 'number' && Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.floor(n))) : fallback

const compact = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T

const hex = (n: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: n, maxLength: n })

/**
 * UUIDs in their textual form (8-4-4-4-12 hex digits, lower case), any version and variant.
 *
 * @example
 * import fc from 'fast-check'
 * import { uuidArb } from 'paysplit/testing'
 * const [id] = fc.sample(uuidArb, 1) // e.g. '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 */
export const uuidArb: fc.Arbitrary<string> = fc
  .tuple(hex(8), hex(4), hex(4), hex(4), hex(12))
  .map((parts) => parts.join('-'))

const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: min, maxLength: max })

/** A KID that is valid for sure, whatever `kid.create` says. */
const FALLBACK_KID = '12345674'

/**
 * Valid KIDs (docs/rules.md C7): 1–24 digits and a MOD10 or MOD11 check digit (`-` included).
 *
 * @example
 * import fc from 'fast-check'
 * import { kid } from 'paysplit'
 * import { kidArb } from 'paysplit/testing'
 * fc.assert(fc.property(kidArb, (k) => kid.isValid(k)))
 */
export const kidArb: fc.Arbitrary<string> = fc
  .tuple(digits(1, 24), fc.constantFrom('mod10' as const, 'mod11' as const))
  .map(([base, algorithm]) => {
    const made = kid.create(base, algorithm)
    return E.isRight(made) ? made.right : FALLBACK_KID
  })

const idString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constantFrom('order-1001', '__proto__', 'x'.repeat(255)) }
)

const text = (max: number): fc.Arbitrary<string> =>
  fc.oneof({ weight: 5, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: fc.constant('d'.repeat(max)) })

/** The names that never resolve (RFC 2606, RFC 6761): every host the kit makes up ends with one. */
const RESERVED_TLDS = ['example', 'test', 'invalid'] as const

/**
 * A url's host moved under a reserved name: `a.aa` becomes `a.aa.test` (the name chosen by the
 * host's length, so no randomness is drawn and fast-check's sequences stay as they were).
 */
const onReservedName = (url: string): string =>
  url.replace(/^(https?:\/\/)([^/?#]*)/, (_, scheme: string, host: string) => `${scheme}${host}.${RESERVED_TLDS[host.length % RESERVED_TLDS.length] ?? 'invalid'}`)

/**
 * http(s) urls on names that never resolve (`.example`, `.test`, `.invalid`): a service under
 * test that follows one (a webhook, the form's redirect) reaches nobody (docs/testing.md).
 */
const webUrl: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true }).map(onReservedName) },
  { weight: 1, arbitrary: fc.constantFrom('https://shop.example/ok', 'http://shop.test:3000/cb?x=1') }
)

const customerArb: fc.Arbitrary<Customer> = fc
  .record(
    {
      name: text(255),
      email: fc.oneof(fc.emailAddress(), fc.constant('kari@example.no')),
      mobilePrefix: digits(1, 4).map((d) => '+' + d),
      mobile: digits(4, 15),
      customerType: fc.constantFrom('Individual', 'Company')
    },
    { requiredKeys: [], noNullPrototype: true }
  )
  .map(compact)

const metaDataArb: fc.Arbitrary<MetaData> = fc
  .uniqueArray(
    fc.tuple(
      fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('__proto__', 'constructor')),
      fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.boolean(), fc.constant(null))
    ),
    { maxLength: 5, selector: ([k]) => k }
  )
  .map((entries) => {
    const out: Record<string, string | number | boolean | null> = {}
    for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true })
    return out
  })

// -------------------------------------------------------------------------------------
// valid requests
// -------------------------------------------------------------------------------------

/**
 * Valid payment-intent requests (docs/rules.md I2.1, docs/rules.md C3) in decoded form: `decodePaymentIntentRequest(r)`
 * is `Right` of a value deep-equal to `r`. Cards always carry `chargeImmediately`, invoices
 * sometimes; fee splits all name one fee account; `grossAmount` is the sum of the splits (≥ 1).
 * Every url it makes up (`successUrl`, `failedUrl`, subscriptions without `webhookUrls`) is on a
 * name that never resolves (`.example`, `.test`, `.invalid`): nothing that follows one leaves the
 * machine.
 *
 * @example
 * import fc from 'fast-check'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { decodePaymentIntentRequest } from 'paysplit/codecs'
 * import { paymentIntentRequestArb } from 'paysplit/testing'
 * fc.assert(
 *   fc.property(paymentIntentRequestArb({ kinds: ['card'], splits: { max: 3 } }), (r) =>
 *     E.isRight(decodePaymentIntentRequest(r))
 *   )
 * )
 */
export const paymentIntentRequestArb = (options: RequestOptions = {}): fc.Arbitrary<PaymentIntentRequest> => {
  const minSplits = clamp(options.splits?.min, 1, 500, 1)
  const maxSplits = clamp(options.splits?.max, minSplits, 500, Math.max(minSplits, 5))
  const maxAmount = clamp(options.amounts?.max, 1, Math.floor(MAX_SAFE / maxSplits), Math.min(100_000, Math.floor(MAX_SAFE / maxSplits)))
  const minAmount = clamp(options.amounts?.min, 0, maxAmount, 0)
  const kinds = (options.kinds ?? ['card', 'invoice']).filter((k) => k === 'card' || k === 'invoice')
  const gateway = fc.constantFrom(...(kinds.length > 0 ? kinds : (['card'] as const))).map((k) => (k === 'card' ? ('creditcard' as const) : ('invoice' as const)))
  const urls = options.webhookUrls
  const maxSubs = urls !== undefined && urls.length === 0 ? 0 : clamp(options.maxSubscriptions, 0, 20, 3)
  const subscriptions: fc.Arbitrary<WebhookSubscription[]> = fc.array(
    fc.record(
      { eventType: fc.constantFrom(...webhookEventTypes), url: urls !== undefined && urls.length > 0 ? fc.constantFrom(...urls) : webUrl },
      { noNullPrototype: true }
    ),
    { maxLength: maxSubs }
  )
  const customer: fc.Arbitrary<Customer | undefined> =
    options.customer === undefined ? fc.option(customerArb, { nil: undefined }) : options.customer ? customerArb : fc.constant(undefined)
  const metaData = options.metaData === false ? fc.constant({}) : metaDataArb
  const splits: fc.Arbitrary<MoneySplitRequest[]> = fc
    .tuple(
      uuidArb,
      fc.array(
        fc.record(
          {
            amount: fc.integer({ min: minAmount, max: maxAmount }),
            isFee: fc.boolean(),
            account: uuidArb,
            description: fc.option(text(1000), { nil: undefined }),
            externalID: fc.option(idString, { nil: undefined })
          },
          { noNullPrototype: true }
        ),
        { minLength: minSplits, maxLength: maxSplits }
      )
    )
    .map(([feeAccount, specs]) =>
      specs.map((s, i) =>
        compact<MoneySplitRequest>({
          connectedAccountID: s.isFee ? feeAccount : s.account,
          // grossAmount must be ≥ 1: the first split takes at least 1 when all are 0.
          amount: i === 0 && specs.every((x) => x.amount === 0) ? 1 : s.amount,
          description: s.description,
          isFee: s.isFee,
          externalID: s.externalID
        })
      )
    )
  return fc
    .record({
      externalPaymentReferenceID: idString,
      environment: fc.constantFrom(...environmentsOf(options.environments)),
      paymentGateway: gateway,
      chargeImmediately: fc.boolean(),
      chargeImmediatelyGiven: fc.boolean(),
      sellerConnectedAccountID: uuidArb,
      externalObjectIdTag: fc.option(idString, { nil: undefined }),
      description: fc.option(text(1000), { nil: undefined }),
      currency: fc.constantFrom(...currencyCodes),
      moneySplitList: splits,
      customerExternalID: idString,
      customer,
      webhookSubscriptions: subscriptions,
      successUrl: webUrl,
      failedUrl: webUrl,
      metaData
    })
    .map(({ chargeImmediately, chargeImmediatelyGiven, ...r }) =>
      compact<PaymentIntentRequest>({
        externalPaymentReferenceID: r.externalPaymentReferenceID,
        environment: r.environment,
        paymentGateway: r.paymentGateway,
        chargeImmediately: r.paymentGateway === 'creditcard' || chargeImmediatelyGiven ? chargeImmediately : undefined,
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
    )
}

// -------------------------------------------------------------------------------------
// invalid requests
// -------------------------------------------------------------------------------------

/**
 * An invalid request and what decoding it must give: `code` is the top-level `PaymentError`
 * code, and an issue must be reported at `path` (relative to the request).
 */
export interface InvalidRequest {
  /** The rule broken, in words (docs/rules.md C3), e.g. `currency is an active ISO 4217 code`. */
  readonly rule: string
  readonly code: IssueCode
  readonly path: string
  readonly input: unknown
}

type Body = Record<string, unknown>
type Breakage = readonly [rule: string, code: IssueCode, path: string, apply: (r: Body) => unknown]

const without = (r: Body, key: string): Body => Object.fromEntries(Object.entries(r).filter(([k]) => k !== key))
const firstSplit = (r: Body, patch: Body): Body => {
  const list = Array.isArray(r['moneySplitList']) ? (r['moneySplitList'] as ReadonlyArray<Body>) : []
  return { ...r, moneySplitList: list.map((s, i) => (i === 0 ? { ...s, ...patch } : s)) }
}

const required = [
  'externalPaymentReferenceID',
  'environment',
  'paymentGateway',
  'sellerConnectedAccountID',
  'grossAmount',
  'currency',
  'moneySplitList',
  'successUrl',
  'failedUrl'
] as const

/** Each rule of docs/rules.md C3 once, as a change to a valid card request. */
const breakages: ReadonlyArray<Breakage> = [
  ['customerExternalID must be present', 'MissingCustomerExternalID', 'customerExternalID', (r) => without(r, 'customerExternalID')],
  ['customerExternalID must not be null', 'MissingCustomerExternalID', 'customerExternalID', (r) => ({ ...r, customerExternalID: null })],
  ['customerExternalID must not be empty', 'MissingCustomerExternalID', 'customerExternalID', (r) => ({ ...r, customerExternalID: '' })],
  ['customerExternalID is a string', 'ValidationFailed', 'customerExternalID', (r) => ({ ...r, customerExternalID: 42 })],
  ['grossAmount equals the sum of the splits', 'GrossAmountMismatch', 'grossAmount', (r) => ({ ...r, grossAmount: Number(r['grossAmount']) + 1 })],
  ['grossAmount is a safe integer', 'ValidationFailed', 'grossAmount', (r) => ({ ...r, grossAmount: Number(r['grossAmount']) + 0.5 })],
  ['a split amount is ≥ 0', 'ValidationFailed', 'moneySplitList.0.amount', (r) => firstSplit(r, { amount: -1 })],
  ['a split amount is an integer', 'ValidationFailed', 'moneySplitList.0.amount', (r) => firstSplit(r, { amount: 0.25 })],
  ['a split connectedAccountID is a UUID', 'ValidationFailed', 'moneySplitList.0.connectedAccountID', (r) => firstSplit(r, { connectedAccountID: 'acct-1' })],
  ['a split isFee is a boolean', 'ValidationFailed', 'moneySplitList.0.isFee', (r) => firstSplit(r, { isFee: 'yes' })],
  ['moneySplitList has at least one entry', 'ValidationFailed', 'moneySplitList', (r) => ({ ...r, moneySplitList: [] })],
  ['currency is upper case', 'ValidationFailed', 'currency', (r) => ({ ...r, currency: 'nok' })],
  ['currency is an active ISO 4217 code', 'ValidationFailed', 'currency', (r) => ({ ...r, currency: 'XYZ' })],
  ['environment is test or production', 'ValidationFailed', 'environment', (r) => ({ ...r, environment: 'staging' })],
  ['paymentGateway is creditcard or invoice', 'ValidationFailed', 'paymentGateway', (r) => ({ ...r, paymentGateway: 'paypal' })],
  ['sellerConnectedAccountID is a UUID', 'ValidationFailed', 'sellerConnectedAccountID', (r) => ({ ...r, sellerConnectedAccountID: 'seller-1' })],
  ['a card payment needs chargeImmediately', 'ValidationFailed', 'chargeImmediately', (r) => without(r, 'chargeImmediately')],
  ['successUrl is an absolute http(s) URL', 'ValidationFailed', 'successUrl', (r) => ({ ...r, successUrl: 'ftp://shop.example/ok' })],
  ['failedUrl has no white space', 'ValidationFailed', 'failedUrl', (r) => ({ ...r, failedUrl: 'https://shop.example/fa iled' })],
  ['externalPaymentReferenceID is not empty', 'ValidationFailed', 'externalPaymentReferenceID', (r) => ({ ...r, externalPaymentReferenceID: '' })],
  ['strings are at most 255 characters', 'ValidationFailed', 'externalObjectIdTag', (r) => ({ ...r, externalObjectIdTag: 't'.repeat(256) })],
  ['a description is at most 1000 characters', 'ValidationFailed', 'description', (r) => ({ ...r, description: 'd'.repeat(1001) })],
  ['a customer email has one @', 'ValidationFailed', 'customer.email', (r) => ({ ...r, customer: { email: 'kari.example.no' } })],
  ['a customer mobilePrefix is + and 1–4 digits', 'ValidationFailed', 'customer.mobilePrefix', (r) => ({ ...r, customer: { mobilePrefix: '47' } })],
  ['a webhook eventType is known', 'ValidationFailed', 'webhookSubscriptions.0.eventType', (r) => ({ ...r, webhookSubscriptions: [{ eventType: 'Paid', url: 'https://hooks.example/a' }] })],
  ['metaData is flat', 'ValidationFailed', 'metaData.nested', (r) => ({ ...r, metaData: { nested: { a: 1 } } })],
  ['a string holds no lone surrogate (the text format)', 'ValidationFailed', 'description', (r) => ({ ...r, description: 'Konsert \ud800' })],
  ['a metaData key holds no lone surrogate (written as U+FFFD in the path)', 'ValidationFailed', 'metaData.k\ufffd', (r) => ({ ...r, metaData: { 'k\ud800': 1 } })],
  ['grossAmount is within the safe range', 'ValidationFailed', 'grossAmount', (r) => ({ ...r, grossAmount: 1e20 })],
  ['the request is an object', 'ValidationFailed', '', () => null],
  ...required.map((k): Breakage => [`${k} is required`, 'ValidationFailed', k, (r) => without(r, k)])
]

/**
 * Invalid payment-intent requests, each labelled with the rule it breaks (docs/rules.md C3), the code
 * `decodePaymentIntentRequest` (and `transition`) must give, and the path of an issue it must
 * report. Each starts from a valid card request and breaks exactly one rule (for the empty
 * `moneySplitList` and the missing `grossAmount`, the sum rule cannot hold either, but
 * `ValidationFailed` takes precedence).
 *
 * @example
 * import fc from 'fast-check'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { decodePaymentIntentRequest } from 'paysplit/codecs'
 * import { invalidPaymentIntentRequestArb } from 'paysplit/testing'
 * fc.assert(
 *   fc.property(invalidPaymentIntentRequestArb(), ({ input, code }) => {
 *     const r = decodePaymentIntentRequest(input)
 *     return E.isLeft(r) && r.left.code === code
 *   })
 * )
 */
export const invalidPaymentIntentRequestArb = (
  options: Omit<RequestOptions, 'kinds'> = {}
): fc.Arbitrary<InvalidRequest> =>
  fc
    .tuple(paymentIntentRequestArb({ ...options, kinds: ['card'] }), fc.constantFrom(...breakages))
    .map(([valid, [rule, code, path, apply]]) => ({ rule, code, path, input: apply({ ...valid }) }))

// -------------------------------------------------------------------------------------
// patches
// -------------------------------------------------------------------------------------

/** What a patch does to one split, before it is checked against the payment. @internal */
export type Op = { readonly t: 'keep' } | { readonly t: 'lower'; readonly permille: number } | { readonly t: 'delete' } | { readonly t: 'noDelete' }

/** @internal */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ t: 'keep' as const }),
  fc.integer({ min: 0, max: 999 }).map((permille) => ({ t: 'lower' as const, permille })),
  fc.constant({ t: 'delete' as const }),
  fc.constant({ t: 'noDelete' as const })
)

/**
 * Builds the patch of `ops` (one per split, cycled) on the payment's current splits; forces a
 * change when the ops change nothing. `undefined` when the payment has no split left.
 *
 * @internal
 */
export const patchOf = (payment: Payment, ops: ReadonlyArray<Op>, reversed: boolean): MoneySplitPatch | undefined => {
  const splits = payment.moneySplits
  let changed = false
  let gross = 0
  const entries: PatchEntry[] = splits.map((s, i) => {
    const op = ops[i % ops.length] ?? { t: 'keep' as const }
    switch (op.t) {
      case 'keep':
        gross += s.amount
        return { splitID: s.splitID, updateType: 'DoNothing' }
      case 'noDelete':
        gross += s.amount
        return { splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: false }
      case 'delete':
        changed = true
        return { splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: true }
      case 'lower': {
        const newAmount = Math.floor((s.amount * op.permille) / 1000)
        if (newAmount !== s.amount) changed = true
        gross += newAmount
        return { splitID: s.splitID, updateType: 'UpdateAmount', newAmount }
      }
    }
  })
  if (!changed) {
    // Lower the first split with money by one, or delete the first split (a change even at 0).
    const i = Math.max(0, splits.findIndex((s) => s.amount > 0))
    const s = splits[i]
    if (s === undefined) return undefined
    // Unchanged, entry i counted s.amount in gross (kept, or lowered to itself).
    if (s.amount > 0) {
      entries[i] = { splitID: s.splitID, updateType: 'UpdateAmount', newAmount: s.amount - 1 }
      gross -= 1
    } else entries[i] = { splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: true }
  }
  return { moneySplitPatch: reversed ? [...entries].reverse() : entries, newGrossAmount: gross }
}

/**
 * Valid money-split patches for `payment` (docs/rules.md I2.5, docs/rules.md C4): one entry per current split,
 * amounts only lowered, `newGrossAmount` the sum after the patch, and at least one change; the
 * entries in split order or reversed. Use them with `RefundPartially` on a `Charged` payment or
 * `AdjustInvoice` on an `Initiated` invoice. `none` when the payment has no split left.
 *
 * @example
 * import * as assert from 'node:assert'
 * import fc from 'fast-check'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { applyPatch, initialState, transition, type Payment } from 'paysplit'
 * import { patchArb, paymentIntentRequestArb } from 'paysplit/testing'
 * const [request] = fc.sample(paymentIntentRequestArb({ kinds: ['card'] }), { numRuns: 1, seed: 1 })
 * const created = transition(initialState, { type: 'CreatePayment', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c', request })
 * assert.ok(E.isRight(created))
 * const payment = created.right[0] as Payment
 * const patches = patchArb(payment)
 * assert.ok(O.isSome(patches))
 * fc.assert(fc.property(patches.value, (p) => E.isRight(applyPatch(payment, p))))
 */
export const patchArb = (payment: Payment): O.Option<fc.Arbitrary<MoneySplitPatch>> => {
  const moneySplits: unknown = (payment as { moneySplits?: unknown } | null)?.moneySplits
  if (!Array.isArray(moneySplits) || moneySplits.length === 0) return O.none
  return O.some(
    fc
      .tuple(fc.array(opArb, { minLength: 1, maxLength: Math.min(moneySplits.length, 12) }), fc.boolean())
      .map(([ops, reversed]) => patchOf(payment, ops, reversed) ?? { moneySplitPatch: [], newGrossAmount: 0 })
  )
}

// -------------------------------------------------------------------------------------
// commands and scenarios
// -------------------------------------------------------------------------------------

/** The inputs a generated command is built from, interpreted against the state. */
interface Choice {
  readonly pick: number
  readonly permille: number
  readonly ops: ReadonlyArray<Op>
  readonly reversed: boolean
  readonly reason: string | undefined
}

const choiceArb: fc.Arbitrary<Choice> = fc.record({
  pick: fc.nat({ max: 1000 }),
  permille: fc.integer({ min: 1, max: 1500 }),
  ops: fc.array(opArb, { minLength: 1, maxLength: 6 }),
  reversed: fc.boolean(),
  reason: fc.option(fc.string({ maxLength: 20 }), { nil: undefined })
})

/** `at` plus `seconds`, as an ISO timestamp; `at` itself when it does not parse. */
const later = (at: string, seconds: number): string => {
  const t = Date.parse(at)
  return Number.isFinite(t) ? new Date(t + seconds * 1000).toISOString() : at
}

/** The commands `payment` accepts for this choice (may be empty: terminal states). */
const acceptedCommands = (p: Payment, c: Choice, at: string): ReadonlyArray<Command> => {
  const out: Command[] = []
  const patch = patchOf(p, c.ops, c.reversed)
  if (p.kind === 'card') {
    if (p.status === 'Initiated') {
      out.push({ type: 'CompletePaymentForm', at })
      out.push(c.reason === undefined ? { type: 'FailPaymentForm', at } : { type: 'FailPaymentForm', at, reason: c.reason })
    }
    if (p.status === 'Reserved') out.push({ type: 'ChargePayment', at })
    if (p.status === 'Initiated' || p.status === 'Reserved') out.push({ type: 'CancelPayment', at })
  } else if (p.status === 'Initiated') {
    const amount = Math.max(1, Math.floor((Math.max(1, p.grossAmount - p.paidAmount) * c.permille) / 1000))
    if (p.kid !== undefined) out.push({ type: 'ReceiveInvoiceTransfer', at, amount, kid: p.kid })
    if (patch !== undefined) out.push({ type: 'AdjustInvoice', at, patch })
  }
  if (p.status === 'Charged' && p.grossAmount > 0) {
    out.push({ type: 'RefundPayment', at })
    if (patch !== undefined) out.push({ type: 'RefundPartially', at, patch })
  }
  return out
}

/** The command this choice gives in `state`, if the state accepts any. */
const commandOf = (state: PaymentState, c: Choice): Command | undefined => {
  if (state.status === 'NoPayment') return undefined
  const p = state
  const options = acceptedCommands(p, c, later(p.updatedAt, 1))
  return options[c.pick % Math.max(1, options.length)]
}

/**
 * Commands that `transition` accepts in `state` (the payment's own KID, patches that fit its
 * splits, a clock one second after its `updatedAt`); `none` when the state accepts none but a
 * create (`NoPayment`: use {@link scenarioArb}) or nothing at all (`Cancelled`, `Refunded`, a
 * `Charged` payment with nothing left to refund).
 *
 * @example
 * import * as assert from 'node:assert'
 * import fc from 'fast-check'
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { initialState, transition, type PaymentState } from 'paysplit'
 * import { commandArb, paymentIntentRequestArb } from 'paysplit/testing'
 * const [request] = fc.sample(paymentIntentRequestArb(), { numRuns: 1, seed: 2 })
 * const created = transition(initialState, { type: 'CreatePayment', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c', request, kid: '12345674' })
 * assert.ok(E.isRight(created))
 * const state: PaymentState = created.right[0]
 * const commands = commandArb(state)
 * assert.ok(O.isSome(commands))
 * fc.assert(fc.property(commands.value, (c) => E.isRight(transition(state, c))))
 * assert.ok(O.isNone(commandArb(initialState)))
 */
export const commandArb = (state: PaymentState): O.Option<fc.Arbitrary<Command>> => {
  if (state === null || typeof state !== 'object' || state.status === 'NoPayment') return O.none
  const p = state
  // Whether anything is accepted depends on the state alone, not on the choice.
  const probe: Choice = { pick: 0, permille: 1000, ops: [{ t: 'keep' }], reversed: false, reason: undefined }
  try {
    if (acceptedCommands(p, probe, p.updatedAt).length === 0) return O.none
  } catch {
    return O.none
  }
  return O.some(choiceArb.map((c) => commandOf(p, c)).filter((c): c is Command => c !== undefined))
}

/** A payment's life: its create command, then commands that are each accepted in turn. */
export interface Scenario {
  readonly kind: PaymentKind
  readonly commands: ReadonlyArray<Command>
}

/** Options of {@link scenarioArb}: those of the request, and the length of the life. */
export interface ScenarioOptions extends RequestOptions {
  /** Most commands after the create. Default 10. */
  readonly maxCommands?: number
  /** The create's `at`; each later command comes one second after the previous. Default `2026-11-21T10:00:00.000Z`. */
  readonly start?: string
}

/**
 * Whole lives of a payment: a `CreatePayment` (a request of {@link paymentIntentRequestArb}, a
 * random id, a KID for invoices), then up to `maxCommands` commands, each accepted by
 * `transition` in the state the earlier ones left. A life ends early when nothing more is
 * accepted. Shrinks towards short lives of few splits.
 *
 * @example
 * import fc from 'fast-check'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { initialState, transition, type PaymentState } from 'paysplit'
 * import { scenarioArb } from 'paysplit/testing'
 * fc.assert(
 *   fc.property(scenarioArb({ kinds: ['invoice'] }), ({ commands }) => {
 *     let s: PaymentState = initialState
 *     for (const c of commands) {
 *       const r = transition(s, c)
 *       if (E.isLeft(r)) return false
 *       s = r.right[0]
 *     }
 *     return true
 *   })
 * )
 */
export const scenarioArb = (options: ScenarioOptions = {}): fc.Arbitrary<Scenario> => {
  const maxCommands = clamp(options.maxCommands, 0, 1000, 10)
  const start = options.start ?? '2026-11-21T10:00:00.000Z'
  return fc
    .record({
      request: paymentIntentRequestArb(options),
      id: uuidArb,
      kid: kidArb,
      choices: fc.array(choiceArb, { maxLength: maxCommands })
    })
    .map(({ request, id, kid: k, choices }) => {
      const kind: PaymentKind = request.paymentGateway === 'invoice' ? 'invoice' : 'card'
      const create: Command = {
        type: 'CreatePayment',
        at: start,
        paymentReferenceID: id,
        request,
        ...(kind === 'invoice' ? { kid: k } : {})
      }
      const commands: Command[] = [create]
      const first = transition(initialState, create)
      let state: PaymentState = E.isRight(first) ? first.right[0] : initialState
      for (const c of choices) {
        const next = commandOf(state, c)
        if (next === undefined) break
        const r = transition(state, next)
        if (E.isLeft(r)) break
        commands.push(next)
        state = r.right[0]
      }
      return { kind, commands }
    })
}
