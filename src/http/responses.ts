/**
 * Response bodies and HTTP status codes of the payments service (docs/rules.md I2.4, I2.6, I4, I7;
 * docs/rules.md C6). Success bodies are exactly the interface's; failure bodies of cancel, charge and full
 * refund keep their success shape with `success: false`, all others are
 * `{ success: false, error: { code, message, issues? } }`. Callers read the outcome from the
 * status code (docs/rules.md I4 rule 1, I7 item 1): every success is 2xx, every failure 4xx.
 *
 * @module responses
 */
import type { ErrorCode, Issue } from '../errors.js'
import type { AdjustedSplit, PaymentEvent, RefundedSplit } from '../events.js'
import type { MoneySplit, Payment, PaymentStatus } from '../payment.js'
import type { Customer } from '../codecs/requests.js'
import { hasOwn, isObject, own } from '../internal/own.js'
import { moneySplitRecordOf, optional, paymentCreatedOf, type PaymentCreatedView, type WebhookPayment } from '../service/views.js'
import { notFound } from '../service/world.js'
import type { CreatePaymentRoute, PaymentRoute, RouteMismatch, RouteName } from './routes.js'

// -------------------------------------------------------------------------------------
// model: errors on the wire
// -------------------------------------------------------------------------------------

/**
 * Codes of failures that belong to HTTP rather than to the payment rules:
 * `RouteNotFound` (404), `MethodNotAllowed` (405), `PayloadTooLarge` (413, a server's body limit)
 * and `ConcurrentModification` (409, a server that lost an optimistic-concurrency race more
 * often than it retries) and `IdempotencyKeyInFlight` (409, a server that runs a request whose
 * `idempotency-key` another request still holds, docs/rules.md C13).
 */
export type HttpErrorCode = 'RouteNotFound' | 'MethodNotAllowed' | 'PayloadTooLarge' | 'ConcurrentModification' | 'IdempotencyKeyInFlight'

/** Every code a response can carry: the payment rules' and HTTP's own. */
export type WireErrorCode = ErrorCode | HttpErrorCode

/** A failure on the wire: a `PaymentError` (from `paysplit`), or one of HTTP's own ({@link HttpErrorCode}). */
export interface WireError {
  readonly code: WireErrorCode
  readonly message: string
  readonly issues?: ReadonlyArray<Issue>
  readonly missing?: ReadonlyArray<number>
  readonly unknown?: ReadonlyArray<number>
  readonly repeated?: ReadonlyArray<number>
}

// -------------------------------------------------------------------------------------
// model: bodies
// -------------------------------------------------------------------------------------

/** Body of `POST /payments` (docs/rules.md I2.4). */
export interface CreatePaymentBody {
  readonly paymentIntent: {
    readonly paymentCreated: PaymentCreatedView
    readonly moneySplit: ReadonlyArray<MoneySplit>
  }
}

/**
 * Body of cancel and full refund (docs/rules.md I2.6): `response` a sentence on success (`null` on
 * failure), `error` the failure's message (`null` on success), and on failure `code`, the
 * failure's code (docs/rules.md C6, the code of a refusal), so a client tells refusals apart
 * without reading the message.
 */
export interface MessageBody {
  readonly response: string | null
  readonly success: boolean
  readonly error: string | null
  readonly code?: WireErrorCode
}

/** Body of charge (docs/rules.md I2.6): `code` on failure, as {@link MessageBody}'s. */
export interface ChargeBody {
  readonly success: boolean
  readonly error: string | null
  readonly code?: WireErrorCode
}

/** Body of a successful partial refund (docs/rules.md I2.6). */
export interface PartialRefundBody {
  readonly splitList: ReadonlyArray<MoneySplit>
  readonly refundedSplit: ReadonlyArray<RefundedSplit>
  readonly message: string
  readonly success: true
}

/** Body of a successful invoice adjustment (docs/rules.md C6). */
export interface AdjustInvoiceBody {
  readonly splitList: ReadonlyArray<MoneySplit>
  readonly adjustedSplit: ReadonlyArray<AdjustedSplit>
  readonly excessRefundedAmount: number
  readonly status: PaymentStatus
  readonly message: string
  readonly success: true
}

/** Failure body of create, partial refund, adjust, unknown routes and wrong methods. */
export interface ErrorBody {
  readonly success: false
  readonly error: WireError
}

/**
 * Body of `GET /payments/{id}` and `GET /payments?externalPaymentReferenceID=…` (docs/rules.md C9):
 * exactly the `payment` object of a webhook payload, for the payment as it is now.
 */
export interface PaymentBody {
  readonly payment: WebhookPayment
}

/** Body of `GET /customers/{customerExternalID}` (docs/rules.md C9): the stored customer record. */
export interface CustomerBody {
  readonly customer: Customer
}

/** Every response body. */
export type ResponseBody =
  | CreatePaymentBody
  | MessageBody
  | ChargeBody
  | PartialRefundBody
  | AdjustInvoiceBody
  | PaymentBody
  | CustomerBody
  | ErrorBody

/**
 * A response: status code, JSON body and, when there are any, headers (lower-case names): a 405
 * carries `allow`, the methods of that path (docs/rules.md C9).
 */
export interface HttpResponse {
  readonly status: number
  readonly body: ResponseBody
  readonly headers?: Readonly<Record<string, string>>
}

// -------------------------------------------------------------------------------------
// status codes
// -------------------------------------------------------------------------------------

/**
 * The HTTP status of every wire error code, the table of {@link httpStatusOf} (and of the OpenAPI
 * description, `npm run openapi`).
 *
 * @internal
 */
export const statusByCode: Readonly<Record<WireErrorCode, number>> = {
  ValidationFailed: 400,
  MissingCustomerExternalID: 400,
  GrossAmountMismatch: 400,
  PatchSplitMismatch: 400,
  SplitAmountIncrease: 400,
  NothingToChange: 400,
  KidMismatch: 400,
  PaymentNotFound: 404,
  CustomerNotFound: 404,
  UnmatchedTransfer: 404,
  RouteNotFound: 404,
  MethodNotAllowed: 405,
  PaymentAlreadyExists: 409,
  DuplicateExternalPaymentReference: 409,
  DuplicateKid: 409,
  FormNotUsedForInvoice: 409,
  FormNotAllowedInStatus: 409,
  ChargeNotAllowedForInvoice: 409,
  ChargeNotAllowedForImmediateCharge: 409,
  ChargeNotAllowedInStatus: 409,
  InvoiceCannotBeCancelled: 409,
  CancelNotAllowedInStatus: 409,
  RefundNotAllowedInStatus: 409,
  NothingToRefund: 409,
  NotAnInvoice: 409,
  AdjustNotAllowedInStatus: 409,
  TransferNotAllowedInStatus: 409,
  ConcurrentModification: 409,
  IdempotencyKeyInFlight: 409,
  PayloadTooLarge: 413,
  IdempotencyKeyReused: 422,
  InvalidContext: 500,
  UnsupportedSchemaVersion: 500
}

/**
 * The HTTP status of a failure (docs/rules.md C6): 400 for malformed or invalid input, 404 for an unknown
 * payment, customer or route (and for a bank transfer no open invoice matches), 405 for a wrong
 * method, 409 for a command the payment's kind or status forbids and for conflicts
 * (`NothingToRefund`, `PaymentAlreadyExists`, `DuplicateExternalPaymentReference`, `DuplicateKid`,
 * `ConcurrentModification`, `IdempotencyKeyInFlight`), 413 for a body over a server's limit, 422 for an
 * `idempotency-key` sent again with another request (`IdempotencyKeyReused`), 500 for the service's own
 * faults (`InvalidContext`, `UnsupportedSchemaVersion`). A PaymentError is a WireError, so `httpStatusOf(paymentError)` works; a code paysplit
 * does not know (a JavaScript caller's invention) gives 500.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { httpStatusOf } from 'paysplit/http'
 * assert.strictEqual(httpStatusOf({ code: 'CancelNotAllowedInStatus' }), 409)
 * assert.strictEqual(httpStatusOf({ code: 'GrossAmountMismatch' }), 400)
 * assert.strictEqual(httpStatusOf({ code: 'PaymentNotFound' }), 404)
 * assert.strictEqual(httpStatusOf({ code: 'IdempotencyKeyReused' }), 422)
 */
export const httpStatusOf = (error: { readonly code: WireErrorCode }): number => {
  const code: unknown = isObject(error) ? error.code : undefined
  return typeof code === 'string' && hasOwn(statusByCode, code)
    ? statusByCode[code as WireErrorCode]
    : 500
}

// -------------------------------------------------------------------------------------
// views
// -------------------------------------------------------------------------------------

const refundedSplitOf = (s: RefundedSplit): RefundedSplit => ({
  refundAmount: s.refundAmount,
  connectedAccountID: s.connectedAccountID,
  ...optional(s, 'description'),
  ...optional(s, 'externalID'),
  isFee: s.isFee
})

const adjustedSplitOf = (s: AdjustedSplit): AdjustedSplit => ({
  adjustedAmount: s.adjustedAmount,
  connectedAccountID: s.connectedAccountID,
  ...optional(s, 'description'),
  ...optional(s, 'externalID'),
  isFee: s.isFee
})

// -------------------------------------------------------------------------------------
// failure responses
// -------------------------------------------------------------------------------------

/** The error's code and message, and copies of its own lists only: a polluted `Object.prototype` adds none. */
const detailOf = (e: WireError): WireError => {
  const detail: Record<string, unknown> = { code: e.code, message: e.message }
  for (const key of ['issues', 'missing', 'unknown', 'repeated']) {
    const v = own(e, key)
    if (Array.isArray(v)) detail[key] = key === 'issues' ? v.map((i: Issue) => ({ ...i })) : [...(v as ReadonlyArray<number>)]
  }
  return detail as unknown as WireError
}

/**
 * The response of a failure at an endpoint (`undefined`: no endpoint, i.e. an unknown route or a
 * wrong method). Status by {@link httpStatusOf}; body by endpoint: cancel and full refund
 * `{ response: null, success: false, error: <message>, code }`, charge `{ success: false, error: <message>, code }`
 * (the interface's fields unchanged, plus the error's code: docs/rules.md C6),
 * all others `{ success: false, error: { code, message, issues? } }` (`missing`, `unknown`,
 * `repeated` too for a `PatchSplitMismatch`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { errorResponse } from 'paysplit/http'
 * const error = { code: 'InvoiceCannotBeCancelled', message: 'An invoice payment cannot be cancelled.' } as const
 * assert.deepStrictEqual(errorResponse('cancelPayment', error), {
 *   status: 409,
 *   body: { response: null, success: false, error: 'An invoice payment cannot be cancelled.', code: 'InvoiceCannotBeCancelled' }
 * })
 * assert.deepStrictEqual(errorResponse('adjustInvoice', { code: 'NothingToChange', message: 'The patch changes nothing.' }), {
 *   status: 400,
 *   body: { success: false, error: { code: 'NothingToChange', message: 'The patch changes nothing.' } }
 * })
 */
export const errorResponse = (route: RouteName | undefined, error: WireError): HttpResponse => {
  const status = httpStatusOf(error)
  switch (route) {
    case 'cancelPayment':
    case 'refundPayment':
      return { status, body: { response: null, success: false, error: error.message, code: error.code } }
    case 'chargePayment':
      return { status, body: { success: false, error: error.message, code: error.code } }
    default:
      return { status, body: { success: false, error: detailOf(error) } }
  }
}

/**
 * The response for a request that matches no endpoint: 404 `RouteNotFound`, 405
 * `MethodNotAllowed` (with the `allow` header), 404 `PaymentNotFound` in the shape of the endpoint
 * whose path has a `{paymentReferenceID}` that is not a UUID, or 404 `CustomerNotFound` for a
 * customer segment that is not valid percent-encoding. No message quotes the path.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { matchRoute, mismatchResponse } from 'paysplit/http'
 * const m = matchRoute('POST', '/payments/not-a-uuid/charge')
 * assert.ok(E.isLeft(m))
 * assert.deepStrictEqual(mismatchResponse(m.left), {
 *   status: 404,
 *   body: { success: false, error: 'No payment has this paymentReferenceID.', code: 'PaymentNotFound' }
 * })
 * const wrong = matchRoute('PUT', '/payments')
 * assert.ok(E.isLeft(wrong))
 * assert.deepStrictEqual(mismatchResponse(wrong.left).headers, { allow: 'GET, POST' })
 */
export const mismatchResponse = (m: RouteMismatch): HttpResponse => {
  switch (m.reason) {
    case 'RouteNotFound':
      return errorResponse(undefined, { code: 'RouteNotFound', message: 'No endpoint has this path.' })
    case 'MethodNotAllowed': {
      const allow = m.allow.join(', ')
      return { ...errorResponse(undefined, { code: 'MethodNotAllowed', message: `This endpoint accepts ${allow} only.` }), headers: { allow } }
    }
    case 'PaymentNotFound':
      return errorResponse(m.route.name, notFound)
    case 'CustomerNotFound':
      return errorResponse('getCustomer', { code: 'CustomerNotFound', message: 'No customer has this customerExternalID.' })
  }
}

// -------------------------------------------------------------------------------------
// success responses
// -------------------------------------------------------------------------------------

/**
 * The create response (docs/rules.md I2.4): 201 when this request created the payment, 200 when it was an
 * idempotent repeat of the request that did (the body then reports the payment as stored now).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { createPaymentResponse, emptyWorld, handle } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: true, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, description: 'Tickets', isFee: false }]
 * }
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const payment = world.payments.get(id)
 * assert.ok(payment !== undefined)
 * const repeat = createPaymentResponse(payment, false)
 * assert.strictEqual(repeat.status, 200)
 * assert.ok('paymentIntent' in repeat.body && repeat.body.paymentIntent.moneySplit.length === 1)
 */
export const createPaymentResponse = (payment: Payment, created: boolean): HttpResponse => ({
  status: created ? 201 : 200,
  body: {
    paymentIntent: {
      paymentCreated: paymentCreatedOf(payment),
      moneySplit: payment.moneySplits.map(moneySplitRecordOf)
    }
  }
})

/** The first event of this type the command emitted, if any. */
const findEvent = <T extends PaymentEvent['type']>(
  events: ReadonlyArray<PaymentEvent>,
  type: T
): Extract<PaymentEvent, { type: T }> | undefined =>
  events.find((e): e is Extract<PaymentEvent, { type: T }> => e.type === type)

/**
 * The success response of an endpoint, from the payment as it is after the command and the events
 * the command emitted (docs/rules.md C6, docs/rules.md I2.4 and I2.6). A create with no events is an idempotent
 * repeat (200); with events, a creation (201).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { transition } from 'paysplit'
 * import { emptyWorld, handle, successResponse } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const body = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: false, sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, description: 'Tickets', isFee: false }]
 * }
 * const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
 * const created = world.payments.get(id)
 * assert.ok(created !== undefined)
 * const cancelled = transition(created, { type: 'CancelPayment', at: '2026-11-21T10:01:00.000Z' })
 * assert.ok(E.isRight(cancelled))
 * const [payment, events] = cancelled.right
 * assert.ok(payment.status === 'Cancelled')
 * assert.deepStrictEqual(successResponse({ name: 'cancelPayment', paymentReferenceID: id }, payment, events), {
 *   status: 200,
 *   body: { response: 'The payment was cancelled.', success: true, error: null }
 * })
 */
export const successResponse = (
  route: CreatePaymentRoute | PaymentRoute,
  payment: Payment,
  events: ReadonlyArray<PaymentEvent>
): HttpResponse => {
  switch (route.name) {
    case 'createPayment':
      return createPaymentResponse(payment, events.length > 0)
    case 'cancelPayment':
      return { status: 200, body: { response: 'The payment was cancelled.', success: true, error: null } }
    case 'chargePayment':
      return { status: 200, body: { success: true, error: null } }
    case 'refundPayment':
      return { status: 200, body: { response: 'The payment was refunded in full.', success: true, error: null } }
    case 'refundPartially': {
      const e = findEvent(events, 'PaymentPartiallyRefunded')
      const amount = e?.refundAmount ?? 0
      const message =
        payment.status === 'Refunded'
          ? `${amount} was refunded; nothing remains, so the payment is now Refunded.`
          : `${amount} was refunded; ${payment.grossAmount} remains charged.`
      return {
        status: 200,
        body: {
          splitList: (e?.splitList ?? payment.moneySplits).map(moneySplitRecordOf),
          refundedSplit: (e?.refundedSplit ?? []).map(refundedSplitOf),
          message,
          success: true
        }
      }
    }
    case 'adjustInvoice': {
      const e = findEvent(events, 'InvoiceAdjusted')
      const excess = e?.excessRefundedAmount ?? 0
      const message =
        payment.status === 'Charged'
          ? `The invoice now amounts to ${payment.grossAmount}; what was paid covers it, so it is Charged` +
            (excess > 0 ? ` and the excess ${excess} is refunded.` : '.')
          : `The invoice now amounts to ${payment.grossAmount}; ${payment.grossAmount - payment.paidAmount} remains to be paid.`
      return {
        status: 200,
        body: {
          splitList: (e?.splitList ?? payment.moneySplits).map(moneySplitRecordOf),
          adjustedSplit: (e?.adjustedSplit ?? []).map(adjustedSplitOf),
          excessRefundedAmount: excess,
          status: payment.status,
          message,
          success: true
        }
      }
    }
  }
}
