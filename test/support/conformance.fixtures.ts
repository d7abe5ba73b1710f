/**
 * Deliberately broken variants of the reference service model, shared by the conformance tests
 * (in process: `conformance.brokenServices.test.ts`; over real sockets: the reference service with
 * `cancelInvoice` as its `handle`, reference-service.conformance.test.ts): each
 * wraps `handle` and changes one rule, so that the runner must find it.
 */
import { handle, type Deliveries, type HandleContext, type Handled, type HttpRequest, type HttpResponse, type World } from '../../src/http.js'
import type { PaymentEvent } from '../../src/events.js'
import type { Payment } from '../../src/payment.js'

export type Handler = (world: World, request: HttpRequest, ctx: HandleContext) => Handled

/** A broken variant's answer: its world, response, webhooks and events (no store writes its rows). */
export const handled = (world: World, response: HttpResponse, deliveries: Deliveries, events: ReadonlyArray<PaymentEvent>): Handled => ({
  world,
  response,
  deliveries,
  events,
  changes: { payments: [], customers: [], references: [], idempotencyKeys: [], ocrTransmissions: [] }
})

/** The payment a `/payments/{id}/…` path names, if the world holds it. */
export const paymentOf = (world: World, path: string): Payment | undefined => {
  const id = /^\/payments\/([^/]+)\//.exec(path)?.[1]
  return id === undefined ? undefined : world.payments.get(id.toLowerCase())
}

export const withPayment = (world: World, p: Payment): World => ({ ...world, payments: new Map(world.payments).set(p.paymentReferenceID.toLowerCase(), p) })

/** Cancel is allowed on an invoice (the invoice is cancelled as if it were a card). */
export const cancelInvoice: Handler = (world, request, ctx) => {
  const p = paymentOf(world, request.path)
  if (!request.path.endsWith('/cancel') || p === undefined || p.kind !== 'invoice') return handle(world, request, ctx)
  const { world: after, response, deliveries, events } = handle(withPayment(world, { ...p, kind: 'card', paymentGateway: 'creditcard', chargeImmediately: false, kid: undefined }), request, ctx)
  const q = paymentOf(after, request.path)
  return handled(q === undefined ? after : withPayment(after, { ...q, kind: 'invoice', paymentGateway: 'invoice', ...(p.chargeImmediately === undefined ? { chargeImmediately: undefined } : {}), kid: p.kid }), response, deliveries, events)
}

/** Charge is allowed when chargeImmediately is true (an Initiated payment is charged without the form). */
export const chargeImmediate: Handler = (world, request, ctx) => {
  const p = paymentOf(world, request.path)
  if (!request.path.endsWith('/charge') || p === undefined || p.chargeImmediately !== true || p.status !== 'Initiated') return handle(world, request, ctx)
  const { world: after, response, deliveries, events } = handle(withPayment(world, { ...p, chargeImmediately: false, status: 'Reserved' }), request, ctx)
  const q = paymentOf(after, request.path)
  return handled(q === undefined ? after : withPayment(after, { ...q, chargeImmediately: true }), response, deliveries, events)
}
