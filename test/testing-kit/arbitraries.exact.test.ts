/**
 * Kills the survivors of the mutation run of `src/testing/arbitraries.ts` (docs/testing.md,
 * "Mutation testing") with deterministic checks: every sample set has its own seed and run count
 * (the mutation config runs the other properties at a tenth of their runs), the options are
 * honoured exactly and the ends of every documented range appear, the labelled invalid requests
 * break their rule with exactly the documented value, `patchOf` is pinned on hand-made payments,
 * and the commands of `commandArb` and `scenarioArb` are checked by kind, clock and options.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { decodePaymentIntentRequest } from '../../src/codecs.js'
import type { Command } from '../../src/commands.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import type { PaymentIntentRequest } from '../../src/codecs/requests.js'
import {
  commandArb,
  invalidPaymentIntentRequestArb,
  paymentIntentRequestArb,
  scenarioArb,
  type RequestOptions
} from '../../src/testing.js'
import { patchOf, type InvalidRequest, type Op } from '../../src/testing/arbitraries.js'
import { cancel, cardRequest, charge, complete, create, createInvoice, invoiceRequest, paymentAfter, transfer } from '../support/builders.js'

const SEED = 42
const requests = (options: RequestOptions = {}, numRuns = 1000): ReadonlyArray<PaymentIntentRequest> =>
  fc.sample(paymentIntentRequestArb(options), { numRuns, seed: SEED })
const amountsOf = (r: PaymentIntentRequest): ReadonlyArray<number> => r.moneySplitList.map((s) => s.amount)
const sum = (xs: ReadonlyArray<number>): number => xs.reduce((a, b) => a + b, 0)

describe('paymentIntentRequestArb: the defaults', () => {
  // sampled in each test (not once when the file is collected): Stryker counts code run outside a
  // test as static and would then not run these tests against the mutants it covers
  let rs: ReadonlyArray<PaymentIntentRequest> = []
  beforeEach(() => {
    rs = requests({}, 2000)
  })

  it('1 to 5 splits, both ends included; amounts 0 to 100000, both ends included; grossAmount the sum, at least 1', () => {
    const counts = rs.map((r) => r.moneySplitList.length)
    expect(Math.min(...counts)).toBe(1)
    expect(Math.max(...counts)).toBe(5)
    const amounts = rs.flatMap(amountsOf)
    expect(Math.min(...amounts)).toBe(0)
    expect(Math.max(...amounts)).toBe(100_000)
    for (const r of rs) {
      expect(r.grossAmount).toBe(sum(amountsOf(r)))
      expect(r.grossAmount).toBeGreaterThanOrEqual(1)
    }
  })

  it('the first split may be 0 when another has money; it is not always the same amount', () => {
    expect(rs.some((r) => r.moneySplitList.length > 1 && r.moneySplitList[0]?.amount === 0)).toBe(true)
    expect(new Set(rs.map((r) => r.moneySplitList[0]?.amount)).size).toBeGreaterThan(100)
  })

  it('both gateways; cards always carry chargeImmediately, invoices sometimes', () => {
    const cards = rs.filter((r) => r.paymentGateway === 'creditcard')
    const invoices = rs.filter((r) => r.paymentGateway === 'invoice')
    expect(cards.length).toBeGreaterThan(0)
    expect(invoices.length).toBeGreaterThan(0)
    for (const r of cards) expect(typeof r.chargeImmediately).toBe('boolean')
    expect(invoices.some((r) => 'chargeImmediately' in r)).toBe(true)
    expect(invoices.some((r) => !('chargeImmediately' in r))).toBe(true)
  })

  it('a customer sometimes; metaData sometimes with keys; 0 to 3 subscriptions, both ends included', () => {
    expect(rs.some((r) => r.customer !== undefined)).toBe(true)
    expect(rs.some((r) => !('customer' in r))).toBe(true)
    expect(rs.some((r) => Object.keys(r.metaData ?? {}).length > 0)).toBe(true)
    const subs = rs.map((r) => r.webhookSubscriptions?.length ?? 0)
    expect(Math.min(...subs)).toBe(0)
    expect(Math.max(...subs)).toBe(3)
  })

  it('subscriptions are plain objects (Object.prototype)', () => {
    const all = rs.flatMap((r) => r.webhookSubscriptions ?? [])
    expect(all.length).toBeGreaterThan(0)
    for (const s of all) expect(Object.getPrototypeOf(s)).toBe(Object.prototype)
  })

  it('metaData keys are own, enumerable, writable, configurable data properties with a value ("__proto__" included)', () => {
    const keyed = rs.map((r) => r.metaData ?? {}).filter((m) => Object.keys(m).length > 0)
    expect(keyed.length).toBeGreaterThan(0)
    expect(keyed.some((m) => Object.keys(m).includes('__proto__'))).toBe(true)
    for (const m of keyed) {
      for (const k of Object.keys(m)) {
        const d = Object.getOwnPropertyDescriptor(m, k)
        expect(d).toMatchObject({ writable: true, enumerable: true, configurable: true })
        expect(d?.value).not.toBe(undefined)
      }
    }
  })

  it('descriptions: short strings, or exactly the longest allowed (1000 d)', () => {
    const ds = rs.flatMap((r) => [r.description, ...r.moneySplitList.map((s) => s.description)]).filter((d): d is string => d !== undefined)
    for (const d of ds) expect(d.length <= 30 || d === 'd'.repeat(1000)).toBe(true)
    expect(ds.some((d) => d === 'd'.repeat(1000))).toBe(true)
    expect(ds.some((d) => d.length > 0 && d.length <= 30)).toBe(true)
  })

  it('descriptions stay at most 30 characters (or the 1000 d) even with fast-check configured for the largest sizes', () => {
    const before = fc.readConfigureGlobal()
    fc.configureGlobal({ ...before, baseSize: 'xlarge' })
    try {
      const big = requests({ splits: { min: 5, max: 5 } }, 300)
      const ds = big.flatMap((r) => [r.description, ...r.moneySplitList.map((s) => s.description)]).filter((d): d is string => d !== undefined)
      for (const d of ds) expect(d.length <= 30 || d === 'd'.repeat(1000)).toBe(true)
      expect(ds.some((d) => d.length > 10 && d.length <= 30)).toBe(true)
    } finally {
      fc.configureGlobal(before)
    }
  })
})

describe('paymentIntentRequestArb: the options, exactly', () => {
  it('splits { min: 3 }: 3 to 5 splits, both ends; { min: 8 }: exactly 8 (the default max is max(min, 5))', () => {
    const counts = requests({ splits: { min: 3 } }, 500).map((r) => r.moneySplitList.length)
    expect(Math.min(...counts)).toBe(3)
    expect(Math.max(...counts)).toBe(5)
    expect(new Set(requests({ splits: { min: 8 } }, 200).map((r) => r.moneySplitList.length))).toEqual(new Set([8]))
  })

  it('amounts { max: 1 }: a single split always has 1 (0 is raised to 1); three splits never all 0', () => {
    for (const r of requests({ amounts: { max: 1 }, splits: { min: 1, max: 1 } }, 200)) expect(amountsOf(r)).toEqual([1])
    const rs = requests({ amounts: { max: 1 }, splits: { min: 3, max: 3 } }, 300)
    for (const r of rs) {
      expect(r.grossAmount).toBeGreaterThanOrEqual(1)
      for (const a of amountsOf(r)) expect([0, 1]).toContain(a)
    }
    expect(rs.some((r) => r.moneySplitList[0]?.amount === 0)).toBe(true)
  })

  it('amounts are capped so that the sum of the most splits stays a safe integer', () => {
    const cap = Math.floor(Number.MAX_SAFE_INTEGER / 5)
    for (const r of requests({ amounts: { min: Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }, splits: { min: 5, max: 5 } }, 100)) {
      expect(amountsOf(r)).toEqual([cap, cap, cap, cap, cap])
      expect(Number.isSafeInteger(r.grossAmount)).toBe(true)
    }
  })

  it('kinds: unknown kinds are dropped; [invoice] gives invoices only', () => {
    expect(new Set(requests({ kinds: ['card', 'paypal' as never] }, 300).map((r) => r.paymentGateway))).toEqual(new Set(['creditcard']))
    expect(new Set(requests({ kinds: ['invoice'] }, 300).map((r) => r.paymentGateway))).toEqual(new Set(['invoice']))
  })

  it('webhookUrls: the subscriptions use those urls only (up to 3 of them by default); [] gives none', () => {
    const rs = requests({ webhookUrls: ['https://hooks.example/x'] }, 500)
    const subs = rs.map((r) => r.webhookSubscriptions ?? [])
    expect(Math.max(...subs.map((s) => s.length))).toBe(3)
    for (const s of subs.flat()) expect(s.url).toBe('https://hooks.example/x')
    for (const r of requests({ webhookUrls: [] }, 300)) expect(r.webhookSubscriptions ?? []).toEqual([])
  })

  it('customer: true always, false never; metaData: false always {}', () => {
    for (const r of requests({ customer: true }, 200)) expect(r.customer).toBeDefined()
    for (const r of requests({ customer: false }, 200)) expect('customer' in r).toBe(false)
    for (const r of requests({ metaData: false }, 200)) expect(r.metaData).toEqual({})
  })
})

describe('invalidPaymentIntentRequestArb: each rule broken with its documented value', () => {
  // sampled in each test, as above
  let samples: ReadonlyArray<InvalidRequest> = []
  beforeEach(() => {
    samples = fc.sample(invalidPaymentIntentRequestArb({ splits: { min: 2, max: 3 } }), { numRuns: 3000, seed: SEED })
  })
  type Body = Record<string, unknown>
  const at = (input: unknown, path: string): unknown =>
    path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Body)[k] : undefined), input)
  const splitsOf = (input: unknown): ReadonlyArray<Body> => at(input, 'moneySplitList') as ReadonlyArray<Body>

  /** The value at `path` each rule leaves (a function: checked against the input). */
  const broken: Record<string, (input: unknown) => void> = {
    'customerExternalID must be present': (i) => { expect('customerExternalID' in (i as Body)).toBe(false) },
    'customerExternalID must not be null': (i) => { expect(at(i, 'customerExternalID')).toBe(null) },
    'customerExternalID must not be empty': (i) => { expect(at(i, 'customerExternalID')).toBe('') },
    'customerExternalID is a string': (i) => { expect(at(i, 'customerExternalID')).toBe(42) },
    'grossAmount equals the sum of the splits': (i) => { expect(at(i, 'grossAmount')).toBe(sum(splitsOf(i).map((s) => s['amount'] as number)) + 1) },
    'grossAmount is a safe integer': (i) => { expect(at(i, 'grossAmount')).toBe(sum(splitsOf(i).map((s) => s['amount'] as number)) + 0.5) },
    'a split amount is ≥ 0': (i) => { expect(at(i, 'moneySplitList.0.amount')).toBe(-1) },
    'a split amount is an integer': (i) => { expect(at(i, 'moneySplitList.0.amount')).toBe(0.25) },
    'a split connectedAccountID is a UUID': (i) => { expect(at(i, 'moneySplitList.0.connectedAccountID')).toBe('acct-1') },
    'a split isFee is a boolean': (i) => { expect(at(i, 'moneySplitList.0.isFee')).toBe('yes') },
    'moneySplitList has at least one entry': (i) => { expect(at(i, 'moneySplitList')).toEqual([]) },
    'currency is upper case': (i) => { expect(at(i, 'currency')).toBe('nok') },
    'currency is an active ISO 4217 code': (i) => { expect(at(i, 'currency')).toBe('XYZ') },
    'environment is test or production': (i) => { expect(at(i, 'environment')).toBe('staging') },
    'paymentGateway is creditcard or invoice': (i) => { expect(at(i, 'paymentGateway')).toBe('paypal') },
    'sellerConnectedAccountID is a UUID': (i) => { expect(at(i, 'sellerConnectedAccountID')).toBe('seller-1') },
    'a card payment needs chargeImmediately': (i) => { expect('chargeImmediately' in (i as Body)).toBe(false) },
    'successUrl is an absolute http(s) URL': (i) => { expect(at(i, 'successUrl')).toBe('ftp://shop.example/ok') },
    'failedUrl has no white space': (i) => { expect(at(i, 'failedUrl')).toBe('https://shop.example/fa iled') },
    'externalPaymentReferenceID is not empty': (i) => { expect(at(i, 'externalPaymentReferenceID')).toBe('') },
    'strings are at most 255 characters': (i) => { expect(at(i, 'externalObjectIdTag')).toBe('t'.repeat(256)) },
    'a description is at most 1000 characters': (i) => { expect(at(i, 'description')).toBe('d'.repeat(1001)) },
    'a customer email has one @': (i) => { expect(at(i, 'customer')).toEqual({ email: 'kari.example.no' }) },
    'a customer mobilePrefix is + and 1–4 digits': (i) => { expect(at(i, 'customer')).toEqual({ mobilePrefix: '47' }) },
    'a webhook eventType is known': (i) => { expect(at(i, 'webhookSubscriptions')).toEqual([{ eventType: 'Paid', url: 'https://hooks.example/a' }]) },
    'metaData is flat': (i) => { expect(at(i, 'metaData')).toEqual({ nested: { a: 1 } }) },
    'a string holds no lone surrogate (the text format)': (i) => { expect(at(i, 'description')).toBe('Konsert \ud800') },
    'a metaData key holds no lone surrogate (written as U+FFFD in the path)': (i) => { expect(at(i, 'metaData')).toEqual({ 'k\ud800': 1 }) },
    'grossAmount is within the safe range': (i) => { expect(at(i, 'grossAmount')).toBe(1e20) },
    'the request is an object': (i) => { expect(i).toBe(null) }
  }

  it('every rule appears, and its input holds the documented value', () => {
    const rules = new Set(samples.map((s) => s.rule))
    for (const rule of Object.keys(broken)) expect(rules).toContain(rule)
    expect(rules.size).toBe(Object.keys(broken).length + 9)
    for (const { rule, path, input } of samples) {
      const check = broken[rule]
      if (check !== undefined) check(input)
      else {
        expect(rule).toBe(`${path} is required`)
        expect(path in (input as Body)).toBe(false)
      }
    }
  })

  it('decoding gives the code, with an issue at the path; one issue when one rule is broken', () => {
    const noSum = new Set(['moneySplitList has at least one entry', 'grossAmount is required', 'moneySplitList is required'])
    for (const { rule, code, path, input } of samples) {
      const r = decodePaymentIntentRequest(input)
      expect(E.isLeft(r) && r.left.code, rule).toBe(code)
      if (E.isLeft(r) && r.left.issues !== undefined) {
        expect(r.left.issues.map((i) => i.path), rule).toContain(path)
        if (!noSum.has(rule)) expect(r.left.issues.length, rule).toBe(1)
      }
    }
  })

  it('a split rule changes the first split only, and keeps its other fields', () => {
    const splitRules = samples.filter((s) => s.path.startsWith('moneySplitList.0.'))
    expect(splitRules.length).toBeGreaterThan(0)
    for (const { input } of splitRules) {
      const [first, ...rest] = splitsOf(input)
      expect(Object.keys(first ?? {})).toEqual(expect.arrayContaining(['connectedAccountID', 'amount', 'isFee']))
      expect(rest.length).toBeGreaterThan(0)
      for (const s of rest) {
        expect(Number.isSafeInteger(s['amount']) && (s['amount'] as number) >= 0).toBe(true)
        expect(typeof s['isFee']).toBe('boolean')
        expect(s['connectedAccountID']).toMatch(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/)
      }
    }
  })
})

describe('patchOf: the patch of the ops, on hand-made payments', () => {
  const paymentWith = (amounts: ReadonlyArray<number>): Payment =>
    paymentAfter(
      create(
        cardRequest({
          grossAmount: sum(amounts),
          moneySplitList: amounts.map((amount, i) => ({ connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount, isFee: false, description: `s${i}` }))
        })
      )
    )
  const keep: Op = { t: 'keep' }
  const del: Op = { t: 'delete' }
  const noDelete: Op = { t: 'noDelete' }
  const lower = (permille: number): Op => ({ t: 'lower', permille })

  it('lower takes the permille (rounded down); keep is DoNothing; no change forced when something changed', () => {
    expect(patchOf(paymentWith([1000, 5]), [lower(500), keep], false)).toEqual({
      moneySplitPatch: [
        { splitID: 1, updateType: 'UpdateAmount', newAmount: 500 },
        { splitID: 2, updateType: 'DoNothing' }
      ],
      newGrossAmount: 505
    })
  })

  it('ops are cycled over the splits', () => {
    expect(patchOf(paymentWith([10, 20, 30]), [del, keep], false)).toEqual({
      moneySplitPatch: [
        { splitID: 1, updateType: 'DoDeleteSplitEntry', doDelete: true },
        { splitID: 2, updateType: 'DoNothing' },
        { splitID: 3, updateType: 'DoDeleteSplitEntry', doDelete: true }
      ],
      newGrossAmount: 20
    })
  })

  it('no change: the first split with money is lowered by one (a lowering to the same amount is no change)', () => {
    const expected = {
      moneySplitPatch: [
        { splitID: 1, updateType: 'UpdateAmount', newAmount: 0 },
        { splitID: 2, updateType: 'UpdateAmount', newAmount: 4 }
      ],
      newGrossAmount: 4
    }
    expect(patchOf(paymentWith([0, 5]), [lower(500), keep], false)).toEqual(expected)
    expect(patchOf(paymentWith([0, 5]), [keep], false)).toEqual({
      moneySplitPatch: [
        { splitID: 1, updateType: 'DoNothing' },
        { splitID: 2, updateType: 'UpdateAmount', newAmount: 4 }
      ],
      newGrossAmount: 4
    })
    expect(patchOf(paymentWith([5, 0]), [], false)).toEqual({
      moneySplitPatch: [
        { splitID: 1, updateType: 'UpdateAmount', newAmount: 4 },
        { splitID: 2, updateType: 'DoNothing' }
      ],
      newGrossAmount: 4
    })
  })

  it('noDelete is a DoDeleteSplitEntry with doDelete false, and no change; reversed reverses the entries', () => {
    expect(patchOf(paymentWith([10, 20]), [noDelete], true)).toEqual({
      moneySplitPatch: [
        { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: false },
        { splitID: 1, updateType: 'UpdateAmount', newAmount: 9 }
      ],
      newGrossAmount: 29
    })
  })

  it('no split with money and no change: the first split is deleted; no split at all: undefined', () => {
    const p = paymentWith([1])
    const zero: Payment = { ...p, moneySplits: p.moneySplits.map((s) => ({ ...s, amount: 0 })), grossAmount: 0 }
    expect(patchOf(zero, [keep], false)).toEqual({ moneySplitPatch: [{ splitID: 1, updateType: 'DoDeleteSplitEntry', doDelete: true }], newGrossAmount: 0 })
    expect(patchOf({ ...p, moneySplits: [] }, [keep], false)).toBe(undefined)
  })
})

describe('commandArb: the commands of each state', () => {
  const commandsIn = (state: PaymentState, numRuns = 500): ReadonlyArray<Command> => {
    const arb = commandArb(state)
    if (O.isNone(arb)) throw new Error('no commands')
    return fc.sample(arb.value, { numRuns, seed: SEED })
  }
  const typesOf = (cs: ReadonlyArray<Command>): Set<string> => new Set(cs.map((c) => c.type))
  const oneSecondAfter = (p: Payment): string => new Date(Date.parse(p.updatedAt) + 1000).toISOString()

  it('an Initiated card: complete, fail (with and without a reason), cancel; one second after updatedAt', () => {
    const p = paymentAfter(create())
    const cs = commandsIn(p)
    expect(typesOf(cs)).toEqual(new Set(['CompletePaymentForm', 'FailPaymentForm', 'CancelPayment']))
    for (const c of cs) expect(c.at).toBe(oneSecondAfter(p))
    const fails = cs.filter((c) => c.type === 'FailPaymentForm')
    expect(fails.some((c) => !('reason' in c))).toBe(true)
    expect(fails.some((c) => 'reason' in c && typeof c.reason === 'string')).toBe(true)
  })

  it('a Reserved card: charge and cancel', () => {
    expect(typesOf(commandsIn(paymentAfter(create(), complete())))).toEqual(new Set(['ChargePayment', 'CancelPayment']))
  })

  it('a Charged card: refund and partial refunds', () => {
    expect(typesOf(commandsIn(paymentAfter(create(), complete(), charge())))).toEqual(new Set(['RefundPayment', 'RefundPartially']))
  })

  it('a partly paid invoice: transfers of 1 to 1500 ‰ of what is left (both ends), and adjustments', () => {
    const p = paymentAfter(createInvoice(invoiceRequest()), transfer(4000))
    const cs = commandsIn(p, 1500)
    expect(typesOf(cs)).toEqual(new Set(['ReceiveInvoiceTransfer', 'AdjustInvoice']))
    const amounts = cs.flatMap((c) => (c.type === 'ReceiveInvoiceTransfer' ? [c.amount] : []))
    expect(Math.min(...amounts)).toBe(6)
    expect(Math.max(...amounts)).toBe(9000)
  })

  it('none in a terminal state, and none for a state it cannot read', () => {
    expect(O.isNone(commandArb(paymentAfter(create(), cancel())))).toBe(true)
    expect(O.isNone(commandArb({ status: 'Initiated', kind: 'card' } as never))).toBe(true)
    expect(O.isNone(commandArb('Initiated' as never))).toBe(true)
  })
})

describe('scenarioArb: lives', () => {
  it('at most maxCommands after the create (the most reached), one second apart from start', () => {
    const lives = fc.sample(scenarioArb({ maxCommands: 2, start: '2026-01-01T00:00:00.000Z' }), { numRuns: 300, seed: SEED })
    expect(Math.max(...lives.map((l) => l.commands.length))).toBe(3)
    for (const l of lives) {
      expect(l.commands.length).toBeLessThanOrEqual(3)
      l.commands.forEach((c, k) => { expect(c.at).toBe(new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString()) })
    }
    for (const l of fc.sample(scenarioArb({ maxCommands: 0 }), { numRuns: 50, seed: SEED })) expect(l.commands.length).toBe(1)
  })

  it('a KID in the create of invoices only', () => {
    const lives = fc.sample(scenarioArb({ maxCommands: 0 }), { numRuns: 300, seed: SEED })
    expect(new Set(lives.map((l) => l.kind))).toEqual(new Set(['card', 'invoice']))
    for (const l of lives) expect('kid' in (l.commands[0] ?? {})).toBe(l.kind === 'invoice')
  })
})
