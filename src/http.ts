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
  moneySplitRecordOf,
  paymentCreatedOf,
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
  PaymentCreatedView,
  ResponseBody,
  WebhookPayment,
  WireError,
  WireErrorCode
} from './http/responses.js'

// webhooks and their messages
export {
  normaliseWebhookEventType,
  webhookDeliveries,
  webhookEventTypeOf,
  webhookPaymentOf
} from './http/webhooks.js'
export type {
  WebhookDelivery,
  WebhookOptions,
  WebhookPayload
} from './http/webhooks.js'
export { webhookMessage } from './http/messages.js'
export type { WebhookMessage, WebhookMessageHeaders, WebhookMessageOptions } from './http/messages.js'

// the service model: the world and its reads, requests, the payment form and the bank
export { emptyWorld, getCustomer, getPayment } from './http/world.js'
export type { CreatedReference, Deliveries, World } from './http/world.js'
export { handle } from './http/service.js'
export type { Handled, HandleContext, HttpRequest } from './http/service.js'
export { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS, idempotencyEntryKey } from './http/idempotency.js'
export type { IdempotencyKeys, IdempotencyRecord } from './http/world.js'
export { completeForm, failForm, receiveTransfer, receiveTransferByKid } from './http/bank.js'
export type { EventContext, FormOperated, Operated, Transfer } from './http/bank.js'

// bank files: OCR giro
export { parseOcrGiro } from './http/ocr.js'
export type { OcrAssignment, OcrRule, OcrTransaction, OcrTransmission } from './http/ocr.js'
export { ocrGiroText } from './http/ocrText.js'
export type { OcrTextOptions } from './http/ocrText.js'
export { ocrTransmissionKey, receiveOcrGiro, receiveOcrTransaction } from './http/ocrReceive.js'
export type { OcrOutcome, OcrReceived, OcrReportRow, OcrTransactionReceived } from './http/ocrReceive.js'
