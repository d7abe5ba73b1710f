/**
 * C6: the context is the service's, so a context the service cannot read (a getter that throws, a
 * revoked proxy) is its own fault as much as a wrong one: 500 `InvalidContext` from `handle` (each
 * route's body shape kept), `Left` `InvalidContext` from the world operations, nothing changed, and
 * the payment form still sends the customer to `failedUrl` when the payment can be read.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/index.js'
import { completeForm, emptyWorld, failForm, handle, receiveTransfer, receiveTransferByKid, type World } from '../../src/http.js'
import { KID, atOf, cardRequest, idOf, invoiceRequest, patchOf } from '../support/http.fixtures.js'

/** Contexts that cannot be read: each call makes a fresh one. */
const unreadableContexts: ReadonlyArray<readonly [string, () => never]> = [
  [
    'a getter of at that throws',
    () =>
      ({
        get at(): string {
          throw new Error('clock unavailable')
        },
        paymentReferenceID: idOf(7)
      }) as never
  ],
  [
    'a revoked proxy',
    () => {
      const { proxy, revoke } = Proxy.revocable({ at: atOf(5), paymentReferenceID: idOf(7) }, {})
      revoke()
      return proxy as never
    }
  ],
  [
    'a proxy whose every read throws',
    () =>
      new Proxy(
        {},
        {
          getOwnPropertyDescriptor: () => {
            throw new Error('no')
          },
          get: () => {
            throw new Error('no')
          }
        }
      ) as never
  ]
]

const card = (): World => handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, { at: atOf(1), paymentReferenceID: idOf(1) }).world
const charged = (): World => completeForm(handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest({ chargeImmediately: true }) }, { at: atOf(1), paymentReferenceID: idOf(1) }).world, idOf(1), { at: atOf(2) }).world
const invoice = (): World => handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, { at: atOf(1), paymentReferenceID: idOf(1), kid: KID }).world
const payment = (w: World): Payment => w.payments.get(idOf(1)) as Payment

const path = `/payments/${idOf(1)}`

describe('C6: an unreadable context is the service\'s fault: 500 InvalidContext, nothing changed', () => {
  describe.each(unreadableContexts)('%s', (_, ctx) => {
    it('handle: 500 InvalidContext on every route that changes something; the error body of cancel, charge and refund keeps its shape', () => {
      const w = charged()
      const p = payment(w)
      const requests = [
        ['POST', '/payments', cardRequest({ externalPaymentReferenceID: 'order-2' })],
        ['POST', `${path}/refund/partially`, patchOf(p, { 1: 1 })],
        ['POST', `${path}/adjust`, patchOf(p, { 1: 1 })]
      ] as const
      for (const [method, target, body] of requests) {
        const { world: after, response, deliveries, events } = handle(w, { method, path: target, body }, ctx())
        expect(response.status).toBe(500)
        expect(response.body).toMatchObject({ success: false, error: { code: 'InvalidContext' } })
        expect([after, deliveries, events]).toStrictEqual([w, [], []])
        expect(after).toBe(w)
      }
      for (const route of ['cancel', 'charge', 'refund']) {
        const { world: after, response, deliveries, events } = handle(w, { method: 'POST', path: `${path}/${route}` }, ctx())
        expect(response.status).toBe(500)
        expect(response.body).toMatchObject({ success: false, error: expect.any(String) as string })
        expect(after).toBe(w)
        expect([deliveries, events]).toStrictEqual([[], []])
      }
    })

    it('handle: routing and reads come first and use no context', () => {
      const w = card()
      expect(handle(w, { method: 'GET', path }, ctx()).response.status).toBe(200)
      expect(handle(w, { method: 'DELETE', path }, ctx()).response.status).toBe(405)
      expect(handle(w, { method: 'POST', path: '/nowhere' }, ctx()).response.status).toBe(404)
    })

    it('the form: Left InvalidContext, the world as given, and the customer still goes to failedUrl', () => {
      const w = card()
      for (const { world: after, result, deliveries, redirectUrl, events } of [completeForm(w, idOf(1), ctx()), failForm(w, idOf(1), ctx())]) {
        expect(E.isLeft(result) && result.left.code).toBe('InvalidContext')
        expect(after).toBe(w)
        expect(redirectUrl).toBe(payment(w).failedUrl)
        expect([deliveries, events]).toStrictEqual([[], []])
      }
      // no such payment: nowhere to send the customer
      expect(completeForm(w, idOf(2), ctx()).redirectUrl).toBeUndefined()
    })

    it('the bank: Left InvalidContext, the world as given', () => {
      const w = invoice()
      for (const { world: after, result, deliveries, events } of [
        receiveTransfer(w, idOf(1), { amount: 100, kid: KID }, ctx()),
        receiveTransferByKid(w, { amount: 100, kid: KID }, ctx())
      ]) {
        expect(E.isLeft(result) && result.left.code).toBe('InvalidContext')
        expect(after).toBe(w)
        expect([deliveries, events]).toStrictEqual([[], []])
      }
    })
  })

  it('a failed form whose reason cannot be read: InvalidContext and failedUrl, nothing recorded', () => {
    const w = card()
    const ctx = {
      at: atOf(3),
      get reason(): string {
        throw new Error('no')
      }
    }
    const { world: after, result, redirectUrl, events } = failForm(w, idOf(1), ctx)
    expect(E.isLeft(result) && result.left.code).toBe('InvalidContext')
    expect([after === w, redirectUrl, events]).toStrictEqual([true, payment(w).failedUrl, []])
  })

  it('a getter on a field the operation does not use is not read: the KID of a cancel, the reason of a completed form', () => {
    const throwing = (at: string, key: string): never =>
      Object.defineProperty({ at }, key, {
        enumerable: true,
        get: () => {
          throw new Error('no')
        }
      }) as never
    expect(handle(card(), { method: 'POST', path: `${path}/cancel` }, throwing(atOf(3), 'kid')).response.status).toBe(200)
    expect(E.isRight(completeForm(card(), idOf(1), throwing(atOf(3), 'reason')).result)).toBe(true)
  })
})
