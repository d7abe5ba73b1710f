/**
 * The benchmark's baseline: the reference service with the rules skipped. Same routes, same SQL
 * (the rows read, the state written with its version check, the events, the outbox rows), but
 * every paysplit call the flow makes replaced by the least code that gives keys, worlds, rows to
 * write and answers of the same shape for the benchmark's three requests (create a card payment,
 * complete the form, partially refund by UpdateAmount): no validation, no guards, no arithmetic
 * checks. What paysplit costs is the difference. Not a payments service: it accepts anything.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Payment, PaymentEvent } from '../src/index.js'
import type { Changes, CustomerRow, Handled, HttpResponse, ReferenceRow, RowKeys, WebhookDelivery, World } from '../src/http.js'
import { paysplitRules, type FormOutcome, type Rules } from '../docs/examples/service/paysplit.js'

type Loose = Record<string, any>

const NO_CHANGES: Changes = { payments: [], customers: [], references: [], idempotencyKeys: [], ocrTransmissions: [] }

/** The rows to write: the payment after its one event, and the create's reference. */
const changesOf = (p: Loose | undefined, events: ReadonlyArray<PaymentEvent>, reference?: ReferenceRow): Changes =>
  p === undefined || events.length === 0
    ? NO_CHANGES
    : {
        ...NO_CHANGES,
        payments: [
          {
            paymentReferenceID: String(p['paymentReferenceID']),
            fromVersion: Number(p['version']) - 1,
            state: p as Payment,
            events: [{ version: Number(p['version']), eventID: `${String(p['paymentReferenceID'])}:${String(p['version'])}`, event: events[0] as PaymentEvent }]
          }
        ],
        references: reference === undefined ? [] : [reference]
      }

const handled = (world: World, response: HttpResponse, deliveries: ReadonlyArray<WebhookDelivery>, events: ReadonlyArray<PaymentEvent>, changes: Changes = NO_CHANGES): Handled => ({
  world,
  response,
  deliveries,
  events,
  changes
})

const NONE: ReadonlyArray<never> = []

/** The keys of the flow's requests: the path's payment, or the create's id, reference and customer. */
const requestKeys: Rules['requestKeys'] = (request, ctx) => {
  const body = request.body as Loose | undefined
  if (request.path === '/payments') {
    return {
      paymentReferenceIDs: [ctx.paymentReferenceID.toLowerCase()],
      externalPaymentReferenceIDs: [String(body?.['externalPaymentReferenceID'])],
      customerExternalIDs: [String(body?.['customerExternalID'])],
      openInvoiceKids: NONE
    }
  }
  return { paymentReferenceIDs: [(request.path.split('/')[2] ?? '').toLowerCase()], externalPaymentReferenceIDs: NONE, customerExternalIDs: NONE, openInvoiceKids: NONE }
}

const formKeys = (id: string): RowKeys => ({ paymentReferenceIDs: [id.toLowerCase()], externalPaymentReferenceIDs: NONE, customerExternalIDs: NONE, openInvoiceKids: NONE })

/** A world of the rows as they are: maps by key, nothing checked. */
const worldOf: Rules['worldOf'] = (rows) =>
  E.right({
    payments: new Map((rows.payments ?? []).map((p) => [String((p as Loose)['paymentReferenceID']).toLowerCase(), p as Payment])),
    customers: new Map((rows.customers ?? []).map((c: CustomerRow) => [c.customerExternalID, c.customer])),
    references: new Map((rows.references ?? []).map((r) => [r.externalPaymentReferenceID, r]))
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
    const reference: ReferenceRow = { externalPaymentReferenceID: String(body['externalPaymentReferenceID']), paymentReferenceID: id, request: body as never }
    const after = withPayment(world, p)
    const next: World = { ...after, references: new Map(world.references).set(reference.externalPaymentReferenceID, reference) }
    const events = event('PaymentCreated', ctx.at)
    return handled(next, { status: 201, body: { paymentIntent: { paymentCreated: p, moneySplit: splits } } } as unknown as HttpResponse, delivery(p, 'Initiated', ctx.catchAllUrl), events, changesOf(p, events, reference))
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
  const events = event('PaymentPartiallyRefunded', ctx.at)
  return handled(withPayment(world, p), { status: 200, body: { splitList: splits, refundedSplit: [], message: 'ok', success: true } } as unknown as HttpResponse, delivery(p, 'PartiallyRefunded', ctx.catchAllUrl), events, changesOf(p, events))
}

const completeForm: Rules['completeForm'] = (world, id, ctx): FormOutcome => {
  const before = world.payments.get(id.toLowerCase()) as Loose | undefined
  if (before === undefined) return { world, result: E.left({ code: 'PaymentNotFound', message: '' }), deliveries: [], redirectUrl: undefined, events: [], changes: NO_CHANGES }
  const status = before['chargeImmediately'] === true ? 'Charged' : 'Reserved'
  const p: Loose = { ...before, status, chargedAmount: status === 'Charged' ? before['grossAmount'] : 0, version: before['version'] + 1, updatedAt: ctx.at }
  const events = event(status === 'Charged' ? 'PaymentCharged' : 'PaymentReserved', ctx.at)
  return {
    world: withPayment(world, p),
    result: E.right(p as Payment),
    deliveries: delivery(p, status, ctx.catchAllUrl),
    redirectUrl: String(before['successUrl']),
    events,
    changes: changesOf(p, events)
  }
}

/** The rules skipped: see the module's comment. */
export const baselineRules: Rules = {
  ...paysplitRules,
  requestKeys,
  formKeys,
  storedPayment: (state) => E.right(state as Payment),
  worldOf,
  handle,
  completeForm,
  webhookMessage: (d, timestamp) => ({
    url: d.url,
    id: d.id,
    timestamp,
    body: d.body,
    headers: { 'content-type': 'application/json', 'webhook-id': d.id, 'webhook-timestamp': String(timestamp) }
  })
}
