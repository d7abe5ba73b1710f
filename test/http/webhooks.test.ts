/**
 * paysplit/http — webhook deliveries (I6; C5).
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { initialState, transition, type Payment, type PaymentEvent, type PaymentEventType } from '../../src/index.js'
import {
  normaliseWebhookEventType,
  webhookDeliveries,
  webhookEventTypeOf,
  webhookPaymentOf
} from '../../src/http.js'
import { CATCH_ALL, KID, Session, atOf, cardRequest, idOf, invoiceRequest, patchOf } from '../support/http.fixtures.js'

const CHARGED_HOOK = 'https://hooks.example/charged'
const REFUND_HOOK = 'https://hooks.example/refunds'

describe('webhook event types (C5)', () => {
  const table: Record<PaymentEventType, string | undefined> = {
    PaymentCreated: 'Initiated',
    PaymentReserved: 'Reserved',
    PaymentCharged: 'Charged',
    PaymentCancelled: 'Cancelled',
    PaymentRefunded: 'Refunded',
    PaymentPartiallyRefunded: 'PartiallyRefunded',
    InvoiceAdjusted: 'InvoiceAdjusted',
    CustomerUpserted: undefined,
    InvoiceTransferReceived: undefined,
    PaymentFormFailed: undefined
  }
  it.each(Object.entries(table))('%s → %s', (type, webhook) => {
    const event = { type, at: atOf(0), paymentReferenceID: idOf(1) } as unknown as PaymentEvent
    expect(webhookEventTypeOf(event)).toStrictEqual(webhook === undefined ? O.none : O.some(webhook))
  })

  it('subscriptions may name a type in the long form (ChargedPayment)', () => {
    expect(normaliseWebhookEventType('ChargedPayment')).toStrictEqual(O.some('Charged'))
    expect(normaliseWebhookEventType('PartiallyRefunded')).toStrictEqual(O.some('PartiallyRefunded'))
    expect(normaliseWebhookEventType('charged')).toStrictEqual(O.none)
  })
})

describe('who receives what (I6: catch-all plus per-payment subscriptions)', () => {
  const subscribed = () =>
    cardRequest({
      chargeImmediately: true,
      webhookSubscriptions: [
        { eventType: 'ChargedPayment', url: CHARGED_HOOK },
        { eventType: 'PartiallyRefunded', url: REFUND_HOOK },
        { eventType: 'Refunded', url: REFUND_HOOK }
      ]
    })

  it('the catch-all url receives every webhook event; each subscription only its type (long forms accepted)', () => {
    const s = new Session()
    const id = s.create(subscribed())
    s.complete(id)
    s.post(id, 'refund/partially', patchOf(s.payment(id), { 1: 8000 }))
    s.post(id, 'refund')
    expect(s.deliveries.map((d) => [d.eventType, d.url])).toStrictEqual([
      ['Initiated', CATCH_ALL],
      ['Charged', CATCH_ALL],
      ['Charged', CHARGED_HOOK],
      ['PartiallyRefunded', CATCH_ALL],
      ['PartiallyRefunded', REFUND_HOOK],
      ['Refunded', CATCH_ALL],
      ['Refunded', REFUND_HOOK]
    ])
  })

  it('one delivery per event and distinct url: a subscription at the catch-all url, or two at one url, sends once', () => {
    const s = new Session()
    const id = s.create(
      cardRequest({
        webhookSubscriptions: [
          { eventType: 'Initiated', url: CATCH_ALL },
          { eventType: 'Initiated', url: CHARGED_HOOK },
          { eventType: 'InitiatedPayment', url: CHARGED_HOOK }
        ]
      })
    )
    expect(s.deliveries.map((d) => d.url)).toStrictEqual([CATCH_ALL, CHARGED_HOOK])
    expect(id).toBeDefined()
  })

  it('without a catch-all url only subscriptions receive; with neither, nothing is sent', () => {
    const s = new Session(null)
    const id = s.create(subscribed())
    s.complete(id)
    expect(s.deliveries.map((d) => [d.eventType, d.url])).toStrictEqual([['Charged', CHARGED_HOOK]])
    const t = new Session(null)
    t.create(cardRequest())
    expect(t.deliveries).toStrictEqual([])
  })

  it('no webhook for a failed form attempt, a KID transfer that does not settle, a customer upsert, or a rejected command', () => {
    const s = new Session()
    const id = s.create(cardRequest({ customer: { name: 'Kari' } }))
    expect(s.deliveries.map((d) => d.eventType)).toStrictEqual(['Initiated'])
    s.fail(id, 'declined')
    s.post(id, 'charge')
    const inv = s.create(invoiceRequest(), { kid: KID })
    s.transfer(inv, 100, KID)
    expect(s.deliveries.map((d) => d.eventType)).toStrictEqual(['Initiated', 'Initiated'])
  })
})

describe('the payload (C5 envelope)', () => {
  it('{ eventID, createTime, objectName, eventType, payload: { payment: { paymentCreated, customer?, moneySplit, metaData } } }', () => {
    const s = new Session()
    const id = s.create(cardRequest({ customer: { name: 'Kari', email: 'kari@example.no' } }))
    const [d] = s.deliveries
    const p = s.payment(id)
    expect(d).toStrictEqual({
      url: CATCH_ALL,
      eventType: 'Initiated',
      payload: {
        eventID: `${id}:1`,
        createTime: atOf(1),
        objectName: 'payment',
        eventType: 'Initiated',
        payload: {
          payment: {
            paymentCreated: expect.objectContaining({
              paymentReferenceID: id,
              externalPaymentReferenceID: 'order-1001',
              status: 'Initiated',
              grossAmount: 10000,
              currency: 'NOK',
              environment: 'test'
            }) as unknown,
            customer: { name: 'Kari', email: 'kari@example.no' },
            moneySplit: p.moneySplits.map((x) => ({ ...x })),
            metaData: { orderNo: 1001, gift: false }
          }
        }
      },
      id: `${id}:1`,
      body: expect.any(String) as unknown
    })
    expect(d && 'kidNorwayInvoice' in d.payload.payload.payment).toBe(false)
    // the outbox row: the payload's JSON text, exactly
    expect(d?.body).toBe(JSON.stringify(d?.payload))
  })

  it('no customer in the payload when the payment holds none', () => {
    const s = new Session()
    s.create(cardRequest())
    expect(s.deliveries[0] && 'customer' in s.deliveries[0].payload.payload.payment).toBe(false)
  })

  it('invoices carry kidNorwayInvoice { kid, paidAmount }', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    s.transfer(id, 10000, KID)
    expect(s.deliveries.map((d) => [d.eventType, d.payload.payload.payment.kidNorwayInvoice])).toStrictEqual([
      ['Initiated', { kid: KID, paidAmount: 0 }],
      ['Charged', { kid: KID, paidAmount: 10000 }]
    ])
  })

  it('eventID is <paymentReferenceID>:<n>, n the payment version right after the event; createTime the event at', () => {
    const s = new Session()
    // PaymentCreated (1), CustomerUpserted (2): no webhook for 2
    const id = s.create(cardRequest({ customer: { name: 'Kari' } }))
    s.fail(id) // 3, no webhook
    s.complete(id) // 4
    s.post(id, 'charge') // 5
    expect(s.deliveries.map((d) => [d.eventType, d.payload.eventID, d.payload.createTime])).toStrictEqual([
      ['Initiated', `${id}:1`, atOf(1)],
      ['Reserved', `${id}:4`, atOf(3)],
      ['Charged', `${id}:5`, atOf(4)]
    ])
    expect(s.payment(id).version).toBe(5)
  })

  it('a settled-by-adjustment invoice sends InvoiceAdjusted and then Charged, consecutive ids, both reporting the state after them', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    s.transfer(id, 6000, KID)
    const before = s.deliveries.length
    s.post(id, 'adjust', patchOf(s.payment(id), { 2: 'delete' }))
    const sent = s.deliveries.slice(before)
    expect(sent.map((d) => [d.eventType, d.payload.eventID])).toStrictEqual([
      ['InvoiceAdjusted', `${id}:3`],
      ['Charged', `${id}:4`]
    ])
    for (const d of sent) expect(d.payload.payload.payment.paymentCreated.status).toBe('Charged')
  })

  it('webhookDeliveries directly: the events are the last events of the payment', () => {
    const created = transition(initialState, {
      type: 'CreatePayment',
      at: atOf(1),
      paymentReferenceID: idOf(1),
      request: cardRequest({ chargeImmediately: true, webhookSubscriptions: [], metaData: {} }) as never
    })
    if (E.isLeft(created)) throw new Error(created.left.message)
    const [p1, e1] = created.right
    const done = transition(p1, { type: 'CompletePaymentForm', at: atOf(2) })
    if (E.isLeft(done)) throw new Error(done.left.message)
    const [p2, e2] = done.right
    const payment = p2 as Payment
    expect(webhookDeliveries(payment, e2, { catchAllUrl: CATCH_ALL }).map((d) => d.payload.eventID)).toStrictEqual([`${idOf(1)}:2`])
    expect(webhookDeliveries(payment, [...e1, ...e2], { catchAllUrl: CATCH_ALL }).map((d) => [d.eventType, d.payload.eventID])).toStrictEqual([
      ['Initiated', `${idOf(1)}:1`],
      ['Charged', `${idOf(1)}:2`]
    ])
    expect(webhookDeliveries(payment, e2)).toStrictEqual([])
    // each delivery is a fresh value
    const twice = webhookDeliveries({ ...payment, webhookSubscriptions: [{ eventType: 'Charged', url: CHARGED_HOOK }] }, e2, { catchAllUrl: CATCH_ALL })
    expect(twice).toHaveLength(2)
    expect(twice[0]?.payload).not.toBe(twice[1]?.payload)
    expect(twice[0]?.payload).toStrictEqual(twice[1]?.payload)
    expect(webhookPaymentOf(payment).moneySplit).not.toBe(payment.moneySplits)
  })

  it('webhooks of a partial refund that empties the payment: PartiallyRefunded then Refunded, both with status Refunded', () => {
    const s = new Session()
    const id = s.create(cardRequest({ chargeImmediately: true }))
    s.complete(id)
    const before = s.deliveries.length
    s.post(id, 'refund/partially', patchOf(s.payment(id), { 1: 'delete', 2: 'delete' }))
    expect(s.deliveries.slice(before).map((d) => [d.eventType, d.payload.payload.payment.paymentCreated.status])).toStrictEqual([
      ['PartiallyRefunded', 'Refunded'],
      ['Refunded', 'Refunded']
    ])
  })
})
