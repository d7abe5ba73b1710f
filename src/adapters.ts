/**
 * The payment decider in the shapes two decider libraries run (docs/decisions.md, "Deciders of the
 * ecosystem"): fmodel-ts (`decide(command, state) → events`, a refusal thrown) and emmett
 * (`initialState()` a function, events and commands as `{ type, data }`, a refusal thrown). The
 * types here are written out structurally: paysplit imports neither library, at run time or for
 * its types, and still depends on fp-ts and io-ts only.
 *
 * These adapters throw, because that is how both libraries learn that a command was refused; the
 * rest of paysplit never throws. What they throw is a {@link PaymentRejected} carrying the
 * `PaymentError` as data.
 *
 * @module adapters
 */
import type { Command } from './commands.js'
import { decide } from './decide.js'
import type { PaymentError } from './errors.js'
import type { PaymentEvent } from './events.js'
import { evolve } from './evolve.js'
import type { PaymentState } from './payment.js'
import { initialState } from './payment.js'
import { isObject, own } from './internal/own.js'

// -------------------------------------------------------------------------------------
// the refusal
// -------------------------------------------------------------------------------------

/**
 * What the adapters throw when paysplit refuses a command: an `Error` whose `error` is the
 * `PaymentError` (`code`, `message`, `issues`…), for a handler to map to its answer.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { PaymentRejected } from 'paysplit'
 * const e = new PaymentRejected({ code: 'PaymentNotFound', message: 'There is no payment yet.' })
 * assert.ok(e instanceof Error)
 * assert.strictEqual(e.error.code, 'PaymentNotFound')
 * assert.strictEqual(e.message, 'There is no payment yet.')
 */
export class PaymentRejected extends Error {
  // declared, not a class field: a field would ship a helper to define it (the bundle targets
  // ES2020); assigned first, so the own keys come in the same order as a field's
  declare readonly error: PaymentError
  constructor(error: PaymentError) {
    super(error.message)
    ;(this as { error: PaymentError }).error = error
    this.name = 'PaymentRejected'
  }
}

/** `decide` with fmodel's and emmett's argument order: the events, or a thrown {@link PaymentRejected}. */
const decideOrThrow = (command: Command, state: PaymentState): ReadonlyArray<PaymentEvent> => {
  const decided = decide(state, command)
  if (decided._tag === 'Left') throw new PaymentRejected(decided.left)
  return decided.right
}

// -------------------------------------------------------------------------------------
// fmodel-ts
// -------------------------------------------------------------------------------------

/** fmodel-ts's `IDecider<C, S, E>`, written out: `decide(command, state)`, a refusal thrown. */
export interface FmodelDecider<C, S, E> {
  readonly decide: (command: C, state: S) => readonly E[]
  readonly evolve: (state: S, event: E) => S
  readonly initialState: S
}

/**
 * The payment decider as fmodel-ts's `IDecider` (`@fraktalio/fmodel-ts`): give it to
 * `EventSourcingAggregate` with your event repository. Commands may carry more fields than
 * paysplit reads (such as the `paymentReferenceID` a repository needs to find the stream of a
 * command other than the create): they are ignored.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { fmodelPaymentDecider, initialState } from 'paysplit'
 * assert.strictEqual(fmodelPaymentDecider.initialState, initialState)
 * assert.throws(() => fmodelPaymentDecider.decide({ type: 'ChargePayment', at: '2026-11-21T10:00:00.000Z' }, initialState), {
 *   name: 'PaymentRejected'
 * })
 */
export const fmodelPaymentDecider: FmodelDecider<Command, PaymentState, PaymentEvent> = {
  decide: decideOrThrow,
  evolve,
  initialState
}

// -------------------------------------------------------------------------------------
// emmett
// -------------------------------------------------------------------------------------

/**
 * A paysplit event as emmett stores events: `{ type, data }`, `data` the paysplit event itself
 * (typed as a record too, as emmett's `Event` wants its data).
 */
export interface EmmettPaymentEvent {
  readonly type: PaymentEvent['type']
  readonly data: PaymentEvent & Readonly<Record<string, unknown>>
}

/**
 * A paysplit event as emmett stores it: `{ type, data: event }`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { toEmmettEvent } from 'paysplit'
 * const e = { type: 'PaymentCancelled', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' } as const
 * assert.deepStrictEqual(toEmmettEvent(e), { type: 'PaymentCancelled', data: e })
 */
export const toEmmettEvent = (event: PaymentEvent): EmmettPaymentEvent => ({
  type: event.type,
  data: event as PaymentEvent & Readonly<Record<string, unknown>>
})

/** A paysplit command as emmett sends commands: `{ type, data }`, `data` its other fields. */
export interface EmmettPaymentCommand {
  readonly type: Command['type']
  readonly data: Readonly<Record<string, unknown>>
}

/** emmett's `Decider<State, Command, Event>`, written out: `initialState` a function, a refusal thrown. */
export interface EmmettDecider<S, C, E> {
  readonly decide: (command: C, state: S) => E[]
  readonly evolve: (state: S, event: E) => S
  readonly initialState: () => S
}

/**
 * The payment decider as emmett's `Decider` (`@event-driven-io/emmett`): give it to
 * `DeciderCommandHandler`, or to `DeciderSpecification.for` in tests. A command
 * `{ type, data }` is paysplit's command `{ type, ...data }`; each event is
 * `{ type, data: paysplitEvent }`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emmettPaymentDecider, initialState } from 'paysplit'
 * assert.strictEqual(emmettPaymentDecider.initialState(), initialState)
 * assert.throws(() => emmettPaymentDecider.decide({ type: 'CancelPayment', data: { at: '2026-11-21T10:00:00.000Z' } }, initialState), {
 *   name: 'PaymentRejected'
 * })
 */
export const emmettPaymentDecider: EmmettDecider<PaymentState, EmmettPaymentCommand, EmmettPaymentEvent> = {
  decide: (command, state) => {
    // own() reads nothing of what is no object
    const data = own(command, 'data')
    const type = own(command, 'type')
    return decideOrThrow({ ...(isObject(data) ? data : {}), type } as Command, state).map(toEmmettEvent)
  },
  evolve: (state, event) => evolve(state, event.data),
  initialState: () => initialState
}
