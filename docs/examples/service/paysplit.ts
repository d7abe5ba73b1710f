/**
 * Where the service meets paysplit: every library call the routes make goes through here, so the
 * rest of the service reads like any other Node service. Each function is a thin call of one
 * paysplit function; the few marked "until paysplit/http exports …" stand in for an operation of
 * docs/http.md that the library adds, and shrink to that one call once it does.
 */
import * as E from 'fp-ts/lib/Either.js'
import {
  decide,
  invalid,
  kid,
  paymentError,
  validateState,
  type Command,
  type Customer,
  type Payment,
  type PaymentError,
  type PaymentEvent,
  type PaymentState
} from '../../../src/index.js'
import {
  completeForm,
  failForm,
  handle,
  receiveTransfer,
  type CreatedReference,
  type EventContext,
  type HandleContext,
  type Handled,
  type HttpRequest,
  type Operated,
  type WebhookDelivery,
  type World
} from '../../../src/http.js'

/** A slice of the world built from database rows. */
export const worldOf = (
  payments: ReadonlyMap<string, Payment>,
  customers: ReadonlyMap<string, Customer>,
  references: ReadonlyMap<string, CreatedReference>
): World => ({ payments, customers, references })

/**
 * A state read from the database, checked before anything runs on it (it may have been written
 * by another release, or by hand): the payment, or why it cannot be used.
 */
export const storedPayment = (state: unknown): E.Either<PaymentError, Payment> => {
  const checked = validateState(state)
  if (E.isLeft(checked)) return checked
  const s = checked.right
  return s.status === 'NoPayment' ? E.left(paymentError('PaymentNotFound', 'The stored state holds no payment.')) : E.right(s)
}

/** The outcome of the payment form: like {@link Operated}, plus where the customer goes next. */
export type FormOutcome = readonly [World, E.Either<PaymentError, Payment>, ReadonlyArray<WebhookDelivery>, string | undefined]

/**
 * Where the form hands the customer back (docs/http.md, the payment form): the payment's
 * successUrl after a completed form, its failedUrl after a failed or refused one.
 * Until paysplit/http's completeForm/failForm return it as their fourth element.
 */
const withRedirect = (world: World, id: string, done: Operated, succeeded: boolean): FormOutcome => {
  const payment = world.payments.get(id.toLowerCase())
  const ok = E.isRight(done[1])
  const url = payment === undefined ? undefined : succeeded && ok ? payment.successUrl : payment.failedUrl
  return [done[0], done[1], done[2], url]
}

/** The customer pressed Pay. */
export const completeFormAt = (world: World, id: string, ctx: EventContext): FormOutcome =>
  withRedirect(world, id, completeForm(world, id, ctx), true)

/** The customer pressed Cancel (or the card was declined). */
export const failFormAt = (world: World, id: string, ctx: EventContext & { readonly reason?: string }): FormOutcome =>
  withRedirect(world, id, failForm(world, id, ctx), false)

/**
 * A bank transfer by KID: applied to the open invoice holding that KID, or `UnmatchedTransfer`
 * with the world unchanged. The slice given holds the open invoices with that KID (at most one:
 * the database's partial unique index). Until paysplit/http exports receiveTransferByKid.
 */
export const transferByKid = (
  world: World,
  transfer: { readonly kid: string; readonly amount: number },
  ctx: EventContext
): Operated => {
  const t: unknown = transfer
  const amount = typeof t === 'object' && t !== null ? (t as { amount?: unknown }).amount : undefined
  const k = typeof t === 'object' && t !== null ? (t as { kid?: unknown }).kid : undefined
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1) {
    return [world, E.left(invalid('amount', 'too_small', { min: 1 })), []]
  }
  if (typeof k !== 'string' || !kid.isValid(k)) return [world, E.left(invalid('kid', 'format', { format: 'kid' })), []]
  for (const p of world.payments.values()) {
    if (p.kind === 'invoice' && p.status === 'Initiated' && p.kid === transfer.kid) {
      return receiveTransfer(world, p.paymentReferenceID, transfer, ctx)
    }
  }
  return [world, E.left(unmatched), []]
}

const unmatched = { code: 'UnmatchedTransfer', message: 'No open invoice holds this KID; the transfer is parked for manual matching.' } as unknown as PaymentError

/** The error of a create whose KID an open invoice holds (answered 409). */
export const duplicateKid = {
  code: 'DuplicateKid',
  message: 'An open invoice already holds this KID.'
} as const

/** A webhook message per Standard Webhooks, without its signature (docs/http.md, webhook messages). */
export interface WebhookMessage {
  readonly url: string
  readonly id: string
  readonly timestamp: number
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The message of one delivery at `timestamp` (Unix seconds).
 * Until paysplit/http exports webhookMessage.
 */
export const messageOf = (delivery: WebhookDelivery, timestamp: number): WebhookMessage => {
  const body = JSON.stringify(delivery.payload)
  return {
    url: delivery.url,
    id: delivery.payload.eventID,
    timestamp,
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': delivery.payload.eventID,
      'webhook-timestamp': String(timestamp)
    }
  }
}

// -------------------------------------------------------------------------------------
// the rules, as one value
// -------------------------------------------------------------------------------------

/**
 * Every paysplit call the service makes, as one value: the routes, the store and the relay use
 * only these. `createService` takes another (tests swap in broken variants to prove the tests
 * catch them; the benchmark's baseline skips the rules to measure what they cost).
 */
export interface Rules {
  /** A state read from the database, checked. */
  readonly storedPayment: (state: unknown) => E.Either<PaymentError, Payment>
  /** One request of the payments API on a slice of the world. */
  readonly handle: (world: World, request: HttpRequest, ctx: HandleContext) => Handled
  /** The events of a command (decided again, to be stored). */
  readonly decide: (state: PaymentState, command: Command) => E.Either<PaymentError, ReadonlyArray<PaymentEvent>>
  readonly completeForm: (world: World, id: string, ctx: EventContext) => FormOutcome
  readonly failForm: (world: World, id: string, ctx: EventContext & { readonly reason?: string }) => FormOutcome
  readonly transferByKid: (world: World, transfer: { readonly kid: string; readonly amount: number }, ctx: EventContext) => Operated
  readonly webhookMessage: (delivery: WebhookDelivery, timestamp: number) => WebhookMessage
}

/** paysplit's rules. */
export const paysplitRules: Rules = {
  storedPayment,
  handle,
  decide,
  completeForm: completeFormAt,
  failForm: failFormAt,
  transferByKid,
  webhookMessage: messageOf
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
    decide: timed('decide'),
    completeForm: timed('completeForm'),
    failForm: timed('failForm'),
    transferByKid: timed('transferByKid'),
    webhookMessage: timed('webhookMessage')
  }
}
