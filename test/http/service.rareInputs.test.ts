/**
 * Branches and fallbacks of src/http/handle.ts (the service model behind `handle`) that the other
 * tests left uncovered (measured with `npm run test:coverage`): worlds built by hand, and inputs
 * whose getters answer differently on each read or throw. The branch that no input can reach is
 * marked `v8 ignore` in src/ and listed in docs/testing.md.
 */
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { emptyWorld, getCustomer, getPayment, handle, receiveTransfer, type World } from '../../src/http.js'
import { atOf, cardRequest, idOf } from '../support/http.fixtures.js'

const ctx = { at: atOf(0), paymentReferenceID: idOf(1) }
const create = (world: World, body: unknown, paymentReferenceID = idOf(1)) =>
  handle(world, { method: 'POST', path: '/payments', body }, { at: atOf(0), paymentReferenceID })

/** A Map whose reads throw, as a hostile or broken world might hold. */
class BrokenMap<K, V> extends Map<K, V> {
  override get(): V | undefined {
    throw new Error('broken')
  }
  override has(): boolean {
    throw new Error('broken')
  }
}

describe('service: the remaining branches', () => {
  it('a repeat of a create whose stored request differs in shape (a list where an object was) is a 409 duplicate', () => {
    const { world, response: created } = create(emptyWorld, cardRequest())
    expect(created.status).toBe(201)
    const stored = world.references.get('order-1001')
    expect(stored).toBeDefined()
    if (stored === undefined) return
    // a world built by hand: its stored request holds an object where the request has a list
    const handMade: World = {
      ...world,
      references: new Map([['order-1001', { ...stored, request: { ...stored.request, moneySplitList: {} as never } }]])
    }
    const { world: after, response: repeat } = create(handMade, cardRequest(), idOf(2))
    expect(repeat.status).toBe(409)
    expect((repeat.body as { error: { code: string } }).error.code).toBe('DuplicateExternalPaymentReference')
    expect(after).toBe(handMade)
  })

  it('a create body is decoded once: a getter that answers differently on a second read is read once, and its answer refused', () => {
    let reads = 0
    const body = cardRequest()
    Object.defineProperty(body, 'grossAmount', { enumerable: true, get: () => (++reads === 1 ? 'ten thousand' : 10000) })
    const { world: after, response, deliveries } = create(emptyWorld, body)
    expect(reads).toBe(1) // decoded by handle only; the decider takes the decoded request
    expect(response.status).toBe(400)
    expect(after).toBe(emptyWorld)
    expect(deliveries).toEqual([])
  })

  it('getPayment and getCustomer give none when the world cannot be read', () => {
    const broken: World = { payments: new BrokenMap(), customers: new BrokenMap(), references: new BrokenMap() }
    expect(O.isNone(getPayment(broken, idOf(1)))).toBe(true)
    expect(O.isNone(getCustomer(broken, 'customer-42'))).toBe(true)
  })

  it('a form or bank operation on a world that cannot be read is ValidationFailed and changes nothing', () => {
    const broken: World = { payments: new BrokenMap(), customers: new BrokenMap(), references: new BrokenMap() }
    const { world: after, result, deliveries } = receiveTransfer(broken, idOf(1), { amount: 1, kid: '12345674' }, ctx)
    expect(after).toBe(broken)
    expect(result._tag === 'Left' && result.left.code).toBe('ValidationFailed')
    expect(deliveries).toEqual([])
  })

  it('a create whose context has a paymentReferenceID that is not a string is a 500 InvalidContext at paymentReferenceID', () => {
    const { world: after, response } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, { at: atOf(0), paymentReferenceID: 42 as never })
    expect(response.status).toBe(500)
    expect(after).toBe(emptyWorld)
    const error = (response.body as { error: { code: string; issues?: ReadonlyArray<{ path: string }> } }).error
    expect(error.code).toBe('InvalidContext')
    expect(error.issues?.map((i) => i.path)).toEqual(['paymentReferenceID'])
  })
})
