/**
 * `paysplit/http` — the payments service on the wire, as pure functions (docs/rules.md C5–C6): routes,
 * response bodies, HTTP status per error, webhook deliveries, and the in-memory service model
 * that runs whole requests. No I/O: a server (see docs/examples/server.ts) brings sockets,
 * storage, the clock, identifiers and webhook transport.
 *
 * @packageDocumentation
 */

// routes
export { allowedMethods, matchRoute, routeTakesBody } from './http/routes.js'
export type { CreatePaymentRoute, PaymentRoute, Route, RouteMismatch, RouteName } from './http/routes.js'

// responses and status codes
export {
  createPaymentResponse,
  errorResponse,
  httpStatusOf,
  mismatchResponse,
  moneySplitRecordOf,
  paymentCreatedOf,
  successResponse
} from './http/responses.js'
export type {
  AdjustInvoiceBody,
  ChargeBody,
  CreatePaymentBody,
  ErrorBody,
  ErrorDetail,
  HttpErrorCode,
  HttpResponse,
  MessageBody,
  MoneySplitRecord,
  PartialRefundBody,
  PaymentCreatedView,
  ResponseBody,
  WireError,
  WireErrorCode
} from './http/responses.js'

// webhooks
export {
  normaliseWebhookEventType,
  webhookDeliveries,
  webhookEventTypeOf,
  webhookPaymentOf
} from './http/webhooks.js'
export type {
  WebhookDelivery,
  WebhookOptions,
  WebhookPayload,
  WebhookPayment
} from './http/webhooks.js'

// the service model
export {
  completeForm,
  emptyWorld,
  failForm,
  getCustomer,
  getPayment,
  handle,
  receiveTransfer
} from './http/service.js'
export type {
  CreatedReference,
  EventContext,
  HandleContext,
  Handled,
  HttpRequest,
  Operated,
  World
} from './http/service.js'
