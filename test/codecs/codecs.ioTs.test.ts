/**
 * The codecs of `paysplit/codecs` are io-ts codecs: they go into io-ts's own combinators, reporters
 * and type helpers as io-ts's codecs do (docs/decisions.md, "io-ts codecs without io-ts code").
 * Every check here runs real io-ts (its CommonJS build, as Node loads it).
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { PathReporter } from 'io-ts/lib/PathReporter.js'
import {
  Customer,
  MoneySplitPatch,
  MoneySplitRequest,
  PaymentIntentRequest,
  WebhookSubscription,
  type PaymentIntentRequest as PaymentIntentRequestType
} from '../../src/codecs.js'
import { invoiceRequest, SELLER } from '../support/http.fixtures.js'

const request = (): Record<string, unknown> => invoiceRequest()

describe('C1 the codecs are io-ts codecs', () => {
  it('have the members of io-ts Type, and decode detached from their codec', () => {
    for (const codec of [PaymentIntentRequest, MoneySplitPatch, MoneySplitRequest, Customer, WebhookSubscription]) {
      expect(typeof codec.name).toBe('string')
      for (const m of ['is', 'validate', 'encode', 'decode', 'pipe', 'asDecoder', 'asEncoder'] as const) {
        expect(typeof codec[m], `${codec.name}.${m}`).toBe('function')
      }
      expect(codec.asDecoder()).toBe(codec)
      expect(codec.asEncoder()).toBe(codec)
    }
    // io-ts binds decode to its codec in the constructor, so it may be taken off it
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { decode } = PaymentIntentRequest
    expect(E.isRight(decode(request()))).toBe(true)
    expect(E.isLeft(decode({}))).toBe(true)
  })

  it('compose with t.type, t.array, t.exact and t.union, which find the nested issues', () => {
    const Order = t.exact(t.type({ orderId: t.string, payment: PaymentIntentRequest, extraSplits: t.array(MoneySplitRequest) }))
    const ok = Order.decode({ orderId: 'o-1', payment: request(), extraSplits: [], dropped: true })
    expect(E.isRight(ok)).toBe(true)
    if (E.isRight(ok)) {
      expect(Object.keys(ok.right).sort()).toEqual(['extraSplits', 'orderId', 'payment'])
      expectTypeOf(ok.right.payment).toEqualTypeOf<PaymentIntentRequestType>()
    }
    const bad = Order.decode({ orderId: 'o-1', payment: { ...request(), grossAmount: -1 }, extraSplits: [{ amount: 1 }] })
    expect(E.isLeft(bad)).toBe(true)
    if (E.isRight(bad)) throw new Error('expected a Left')
    const paths = bad.left.map((e) => e.context.map((c) => c.key).filter((k) => k !== '').join('.'))
    expect(paths).toContain('payment.grossAmount')
    expect(paths).toContain('extraSplits.0.connectedAccountID')
    expect(PathReporter.report(bad)).toContain('Must be at least 1.')
    expect(E.isRight(t.union([t.null, Customer]).decode(null))).toBe(true)
    expect(E.isLeft(t.union([t.null, Customer]).decode({ email: 'not an e-mail' }))).toBe(true)
  })

  it('pipe into an io-ts codec, which sees the decoded value', () => {
    const seller = new t.Type<string, PaymentIntentRequestType, PaymentIntentRequestType>(
      'Seller',
      (u): u is string => typeof u === 'string',
      (r, c) => (r.grossAmount > 100 ? t.success(r.sellerConnectedAccountID) : t.failure(r, c, 'too little')),
      () => {
        throw new Error('not encoded in this test')
      }
    )
    const piped = PaymentIntentRequest.pipe(seller)
    expect(piped.name).toBe('pipe(PaymentIntentRequest, Seller)')
    expect(piped.decode(request())).toEqual(E.right(SELLER))
    // a new codec binds its decode too, as io-ts's constructor does
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { decode: decodePiped } = piped
    expect(decodePiped(request())).toEqual(E.right(SELLER))
    expect(E.isLeft(piped.decode({ ...request(), grossAmount: 50, moneySplitList: [{ connectedAccountID: SELLER, amount: 50, isFee: false }] }))).toBe(true)
    expect(E.isLeft(piped.decode({}))).toBe(true)
    expectTypeOf<t.TypeOf<typeof PaymentIntentRequest>>().toEqualTypeOf<PaymentIntentRequestType>()
  })

  it('is and encode agree with decode', () => {
    const decoded = PaymentIntentRequest.decode(request())
    if (E.isLeft(decoded)) throw new Error('expected a Right')
    expect(PaymentIntentRequest.is(decoded.right)).toBe(true)
    expect(PaymentIntentRequest.is({})).toBe(false)
    expect(PaymentIntentRequest.encode(decoded.right)).toEqual(decoded.right)
  })
})
