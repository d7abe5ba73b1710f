/**
 * Branches of the domain modules that the other tests left uncovered (measured with
 * `npm run test:coverage`), each named after what it guards. The branches still uncovered are
 * listed in docs/testing.md with the reason (unreachable exhaustiveness checks and defensive
 * reads).
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { MoneySplitPatch, MoneySplitRequest, PaymentIntentRequest } from '../../src/codecs.js'
import { transition } from '../../src/decider.js'
import { evolve } from '../../src/evolve.js'
import { issue, validationError } from '../../src/errors.js'
import type { PaymentEvent } from '../../src/events.js'
import { emptyWorld, handle, receiveTransfer } from '../../src/http.js'
import { applyPatch } from '../../src/patches.js'
import { setAmountsPatch } from '../../src/patchBuilders.js'
import { initialState, isTerminal, type Payment } from '../../src/payment.js'
import { webhookEventTypeOf } from '../../src/service/webhooks.js'
import { adjust, at, cardRequest, create, createInvoice, PAYMENT_ID, paymentAfter, transfer } from '../support/builders.js'
import { cardPayment, makeSplits, ids } from '../support/fixtures.js'

const codeOf = (r: E.Either<{ code: string }, unknown>): string => (E.isLeft(r) ? r.left.code : 'accepted')

describe('decider: the remaining branches', () => {
  it('AdjustInvoice with a patch of the wrong shape is ValidationFailed', () => {
    expect(codeOf(transition(paymentAfter(createInvoice()), adjust({ moneySplitPatch: 'all' } as never)))).toBe('ValidationFailed')
  })

  it('a transfer that would take the paid total past the largest safe integer is ValidationFailed', () => {
    const partly = paymentAfter(createInvoice(), transfer(1))
    const r = transition(partly, transfer(Number.MAX_SAFE_INTEGER, undefined, 2))
    expect(codeOf(r)).toBe('ValidationFailed')
    expect(E.isLeft(r) && r.left.issues?.[0]?.path).toBe('amount')
  })

  it('a KidMismatch message quotes no KID, however long', () => {
    const r = transition(paymentAfter(createInvoice()), transfer(100, '1'.repeat(60)))
    expect(codeOf(r)).toBe('KidMismatch')
    expect(E.isLeft(r) && r.left.message).not.toContain('11')
  })

  it('evolve ignores events before a PaymentCreated, and a second PaymentCreated', () => {
    const cancelled: PaymentEvent = { type: 'PaymentCancelled', at: at(1), paymentReferenceID: PAYMENT_ID }
    expect(evolve(initialState, cancelled)).toBe(initialState)
    const p = paymentAfter(create())
    const again = transition(initialState, create())
    const createdEvent = E.isRight(again) ? again.right[1][0] : undefined
    expect(createdEvent?.type).toBe('PaymentCreated')
    if (createdEvent !== undefined) expect(evolve(p, createdEvent)).toBe(p)
  })

  it('evolve skips holes in a hand-made PaymentCreated split list', () => {
    const request = cardRequest()
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [, ...request.moneySplitList]
    const p = evolve(initialState, { type: 'PaymentCreated', at: at(0), paymentReferenceID: PAYMENT_ID, request: { ...request, moneySplitList: sparse as never } })
    expect(p.status !== 'NoPayment' && p.moneySplits.map((s) => s.splitID)).toEqual([2, 3, 4])
  })

  // Reported to the lead: evolve's exhaustive `default` returns the EVENT as the new state when a
  // JavaScript caller passes an unknown event type (src/decider.ts, `default: return exhaustive`).
  // C2 types evolve as returning a PaymentState; the expected behaviour is the state unchanged.
  it('evolve on an unknown event type returns the state unchanged (it does not apply)', () => {
    const p = paymentAfter(create())
    expect(evolve(p, { type: 'Nope', at: at(1) } as never)).toBe(p)
  })
})

describe('errors, payment, webhooks, service: the remaining branches', () => {
  it('validationError of no issue still reads, and of one issue counts one problem', () => {
    expect(validationError([])).toMatchObject({ code: 'ValidationFailed', message: 'The input is not valid.' })
    expect(validationError([issue('a', 'required')]).message).toBe('The input is not valid: 1 problem (see issues).')
  })

  it('isTerminal: Cancelled and Refunded only', () => {
    expect(['Initiated', 'Reserved', 'Charged', 'Cancelled', 'Refunded'].map((s) => isTerminal(s as never))).toEqual([false, false, false, true, true])
  })

  it('webhookEventTypeOf: garbage and unknown types have none', () => {
    expect(O.isNone(webhookEventTypeOf(null as never))).toBe(true)
    expect(O.isNone(webhookEventTypeOf({ type: 'toString' } as never))).toBe(true)
    expect(O.isNone(webhookEventTypeOf({ type: 42 } as never))).toBe(true)
  })

  it('receiveTransfer with a transfer that is not an object is ValidationFailed', () => {
    const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body: { ...cardRequest({ paymentGateway: 'invoice', chargeImmediately: undefined }) } }, { at: at(0), paymentReferenceID: PAYMENT_ID, kid: '12345674' })
    const { result: r } = receiveTransfer(world, PAYMENT_ID, null as never, { at: at(1) })
    expect(codeOf(r)).toBe('ValidationFailed')
  })
})

describe('patches: the remaining branches', () => {
  const unordered = (): Payment => {
    const p = cardPayment()
    const splits = makeSplits(p.paymentReferenceID, [
      { connectedAccountID: ids.seller, amount: 7000, isFee: false },
      { connectedAccountID: ids.partner, amount: 2000, isFee: false },
      { connectedAccountID: ids.platform, amount: 1000, isFee: true }
    ])
    return { ...p, moneySplits: [splits[2]!, splits[0]!, splits[1]!] }
  }

  it('applyPatch reads splits in any order (a payment loaded from storage)', () => {
    const p = unordered()
    const r = applyPatch(p, {
      moneySplitPatch: [
        { splitID: 1, updateType: 'UpdateAmount', newAmount: 6000 },
        { splitID: 2, updateType: 'DoNothing' },
        { splitID: 3, updateType: 'DoNothing' }
      ],
      newGrossAmount: 9000
    })
    expect(E.isRight(r) && r.right.newGrossAmount).toBe(9000)
  })

  it('applyPatch on a payment with a non-positive or huge splitID still answers', () => {
    const p = cardPayment()
    const odd = { ...p, moneySplits: p.moneySplits.map((s, i) => ({ ...s, splitID: i === 0 ? 0 : s.splitID * 1000 })) }
    const r = applyPatch(odd, { moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }], newGrossAmount: 0 })
    expect(codeOf(r)).toBe('PatchSplitMismatch')
  })

  it('a patch whose getter throws is ValidationFailed, not a throw', () => {
    const hostile = Object.defineProperty({}, 'moneySplitPatch', { enumerable: true, get: () => { throw new Error('no') } })
    expect(codeOf(applyPatch(cardPayment(), hostile as never))).toBe('ValidationFailed')
  })

  it('setAmountsPatch with amounts that are not an array is ValidationFailed', () => {
    expect(codeOf(setAmountsPatch(cardPayment(), 'all' as never))).toBe('ValidationFailed')
  })
})

describe('codecs: the io-ts codecs', () => {
  it('is holds for decoded values only: long-form event types and garbage entries are not', () => {
    const decoded = PaymentIntentRequest.decode(cardRequest())
    expect(E.isRight(decoded)).toBe(true)
    if (E.isRight(decoded)) {
      expect(PaymentIntentRequest.is(decoded.right)).toBe(true)
      expect(PaymentIntentRequest.is({ ...decoded.right, webhookSubscriptions: [{ eventType: 'ChargedPayment', url: 'https://h.example/' }] })).toBe(false)
      expect(PaymentIntentRequest.is({ ...decoded.right, webhookSubscriptions: [null] })).toBe(false)
      expect(PaymentIntentRequest.encode(decoded.right)).toEqual(decoded.right)
    }
    expect(E.isLeft(MoneySplitRequest.decode(null))).toBe(true)
    expect(E.isLeft(MoneySplitPatch.decode({ moneySplitPatch: [null], newGrossAmount: 0 }))).toBe(true)
  })
})
