/**
 * `paysplit/http` — the payments service as pure functions (docs/rules.md C5–C6, C9–C10, C13–C15, C17):
 * the wire (routes, response bodies, HTTP status per error, `handle`, safe retries), the service
 * model it runs on (the world, the payment form, bank transfers, OCR giro files and camt.054
 * notifications read by `paysplit/camt054`, webhook deliveries and their Standard Webhooks
 * messages), and the store contract: which rows an operation reads (`requestKeys`,
 * `transferKeys`, `ocrKeys`, `camt054Keys`), a world from stored rows
 * (`worldOf`), and the rows to write (each operation's `changes`). No I/O: a server brings
 * sockets, storage, the clock, identifiers and webhook transport.
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
export { moneySplitRecordOf, paymentCreatedOf } from './service/views.js'
export type { PaymentCreatedView, WebhookPayment } from './service/views.js'

// webhooks and their messages
export {
  normaliseWebhookEventType,
  webhookDeliveries,
  webhookEventTypeOf,
  webhookPaymentOf
} from './service/webhooks.js'
export type {
  StoredDelivery,
  WebhookDelivery,
  WebhookOptions,
  WebhookPayload
} from './service/webhooks.js'
export { webhookMessage } from './http/messages.js'
export type { WebhookMessage, WebhookMessageHeaders, WebhookMessageOptions } from './http/messages.js'

// the world, its rows and its reads
export { camt054TransactionKey, emptyWorld, getCustomer, getPayment, idempotencyEntryKey, ocrTransmissionKey } from './service/world.js'
export type {
  Camt054MessageRow,
  Camt054TransactionRow,
  CreatedReference,
  CustomerRow,
  Deliveries,
  IdempotencyKeys,
  IdempotencyRecord,
  OcrTransmissionRow,
  ReferenceRow,
  StoredResponse,
  World
} from './service/world.js'

// what an operation decided, and what a store loads and writes
export type { Camt054Changes, Changes, FormOperated, Operated, Outcome, PaymentChange, VersionedEvent } from './service/outcome.js'
export { worldOf } from './service/rows.js'
export type { BankRowKeys, Camt054RowKeys, OcrTransmissionKey, RowError, RowKeys, WorldRows } from './service/rows.js'
export { requestKeys } from './http/requestKeys.js'

// requests
export { handle } from './http/handle.js'
export type { Handled, HandleContext, HttpRequest } from './http/handle.js'
export { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS } from './http/idempotency.js'

// the payment form and the bank
export type { EventContext } from './service/operation.js'
export { completeForm, failForm, formKeys } from './service/form.js'
export { receiveTransfer, receiveTransferByKid, transferKeys } from './service/transfers.js'
export type { Transfer } from './service/transfers.js'

// bank files: OCR giro
export { parseOcrGiro } from './bankFiles/ocrGiro.js'
export type { OcrAssignment, OcrRule, OcrTransaction, OcrTransmission } from './bankFiles/ocrGiro.js'
export { ocrGiroText } from './bankFiles/ocrText.js'
export type { OcrTextOptions } from './bankFiles/ocrText.js'
export { ocrKeys, receiveOcrGiro, receiveOcrTransaction } from './service/ocrReceive.js'
export type { OcrOutcome, OcrReceived, OcrReportRow, OcrTransactionReceived } from './service/ocrReceive.js'

// bank notifications: camt.054 read by `paysplit/camt054` (the one entry with an XML parser), applied here too
export { CAMT054_MEMORY_DAYS, camt054Keys, receiveCamt054 } from './service/camt054Receive.js'
export type { Camt054Received, Camt054ReportRow } from './service/camt054Receive.js'
export type { Camt054Notification, Camt054Refusal, Camt054Transaction, Camt054Version } from './bankFiles/camt054Model.js'
