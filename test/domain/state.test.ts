import fc from 'fast-check'
import { en, formatIssue } from '../../src/codecs.js'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { PaymentError } from '../../src/errors.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import { initialState } from '../../src/payment.js'
import { validateState } from '../../src/state/storedState.js'
import {
  cardPayment,
  changeSplits,
  charge,
  createdAt,
  ids,
  invoicePayment,
  makeSplits,
  paymentArb,
  refundAll,
  type SplitChange,
  validKid,
  withSplits
} from '../support/fixtures.js'

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const leftOf = (input: unknown): PaymentError => {
  const r = validateState(input)
  if (E.isRight(r)) throw new Error(`expected Left, got Right for ${JSON.stringify(input)}`)
  return r.left
}

const pathsOf = (input: unknown): ReadonlyArray<string> => (leftOf(input).issues ?? []).map((i) => i.path)

const rightOf = (input: unknown): PaymentState => {
  const r = validateState(input)
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left, null, 2)}`)
  return r.right
}

/** A payment with some fields replaced by anything at all (wrong types included). */
const broken = (p: Payment, changes: Readonly<Record<string, unknown>>): unknown => ({ ...p, ...changes })

const deepFreeze = <A>(a: A): A => {
  if (typeof a === 'object' && a !== null) {
    Object.freeze(a)
    for (const v of Object.values(a)) deepFreeze(v)
  }
  return a
}

/** True when no object or array reachable from `a` is reachable from `b` too. */
const sharesNothing = (a: unknown, b: unknown): boolean => {
  const seen = new Set<unknown>()
  const walk = (x: unknown): void => {
    if (typeof x === 'object' && x !== null && !seen.has(x)) {
      seen.add(x)
      for (const v of Object.values(x)) walk(v)
    }
  }
  walk(a)
  let shared = false
  const check = (x: unknown): void => {
    if (typeof x === 'object' && x !== null) {
      if (seen.has(x)) shared = true
      for (const v of Object.values(x)) check(v)
    }
  }
  check(b)
  return !shared
}

const chargedCard = (): Payment => charge(cardPayment())
const chargedInvoice = (excess = 700): Payment => charge(invoicePayment({ paidAmount: 5000 + excess }))

// -------------------------------------------------------------------------------------
// valid states
// -------------------------------------------------------------------------------------

describe('validateState: valid states', () => {
  const valid: ReadonlyArray<readonly [string, () => Payment]> = [
    ['an Initiated card payment', () => cardPayment()],
    ['a card payment without any optional field', () => {
      const p: Record<string, unknown> = { ...cardPayment() }
      delete p['customer']
      delete p['description']
      delete p['externalObjectIdTag']
      return p as unknown as Payment
    }],
    ['a Reserved card payment', () => cardPayment({ status: 'Reserved', chargeImmediately: false, version: 3 })],
    ['a Cancelled card payment', () => cardPayment({ status: 'Cancelled', version: 3 })],
    ['a card payment with failed form attempts', () =>
      cardPayment({ formAttempts: [{ at: createdAt }, { at: createdAt, reason: 'Card declined' }] })],
    ['a Charged card payment', chargedCard],
    ['a card payment partly refunded', () => changeSplits(chargedCard(), new Map([[1, 5000]]))],
    ['a card payment with a split deleted by a refund', () => changeSplits(chargedCard(), new Map([[2, 'delete']]))],
    ['a card payment refunded in full', () => refundAll(chargedCard())],
    ['a card payment refunded to 0 by deleting every split', () =>
      changeSplits(chargedCard(), new Map([[1, 'delete'], [2, 'delete'], [3, 'delete']]))],
    ['an Initiated invoice', () => invoicePayment()],
    ['a partly paid invoice', () => invoicePayment({ paidAmount: 4999 })],
    ['an invoice with chargeImmediately given', () => invoicePayment({ chargeImmediately: false })],
    ['an invoice with a MOD11 KID ending in -', () => invoicePayment({ kid: '6-' })],
    ['a Charged invoice, paid exactly', () => chargedInvoice(0)],
    ['a Charged invoice, overpaid', () => chargedInvoice(700)],
    ['an invoice adjusted then charged', () =>
      charge({ ...changeSplits(invoicePayment({ paidAmount: 3000 }), new Map([[1, 2000]])), paidAmount: 3000 })],
    ['an invoice adjusted to 0 by deleting every split', () =>
      charge({ ...changeSplits(invoicePayment({ paidAmount: 1200 }), new Map([[1, 'delete'], [2, 'delete']])) })],
    ['a Charged invoice refunded in part', () => changeSplits(chargedInvoice(), new Map([[1, 4000]]))],
    ['a Charged invoice refunded in full', () => refundAll(chargedInvoice())]
  ]

  it.each(valid)('%s round-trips to a deep-equal fresh copy', (_name, make) => {
    const input = make()
    const out = rightOf(input)
    expect(out).toEqual(input)
    expect(out).not.toBe(input)
    expect(sharesNothing(input, out)).toBe(true)
  })

  it.each(valid)('%s validates after JSON.parse(JSON.stringify(state))', (_name, make) => {
    const input = make()
    const json: unknown = JSON.parse(JSON.stringify(input))
    expect(rightOf(json)).toEqual(input)
  })

  it.each(valid)('%s validates when deep-frozen, and the input is not changed', (_name, make) => {
    const input = deepFreeze(make())
    const before = JSON.stringify(input)
    const out = rightOf(input)
    expect(JSON.stringify(input)).toBe(before)
    expect(Object.isFrozen(out)).toBe(false)
  })

  it('gives plain objects and arrays, with only the known fields', () => {
    const p = cardPayment()
    const input = {
      ...p,
      extra: 'dropped',
      moneySplits: p.moneySplits.map((s) => ({ ...s, extra: 1 })),
      customer: { ...p.customer, extra: true },
      webhookSubscriptions: [{ eventType: 'Charged', url: 'https://shop.example/h', extra: 2 }],
      formAttempts: [{ at: createdAt, extra: 3 }]
    }
    const out = rightOf(input) as Payment
    expect(out).not.toHaveProperty('extra')
    expect(out.moneySplits[0]).not.toHaveProperty('extra')
    expect(out.customer).not.toHaveProperty('extra')
    expect(out.webhookSubscriptions[0]).toEqual({ eventType: 'Charged', url: 'https://shop.example/h' })
    expect(out.formAttempts[0]).toEqual({ at: createdAt })
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Array.isArray(out.moneySplits)).toBe(true)
  })

  it('counts lengths in characters (code points), so an astral character counts once', () => {
    const key = '😀'.repeat(40)
    expect(rightOf(cardPayment({ metaData: { [key]: '😀'.repeat(500) } }))).toEqual(cardPayment({ metaData: { [key]: '😀'.repeat(500) } }))
    // the key (81 code points, 81 > 40) is cut to its first 64 UTF-16 units in the path (C3, bounded errors)
    expect(pathsOf(cardPayment({ metaData: { [key + 'x']: 1 } }))).toEqual([`state.metaData.${'😀'.repeat(32)}…`])
  })

  it('leaves optional fields given as undefined absent', () => {
    const out = rightOf(cardPayment({ description: undefined, customer: undefined })) as Payment
    expect(Object.prototype.hasOwnProperty.call(out, 'description')).toBe(false)
    expect(Object.prototype.hasOwnProperty.call(out, 'customer')).toBe(false)
  })

  it('copies a __proto__ metaData key as plain data, never touching prototypes', () => {
    const input: unknown = JSON.parse(
      JSON.stringify(cardPayment()).replace('"metaData":{', '"metaData":{"__proto__":"plain","constructor":"also plain",')
    )
    const out = rightOf(input) as Payment
    expect(Object.getPrototypeOf(out.metaData)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out.metaData, '__proto__')).toEqual({
      value: 'plain',
      writable: true,
      enumerable: true,
      configurable: true
    })
    expect(Object.keys(out.metaData)).toContain('__proto__')
    expect(out.metaData['constructor']).toBe('also plain')
    expect(({} as Record<string, unknown>)['plain']).toBeUndefined()
  })

  it('rejects a __proto__ metaData key holding an object, and pollutes nothing', () => {
    const input: unknown = JSON.parse(
      JSON.stringify(cardPayment()).replace('"metaData":{', '"metaData":{"__proto__":{"polluted":true},')
    )
    expect(pathsOf(input)).toEqual(['state.metaData.__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('turns any object whose status is NoPayment into initialState', () => {
    expect(validateState({ status: 'NoPayment' })).toEqual(E.right(initialState))
    expect(rightOf({ status: 'NoPayment', grossAmount: 'junk' })).toBe(initialState)
    expect(rightOf(initialState)).toBe(initialState)
  })

  it('validates 100 000 splits', () => {
    const n = 100_000
    const specs = Array.from({ length: n }, (_, i) => ({
      connectedAccountID: i % 10 === 0 ? ids.platform : ids.seller,
      amount: 100,
      isFee: i % 10 === 0
    }))
    const p = changeSplits(charge(withSplits(cardPayment(), specs)), new Map<number, SplitChange>([[5, 50], [7, 'delete']]))
    // a quadratic check would not finish within the test's timeout; the time: bench/linearity.bench.ts
    const out = rightOf(p) as Payment
    expect(out.moneySplits.length).toBe(n - 1)
    expect(out.allocation.length).toBe(n)
  })
})

// -------------------------------------------------------------------------------------
// garbage
// -------------------------------------------------------------------------------------

describe('validateState: garbage', () => {
  it.each([null, undefined, 42, 0, NaN, true, 'Charged', 'NoPayment', '', Symbol('x'), 10n, () => 1, [], [{ status: 'NoPayment' }]])(
    'rejects the non-object %s at path state',
    (input) => {
      const e = leftOf(input)
      expect(e.code).toBe('ValidationFailed')
      expect(e.issues?.map((i) => i.path)).toEqual(['state'])
    }
  )

  it('rejects {} with an issue for every required field', () => {
    const e = leftOf({})
    expect(e.code).toBe('ValidationFailed')
    const paths = (e.issues ?? []).map((i) => i.path)
    for (const f of [
      'status',
      'kind',
      'paymentReferenceID',
      'externalPaymentReferenceID',
      'environment',
      'paymentGateway',
      'sellerConnectedAccountID',
      'currency',
      'grossAmount',
      'moneySplits',
      'customerExternalID',
      'webhookSubscriptions',
      'successUrl',
      'failedUrl',
      'metaData',
      'chargedAmount',
      'refundedAmount',
      'excessRefundedAmount',
      'paidAmount',
      'formAttempts',
      'allocation',
      'createdAt',
      'updatedAt',
      'version'
    ]) {
      expect(paths).toContain(`state.${f}`)
    }
    expect(e.issues?.every((i) => i.code === 'ValidationFailed')).toBe(true)
  })

  it.each([
    ['status', 42],
    ['grossAmount', '10000'],
    ['grossAmount', 10000.5],
    ['moneySplits', {}],
    ['moneySplits', 'splits'],
    ['metaData', []],
    ['metaData', null],
    ['customer', 'Kari'],
    ['customer', null],
    ['webhookSubscriptions', null],
    ['formAttempts', {}],
    ['allocation', null],
    ['version', '1'],
    ['version', 1.5],
    ['createdAt', 1732183200000],
    ['chargeImmediately', 'yes'],
    ['description', null],
    ['kid', 12345678903]
  ])('rejects %s = %j with an issue at that path', (field, value) => {
    expect(pathsOf(broken(cardPayment(), { [field]: value }))).toContain(`state.${field}`)
  })

  it('never throws and gives Left for anything that is not a NoPayment', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withTypedArray: true }), (u) => {
        const r = validateState(u)
        const isNoPayment = typeof u === 'object' && u !== null && !Array.isArray(u) && (u as { status?: unknown }).status === 'NoPayment'
        expect(E.isLeft(r)).toBe(!isNoPayment)
        if (E.isLeft(r)) expect(r.left.code).toBe('ValidationFailed')
      })
    )
  })

  it('never throws when one field of a valid payment is replaced by anything', () => {
    const fields = Object.keys(cardPayment())
    fc.assert(
      fc.property(paymentArb, fc.constantFrom(...fields), fc.anything(), (p, field, value) => {
        const r = validateState(broken(p, { [field]: value }))
        if (E.isRight(r)) expect(validateState(r.right)).toEqual(r)
      })
    )
  })

  it('stops early on a hostile array that claims a huge length', () => {
    const huge = new Proxy([], { get: (t, k): unknown => (k === 'length' ? 1e9 : Reflect.get(t, k)) })
    // early: reading 10^9 entries would not finish within the test's timeout
    const e = leftOf(broken(cardPayment(), { moneySplits: huge, allocation: huge }))
    expect((e.issues ?? []).length).toBeLessThanOrEqual(100)
  })

  it('reads every property once, so a getter that changes its answer cannot slip through', () => {
    const reads = new Map<string, number>()
    const counting = <A extends object>(target: A, at: string): A =>
      new Proxy(target, {
        get: (t, k, r) => {
          const key = `${at}.${String(k)}`
          reads.set(key, (reads.get(key) ?? 0) + 1)
          const v: unknown = Reflect.get(t, k, r)
          return typeof v === 'object' && v !== null ? counting(v, key) : v
        }
      })
    const p = chargedCard()
    const out = rightOf(counting(p, 'state'))
    expect(out).toEqual(p)
    const twice = [...reads].filter(([, n]) => n > 1)
    expect(twice).toEqual([])

    let n = 0
    const shifty = Object.defineProperty({ ...cardPayment() }, 'grossAmount', {
      enumerable: true,
      get: () => (n++ === 0 ? 10000 : -1)
    })
    expect((rightOf(shifty) as Payment).grossAmount).toBe(10000)
  })
})

// -------------------------------------------------------------------------------------
// fields and invariants, one rule each
// -------------------------------------------------------------------------------------

const s = (i: number, field: string): string => `state.moneySplits.${String(i)}.${field}`

describe('validateState: every broken rule gives ValidationFailed at its path', () => {
  const card = cardPayment()
  const splits = card.moneySplits
  const split = (i: number, changes: Readonly<Record<string, unknown>>): unknown =>
    broken(card, { moneySplits: splits.map((x, j) => (j === i ? { ...x, ...changes } : x)) })

  const cases: ReadonlyArray<readonly [string, unknown, string]> = [
    // identity and kind
    ['status is one of five short names', broken(card, { status: 'ChargedPayment' }), 'state.status'],
    ['kind matches the gateway (creditcard → card)', broken(card, { kind: 'invoice', kid: validKid }), 'state.kind'],
    ['kind matches the gateway (invoice → invoice)', broken(invoicePayment(), { kind: 'card' }), 'state.kind'],
    ['paymentGateway is creditcard or invoice', broken(card, { paymentGateway: 'paypal' }), 'state.paymentGateway'],
    ['paymentReferenceID is a UUID', broken(card, { paymentReferenceID: 'not-a-uuid' }), 'state.paymentReferenceID'],
    ['sellerConnectedAccountID is a UUID', broken(card, { sellerConnectedAccountID: '' }), 'state.sellerConnectedAccountID'],
    ['environment is test or production', broken(card, { environment: 'staging' }), 'state.environment'],
    ['currency is an active ISO 4217 code', broken(card, { currency: 'XYZ' }), 'state.currency'],
    ['currency is upper case', broken(card, { currency: 'nok' }), 'state.currency'],
    // strings
    ['externalPaymentReferenceID is non-empty', broken(card, { externalPaymentReferenceID: '' }), 'state.externalPaymentReferenceID'],
    ['externalPaymentReferenceID ≤ 255', broken(card, { externalPaymentReferenceID: 'x'.repeat(256) }), 'state.externalPaymentReferenceID'],
    ['customerExternalID is non-empty', broken(card, { customerExternalID: '' }), 'state.customerExternalID'],
    ['customerExternalID is a string', broken(card, { customerExternalID: 42 }), 'state.customerExternalID'],
    ['externalObjectIdTag is non-empty when present', broken(card, { externalObjectIdTag: '' }), 'state.externalObjectIdTag'],
    ['description ≤ 1000', broken(card, { description: 'x'.repeat(1001) }), 'state.description'],
    ['successUrl is an absolute http(s) URL', broken(card, { successUrl: '/paid' }), 'state.successUrl'],
    ['failedUrl is http(s)', broken(card, { failedUrl: 'ftp://shop.example/failed' }), 'state.failedUrl'],
    ['successUrl ≤ 2048', broken(card, { successUrl: `https://shop.example/${'a'.repeat(2048)}` }), 'state.successUrl'],
    // card and invoice fields
    ['a card has chargeImmediately', broken(card, { chargeImmediately: undefined }), 'state.chargeImmediately'],
    ['a card has no KID', broken(card, { kid: validKid }), 'state.kid'],
    ['an invoice has a KID', broken(invoicePayment(), { kid: undefined }), 'state.kid'],
    ['an invoice has a valid KID', broken(invoicePayment(), { kid: '12345678901' }), 'state.kid'],
    ['an invoice has no form attempts', broken(invoicePayment(), { formAttempts: [{ at: createdAt }] }), 'state.formAttempts'],
    ['chargeImmediately of an invoice is a boolean when present', broken(invoicePayment(), { chargeImmediately: 1 }), 'state.chargeImmediately'],
    // customer
    ['customer.email is valid', broken(card, { customer: { email: 'kari@localhost' } }), 'state.customer.email'],
    ['customer.mobilePrefix is + and 1–4 digits', broken(card, { customer: { mobilePrefix: '47' } }), 'state.customer.mobilePrefix'],
    ['customer.mobilePrefix has at most 4 digits', broken(card, { customer: { mobilePrefix: '+12345' } }), 'state.customer.mobilePrefix'],
    ['customer.mobile is 4–15 digits', broken(card, { customer: { mobile: '123' } }), 'state.customer.mobile'],
    ['customer.customerType is non-empty', broken(card, { customer: { customerType: '' } }), 'state.customer.customerType'],
    ['customer.name ≤ 255', broken(card, { customer: { name: 'x'.repeat(256) } }), 'state.customer.name'],
    ['customer.name is a string', broken(card, { customer: { name: 7 } }), 'state.customer.name'],
    // webhooks
    ['webhook eventType in its short form', broken(card, { webhookSubscriptions: [{ eventType: 'ChargedPayment', url: 'https://a.example/' }] }), 'state.webhookSubscriptions.0.eventType'],
    ['webhook eventType known', broken(card, { webhookSubscriptions: [{ eventType: 'Paid', url: 'https://a.example/' }] }), 'state.webhookSubscriptions.0.eventType'],
    ['webhook url is http(s)', broken(card, { webhookSubscriptions: [{ eventType: 'Charged', url: 'mailto:a@b.no' }] }), 'state.webhookSubscriptions.0.url'],
    ['webhook entry is an object', broken(card, { webhookSubscriptions: ['Charged'] }), 'state.webhookSubscriptions.0'],
    ['at most 20 webhook subscriptions', broken(card, { webhookSubscriptions: Array.from({ length: 21 }, () => ({ eventType: 'Charged', url: 'https://a.example/' })) }), 'state.webhookSubscriptions'],
    // metaData
    ['metaData values are flat', broken(card, { metaData: { nested: { a: 1 } } }), 'state.metaData.nested'],
    ['metaData numbers are finite', broken(card, { metaData: { n: Infinity } }), 'state.metaData.n'],
    ['metaData strings ≤ 500', broken(card, { metaData: { s: 'x'.repeat(501) } }), 'state.metaData.s'],
    ['metaData keys ≤ 40', broken(card, { metaData: { ['k'.repeat(41)]: 1 } }), `state.metaData.${'k'.repeat(41)}`],
    ['metaData ≤ 50 keys', broken(card, { metaData: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${String(i)}`, i])) }), 'state.metaData'],
    // form attempts, times, version
    ['formAttempts[].at is a timestamp', broken(card, { formAttempts: [{ at: '2026-11-21' }] }), 'state.formAttempts.0.at'],
    ['formAttempts[].reason ≤ 1000', broken(card, { formAttempts: [{ at: createdAt, reason: 'x'.repeat(1001) }] }), 'state.formAttempts.0.reason'],
    ['createdAt is a timestamp', broken(card, { createdAt: '2026-11-21T10:00:00Z' }), 'state.createdAt'],
    ['updatedAt is a timestamp', broken(card, { updatedAt: null }), 'state.updatedAt'],
    ['version ≥ 1', broken(card, { version: 0 }), 'state.version'],
    // amounts
    ['grossAmount is a safe integer ≥ 0', broken(card, { grossAmount: -1 }), 'state.grossAmount'],
    ['chargedAmount is a safe integer', broken(card, { chargedAmount: 2 ** 53 }), 'state.chargedAmount'],
    ['refundedAmount is an integer', broken(card, { refundedAmount: 0.5 }), 'state.refundedAmount'],
    ['excessRefundedAmount is a number', broken(card, { excessRefundedAmount: null }), 'state.excessRefundedAmount'],
    ['paidAmount is a number', broken(invoicePayment(), { paidAmount: '0' }), 'state.paidAmount'],
    // splits
    ['a split is an object', broken(card, { moneySplits: [null] }), 'state.moneySplits.0'],
    ['split amount ≥ 0', split(1, { amount: -1 }), s(1, 'amount')],
    ['split amount is an integer', split(0, { amount: 1.5 }), s(0, 'amount')],
    ['splitID ≥ 1', split(0, { splitID: 0 }), s(0, 'splitID')],
    ['splitIDs strictly ascend', split(1, { splitID: 1 }), s(1, 'splitID')],
    ['split paymentReferenceID is the payment’s', split(2, { paymentReferenceID: ids.invoicePayment }), s(2, 'paymentReferenceID')],
    ['split connectedAccountID is a UUID', split(0, { connectedAccountID: 'seller' }), s(0, 'connectedAccountID')],
    ['split insertTime is a timestamp', split(0, { insertTime: 'now' }), s(0, 'insertTime')],
    ['split isFee is a boolean', split(0, { isFee: 'false' }), s(0, 'isFee')],
    ['split externalID is non-empty when present', split(0, { externalID: '' }), s(0, 'externalID')],
    ['split description ≤ 1000', split(0, { description: 'x'.repeat(1001) }), s(0, 'description')],
    ['fee splits share one account', broken(card, { moneySplits: makeSplits(ids.cardPayment, [
      { connectedAccountID: ids.platform, amount: 5000, isFee: true },
      { connectedAccountID: ids.partner, amount: 5000, isFee: true }
    ]) }), s(1, 'connectedAccountID')],
    // money invariants
    ['grossAmount = Σ split amounts', broken(card, { grossAmount: 9999 }), 'state.grossAmount'],
    ['Σ split amounts stays safe', broken(card, { grossAmount: Number.MAX_SAFE_INTEGER, moneySplits: makeSplits(ids.cardPayment, [
      { connectedAccountID: ids.seller, amount: Number.MAX_SAFE_INTEGER, isFee: false },
      { connectedAccountID: ids.seller, amount: 1, isFee: false }
    ]) }), 'state.moneySplits'],
    ['a card has paidAmount 0', broken(card, { paidAmount: 1 }), 'state.paidAmount'],
    ['a card has excessRefundedAmount 0', broken(chargedCard(), { excessRefundedAmount: 1, refundedAmount: 1, chargedAmount: 10001 }), 'state.excessRefundedAmount'],
    ['Reserved only for cards', broken(invoicePayment(), { status: 'Reserved' }), 'state.status'],
    ['an invoice is never Cancelled', broken(invoicePayment(), { status: 'Cancelled' }), 'state.status'],
    ['Reserved has chargeImmediately false', broken(card, { status: 'Reserved', chargeImmediately: true }), 'state.chargeImmediately'],
    ['Initiated: chargedAmount 0', broken(card, { chargedAmount: 10000 }), 'state.chargedAmount'],
    ['Reserved: refundedAmount 0', broken(card, { status: 'Reserved', chargeImmediately: false, refundedAmount: 1 }), 'state.refundedAmount'],
    ['Initiated invoice: excessRefundedAmount 0', broken(invoicePayment(), { excessRefundedAmount: 1 }), 'state.excessRefundedAmount'],
    ['Cancelled: allocation empty', broken(card, { status: 'Cancelled', allocation: chargedCard().allocation }), 'state.allocation'],
    ['before the charge grossAmount ≥ 1', broken(card, { grossAmount: 0, moneySplits: makeSplits(ids.cardPayment, [{ connectedAccountID: ids.seller, amount: 0, isFee: false }]) }), 'state.grossAmount'],
    ['an Initiated invoice has paidAmount < grossAmount', broken(invoicePayment(), { paidAmount: 5000 }), 'state.paidAmount'],
    ['Charged: chargedAmount = grossAmount + refundedAmount', broken(chargedCard(), { chargedAmount: 9000 }), 'state.chargedAmount'],
    ['Charged: refundedAmount ≤ chargedAmount', broken(chargedCard(), { refundedAmount: 10001 }), 'state.refundedAmount'],
    ['Charged: excessRefundedAmount ≤ refundedAmount', broken(chargedInvoice(), { excessRefundedAmount: 701 }), 'state.excessRefundedAmount'],
    ['Charged: Σ allocation = chargedAmount − excessRefundedAmount', broken(chargedCard(), { allocation: chargedCard().allocation.map((a) => (a.splitID === 1 ? { ...a, amount: 7001 } : a)) }), 'state.allocation'],
    ['Charged: every current split is allocated', broken(chargedCard(), { allocation: chargedCard().allocation.filter((a) => a.splitID !== 2).map((a) => (a.splitID === 1 ? { ...a, amount: 9000 } : a)) }), s(1, 'splitID')],
    ['Charged: a split holds no more than allocated', broken(changeSplits(chargedCard(), new Map([[1, 6000]])), {
      moneySplits: changeSplits(chargedCard(), new Map([[1, 6000]])).moneySplits.map((x) => (x.splitID === 2 ? { ...x, amount: 3000 } : x.splitID === 1 ? { ...x, amount: 5000 } : x))
    }), s(1, 'amount')],
    ['Charged: a split keeps its allocated account', broken(chargedCard(), { allocation: chargedCard().allocation.map((a) => (a.splitID === 1 ? { ...a, connectedAccountID: ids.partner } : a)) }), s(0, 'connectedAccountID')],
    ['Charged: a split keeps its allocated fee flag', broken(chargedCard(), { allocation: chargedCard().allocation.map((a) => (a.splitID === 2 ? { ...a, isFee: true, connectedAccountID: ids.platform } : a)) }), s(1, 'isFee')],
    ['allocation splitIDs strictly ascend', broken(chargedCard(), { allocation: [...chargedCard().allocation].reverse() }), 'state.allocation.1.splitID'],
    ['allocation amounts are amounts', broken(chargedCard(), { allocation: chargedCard().allocation.map((a) => ({ ...a, amount: -a.amount })) }), 'state.allocation.0.amount'],
    ['allocation entries are objects', broken(chargedCard(), { allocation: [1, 2, 3] }), 'state.allocation.0'],
    ['Refunded: grossAmount 0', broken(chargedCard(), { status: 'Refunded' }), 'state.grossAmount'],
    ['a charged invoice: chargedAmount = paidAmount', broken(chargedInvoice(), { paidAmount: 5000 }), 'state.chargedAmount'],
    ['a refunded invoice: chargedAmount = paidAmount', broken(refundAll(chargedInvoice()), { paidAmount: 9000 }), 'state.chargedAmount']
  ]

  it.each(cases)('%s', (_rule, input, path) => {
    const e = leftOf(input)
    expect(e.code).toBe('ValidationFailed')
    expect((e.issues ?? []).map((i) => i.path)).toContain(path)
  })

  it('reports every problem at once', () => {
    const paths = pathsOf(broken(card, { grossAmount: 1, currency: 'nok', version: 0 }))
    expect(paths).toEqual(expect.arrayContaining(['state.grossAmount', 'state.currency', 'state.version']))
  })

  it('gives every issue as the codecs do (reason, params, the en message without the path), with the rules create shares', () => {
    const issues = leftOf(
      broken(card, {
        currency: 'nok',
        successUrl: 'ftp://shop.example/',
        version: 0,
        moneySplits: card.moneySplits.map((m, i) => (i === 0 ? { ...m, amount: -1 } : m))
      })
    ).issues ?? []
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'state.currency', code: 'ValidationFailed', reason: 'unknown_currency', message: en.unknown_currency },
        { path: 'state.moneySplits.0.amount', code: 'ValidationFailed', reason: 'too_small', params: { min: 0 }, message: 'Must be at least 0.' },
        { path: 'state.successUrl', code: 'ValidationFailed', reason: 'format', params: { format: 'url' }, message: 'Must be a valid url.' },
        { path: 'state.version', code: 'ValidationFailed', reason: 'too_small', params: { min: 1 }, message: 'Must be at least 1.' }
      ])
    )
    expect(issues.every((i) => i.message === formatIssue(i, en) && !i.message.includes(i.path))).toBe(true)
  })
})

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

describe('validateState: properties', () => {
  it('every payment built by the fixtures validates to a deep-equal copy, JSON round trip included', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        const out = rightOf(p)
        expect(out).toEqual(p)
        expect(sharesNothing(p, out)).toBe(true)
        expect(rightOf(JSON.parse(JSON.stringify(p)))).toEqual(p)
      })
    )
  })

  it('is idempotent: a validated state validates to an equal state', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        const once = rightOf(p)
        expect(rightOf(once)).toEqual(once)
      })
    )
  })
})
