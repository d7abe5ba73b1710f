/**
 * The testing kit's arbitraries prove themselves: every valid one decodes (and `transition`
 * accepts what it should), every labelled invalid one fails with its label's code and path.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodePaymentIntentRequest } from '../../src/codecs.js'
import type { Command } from '../../src/commands.js'
import { transition } from '../../src/decider.js'
import { kid } from '../../src/kid.js'
import { applyPatch } from '../../src/patches.js'
import { initialState, type Payment, type PaymentState } from '../../src/payment.js'
import { commandArb, deepEqual, invalidPaymentIntentRequestArb, kidArb, patchArb, paymentIntentRequestArb, scenarioArb, show, uuidArb } from '../../src/testing.js'
import { normalise } from '../../src/conformance.js'

const runAll = (commands: ReadonlyArray<unknown>): PaymentState => {
  let s: PaymentState = initialState
  for (const c of commands) {
    const r = transition(s, c as never)
    if (E.isLeft(r)) throw new Error(`${(c as { type: string }).type} refused: ${r.left.code}: ${r.left.message}`)
    s = r.right[0]
  }
  return s
}

describe('paysplit/testing arbitraries', () => {
  it('every valid request decodes to itself', () => {
    fc.assert(
      fc.property(paymentIntentRequestArb(), (r) => {
        const d = decodePaymentIntentRequest(r)
        expect(E.isRight(d) ? d.right : d.left).toEqual(r)
      })
    )
  })

  it('the options shape the requests: kinds, split count, amount range, customer, no metaData, webhook urls', () => {
    const urls = ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']
    fc.assert(
      fc.property(
        paymentIntentRequestArb({ kinds: ['invoice'], splits: { min: 2, max: 3 }, amounts: { min: 10, max: 20 }, customer: true, metaData: false, webhookUrls: urls }),
        (r) => {
          expect(E.isRight(decodePaymentIntentRequest(r))).toBe(true)
          expect(r.paymentGateway).toBe('invoice')
          expect(r.moneySplitList.length).toBeGreaterThanOrEqual(2)
          expect(r.moneySplitList.length).toBeLessThanOrEqual(3)
          expect(r.moneySplitList.every((s) => s.amount >= 10 && s.amount <= 20)).toBe(true)
          expect(r.customer).toBeDefined()
          expect(r.metaData).toEqual({})
          expect(r.webhookSubscriptions.every((s) => urls.includes(s.url))).toBe(true)
        }
      )
    )
    fc.assert(
      fc.property(paymentIntentRequestArb({ kinds: ['card'], customer: false, webhookUrls: [] }), (r) => {
        expect(r.paymentGateway).toBe('creditcard')
        expect(typeof r.chargeImmediately).toBe('boolean')
        expect(r.customer).toBeUndefined()
        expect(r.webhookSubscriptions).toEqual([])
      })
    )
  })

  it('garbage options fall back to defaults instead of throwing', () => {
    const arb = paymentIntentRequestArb({ splits: { min: -5, max: Number.NaN }, amounts: { min: 9, max: -1 }, kinds: ['nope' as never], maxSubscriptions: 99 })
    fc.assert(fc.property(arb, (r) => E.isRight(decodePaymentIntentRequest(r))), { numRuns: 30 })
  })

  it('every labelled invalid request fails with its label’s code and an issue at its path', () => {
    const seen = new Set<string>()
    fc.assert(
      fc.property(invalidPaymentIntentRequestArb(), ({ rule, code, path, input }) => {
        seen.add(rule)
        const d = decodePaymentIntentRequest(input)
        expect(E.isLeft(d), rule).toBe(true)
        if (E.isLeft(d)) {
          expect(d.left.code, rule).toBe(code)
          expect(d.left.issues?.map((i) => i.path), rule).toContain(path)
        }
      }),
      { numRuns: Math.max(300, fc.readConfigureGlobal().numRuns ?? 100) }
    )
    expect(seen.size).toBeGreaterThan(30)
  })

  it('transition gives a labelled invalid request the same code', () => {
    fc.assert(
      fc.property(invalidPaymentIntentRequestArb(), uuidArb, ({ code, input }, id) => {
        const r = transition(initialState, { type: 'CreatePayment', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, request: input as never })
        return E.isLeft(r) && r.left.code === code
      })
    )
  })

  it('KIDs are valid', () => {
    fc.assert(fc.property(kidArb, (k) => kid.isValid(k)))
  })

  it('scenarios: every command is accepted in turn, and money is conserved at every step', () => {
    fc.assert(
      fc.property(scenarioArb(), ({ commands, kind }) => {
        let s: PaymentState = initialState
        for (const c of commands) {
          const r = transition(s, c)
          expect(E.isRight(r) ? 'ok' : r.left).toBe('ok')
          if (E.isLeft(r)) return
          s = r.right[0]
          const p = s as Payment
          expect(p.kind).toBe(kind)
          expect(p.grossAmount).toBe(p.moneySplits.reduce((a, x) => a + x.amount, 0))
          if (p.status === 'Charged' || p.status === 'Refunded') {
            expect(p.chargedAmount).toBe(p.grossAmount + p.refundedAmount)
            expect(p.refundedAmount).toBeLessThanOrEqual(p.chargedAmount)
          }
        }
      })
    )
  })

  it('scenarios reach every status (statistics over 2000 lives, under the run\'s seed)', () => {
    // the rarest status ends about 1.4 % of lives (300 lives missed one under 5 seeds of 300), so
    // 2000 lives miss one with a chance near 10⁻¹²
    const statuses = new Set<string>()
    for (const { commands } of fc.sample(scenarioArb({ maxCommands: 8 }), { numRuns: 2000 })) statuses.add(runAll(commands).status)
    expect([...statuses].sort()).toEqual(['Cancelled', 'Charged', 'Initiated', 'Refunded', 'Reserved'])
  })

  it('patchArb: every patch applies to its payment; none when no split is left', () => {
    fc.assert(
      fc.property(
        scenarioArb().chain(({ commands }) => {
          const s = runAll(commands)
          const arb = s.status === 'NoPayment' ? O.none : patchArb(s)
          return O.isNone(arb) ? fc.constant(undefined) : arb.value.map((patch) => ({ payment: s as Payment, patch }))
        }),
        (c) => {
          if (c === undefined) return
          expect(E.isRight(applyPatch(c.payment, c.patch))).toBe(true)
        }
      )
    )
    expect(O.isNone(patchArb({ moneySplits: [] } as unknown as Payment))).toBe(true)
    expect(O.isNone(patchArb(null as unknown as Payment))).toBe(true)
  })

  it('commandArb: commands accepted in the state; none for NoPayment and terminal states', () => {
    fc.assert(
      fc.property(
        scenarioArb().chain(({ commands }) => {
          const s = runAll(commands)
          const arb = commandArb(s)
          return O.isNone(arb) ? fc.constant({ s, c: undefined as Command | undefined }) : arb.value.map((c): { s: PaymentState; c: Command | undefined } => ({ s, c }))
        }),
        ({ s, c }) => {
          if (c === undefined) {
            expect(s.status === 'Cancelled' || s.status === 'Refunded' || s.status === 'Charged').toBe(true)
            return
          }
          const r = transition(s, c)
          expect(E.isRight(r) ? 'ok' : r.left).toBe('ok')
        }
      )
    )
    expect(O.isNone(commandArb(initialState))).toBe(true)
    expect(O.isNone(commandArb(null as unknown as PaymentState))).toBe(true)
  })
})

describe('paysplit/testing helpers', () => {
  it('deepEqual: plain data; undefined members equal absent ones; unreadable values are unequal', () => {
    expect(deepEqual({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] })).toBe(true)
    expect(deepEqual([1, 2], [1, 2, 3])).toBe(false)
    expect(deepEqual([1], { 0: 1 })).toBe(false)
    expect(deepEqual(Number.NaN, Number.NaN)).toBe(true)
    expect(deepEqual(null, {})).toBe(false)
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('no') } })
    expect(deepEqual(hostile, {})).toBe(false)
  })

  it('show never throws', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    expect(show(cyclic)).toBe('[unprintable]')
    expect(show(undefined)).toBe('undefined')
    expect(show({ a: undefined })).toContain('[undefined]')
  })

  it('normalise: ids (any case) become labels, times <time>, texts <text> unless compared', () => {
    const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
    const body = { eventID: `${id.toUpperCase()}:2`, at: '2026-11-21T10:00:00.123Z', message: `Payment ${id} not found.`, n: 1, u: undefined, list: [id] }
    expect(normalise(body, [[id, '<p1>']])).toEqual({ at: '<time>', eventID: '<p1>:2', list: ['<p1>'], message: '<text>', n: 1 })
    expect(normalise(body, [[id, '<p1>']], true)).toMatchObject({ message: 'Payment <p1> not found.' })
    expect(normalise(new Proxy({}, { ownKeys: () => { throw new Error('no') } }), [])).toBe('[unreadable]')
  })
})
