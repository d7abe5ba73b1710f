import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  en,
  formatIssue,
  decodeMoneySplitPatch,
  decodePaymentIntentRequest,
  MoneySplitPatch,
  PaymentIntentRequest
} from '../../src/codecs.js'
import { validateMoneySplitPatch, validatePaymentIntentRequest } from '../../src/codecs/requestChecks.js'
import type { Issue, IssueCode } from '../../src/errors.js'
import type { PaymentIntentRequest as Request } from '../../src/codecs/requests.js'
import {
  validPatchShapeArb,
  validRequestArb,
  validWirePatchArb,
  validWireRequestArb
} from '../support/wireArbitraries.js'

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

/** A fraction of the global run count (test/support/setup.ts), for the slower properties. */
const runs = (fraction: number): number =>
  Math.max(1, Math.round((fc.readConfigureGlobal().numRuns ?? 100) * fraction))

const deepFreeze = <T>(value: T): T => {
  // typed arrays cannot be frozen; their elements are numbers anyway
  if (
    typeof value === 'object' &&
    value !== null &&
    !ArrayBuffer.isView(value) &&
    !Object.isFrozen(value)
  ) {
    Object.freeze(value)
    for (const key of Reflect.ownKeys(value))
      deepFreeze((value as Record<PropertyKey, unknown>)[key])
  }
  return value
}

/**
 * A structural fingerprint of a JSON-like value: prototypes (null or not), own keys in order,
 * array holes, `-0` and `undefined` all show.
 */
const fingerprint = (v: unknown): string => {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v !== 'object' || v === null) return String(v)
  const source = v as Record<PropertyKey, unknown>
  if (Array.isArray(v)) {
    const parts: string[] = []
    for (let i = 0; i < v.length; i++)
      parts.push(Object.prototype.hasOwnProperty.call(v, i) ? fingerprint(source[i]) : '<hole>')
    return `[${parts.join(',')}]`
  }
  const proto = Object.getPrototypeOf(v) === null ? 'null:' : ''
  return `{${proto}${Reflect.ownKeys(v)
    .map((k) => `${String(k)}=${fingerprint(source[k])}`)
    .join(',')}}`
}

/** Every kind of JavaScript value fast-check knows, the odd ones included. */
const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: 'binary'
})

const requestKeys = [
  'externalPaymentReferenceID',
  'environment',
  'paymentGateway',
  'chargeImmediately',
  'sellerConnectedAccountID',
  'externalObjectIdTag',
  'description',
  'grossAmount',
  'currency',
  'moneySplitList',
  'customerExternalID',
  'customer',
  'webhookSubscriptions',
  'successUrl',
  'failedUrl',
  'metaData',
  '__proto__',
  'constructor'
]

/** Objects whose keys are mostly the request's own, with values of every kind. */
const requestLikeArb = fc.object({
  key: fc.oneof(fc.constantFrom(...requestKeys), fc.string()),
  values: [anything],
  maxDepth: 2,
  withNullPrototype: true
})

/** Request-like objects without Maps, Sets or typed arrays (which a deep snapshot cannot copy faithfully). */
const plainRequestLikeArb = fc.object({
  key: fc.oneof(fc.constantFrom(...requestKeys), fc.string()),
  values: [
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined)
  ],
  maxDepth: 3,
  withNullPrototype: true,
  withSparseArray: true
})

const patchLikeArb = fc.object({
  key: fc.constantFrom(
    'moneySplitPatch',
    'newGrossAmount',
    'splitID',
    'updateType',
    'newAmount',
    'doDelete',
    '__proto__'
  ),
  values: [anything, fc.constantFrom('UpdateAmount', 'DoDeleteSplitEntry', 'DoNothing'), fc.nat()],
  maxDepth: 3
})

// -------------------------------------------------------------------------------------
// valid requests decode
// -------------------------------------------------------------------------------------

describe('every generated valid request decodes (arbitraries mirror the codecs)', () => {
  it('a valid request in decoded form decodes to a deep-equal value', () => {
    fc.assert(
      fc.property(validRequestArb(), (r) => {
        expect(decodePaymentIntentRequest(r)).toStrictEqual(E.right(r))
      })
    )
  })

  it('a valid request as a caller sends it decodes to the expected normalised form', () => {
    fc.assert(
      fc.property(validWireRequestArb(), ({ input, expected }) => {
        expect(decodePaymentIntentRequest(input)).toStrictEqual(E.right(expected))
      })
    )
  })

  it('card payments, invoices, with and without a customer', () => {
    for (const options of [
      { gateway: 'creditcard' as const, customer: true },
      { gateway: 'creditcard' as const, customer: false },
      { gateway: 'invoice' as const, customer: true },
      { gateway: 'invoice' as const, customer: false }
    ]) {
      fc.assert(
        fc.property(validWireRequestArb(options), ({ input, expected }) => {
          expect(expected.paymentGateway).toBe(options.gateway)
          expect(expected.customer !== undefined).toBe(options.customer)
          expect(decodePaymentIntentRequest(input)).toStrictEqual(E.right(expected))
        }),
        { numRuns: runs(1 / 4) }
      )
    }
  })

  it('up to 500 splits', () => {
    fc.assert(
      fc.property(validRequestArb({ maxSplits: 500 }), (r) => {
        expect(decodePaymentIntentRequest(r)).toStrictEqual(E.right(r))
      }),
      { numRuns: runs(1 / 10) }
    )
  })

  it('decoding is idempotent, and the io-ts codec agrees: is, decode, encode', () => {
    fc.assert(
      fc.property(validWireRequestArb(), ({ input }) => {
        const once = decodePaymentIntentRequest(input)
        if (E.isLeft(once)) throw new Error('expected a Right')
        expect(decodePaymentIntentRequest(once.right)).toStrictEqual(once)
        expect(PaymentIntentRequest.decode(input)).toStrictEqual(once)
        expect(PaymentIntentRequest.is(once.right)).toBe(true)
        expect(PaymentIntentRequest.encode(once.right)).toStrictEqual(once.right)
      })
    )
  })
})

// -------------------------------------------------------------------------------------
// robustness
// -------------------------------------------------------------------------------------

describe('decode never throws, is deterministic, and never mutates its input', () => {
  it('never throws on fc.anything() or on request-like objects; value present exactly when no issue', () => {
    fc.assert(
      fc.property(fc.oneof(anything, requestLikeArb), (u) => {
        const r = validatePaymentIntentRequest(u)
        expect(r.issues.length === 0).toBe(r.value !== undefined)
        const d = decodePaymentIntentRequest(u)
        expect(E.isLeft(d) ? (d.left.issues ?? []).length > 0 : true).toBe(true)
        const p = validateMoneySplitPatch(u)
        expect(p.issues.length === 0).toBe(p.value !== undefined)
        decodeMoneySplitPatch(u)
      })
    )
  })

  it('never throws on fc.object()', () => {
    fc.assert(
      fc.property(fc.object(), (u) => {
        expect(E.isLeft(decodePaymentIntentRequest(u))).toBe(true)
        decodeMoneySplitPatch(u)
      })
    )
  })

  it('never throws on patch-like objects', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          patchLikeArb,
          fc.record({ moneySplitPatch: fc.array(patchLikeArb), newGrossAmount: anything })
        ),
        (u) => {
          const p = validateMoneySplitPatch(u)
          expect(p.issues.length === 0).toBe(p.value !== undefined)
        }
      )
    )
  })

  it('every issue has a string path, a known code and a sentence', () => {
    fc.assert(
      fc.property(fc.oneof(anything, requestLikeArb), (u) => {
        for (const i of validatePaymentIntentRequest(u).issues) {
          expect(typeof i.path).toBe('string')
          expect([
            'MissingCustomerExternalID',
            'ValidationFailed',
            'GrossAmountMismatch'
          ]).toContain(i.code)
          expect(i.message).toMatch(/\.$/)
          const head = i.path.split('.')[0] ?? ''
          expect(['', ...requestKeys]).toContain(head)
        }
      })
    )
  })

  it('is deterministic', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          validWireRequestArb().map((c) => c.input),
          anything,
          requestLikeArb
        ),
        (u) => {
          expect(decodePaymentIntentRequest(u)).toStrictEqual(decodePaymentIntentRequest(u))
          expect(decodeMoneySplitPatch(u)).toStrictEqual(decodeMoneySplitPatch(u))
        }
      )
    )
  })

  it('never mutates its input (deep-frozen inputs decode the same, and stay as they were)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          validWireRequestArb().map((c) => c.input),
          plainRequestLikeArb,
          validWirePatchArb.map((c) => c.input)
        ),
        (u) => {
          const before0 = fingerprint(u)
          const before = decodePaymentIntentRequest(u)
          const beforePatch = decodeMoneySplitPatch(u)
          deepFreeze(u)
          expect(decodePaymentIntentRequest(u)).toStrictEqual(before)
          expect(decodeMoneySplitPatch(u)).toStrictEqual(beforePatch)
          expect(fingerprint(u)).toBe(before0)
        }
      )
    )
  })

  it('the decoded value shares no object with the input', () => {
    const objectsOf = (v: unknown, into = new Set<unknown>()): Set<unknown> => {
      if (typeof v === 'object' && v !== null && !into.has(v)) {
        into.add(v)
        for (const k of Reflect.ownKeys(v)) objectsOf((v as Record<PropertyKey, unknown>)[k], into)
      }
      return into
    }
    fc.assert(
      fc.property(validWireRequestArb(), ({ input }) => {
        const out = decodePaymentIntentRequest(input)
        if (E.isLeft(out)) throw new Error('expected a Right')
        const ins = objectsOf(input)
        for (const o of objectsOf(out.right)) expect(ins.has(o)).toBe(false)
      })
    )
  })
})

// -------------------------------------------------------------------------------------
// corruption: one wrong field gives the expected code at its path
// -------------------------------------------------------------------------------------

type Mutable = Record<string, unknown>
type Corrupted = readonly [input: Mutable, path: string, code: IssueCode]
interface Corruption {
  readonly name: string
  readonly apply: (r: Request, pick: number) => Corrupted
}

const copy = (r: Request): Mutable => ({ ...r })
const splitsOf = (r: Request): Mutable[] => r.moneySplitList.map((s) => ({ ...s }))

const setField = (name: string, value: unknown): Corruption => ({
  name: `${name} := ${JSON.stringify(value)?.slice(0, 20) ?? String(value)}`,
  apply: (r) => [{ ...copy(r), [name]: value }, name, 'ValidationFailed']
})

const setSplitField = (name: string, value: unknown): Corruption => ({
  name: `moneySplitList.i.${name} := ${JSON.stringify(value).slice(0, 20)}`,
  apply: (r, pick) => {
    const i = pick % r.moneySplitList.length
    const splits = splitsOf(r)
    splits[i] = { ...splits[i], [name]: value }
    return [
      { ...copy(r), moneySplitList: splits },
      `moneySplitList.${String(i)}.${name}`,
      'ValidationFailed'
    ]
  }
})

const setCustomerField = (name: string, value: unknown): Corruption => ({
  name: `customer.${name} := ${JSON.stringify(value).slice(0, 20)}`,
  apply: (r) => [
    { ...copy(r), customer: { ...r.customer, [name]: value } },
    `customer.${name}`,
    'ValidationFailed'
  ]
})

const otherUuid = (uuid: string): string =>
  uuid.toLowerCase() === '00000000-0000-0000-0000-000000000000'
    ? '11111111-1111-1111-1111-111111111111'
    : '00000000-0000-0000-0000-000000000000'

const corruptions: ReadonlyArray<Corruption> = [
  setField('externalPaymentReferenceID', ''),
  setField('externalPaymentReferenceID', 'x'.repeat(256)),
  setField('externalPaymentReferenceID', 42),
  setField('environment', 'staging'),
  setField('environment', 'Test'),
  setField('paymentGateway', 'paypal'),
  setField('chargeImmediately', 'yes'),
  {
    name: 'chargeImmediately removed from a card payment',
    apply: (r) => {
      const c = copy(r)
      delete c['chargeImmediately']
      return [{ ...c, paymentGateway: 'creditcard' }, 'chargeImmediately', 'ValidationFailed']
    }
  },
  setField('sellerConnectedAccountID', 'not-a-uuid'),
  setField('sellerConnectedAccountID', '3f0c5a1e8a4b4c7d9e2f1a2b3c4d5e6f'),
  setField('externalObjectIdTag', ''),
  setField('description', 'd'.repeat(1001)),
  setField('grossAmount', 0),
  setField('grossAmount', 1.5),
  setField('grossAmount', '100'),
  setField('grossAmount', Number.MAX_SAFE_INTEGER + 2),
  {
    name: 'grossAmount off by one',
    apply: (r) => [
      {
        ...copy(r),
        grossAmount: r.grossAmount < Number.MAX_SAFE_INTEGER ? r.grossAmount + 1 : r.grossAmount - 1
      },
      'grossAmount',
      'GrossAmountMismatch'
    ]
  },
  setField('currency', 'XAU'),
  setField('currency', 'nok'),
  setField('currency', 'EURO'),
  setField('moneySplitList', []),
  setField('moneySplitList', {}),
  setSplitField('amount', -1),
  setSplitField('amount', 0.5),
  setSplitField('connectedAccountID', 'x'),
  setSplitField('isFee', 'true'),
  setSplitField('description', 'd'.repeat(1001)),
  setSplitField('externalID', ''),
  {
    name: 'two fee splits with different accounts',
    apply: (r, pick) => {
      const splits: Mutable[] = splitsOf(r).map((s) => ({ ...s, isFee: false }))
      if (splits.length < 2) {
        splits[0] = { ...splits[0], amount: -1 }
        return [
          { ...copy(r), moneySplitList: splits },
          'moneySplitList.0.amount',
          'ValidationFailed'
        ]
      }
      const j = 1 + (pick % (splits.length - 1))
      const first = splits[0] as Mutable
      splits[0] = { ...first, isFee: true }
      splits[j] = {
        ...splits[j],
        isFee: true,
        connectedAccountID: otherUuid(first['connectedAccountID'] as string)
      }
      return [
        { ...copy(r), moneySplitList: splits },
        `moneySplitList.${String(j)}.connectedAccountID`,
        'ValidationFailed'
      ]
    }
  },
  {
    name: 'customerExternalID removed',
    apply: (r) => {
      const c = copy(r)
      delete c['customerExternalID']
      return [c, 'customerExternalID', 'MissingCustomerExternalID']
    }
  },
  {
    name: 'customerExternalID := null',
    apply: (r) => [
      { ...copy(r), customerExternalID: null },
      'customerExternalID',
      'MissingCustomerExternalID'
    ]
  },
  {
    name: "customerExternalID := ''",
    apply: (r) => [
      { ...copy(r), customerExternalID: '' },
      'customerExternalID',
      'MissingCustomerExternalID'
    ]
  },
  setField('customerExternalID', 42),
  setField('customer', 'Kari'),
  setCustomerField('email', 'kari@localhost'),
  setCustomerField('mobilePrefix', '47'),
  setCustomerField('mobile', '12'),
  setCustomerField('customerType', ''),
  setCustomerField('name', 'n'.repeat(256)),
  setField('webhookSubscriptions', 'Charged'),
  {
    name: 'a subscription with an unknown event type',
    apply: (r, pick) => {
      const subs = r.webhookSubscriptions.map((s) => ({ ...s }))
      if (subs.length === 0) subs.push({ eventType: 'Charged', url: 'https://h.example/' })
      const i = pick % subs.length
      subs[i] = { eventType: 'charged' as 'Charged', url: subs[i]?.url ?? '' }
      return [
        { ...copy(r), webhookSubscriptions: subs },
        `webhookSubscriptions.${String(i)}.eventType`,
        'ValidationFailed'
      ]
    }
  },
  {
    name: 'a subscription with a relative url',
    apply: (r, pick) => {
      const subs = r.webhookSubscriptions.map((s) => ({ ...s }))
      if (subs.length === 0) subs.push({ eventType: 'Charged', url: 'https://h.example/' })
      const i = pick % subs.length
      subs[i] = { eventType: subs[i]?.eventType ?? 'Charged', url: '/hooks' }
      return [
        { ...copy(r), webhookSubscriptions: subs },
        `webhookSubscriptions.${String(i)}.url`,
        'ValidationFailed'
      ]
    }
  },
  {
    name: '21 subscriptions',
    apply: (r) => [
      {
        ...copy(r),
        webhookSubscriptions: Array.from({ length: 21 }, () => ({
          eventType: 'Charged',
          url: 'https://h.example/'
        }))
      },
      'webhookSubscriptions',
      'ValidationFailed'
    ]
  },
  setField('successUrl', 'not a url'),
  setField('successUrl', 'https://shop.example.com/\u00a0'),
  setField('failedUrl', 'ftp://example.com/'),
  setField('failedUrl', 'https://shop.example.com/' + 'p'.repeat(2048)),
  setField('metaData', 'x'),
  setField('metaData', []),
  {
    name: 'a nested metaData value',
    apply: (r, pick) => {
      const entries = Object.entries(r.metaData)
      const i = entries.length === 0 ? -1 : pick % entries.length
      const key = i === -1 ? 'nested' : (entries[i]?.[0] ?? 'nested')
      const meta = Object.fromEntries(
        i === -1 ? [[key, { a: 1 }]] : entries.map(([k, v]) => [k, k === key ? { a: 1 } : v])
      )
      return [{ ...copy(r), metaData: meta }, `metaData.${key}`, 'ValidationFailed']
    }
  },
  {
    name: 'a metaData key of 41 characters',
    apply: (r) => {
      const key = 'k'.repeat(41)
      const entries = Object.entries(r.metaData).slice(0, 49)
      return [
        { ...copy(r), metaData: Object.fromEntries([...entries, [key, 1]]) },
        `metaData.${key}`,
        'ValidationFailed'
      ]
    }
  },
  {
    name: 'a request that is not an object',
    apply: (r) => [[r] as unknown as Mutable, '', 'ValidationFailed']
  }
]

describe('a valid request with one field corrupted fails with the expected code and one issue at that path', () => {
  it('every corruption', () => {
    fc.assert(
      fc.property(
        validRequestArb(),
        fc.nat(),
        fc.constantFrom(...corruptions),
        (r, pick, corruption) => {
          const [input, path, code] = corruption.apply(r, pick)
          const { issues, value } = validatePaymentIntentRequest(input)
          expect(value).toBeUndefined()
          expect(issues, corruption.name).toEqual([expect.objectContaining({ path, code })])
          expect(issues[0]?.message).toBe(formatIssue(issues[0] as Issue, en))
          const d = decodePaymentIntentRequest(input)
          expect(E.isLeft(d) && d.left.code).toBe(code)
        }
      )
    )
  })

  it('every corruption, each at least once', () => {
    for (const corruption of corruptions) {
      fc.assert(
        fc.property(validRequestArb({ customer: true }), fc.nat(), (r, pick) => {
          const [input, path, code] = corruption.apply(r, pick)
          expect(validatePaymentIntentRequest(input).issues, corruption.name).toEqual([
            expect.objectContaining({ path, code, reason: expect.any(String), message: expect.any(String) })
          ])
        }),
        { numRuns: runs(1 / 20) }
      )
    }
  })
})

// -------------------------------------------------------------------------------------
// patches
// -------------------------------------------------------------------------------------

describe('money-split patches', () => {
  it('every generated patch shape decodes to a deep-equal value', () => {
    fc.assert(
      fc.property(validPatchShapeArb, (p) => {
        expect(decodeMoneySplitPatch(p)).toStrictEqual(E.right(p))
        expect(MoneySplitPatch.is(p)).toBe(true)
      })
    )
  })

  it('a patch as a caller sends it decodes to exactly the PatchEntry shapes', () => {
    fc.assert(
      fc.property(validWirePatchArb, ({ input, expected }) => {
        expect(decodeMoneySplitPatch(input)).toStrictEqual(E.right(expected))
      })
    )
  })

  it('one entry corrupted gives one issue at its path', () => {
    const fields: ReadonlyArray<readonly [string, unknown]> = [
      ['splitID', 0],
      ['splitID', 1.5],
      ['updateType', 'Update'],
      ['newAmount', -1],
      ['doDelete', 'yes']
    ]
    fc.assert(
      fc.property(
        validPatchShapeArb,
        fc.nat(),
        fc.constantFrom(...fields),
        (p, pick, [field, wrong]) => {
          const entries: Mutable[] = p.moneySplitPatch.map((e) => ({ ...e }))
          if (entries.length === 0) entries.push({ splitID: 1, updateType: 'DoNothing' })
          const i = pick % entries.length
          const entry = entries[i] as Mutable
          if (field === 'newAmount') entry['updateType'] = 'UpdateAmount'
          if (field === 'doDelete') entry['updateType'] = 'DoDeleteSplitEntry'
          entries[i] = { ...entry, [field]: wrong }
          const { issues } = validateMoneySplitPatch({ ...p, moneySplitPatch: entries })
          expect(issues).toEqual([
            expect.objectContaining({
              path: `moneySplitPatch.${String(i)}.${field}`,
              code: 'ValidationFailed',
              reason: expect.any(String)
            })
          ])
        }
      )
    )
  })
})
