/**
 * C3 (own properties only), for every export of paysplit/http: with Object.prototype polluted by
 * the names of every field of a request, a context, a world, an option, a delivery and an error,
 * each entry gives the same answer as without.
 */
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import {
  allowedMethods,
  completeForm,
  createPaymentResponse,
  emptyWorld,
  errorResponse,
  failForm,
  getCustomer,
  getPayment,
  handle,
  httpStatusOf,
  isReadRoute,
  matchRoute,
  mismatchResponse,
  moneySplitRecordOf,
  normaliseWebhookEventType,
  paymentCreatedOf,
  receiveTransfer,
  receiveTransferByKid,
  routeTakesBody,
  successResponse,
  webhookDeliveries,
  webhookEventTypeOf,
  webhookMessage,
  webhookPaymentOf,
  type World
} from '../../src/http.js'
import { KID, OTHER_KID, atOf, cardRequest, idOf, invoiceRequest, patchOf } from '../support/http.fixtures.js'

/** What a polluter puts on Object.prototype: a plausible value for every field name paysplit/http reads. */
const pollution: Readonly<Record<string, unknown>> = {
  // requests and contexts
  method: 'POST',
  path: '/payments',
  body: { grossAmount: 1 },
  at: '2030-01-01T00:00:00.000Z',
  paymentReferenceID: '99999999-9999-4999-8999-999999999999',
  kid: OTHER_KID,
  catchAllUrl: 'https://evil.example/hooks',
  reason: 'polluted',
  amount: 7,
  timestamp: 42,
  // options and deliveries
  customer: { name: 'Polluted' },
  url: 'https://evil.example/',
  payload: { eventID: 'evil' },
  eventID: 'evil',
  // worlds
  payments: new Map(),
  customers: new Map(),
  references: new Map(),
  // errors
  issues: [{ path: 'evil', code: 'ValidationFailed', message: 'polluted' }],
  missing: [99],
  unknown: [98],
  repeated: [97]
}

/** The JSON of a value, Maps as their entries: what a caller sees of an answer. */
const seen = (u: unknown): string =>
  JSON.stringify(u, (_, v: unknown) => (v instanceof Map ? { map: [...(v as Map<unknown, unknown>).entries()] } : v))

/** An operation's record without its world (the world is compared as it goes). */
const outcomeOf = (r: object): ReadonlyArray<[string, unknown]> => Object.entries(r).filter(([k]) => k !== 'world')

/** The answers of every export along a card's and an invoice's life, through handle and the world operations. */
const life = (): ReadonlyArray<unknown> => {
  const out: Array<unknown> = []
  let world: World = emptyWorld
  let n = 0
  const ctx = (extra: Record<string, unknown> = {}) => {
    n += 1
    return { at: atOf(n), paymentReferenceID: idOf(n), ...extra }
  }
  const send = (method: string, path: string, body?: unknown, extra?: Record<string, unknown>) => {
    const request = body === undefined ? { method, path } : { method, path, body }
    const { world: next, response, deliveries } = handle(world, request, ctx(extra))
    world = next
    out.push(response, deliveries, deliveries.map((d) => webhookMessage(d, { timestamp: 1795255200 })))
    return response
  }
  send('POST', '/payments', cardRequest())
  const card = idOf(1)
  send('POST', '/payments', cardRequest({ externalPaymentReferenceID: 'order-2', customer: { email: 'kari@example.no' } }))
  send('POST', '/payments', cardRequest())
  send('GET', `/payments/${card}`)
  send('GET', '/payments?externalPaymentReferenceID=order-2')
  send('GET', '/customers/customer-42')
  send('PUT', '/payments')
  send('POST', '/nowhere')
  for (const step of [
    () => completeForm(world, card, { at: atOf(100) }),
    () => failForm(world, card, { at: atOf(101) })
  ]) {
    const r = step()
    world = r.world
    out.push(outcomeOf(r))
  }
  send('POST', `/payments/${card}/charge`)
  const payment = world.payments.get(card)
  if (payment === undefined) throw new Error('no card')
  send('POST', `/payments/${card}/refund/partially`, patchOf(payment, { 1: 8000 }))
  send('POST', `/payments/${card}/refund`)
  send('POST', '/payments', invoiceRequest(), { kid: KID })
  const invoice = idOf(n)
  send('POST', '/payments', invoiceRequest({ externalPaymentReferenceID: 'invoice-2' }), { kid: KID })
  const t1 = receiveTransfer(world, invoice, { amount: 1000, kid: KID }, { at: atOf(200) })
  world = t1.world
  const t2 = receiveTransferByKid(world, { amount: 9000, kid: KID }, { at: atOf(201) })
  world = t2.world
  out.push(outcomeOf(t1), outcomeOf(t2), outcomeOf(receiveTransferByKid(world, { amount: 1, kid: KID }, { at: atOf(202) })))
  out.push(getPayment(world, card), getCustomer(world, 'customer-42'), [...world.payments.values()], [...world.customers.entries()])
  // the building blocks, on the payments of that life
  const p = world.payments.get(card)
  if (p === undefined) throw new Error('no card')
  out.push(
    allowedMethods('/payments'),
    matchRoute('GET', '/payments?x=1'),
    isReadRoute({ name: 'getPayment', paymentReferenceID: card }),
    routeTakesBody({ name: 'createPayment' }),
    createPaymentResponse(p, false),
    errorResponse('adjustInvoice', { code: 'NothingToChange', message: 'x' }),
    httpStatusOf({ code: 'DuplicateKid' }),
    E.isLeft(matchRoute('PUT', '/payments')) ? mismatchResponse({ reason: 'MethodNotAllowed', allow: ['GET'] }) : null,
    p.moneySplits.map(moneySplitRecordOf),
    paymentCreatedOf(p),
    successResponse({ name: 'cancelPayment', paymentReferenceID: card }, p, []),
    normaliseWebhookEventType('ChargedPayment'),
    webhookDeliveries(p, [{ type: 'PaymentRefunded', at: atOf(300), paymentReferenceID: card, refundAmount: 0, refundedSplit: [] }]),
    webhookDeliveries(p, [{ type: 'PaymentRefunded', at: atOf(300), paymentReferenceID: card, refundAmount: 0, refundedSplit: [] }], {}),
    webhookEventTypeOf({ type: 'PaymentCancelled', at: atOf(1), paymentReferenceID: card }),
    webhookPaymentOf(p)
  )
  return out
}

const KEYS = Object.keys(pollution)

const pollutedBy = (keys: ReadonlyArray<string>): string => {
  const proto = Object.prototype as Record<string, unknown>
  for (const key of keys) {
    Object.defineProperty(proto, key, { value: pollution[key], configurable: true, writable: true, enumerable: false })
  }
  try {
    return seen(life())
  } finally {
    for (const key of keys) Reflect.deleteProperty(proto, key)
  }
}

describe('C3: every export of paysplit/http reads only own properties', () => {
  it('a whole life, and every building block, answers the same with Object.prototype polluted', () => {
    const clean = seen(life())
    expect(pollutedBy(KEYS)).toBe(clean)
    expect(clean).not.toContain('evil')
    expect(clean).not.toContain('olluted')
  })

  it.each(KEYS)('polluted by %s alone: the same answers', (key) => {
    expect(pollutedBy([key])).toBe(seen(life()))
  })
})
