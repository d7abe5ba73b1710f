/**
 * `paysplit/http` — the payments service on the wire, as pure functions (SPEC §5–§6): routes,
 * response bodies, HTTP status per error, webhook deliveries, and the in-memory service model
 * that runs whole requests. No I/O: a server (see docs/examples/server.ts) brings sockets,
 * storage, the clock, identifiers and webhook transport.
 *
 * @packageDocumentation
 */

// routes
export { allowedMethods, matchRoute, routeTakesBody } from './routes.js'
export type { CreatePaymentRoute, PaymentRoute, Route, RouteMismatch, RouteName } from './routes.js'

// responses and status codes
export {
  createPaymentResponse,
  errorResponse,
  httpStatusOf,
  mismatchResponse,
  moneySplitRecordOf,
  paymentCreatedOf,
  successResponse
} from './responses.js'
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
} from './responses.js'

// webhooks
export {
  normaliseWebhookEventType,
  webhookDeliveries,
  webhookEventTypeOf,
  webhookPaymentOf
} from './webhooks.js'
export type {
  WebhookDelivery,
  WebhookOptions,
  WebhookPayload,
  WebhookPayment
} from './webhooks.js'

// the service model
export {
  completeForm,
  emptyWorld,
  failForm,
  getCustomer,
  getPayment,
  handle,
  receiveTransfer
} from './service.js'
export type {
  CreatedReference,
  EventContext,
  HandleContext,
  Handled,
  HttpRequest,
  Operated,
  World
} from './service.js'
