/**
 * Card gateways of the hosted form (docs/service.md, "The hosted form"): what takes the customer's
 * card when they press Pay. paysplit decides what a completed form does to the payment; a gateway
 * decides whether the card paid.
 *
 * The service has one implementation, the simulator: it approves `environment: "test"` payments
 * and nothing else, and moves no money. A live (`production`) payment needs a real gateway
 * passed to `createService` (`liveCardGateway`); without one the form says so and refuses to take
 * the payment.
 */
import type { Payment } from '../../../../src/index.js'

/** What the form asks a gateway for: the payment's amount, charged at once or reserved. */
export interface CardPaymentRequest {
  readonly paymentReferenceID: string
  readonly environment: Payment['environment']
  /** Minor units. */
  readonly amount: number
  readonly currency: string
  /** true: charge now (`chargeImmediately`); false: reserve, charged later by the API. */
  readonly capture: boolean
  readonly description?: string
  /**
   * The same for a repeat of one attempt (a double click, a retried request), different for the
   * next attempt after a refusal: a real gateway charges a key once.
   */
  readonly idempotencyKey: string
}

/** The gateway's answer: approved (its reference, for the logs), or declined with a reason the customer may see. */
export type CardPaymentOutcome = { readonly approved: true; readonly reference: string } | { readonly approved: false; readonly reason: string }

/** A card gateway: approves or declines; throws only when it cannot answer (then nothing changes). */
export interface CardGateway {
  /** For logs and the page. */
  readonly name: string
  pay(request: CardPaymentRequest): Promise<CardPaymentOutcome>
}

/** The simulated gateway: approves test payments, declines every other one. Moves no money. */
export const simulatedGateway: CardGateway = {
  name: 'simulator',
  pay: (request) =>
    Promise.resolve(
      request.environment === 'test'
        ? { approved: true, reference: `sim-${request.idempotencyKey}` }
        : { approved: false, reason: 'the simulated card gateway takes test payments only' }
    )
}

/** The gateway of a payment: the simulator for test payments, the live one (if any) for production ones. */
export const gatewayFor = (payment: Pick<Payment, 'environment'>, live: CardGateway | undefined): CardGateway | undefined =>
  payment.environment === 'test' ? simulatedGateway : live

/** The request of a payment's form attempt. */
export const cardPaymentRequest = (p: Payment): CardPaymentRequest => ({
  paymentReferenceID: p.paymentReferenceID,
  environment: p.environment,
  amount: p.grossAmount,
  currency: p.currency,
  capture: p.chargeImmediately === true,
  ...(p.description !== undefined ? { description: p.description } : {}),
  // one key per attempt: the failed attempts recorded so far number it
  idempotencyKey: `${p.paymentReferenceID}:${String(p.formAttempts.length)}`
})
