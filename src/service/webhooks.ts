/**
 * Webhook deliveries (docs/rules.md I6, docs/rules.md C5): which url gets which webhook after a command, and the
 * payload each carries. Pure: a caller sends them (and retries) with its own transport.
 *
 * @module webhooks
 */
import * as O from '../internal/option.js'
import type { PaymentEvent } from '../events.js'
import type { Payment } from '../payment.js'
import type { Customer, WebhookEventType } from '../codecs/requests.js'
import { moneySplitRecordOf, paymentCreatedOf, type WebhookPayment } from './views.js'
import { parseWebhookEventType } from '../codecs/validators.js'
import { hasOwn, isObject, own } from '../internal/own.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The body POSTed to a webhook url, in the envelope of the real service's documentation. */
export interface WebhookPayload {
  /** `<paymentReferenceID>:<n>`, n the payment's version right after the event: receivers drop duplicates by it. */
  readonly eventID: string
  /** The event's `at`. */
  readonly createTime: string
  readonly objectName: 'payment'
  readonly eventType: WebhookEventType
  readonly payload: { readonly payment: WebhookPayment }
}

/**
 * A webhook as a store keeps it to send (an outbox row, docs/rules.md C15): where, its id (the
 * payload's `eventID`) and its body (the payload's JSON text, exactly what is sent and signed).
 * `webhookMessage` takes one as it is, so nothing is parsed back to be signed.
 */
export interface StoredDelivery {
  readonly url: string
  readonly id: string
  readonly body: string
}

/** One webhook to send: where, which event type, the payload, and its `id` and JSON `body` ({@link StoredDelivery}). */
export interface WebhookDelivery extends StoredDelivery {
  readonly eventType: WebhookEventType
  readonly payload: WebhookPayload
}

/** Options of {@link webhookDeliveries}. Only own properties are read. */
export interface WebhookOptions {
  /** The catch-all endpoint (docs/rules.md I6: configured in the Platform Dashboard); it receives every webhook. */
  readonly catchAllUrl?: string
  /**
   * The service's stored customer record for the payment's `customerExternalID`, reported instead
   * of the payment's own (docs/rules.md C9); the service model passes it.
   */
  readonly customer?: Customer
}

// -------------------------------------------------------------------------------------
// event types
// -------------------------------------------------------------------------------------

/** The webhook event type of each domain event that sends one (the others are absent). */
const typeByEvent: Readonly<Partial<Record<PaymentEvent['type'], WebhookEventType>>> = {
  PaymentCreated: 'Initiated',
  PaymentReserved: 'Reserved',
  PaymentCharged: 'Charged',
  PaymentCancelled: 'Cancelled',
  PaymentRefunded: 'Refunded',
  PaymentPartiallyRefunded: 'PartiallyRefunded',
  InvoiceAdjusted: 'InvoiceAdjusted'
}

/**
 * The webhook event type a domain event sends (docs/rules.md C5), or `none` for the events that send none
 * (`CustomerUpserted`, `InvoiceTransferReceived`, `PaymentFormFailed`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { webhookEventTypeOf } from 'paysplit/http'
 * const at = '2026-11-21T10:00:00.000Z'
 * const paymentReferenceID = '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10'
 * assert.deepStrictEqual(webhookEventTypeOf({ type: 'PaymentCancelled', at, paymentReferenceID }), O.some('Cancelled'))
 * assert.deepStrictEqual(webhookEventTypeOf({ type: 'PaymentFormFailed', at, paymentReferenceID }), O.none)
 */
export const webhookEventTypeOf = (event: PaymentEvent): O.Option<WebhookEventType> => {
  const type: unknown = isObject(event) ? (event as { readonly type?: unknown }).type : undefined
  return typeof type === 'string' && hasOwn(typeByEvent, type)
    ? O.fromNullable(typeByEvent[type as PaymentEvent['type']])
    : O.none
}

/**
 * The short form of a subscription's event type: `ChargedPayment` → `Charged`; a short form stays;
 * anything else is `none`. The codecs already normalise subscriptions; this makes deliveries
 * right for a payment built by hand too.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { normaliseWebhookEventType } from 'paysplit/http'
 * assert.deepStrictEqual(normaliseWebhookEventType('ChargedPayment'), O.some('Charged'))
 * assert.deepStrictEqual(normaliseWebhookEventType('Charged'), O.some('Charged'))
 * assert.deepStrictEqual(normaliseWebhookEventType('charged'), O.none)
 */
export const normaliseWebhookEventType = (s: string): O.Option<WebhookEventType> =>
  O.fromNullable(parseWebhookEventType(s))

// -------------------------------------------------------------------------------------
// deliveries
// -------------------------------------------------------------------------------------

/**
 * What a webhook (and a read, docs/rules.md C9) reports about `payment` (docs/rules.md C5): a fresh
 * object. `customer`, when given, is the service's stored record and is reported instead of the
 * payment's own.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle, webhookPaymentOf } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const made = kid.create('2026112100042', 'mod10')
 * assert.ok(E.isRight(made))
 * const invoiceKid = made.right
 * const body = {
 *   externalPaymentReferenceID: 'invoice-2001', environment: 'test', paymentGateway: 'invoice',
 *   sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: invoiceKid })
 * const invoice = world.payments.get(id)
 * assert.ok(invoice !== undefined)
 * assert.deepStrictEqual(webhookPaymentOf(invoice).kidNorwayInvoice, { kid: invoiceKid, paidAmount: 0 })
 */
export const webhookPaymentOf = (payment: Payment, customer?: Customer): WebhookPayment => {
  const c = customer ?? (own(payment, 'customer') as Customer | undefined)
  const kid = own(payment, 'kid')
  return {
    paymentCreated: paymentCreatedOf(payment),
    ...(c !== undefined ? { customer: { ...c } } : {}),
    ...(payment.kind === 'invoice' && typeof kid === 'string' ? { kidNorwayInvoice: { kid, paidAmount: payment.paidAmount } } : {}),
    moneySplit: payment.moneySplits.map(moneySplitRecordOf),
    metaData: { ...payment.metaData }
  }
}

/**
 * The webhooks to send after `events` happened to a payment (docs/rules.md C5, docs/rules.md I6, C15): for each event
 * that has a webhook event type, one delivery to the catch-all url and one to each subscription
 * of that type, each distinct url once per event (catch-all first, then subscriptions in their
 * order). `payment` is the payment after the events, and `events` are its last `events.length`
 * events, so the n-th event of the payment (n = its version right after the event) gets the
 * `eventID` `<paymentReferenceID>:<n>`. Every payload reports `payment`; `createTime` is the
 * event's `at`. Each delivery also carries `id` (the `eventID`) and `body` (the payload's JSON
 * text, the same for every url of an event): an outbox row, sent as it is.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { transition } from 'paysplit'
 * import { emptyWorld, handle, webhookDeliveries } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: true, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const created = world.payments.get(id)
 * assert.ok(created !== undefined)
 * const completed = transition(created, { type: 'CompletePaymentForm', at: '2026-11-21T10:05:00.000Z' })
 * assert.ok(E.isRight(completed))
 * const [payment, events] = completed.right
 * assert.ok(payment.status === 'Charged')
 * const [delivery] = webhookDeliveries(payment, events, { catchAllUrl: 'https://hooks.example/all' })
 * assert.ok(delivery !== undefined)
 * assert.strictEqual(delivery.url, 'https://hooks.example/all')
 * assert.strictEqual(delivery.payload.eventID, `${id}:2`)
 * assert.strictEqual(delivery.payload.eventType, 'Charged')
 * assert.strictEqual(delivery.payload.createTime, '2026-11-21T10:05:00.000Z')
 * assert.strictEqual(delivery.id, `${id}:2`)
 * assert.deepStrictEqual(JSON.parse(delivery.body), delivery.payload)
 */
export const webhookDeliveries = (
  payment: Payment,
  events: ReadonlyArray<PaymentEvent>,
  options: WebhookOptions = {}
): ReadonlyArray<WebhookDelivery> => {
  const out: WebhookDelivery[] = []
  const first = payment.version - events.length
  const catchAll = own(options, 'catchAllUrl')
  const customerIn = own(options, 'customer')
  const customer = isObject(customerIn) ? (customerIn as Customer) : undefined
  events.forEach((event, index) => {
    const type = webhookEventTypeOf(event)
    if (O.isNone(type)) return
    const eventType = type.value
    const urls: string[] = []
    if (typeof catchAll === 'string' && catchAll !== '') urls.push(catchAll)
    for (const s of payment.webhookSubscriptions) {
      if (parseWebhookEventType(s.eventType) === eventType && !urls.includes(s.url)) urls.push(s.url)
    }
    const eventID = `${payment.paymentReferenceID}:${first + index + 1}`
    // one text per event: every url gets the same body
    let body: string | undefined
    for (const url of urls) {
      const payload: WebhookPayload = {
        eventID,
        createTime: event.at,
        objectName: 'payment',
        eventType,
        payload: { payment: webhookPaymentOf(payment, customer) }
      }
      body ??= JSON.stringify(payload)
      out.push({ url, eventType, payload, id: eventID, body })
    }
  })
  return out
}
