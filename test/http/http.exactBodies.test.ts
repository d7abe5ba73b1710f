/**
 * Tests written against the survivors of a Stryker run on the wire mapping `paysplit/http`
 * (`src/http/responses.ts`, `src/http/routes.ts`, `src/service/webhooks.ts`; docs/testing.md, "Mutation testing"):
 * optional fields that a body or webhook carries only when set (absent, not `undefined`), the
 * sentences of the mismatch and adjustment responses (a message is part of the contract), the
 * path shapes at the edge of a route, a catch-all url that is the empty string, and a
 * `webhookEventTypeOf` that is given no object. Named after the behaviour, not after the mutants;
 * the comments name the mutants (line:col as of the report `reports/mutation/http.json`). The
 * survivors that no test can tell apart are explained in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import type { PaymentEvent } from '../../src/events.js'
import { allowedMethods, matchRoute } from '../../src/http/routes.js'
import { mismatchResponse } from '../../src/http/responses.js'
import { paymentCreatedOf } from '../../src/service/views.js'
import { webhookDeliveries, webhookEventTypeOf, webhookPaymentOf } from '../../src/service/webhooks.js'
import {
  CATCH_ALL,
  FEE_ACCOUNT,
  KID,
  OTHER_ACCOUNT,
  SELLER,
  Session,
  atOf,
  cardRequest,
  invoiceRequest,
  patchOf
} from '../support/http.fixtures.js'

const HOOK = 'https://hooks.example/initiated'

// -------------------------------------------------------------------------------------
// src/http/responses.ts
// -------------------------------------------------------------------------------------

describe('responses.ts', () => {
  it('paymentCreated carries externalObjectIdTag and description only when the request gave them (absent, not undefined)', () => {
    // kills 275:7 (`p.externalObjectIdTag !== undefined` → true), 276:7 (`p.description !== undefined` → true)
    const s = new Session()
    const id = s.create(cardRequest({ externalObjectIdTag: undefined, description: undefined }))
    const view = paymentCreatedOf(s.payment(id))
    expect(view).toStrictEqual({
      paymentReferenceID: id,
      externalPaymentReferenceID: 'order-1001',
      status: 'Initiated',
      environment: 'test',
      paymentGateway: 'creditcard',
      chargeImmediately: false,
      sellerConnectedAccountID: SELLER,
      currency: 'NOK',
      grossAmount: 10000,
      chargedAmount: 0,
      refundedAmount: 0,
      excessRefundedAmount: 0,
      customerExternalID: 'customer-42',
      successUrl: 'https://shop.example/ok',
      failedUrl: 'https://shop.example/failed',
      createdAt: atOf(1),
      updatedAt: atOf(1)
    })
    expect(Object.keys(view)).not.toContain('externalObjectIdTag')
    expect(Object.keys(view)).not.toContain('description')
  })

  it('a partial refund lists a refunded split without a description with no description key', () => {
    // kills 293:7 (`s.description !== undefined` → true in refundedSplitOf)
    const s = new Session()
    const id = s.create(
      cardRequest({
        chargeImmediately: true,
        moneySplitList: [
          { connectedAccountID: SELLER, amount: 9000, isFee: false },
          { connectedAccountID: FEE_ACCOUNT, amount: 1000, isFee: true }
        ]
      })
    )
    s.complete(id)
    const r = s.post(id, 'refund/partially', patchOf(s.payment(id), { 1: 6000 }))
    expect(r.status).toBe(200)
    const body = r.body as { refundedSplit: ReadonlyArray<object>; message: string }
    expect(body.refundedSplit).toStrictEqual([{ refundAmount: 3000, connectedAccountID: SELLER, isFee: false }])
    expect(Object.keys(body.refundedSplit[0] ?? {})).toStrictEqual(['refundAmount', 'connectedAccountID', 'isFee'])
    expect(body.message).toBe('3000 was refunded; 7000 remains charged.')
  })

  // An invoice of 10000 in splits 5000 (with description and externalID), 4000 and 1000 (fee), 3000 paid.
  const partlyPaidInvoice = (): { s: Session; id: string } => {
    const s = new Session()
    const id = s.create(
      invoiceRequest({
        moneySplitList: [
          { connectedAccountID: SELLER, amount: 5000, description: 'Hall', externalID: 'item-1', isFee: false },
          { connectedAccountID: OTHER_ACCOUNT, amount: 4000, isFee: false },
          { connectedAccountID: FEE_ACCOUNT, amount: 1000, isFee: true }
        ]
      }),
      { kid: KID }
    )
    const paid = s.transfer(id, 3000, KID)
    expect(E.isRight(paid)).toBe(true)
    return { s, id }
  }

  it('an adjustment of a partly paid invoice says what remains to be paid (new amount minus what was paid), and keeps the description and externalID of an adjusted split', () => {
    // kills 503:82 (`grossAmount - paidAmount` → `grossAmount + paidAmount`),
    // 301:7 (`s.description !== undefined` → false), 301:37 ({ description } → {}),
    // 302:7 (`s.externalID !== undefined` → false), 302:36 ({ externalID } → {})
    const { s, id } = partlyPaidInvoice()
    const r = s.post(id, 'adjust', patchOf(s.payment(id), { 1: 4000 }))
    expect(r.status).toBe(200)
    expect(r.body).toStrictEqual({
      splitList: [
        {
          splitID: 1,
          paymentReferenceID: id,
          connectedAccountID: SELLER,
          amount: 4000,
          description: 'Hall',
          insertTime: atOf(1),
          externalID: 'item-1',
          isFee: false
        },
        { splitID: 2, paymentReferenceID: id, connectedAccountID: OTHER_ACCOUNT, amount: 4000, insertTime: atOf(1), isFee: false },
        { splitID: 3, paymentReferenceID: id, connectedAccountID: FEE_ACCOUNT, amount: 1000, insertTime: atOf(1), isFee: true }
      ],
      adjustedSplit: [{ adjustedAmount: 1000, connectedAccountID: SELLER, description: 'Hall', externalID: 'item-1', isFee: false }],
      excessRefundedAmount: 0,
      status: 'Initiated',
      message: 'The invoice now amounts to 9000; 6000 remains to be paid.',
      success: true
    })
  })

  it('an adjustment down to exactly what was paid charges the invoice and mentions no excess', () => {
    // kills 502:14 (`excess > 0` → true), 502:14 (`excess > 0` → `excess >= 0`), 502:78 ('.' → "")
    const { s, id } = partlyPaidInvoice()
    const r = s.post(id, 'adjust', patchOf(s.payment(id), { 1: 2000, 2: 0 }))
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ excessRefundedAmount: 0, status: 'Charged', success: true })
    expect((r.body as { message: string }).message).toBe(
      'The invoice now amounts to 3000; what was paid covers it, so it is Charged.'
    )
  })

  it('an adjustment below what was paid charges the invoice and names the excess refunded', () => {
    // the other side of 502:14: the excess sentence is there when there is an excess
    const { s, id } = partlyPaidInvoice()
    const r = s.post(id, 'adjust', patchOf(s.payment(id), { 1: 1000, 2: 0 }))
    expect(r.body).toMatchObject({ excessRefundedAmount: 1000, status: 'Charged', success: true })
    expect((r.body as { message: string }).message).toBe(
      'The invoice now amounts to 2000; what was paid covers it, so it is Charged and the excess 1000 is refunded.'
    )
  })

  it('a path that no endpoint has → 404 with the exact RouteNotFound sentence', () => {
    // kills 371:73 ('No endpoint has this path.' → "")
    expect(mismatchResponse({ reason: 'RouteNotFound' })).toStrictEqual({
      status: 404,
      body: { success: false, error: { code: 'RouteNotFound', message: 'No endpoint has this path.' } }
    })
  })

  it('a 405 lists every allowed method, comma-separated', () => {
    // kills 375:56 (', ' → ""): matchRoute only ever allows POST, but mismatchResponse is exported
    expect(mismatchResponse({ reason: 'MethodNotAllowed', allow: ['POST', 'PUT'] })).toStrictEqual({
      status: 405,
      body: { success: false, error: { code: 'MethodNotAllowed', message: 'This endpoint accepts POST, PUT only.' } },
      headers: { allow: 'POST, PUT' }
    })
  })
})

// -------------------------------------------------------------------------------------
// src/http/routes.ts
// -------------------------------------------------------------------------------------

describe('routes.ts', () => {
  it('a path with an action but no id segment (/payments/cancel) is no endpoint', () => {
    // kills 84:7 (`slash < 0` → false): the mutant read `/payments/cancel` as cancel of payment "cance"
    // (`/payments/cancel` is GET /payments/{id} with an id that is no UUID: never a POST endpoint)
    for (const action of ['cancel', 'charge', 'refund', 'adjust']) {
      expect(matchRoute('POST', `/payments/${action}`)).toStrictEqual(E.left({ reason: 'MethodNotAllowed', allow: ['GET'] }))
      expect(allowedMethods(`/payments/${action}`)).toStrictEqual(['GET'])
    }
  })

  it('an empty id (/payments//cancel) is the endpoint with an id that is no UUID: 404 PaymentNotFound in its shape', () => {
    // kills 84:7 (`slash < 0` → `slash <= 0`)
    expect(matchRoute('POST', '/payments//cancel')).toStrictEqual(
      E.left({ reason: 'PaymentNotFound', route: { name: 'cancelPayment', paymentReferenceID: '' } })
    )
    expect(allowedMethods('/payments//charge')).toStrictEqual(['POST'])
    expect(matchRoute('GET', '/payments//charge')).toStrictEqual(E.left({ reason: 'MethodNotAllowed', allow: ['POST'] }))
  })
})

// -------------------------------------------------------------------------------------
// src/service/webhooks.ts
// -------------------------------------------------------------------------------------

describe('webhooks.ts', () => {
  it('webhookEventTypeOf of no object (null, undefined) is none and does not throw', () => {
    // kills 89:25 (`typeof event === 'object'` → true: `undefined.type` would throw)
    expect(webhookEventTypeOf(null as unknown as PaymentEvent)).toStrictEqual(O.none)
    expect(webhookEventTypeOf(undefined as unknown as PaymentEvent)).toStrictEqual(O.none)
    expect(webhookEventTypeOf('PaymentCharged' as unknown as PaymentEvent)).toStrictEqual(O.none)
  })

  it('kidNorwayInvoice is for invoices only: a card payment built by hand with a kid has none', () => {
    // kills 146:7 (`payment.kind === 'invoice'` → true): the decider never gives a card a kid, but
    // the Payment type allows one, and C5 / the field's doc reserve kidNorwayInvoice to invoices
    const s = new Session()
    const card = s.payment(s.create(cardRequest()))
    expect(Object.keys(webhookPaymentOf(card))).toStrictEqual(['paymentCreated', 'moneySplit', 'metaData'])
    expect(Object.keys(webhookPaymentOf({ ...card, kid: KID }))).toStrictEqual(['paymentCreated', 'moneySplit', 'metaData'])
    const invoice = webhookPaymentOf(s.payment(s.create(invoiceRequest(), { kid: KID })))
    expect(invoice.kidNorwayInvoice).toStrictEqual({ kid: KID, paidAmount: 0 })
  })

  it('a catch-all url that is the empty string receives nothing; subscriptions still do', () => {
    // kills 202:35 (`catchAll !== ''` → true), 202:48 ('' → "Stryker was here!")
    // handle refuses it: the context's catchAllUrl must be an absolute http(s) URL (C6, InvalidContext)
    expect(new Session('').send('POST', '/payments', cardRequest()).status).toBe(500)
    const s = new Session(null)
    const id = s.create(cardRequest({ webhookSubscriptions: [{ eventType: 'Initiated', url: HOOK }] }))
    expect(s.deliveries.map((d) => [d.eventType, d.url, d.payload.eventID])).toStrictEqual([['Initiated', HOOK, `${id}:1`]])
    const p = s.payment(id)
    const cancelled: PaymentEvent = { type: 'PaymentCancelled', at: atOf(9), paymentReferenceID: p.paymentReferenceID }
    const unsubscribed = { ...p, webhookSubscriptions: [] }
    expect(webhookDeliveries(unsubscribed, [cancelled], { catchAllUrl: '' })).toStrictEqual([])
    expect(webhookDeliveries(unsubscribed, [cancelled], { catchAllUrl: CATCH_ALL }).map((d) => d.url)).toStrictEqual([CATCH_ALL])
  })
})
