/**
 * Running one command on one payment of the world (docs/rules.md C6, C15): what `handle`, the form
 * and the bank operations share. The new world, the payment, its events, its webhooks and the
 * change a store writes, decided once.
 *
 * @module operation
 */
import * as E from '../internal/either.js'
import type { Command } from '../commands.js'
import { transition } from '../decider.js'
import type { PaymentError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import type { Payment, PaymentState } from '../payment.js'
import { isPayment } from '../payment.js'
import { admitState } from '../state/trustedState.js'
import { checkContext, unreadable, type Checked, type ContextExtra } from './context.js'
import { changesOf, paymentChangeOf, refused, type Operated, type PaymentChange } from './outcome.js'
import { webhookDeliveries } from './webhooks.js'
import { customerOf, isWorld, keyOf, notFound, stateOf, withEntry, type Deliveries, type World } from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The context of the operations the payment form and the bank cause. Only own properties are read. */
export interface EventContext {
  readonly at: string
  readonly catchAllUrl?: string
}

/** What running a command on one payment gave. @internal */
export interface Ran {
  readonly world: World
  readonly payment: Payment
  readonly events: ReadonlyArray<PaymentEvent>
  readonly deliveries: Deliveries
  readonly change: PaymentChange
}

// -------------------------------------------------------------------------------------
// running a command
// -------------------------------------------------------------------------------------

/** The webhooks of `events`, reporting the world's customer record (docs/rules.md C9). @internal */
export const deliveriesOf = (
  world: World,
  payment: Payment,
  events: ReadonlyArray<PaymentEvent>,
  catchAllUrl: string | undefined
): Deliveries =>
  // an undefined option is read as an absent one
  webhookDeliveries(payment, events, { catchAllUrl, customer: customerOf(world, payment) })

/**
 * Runs a command on one payment of the world; the webhooks report the world's customer record.
 * `state` is the payment's state when the caller admitted it already (so it is validated once).
 *
 * @internal
 */
export const run = (
  world: World,
  paymentReferenceID: string,
  command: Command,
  catchAllUrl: string | undefined,
  state: PaymentState = stateOf(world, paymentReferenceID)
): E.Either<PaymentError, Ran> => {
  const result = transition(state, command)
  if (E.isLeft(result)) return result
  // a state after an accepted command is a payment
  const [payment, events] = result.right as readonly [Payment, ReadonlyArray<PaymentEvent>]
  const next: World = { ...world, payments: withEntry(world.payments, keyOf(payment.paymentReferenceID), payment) }
  return E.right({ world: next, payment, events, deliveries: deliveriesOf(next, payment, events, catchAllUrl), change: paymentChangeOf(payment, events) })
}

/** The outcome of running a command: the world it gave, or the world as it was when the command failed. @internal */
export const operated = (world: World, ran: E.Either<PaymentError, Ran>): Operated =>
  E.isLeft(ran)
    ? refused(world, ran.left)
    : {
        world: ran.right.world,
        result: E.right(ran.right.payment),
        deliveries: ran.right.deliveries,
        events: ran.right.events,
        changes: changesOf({ payments: [ran.right.change] })
      }

/**
 * The payment as stored, admitted (validated if paysplit did not make it, then trusted): the state
 * the command runs on, so it is validated once; `undefined` when there is none.
 */
const admittedAt = (world: World, paymentReferenceID: string): E.Either<PaymentError, PaymentState> | undefined => {
  const stored = world.payments.get(keyOf(paymentReferenceID))
  return stored === undefined ? undefined : admitState(stored)
}

/**
 * Runs the command `commandOf` makes on one payment: the world, the id and the context checked
 * first (in that order), then the command. Also gives the payment as it was, when it can be read.
 *
 * @internal
 */
export const operate = (
  world: World,
  paymentReferenceID: unknown,
  ctx: unknown,
  commandOf: (c: Checked) => Command,
  extra?: ContextExtra
): readonly [operated: Operated, before: Payment | undefined] => {
  try {
    if (!isWorld(world) || typeof paymentReferenceID !== 'string') return [refused(world, unreadable), undefined]
    const admitted = admittedAt(world, paymentReferenceID)
    const before = admitted !== undefined && E.isRight(admitted) && isPayment(admitted.right) ? admitted.right : undefined
    const checked = checkContext(ctx, false, extra)
    if (E.isLeft(checked)) return [refused(world, checked.left), before]
    if (admitted === undefined) return [refused(world, notFound), undefined]
    if (E.isLeft(admitted)) return [refused(world, admitted.left), undefined]
    const c = checked.right
    return [operated(world, run(world, paymentReferenceID, commandOf(c), c.catchAllUrl, admitted.right)), before]
  } catch {
    return [refused(world, unreadable), undefined]
  }
}
