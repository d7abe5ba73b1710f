/**
 * paysplit/http — the in-memory service model (C6): each endpoint through success and every
 * rejection the interface names, with exact bodies and status codes; customers; idempotent creates;
 * form and bank operations; immutability and totality.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  completeForm,
  emptyWorld,
  failForm,
  getCustomer,
  getPayment,
  handle,
  receiveTransfer,
  type World
} from '../../src/http.js'
import {
  CATCH_ALL,
  FEE_ACCOUNT,
  KID,
  OTHER_KID,
  SELLER,
  OTHER_ACCOUNT,
  Session,
  atOf,
  cardRequest,
  idOf,
  invoiceRequest,
  patchOf
} from '../support/http.fixtures.js'

const any = <T>(ctor: abstract new (...a: never[]) => T): T => expect.any(ctor) as T

/** What a world holds, entry by entry, by identity: to prove a call did not change it. */
const snapshot = (w: World) => ({
  payments: [...w.payments.entries()],
  customers: [...w.customers.entries()],
  references: [...w.references.entries()]
})

describe('POST /payments (I2.1, I2.4; C6)', () => {
  it('a create that creates → 201 { paymentIntent: { paymentCreated, moneySplit } } with the I2.4 records', () => {
    const s = new Session()
    const r = s.send('POST', '/payments', cardRequest(), { paymentReferenceID: idOf(1) })
    const id = idOf(1)
    expect(r).toStrictEqual({
      status: 201,
      body: {
        paymentIntent: {
          paymentCreated: {
            paymentReferenceID: id,
            externalPaymentReferenceID: 'order-1001',
            status: 'Initiated',
            environment: 'test',
            paymentGateway: 'creditcard',
            chargeImmediately: false,
            sellerConnectedAccountID: SELLER,
            externalObjectIdTag: 'cart-7',
            description: 'Two tickets',
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
          },
          moneySplit: [
            {
              splitID: 1,
              paymentReferenceID: id,
              connectedAccountID: SELLER,
              amount: 9000,
              description: 'Tickets',
              insertTime: atOf(1),
              externalID: 'item-1',
              isFee: false
            },
            {
              splitID: 2,
              paymentReferenceID: id,
              connectedAccountID: FEE_ACCOUNT,
              amount: 1000,
              description: 'Platform fee',
              insertTime: atOf(1),
              isFee: true
            }
          ]
        }
      }
    })
    expect(s.deliveries.map((d) => [d.url, d.eventType, d.payload.eventID])).toStrictEqual([[CATCH_ALL, 'Initiated', `${id}:1`]])
    expect(O.isSome(getPayment(s.world, id))).toBe(true)
  })

  it('an invoice create carries its KID in paymentCreated', () => {
    const s = new Session()
    const r = s.send('POST', '/payments', invoiceRequest(), { kid: KID })
    expect(r.status).toBe(201)
    const created = (r.body as unknown as { paymentIntent: { paymentCreated: Record<string, unknown> } }).paymentIntent.paymentCreated
    expect(created['kid']).toBe(KID)
    expect(created['paymentGateway']).toBe('invoice')
    expect('chargeImmediately' in created).toBe(false)
  })

  it.each([
    ['MissingCustomerExternalID', cardRequest({ customerExternalID: '' })],
    ['ValidationFailed', cardRequest({ currency: 'XXY' })],
    ['ValidationFailed', 'not an object'],
    ['ValidationFailed', undefined],
    ['GrossAmountMismatch', cardRequest({ grossAmount: 9999 })]
  ])('I7 item 2: an invalid request → 400 %s with its issues, nothing stored, no webhook', (code, body) => {
    const s = new Session()
    const before = s.world
    const r = s.send('POST', '/payments', body)
    expect(r.status).toBe(400)
    expect(r.body).toStrictEqual({
      success: false,
      error: { code, message: any(String), issues: expect.arrayContaining([expect.objectContaining({ code })]) as unknown }
    })
    expect(s.world).toBe(before)
    expect(s.deliveries).toStrictEqual([])
  })

  it('all problems at once: every field error of the request in issues', () => {
    const s = new Session()
    const r = s.send('POST', '/payments', cardRequest({ currency: 'nok', environment: 'prod', grossAmount: 1 }))
    const issues = (r.body as unknown as { error: { issues: Array<{ path: string }> } }).error.issues.map((i) => i.path)
    expect(issues).toEqual(expect.arrayContaining(['currency', 'environment', 'grossAmount']))
  })

  it('C6: an invoice without a KID in the context → 500 InvalidContext at kid (the service\'s fault), nothing changed', () => {
    const s = new Session()
    const before = s.world
    const r = s.send('POST', '/payments', invoiceRequest())
    expect(r.status).toBe(500)
    const error = (r.body as unknown as { error: { code: string; issues: Array<{ path: string }> } }).error
    expect(error.code).toBe('InvalidContext')
    expect(error.issues.map((i) => i.path)).toEqual(['kid'])
    expect(s.world).toBe(before)
    // a request that is not valid is the client's 400 first, KID or not
    expect(s.send('POST', '/payments', invoiceRequest({ grossAmount: 1 })).status).toBe(400)
  })

  it('an id the context reuses → 409 PaymentAlreadyExists', () => {
    const s = new Session()
    s.send('POST', '/payments', cardRequest(), { paymentReferenceID: idOf(7) })
    const r = s.send('POST', '/payments', cardRequest({ externalPaymentReferenceID: 'order-1002' }), { paymentReferenceID: idOf(7) })
    expect(r).toStrictEqual({ status: 409, body: { success: false, error: { code: 'PaymentAlreadyExists', message: any(String) } } })
  })
})

describe('externalPaymentReferenceID is unique (C6)', () => {
  it('the same request again → 200 with the stored payment, no new events, no webhooks, the world unchanged', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    const world = s.world
    const hooks = s.deliveries.length
    // same request, keys in another order: equal after decoding
    const reordered = Object.fromEntries(Object.entries(cardRequest()).reverse())
    const r = s.send('POST', '/payments', reordered)
    expect(r.status).toBe(200)
    expect((r.body as unknown as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated.paymentReferenceID).toBe(id)
    expect(s.world).toBe(world)
    expect(s.deliveries.length).toBe(hooks)
    expect(s.payment(id).version).toBe(1)
  })

  it('a repeat after the payment moved on reports the payment as stored now', () => {
    const s = new Session()
    const id = s.create(cardRequest({ chargeImmediately: true }))
    s.complete(id)
    const r = s.send('POST', '/payments', cardRequest({ chargeImmediately: true }))
    expect(r.status).toBe(200)
    expect((r.body as unknown as { paymentIntent: { paymentCreated: { status: string } } }).paymentIntent.paymentCreated.status).toBe('Charged')
  })

  it('a different request with a used reference → 409 DuplicateExternalPaymentReference, nothing changed', () => {
    const s = new Session()
    s.create(cardRequest())
    const world = s.world
    const r = s.send('POST', '/payments', cardRequest({ description: 'Three tickets' }))
    expect(r).toStrictEqual({
      status: 409,
      body: { success: false, error: { code: 'DuplicateExternalPaymentReference', message: any(String) } }
    })
    expect(s.world).toBe(world)
  })

  it('C6: an invoice repeat ignores the context\'s KID: the stored invoice keeps its own (a fresh KID per request retries safely)', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    const world = s.world
    for (const extra of [{ kid: KID }, { kid: OTHER_KID }, { kid: 'not a KID' }, {}]) {
      const same = s.send('POST', '/payments', invoiceRequest(), extra)
      expect(same.status).toBe(200)
      const created = (same.body as unknown as { paymentIntent: { paymentCreated: { paymentReferenceID: string; kid: string } } }).paymentIntent.paymentCreated
      expect(created.paymentReferenceID).toBe(id)
      expect(created.kid).toBe(KID)
      expect(s.world).toBe(world)
    }
  })

  it('a card repeat ignores a KID in the context (cards have none)', () => {
    const s = new Session()
    s.create(cardRequest())
    expect(s.send('POST', '/payments', cardRequest(), { kid: KID }).status).toBe(200)
  })

  it('a failed create leaves the reference free', () => {
    const s = new Session()
    expect(s.send('POST', '/payments', cardRequest({ grossAmount: 1 })).status).toBe(400)
    expect(s.send('POST', '/payments', cardRequest()).status).toBe(201)
  })
})

describe('customers (I1 item 3, I2.1 customer; C6)', () => {
  it('created from the request, updated by later requests: given fields overwrite, absent ones keep; untouched without customer', () => {
    const s = new Session()
    s.create(cardRequest({ customer: { name: 'Kari Nordmann', email: 'kari@example.no', customerType: 'Individual' } }))
    expect(getCustomer(s.world, 'customer-42')).toStrictEqual(
      O.some({ name: 'Kari Nordmann', email: 'kari@example.no', customerType: 'Individual' })
    )
    s.create(cardRequest({ externalPaymentReferenceID: 'order-1002', customer: { email: 'kari@nordmann.no', mobilePrefix: '+47', mobile: '41234567' } }))
    expect(getCustomer(s.world, 'customer-42')).toStrictEqual(
      O.some({ name: 'Kari Nordmann', email: 'kari@nordmann.no', mobilePrefix: '+47', mobile: '41234567', customerType: 'Individual' })
    )
    const before = s.world.customers.get('customer-42')
    s.create(cardRequest({ externalPaymentReferenceID: 'order-1003' }))
    expect(s.world.customers.get('customer-42')).toBe(before)
    expect(getCustomer(s.world, 'someone-else')).toStrictEqual(O.none)
  })

  it('a failed create or an idempotent repeat does not touch the customer', () => {
    const s = new Session()
    s.create(cardRequest({ customer: { name: 'A' } }))
    s.send('POST', '/payments', cardRequest({ externalPaymentReferenceID: 'x', grossAmount: 5, customer: { name: 'B' } }))
    s.send('POST', '/payments', cardRequest({ customer: { name: 'A' } }))
    expect(getCustomer(s.world, 'customer-42')).toStrictEqual(O.some({ name: 'A' }))
  })
})

describe('POST /payments/{id}/cancel (I3 rules 1 and 4; I2.6)', () => {
  it('Initiated or Reserved → 200 { response, success: true, error: null } and a Cancelled webhook', () => {
    for (const reserve of [false, true]) {
      const s = new Session()
      const id = s.create(cardRequest())
      if (reserve) s.complete(id)
      expect(s.post(id, 'cancel')).toStrictEqual({
        status: 200,
        body: { response: 'The payment was cancelled.', success: true, error: null }
      })
      expect(s.payment(id).status).toBe('Cancelled')
      expect(s.deliveries.at(-1)?.eventType).toBe('Cancelled')
    }
  })

  it('rule 4: an invoice cannot be cancelled → 409 InvoiceCannotBeCancelled', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    const r = s.post(id, 'cancel')
    expect(r).toStrictEqual({ status: 409, body: { response: null, success: false, error: any(String), code: 'InvoiceCannotBeCancelled' } })
    expect(s.payment(id).status).toBe('Initiated')
  })

  it('rule 1: outside Initiated or Reserved → 409 CancelNotAllowedInStatus (Charged, Cancelled, Refunded)', () => {
    const s = new Session()
    const id = s.create(cardRequest({ chargeImmediately: true }))
    s.complete(id)
    const hooks = s.deliveries.length
    expect(s.post(id, 'cancel').status).toBe(409)
    s.post(id, 'refund')
    expect(s.post(id, 'cancel').status).toBe(409)
    const s2 = new Session()
    const id2 = s2.create(cardRequest())
    s2.post(id2, 'cancel')
    expect(s2.post(id2, 'cancel')).toStrictEqual({ status: 409, body: { response: null, success: false, error: any(String), code: 'CancelNotAllowedInStatus' } })
    expect(s.deliveries.length).toBe(hooks + 1) // only the refund's
  })
})

describe('POST /payments/{id}/charge (I3 rule 3; I2.6)', () => {
  it('Reserved (chargeImmediately false) → 200 { success: true, error: null } and a Charged webhook', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    s.complete(id)
    expect(s.post(id, 'charge')).toStrictEqual({ status: 200, body: { success: true, error: null } })
    expect(s.payment(id)).toMatchObject({ status: 'Charged', chargedAmount: 10000 })
    expect(s.deliveries.at(-1)?.eventType).toBe('Charged')
  })

  it('rule 3: chargeImmediately true → 409 ChargeNotAllowedForImmediateCharge', () => {
    const s = new Session()
    const id = s.create(cardRequest({ chargeImmediately: true }))
    expect(s.post(id, 'charge')).toStrictEqual({ status: 409, body: { success: false, error: any(String), code: 'ChargeNotAllowedForImmediateCharge' } })
  })

  it('an invoice → 409; Initiated → 409 ChargeNotAllowedInStatus; twice → 409', () => {
    const s = new Session()
    const inv = s.create(invoiceRequest(), { kid: KID })
    expect(s.post(inv, 'charge').status).toBe(409)
    const id = s.create(cardRequest())
    expect(s.post(id, 'charge').status).toBe(409)
    s.complete(id)
    expect(s.post(id, 'charge').status).toBe(200)
    expect(s.post(id, 'charge')).toStrictEqual({ status: 409, body: { success: false, error: any(String), code: 'ChargeNotAllowedInStatus' } })
  })
})

describe('POST /payments/{id}/refund (I3 rule 2; I2.6)', () => {
  it('Charged → 200 { response, success: true, error: null }; every split back to 0; a Refunded webhook', () => {
    const s = new Session()
    const id = s.create(cardRequest({ chargeImmediately: true }))
    s.complete(id)
    expect(s.post(id, 'refund')).toStrictEqual({
      status: 200,
      body: { response: 'The payment was refunded in full.', success: true, error: null }
    })
    expect(s.payment(id)).toMatchObject({ status: 'Refunded', grossAmount: 0, refundedAmount: 10000, chargedAmount: 10000 })
    expect(s.deliveries.at(-1)?.eventType).toBe('Refunded')
  })

  it('rule 2: not Charged → 409 RefundNotAllowedInStatus (Initiated, Reserved, Cancelled, Refunded)', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    expect(s.post(id, 'refund')).toStrictEqual({ status: 409, body: { response: null, success: false, error: any(String), code: 'RefundNotAllowedInStatus' } })
    s.complete(id)
    expect(s.post(id, 'refund').status).toBe(409)
    s.post(id, 'charge')
    expect(s.post(id, 'refund').status).toBe(200)
    expect(s.post(id, 'refund').status).toBe(409)
  })

  it('a charged payment with nothing left (an invoice adjusted to 0) → 409 NothingToRefund', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    expect(s.post(id, 'adjust', patchOf(s.payment(id), { 1: 0, 2: 0, 3: 0 })).status).toBe(200)
    expect(s.payment(id).status).toBe('Charged')
    expect(s.post(id, 'refund')).toStrictEqual({ status: 409, body: { response: null, success: false, error: any(String), code: 'NothingToRefund' } })
  })
})

describe('POST /payments/{id}/refund/partially (I2.5, I2.6, I4 rule 3)', () => {
  const charged = () => {
    const s = new Session()
    const id = s.create(cardRequest({ chargeImmediately: true }))
    s.complete(id)
    return { s, id }
  }

  it('Charged → 200 { splitList, refundedSplit, message, success }: remaining splits and what was returned; a PartiallyRefunded webhook', () => {
    const { s, id } = charged()
    const r = s.post(id, 'refund/partially', patchOf(s.payment(id), { 1: 6000 }))
    expect(r).toStrictEqual({
      status: 200,
      body: {
        splitList: [
          { splitID: 1, paymentReferenceID: id, connectedAccountID: SELLER, amount: 6000, description: 'Tickets', insertTime: atOf(1), externalID: 'item-1', isFee: false },
          { splitID: 2, paymentReferenceID: id, connectedAccountID: FEE_ACCOUNT, amount: 1000, description: 'Platform fee', insertTime: atOf(1), isFee: true }
        ],
        refundedSplit: [{ refundAmount: 3000, connectedAccountID: SELLER, description: 'Tickets', externalID: 'item-1', isFee: false }],
        message: '3000 was refunded; 7000 remains charged.',
        success: true
      }
    })
    expect(s.payment(id)).toMatchObject({ status: 'Charged', grossAmount: 7000, refundedAmount: 3000 })
    expect(s.deliveries.at(-1)?.eventType).toBe('PartiallyRefunded')
  })

  it('a deleted split leaves splitList and is refunded whole', () => {
    const { s, id } = charged()
    const r = s.post(id, 'refund/partially', patchOf(s.payment(id), { 2: 'delete' }))
    const body = r.body as unknown as { splitList: Array<{ splitID: number }>; refundedSplit: Array<{ refundAmount: number; isFee: boolean }> }
    expect(body.splitList.map((x) => x.splitID)).toStrictEqual([1])
    expect(body.refundedSplit).toStrictEqual([{ refundAmount: 1000, connectedAccountID: FEE_ACCOUNT, description: 'Platform fee', isFee: true }])
  })

  it('a partial refund of everything → 200, the payment Refunded, webhooks PartiallyRefunded then Refunded', () => {
    const { s, id } = charged()
    const hooks = s.deliveries.length
    const r = s.post(id, 'refund/partially', patchOf(s.payment(id), { 1: 0, 2: 'delete' }))
    expect(r.status).toBe(200)
    expect((r.body as unknown as { message: string }).message).toBe('10000 was refunded; nothing remains, so the payment is now Refunded.')
    expect(s.payment(id).status).toBe('Refunded')
    expect(s.deliveries.slice(hooks).map((d) => [d.eventType, d.payload.eventID])).toStrictEqual([
      ['PartiallyRefunded', `${id}:3`],
      ['Refunded', `${id}:4`]
    ])
  })

  it.each([
    ['PatchSplitMismatch', (p: ReturnType<typeof patchOf>) => ({ ...p, moneySplitPatch: p.moneySplitPatch.slice(1) })],
    ['SplitAmountIncrease', () => ({ moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 9001 }, { splitID: 2, updateType: 'DoNothing' }], newGrossAmount: 10001 })],
    ['GrossAmountMismatch', (p: ReturnType<typeof patchOf>) => ({ ...p, newGrossAmount: p.newGrossAmount + 1 })],
    ['NothingToChange', () => ({ moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }, { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: false }], newGrossAmount: 10000 })],
    ['ValidationFailed', () => ({ moneySplitPatch: 'all of it' })]
  ])('I7 item 2 and C4: %s → 400 { success: false, error: { code, ... } }, nothing changed', (code, make) => {
    const { s, id } = charged()
    const world = s.world
    const r = s.post(id, 'refund/partially', make(patchOf(s.payment(id), { 1: 8000 })))
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ success: false, error: { code } })
    expect(s.world).toBe(world)
  })

  it('PatchSplitMismatch names the missing, unknown and repeated splitIDs', () => {
    const { s, id } = charged()
    const r = s.post(id, 'refund/partially', {
      moneySplitPatch: [
        { splitID: 1, updateType: 'DoNothing' },
        { splitID: 1, updateType: 'DoNothing' },
        { splitID: 7, updateType: 'DoNothing' }
      ],
      newGrossAmount: 9000
    })
    expect(r.body).toStrictEqual({
      success: false,
      error: { code: 'PatchSplitMismatch', message: any(String), missing: [2], unknown: [7], repeated: [1] }
    })
  })

  it('rule 2: not Charged → 409 RefundNotAllowedInStatus, checked before the patch (even a malformed one)', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    expect(s.post(id, 'refund/partially', { nonsense: true })).toStrictEqual({
      status: 409,
      body: { success: false, error: { code: 'RefundNotAllowedInStatus', message: any(String) } }
    })
  })
})

describe('POST /payments/{id}/adjust (I3 adjust rows; C6 body)', () => {
  it('an unpaid invoice lowered → 200 { splitList, adjustedSplit, excessRefundedAmount, status, message, success }, stays Initiated', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    const r = s.post(id, 'adjust', patchOf(s.payment(id), { 2: 'delete' }))
    expect(r).toStrictEqual({
      status: 200,
      body: {
        splitList: [
          { splitID: 1, paymentReferenceID: id, connectedAccountID: SELLER, amount: 5000, insertTime: atOf(1), isFee: false },
          { splitID: 3, paymentReferenceID: id, connectedAccountID: FEE_ACCOUNT, amount: 1000, insertTime: atOf(1), isFee: true }
        ],
        adjustedSplit: [{ adjustedAmount: 4000, connectedAccountID: OTHER_ACCOUNT, isFee: false }],
        excessRefundedAmount: 0,
        status: 'Initiated',
        message: 'The invoice now amounts to 6000; 6000 remains to be paid.',
        success: true
      }
    })
    expect(s.deliveries.at(-1)?.eventType).toBe('InvoiceAdjusted')
  })

  it('a partly paid invoice lowered to at most what was paid → Charged, the excess refunded; webhooks InvoiceAdjusted then Charged', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    expect(E.isRight(s.transfer(id, 7000, KID))).toBe(true)
    const hooks = s.deliveries.length
    const r = s.post(id, 'adjust', patchOf(s.payment(id), { 1: 3000, 2: 2000 }))
    expect(r.body).toMatchObject({ excessRefundedAmount: 1000, status: 'Charged', success: true })
    expect((r.body as unknown as { message: string }).message).toBe(
      'The invoice now amounts to 6000; what was paid covers it, so it is Charged and the excess 1000 is refunded.'
    )
    expect(s.payment(id)).toMatchObject({ status: 'Charged', grossAmount: 6000, paidAmount: 7000, chargedAmount: 7000, refundedAmount: 1000, excessRefundedAmount: 1000 })
    expect(s.deliveries.slice(hooks).map((d) => d.eventType)).toStrictEqual(['InvoiceAdjusted', 'Charged'])
  })

  it('adjusted to zero → Charged (I3)', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    const r = s.post(id, 'adjust', patchOf(s.payment(id), { 1: 'delete', 2: 'delete', 3: 'delete' }))
    expect(r.body).toMatchObject({ splitList: [], status: 'Charged', excessRefundedAmount: 0 })
  })

  it('a card → 409 NotAnInvoice; a Charged invoice → 409 AdjustNotAllowedInStatus; patch errors → 400', () => {
    const s = new Session()
    const card = s.create(cardRequest())
    expect(s.post(card, 'adjust', patchOf(s.payment(card), { 1: 1 }))).toStrictEqual({
      status: 409,
      body: { success: false, error: { code: 'NotAnInvoice', message: any(String) } }
    })
    const inv = s.create(invoiceRequest(), { kid: KID })
    expect(s.post(inv, 'adjust', patchOf(s.payment(inv), { 1: 6000 })).body).toMatchObject({ error: { code: 'SplitAmountIncrease' } })
    s.transfer(inv, 10000, KID)
    expect(s.post(inv, 'adjust', patchOf(s.payment(inv), { 1: 1 })).body).toMatchObject({ error: { code: 'AdjustNotAllowedInStatus' } })
  })
})

describe('the payment form and the bank (C6)', () => {
  it('completeForm: chargeImmediately → Charged, else Reserved; the webhook of that status', () => {
    const s = new Session()
    const later = s.create(cardRequest())
    const now = s.create(cardRequest({ externalPaymentReferenceID: 'order-2', chargeImmediately: true }))
    expect(s.complete(later)).toMatchObject(E.right({ status: 'Reserved' }))
    expect(s.deliveries.at(-1)?.eventType).toBe('Reserved')
    expect(s.complete(now)).toMatchObject(E.right({ status: 'Charged', chargedAmount: 10000 }))
    expect(s.deliveries.at(-1)?.eventType).toBe('Charged')
    expect(s.complete(now)).toMatchObject(E.left({ code: 'FormNotAllowedInStatus' }))
  })

  it('failForm: stays Initiated, attempt recorded, no webhook', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    const hooks = s.deliveries.length
    expect(s.fail(id, 'card declined')).toMatchObject(E.right({ status: 'Initiated', formAttempts: [{ at: atOf(2), reason: 'card declined' }] }))
    expect(s.deliveries.length).toBe(hooks)
  })

  it('the form is not used for invoices → FormNotUsedForInvoice', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    expect(s.complete(id)).toMatchObject(E.left({ code: 'FormNotUsedForInvoice' }))
    expect(s.fail(id)).toMatchObject(E.left({ code: 'FormNotUsedForInvoice' }))
  })

  it('receiveTransfer: partial transfers add up; the one that covers the amount charges it (excess refunded) and sends Charged', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    const hooks = s.deliveries.length
    expect(s.transfer(id, 4000, KID)).toMatchObject(E.right({ status: 'Initiated', paidAmount: 4000 }))
    expect(s.deliveries.length).toBe(hooks)
    expect(s.transfer(id, 6500, KID)).toMatchObject(E.right({ status: 'Charged', paidAmount: 10500, chargedAmount: 10500, excessRefundedAmount: 500 }))
    expect(s.deliveries.slice(hooks).map((d) => [d.eventType, d.payload.eventID])).toStrictEqual([['Charged', `${id}:4`]])
  })

  it('receiveTransfer: wrong KID → KidMismatch; a card → NotAnInvoice; bad amount → ValidationFailed; unknown → PaymentNotFound', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    const card = s.create(cardRequest())
    expect(s.transfer(id, 100, OTHER_KID)).toMatchObject(E.left({ code: 'KidMismatch' }))
    expect(s.transfer(card, 100, KID)).toMatchObject(E.left({ code: 'NotAnInvoice' }))
    expect(s.transfer(id, 0, KID)).toMatchObject(E.left({ code: 'ValidationFailed' }))
    expect(s.transfer(idOf(999), 100, KID)).toMatchObject(E.left({ code: 'PaymentNotFound' }))
  })

  it('operations on an unknown payment leave the world as it was', () => {
    const { world: w, result: r, deliveries: d } = completeForm(emptyWorld, idOf(5), { at: atOf(1) })
    expect(w).toBe(emptyWorld)
    expect(r).toMatchObject(E.left({ code: 'PaymentNotFound' }))
    expect(d).toStrictEqual([])
    expect(failForm(emptyWorld, idOf(5), { at: atOf(1) }).result).toMatchObject(E.left({ code: 'PaymentNotFound' }))
    expect(receiveTransfer(emptyWorld, idOf(5), { amount: 1, kid: KID }, { at: atOf(1) }).result).toMatchObject(E.left({ code: 'PaymentNotFound' }))
  })
})

describe('reads', () => {
  it('getPayment finds a payment by its id in either case; getCustomer by customerExternalID', () => {
    const s = new Session()
    const id = s.create(cardRequest({ customer: { name: 'Ola' } }))
    expect(getPayment(s.world, id.toUpperCase())).toStrictEqual(O.some(s.payment(id)))
    expect(getPayment(s.world, idOf(999))).toStrictEqual(O.none)
    expect(getCustomer(s.world, 'customer-42')).toStrictEqual(O.some({ name: 'Ola' }))
    expect(getCustomer(s.world, '__proto__')).toStrictEqual(O.none)
  })

  it('a path id in upper case reaches the payment', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    expect(s.post(id.toUpperCase(), 'cancel').status).toBe(200)
  })
})

describe('the world is an immutable value', () => {
  type Op = { kind: 'create' | 'card' | 'invoice' | 'complete' | 'charge' | 'cancel' | 'refund' | 'partial' | 'adjust' | 'transfer' | 'fail'; n: number }
  const op: fc.Arbitrary<Op> = fc.record({
    kind: fc.constantFrom('create', 'card', 'invoice', 'complete', 'charge', 'cancel', 'refund', 'partial', 'adjust', 'transfer', 'fail'),
    n: fc.nat(3)
  })

  it('no call changes the world it is given; a failure returns that very world', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        let world: World = emptyWorld
        let clock = 0
        const ids: Array<string> = []
        for (const { kind, n } of ops) {
          clock += 1
          const at = atOf(clock)
          const before = snapshot(world)
          const id = ids[n % Math.max(1, ids.length)] ?? idOf(500)
          let next: World
          let failed: boolean
          switch (kind) {
            case 'create':
            case 'card':
            case 'invoice': {
              const body = kind === 'invoice' ? invoiceRequest({ externalPaymentReferenceID: `i-${String(n)}` }) : cardRequest({ externalPaymentReferenceID: `c-${String(n)}`, chargeImmediately: kind === 'card' })
              const { world: w, response: r } = handle(world, { method: 'POST', path: '/payments', body }, { at, paymentReferenceID: idOf(clock), kid: KID, catchAllUrl: CATCH_ALL })
              if (r.status === 201) ids.push(idOf(clock))
              next = w
              failed = r.status >= 400
              break
            }
            case 'complete':
            case 'fail':
            case 'transfer': {
              const { world: w, result: r } =
                kind === 'complete'
                  ? completeForm(world, id, { at })
                  : kind === 'fail'
                    ? failForm(world, id, { at })
                    : receiveTransfer(world, id, { amount: 3000 * (n + 1), kid: KID }, { at })
              next = w
              failed = E.isLeft(r)
              break
            }
            default: {
              const p = world.payments.get(id)
              const body = p === undefined ? {} : patchOf(p, { 1: n === 0 ? 'delete' : Math.max(0, (p.moneySplits[0]?.amount ?? 0) - 500) })
              const action = kind === 'partial' ? 'refund/partially' : kind
              const { world: w, response: r } = handle(world, { method: 'POST', path: `/payments/${id}/${action}`, body }, { at, paymentReferenceID: idOf(clock) })
              next = w
              failed = r.status >= 400
            }
          }
          expect(snapshot(world)).toStrictEqual(before)
          if (failed) expect(next).toBe(world)
          // untouched entries are the same objects
          for (const [k, v] of world.payments) {
            const after = next.payments.get(k)
            if (after !== v) expect(after?.version).toBeGreaterThan(v.version)
          }
          world = next
          // money invariants hold in every stored payment
          for (const p of world.payments.values()) {
            expect(p.grossAmount).toBe(p.moneySplits.reduce((s, x) => s + x.amount, 0))
            if (p.status === 'Charged' || p.status === 'Refunded') {
              expect(p.chargedAmount).toBe(p.grossAmount + p.refundedAmount)
              expect(p.refundedAmount).toBeLessThanOrEqual(p.chargedAmount)
            } else {
              expect(p.refundedAmount).toBe(0)
            }
          }
        }
      })
    )
  })

  it('handle, completeForm, failForm, receiveTransfer, getPayment and getCustomer never throw, whatever they are given', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (a, b, c) => {
        const { response, deliveries } = handle(a as World, b as never, c as never)
        expect(typeof response.status).toBe('number')
        expect(Array.isArray(deliveries)).toBe(true)
        const { response: req } = handle(emptyWorld, { method: 'POST', path: '/payments', body: a }, c as never)
        expect(req.status).toBeGreaterThanOrEqual(400)
        expect(completeForm(a as World, b as string, c as never).result._tag).toBe('Left')
        expect(failForm(emptyWorld, b as string, c as never).result._tag).toBe('Left')
        expect(receiveTransfer(a as World, b as string, c as never, a as never).result._tag).toBe('Left')
        expect(getPayment(a as World, b as string)._tag).toBe('None')
        expect(getCustomer(a as World, b as string)._tag).toBe('None')
      })
    )
  })

  it('a hostile request (throwing getters) is an error response, not an exception', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom') } })
    // it has no own method or path: no route
    const { response: r } = handle(emptyWorld, hostile as never, { at: atOf(1), paymentReferenceID: idOf(1) })
    expect(r.status).toBe(404)
    const throwing = new Proxy({}, { getOwnPropertyDescriptor: () => { throw new Error('boom') } })
    const { response: r3 } = handle(emptyWorld, throwing as never, { at: atOf(1), paymentReferenceID: idOf(1) })
    expect(r3.status).toBe(400)
    const { response: r2 } = handle(emptyWorld, { method: 'POST', path: '/payments', body: hostile }, { at: atOf(1), paymentReferenceID: idOf(1) })
    expect(r2.status).toBe(400)
  })
})
