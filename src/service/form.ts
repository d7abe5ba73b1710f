/**
 * What the payment form reports (docs/rules.md C6, C9, C15), as pure operations on the world: a
 * completed or failed form attempt, and the URL the form sends the customer back to.
 *
 * @module form
 */
import * as E from '../internal/either.js'
import type { FormOperated } from './outcome.js'
import { operate, type EventContext } from './operation.js'
import { noKeys, type RowKeys } from './rows.js'
import { keyOf, type World } from './world.js'

/**
 * The rows {@link completeForm} and {@link failForm} can read for this payment (docs/rules.md
 * C15): the payment, by its id lower-cased as the world keys it; a store loads it with its
 * customer and reference, as for every operation. The other lists are empty, and an id that is
 * not a string names nothing. So the form's keys come from paysplit, as `requestKeys`,
 * `transferKeys` and `ocrKeys` give the others': a store needs no knowledge of its own. Never
 * throws.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { formKeys } from 'paysplit/http'
 * assert.deepStrictEqual(formKeys('0B7E3F1C-2A4D-4E8F-9C1B-5D6E7F8A9B0C'), {
 *   paymentReferenceIDs: ['0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'], externalPaymentReferenceIDs: [], customerExternalIDs: [], openInvoiceKids: []
 * })
 * assert.deepStrictEqual(formKeys(42 as unknown as string).paymentReferenceIDs, [])
 */
export const formKeys = (paymentReferenceID: string): RowKeys =>
  typeof paymentReferenceID === 'string' ? { ...noKeys, paymentReferenceIDs: [keyOf(paymentReferenceID)] } : noKeys

/**
 * The customer completed the payment form of a card payment: `Charged` when `chargeImmediately`,
 * else `Reserved`; the webhooks of that status; and the URL to send the customer to
 * (docs/rules.md C9): the payment's `successUrl`, or its `failedUrl` when the attempt is refused,
 * whatever the error (`undefined` only for no such payment, or one whose stored state cannot be
 * read). A context without a valid `at` or with a `catchAllUrl` that is not an absolute http(s)
 * URL is `Left` `InvalidContext`, nothing changed. A store loads the payment (with its customer
 * and reference) and writes `changes` (docs/rules.md C15).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { completeForm, emptyWorld, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const completed = completeForm(world, id, { at: '2026-11-21T10:05:00.000Z', catchAllUrl: 'https://hooks.example/all' })
 * const { result, deliveries, redirectUrl, events, changes } = completed
 * assert.ok(E.isRight(result) && result.right.status === 'Reserved')
 * assert.strictEqual(deliveries[0]?.eventType, 'Reserved')
 * assert.strictEqual(redirectUrl, 'https://shop.example/ok')
 * assert.deepStrictEqual(events.map((e) => e.type), ['PaymentReserved'])
 * // the row to write: the payment where its stored version is still 1, and its event numbered 2
 * assert.deepStrictEqual(changes.payments.map((p) => [p.fromVersion, p.state.version, p.events.map((e) => e.eventID)]), [[1, 2, [`${id}:2`]]])
 * // a second completion is refused: the customer still lands somewhere, nothing is applied
 * const again = completeForm(completed.world, id, { at: '2026-11-21T10:06:00.000Z' })
 * assert.ok(E.isLeft(again.result) && again.result.left.code === 'FormNotAllowedInStatus')
 * assert.strictEqual(again.redirectUrl, 'https://shop.example/failed')
 * assert.strictEqual(again.world, completed.world)
 * assert.strictEqual(again.events.length, 0)
 * assert.strictEqual(again.changes.payments.length, 0)
 */
export const completeForm = (world: World, paymentReferenceID: string, ctx: EventContext): FormOperated => {
  const [outcome, before] = operate(world, paymentReferenceID, ctx, (c) => ({ type: 'CompletePaymentForm', at: c.at }))
  const redirectUrl = before === undefined ? undefined : E.isRight(outcome.result) ? before.successUrl : before.failedUrl
  return { ...outcome, redirectUrl }
}

/**
 * A payment-form attempt failed: the payment stays `Initiated`, the attempt (and its reason) is
 * recorded; no webhook. The customer goes to the payment's `failedUrl` (docs/rules.md C9), also
 * when the attempt is refused; `undefined` only for no such payment, or one whose stored state
 * cannot be read.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emptyWorld, failForm, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const { result, deliveries, redirectUrl, events, changes } = failForm(world, id, { at: '2026-11-21T10:05:00.000Z', reason: 'card declined' })
 * assert.strictEqual(redirectUrl, 'https://shop.example/failed')
 * assert.deepStrictEqual(events.map((e) => e.type), ['PaymentFormFailed'])
 * assert.ok(E.isRight(result) && result.right.status === 'Initiated')
 * assert.deepStrictEqual(E.isRight(result) && result.right.formAttempts, [{ at: '2026-11-21T10:05:00.000Z', reason: 'card declined' }])
 * assert.strictEqual(deliveries.length, 0)
 * // no webhook, but the attempt is a change of the payment all the same
 * assert.strictEqual(changes.payments[0]?.events[0]?.event.type, 'PaymentFormFailed')
 */
export const failForm = (
  world: World,
  paymentReferenceID: string,
  ctx: EventContext & { readonly reason?: string }
): FormOperated => {
  // an absent reason is read as undefined, and the decider reads an undefined one as absent
  const [outcome, before] = operate(
    world,
    paymentReferenceID,
    ctx,
    (c) => ({ type: 'FailPaymentForm', at: c.at, reason: c.reason as string }),
    'reason'
  )
  return { ...outcome, redirectUrl: before?.failedUrl }
}
