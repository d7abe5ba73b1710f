/**
 * paysplit — the rules engine of a platform payments service, as pure functions.
 *
 * Load a payment, call `transition(state, command)`, store the new state or the events, send the
 * webhooks, answer HTTP. Validation of wire bodies lives in `paysplit/codecs`; the HTTP mapping in
 * `paysplit/http`.
 *
 * @packageDocumentation
 */

// the decider
export { decide } from './decide.js'
export { evolve } from './evolve.js'
export { paymentDecider, replay, transition } from './decider.js'
export { emmettPaymentDecider, fmodelPaymentDecider, PaymentRejected, toEmmettEvent } from './adapters.js'
export type { EmmettDecider, EmmettPaymentCommand, EmmettPaymentEvent, FmodelDecider } from './adapters.js'
export type { Decider } from './decider.js'

// the state
export { initialState, isPayment, isTerminal, SCHEMA_VERSION } from './payment.js'
export type {
  Allocation,
  FormAttempt,
  MoneySplit,
  NoPayment,
  Payment,
  PaymentKind,
  PaymentState,
  PaymentStatus
} from './payment.js'
export { longStatus, parseStatus, paymentStatuses } from './status.js'
export { validateState } from './state/trustedState.js'

// commands and events
export { commandTypes } from './commands.js'
export type {
  AdjustInvoice,
  CancelPayment,
  ChargePayment,
  Command,
  CommandType,
  CompletePaymentForm,
  CreatePayment,
  FailPaymentForm,
  ReceiveInvoiceTransfer,
  RefundPartially,
  RefundPayment
} from './commands.js'
export type {
  AdjustedSplit,
  CustomerUpserted,
  InvoiceAdjusted,
  InvoiceTransferReceived,
  PaymentCancelled,
  PaymentCharged,
  PaymentCreated,
  PaymentEvent,
  PaymentEventType,
  PaymentFormFailed,
  PaymentPartiallyRefunded,
  PaymentRefunded,
  PaymentReserved,
  RefundedSplit
} from './events.js'

// the transition table
export { checkGuards, edges, guards } from './transitions.js'
export type { Edge, Guard, PaymentCommandType } from './transitions.js'

// errors
export { invalid, issue, issueReasons, paymentError, validationError } from './errors.js'
export type { ErrorCode, Issue, IssueCode, IssueParams, IssueReason, Messages, PaymentError } from './errors.js'

// money splits, patches and settlement
export { applyPatch, toAdjustedSplits, toRefundedSplits } from './patches.js'
export type { PatchOutcome, SplitChange } from './patches.js'
export { deleteSplitsPatch, proportionalPatch, setAmountsPatch } from './patchBuilders.js'
export type { ProportionalOptions, SplitAmount } from './patchBuilders.js'
export { settlement } from './settlement.js'
export type { Settlement, SettlementRow } from './settlement.js'

// invoices
export { kid } from './kid.js'
export type { KidAlgorithm } from './kid.js'

// wire body types (the codecs themselves are in `paysplit/codecs`)
export type {
  Customer,
  Environment,
  MetaData,
  MoneySplitPatch,
  MoneySplitRequest,
  PatchEntry,
  PaymentGateway,
  PaymentIntentRequest,
  UpdateType,
  WebhookEventType,
  WebhookSubscription
} from './codecs/requests.js'
