/**
 * Where the service meets paysplit: every library call the routes, the store and the relay make
 * goes through the one {@link Rules} value of this module, so the rest of the service reads like
 * any other Node service, and a test or a benchmark can swap or time the rules in one place.
 *
 * The service is the store loop of paysplit's store contract (docs/http.md, "The store contract"):
 * the keys an operation names (`requestKeys`, `transferKeys`, `ocrKeys`, `camt054Keys`,
 * `formKeys`), exactly those rows loaded, `worldOf`, the operation, its `changes` written. It knows
 * no route of the payments API and compares no worlds.
 */
import * as E from 'fp-ts/lib/Either.js'
import { paymentError, validateState, type Payment, type PaymentError } from 'paysplit'
import { camt054Keys, parseCamt054, receiveCamt054, type Camt054Notification, type Camt054Received, type Camt054RowKeys } from 'paysplit/camt054'
import {
  completeForm,
  failForm,
  formKeys,
  handle,
  ocrKeys,
  parseOcrGiro,
  receiveOcrGiro,
  receiveTransferByKid,
  requestKeys,
  transferKeys,
  webhookMessage,
  worldOf,
  type BankRowKeys,
  type EventContext,
  type FormOperated,
  type HandleContext,
  type Handled,
  type HttpRequest,
  type OcrReceived,
  type OcrTransmission,
  type Operated,
  type RowError,
  type RowKeys,
  type StoredDelivery,
  type Transfer,
  type WebhookMessage,
  type World,
  type WorldRows
} from 'paysplit/http'

/**
 * A state read from the database, checked before anything runs on it (it may have been written
 * by another release, or by hand): the payment, or why it cannot be used (a newer schemaVersion is
 * `UnsupportedSchemaVersion`). What `validateState` returns is trusted (frozen and marked), so
 * `worldOf`, `handle` and the form and bank operations take it as it is. The store keeps what it
 * returns by the row's id, version and stored text (db/admitted.ts): a row is checked once, not on
 * every request that reads it.
 */
export const storedPayment = (state: unknown): E.Either<PaymentError, Payment> => {
  const checked = validateState(state)
  if (E.isLeft(checked)) return checked
  const s = checked.right
  return s.status === 'NoPayment' ? E.left(paymentError('PaymentNotFound', 'The stored state holds no payment.')) : E.right(s)
}

/** The outcome of the payment form: like {@link Operated}, plus where the customer goes next. */
export type FormOutcome = FormOperated

export type { WebhookMessage }

// -------------------------------------------------------------------------------------
// the rules, as one value
// -------------------------------------------------------------------------------------

/**
 * Every paysplit call the service makes, as one value: the routes, the store and the relay use
 * only these. Each decision is made once: the operations return the rows to write (`changes`) and
 * the webhooks to send, and the store writes exactly those (no command is decided again, no world
 * compared with another). `createService` takes another (tests swap in broken variants to prove
 * the tests catch them; the benchmark's baseline swaps in stand-ins to measure what the rules cost).
 */
export interface Rules {
  // what to load
  readonly requestKeys: (request: HttpRequest, ctx: HandleContext) => RowKeys
  readonly formKeys: (paymentReferenceID: string) => RowKeys
  readonly transferKeys: (transfer: Transfer) => BankRowKeys
  readonly ocrKeys: (transmission: OcrTransmission) => BankRowKeys
  readonly camt054Keys: (notification: Camt054Notification) => Camt054RowKeys
  // a world from the rows loaded
  /** A stored state, checked (once per row: the store keeps the answer, db/admitted.ts). */
  readonly storedPayment: (state: unknown) => E.Either<PaymentError, Payment>
  readonly worldOf: (rows: WorldRows) => E.Either<RowError, World>
  // the operations
  /** One request of the payments API on a slice of the world. */
  readonly handle: (world: World, request: HttpRequest, ctx: HandleContext) => Handled
  readonly completeForm: (world: World, id: string, ctx: EventContext) => FormOutcome
  readonly failForm: (world: World, id: string, ctx: EventContext & { readonly reason?: string }) => FormOutcome
  readonly transferByKid: (world: World, transfer: Transfer, ctx: EventContext) => Operated
  readonly parseOcrGiro: (text: string) => E.Either<PaymentError, OcrTransmission>
  readonly receiveOcrGiro: (world: World, transmission: OcrTransmission, ctx: EventContext) => OcrReceived
  readonly parseCamt054: (xml: string) => E.Either<PaymentError, Camt054Notification>
  readonly receiveCamt054: (world: World, notification: Camt054Notification, ctx: EventContext) => Camt054Received
  // the relay
  /** The message of an outbox row as it was stored (`{ url, id, body }`), to sign. */
  readonly webhookMessage: (delivery: StoredDelivery, timestamp: number) => WebhookMessage
}

/** paysplit's rules. */
export const paysplitRules: Rules = {
  requestKeys,
  formKeys,
  transferKeys,
  ocrKeys,
  camt054Keys,
  storedPayment,
  worldOf,
  handle,
  completeForm,
  failForm,
  transferByKid: receiveTransferByKid,
  parseOcrGiro,
  receiveOcrGiro,
  parseCamt054,
  receiveCamt054,
  webhookMessage: (delivery, timestamp) => webhookMessage(delivery, { timestamp })
}

/** Time spent in the rules: in all, and by rule. */
export interface Spent {
  ms: number
  readonly byRule: Record<string, number>
  /** Wall time of the requests, arrival to answer, summed (the server adds it). */
  requestMs: number
}

/** `rules` with the CPU time spent in each call added to `spent` (the benchmark's profile). */
export const timedRules = (rules: Rules, spent: Spent): Rules => {
  const timed = (name: keyof Rules): unknown => {
    const f = rules[name] as (...args: ReadonlyArray<unknown>) => unknown
    return (...args: ReadonlyArray<unknown>): unknown => {
      // CPU time, not wall time: on a busy machine a call may wait for a core, which is not its cost.
      const started = process.cpuUsage()
      try {
        return f(...args)
      } finally {
        const used = process.cpuUsage(started)
        const ms = (used.user + used.system) / 1000
        spent.ms += ms
        spent.byRule[name] = (spent.byRule[name] ?? 0) + ms
      }
    }
  }
  return Object.fromEntries((Object.keys(rules) as Array<keyof Rules>).map((name) => [name, timed(name)])) as unknown as Rules
}
