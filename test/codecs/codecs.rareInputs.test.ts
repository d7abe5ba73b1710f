/**
 * Branches of src/codecs.ts that the other tests left uncovered (measured with
 * `npm run test:coverage`), each test named after the behaviour it pins. The branches of this
 * module that no input can reach are marked `v8 ignore` in src/ and listed in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { Customer, decodePaymentIntentRequest, MoneySplitPatch, MoneySplitRequest, PaymentIntentRequest, WebhookSubscription } from '../../src/codecs.js'
import { cardRequest } from '../support/builders.js'

describe('codecs: the remaining branches', () => {
  it('Customer.decode of a non-object says it must be of type object, at the root', () => {
    const r = Customer.decode(5)
    expect(E.isLeft(r)).toBe(true)
    if (E.isLeft(r)) {
      expect(r.left).toHaveLength(1)
      expect(r.left[0]?.context.at(-1)?.key).toBe('')
      expect(r.left[0]?.message).toBe('Must be of type object.')
    }
  })

  it('MoneySplitRequest.is and Customer.is hold exactly for the values their decode accepts', () => {
    const split = cardRequest().moneySplitList[0]
    expect(MoneySplitRequest.is(split)).toBe(true)
    expect(MoneySplitRequest.is({ ...split, amount: -1 })).toBe(false)
    expect(Customer.is({ name: 'Kari Nordmann', mobilePrefix: '+47', mobile: '91234567' })).toBe(true)
    expect(Customer.is({ email: 'kari@localhost' })).toBe(false)
    expect(Customer.is(5)).toBe(false)
  })

  it('encode of a value the codec rejects gives that value back unchanged (no copy to build)', () => {
    const notAPatch = { moneySplitPatch: 'all' } as never
    expect(MoneySplitPatch.encode(notAPatch)).toBe(notAPatch)
    const notASubscription = { eventType: 'Nope', url: 'x' } as never
    expect(WebhookSubscription.encode(notASubscription)).toBe(notASubscription)
  })

  it('PaymentIntentRequest.is is false for a valid request without webhookSubscriptions (not the decoded form)', () => {
    const request = { ...cardRequest(), metaData: {} }
    expect(E.isRight(PaymentIntentRequest.decode(request))).toBe(true)
    expect(PaymentIntentRequest.is(request)).toBe(false)
    expect(PaymentIntentRequest.is({ ...request, webhookSubscriptions: [] })).toBe(true)
  })

  it('PaymentIntentRequest.is reads each subscription again, and does not throw when a getter turns one into a non-object', () => {
    let reads = 0
    const subscriptions: unknown[] = []
    Object.defineProperty(subscriptions, 0, {
      enumerable: true,
      get: () => (++reads === 1 ? { eventType: 'Charged', url: 'https://shop.example/hooks' } : 5)
    })
    const request = { ...cardRequest(), webhookSubscriptions: subscriptions, metaData: {} }
    const answer = PaymentIntentRequest.is(request)
    expect(typeof answer).toBe('boolean')
    expect(reads).toBe(2) // once by the validation, once by the check of the short event types
  })

  it('decodePaymentIntentRequest reports a hole in webhookSubscriptions at its index', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holed = [{ eventType: 'Charged', url: 'https://shop.example/hooks' }, , { eventType: 'Refunded', url: 'https://shop.example/hooks' }]
    const r = decodePaymentIntentRequest({ ...cardRequest(), webhookSubscriptions: holed })
    expect(E.isLeft(r) && r.left.issues?.map((i) => [i.path, i.reason, i.message])).toEqual([
      ['webhookSubscriptions.1', 'required', 'Required.']
    ])
  })
})
