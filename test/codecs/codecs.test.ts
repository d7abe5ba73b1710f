import * as E from 'fp-ts/lib/Either.js'
import { PathReporter } from 'io-ts/lib/PathReporter.js'
import { describe, expect, it } from 'vitest'
import {
  currencyCodes,
  en,
  formatIssue,
  Customer,
  decodeMoneySplitPatch,
  decodePaymentIntentRequest,
  MoneySplitPatch,
  MoneySplitRequest,
  PaymentIntentRequest,
  WebhookSubscription
} from '../../src/codecs.js'
import { validateMoneySplitPatch, validatePaymentIntentRequest } from '../../src/codecs/requestChecks.js'
import type { Issue, PaymentError } from '../../src/codecs.js'

// -------------------------------------------------------------------------------------
// fixtures and helpers
// -------------------------------------------------------------------------------------

const SELLER = '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f'
const ACCOUNT = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d'
const FEE = '9d8c7b6a-5f4e-4d3c-8b2a-0f1e2d3c4b5a'

/** A valid card request as a caller sends it (JSON-like, fresh each call). */
const card = (): Record<string, unknown> => ({
  externalPaymentReferenceID: 'order-1001',
  environment: 'test',
  paymentGateway: 'creditcard',
  chargeImmediately: false,
  sellerConnectedAccountID: SELLER,
  externalObjectIdTag: 'cart-77',
  description: 'Two concert tickets',
  grossAmount: 10000,
  currency: 'NOK',
  moneySplitList: [
    {
      connectedAccountID: SELLER,
      amount: 7000,
      description: 'Tickets',
      isFee: false,
      externalID: 'item-1'
    },
    { connectedAccountID: ACCOUNT, amount: 2000, isFee: false },
    { connectedAccountID: FEE, amount: 1000, description: 'Platform fee', isFee: true }
  ],
  customerExternalID: 'customer-42',
  customer: {
    name: 'Kari Nordmann',
    email: 'kari@example.no',
    mobilePrefix: '+47',
    mobile: '91234567',
    customerType: 'Individual'
  },
  webhookSubscriptions: [
    { eventType: 'ChargedPayment', url: 'https://shop.example.com/hooks/charged' }
  ],
  successUrl: 'https://shop.example.com/paid',
  failedUrl: 'https://shop.example.com/failed',
  metaData: { orderNumber: 1001, channel: 'web', gift: false, coupon: null }
})

/** The smallest valid invoice request. */
const invoice = (): Record<string, unknown> => ({
  externalPaymentReferenceID: 'invoice-9',
  environment: 'production',
  paymentGateway: 'invoice',
  sellerConnectedAccountID: SELLER,
  grossAmount: 500,
  currency: 'EUR',
  moneySplitList: [{ connectedAccountID: SELLER, amount: 500, isFee: false }],
  customerExternalID: 'c-1',
  successUrl: 'https://shop.example.com/ok',
  failedUrl: 'https://shop.example.com/ko'
})

const issuesOf = (input: unknown): ReadonlyArray<Issue> =>
  validatePaymentIntentRequest(input).issues

const errorOf = (input: unknown): PaymentError => {
  const r = decodePaymentIntentRequest(input)
  if (E.isRight(r)) throw new Error('expected a Left')
  return r.left
}

const valueOf = (input: unknown): ReturnType<typeof decodeOk> => decodeOk(input)
const decodeOk = (input: unknown) => {
  const r = decodePaymentIntentRequest(input)
  if (E.isLeft(r)) throw new Error(`expected a Right: ${JSON.stringify(r.left.issues)}`)
  return r.right
}

/** The one issue of `input`, which must have exactly one. */
const onlyIssue = (input: unknown): Issue => {
  const issues = issuesOf(input)
  expect(issues).toHaveLength(1)
  return issues[0] as Issue
}

const expectInvalidAt = (input: unknown, path: string): void => {
  const issue = onlyIssue(input)
  expect(issue.path).toBe(path)
  expect(issue.code).toBe('ValidationFailed')
  expect(issue.message).toBe(formatIssue(issue, en))
}

const withField = (
  base: Record<string, unknown>,
  key: string,
  value: unknown
): Record<string, unknown> => ({ ...base, [key]: value })
const without = (base: Record<string, unknown>, key: string): Record<string, unknown> => {
  const copy = { ...base }
  Reflect.deleteProperty(copy, key)
  return copy
}

const splitsOf = (r: Record<string, unknown>): Array<Record<string, unknown>> =>
  (r['moneySplitList'] as Array<Record<string, unknown>>).map((s) => ({ ...s }))

const withSplit = (
  r: Record<string, unknown>,
  i: number,
  key: string,
  value: unknown
): Record<string, unknown> => {
  const splits = splitsOf(r)
  splits[i] = { ...splits[i], [key]: value }
  return { ...r, moneySplitList: splits }
}

const withCustomer = (key: string, value: unknown): Record<string, unknown> => ({
  ...card(),
  customer: { ...(card()['customer'] as object), [key]: value }
})

const withMeta = (meta: unknown): Record<string, unknown> => ({ ...card(), metaData: meta })

/** Where and why an input fails: the paths and codes of its issues (messages left out). */
const pathsOf = (input: unknown): ReadonlyArray<string> => issuesOf(input).map((i) => `${i.path} ${i.code}`)

// -------------------------------------------------------------------------------------
// decoding valid requests
// -------------------------------------------------------------------------------------

describe('decodePaymentIntentRequest: valid requests', () => {
  it('a valid card request decodes to a fresh plain object with the same fields', () => {
    const input = card()
    const value = valueOf(input)
    expect(value).toEqual({
      ...input,
      webhookSubscriptions: [
        { eventType: 'Charged', url: 'https://shop.example.com/hooks/charged' }
      ]
    })
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(value).not.toBe(input)
    expect(value.moneySplitList).not.toBe(input['moneySplitList'])
    expect(value.moneySplitList[0]).not.toBe((input['moneySplitList'] as unknown[])[0])
    expect(value.customer).not.toBe(input['customer'])
    expect(value.metaData).not.toBe(input['metaData'])
    expect(value.webhookSubscriptions).not.toBe(input['webhookSubscriptions'])
  })

  it('the decoded value shares nothing mutable with the input', () => {
    const input = card()
    const value = valueOf(input) as unknown as Record<string, unknown>
    ;(value['moneySplitList'] as Array<Record<string, unknown>>)[0]!['amount'] = 1
    ;(value['metaData'] as Record<string, unknown>)['channel'] = 'changed'
    ;(value['customer'] as Record<string, unknown>)['name'] = 'changed'
    expect(input).toEqual(card())
  })

  it('optional fields may be left out: externalObjectIdTag, description, customer, webhookSubscriptions (default []), metaData (default {}) (C3 required/optional list)', () => {
    const value = valueOf(invoice())
    expect(value).toEqual({ ...invoice(), webhookSubscriptions: [], metaData: {} })
    for (const k of ['externalObjectIdTag', 'description', 'customer', 'chargeImmediately']) {
      expect(Object.prototype.hasOwnProperty.call(value, k), k).toBe(false)
    }
  })

  it('absent optional strings stay absent, also in splits and the customer', () => {
    const value = valueOf({ ...card(), customer: { email: 'a@b.no' } })
    const split = value.moneySplitList[1] as object
    expect(Object.keys(split).sort()).toEqual(['amount', 'connectedAccountID', 'isFee'])
    expect(value.customer).toEqual({ email: 'a@b.no' })
  })

  it('an optional field given as undefined counts as absent', () => {
    const value = valueOf({
      ...invoice(),
      description: undefined,
      customer: undefined,
      metaData: undefined,
      webhookSubscriptions: undefined
    })
    expect(Object.prototype.hasOwnProperty.call(value, 'description')).toBe(false)
    expect(value.metaData).toEqual({})
    expect(value.webhookSubscriptions).toEqual([])
  })

  it('unknown fields are dropped silently, at every level', () => {
    const input = {
      ...card(),
      status: 'Charged',
      paymentReferenceID: SELLER,
      moneySplitList: [
        {
          connectedAccountID: SELLER,
          amount: 10000,
          isFee: false,
          splitID: 7,
          extra: { deep: true }
        }
      ],
      customer: { name: 'Kari', password: 'secret' },
      webhookSubscriptions: [{ eventType: 'Charged', url: 'https://a.example/h', secret: 'x' }]
    }
    Object.defineProperty(input, '__proto__', {
      value: { polluted: true },
      enumerable: true,
      configurable: true,
      writable: true
    })
    const value = valueOf(input) as unknown as Record<string, unknown>
    expect(value['status']).toBeUndefined()
    expect(value['paymentReferenceID']).toBeUndefined()
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(false)
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(value['moneySplitList']).toEqual([
      { connectedAccountID: SELLER, amount: 10000, isFee: false }
    ])
    expect(value['customer']).toEqual({ name: 'Kari' })
    expect(value['webhookSubscriptions']).toEqual([
      { eventType: 'Charged', url: 'https://a.example/h' }
    ])
  })

  it('a JSON body decodes the same as the object it was written from', () => {
    expect(valueOf(JSON.parse(JSON.stringify(card())))).toEqual(valueOf(card()))
  })

  it('-0 amounts are read as 0', () => {
    const value = valueOf({
      ...invoice(),
      moneySplitList: [
        { connectedAccountID: SELLER, amount: 500, isFee: false },
        { connectedAccountID: SELLER, amount: -0, isFee: false }
      ]
    })
    expect(Object.is(value.moneySplitList[1]?.amount, 0)).toBe(true)
  })
})

// -------------------------------------------------------------------------------------
// C3, rule by rule
// -------------------------------------------------------------------------------------

describe('required fields (C3 required list)', () => {
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
  ]
  for (const field of required) {
    it(`missing ${field} is rejected at ${field}`, () => {
      const issue = onlyIssue(without(invoice(), field))
      expect(issue).toEqual({ path: field, code: 'ValidationFailed', reason: 'required', message: 'Required.' })
    })
  }

  it('an inherited field does not count: only own properties are read', () => {
    const proto = invoice()
    const input = Object.create(proto) as Record<string, unknown>
    expect(issuesOf(input).length).toBeGreaterThanOrEqual(required.length)
    const partly = Object.assign(
      Object.create({ currency: 'NOK' }) as object,
      without(invoice(), 'currency')
    )
    expectInvalidAt(partly, 'currency')
  })

  it('in a split: connectedAccountID, amount and isFee are required; description and externalID optional', () => {
    for (const field of ['connectedAccountID', 'amount', 'isFee']) {
      const splits = splitsOf(invoice())
      Reflect.deleteProperty(splits[0]!, field)
      expectInvalidAt({ ...invoice(), moneySplitList: splits }, `moneySplitList.0.${field}`)
    }
  })
})

describe('missing customerExternalID is rejected (I7 item 2)', () => {
  it('absent, null or empty gives MissingCustomerExternalID at customerExternalID', () => {
    for (const input of [
      without(card(), 'customerExternalID'),
      withField(card(), 'customerExternalID', null),
      withField(card(), 'customerExternalID', '')
    ]) {
      const e = errorOf(input)
      expect(e.code).toBe('MissingCustomerExternalID')
      expect(e.issues).toEqual([
        {
          path: 'customerExternalID',
          code: 'MissingCustomerExternalID',
          reason: 'required',
          message: en.required
        }
      ])
    }
  })

  it('any other non-string is ValidationFailed', () => {
    for (const v of [42, true, {}, [], 0]) {
      expectInvalidAt(withField(card(), 'customerExternalID', v), 'customerExternalID')
    }
  })

  it('is at most 255 characters', () => {
    expect(issuesOf(withField(card(), 'customerExternalID', 'c'.repeat(255)))).toEqual([])
    expectInvalidAt(withField(card(), 'customerExternalID', 'c'.repeat(256)), 'customerExternalID')
  })
})

describe('grossAmount must equal the sum of the split amounts (I4 rule 2)', () => {
  it('a different grossAmount gives GrossAmountMismatch at grossAmount', () => {
    const e = errorOf(withField(card(), 'grossAmount', 10001))
    expect(e.code).toBe('GrossAmountMismatch')
    expect(e.issues).toEqual([
      {
        path: 'grossAmount',
        code: 'GrossAmountMismatch',
        reason: 'sum_mismatch',
        message: en.sum_mismatch
      }
    ])
  })

  it('is only checked when grossAmount and every split amount are valid', () => {
    expect(issuesOf(withSplit(card(), 1, 'amount', -5)).map((i) => i.code)).toEqual([
      'ValidationFailed'
    ])
    expect(issuesOf(withSplit(card(), 1, 'amount', '2000')).map((i) => i.code)).toEqual([
      'ValidationFailed'
    ])
    expect(issuesOf(withField(card(), 'grossAmount', 0)).map((i) => i.code)).toEqual([
      'ValidationFailed'
    ])
    expect(issuesOf(withField(card(), 'moneySplitList', [])).map((i) => i.path)).toEqual([
      'moneySplitList'
    ])
    expect(issuesOf(withField(card(), 'moneySplitList', [1, 2])).map((i) => i.path)).toEqual([
      'moneySplitList.0',
      'moneySplitList.1'
    ])
  })
})

describe('amounts are safe integers; grossAmount ≥ 1; each split amount ≥ 0 (C3)', () => {
  it('grossAmount must be a safe integer ≥ 1', () => {
    for (const v of [
      0,
      -1,
      1.5,
      '10000',
      null,
      NaN,
      Infinity,
      Number.MAX_SAFE_INTEGER + 1,
      10000n
    ]) {
      expectInvalidAt(withField(card(), 'grossAmount', v), 'grossAmount')
    }
  })

  it('a split amount must be a safe integer ≥ 0; 0 is allowed', () => {
    for (const v of [-1, 0.5, '1', null, NaN, -Infinity, 2 ** 53, true]) {
      expectInvalidAt(withSplit(card(), 2, 'amount', v), 'moneySplitList.2.amount')
    }
    const zero = { ...withSplit(card(), 1, 'amount', 0), grossAmount: 8000 }
    expect(issuesOf(zero)).toEqual([])
  })

  it('C12 a number past the safe range is too_big, not not_integer (1e20); 2^53 itself stays not_integer, as the reason table says', () => {
    const reasonAt = (v: unknown): unknown[] => issuesOf(withField(card(), 'grossAmount', v)).map((i) => [i.path, i.reason, i.params])
    const MAX = { max: Number.MAX_SAFE_INTEGER }
    for (const v of [1e20, 2 ** 53 + 2, Number.MAX_VALUE, Infinity]) expect(reasonAt(v), String(v)).toStrictEqual([['grossAmount', 'too_big', MAX]])
    for (const v of [2 ** 53, -(2 ** 53), 1.5, NaN]) expect(reasonAt(v), String(v)).toStrictEqual([['grossAmount', 'not_integer', undefined]])
    for (const v of [-1e20, -Infinity]) expect(reasonAt(v), String(v)).toStrictEqual([['grossAmount', 'too_small', { min: 1 }]])
    expect(reasonAt(Number.MAX_SAFE_INTEGER)).toStrictEqual([['grossAmount', 'sum_mismatch', undefined]])
    // a split amount, a patch amount, a splitID: the same rule
    expect(issuesOf(withSplit(card(), 0, 'amount', 1e20)).map((i) => [i.path, i.reason])).toStrictEqual([['moneySplitList.0.amount', 'too_big']])
    const patch = decodeMoneySplitPatch({ moneySplitPatch: [{ splitID: 1e20, updateType: 'UpdateAmount', newAmount: 1e21 }], newGrossAmount: 2 ** 53 })
    expect(E.isLeft(patch) && patch.left.issues?.map((i) => [i.path, i.reason])).toStrictEqual([
      ['moneySplitPatch.0.splitID', 'too_big'],
      ['moneySplitPatch.0.newAmount', 'too_big'],
      ['newGrossAmount', 'not_integer']
    ])
  })

  it('sums never leave the safe-integer range: the sum of the splits above MAX_SAFE_INTEGER is ValidationFailed at moneySplitList', () => {
    const big = Number.MAX_SAFE_INTEGER
    const input = {
      ...invoice(),
      grossAmount: big,
      moneySplitList: [
        { connectedAccountID: SELLER, amount: big, isFee: false },
        { connectedAccountID: SELLER, amount: 1, isFee: false }
      ]
    }
    const issue = onlyIssue(input)
    expect(issue).toMatchObject({ path: 'moneySplitList', code: 'ValidationFailed' })
    const exact = {
      ...input,
      moneySplitList: [
        { connectedAccountID: SELLER, amount: big - 1, isFee: false },
        { connectedAccountID: SELLER, amount: 1, isFee: false }
      ]
    }
    expect(issuesOf(exact)).toEqual([])
  })
})

describe('moneySplitList holds 1..500 entries (C3)', () => {
  const split = { connectedAccountID: SELLER, amount: 1, isFee: false }
  it('an empty list is rejected', () => {
    expectInvalidAt(withField(invoice(), 'moneySplitList', []), 'moneySplitList')
  })

  it('500 splits are fine, 501 are not', () => {
    expect(
      issuesOf({
        ...invoice(),
        grossAmount: 500,
        moneySplitList: Array.from({ length: 500 }, () => split)
      })
    ).toEqual([])
    expectInvalidAt(
      { ...invoice(), grossAmount: 501, moneySplitList: Array.from({ length: 501 }, () => split) },
      'moneySplitList'
    )
  })

  it('must be an array of objects', () => {
    expectInvalidAt(
      withField(invoice(), 'moneySplitList', { 0: split, length: 1 }),
      'moneySplitList'
    )
    expectInvalidAt(withField(invoice(), 'moneySplitList', 'x'), 'moneySplitList')
    expectInvalidAt(withField(invoice(), 'moneySplitList', [null]), 'moneySplitList.0')
    expectInvalidAt(withField(invoice(), 'moneySplitList', [[split]]), 'moneySplitList.0')
  })

  it('a hole in the array is an issue at the hole, and the prototype is never read for it', () => {
    const sparse: unknown[] = [split]
    sparse.length = 3
    sparse[2] = split
    const issues = issuesOf({ ...invoice(), grossAmount: 3, moneySplitList: sparse })
    expect(issues.map((i) => i.path)).toEqual(['moneySplitList.1'])
  })

  it('a huge sparse array is rejected at once', () => {
    const huge: unknown[] = []
    huge.length = 2 ** 32 - 1
    // at once: walking 2^32 - 1 holes would not finish within the test's timeout
    expect(issuesOf(withField(invoice(), 'moneySplitList', huge)).map((i) => i.path)).toEqual([
      'moneySplitList',
      'moneySplitList.0'
    ])
  })
})

describe('every split with isFee true names the same connectedAccountID, the platform fee account (C3)', () => {
  it('two fee splits with different accounts are rejected at the second one', () => {
    const input = {
      ...invoice(),
      grossAmount: 3,
      moneySplitList: [
        { connectedAccountID: FEE, amount: 1, isFee: true },
        { connectedAccountID: SELLER, amount: 1, isFee: false },
        { connectedAccountID: ACCOUNT, amount: 1, isFee: true }
      ]
    }
    expectInvalidAt(input, 'moneySplitList.2.connectedAccountID')
  })

  it('the same account in another letter case is the same account', () => {
    const input = {
      ...invoice(),
      grossAmount: 2,
      moneySplitList: [
        { connectedAccountID: FEE, amount: 1, isFee: true },
        { connectedAccountID: FEE.toUpperCase(), amount: 1, isFee: true }
      ]
    }
    expect(issuesOf(input)).toEqual([])
    expect(valueOf(input).moneySplitList[1]?.connectedAccountID).toBe(FEE.toUpperCase())
  })

  it('isFee must be a boolean', () => {
    for (const v of ['true', 1, null])
      expectInvalidAt(withSplit(card(), 0, 'isFee', v), 'moneySplitList.0.isFee')
  })
})

describe('currency is an active ISO 4217 code, upper case, on the list (C3)', () => {
  it('accepts listed codes', () => {
    for (const c of ['NOK', 'SEK', 'EUR', 'USD', 'GBP', 'XCG', 'MGA', 'MRU'])
      expect(issuesOf(withField(card(), 'currency', c)), c).toEqual([])
  })

  it('rejects lower case, unknown, historic and non-money codes', () => {
    for (const c of ['nok', 'XYZ', 'HRK', 'XAU', 'XTS', 'NOK ', '', 578, null])
      expectInvalidAt(withField(card(), 'currency', c), 'currency')
    for (const c of ['nok', 'XYZ', 'HRK', 'XAU', 'XTS', 'NOK ', ''])
      expect(onlyIssue(withField(card(), 'currency', c)).reason, c).toBe('unknown_currency')
    expect(onlyIssue(withField(card(), 'currency', 578))).toMatchObject({ reason: 'type', params: { expected: 'string' } })
  })
})

describe('currency minor unit: a listed currency whose ISO 4217 minor unit is not a hundredth is refused (C3 currency, I1.7)', () => {
  // amounts are in hundredths (I1.7): 0-, 3- and 4-decimal currencies would be read 100×, 10× or 100× wrong
  const notHundredths = {
    0: ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'],
    3: ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'],
    4: ['CLF', 'UYW']
  }
  it('every listed 0-, 3- or 4-decimal code gives currency_minor_unit at currency, ValidationFailed', () => {
    for (const c of Object.values(notHundredths).flat()) {
      const e = errorOf(withField(card(), 'currency', c))
      expect(e.code, c).toBe('ValidationFailed')
      expect(e.issues, c).toEqual([
        { path: 'currency', code: 'ValidationFailed', reason: 'currency_minor_unit', message: en.currency_minor_unit }
      ])
    }
  })
  it('currencyCodes lists exactly the accepted codes: none of these, and every one it lists is accepted', () => {
    for (const c of Object.values(notHundredths).flat()) expect(currencyCodes.includes(c), c).toBe(false)
    for (const c of currencyCodes) expect(issuesOf(withField(card(), 'currency', c)), c).toEqual([])
    expect(currencyCodes.length).toBe(164 - 26) // the 164 listed codes but those 26
  })
  it('an unknown code is unknown_currency, not currency_minor_unit', () => {
    expect(onlyIssue(withField(card(), 'currency', 'JPX')).reason).toBe('unknown_currency')
    expect(onlyIssue(withField(card(), 'currency', 'jpy')).reason).toBe('unknown_currency')
  })
})

describe('UUID fields: sellerConnectedAccountID and connectedAccountID are 8-4-4-4-12 hex digits, either case (C3)', () => {
  it('either case is accepted and stored as given', () => {
    const value = valueOf(withField(card(), 'sellerConnectedAccountID', SELLER.toUpperCase()))
    expect(value.sellerConnectedAccountID).toBe(SELLER.toUpperCase())
  })

  it('anything else is rejected', () => {
    for (const v of ['', 'seller', SELLER.replace(/-/g, ''), `{${SELLER}}`, SELLER + ' ', 42]) {
      expectInvalidAt(withField(card(), 'sellerConnectedAccountID', v), 'sellerConnectedAccountID')
      expectInvalidAt(
        withSplit(card(), 1, 'connectedAccountID', v),
        'moneySplitList.1.connectedAccountID'
      )
    }
  })
})

describe('environment is test or production (C3)', () => {
  it('accepts both, rejects the rest', () => {
    expect(issuesOf(withField(card(), 'environment', 'production'))).toEqual([])
    for (const v of ['Test', 'staging', 'prod', '', true])
      expectInvalidAt(withField(card(), 'environment', v), 'environment')
  })
})

describe('paymentGateway is creditcard or invoice (C3)', () => {
  it('accepts both, rejects the rest', () => {
    for (const v of ['card', 'CreditCard', 'vipps', '', 1])
      expectInvalidAt(withField(card(), 'paymentGateway', v), 'paymentGateway')
  })

  it('chargeImmediately is required for card payments', () => {
    expectInvalidAt(without(card(), 'chargeImmediately'), 'chargeImmediately')
  })

  it('chargeImmediately is optional for invoices, kept only when given', () => {
    expect(valueOf(invoice()).chargeImmediately).toBeUndefined()
    expect(valueOf(withField(invoice(), 'chargeImmediately', true)).chargeImmediately).toBe(true)
  })

  it('chargeImmediately must be a boolean', () => {
    for (const v of ['true', 1, null]) {
      expectInvalidAt(withField(card(), 'chargeImmediately', v), 'chargeImmediately')
      expectInvalidAt(withField(invoice(), 'chargeImmediately', v), 'chargeImmediately')
    }
  })

  it('with an invalid gateway, an absent chargeImmediately is not reported as well', () => {
    expectInvalidAt(
      without(withField(card(), 'paymentGateway', 'paypal'), 'chargeImmediately'),
      'paymentGateway'
    )
  })
})

describe('customer: optional, every field optional, each given one validated (C3)', () => {
  it('may be absent or empty', () => {
    expect(issuesOf(without(card(), 'customer'))).toEqual([])
    expect(valueOf(withField(card(), 'customer', {})).customer).toEqual({})
  })

  it('must be an object', () => {
    for (const v of [null, 'Kari', [], 1])
      expectInvalidAt(withField(card(), 'customer', v), 'customer')
  })

  it('email: one @, local part 1–64 chars, domain with a dot and no empty label, no whitespace, ≤ 254 chars', () => {
    for (const v of [
      'kari',
      'kari@localhost',
      'a@@b.no',
      '@b.no',
      'kari@b..no',
      'ka ri@b.no',
      'x'.repeat(65) + '@b.no',
      'a@' + 'b'.repeat(252) + '.no',
      7
    ]) {
      expectInvalidAt(withCustomer('email', v), 'customer.email')
    }
  })

  it('mobilePrefix: + and 1–4 digits', () => {
    for (const v of ['47', '+', '+12345', '+4a', 47])
      expectInvalidAt(withCustomer('mobilePrefix', v), 'customer.mobilePrefix')
  })

  it('mobile: 4–15 digits', () => {
    for (const v of ['123', '1234567890123456', '912 34 567', '+4791234567', 91234567])
      expectInvalidAt(withCustomer('mobile', v), 'customer.mobile')
  })

  it('customerType: non-empty (Individual for private persons)', () => {
    expect(issuesOf(withCustomer('customerType', 'Company'))).toEqual([])
    for (const v of ['', 'x'.repeat(256), 1])
      expectInvalidAt(withCustomer('customerType', v), 'customer.customerType')
  })

  it('name: a string of at most 255 characters, may be empty', () => {
    expect(issuesOf(withCustomer('name', ''))).toEqual([])
    expect(issuesOf(withCustomer('name', 'n'.repeat(255)))).toEqual([])
    for (const v of ['n'.repeat(256), null, 1])
      expectInvalidAt(withCustomer('name', v), 'customer.name')
  })
})

describe('webhookSubscriptions: 0..20, eventType a webhook event type (long forms accepted), url absolute http(s) (C3, C5)', () => {
  const sub = (
    eventType: unknown,
    url: unknown = 'https://h.example/x'
  ): Record<string, unknown> => ({ eventType, url })

  it('long forms are normalised to the short form', () => {
    const long = [
      'InitiatedPayment',
      'ReservedPayment',
      'ChargedPayment',
      'CancelledPayment',
      'RefundedPayment',
      'PartiallyRefundedPayment',
      'InvoiceAdjustedPayment'
    ]
    const value = valueOf(
      withField(
        card(),
        'webhookSubscriptions',
        long.map((t) => sub(t))
      )
    )
    expect(value.webhookSubscriptions.map((s) => s.eventType)).toEqual([
      'Initiated',
      'Reserved',
      'Charged',
      'Cancelled',
      'Refunded',
      'PartiallyRefunded',
      'InvoiceAdjusted'
    ])
  })

  it('20 subscriptions are fine, 21 are not', () => {
    expect(
      issuesOf(
        withField(
          card(),
          'webhookSubscriptions',
          Array.from({ length: 20 }, () => sub('Charged'))
        )
      )
    ).toEqual([])
    expectInvalidAt(
      withField(
        card(),
        'webhookSubscriptions',
        Array.from({ length: 21 }, () => sub('Charged'))
      ),
      'webhookSubscriptions'
    )
  })

  it('an unknown or wrongly cased event type is rejected at its path', () => {
    for (const t of ['charged', 'Created', 'PaymentCharged', '', null, undefined]) {
      expectInvalidAt(
        withField(card(), 'webhookSubscriptions', [sub('Charged'), sub(t)]),
        'webhookSubscriptions.1.eventType'
      )
    }
  })

  it('the url must be an absolute http(s) URL', () => {
    for (const u of [
      '/hooks',
      'ftp://h.example/',
      'https://h .example/',
      '',
      null,
      'https://h.example/' + 'x'.repeat(2048)
    ]) {
      expectInvalidAt(
        withField(card(), 'webhookSubscriptions', [sub('Charged', u)]),
        'webhookSubscriptions.0.url'
      )
    }
    expectInvalidAt(
      withField(card(), 'webhookSubscriptions', [{ eventType: 'Charged' }]),
      'webhookSubscriptions.0.url'
    )
  })

  it('must be an array of objects', () => {
    expectInvalidAt(withField(card(), 'webhookSubscriptions', {}), 'webhookSubscriptions')
    expectInvalidAt(withField(card(), 'webhookSubscriptions', null), 'webhookSubscriptions')
    expectInvalidAt(
      withField(card(), 'webhookSubscriptions', ['Charged']),
      'webhookSubscriptions.0'
    )
  })
})

describe('successUrl and failedUrl: absolute http(s) URLs, no White_Space or control character, stored exactly as given (C3)', () => {
  it('stored exactly as given, not normalised', () => {
    const url = 'HTTPS://Shop.Example.com:443/a/../paid?x=%7e#Frag'
    expect(valueOf(withField(card(), 'successUrl', url)).successUrl).toBe(url)
  })

  it('rejects relative URLs, other schemes, spaces, controls and more than 2048 characters', () => {
    for (const field of ['successUrl', 'failedUrl']) {
      for (const u of [
        'shop.example.com',
        '//shop.example.com',
        'mailto:a@b.no',
        'https://shop.example.com/\u00a0',
        'https://shop.example.com/\n',
        ' https://shop.example.com',
        'https://',
        'https://shop.example.com/' + 'p'.repeat(2024),
        1
      ]) {
        expectInvalidAt(withField(card(), field, u), field)
      }
      expect(
        issuesOf(withField(card(), field, 'https://shop.example.com/' + 'p'.repeat(2023)))
      ).toEqual([])
    }
  })
})

describe('metaData: flat; values string, number, boolean or null; ≤ 50 keys; key ≤ 40 chars; string value ≤ 500 chars (C3)', () => {
  it('accepts the four kinds of value', () => {
    const meta = { s: 'x', n: -1.25, z: 0, b: true, nul: null, big: 1e300 }
    expect(valueOf(withMeta(meta)).metaData).toEqual(meta)
  })

  it('rejects nested values, arrays, non-finite numbers and undefined, each at metaData.<key>', () => {
    for (const v of [{}, [], [1], NaN, Infinity, undefined, 1n, () => 1, new Date(0)]) {
      expectInvalidAt(withMeta({ ok: 1, bad: v }), 'metaData.bad')
    }
  })

  it('50 keys are fine, 51 are not', () => {
    const keys = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
    expect(issuesOf(withMeta(keys(50)))).toEqual([])
    expectInvalidAt(withMeta(keys(51)), 'metaData')
  })

  it('a key has 1 to 40 characters', () => {
    expect(issuesOf(withMeta({ ['k'.repeat(40)]: 1 }))).toEqual([])
    expectInvalidAt(withMeta({ ['k'.repeat(41)]: 1 }), `metaData.${'k'.repeat(41)}`)
    expectInvalidAt(withMeta({ '': 1 }), 'metaData.')
  })

  it('a string value has at most 500 characters', () => {
    expect(issuesOf(withMeta({ v: 'v'.repeat(500) }))).toEqual([])
    expectInvalidAt(withMeta({ v: 'v'.repeat(501) }), 'metaData.v')
  })

  it('must be an object', () => {
    for (const v of [null, [], 'x', 1]) expectInvalidAt(withMeta(v), 'metaData')
  })

  it('symbol-keyed and non-enumerable properties are not data: dropped like unknown fields', () => {
    const meta: Record<PropertyKey, unknown> = { a: 1, [Symbol('s')]: { nested: true } }
    Object.defineProperty(meta, 'hidden', { value: { nested: true }, enumerable: false })
    const value = valueOf(withMeta(meta)).metaData
    expect(Reflect.ownKeys(value)).toEqual(['a'])
  })

  it('__proto__, constructor and prototype keys are stored as plain data, never touching any prototype', () => {
    const input = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": "c", "prototype": 1, "toString": "s", "hasOwnProperty": null}'
    ) as Record<string, unknown>
    const request = withMeta(input)
    const before = Object.getOwnPropertyNames(Object.prototype).sort()
    const r = decodePaymentIntentRequest(request)
    expect(E.isLeft(r)).toBe(true) // '__proto__' holds an object: not flat
    const flat = JSON.parse(
      '{"__proto__": "p", "constructor": "c", "prototype": 1, "toString": "s", "hasOwnProperty": null}'
    ) as Record<string, unknown>
    const meta = valueOf(withMeta(flat)).metaData
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(meta, '__proto__')).toEqual({
      value: 'p',
      writable: true,
      enumerable: true,
      configurable: true
    })
    expect(Object.getOwnPropertyDescriptor(meta, 'constructor')?.value).toBe('c')
    expect(Object.keys(meta)).toEqual([
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty'
    ])
    expect(JSON.parse(JSON.stringify(meta))).toEqual(flat)
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(typeof ({} as { toString: unknown }).toString).toBe('function')
  })
})

describe('strings: identifying strings non-empty; ≤ 255 chars; descriptions ≤ 1000; URLs ≤ 2048 (C3)', () => {
  it('identifying strings must not be empty', () => {
    expectInvalidAt(
      withField(card(), 'externalPaymentReferenceID', ''),
      'externalPaymentReferenceID'
    )
    expectInvalidAt(withField(card(), 'externalObjectIdTag', ''), 'externalObjectIdTag')
    expectInvalidAt(withSplit(card(), 0, 'externalID', ''), 'moneySplitList.0.externalID')
  })

  it('descriptions may be empty', () => {
    expect(issuesOf(withField(card(), 'description', ''))).toEqual([])
    expect(issuesOf(withSplit(card(), 0, 'description', ''))).toEqual([])
  })

  it('≤ 255 characters', () => {
    for (const field of ['externalPaymentReferenceID', 'externalObjectIdTag']) {
      expect(issuesOf(withField(card(), field, 'x'.repeat(255)))).toEqual([])
      expectInvalidAt(withField(card(), field, 'x'.repeat(256)), field)
    }
    expectInvalidAt(
      withSplit(card(), 0, 'externalID', 'x'.repeat(256)),
      'moneySplitList.0.externalID'
    )
  })

  it('descriptions ≤ 1000 characters, the payment’s and the splits’', () => {
    expect(issuesOf(withField(card(), 'description', 'd'.repeat(1000)))).toEqual([])
    expectInvalidAt(withField(card(), 'description', 'd'.repeat(1001)), 'description')
    expect(issuesOf(withSplit(card(), 0, 'description', 'd'.repeat(1000)))).toEqual([])
    expectInvalidAt(
      withSplit(card(), 0, 'description', 'd'.repeat(1001)),
      'moneySplitList.0.description'
    )
  })

  it('strings must be strings', () => {
    expectInvalidAt(
      withField(card(), 'externalPaymentReferenceID', 1001),
      'externalPaymentReferenceID'
    )
    expectInvalidAt(withField(card(), 'description', null), 'description')
    expectInvalidAt(withSplit(card(), 0, 'externalID', 7), 'moneySplitList.0.externalID')
  })
})

describe('a request that is not an object (C3)', () => {
  it('is ValidationFailed at path ""', () => {
    for (const v of [undefined, null, 'request', 42, true, [], [card()], () => card()]) {
      const e = errorOf(v)
      expect(e.code).toBe('ValidationFailed')
      expect(e.issues).toEqual([
        { path: '', code: 'ValidationFailed', reason: 'type', params: { expected: 'object' }, message: 'Must be of type object.' }
      ])
    }
  })
})

// -------------------------------------------------------------------------------------
// collecting
// -------------------------------------------------------------------------------------

describe('all problems are collected (a form wants every field error at once)', () => {
  it('every issue at its path, in field order', () => {
    const input = {
      externalPaymentReferenceID: '',
      environment: 'staging',
      paymentGateway: 'creditcard',
      sellerConnectedAccountID: 'nope',
      grossAmount: 100,
      currency: 'nok',
      moneySplitList: [
        { connectedAccountID: SELLER, amount: 50, isFee: false },
        { connectedAccountID: 'x', amount: -1, isFee: 'no' }
      ],
      customer: { email: 'bad' },
      webhookSubscriptions: [{ eventType: 'Nope', url: 'ftp://x' }],
      successUrl: 'nope',
      failedUrl: 'https://ok.example/',
      metaData: { nested: { a: 1 } }
    }
    const issues = issuesOf(input)
    expect(issues.map((i) => [i.path, i.code])).toEqual([
      ['externalPaymentReferenceID', 'ValidationFailed'],
      ['environment', 'ValidationFailed'],
      ['chargeImmediately', 'ValidationFailed'],
      ['sellerConnectedAccountID', 'ValidationFailed'],
      ['currency', 'ValidationFailed'],
      ['moneySplitList.1.connectedAccountID', 'ValidationFailed'],
      ['moneySplitList.1.amount', 'ValidationFailed'],
      ['moneySplitList.1.isFee', 'ValidationFailed'],
      ['customerExternalID', 'MissingCustomerExternalID'],
      ['customer.email', 'ValidationFailed'],
      ['webhookSubscriptions.0.eventType', 'ValidationFailed'],
      ['webhookSubscriptions.0.url', 'ValidationFailed'],
      ['successUrl', 'ValidationFailed'],
      ['metaData.nested', 'ValidationFailed']
    ])
    expect(validatePaymentIntentRequest(input).value).toBeUndefined()
    const e = errorOf(input)
    expect(e.issues).toEqual(issues)
    expect(e.message).toContain('14 problems')
  })

  it('value is defined exactly when issues is empty (an own property, so that a polluted prototype cannot supply it)', () => {
    const ok = validatePaymentIntentRequest(card())
    expect(ok.issues).toEqual([])
    expect(ok.value).toBeDefined()
    const bad = validatePaymentIntentRequest(withField(card(), 'currency', 'x'))
    expect(bad.value).toBeUndefined()
    expect(Object.prototype.hasOwnProperty.call(bad, 'value')).toBe(true)
  })
})

describe('precedence of the top-level code: MissingCustomerExternalID, then ValidationFailed, then GrossAmountMismatch (C3)', () => {
  it('MissingCustomerExternalID wins over everything', () => {
    const input = { ...without(card(), 'customerExternalID'), grossAmount: 1, currency: 'x' }
    const e = errorOf(input)
    expect(e.code).toBe('MissingCustomerExternalID')
    expect(e.issues?.map((i) => i.code).sort()).toEqual([
      'GrossAmountMismatch',
      'MissingCustomerExternalID',
      'ValidationFailed'
    ])
  })

  it('ValidationFailed wins over GrossAmountMismatch', () => {
    const e = errorOf({ ...card(), grossAmount: 1, currency: 'x' })
    expect(e.code).toBe('ValidationFailed')
    expect(e.issues?.map((i) => [i.path, i.code])).toEqual([
      ['currency', 'ValidationFailed'],
      ['grossAmount', 'GrossAmountMismatch']
    ])
  })

  it('GrossAmountMismatch alone', () => {
    expect(errorOf({ ...card(), grossAmount: 1 }).code).toBe('GrossAmountMismatch')
  })
})

// -------------------------------------------------------------------------------------
// hostile input
// -------------------------------------------------------------------------------------

/** Wraps `target` (deeply) in proxies counting every `get` per path. */
const counting = (target: unknown, reads: Map<string, number>, path = ''): unknown => {
  if (typeof target !== 'object' || target === null) return target
  return new Proxy(target, {
    get(t, key, receiver) {
      const p = `${path}/${String(key)}`
      reads.set(p, (reads.get(p) ?? 0) + 1)
      return counting(Reflect.get(t, key, receiver), reads, p)
    }
  })
}

describe('hostile input', () => {
  it('every property of the input is read at most once (getters and proxies see one read)', () => {
    for (const input of [card(), invoice(), { ...card(), currency: 'x', grossAmount: 3 }]) {
      const reads = new Map<string, number>()
      const r = decodePaymentIntentRequest(counting(input, reads))
      expect(r).toEqual(decodePaymentIntentRequest(input))
      for (const [p, n] of reads) expect(n, p).toBe(1)
      expect(reads.has('/moneySplitList/length')).toBe(true)
    }
    const reads = new Map<string, number>()
    const patch = {
      moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 1, doDelete: true }],
      newGrossAmount: 1
    }
    decodeMoneySplitPatch(counting(patch, reads))
    for (const [p, n] of reads) expect(n, p).toBe(1)
    expect(reads.has('/moneySplitPatch/0/doDelete')).toBe(false) // ignored: never read
  })

  it('a getter is called once, and its value is what is validated', () => {
    let calls = 0
    const input = card()
    Object.defineProperty(input, 'currency', {
      enumerable: true,
      get: () => {
        calls++
        return calls === 1 ? 'NOK' : 'not a currency'
      }
    })
    expect(valueOf(input).currency).toBe('NOK')
    expect(calls).toBe(1)
  })

  it('the input is never mutated', () => {
    const input = card()
    const snapshot = JSON.stringify(input)
    valueOf(input)
    errorOf({ ...input, grossAmount: 1 })
    expect(JSON.stringify(input)).toBe(snapshot)
  })

  it('1 MB adversarial strings in every string field are rejected with the same issues as 100 kB ones (the time: bench/linearity.bench.ts)', () => {
    const payloads: ReadonlyArray<(n: number) => string> = [
      (n) => '@'.repeat(n),
      (n) => 'a'.repeat(n) + '!',
      (n) => '-'.repeat(n),
      (n) => 'https://example.com/' + 'a'.repeat(n),
      (n) => 'a'.repeat(n) + '@example.com',
      (n) => '\ud800'.repeat(n),
      (n) => 'a'.repeat(n) + '\udc00'
    ]
    const places: ReadonlyArray<(s: string) => unknown> = [
      (s) => withField(card(), 'externalPaymentReferenceID', s),
      (s) => withField(card(), 'environment', s),
      (s) => withField(card(), 'paymentGateway', s),
      (s) => withField(card(), 'sellerConnectedAccountID', s),
      (s) => withField(card(), 'externalObjectIdTag', s),
      (s) => withField(card(), 'description', s),
      (s) => withField(card(), 'currency', s),
      (s) => withField(card(), 'customerExternalID', s),
      (s) => withField(card(), 'successUrl', s),
      (s) => withField(card(), 'failedUrl', s),
      (s) => withSplit(card(), 0, 'connectedAccountID', s),
      (s) => withSplit(card(), 0, 'description', s),
      (s) => withSplit(card(), 0, 'externalID', s),
      (s) => withCustomer('name', s),
      (s) => withCustomer('email', s),
      (s) => withCustomer('mobilePrefix', s),
      (s) => withCustomer('mobile', s),
      (s) => withCustomer('customerType', s),
      (s) =>
        withField(card(), 'webhookSubscriptions', [{ eventType: s, url: 'https://a.example/' }]),
      (s) => withField(card(), 'webhookSubscriptions', [{ eventType: 'Charged', url: s }]),
      (s) => withMeta({ [s]: 1 }),
      (s) => withMeta({ k: s })
    ]
    for (const make of payloads) {
      const small = make(100_000)
      const large = make(1_000_000)
      for (const place of places) {
        const inputSmall = place(small)
        const inputLarge = place(large)
        // as many issues, of the same codes, for 1 MB as for 100 kB (a metaData key is its own
        // path); how the time grows is measured by bench/linearity.bench.ts
        expect(issuesOf(inputLarge).map((i) => i.code)).toStrictEqual(issuesOf(inputSmall).map((i) => i.code))
        expect(E.isLeft(decodePaymentIntentRequest(inputLarge))).toBe(true)
      }
    }
  })

  it('a million splits or subscriptions and 100 000 metaData keys get one issue each, past the limit nothing is read', () => {
    const split = { connectedAccountID: SELLER, amount: 1, isFee: false }
    expect(
      pathsOf({ ...invoice(), moneySplitList: Array.from({ length: 1_000_000 }, () => split) })
    ).toContain('moneySplitList ValidationFailed')
    expect(
      pathsOf({ ...invoice(), webhookSubscriptions: Array.from({ length: 1_000_000 }, () => ({})) })
    ).toContain('webhookSubscriptions ValidationFailed')
    expect(
      pathsOf(withMeta(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, { nested: i }]))))
    ).toContain('metaData ValidationFailed')
  })
})

// -------------------------------------------------------------------------------------
// patches
// -------------------------------------------------------------------------------------

describe('decodeMoneySplitPatch: the patch shape only (C3 last sentence, I2.5)', () => {
  const patch = (entries: unknown[], ...gross: [unknown?]): Record<string, unknown> => ({
    moneySplitPatch: entries,
    newGrossAmount: gross.length === 0 ? 0 : gross[0]
  })
  const patchIssues = (input: unknown) =>
    validateMoneySplitPatch(input).issues.map((i) => [i.path, i.code])

  it('decodes each updateType to exactly its PatchEntry shape, dropping the fields it ignores', () => {
    const r = decodeMoneySplitPatch(
      patch(
        [
          { splitID: 1, updateType: 'UpdateAmount', newAmount: 10, doDelete: 'ignored' },
          { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: true, newAmount: 'ignored' },
          { splitID: 3, updateType: 'DoNothing', newAmount: -5, doDelete: 'x', extra: 1 }
        ],
        10
      )
    )
    expect(r).toEqual(
      E.right({
        moneySplitPatch: [
          { splitID: 1, updateType: 'UpdateAmount', newAmount: 10 },
          { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: true },
          { splitID: 3, updateType: 'DoNothing' }
        ],
        newGrossAmount: 10
      })
    )
  })

  it('an empty patch has a valid shape (the C4 rules are transition’s)', () => {
    expect(decodeMoneySplitPatch(patch([]))).toEqual(
      E.right({ moneySplitPatch: [], newGrossAmount: 0 })
    )
  })

  it('splitID is a safe integer ≥ 1', () => {
    for (const v of [0, -1, 1.5, '1', null, undefined, 2 ** 53]) {
      expect(patchIssues(patch([{ splitID: v, updateType: 'DoNothing' }]))).toEqual([
        ['moneySplitPatch.0.splitID', 'ValidationFailed']
      ])
    }
  })

  it('updateType is UpdateAmount, DoDeleteSplitEntry or DoNothing', () => {
    for (const v of ['updateAmount', 'Delete', '', null, undefined, 1]) {
      expect(patchIssues(patch([{ splitID: 1, updateType: v }]))).toEqual([
        ['moneySplitPatch.0.updateType', 'ValidationFailed']
      ])
    }
  })

  it('UpdateAmount needs newAmount, a safe integer ≥ 0', () => {
    for (const v of [undefined, -1, 0.5, '5', null, Infinity]) {
      expect(
        patchIssues(
          patch([
            { splitID: 1, updateType: 'DoNothing' },
            { splitID: 2, updateType: 'UpdateAmount', newAmount: v }
          ])
        )
      ).toEqual([['moneySplitPatch.1.newAmount', 'ValidationFailed']])
    }
  })

  it('DoDeleteSplitEntry needs doDelete, a boolean', () => {
    for (const v of [undefined, 'true', 1, null]) {
      expect(
        patchIssues(patch([{ splitID: 1, updateType: 'DoDeleteSplitEntry', doDelete: v }]))
      ).toEqual([['moneySplitPatch.0.doDelete', 'ValidationFailed']])
    }
  })

  it('newGrossAmount is a safe integer ≥ 0', () => {
    for (const v of [undefined, -1, 1.5, '0', null, 2 ** 53]) {
      expect(patchIssues(patch([], v))).toEqual([['newGrossAmount', 'ValidationFailed']])
    }
  })

  it('moneySplitPatch is a required array of objects', () => {
    expect(patchIssues({ newGrossAmount: 0 })).toEqual([['moneySplitPatch', 'ValidationFailed']])
    expect(patchIssues(patch({} as unknown as unknown[]))).toEqual([
      ['moneySplitPatch', 'ValidationFailed']
    ])
    expect(patchIssues(patch([null, 'x', []]))).toEqual([
      ['moneySplitPatch.0', 'ValidationFailed'],
      ['moneySplitPatch.1', 'ValidationFailed'],
      ['moneySplitPatch.2', 'ValidationFailed']
    ])
  })

  it('a patch that is not an object is ValidationFailed at path ""', () => {
    for (const v of [undefined, null, [], 'patch', 1]) {
      const r = decodeMoneySplitPatch(v)
      expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
      expect(E.isLeft(r) && r.left.issues?.map((i) => i.path)).toEqual([''])
    }
  })

  it('every issue is collected', () => {
    const input = patch(
      [
        { splitID: 0, updateType: 'UpdateAmount' },
        { splitID: 2, updateType: 'DoDeleteSplitEntry' },
        { splitID: 3 }
      ],
      -1
    )
    expect(patchIssues(input).map(([p]) => p)).toEqual([
      'moneySplitPatch.0.splitID',
      'moneySplitPatch.0.newAmount',
      'moneySplitPatch.1.doDelete',
      'moneySplitPatch.2.updateType',
      'newGrossAmount'
    ])
  })

  it('100k entries decode; the value has fresh entries (the time: bench/linearity.bench.ts)', () => {
    const make = (n: number) =>
      patch(
        Array.from({ length: n }, (_, i) => ({
          splitID: i + 1,
          updateType: 'UpdateAmount',
          newAmount: i
        })),
        5
      )
    const small = make(10_000)
    const large = make(100_000)
    // how the time grows from 10k to 100k entries: bench/linearity.bench.ts
    expect(E.isRight(decodeMoneySplitPatch(small))).toBe(true)
    const r = decodeMoneySplitPatch(large)
    expect(E.isRight(r) && r.right.moneySplitPatch.length).toBe(100_000)
    expect(E.isRight(r) && r.right.moneySplitPatch[0]).not.toBe(
      (large['moneySplitPatch'] as unknown[])[0]
    )
    const allBad = patch(
      Array.from({ length: 100_000 }, () => ({})),
      0
    )
    const bad = decodeMoneySplitPatch(allBad)
    expect(E.isLeft(bad) && bad.left.issues?.length).toBeGreaterThan(0)
  })

  it('a hole in the array is an issue at the hole', () => {
    const sparse: unknown[] = []
    sparse.length = 2 ** 32 - 1
    expect(patchIssues(patch(sparse))).toEqual([['moneySplitPatch.0', 'ValidationFailed']])
  })
})

// -------------------------------------------------------------------------------------
// io-ts codecs
// -------------------------------------------------------------------------------------

describe('io-ts codecs', () => {
  it('PaymentIntentRequest.decode is the collector: Right of the same value, or one io-ts error per issue', () => {
    expect(PaymentIntentRequest.decode(card())).toEqual(decodePaymentIntentRequest(card()))
    const bad = { ...card(), currency: 'x', grossAmount: 1 }
    const r = PaymentIntentRequest.decode(bad)
    expect(E.isLeft(r)).toBe(true)
    if (E.isLeft(r)) {
      expect(r.left.map((e) => e.context.map((c) => c.key))).toEqual([
        ['', 'currency'],
        ['', 'grossAmount']
      ])
      expect(r.left.map((e) => e.message)).toEqual(issuesOf(bad).map((i) => i.message))
      expect(r.left[0]?.context[0]?.type).toBe(PaymentIntentRequest)
    }
    expect(PathReporter.report(r)).toEqual(issuesOf(bad).map((i) => i.message))
  })

  it('PaymentIntentRequest.is holds for decoded values only', () => {
    const value = valueOf(card())
    expect(PaymentIntentRequest.is(value)).toBe(true)
    expect(PaymentIntentRequest.is(card())).toBe(false) // a long-form event type
    expect(PaymentIntentRequest.is(invoice())).toBe(false) // no webhookSubscriptions, no metaData
    expect(PaymentIntentRequest.is({ ...value, currency: 'x' })).toBe(false)
  })

  it('encode is an identity copy', () => {
    const value = valueOf(card())
    const encoded = PaymentIntentRequest.encode(value)
    expect(encoded).toEqual(value)
    expect(encoded).not.toBe(value)
    expect(encoded.moneySplitList).not.toBe(value.moneySplitList)
    const p = {
      moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' as const }],
      newGrossAmount: 0
    }
    expect(MoneySplitPatch.encode(p)).toEqual(p)
    expect(MoneySplitPatch.encode(p)).not.toBe(p)
  })

  it('MoneySplitPatch decodes like decodeMoneySplitPatch', () => {
    const input = { moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }], newGrossAmount: 0 }
    expect(MoneySplitPatch.decode(input)).toEqual(decodeMoneySplitPatch(input))
    expect(MoneySplitPatch.is(input)).toBe(true)
    const r = MoneySplitPatch.decode({
      moneySplitPatch: [{ splitID: 0, updateType: 'DoNothing' }],
      newGrossAmount: 0
    })
    expect(E.isLeft(r) && r.left[0]?.context.map((c) => c.key)).toEqual([
      '',
      'moneySplitPatch.0.splitID'
    ])
  })

  it('MoneySplitRequest, Customer and WebhookSubscription check one part on its own', () => {
    expect(
      MoneySplitRequest.decode({ connectedAccountID: SELLER, amount: 1, isFee: false, x: 1 })
    ).toEqual(E.right({ connectedAccountID: SELLER, amount: 1, isFee: false }))
    expect(PathReporter.report(MoneySplitRequest.decode({ amount: -1 })).length).toBe(3)
    expect(Customer.decode({ name: 'Kari', email: 'kari@example.no' })).toEqual(
      E.right({ name: 'Kari', email: 'kari@example.no' })
    )
    const c = Customer.decode({ mobile: '12' })
    expect(E.isLeft(c) && c.left[0]?.context.map((x) => x.key)).toEqual(['', 'mobile'])
    expect(
      WebhookSubscription.decode({ eventType: 'InvoiceAdjustedPayment', url: 'http://a.example/' })
    ).toEqual(E.right({ eventType: 'InvoiceAdjusted', url: 'http://a.example/' }))
    expect(
      WebhookSubscription.is({ eventType: 'InvoiceAdjustedPayment', url: 'http://a.example/' })
    ).toBe(false)
    expect(WebhookSubscription.is({ eventType: 'InvoiceAdjusted', url: 'http://a.example/' })).toBe(
      true
    )
    expect(E.isLeft(WebhookSubscription.decode('x'))).toBe(true)
  })
})
