/**
 * Webhook messages (docs/rules.md C10): a delivery as the Standard Webhooks specification sends it
 * (standardwebhooks.com), so that receivers verify it with any Standard Webhooks library and need
 * nothing of paysplit's. Pure: the timestamp comes from the caller, and the signature is the
 * sender's, made with a maintained Standard Webhooks package (never hand-written crypto).
 *
 * @module messages
 */
import { own } from '../internal/own.js'
import type { StoredDelivery } from '../service/webhooks.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Options of {@link webhookMessage}. Only own properties are read. */
export interface WebhookMessageOptions {
  /** When the message is sent, in whole Unix seconds (the sender's clock). */
  readonly timestamp: number
}

/**
 * The headers of a webhook message, lower-case names. `webhook-signature` is not among them: the
 * sender adds it (`new Webhook(secret).sign(id, new Date(timestamp * 1000), body)` with the
 * `standardwebhooks` package).
 */
export interface WebhookMessageHeaders {
  readonly 'content-type': 'application/json'
  /** The payload's `eventID` (`<paymentReferenceID>:<n>`): receivers drop duplicates by it. */
  readonly 'webhook-id': string
  /** The timestamp as decimal text. */
  readonly 'webhook-timestamp': string
}

/** A webhook delivery as a Standard Webhooks message, ready to sign and POST. */
export interface WebhookMessage {
  readonly url: string
  /** The payload's `eventID`. */
  readonly id: string
  /** Unix seconds, as given. */
  readonly timestamp: number
  /** The payload's JSON text: sign and send exactly these characters. */
  readonly body: string
  readonly headers: WebhookMessageHeaders
}

// -------------------------------------------------------------------------------------
// messages
// -------------------------------------------------------------------------------------

/**
 * A delivery as a Standard Webhooks message (docs/rules.md C10, C15): a delivery `handle` or an
 * operation returned, or any `{ url, id, body }` — an outbox row read back from a database — taken
 * as it is: `body` the payload's JSON text exactly as stored, `id` its `eventID`, and the headers
 * `content-type`, `webhook-id` and `webhook-timestamp`. Nothing is parsed back. (A delivery built
 * by hand with a `payload` and no `body` or `id` gets them from its payload.) Pure: the same
 * delivery and timestamp give the same message. A `timestamp` that is not a non-negative safe
 * integer is sent as 0, which every Standard Webhooks receiver refuses as too old
 * (docs/decisions.md, "Webhook messages").
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, handle, webhookMessage } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const ctx = { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, catchAllUrl: 'https://hooks.example/all' }
 * const { deliveries } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, ctx)
 * const delivery = deliveries[0]
 * assert.ok(delivery !== undefined)
 * const message = webhookMessage(delivery, { timestamp: 1795255200 })
 * assert.strictEqual(message.id, `${id}:1`)
 * assert.deepStrictEqual(message.headers, {
 *   'content-type': 'application/json',
 *   'webhook-id': `${id}:1`,
 *   'webhook-timestamp': '1795255200'
 * })
 * assert.strictEqual(message.body, delivery.body)
 * assert.deepStrictEqual(JSON.parse(message.body), delivery.payload)
 * // an outbox row read back: signed as it was stored
 * const row = { url: delivery.url, id: delivery.id, body: delivery.body }
 * assert.deepStrictEqual(webhookMessage(row, { timestamp: 1795255200 }), message)
 */
export const webhookMessage = (delivery: StoredDelivery, options: WebhookMessageOptions): WebhookMessage => {
  const urlIn = own(delivery, 'url')
  let id = own(delivery, 'id')
  let body = own(delivery, 'body')
  const t = own(options, 'timestamp')
  const timestamp = Number.isSafeInteger(t) && (t as number) >= 0 ? (t as number) : 0
  if (typeof id !== 'string' || typeof body !== 'string') {
    // a delivery built by hand: its payload gives what it lacks
    const payload = own(delivery, 'payload')
    const eventID = own(payload, 'eventID')
    if (typeof id !== 'string') id = typeof eventID === 'string' ? eventID : ''
    if (typeof body !== 'string') {
      try {
        body = JSON.stringify(payload) ?? 'null'
      } catch {
        // a payload paysplit did not make (a cycle, a throwing getter): nothing a receiver could use
        body = 'null'
      }
    }
  }
  return {
    url: typeof urlIn === 'string' ? urlIn : '',
    id: id as string,
    timestamp,
    body: body as string,
    headers: { 'content-type': 'application/json', 'webhook-id': id as string, 'webhook-timestamp': String(timestamp) }
  }
}
