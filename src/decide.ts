/**
 * `decide`: a command and the state it meets → the events that follow, or the error of the first
 * rule it breaks. The order of checks for every command (docs/rules.md, "Order of checks"):
 * 1. the state: one paysplit produced passes at once; any other is validated in full (a state
 *    loaded from storage, or garbage) → `ValidationFailed` (see `trustedState.ts`);
 * 2. the envelope: `type` known, `at` a valid timestamp → `ValidationFailed`;
 * 3. existence: `PaymentAlreadyExists` / `PaymentNotFound`;
 * 4. the guards of the transition table, in order (see `transitions.ts`);
 * 5. the command's own fields: the request, the patch's shape then its rules, the transfer's
 *    amount then its KID.
 *
 * @module decide
 */
import * as E from './internal/either.js'
import { validatePaymentIntentRequest } from './codecs/requestChecks.js'
import type { PaymentIntentRequest } from './codecs/requests.js'
import type { Command, CommandType } from './commands.js'
import { commandTypes } from './commands.js'
import type { PaymentError } from './errors.js'
import { invalid, paymentError, validationError } from './errors.js'
import { check, DESCRIPTION, fieldError, isRecord, type Issues, OBJECT, oneOf, POSITIVE, STRING, TIMESTAMP, UUID } from './codecs/fields.js'
import type {
  CustomerUpserted,
  InvoiceAdjusted,
  InvoiceTransferReceived,
  PaymentCharged,
  PaymentCreated,
  PaymentEvent,
  PaymentPartiallyRefunded,
  PaymentRefunded,
  RefundedSplit
} from './events.js'
import { KID_RULE } from './kid.js'
import { applyColumns, OP, returnedSplit, toAdjustedSplits, toRefundedSplits, type PatchOutcome } from './patches.js'
import { decodePatchColumns, listBound } from './patchColumns.js'
import type { MoneySplit, Payment, PaymentState } from './payment.js'
import { isPayment } from './payment.js'
import type { PaymentCommandType } from './transitions.js'
import { checkGuards } from './transitions.js'
import { isTimestamp } from './codecs/validators.js'
import { own } from './internal/own.js'
import { admitState } from './state/trustedState.js'


// -------------------------------------------------------------------------------------
// reading a command
// -------------------------------------------------------------------------------------


interface Envelope {
  readonly type: CommandType
  readonly at: string
  readonly fields: object
}

/** The command types, for a lookup that does not walk the list. */
const knownTypes: ReadonlySet<unknown> = new Set(commandTypes)

/** A command type, for the issue of one that is not. */
const COMMAND_TYPE = /* @__PURE__ */ oneOf(...commandTypes)

const decodeEnvelope = (command: unknown): E.Either<PaymentError, Envelope> => {
  if (!isRecord(command)) {
    return E.left(invalid('', 'type', OBJECT))
  }
  const c = command as Record<string, unknown>
  const type = Object.hasOwn(c, 'type') ? c['type'] : undefined
  const at = Object.hasOwn(c, 'at') ? c['at'] : undefined
  const typeKnown = knownTypes.has(type)
  const atValid = isTimestamp(at)
  if (typeKnown && atValid) return E.right({ type: type as CommandType, at, fields: command })
  const issues: Issues = []
  check(issues, type, '', -1, 'type', COMMAND_TYPE, true)
  check(issues, at, '', -1, 'at', TIMESTAMP, true)
  return E.left(validationError(issues))
}

// -------------------------------------------------------------------------------------
// decide
// -------------------------------------------------------------------------------------

/**
 * The request without its customer (the customer goes into its own event): a fresh object literal
 * naming every field, optional ones only when given, rather than a rest pattern (docs/performance.md, "Why the code looks like this").
 */
const withoutCustomer = (r: PaymentIntentRequest): Omit<PaymentIntentRequest, 'customer'> => {
  const o: { -readonly [K in keyof Omit<PaymentIntentRequest, 'customer'>]: PaymentIntentRequest[K] } = {
    externalPaymentReferenceID: r.externalPaymentReferenceID,
    environment: r.environment,
    paymentGateway: r.paymentGateway,
    sellerConnectedAccountID: r.sellerConnectedAccountID,
    grossAmount: r.grossAmount,
    currency: r.currency,
    moneySplitList: r.moneySplitList,
    customerExternalID: r.customerExternalID,
    webhookSubscriptions: r.webhookSubscriptions,
    successUrl: r.successUrl,
    failedUrl: r.failedUrl,
    metaData: r.metaData
  }
  const chargeImmediately = r.chargeImmediately
  if (chargeImmediately !== undefined && (!('chargeImmediately' in OP) || Object.hasOwn(r, 'chargeImmediately'))) o.chargeImmediately = chargeImmediately
  const tag = r.externalObjectIdTag
  if (tag !== undefined && (!('externalObjectIdTag' in OP) || Object.hasOwn(r, 'externalObjectIdTag'))) o.externalObjectIdTag = tag
  const description = r.description
  if (description !== undefined && (!('description' in OP) || Object.hasOwn(r, 'description'))) o.description = description
  return o
}

const decideCreate = (env: Envelope, decoded?: PaymentIntentRequest): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const f = env.fields as Record<string, unknown>
  const paymentReferenceID = Object.hasOwn(f, 'paymentReferenceID') ? f['paymentReferenceID'] : undefined
  const rawRequest = Object.hasOwn(f, 'request') ? f['request'] : undefined
  const rawKid = Object.hasOwn(f, 'kid') ? f['kid'] : undefined
  // a request the caller decoded already (transitionWith, from handle's create) is not decoded again
  const checked: { readonly issues: Issues; readonly value?: PaymentIntentRequest } =
    decoded !== undefined ? { issues: [], value: decoded } : validatePaymentIntentRequest(rawRequest)
  const issues = checked.issues
  check(issues, paymentReferenceID, '', -1, 'paymentReferenceID', UUID, true)
  const gateway =
    checked.value !== undefined
      ? checked.value.paymentGateway
      : own(rawRequest, 'paymentGateway')
  if (gateway === 'invoice') check(issues, rawKid, '', -1, 'kid', KID_RULE, true)
  const request = checked.value
  if (issues.length > 0 || request === undefined) return E.left(validationError(issues))
  const customer = Object.hasOwn(request, 'customer') ? request.customer : undefined
  const rest = customer === undefined ? request : withoutCustomer(request)
  const id = paymentReferenceID as string
  const created: PaymentCreated =
    request.paymentGateway === 'invoice'
      ? { type: 'PaymentCreated', at: env.at, paymentReferenceID: id, request: rest, kid: rawKid as string }
      : { type: 'PaymentCreated', at: env.at, paymentReferenceID: id, request: rest }
  if (customer === undefined) return E.right([created])
  const upserted: CustomerUpserted = {
    type: 'CustomerUpserted',
    at: env.at,
    paymentReferenceID: id,
    customerExternalID: request.customerExternalID,
    customer
  }
  return E.right([created, upserted])
}

const charged = (p: Payment, at: string, chargedAmount: number, excessRefundedAmount = 0): PaymentCharged => ({
  type: 'PaymentCharged',
  at,
  paymentReferenceID: p.paymentReferenceID,
  chargedAmount,
  excessRefundedAmount
})

/** The command's `patch`, its shape checked, then applied to the payment's splits (docs/rules.md C4). */
const patched = (p: Payment, fields: object): E.Either<PaymentError, PatchOutcome> => {
  const f = fields as Record<string, unknown>
  const checked = decodePatchColumns(Object.hasOwn(f, 'patch') ? f['patch'] : undefined, listBound(p.moneySplits.length))
  return checked.patch !== undefined && checked.issues.length === 0
    ? applyColumns(p, checked.patch, true)
    : E.left(validationError(checked.issues))
}

const refundPartially = (
  p: Payment,
  env: Envelope
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const outcome = patched(p, env.fields)
  if (E.isLeft(outcome)) return outcome
  const o = outcome.right
  const partial: PaymentPartiallyRefunded = {
    type: 'PaymentPartiallyRefunded',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    newGrossAmount: o.newGrossAmount,
    refundAmount: o.removedAmount,
    splitList: o.splitList,
    refundedSplit: toRefundedSplits(o)
  }
  if (o.newGrossAmount > 0) return E.right([partial])
  const refunded: PaymentRefunded = {
    type: 'PaymentRefunded',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    refundAmount: 0,
    refundedSplit: []
  }
  return E.right([partial, refunded])
}

const adjustInvoice = (
  p: Payment,
  env: Envelope
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const outcome = patched(p, env.fields)
  if (E.isLeft(outcome)) return outcome
  const o = outcome.right
  const settles = o.newGrossAmount <= p.paidAmount
  const excess = settles ? p.paidAmount - o.newGrossAmount : 0
  const adjusted: InvoiceAdjusted = {
    type: 'InvoiceAdjusted',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    newGrossAmount: o.newGrossAmount,
    splitList: o.splitList,
    adjustedSplit: toAdjustedSplits(o),
    excessRefundedAmount: excess
  }
  if (!settles) return E.right([adjusted])
  return E.right([adjusted, charged(p, env.at, p.paidAmount, excess)])
}

const receiveTransfer = (
  p: Payment,
  env: Envelope
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const amountIn = own(env.fields, 'amount')
  const badAmount = fieldError('amount', amountIn, POSITIVE)
  if (badAmount !== undefined) return E.left(badAmount)
  const amount = amountIn as number
  if (amount > Number.MAX_SAFE_INTEGER - p.paidAmount) {
    return E.left(invalid('amount', 'too_big', { max: Number.MAX_SAFE_INTEGER - p.paidAmount }))
  }
  const kid = own(env.fields, 'kid')
  if (typeof kid !== 'string') return E.left(kid === undefined || kid === null ? invalid('kid', 'required') : invalid('kid', 'type', STRING))
  if (!Object.hasOwn(p, 'kid') || kid !== p.kid) {
    return E.left(paymentError('KidMismatch', "The transfer's KID is not the invoice's KID."))
  }
  const paidAmount = p.paidAmount + amount
  const received: InvoiceTransferReceived = {
    type: 'InvoiceTransferReceived',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    amount,
    kid,
    paidAmount
  }
  if (paidAmount < p.grossAmount) return E.right([received])
  return E.right([received, charged(p, env.at, paidAmount, paidAmount - p.grossAmount)])
}

const fullRefund = (p: Payment, at: string): PaymentRefunded => {
  // a plain copy of the frozen splits, read by index: faster than reading the frozen list (docs/performance.md, "Why the code looks like this")
  const splits = [...p.moneySplits]
  const refundedSplit: Array<RefundedSplit> = []
  for (let i = 0; i < splits.length; i++) {
    const s = splits[i] as MoneySplit
    if (s.amount > 0) refundedSplit.push(returnedSplit(s, s.amount))
  }
  return { type: 'PaymentRefunded', at, paymentReferenceID: p.paymentReferenceID, refundAmount: p.grossAmount, refundedSplit }
}

const decidePayment = (
  p: Payment,
  env: Envelope & { readonly type: PaymentCommandType }
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const refused = checkGuards(p, env.type)
  if (refused !== undefined) return E.left(refused)
  const at = env.at
  const id = p.paymentReferenceID
  switch (env.type) {
    case 'CompletePaymentForm':
      return E.right([
        p.chargeImmediately === true && (!('chargeImmediately' in OP) || Object.hasOwn(p, 'chargeImmediately'))
          ? charged(p, at, p.grossAmount)
          : { type: 'PaymentReserved', at, paymentReferenceID: id }
      ])
    case 'FailPaymentForm': {
      const reason = own(env.fields, 'reason')
      if (reason === undefined) return E.right([{ type: 'PaymentFormFailed', at, paymentReferenceID: id }])
      const badReason = fieldError('reason', reason, DESCRIPTION, false)
      if (badReason !== undefined) return E.left(badReason)
      return E.right([{ type: 'PaymentFormFailed', at, paymentReferenceID: id, reason: reason as string }])
    }
    case 'ChargePayment':
      return E.right([charged(p, at, p.grossAmount)])
    case 'CancelPayment':
      return E.right([{ type: 'PaymentCancelled', at, paymentReferenceID: id }])
    case 'RefundPayment':
      return E.right([fullRefund(p, at)])
    case 'RefundPartially':
      return refundPartially(p, env)
    case 'AdjustInvoice':
      return adjustInvoice(p, env)
    case 'ReceiveInvoiceTransfer':
      return receiveTransfer(p, env)
    /* v8 ignore next -- exhaustive: the command type was validated by decodeEnvelope */
    default: {
      const exhaustive: never = env.type
      return exhaustive
    }
  }
}

/**
 * `decide` on a state admitted already; `decoded`, when given, is the `request` of a
 * `CreatePayment` that was decoded already, with `decodePaymentIntentRequest` (the very value it
 * returned, not a copy or a hand-built one): everything else (envelope, existence,
 * `paymentReferenceID`, KID) is checked as `decide` checks it (`decider.ts` `transitionWith`).
 */
export const decideAdmitted = (
  state: PaymentState,
  command: unknown,
  decoded?: PaymentIntentRequest
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const envelope = decodeEnvelope(command)
  if (E.isLeft(envelope)) return envelope
  const env = envelope.right
  if (env.type === 'CreatePayment') {
    return isPayment(state) ? E.left(paymentError('PaymentAlreadyExists', 'The payment already exists; it cannot be created again.')) : decideCreate(env, decoded)
  }
  if (!isPayment(state)) {
    return E.left(paymentError('PaymentNotFound', `There is no payment yet: ${env.type} needs a created payment.`))
  }
  return decidePayment(state, env as Envelope & { readonly type: PaymentCommandType })
}

/** The state or the command could not be read (a getter or proxy threw while it was validated). */
export const unreadable: PaymentError = invalid('', 'type', OBJECT)

/**
 * Decides what a command does to a payment: the events it causes, or the error of the first rule
 * it breaks (docs/rules.md C2 order: envelope, existence, guards, fields). Pure and total: never throws,
 * whatever `state` and `command` are; a state paysplit did not produce itself is validated first.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { decide, initialState } from 'paysplit'
 * const r = decide(initialState, { type: 'ChargePayment', at: '2026-11-21T10:00:00.000Z' })
 * assert.ok(r._tag === 'Left' && r.left.code === 'PaymentNotFound')
 */
export const decide = (
  state: PaymentState,
  command: Command
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  try {
    const admitted = admitState(state)
    if (E.isLeft(admitted)) return admitted
    const decided = decideAdmitted(admitted.right, command)
    return decided
  } catch {
    return E.left(unreadable)
  }
}

