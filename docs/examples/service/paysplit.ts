/**
 * Where the service meets paysplit: every library call the routes, the store and the relay make
 * goes through the one {@link Rules} value of this module, so the rest of the service reads like
 * any other Node service, and a test or a benchmark can swap or time the rules in one place.
 */
import * as E from 'fp-ts/lib/Either.js'
import { paymentError, validateState, type Customer, type Payment, type PaymentError } from 'paysplit'
import {
  completeForm,
  failForm,
  handle,
  receiveTransferByKid,
  webhookMessage,
  type CreatedReference,
  type EventContext,
  type FormOperated,
  type HandleContext,
  type Handled,
  type HttpRequest,
  type Operated,
  type WebhookDelivery,
  type WebhookMessage,
  type World
} from 'paysplit/http'

/** A slice of the world built from database rows. */
export const worldOf = (
  payments: ReadonlyMap<string, Payment>,
  customers: ReadonlyMap<string, Customer>,
  references: ReadonlyMap<string, CreatedReference>
): World => ({ payments, customers, references })

/**
 * A state read from the database, checked before anything runs on it (it may have been written
 * by another release, or by hand): the payment, or why it cannot be used (a newer schemaVersion is
 * `UnsupportedSchemaVersion`). What `validateState` returns is trusted (frozen and marked), so
 * `handle` and the form and bank operations take it as it is: each row is validated once per
 * request.
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
 * only these. Each decision is made once: `handle` and the operations return the events they
 * applied, and the store writes exactly those (no command is decided again). `createService`
 * takes another (tests swap in broken variants to prove the tests catch them; the benchmark's
 * baseline skips the rules to measure what they cost).
 */
export interface Rules {
  /** A state read from the database, checked. */
  readonly storedPayment: (state: unknown) => E.Either<PaymentError, Payment>
  /** One request of the payments API on a slice of the world. */
  readonly handle: (world: World, request: HttpRequest, ctx: HandleContext) => Handled
  readonly completeForm: (world: World, id: string, ctx: EventContext) => FormOutcome
  readonly failForm: (world: World, id: string, ctx: EventContext & { readonly reason?: string }) => FormOutcome
  readonly transferByKid: (world: World, transfer: { readonly kid: string; readonly amount: number }, ctx: EventContext) => Operated
  readonly webhookMessage: (delivery: WebhookDelivery, timestamp: number) => WebhookMessage
}

/** paysplit's rules. */
export const paysplitRules: Rules = {
  storedPayment,
  handle,
  completeForm,
  failForm,
  transferByKid: receiveTransferByKid,
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
  const timed = <K extends keyof Rules>(name: K): Rules[K] => {
    const f = rules[name] as (...args: ReadonlyArray<unknown>) => unknown
    return ((...args: ReadonlyArray<unknown>): unknown => {
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
    }) as Rules[K]
  }
  return {
    storedPayment: timed('storedPayment'),
    handle: timed('handle'),
    completeForm: timed('completeForm'),
    failForm: timed('failForm'),
    transferByKid: timed('transferByKid'),
    webhookMessage: timed('webhookMessage')
  }
}
