/**
 * normaliseWebhookEventType reads through the validators' parseWebhookEventType (one reading of a
 * webhook event type for the codecs, validateState and the deliveries). This pins it to the
 * definition it had of its own: the short form itself, or the short form + "Payment", and nothing
 * else (case-sensitive, no trimming, "Payment" stripped once).
 */
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { normaliseWebhookEventType } from '../../src/http.js'
import type { WebhookEventType } from '../../src/codecs/requests.js'

const shortForms: ReadonlyArray<WebhookEventType> = [
  'Initiated',
  'Reserved',
  'Charged',
  'Cancelled',
  'Refunded',
  'PartiallyRefunded',
  'InvoiceAdjusted'
]

/** The definition before: a loop over the short forms. */
const reference = (s: string): O.Option<WebhookEventType> => {
  for (const t of shortForms) {
    if (s === t || s === `${t}Payment`) return O.some(t)
  }
  return O.none
}

describe('normaliseWebhookEventType', () => {
  it('agrees with its definition on every form and on near misses', () => {
    const inputs = [
      ...shortForms,
      ...shortForms.map((t) => `${t}Payment`),
      ...shortForms.map((t) => `${t}PaymentPayment`),
      ...shortForms.map((t) => t.toLowerCase()),
      ...shortForms.map((t) => ` ${t}`),
      ...shortForms.map((t) => `${t}Paymen`),
      '',
      'Payment',
      'PaymentPayment',
      'payment',
      'InitiatedPAYMENT'
    ]
    for (const s of inputs) expect(normaliseWebhookEventType(s), s).toStrictEqual(reference(s))
  })

  it('is none for what is not a string (a payment built by hand in JavaScript)', () => {
    const garbage: ReadonlyArray<unknown> = [undefined, null, 42, {}, ['Charged']]
    for (const u of garbage) {
      expect(normaliseWebhookEventType(u as string)).toStrictEqual(O.none)
    }
  })
})
