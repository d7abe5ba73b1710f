/**
 * C10: webhook messages follow Standard Webhooks. paysplit makes the message (pure); the sender
 * signs it with the `standardwebhooks` package, and a receiver verifies it with the same package.
 */
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { webhookMessage, type WebhookDelivery, type WebhookMessage } from '../../src/http.js'
import { CATCH_ALL, KID, Session, cardRequest, invoiceRequest, patchOf } from '../support/http.fixtures.js'

const SECRET = 'whsec_' + Buffer.from('paysplit-test-secret-0123456789ab').toString('base64')

/** Every delivery of a card's and an invoice's whole life, subscriptions included. */
const lifeDeliveries = (): ReadonlyArray<WebhookDelivery> => {
  const s = new Session()
  const subscriptions = [
    { eventType: 'ChargedPayment', url: 'https://shop.example/hooks/charged' },
    { eventType: 'PartiallyRefunded', url: 'https://shop.example/hooks/partial' }
  ]
  const card = s.create(cardRequest({ webhookSubscriptions: subscriptions, customer: { name: 'Kari Nordmann', email: 'kari@example.no' } }))
  s.complete(card)
  s.post(card, 'charge')
  s.post(card, 'refund/partially', patchOf(s.payment(card), { 1: 4000 }))
  s.post(card, 'refund')
  const invoice = s.create(invoiceRequest({ webhookSubscriptions: subscriptions }), { kid: KID })
  s.post(invoice, 'adjust', patchOf(s.payment(invoice), { 2: 3000 }))
  s.transfer(invoice, 9000, KID)
  return s.deliveries
}

/** What a sender does: the message, signed with a maintained Standard Webhooks package. */
const signed = (message: WebhookMessage): Record<string, string> => ({
  ...message.headers,
  'webhook-signature': new Webhook(SECRET).sign(message.id, new Date(message.timestamp * 1000), message.body)
})

describe('C10: webhookMessage gives a Standard Webhooks message', () => {
  it('url, id (the eventID), timestamp, body (the payload\'s JSON) and the three headers, no signature; pure', () => {
    const [delivery] = lifeDeliveries()
    if (delivery === undefined) throw new Error('no delivery')
    const m = webhookMessage(delivery, { timestamp: 1795255200 })
    expect(m).toStrictEqual({
      url: CATCH_ALL,
      id: delivery.payload.eventID,
      timestamp: 1795255200,
      body: JSON.stringify(delivery.payload),
      headers: { 'content-type': 'application/json', 'webhook-id': delivery.payload.eventID, 'webhook-timestamp': '1795255200' }
    })
    expect(webhookMessage(delivery, { timestamp: 1795255200 })).toStrictEqual(m)
    // a timestamp that is not whole non-negative seconds is sent as 0, which receivers refuse as too old
    for (const timestamp of [1.5, -1, Number.NaN, '1795255200']) {
      expect(webhookMessage(delivery, { timestamp } as never).headers['webhook-timestamp']).toBe('0')
    }
  })

  it('every delivery of a payment\'s life, signed with standardwebhooks, is verified by a receiver using the same package', () => {
    const deliveries = lifeDeliveries()
    expect(new Set(deliveries.map((d) => d.eventType))).toStrictEqual(
      new Set(['Initiated', 'Reserved', 'Charged', 'PartiallyRefunded', 'Refunded', 'InvoiceAdjusted'])
    )
    const now = Math.floor(Date.now() / 1000)
    const receiver = new Webhook(SECRET)
    for (const delivery of deliveries) {
      const message = webhookMessage(delivery, { timestamp: now })
      expect(receiver.verify(message.body, signed(message))).toStrictEqual(delivery.payload)
    }
  })

  it('a receiver refuses a tampered body, timestamp or id, a wrong secret, and an old message', () => {
    const [delivery] = lifeDeliveries()
    if (delivery === undefined) throw new Error('no delivery')
    const now = Math.floor(Date.now() / 1000)
    const message = webhookMessage(delivery, { timestamp: now })
    const headers = signed(message)
    const receiver = new Webhook(SECRET)
    expect(() => receiver.verify(message.body, headers)).not.toThrow()
    expect(() => receiver.verify(message.body.replace('"Initiated"', '"Charged"'), headers)).toThrow()
    expect(() => receiver.verify(message.body, { ...headers, 'webhook-timestamp': String(now - 1) })).toThrow()
    expect(() => receiver.verify(message.body, { ...headers, 'webhook-id': `${message.id}x` })).toThrow()
    const other = new Webhook('whsec_' + Buffer.from('another-secret-0123456789abcdefgh').toString('base64'))
    expect(() => other.verify(message.body, headers)).toThrow()
    const old = webhookMessage(delivery, { timestamp: now - 3600 })
    expect(() => receiver.verify(old.body, signed(old))).toThrow()
  })
})
