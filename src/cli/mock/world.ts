/**
 * Every call the mock makes into paysplit, in one place: the mock's server (./server.ts) keeps a
 * world and hands each request, form post and bank post to these, which answer with the shipped
 * operations of `paysplit/http` (`handle`, `completeForm`, `failForm`, `receiveTransferByKid`,
 * `parseOcrGiro` and `receiveOcrGiro`) and nothing of their own: no second decider. Each answers
 * `{ world, result, deliveries }` from the operation's record (docs/rules.md C15), its result in
 * the shape the mock's server answers with.
 *
 * @module cli/mock/world
 */
import {
  completeForm,
  emptyWorld,
  errorResponse,
  failForm,
  getPayment,
  handle,
  httpStatusOf,
  parseOcrGiro,
  receiveOcrGiro,
  receiveTransferByKid,
  webhookMessage,
  type HttpResponse,
  type OcrReportRow,
  type WebhookDelivery,
  type WebhookMessage,
  type World
} from '../../http.js'
import { kid as kids, type Payment, type PaymentError } from '../../index.js'

export type { World, WebhookDelivery, WebhookMessage, Payment }

/** The world before anything happened. */
export const startWorld: World = emptyWorld

/** What an operation gave: the next world, its own result, and the webhooks to send. */
export interface MockOutcome<R> {
  readonly world: World
  readonly result: R
  readonly deliveries: ReadonlyArray<WebhookDelivery>
}

/** The service's side of a request: its time, a new payment's id and KID, the catch-all url, the caller's scope of idempotency keys. */
export interface RequestContext {
  readonly at: string
  readonly paymentReferenceID: string
  readonly kid: string
  readonly catchAllUrl?: string
  readonly idempotencyScope?: string
}

/** An API request, answered by `handle`. */
export const apiRequest = (
  world: World,
  request: { readonly method: string; readonly path: string; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> },
  ctx: RequestContext
): MockOutcome<HttpResponse> => {
  const { world: next, response, deliveries } = handle(world, request, ctx)
  return { world: next, result: response, deliveries }
}

/** Whether an answer is the refusal of a new invoice's KID that an open invoice holds (the mock then picks another). */
export const isDuplicateKid = (response: HttpResponse): boolean =>
  response.status === 409 && typeof response.body === 'object' && response.body !== null && JSON.stringify(response.body).includes('"DuplicateKid"')

/** The answer to a body that is not JSON, as `handle` words its other refusals. */
export const notJson = (): HttpResponse => errorResponse(undefined, { code: 'ValidationFailed', message: 'The request body is not valid JSON.' })

/** What the payment form's post did: the payment (or the error) and where the customer goes next. */
export interface FormResult {
  readonly payment?: Payment
  readonly error?: PaymentError
  /** The payment's `successUrl` or `failedUrl`; undefined when there is no such payment. */
  readonly redirectUrl?: string
}

/** The hosted form's Pay (`complete`) or Cancel (`fail`), by `completeForm` and `failForm`. */
export const formAction = (
  world: World,
  paymentReferenceID: string,
  action: 'complete' | 'fail',
  ctx: { readonly at: string; readonly reason?: string; readonly catchAllUrl?: string }
): MockOutcome<FormResult> => {
  const { world: next, result, deliveries, redirectUrl } =
    action === 'complete' ? completeForm(world, paymentReferenceID, ctx) : failForm(world, paymentReferenceID, ctx)
  return {
    world: next,
    result: { ...(result._tag === 'Right' ? { payment: result.right } : { error: result.left }), ...(redirectUrl !== undefined ? { redirectUrl } : {}) },
    deliveries
  }
}

/** A payment of the world, as stored. */
export const paymentOf = (world: World, paymentReferenceID: string): Payment | undefined => {
  const found = getPayment(world, paymentReferenceID)
  return found._tag === 'Some' ? found.value : undefined
}

/** An error as the HTTP answer paysplit gives it: its status and `{ success: false, error }`. */
export const errorAnswer = (error: PaymentError): { readonly status: number; readonly body: unknown } => ({
  status: httpStatusOf(error),
  body: { success: false, error: { code: error.code, message: error.message, ...(error.issues !== undefined ? { issues: error.issues } : {}) } }
})

/** A bank transfer by KID (`{ kid, amount }` as the bank posts it), by `receiveTransferByKid`. */
export const bankTransfer = (world: World, transfer: { readonly kid: unknown; readonly amount: unknown }, ctx: { readonly at: string; readonly catchAllUrl?: string }): MockOutcome<{ readonly payment?: Payment; readonly error?: PaymentError }> => {
  const { world: next, result, deliveries } = receiveTransferByKid(world, { kid: transfer.kid as string, amount: transfer.amount as number }, ctx)
  return { world: next, result: result._tag === 'Right' ? { payment: result.right } : { error: result.left }, deliveries }
}

/** What an OCR giro file did: refused whole, or applied (or found a duplicate) with a row per transaction. */
export type OcrResult =
  | { readonly ok: false; readonly error: PaymentError }
  | {
      readonly ok: true
      readonly transmissionNumber: string
      readonly dataSender: string
      /** The transmission had been applied before: nothing changed. */
      readonly duplicate: boolean
      readonly report: ReadonlyArray<OcrReportRow>
    }

/**
 * An OCR giro file as the bank sends it, read whole by `parseOcrGiro` and applied by
 * `receiveOcrGiro`. A transmission applied before writes no transmission row (its `changes`) and
 * reports every transaction `duplicate`.
 */
export const ocrFile = (world: World, text: string, ctx: { readonly at: string; readonly catchAllUrl?: string }): MockOutcome<OcrResult> => {
  const read = parseOcrGiro(text)
  if (read._tag === 'Left') return { world, result: { ok: false, error: read.left }, deliveries: [] }
  const t = read.right
  const { world: next, report, deliveries, changes } = receiveOcrGiro(world, t, ctx)
  const duplicate = changes.ocrTransmissions.length === 0 && report.every((row) => row.outcome === 'duplicate')
  return { world: next, result: { ok: true, transmissionNumber: t.transmissionNumber, dataSender: t.dataSender, duplicate, report }, deliveries }
}

/** A KID of `digits` and its MOD10 check digit (`kid.create`). */
export const kidOf = (digits: string): string => {
  const made = kids.create(digits, 'mod10')
  return made._tag === 'Right' ? made.right : '12345674'
}

/** A delivery as the Standard Webhooks message to sign and send (`webhookMessage`). */
export const messageOf = (delivery: WebhookDelivery, timestamp: number): WebhookMessage => webhookMessage(delivery, { timestamp })
