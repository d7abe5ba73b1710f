/**
 * The benchmark's baseline: the reference service with the rules skipped. Same routes, same SQL
 * (the slice read, the state written with its version check, the events, the outbox rows), but
 * every paysplit call replaced by the least code that gives rows and answers of the same shape
 * for the benchmark's three requests (create a card payment, complete the form, partially refund
 * by UpdateAmount): no validation, no guards, no arithmetic checks. What paysplit costs is the
 * difference. Not a payments service: it accepts anything.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Payment, PaymentEvent } from '../src/index.js'
import type { Changes, Handled, HttpResponse, WebhookDelivery, World } from '../src/http.js'
import { paysplitRules, type FormOutcome, type Rules } from '../docs/examples/service/paysplit.js'

type Loose = Record<string, any>

/** The stand-ins write no rows through `changes`: the reference service's store diffs the world. */
const NO_CHANGES: Changes = { payments: [], customers: [], references: [], idempotencyKeys: [], ocrTransmissions: [] }

const handled = (world: World, response: HttpResponse, deliveries: ReadonlyArray<WebhookDelivery>, events: ReadonlyArray<PaymentEvent>): Handled => ({
  world,
  response,
  deliveries,
  events,
  changes: NO_CHANGES
})

const withPayment = (world: World, p: Loose): World => ({
  ...world,
  payments: new Map(world.payments).set(String(p['paymentReferenceID']).toLowerCase(), p as Payment)
})

const delivery = (p: Loose, eventType: string, url: string | undefined): ReadonlyArray<WebhookDelivery> => {
  if (url === undefined) return []
  const payload = {
    eventID: `${String(p['paymentReferenceID'])}:${String(p['version'])}`,
    createTime: p['updatedAt'],
    objectName: 'payment',
    eventType,
    payload: { payment: { paymentCreated: p, moneySplit: p['moneySplits'], metaData: p['metaData'] ?? {} } }
  }
  return [{ url, eventType, payload, id: payload.eventID, body: JSON.stringify(payload) } as unknown as WebhookDelivery]
}

/** One event of the type given: the rows the events table gets, with no more than they need. */
const event = (type: string, at: string): ReadonlyArray<PaymentEvent> => [{ type, at } as unknown as PaymentEvent]

const handle: Rules['handle'] = (world, request, ctx) => {
  const body = request.body as Loose
  if (request.path === '/payments') {
    const ref = world.references.get(String(body['externalPaymentReferenceID']))
    if (ref !== undefined) {
      const p = world.payments.get(ref.paymentReferenceID.toLowerCase())
      return handled(world, { status: 200, body: { paymentIntent: { paymentCreated: p, moneySplit: p?.moneySplits } } } as unknown as HttpResponse, [], [])
    }
    const id = ctx.paymentReferenceID
    const splits = (body['moneySplitList'] as ReadonlyArray<Loose>).map((s, i) => ({ ...s, splitID: i + 1, paymentReferenceID: id, insertTime: ctx.at }))
    const p: Loose = {
      schemaVersion: 1,
      ...body,
      paymentReferenceID: id,
      kind: body['paymentGateway'] === 'invoice' ? 'invoice' : 'card',
      status: 'Initiated',
      moneySplits: splits,
      chargedAmount: 0,
      refundedAmount: 0,
      excessRefundedAmount: 0,
      paidAmount: 0,
      formAttempts: [],
      webhookSubscriptions: body['webhookSubscriptions'] ?? [],
      metaData: body['metaData'] ?? {},
      createdAt: ctx.at,
      updatedAt: ctx.at,
      version: 1
    }
    const after = withPayment(world, p)
    const next: World = { ...after, references: new Map(world.references).set(String(body['externalPaymentReferenceID']), { paymentReferenceID: id, request: body as never }) }
    return handled(next, { status: 201, body: { paymentIntent: { paymentCreated: p, moneySplit: splits } } } as unknown as HttpResponse, delivery(p, 'Initiated', ctx.catchAllUrl), event('PaymentCreated', ctx.at))
  }
  // POST /payments/{id}/refund/partially
  const id = request.path.split('/')[2] ?? ''
  const before = world.payments.get(id.toLowerCase()) as Loose | undefined
  if (before === undefined) return handled(world, { status: 404, body: { success: false } } as unknown as HttpResponse, [], [])
  const patch = new Map((body['moneySplitPatch'] as ReadonlyArray<Loose>).map((e) => [e['splitID'], e]))
  const splits = (before['moneySplits'] as ReadonlyArray<Loose>).map((s) => {
    const e = patch.get(s['splitID'])
    return e?.['updateType'] === 'UpdateAmount' ? { ...s, amount: e['newAmount'] } : s
  })
  const gross = Number(body['newGrossAmount'])
  const p: Loose = { ...before, moneySplits: splits, grossAmount: gross, refundedAmount: before['refundedAmount'] + before['grossAmount'] - gross, version: before['version'] + 1, updatedAt: ctx.at }
  return handled(withPayment(world, p), { status: 200, body: { splitList: splits, refundedSplit: [], message: 'ok', success: true } } as unknown as HttpResponse, delivery(p, 'PartiallyRefunded', ctx.catchAllUrl), event('PaymentPartiallyRefunded', ctx.at))
}

const completeForm: Rules['completeForm'] = (world, id, ctx): FormOutcome => {
  const before = world.payments.get(id.toLowerCase()) as Loose | undefined
  if (before === undefined) return { world, result: E.left({ code: 'PaymentNotFound', message: '' }), deliveries: [], redirectUrl: undefined, events: [], changes: NO_CHANGES }
  const status = before['chargeImmediately'] === true ? 'Charged' : 'Reserved'
  const p: Loose = { ...before, status, chargedAmount: status === 'Charged' ? before['grossAmount'] : 0, version: before['version'] + 1, updatedAt: ctx.at }
  return {
    world: withPayment(world, p),
    result: E.right(p as Payment),
    deliveries: delivery(p, status, ctx.catchAllUrl),
    redirectUrl: String(before['successUrl']),
    events: event(status === 'Charged' ? 'PaymentCharged' : 'PaymentReserved', ctx.at),
    changes: NO_CHANGES
  }
}

/** The rules skipped: see the module's comment. */
export const baselineRules: Rules = {
  ...paysplitRules,
  storedPayment: (state) => E.right(state as Payment),
  handle,
  completeForm,
  webhookMessage: (d, timestamp) => {
    const body = JSON.stringify(d.payload)
    return { url: d.url, id: d.payload.eventID, timestamp, body, headers: { 'content-type': 'application/json', 'webhook-id': d.payload.eventID, 'webhook-timestamp': String(timestamp) } }
  }
}
