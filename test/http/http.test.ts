/**
 * paysplit/http — routes, status codes and failure bodies (C6; I4, I7).
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  allowedMethods,
  errorResponse,
  handle,
  emptyWorld,
  httpStatusOf,
  matchRoute,
  mismatchResponse,
  routeTakesBody,
  type RouteName,
  type WireErrorCode
} from '../../src/http.js'
import { Session, cardRequest, idOf, invoiceRequest, KID, atOf } from '../support/http.fixtures.js'

const ID = '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10'

describe('routes (C6)', () => {
  it.each([
    ['/payments', { name: 'createPayment' }],
    [`/payments/${ID}/cancel`, { name: 'cancelPayment', paymentReferenceID: ID }],
    [`/payments/${ID}/charge`, { name: 'chargePayment', paymentReferenceID: ID }],
    [`/payments/${ID}/refund`, { name: 'refundPayment', paymentReferenceID: ID }],
    [`/payments/${ID}/refund/partially`, { name: 'refundPartially', paymentReferenceID: ID }],
    [`/payments/${ID}/adjust`, { name: 'adjustInvoice', paymentReferenceID: ID }]
  ])('POST %s is an endpoint', (path, route) => {
    expect(matchRoute('POST', path)).toStrictEqual(E.right(route))
  })

  it('a query string is ignored; a UUID in upper case is accepted', () => {
    expect(matchRoute('POST', '/payments?trace=1')).toStrictEqual(E.right({ name: 'createPayment' }))
    const upper = ID.toUpperCase()
    expect(matchRoute('POST', `/payments/${upper}/charge?x=y`)).toStrictEqual(
      E.right({ name: 'chargePayment', paymentReferenceID: upper })
    )
  })

  it.each([
    '/',
    '/payment',
    '/payments/',
    `/payments/${ID}/`,
    `/payments/${ID}/cancel/`,
    `/payments/${ID}/refund/fully`,
    `/payments/${ID}/partially`,
    `/payments/${ID}/capture`,
    `/v1/payments/${ID}/cancel`,
    `/PAYMENTS/${ID}/cancel`,
    '',
    '/customers',
    '/customers/',
    '/customers/a/b'
  ])('unknown path %j → 404 RouteNotFound', (path) => {
    expect(matchRoute('POST', path)).toStrictEqual(E.left({ reason: 'RouteNotFound' }))
    expect(allowedMethods(path)).toStrictEqual([])
    const { response } = handle(emptyWorld, { method: 'POST', path }, { at: atOf(0), paymentReferenceID: idOf(1) })
    expect(response.status).toBe(404)
    expect(response.body).toStrictEqual({
      success: false,
      error: { code: 'RouteNotFound', message: expect.any(String) as string }
    })
  })

  it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'post'])(
    'known path with method %s → 405 MethodNotAllowed with headers.allow, in the { success, error: { code, message } } shape on every endpoint',
    (method) => {
      const paths: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
        ['/payments', ['GET', 'POST']],
        [`/payments/${ID}/cancel`, ['POST']],
        [`/payments/${ID}/charge`, ['POST']],
        [`/payments/${ID}/refund`, ['POST']],
        ['/payments/not-a-uuid/cancel', ['POST']],
        [`/payments/${ID}`, ['GET']],
        ['/payments/not-a-uuid', ['GET']],
        ['/customers/customer-42', ['GET']],
        ['/customers/%zz', ['GET']]
      ]
      for (const [path, allow] of paths) {
        if (allow.includes(method)) continue
        expect(matchRoute(method, path)).toStrictEqual(E.left({ reason: 'MethodNotAllowed', allow }))
        expect(allowedMethods(path)).toStrictEqual(allow)
        // routing comes first: whatever the context
        const { response } = handle(emptyWorld, { method, path }, null as never)
        expect(response).toStrictEqual({
          status: 405,
          body: { success: false, error: { code: 'MethodNotAllowed', message: `This endpoint accepts ${allow.join(', ')} only.` } },
          headers: { allow: allow.join(', ') }
        })
      }
    }
  )

  it('a path id that is not a UUID → 404 PaymentNotFound, in the shape of its endpoint', () => {
    const send = (action: string) =>
      handle(emptyWorld, { method: 'POST', path: `/payments/not-a-uuid/${action}` }, { at: atOf(0), paymentReferenceID: idOf(1) }).response
    const message = 'No payment has this paymentReferenceID.'
    const code = 'PaymentNotFound'
    expect(send('cancel')).toStrictEqual({ status: 404, body: { response: null, success: false, error: message, code } })
    expect(send('refund')).toStrictEqual({ status: 404, body: { response: null, success: false, error: message, code } })
    expect(send('charge')).toStrictEqual({ status: 404, body: { success: false, error: message, code } })
    expect(send('refund/partially')).toStrictEqual({
      status: 404,
      body: { success: false, error: { code: 'PaymentNotFound', message } }
    })
    expect(send('adjust')).toStrictEqual({ status: 404, body: { success: false, error: { code: 'PaymentNotFound', message } } })
    // UUID-shaped but 8-4-4-4-12 with a non-hex digit
    expect(matchRoute('POST', '/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d1g/cancel')._tag).toBe('Left')
  })

  it('an unknown payment (a UUID nobody created) → 404 PaymentNotFound, in the shape of its endpoint', () => {
    const s = new Session()
    expect(s.post(ID, 'cancel')).toStrictEqual({
      status: 404,
      body: { response: null, success: false, error: 'No payment has this paymentReferenceID.', code: 'PaymentNotFound' }
    })
    expect(s.post(ID, 'charge').status).toBe(404)
    expect(s.post(ID, 'refund').status).toBe(404)
    expect(s.post(ID, 'refund/partially', { moneySplitPatch: [], newGrossAmount: 0 })).toStrictEqual({
      status: 404,
      body: { success: false, error: { code: 'PaymentNotFound', message: 'No payment has this paymentReferenceID.' } }
    })
    // existence is checked before the body's shape (C2 order)
    expect(s.post(ID, 'adjust', 'garbage').status).toBe(404)
  })

  it('which endpoints take a body', () => {
    const names: ReadonlyArray<[Exclude<RouteName, 'getPayment' | 'findPayment' | 'getCustomer'>, boolean]> = [
      ['createPayment', true],
      ['cancelPayment', false],
      ['chargePayment', false],
      ['refundPayment', false],
      ['refundPartially', true],
      ['adjustInvoice', true]
    ]
    for (const [name, takes] of names) {
      const route = name === 'createPayment' ? { name } : { name, paymentReferenceID: ID }
      expect(routeTakesBody(route)).toBe(takes)
    }
  })

  it('matchRoute never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (method, path) => {
        const r = matchRoute(method as string, path as string)
        expect(r._tag === 'Left' || r._tag === 'Right').toBe(true)
      })
    )
    fc.assert(
      fc.property(fc.constantFrom('POST', 'GET'), fc.string(), (method, path) => {
        const r = matchRoute(method, `/payments/${path}`)
        if (E.isLeft(r)) expect(mismatchResponse(r.left).status).toBeGreaterThanOrEqual(400)
      })
    )
  })
})

describe('httpStatusOf (C6: a status for every error code)', () => {
  // A Record over the whole union: the compiler fails this test when a code is added without a status.
  const expected: Record<WireErrorCode, number> = {
    ValidationFailed: 400,
    MissingCustomerExternalID: 400,
    GrossAmountMismatch: 400,
    PatchSplitMismatch: 400,
    SplitAmountIncrease: 400,
    NothingToChange: 400,
    KidMismatch: 400,
    PaymentNotFound: 404,
    RouteNotFound: 404,
    MethodNotAllowed: 405,
    PaymentAlreadyExists: 409,
    DuplicateExternalPaymentReference: 409,
    FormNotUsedForInvoice: 409,
    FormNotAllowedInStatus: 409,
    ChargeNotAllowedForInvoice: 409,
    ChargeNotAllowedForImmediateCharge: 409,
    ChargeNotAllowedInStatus: 409,
    InvoiceCannotBeCancelled: 409,
    CancelNotAllowedInStatus: 409,
    RefundNotAllowedInStatus: 409,
    NothingToRefund: 409,
    NotAnInvoice: 409,
    AdjustNotAllowedInStatus: 409,
    TransferNotAllowedInStatus: 409,
    ConcurrentModification: 409,
    IdempotencyKeyReused: 422,
    IdempotencyKeyInFlight: 409,
    PayloadTooLarge: 413,
    DuplicateKid: 409,
    CustomerNotFound: 404,
    UnmatchedTransfer: 404,
    InvalidContext: 500,
    UnsupportedSchemaVersion: 500
  }

  it.each(Object.entries(expected))('%s → %i', (code, status) => {
    expect(httpStatusOf({ code: code as WireErrorCode })).toBe(status)
  })

  it('a code paysplit does not know → 500', () => {
    expect(httpStatusOf({ code: 'Nonsense' as WireErrorCode })).toBe(500)
  })
})

describe('failure bodies (C6)', () => {
  const error = { code: 'CancelNotAllowedInStatus', message: 'Only Initiated or Reserved payments can be cancelled.' } as const

  it('cancel and full refund keep { response, success, error } with success false and error a message, plus the code', () => {
    for (const route of ['cancelPayment', 'refundPayment'] as const) {
      expect(errorResponse(route, error)).toStrictEqual({
        status: 409,
        body: { response: null, success: false, error: error.message, code: error.code }
      })
    }
  })

  it('charge keeps { success, error } with success false and error a message, plus the code', () => {
    expect(errorResponse('chargePayment', error)).toStrictEqual({ status: 409, body: { success: false, error: error.message, code: error.code } })
  })

  it('C6 a refusal of cancel, charge or refund carries its code: NothingToRefund and a status refusal told apart without reading the message', () => {
    const s = new Session()
    // an invoice adjusted to 0 is Charged with nothing to refund
    const invoice = s.create(invoiceRequest(), { kid: KID })
    const zero = s.payment(invoice).moneySplits.map((x) => ({ splitID: x.splitID, updateType: 'UpdateAmount', newAmount: 0 }))
    expect(s.post(invoice, 'adjust', { moneySplitPatch: zero, newGrossAmount: 0 }).status).toBe(200)
    const nothing = s.post(invoice, 'refund')
    expect(nothing).toMatchObject({ status: 409, body: { response: null, success: false, code: 'NothingToRefund' } })
    const card = s.create(cardRequest({ chargeImmediately: true }))
    expect(s.post(card, 'refund')).toMatchObject({ status: 409, body: { response: null, success: false, code: 'RefundNotAllowedInStatus' } })
    expect(s.post(card, 'charge')).toMatchObject({ status: 409, body: { success: false, code: 'ChargeNotAllowedForImmediateCharge' } })
    expect(s.post(invoice, 'cancel')).toMatchObject({ status: 409, body: { response: null, success: false, code: 'InvoiceCannotBeCancelled' } })
    // the seed's fields unchanged: error is still the message, a string
    expect(typeof (nothing.body as { error: unknown }).error).toBe('string')
  })

  it('every other endpoint: { success: false, error: { code, message, issues? } }, with the split lists of a PatchSplitMismatch', () => {
    const issues = [
      { path: 'currency', code: 'ValidationFailed' as const, reason: 'unknown_currency' as const, message: 'Unknown currency code.' },
      { path: 'grossAmount', code: 'ValidationFailed' as const, reason: 'too_small' as const, params: { min: 1 }, message: 'Must be at least 1.' }
    ]
    expect(errorResponse('createPayment', { code: 'ValidationFailed', message: 'bad', issues })).toStrictEqual({
      status: 400,
      body: { success: false, error: { code: 'ValidationFailed', message: 'bad', issues } }
    })
    expect(
      errorResponse('refundPartially', { code: 'PatchSplitMismatch', message: 'm', missing: [2], unknown: [9], repeated: [] })
    ).toStrictEqual({
      status: 400,
      body: { success: false, error: { code: 'PatchSplitMismatch', message: 'm', missing: [2], unknown: [9], repeated: [] } }
    })
    expect(errorResponse('adjustInvoice', { code: 'NotAnInvoice', message: 'm' })).toStrictEqual({
      status: 409,
      body: { success: false, error: { code: 'NotAnInvoice', message: 'm' } }
    })
  })
})

describe('I4 rule 1 and I7 item 1: the outcome of cancel, charge and full refund is readable from the status code alone', () => {
  type Step = 'complete' | 'fail' | 'charge' | 'cancel' | 'refund' | 'partial' | 'adjust' | 'transfer'
  const steps: ReadonlyArray<Step> = ['complete', 'fail', 'charge', 'cancel', 'refund', 'partial', 'adjust', 'transfer']

  it('for any history of a card or an invoice payment, 2xx ⇔ success true ⇔ error null, and 4xx ⇔ success false with a message', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('later', 'immediately', 'invoice'),
        fc.array(fc.constantFrom(...steps), { maxLength: 12 }),
        fc.boolean(),
        (kind, history, unknownId) => {
          const s = new Session()
          const id =
            kind === 'invoice'
              ? s.create(invoiceRequest(), { kid: KID })
              : s.create(cardRequest({ chargeImmediately: kind === 'immediately' }))
          const target = unknownId ? idOf(999) : id
          for (const step of history) {
            const p = s.payment(id)
            switch (step) {
              case 'complete':
                s.complete(id)
                break
              case 'fail':
                s.fail(id)
                break
              case 'transfer':
                s.transfer(id, 6000, KID)
                break
              case 'partial':
                s.post(target, 'refund/partially', p.moneySplits[0] && p.moneySplits[0].amount > 0 ? { ...patchReduce(p.moneySplits) } : {})
                break
              case 'adjust':
                s.post(target, 'adjust', { ...patchReduce(p.moneySplits) })
                break
              default: {
                const action = step === 'charge' ? 'charge' : step === 'cancel' ? 'cancel' : 'refund'
                const r = s.post(target, action)
                const body = r.body as unknown as { success: boolean; error: unknown; response?: unknown; code?: WireErrorCode }
                if (r.status >= 200 && r.status < 300) {
                  expect(r.status).toBe(200)
                  expect(body.success).toBe(true)
                  expect(body.error).toBeNull()
                  if (action !== 'charge') expect(typeof body.response).toBe('string')
                  expect(Object.keys(body).sort()).toStrictEqual(action === 'charge' ? ['error', 'success'] : ['error', 'response', 'success'])
                } else {
                  expect([404, 409]).toContain(r.status)
                  expect(body.success).toBe(false)
                  expect(typeof body.error).toBe('string')
                  if (action !== 'charge') expect(body.response).toBeNull()
                  // the code beside the message, the one the status was chosen by (C6)
                  expect(httpStatusOf({ code: body.code as WireErrorCode })).toBe(r.status)
                  expect(Object.keys(body).sort()).toStrictEqual(action === 'charge' ? ['code', 'error', 'success'] : ['code', 'error', 'response', 'success'])
                }
              }
            }
          }
        }
      )
    )
  })
})

/** A patch that lowers the first split with an amount by 100 (or to 0). */
const patchReduce = (splits: ReadonlyArray<{ splitID: number; amount: number }>) => {
  const first = splits.find((x) => x.amount > 0)
  const moneySplitPatch = splits.map((x) =>
    x === first
      ? { splitID: x.splitID, updateType: 'UpdateAmount', newAmount: Math.max(0, x.amount - 100) }
      : { splitID: x.splitID, updateType: 'DoNothing' }
  )
  const newGrossAmount = splits.reduce((sum, x) => sum + (x === first ? Math.max(0, x.amount - 100) : x.amount), 0)
  return { moneySplitPatch, newGrossAmount }
}
