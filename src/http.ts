/**
 * `paysplit/http` — the payments service on the wire, as pure functions (docs/rules.md C5–C6,
 * C9–C10): routes, response bodies, HTTP status per error, webhook deliveries and their Standard
 * Webhooks messages, and the in-memory service model that runs whole requests, reads, the payment
 * form and bank transfers. No I/O: a server (see test/support/server.ts) brings sockets,
 * storage, the clock, identifiers and webhook transport.
 *
 * @packageDocumentation
 */

// routes
export { allowedMethods, isReadRoute, matchRoute, routeTakesBody } from './http/routes.js'
export type {
  CreatePaymentRoute,
  FindPaymentRoute,
  GetCustomerRoute,
  GetPaymentRoute,
  PaymentRoute,
  ReadRoute,
  Route,
  RouteMismatch,
  RouteName
} from './http/routes.js'

// responses and status codes
export {
  createPaymentResponse,
  errorResponse,
  httpStatusOf,
  mismatchResponse,
  successResponse
} from './http/responses.js'
export type {
  AdjustInvoiceBody,
  ChargeBody,
  CreatePaymentBody,
  CustomerBody,
  ErrorBody,
  HttpErrorCode,
  HttpResponse,
  MessageBody,
  PartialRefundBody,
  PaymentBody,
  ResponseBody,
  WireError,
  WireErrorCode
} from './http/responses.js'

// webhooks and their messages
export {
  normaliseWebhookEventType,
  webhookDeliveries,
  webhookEventTypeOf,
  webhookPaymentOf
} from './service/webhooks.js'
export type {
  WebhookDelivery,
  WebhookOptions,
  WebhookPayload
} from './service/webhooks.js'
export { moneySplitRecordOf, paymentCreatedOf } from './service/views.js'
export type { PaymentCreatedView, WebhookPayment } from './service/views.js'
export { webhookMessage } from './http/messages.js'
export type { WebhookMessage, WebhookMessageHeaders, WebhookMessageOptions } from './http/messages.js'

// the service model: the world and its reads, requests, the payment form and the bank
export { emptyWorld, getCustomer, getPayment } from './service/world.js'
export type { CreatedReference, Deliveries, World } from './service/world.js'
export { handle } from './http/handle.js'
export type { Handled, HandleContext, HttpRequest } from './http/handle.js'
export { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS, idempotencyEntryKey } from './http/idempotency.js'
export type { IdempotencyKeys, IdempotencyRecord } from './service/world.js'
export { completeForm, failForm, receiveTransfer, receiveTransferByKid } from './service/transfers.js'
export type { EventContext, FormOperated, Operated, Transfer } from './service/transfers.js'

// bank files: OCR giro
export { parseOcrGiro } from './bankFiles/ocrGiro.js'
export type { OcrAssignment, OcrRule, OcrTransaction, OcrTransmission } from './bankFiles/ocrGiro.js'
export { ocrTransmissionKey, receiveOcrGiro, receiveOcrTransaction } from './service/ocrReceive.js'
export type { OcrOutcome, OcrReceived, OcrReportRow, OcrTransactionReceived } from './service/ocrReceive.js'
