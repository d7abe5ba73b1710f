/**
 * Tests written against the survivors of a Stryker run on `src/http/handle.ts` (docs/testing.md,
 * "Mutation testing"): what is a World, a request and a context and what is not (a function
 * carrying the three Maps, Map-like objects, a world without `references`, a String object as an
 * id: each a 400 or `ValidationFailed` or none, never the answer the next step would give), the
 * service's own `PaymentNotFound` sentence, the structural comparison of a repeated create with
 * the stored request (list lengths, list entries, key counts, a list against an object with
 * index keys, an array's other properties), the 409 sentence of a duplicate reference, the
 * stored reference of a card (no `kid` key), the empty id a non-string context id is looked up
 * as, and how often a getter of the context is read. Named after the behaviour, not after the
 * mutants; the comments name the mutants (lines as of commit a5752b5). The survivors that no test
 * can tell apart, and the simplifications of `src/http/handle.ts`, are explained in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import type { Customer, Payment } from '../../src/index.js'
import { completeForm, emptyWorld, failForm, getCustomer, getPayment, handle, receiveTransfer, receiveTransferByKid, type World } from '../../src/http.js'
import { FEE_ACCOUNT, KID, OTHER_ACCOUNT, SELLER, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'

const ctx = { at: atOf(1), paymentReferenceID: idOf(1) }

/** The one issue of a world, request or context that cannot be read: not a plain object. */
const UNREADABLE = { path: '', code: 'ValidationFailed', reason: 'type', params: { expected: 'object' }, message: 'Must be of type object.' }

/** The 400 of a world, request or context that cannot be read. */
const unreadableResponse = {
  status: 400,
  body: {
    success: false,
    error: { code: 'ValidationFailed', message: 'The input is not valid: 1 problem (see issues).', issues: [UNREADABLE] }
  }
}

/** The error of a form or bank operation given something that cannot be read. */
const unreadableError = {
  code: 'ValidationFailed',
  message: 'The input is not valid: 1 problem (see issues).',
  issues: [UNREADABLE]
}

/** A request that matches no route: 404 RouteNotFound when the world and context are readable. */
const nowhere = { method: 'GET', path: '/nowhere' }

const create = (world: World, body: unknown, paymentReferenceID = idOf(1), kid?: string) =>
  handle(world, { method: 'POST', path: '/payments', body }, { at: atOf(1), paymentReferenceID, ...(kid !== undefined ? { kid } : {}) })

/** The world after one card create (idOf(1), reference order-1001), and its payment. */
const oneCard = (body: Record<string, unknown> = cardRequest()): { world: World; payment: Payment } => {
  const { world, response: r } = create(emptyWorld, body)
  expect(r.status).toBe(201)
  const payment = world.payments.get(idOf(1))
  if (payment === undefined) throw new Error('expected the payment')
  return { world, payment }
}

/** A read-only Map stand-in that is not a Map: answers `get` and `has` with `value` for every key. */
const mapLike = <V>(value: V) => ({ get: (): V => value, has: (): boolean => true, size: 1 })

const codeOf = (body: unknown): string => (body as { error: { code: string } }).error.code

// -------------------------------------------------------------------------------------
// what is a World, a request, a context
// -------------------------------------------------------------------------------------

describe('handle: a world, request or context that cannot be read is a 400 before any route is matched', () => {
  it('the response to an unmatched route is a 404 when everything can be read', () => {
    // the baseline of the tests below
    const { world: after, response: r, deliveries } = handle(emptyWorld, nowhere, ctx)
    expect(r).toStrictEqual({ status: 404, body: { success: false, error: { code: 'RouteNotFound', message: 'No endpoint has this path.' } } })
    expect(after).toBe(emptyWorld)
    expect(deliveries).toEqual([])
  })

  it('a world without references is no world: 400, the very world given back, no webhook', () => {
    // kills 391:9 (the guard → false; `(a || b) || c` → `(a || b) && c`; `a || b` → false; `a || b` → `a && b`),
    // 391:66 (the block → {}), 115:3 (isWorld → true; its last `&&` → `||`)
    const partial = { payments: new Map(), customers: new Map() } as unknown as World
    const { world: after, response: r, deliveries } = handle(partial, nowhere, ctx)
    expect(r).toStrictEqual(unreadableResponse)
    expect(after).toBe(partial)
    expect(deliveries).toEqual([])
  })

  it('a function carrying the three Maps is no world', () => {
    // kills 115:3 (`typeof w === 'object' && w !== null && payments` → `… || payments`; the first two
    // conjuncts → true; `typeof w === 'object' || w !== null`; `typeof w === 'object'` → true)
    const fn = Object.assign(() => undefined, { payments: new Map(), customers: new Map(), references: new Map() })
    const { world: after, response: r } = handle(fn, nowhere, ctx)
    expect(r).toStrictEqual(unreadableResponse)
    expect(after).toBe(fn)
  })

  it('a request that is no object (a number) is a 400, not the 404 its missing method and path would get', () => {
    // kills 110:47 (isObject → true; `typeof u === 'object'` → true; `&&` → `||`)
    const { world: after, response: r } = handle(emptyWorld, 42 as unknown as { method: string; path: string }, ctx)
    expect(r).toStrictEqual(unreadableResponse)
    expect(after).toBe(emptyWorld)
  })

  it('a null context: routing comes first (404), then the context (500 InvalidContext) for a route that changes something', () => {
    const { world: after, response: r } = handle(emptyWorld, nowhere, null as never)
    expect(r.status).toBe(404)
    expect(after).toBe(emptyWorld)
    const { world: again, response: fault } = handle(emptyWorld, { method: 'POST', path: `/payments/${idOf(1)}/cancel` }, null as never)
    expect(fault.status).toBe(500)
    expect(fault.body).toStrictEqual({ response: null, success: false, error: expect.any(String) as string, code: 'InvalidContext' })
    expect(again).toBe(emptyWorld)
  })
})

describe('getPayment and getCustomer read only a World of Maps, and only by a string', () => {
  it('a world whose payments is a Map-like object, not a Map, holds no payment', () => {
    // kills 115:3 (the first four conjuncts → true; the first three → true; `… && payments || customers`)
    const { payment } = oneCard()
    const world = { payments: mapLike(payment), customers: new Map(), references: new Map() } as unknown as World
    expect(getPayment(world, idOf(1))).toStrictEqual(O.none)
  })

  it('a world whose customers is a Map-like object, not a Map, holds no customer', () => {
    // kills 115:3 (the first four conjuncts → true; `… && payments || customers`; `… && customers || references`)
    const customer: Customer = { name: 'Kari' }
    const world = { payments: new Map(), customers: mapLike(customer), references: new Map() } as unknown as World
    expect(getCustomer(world, 'customer-42')).toStrictEqual(O.none)
  })

  it('a world whose references is not a Map holds no payment, even in its payments Map', () => {
    // kills 115:3 (isWorld → true; `… && customers || references`)
    const { world, payment } = oneCard()
    expect(getPayment(world, idOf(1))).toStrictEqual(O.some(payment))
    const noReferences = { ...world, references: {} } as unknown as World
    expect(getPayment(noReferences, idOf(1))).toStrictEqual(O.none)
  })

  it('getPayment takes a string id only: a String object of a stored id finds nothing', () => {
    // kills 143:9 (the guard → false; `||` → `&&`), 143:28 (`typeof … !== 'string'` → false)
    const { world } = oneCard()
    expect(getPayment(world, new String(idOf(1)) as unknown as string)).toStrictEqual(O.none)
  })

  it('getCustomer takes a string id only: a number finds nothing, even under that key of a hand-made world', () => {
    // kills 177:9 (the guard → false; `||` → `&&`), 177:28 (`typeof … !== 'string'` → false)
    const world = { payments: new Map(), customers: new Map([[42, { name: 'Kari' }]]), references: new Map() } as unknown as World
    expect(getCustomer(world, 42 as unknown as string)).toStrictEqual(O.none)
  })
})

describe('completeForm, failForm, receiveTransfer: what they refuse before the decider', () => {
  it('receiveTransferByKid reads the world before the context: what is no world is unreadable, whatever the context and transfer', () => {
    // kills bank.ts receiveTransferByKid's world guard (→ false): without it a bad context would answer first
    for (const world of [null, 42, {}, { payments: new Map() }]) {
      const { world: same, result, deliveries } = receiveTransferByKid(world as never, { kid: 'x', amount: -1 }, null as never)
      expect(same).toBe(world)
      expect(result).toStrictEqual(E.left({ code: 'ValidationFailed', message: 'The input is not valid: 1 problem (see issues).', issues: [UNREADABLE] }))
      expect(deliveries).toStrictEqual([])
    }
  })

  it('a world without references is ValidationFailed, not the PaymentNotFound of its empty payments', () => {
    // kills 416:9 (the guard → false; `(a || b) || c` → `(a || b) && c`; `a || b` → false; `a || b` → `a && b`), 416:86 (the block → {})
    const partial = { payments: new Map(), customers: new Map() } as unknown as World
    const { world: after, result, deliveries } = completeForm(partial, idOf(1), { at: atOf(2) })
    expect(result).toStrictEqual(E.left(unreadableError))
    expect(after).toBe(partial)
    expect(deliveries).toEqual([])
  })

  it('the id must be a string: a String object of a stored id is ValidationFailed, the payment untouched', () => {
    // kills 416:28 (`typeof paymentReferenceID !== 'string'` → false), 416:9 (the guard → false)
    const { world, payment } = oneCard()
    const { world: after, result } = completeForm(world, new String(idOf(1)) as unknown as string, { at: atOf(2) })
    expect(result).toStrictEqual(E.left(unreadableError))
    expect(after).toBe(world)
    expect(after.payments.get(idOf(1))).toBe(payment)
  })

  it('a null context is InvalidContext, even for a payment nobody created', () => {
    const { world: after, result, redirectUrl } = completeForm(emptyWorld, idOf(9), null as never)
    expect(E.isLeft(result) && result.left.code).toBe('InvalidContext')
    expect(after).toBe(emptyWorld)
    expect(redirectUrl).toBeUndefined()
  })

  it('a payment nobody created: PaymentNotFound in the service\'s sentence, before the command is looked at', () => {
    // kills 419:9 (`!world.payments.has(…)` → false: the decider's own PaymentNotFound sentence, and
    // its ValidationFailed for the transfer's amount)
    expect(completeForm(emptyWorld, idOf(9), { at: atOf(2) }).result).toStrictEqual(
      E.left({ code: 'PaymentNotFound', message: 'No payment has this paymentReferenceID.' })
    )
    expect(receiveTransfer(emptyWorld, idOf(9), { amount: -1, kid: '' }, { at: atOf(2) }).result).toStrictEqual(
      E.left({ code: 'PaymentNotFound', message: 'No payment has this paymentReferenceID.' })
    )
  })

  it('a null transfer is read as one without amount or kid: the decider\'s amount issue', () => {
    // kills 110:72 (`u !== null` → true), 110:47 (`&&` → `||`; isObject → true): `null.amount` would throw
    const { world } = create(emptyWorld, invoiceRequest(), idOf(1), KID)
    const { world: after, result } = receiveTransfer(world, idOf(1), null as never, { at: atOf(2) })
    expect(result).toStrictEqual(
      E.left({
        code: 'ValidationFailed',
        message: 'The input is not valid: 1 problem (see issues).',
        issues: [{ path: 'amount', code: 'ValidationFailed', reason: 'required', message: 'Required.' }]
      })
    )
    expect(after).toBe(world)
  })

  it('failForm reads a given reason once: a getter\'s first answer is recorded', () => {
    const { world } = oneCard()
    let reads = 0
    const failCtx = {
      at: atOf(2),
      get reason(): string {
        reads += 1
        return reads === 1 ? 'first answer' : 'card declined'
      }
    }
    const { result } = failForm(world, idOf(1), failCtx)
    expect(reads).toBe(1)
    expect(E.isRight(result) && result.right.formAttempts).toStrictEqual([{ at: atOf(2), reason: 'first answer' }])
  })
})

// -------------------------------------------------------------------------------------
// create: repeats, references, the context's id and kid
// -------------------------------------------------------------------------------------

describe('POST /payments: a repeat is the same request only when it is equal to the stored one as JSON', () => {
  const splits = [
    { connectedAccountID: SELLER, amount: 9000, isFee: false },
    { connectedAccountID: FEE_ACCOUNT, amount: 1000, isFee: true }
  ]

  it('one more split (of 0, the gross the same) is a different request: 409', () => {
    // kills 212:12 (the array comparison → true; `&&` → `||`; `a.length === b.length` → true): the
    // stored list is a prefix of the new one
    const { world } = oneCard(cardRequest({ moneySplitList: splits }))
    const { world: after, response: r } = create(world, cardRequest({ moneySplitList: [...splits, { connectedAccountID: OTHER_ACCOUNT, amount: 0, isFee: false }] }), idOf(2))
    expect(r.status).toBe(409)
    expect(codeOf(r.body)).toBe('DuplicateExternalPaymentReference')
    expect(after).toBe(world)
  })

  it('as many splits, the amounts moved between them, is a different request: 409', () => {
    // kills 212:12 (the array comparison → true; `&&` → `||`)
    const { world } = oneCard(cardRequest({ moneySplitList: splits }))
    const moved = [
      { connectedAccountID: SELLER, amount: 8000, isFee: false },
      { connectedAccountID: FEE_ACCOUNT, amount: 2000, isFee: true }
    ]
    const { world: after, response: r } = create(world, cardRequest({ moneySplitList: moved }), idOf(2))
    expect(r.status).toBe(409)
    expect(after).toBe(world)
  })

  it('a field the first request left out makes a different request: 409', () => {
    // kills 216:7 (`ka.length !== kb.length` → false), 216:39 (`return false` → `return true`): every
    // key of the stored request is in the new one, with the same value
    const withoutTag = Object.fromEntries(Object.entries(cardRequest()).filter(([k]) => k !== 'externalObjectIdTag'))
    const { world } = oneCard(withoutTag)
    const { world: after, response: r } = create(world, cardRequest(), idOf(2))
    expect(r.status).toBe(409)
    expect(codeOf(r.body)).toBe('DuplicateExternalPaymentReference')
    expect(after).toBe(world)
  })

  it('a stored list is no object with index keys: a hand-made world holding one answers 409', () => {
    // kills 210:7 (`Array.isArray(a) !== Array.isArray(b)` → false)
    const { world } = oneCard()
    const stored = world.references.get('order-1001')
    if (stored === undefined) throw new Error('expected the reference')
    const asObject = Object.fromEntries(stored.request.moneySplitList.map((split, i) => [String(i), split]))
    expect(Object.keys(asObject)).toEqual(['0', '1'])
    const handMade: World = { ...world, references: new Map([['order-1001', { ...stored, request: { ...stored.request, moneySplitList: asObject as never } }]]) }
    const { world: after, response: r } = create(handMade, cardRequest(), idOf(2))
    expect(r.status).toBe(409)
    expect(after).toBe(handMade)
  })

  it('a stored list is compared by its entries, as JSON sees it: a property beside them does not matter (200)', () => {
    // kills 211:45 (the array branch → {}: arrays compared by their keys, the extra one included)
    const { world, payment } = oneCard()
    const stored = world.references.get('order-1001')
    if (stored === undefined) throw new Error('expected the reference')
    const list = Object.assign([...stored.request.moneySplitList], { note: 'kept by a store' })
    const handMade: World = { ...world, references: new Map([['order-1001', { ...stored, request: { ...stored.request, moneySplitList: list } }]]) }
    const { world: after, response: r, deliveries } = create(handMade, cardRequest(), idOf(2))
    expect(r.status).toBe(200)
    expect((r.body as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated.paymentReferenceID).toBe(payment.paymentReferenceID)
    expect(after).toBe(handMade)
    expect(deliveries).toEqual([])
  })

  it('the 409 says the reference is taken, without quoting it (C3: no message copies the input)', () => {
    const { world } = oneCard()
    const { response: r } = create(world, cardRequest({ description: 'Three tickets' }), idOf(2))
    expect(r).toStrictEqual({
      status: 409,
      body: {
        success: false,
        error: {
          code: 'DuplicateExternalPaymentReference',
          message: 'This externalPaymentReferenceID already names a payment, created by a different request.'
        }
      }
    })
  })
})

describe('POST /payments: what the world stores and looks up', () => {
  it('the reference of a card holds the payment id and the request, and no kid key; an invoice\'s holds its KID', () => {
    // kills 293:5 (`kid !== undefined` → true: `kid: undefined` stored with a card's reference)
    const { world } = oneCard()
    const card = world.references.get('order-1001')
    expect(card && Object.keys(card)).toEqual(['externalPaymentReferenceID', 'paymentReferenceID', 'request'])
    expect(card?.paymentReferenceID).toBe(idOf(1))
    const { world: w2 } = create(world, invoiceRequest(), idOf(2), KID)
    const invoice = w2.references.get('invoice-2001')
    expect(invoice && Object.keys(invoice)).toEqual(['externalPaymentReferenceID', 'paymentReferenceID', 'request', 'kid'])
    expect(invoice?.kid).toBe(KID)
  })

  it('a context id that is no string is the service\'s fault, even where a hand-made world holds a payment under \'\'', () => {
    const { world, payment } = oneCard()
    const handMade: World = { ...world, payments: new Map([['', payment]]) }
    const { world: after, response: r } = handle(handMade, { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: 'order-2' }) }, { at: atOf(2), paymentReferenceID: 42 as never })
    expect(r.status).toBe(500)
    expect(codeOf(r.body)).toBe('InvalidContext')
    expect(after).toBe(handMade)
  })

  it('an invoice create reads the context\'s kid once', () => {
    let reads = 0
    const kidCtx = {
      at: atOf(1),
      paymentReferenceID: idOf(1),
      get kid(): string | undefined {
        reads += 1
        return reads === 2 ? 'not a KID' : KID
      }
    }
    const { world, response: r } = handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, kidCtx)
    expect(reads).toBe(1)
    expect(r.status).toBe(201)
    expect(world.payments.get(idOf(1))?.kid).toBe(KID)
    expect(world.references.get('invoice-2001')?.kid).toBe(KID)
  })
})
