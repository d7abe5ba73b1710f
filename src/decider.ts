/**
 * The payment decider: `{ initialState, decide, evolve }`, and `transition` and `replay` built from
 * it. Pure: no I/O, no clock (time arrives as the command's `at`), no randomness (identifiers
 * arrive on the command), nothing thrown, inputs never mutated. `decide` is in `decide.ts`,
 * `evolve` in `evolve.ts`, how a state is admitted in `trustedState.ts`.
 *
 * @module decider
 */
import * as E from './internal/either.js'
import type { Command } from './commands.js'
import type { PaymentError } from './errors.js'
import type { PaymentEvent } from './events.js'
import type { PaymentIntentRequest } from './codecs/requests.js'
import type { PaymentState } from './payment.js'
import { initialState } from './payment.js'
import { isTrusted } from './internal/trust.js'
import { decide, decideAdmitted, unreadable } from './decide.js'
import { applyEvent, evolve, evolvePlain } from './evolve.js'
import { admitState, trustAfter } from './state/trustedState.js'


// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * A decider (fmodel-ts `IDecider`, emmett's `Decider`): the whole behaviour of one payment as
 * plain data. `decide` turns a command into events or an error; `evolve` applies one event.
 */
export interface Decider<C, S, Ev, Err> {
  readonly initialState: S
  readonly decide: (state: S, command: C) => E.Either<Err, ReadonlyArray<Ev>>
  readonly evolve: (state: S, event: Ev) => S
}

// -------------------------------------------------------------------------------------
// the decider, transition and replay
// -------------------------------------------------------------------------------------

/**
 * The payment decider as plain data (`{ initialState, decide, evolve }`). Libraries that run
 * deciders generically want their own shapes: `fmodelPaymentDecider` (fmodel-ts) and
 * `emmettPaymentDecider` (emmett) are this decider in them, each tested on the library's own
 * in-memory machinery.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { paymentDecider, initialState, decide, evolve } from 'paysplit'
 * assert.strictEqual(paymentDecider.initialState, initialState)
 * assert.strictEqual(paymentDecider.decide, decide)
 * assert.strictEqual(paymentDecider.evolve, evolve)
 */
export const paymentDecider: Decider<Command, PaymentState, PaymentEvent, PaymentError> = {
  initialState,
  decide,
  evolve
}

/**
 * Runs one command: `Right([newState, events])` when `decide` accepts it, where `newState` is the
 * events folded over `state` by `evolve`; otherwise `Left(error)` and nothing changed. Never
 * throws, never mutates its inputs. The new state is a fresh, deep-frozen value that a later call
 * trusts without validating it again; the events are fresh values (not frozen: whatever part of
 * them the state holds too is frozen with the state, so changing an event changes no state).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { transition, initialState } from 'paysplit'
 * const r = transition(initialState, {
 *   type: 'CreatePayment',
 *   at: '2026-11-21T10:00:00.000Z',
 *   paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c',
 *   request: {
 *     externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *     chargeImmediately: false, sellerConnectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
 *     grossAmount: 10000, currency: 'NOK', customerExternalID: 'customer-42',
 *     successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *     moneySplitList: [
 *       { connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount: 9000, isFee: false },
 *       { connectedAccountID: '11111111-2222-4333-8444-555555555555', amount: 1000, isFee: true }
 *     ],
 *     webhookSubscriptions: [], metaData: {}
 *   }
 * })
 * assert.ok(r._tag === 'Right')
 * const [payment, events] = r.right
 * assert.strictEqual(payment.status, 'Initiated')
 * assert.deepStrictEqual(events.map((e) => e.type), ['PaymentCreated'])
 * const charged = transition(payment, { type: 'ChargePayment', at: '2026-11-21T10:01:00.000Z' })
 * assert.ok(charged._tag === 'Left' && charged.left.code === 'ChargeNotAllowedInStatus')
 */
export const transition = (
  state: PaymentState,
  command: Command
): E.Either<PaymentError, readonly [state: PaymentState, events: ReadonlyArray<PaymentEvent>]> =>
  transitionWith(state, command, undefined)

/**
 * The one body of {@link transition}: admit the state (a trusted one as it is), decide, fold the
 * events with `evolve`, trust the result. `decoded`, when given, is the `request` of a
 * `CreatePayment` that the caller decoded already with `decodePaymentIntentRequest` (the very value
 * it returned): it is not decoded again. `handle`'s create goes through here too.
 *
 * @internal
 */
export const transitionWith = (
  state: PaymentState,
  command: Command,
  decoded: PaymentIntentRequest | undefined
): E.Either<PaymentError, readonly [state: PaymentState, events: ReadonlyArray<PaymentEvent>]> => {
  try {
    // a trusted state (the usual case) as it is, without an Either to unwrap
    let s = state
    if (!isTrusted(state)) {
      const admitted = admitState(state)
      if (E.isLeft(admitted)) return admitted
      s = admitted.right
    }
    // what `decide(s, command)` does, without admitting `s` a second time
    const decided = decideAdmitted(s, command, decoded)
    if (E.isLeft(decided)) return decided
    const events = decided.right
    let after = s
    for (let i = 0; i < events.length; i++) after = applyEvent(after, events[i] as PaymentEvent)
    return E.right([trustAfter(after, s), events] as const)
  } catch {
    return E.left(unreadable)
  }
}

const AP: object = Array.prototype

/** Past this length a list of events is walked by its own keys, not by index (a sparse array). */
const SPARSE_FROM = 1 << 24

/**
 * Rebuilds a state from its events: `events.reduce(evolve, initialState)`, holes skipped as
 * `reduce` skips them, and only the list's own elements read (docs/decisions.md, "Replay"):
 * anything but an array rebuilds to `initialState`, and an array that claims a huge length is
 * walked by its own keys, in memory that does not grow with the length it claims.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { replay, initialState } from 'paysplit'
 * assert.strictEqual(replay([]), initialState)
 * const holes: Array<never> = []
 * holes.length = 2 ** 32 - 1
 * assert.strictEqual(replay(holes), initialState)
 */
export const replay = (events: ReadonlyArray<PaymentEvent>): PaymentState => {
  let s: PaymentState = initialState
  if (!Array.isArray(events)) return s
  const list: ReadonlyArray<PaymentEvent> = events
  const n = list.length
  if (n < SPARSE_FROM) {
    for (let i = 0; i < n; i++) {
      const e = list[i]
      // a hole, or an index a polluted prototype holds: skipped (`i in AP` is cheap, `hasOwn` not)
      if (e === undefined || (i in AP && !Object.hasOwn(list, i))) continue
      // the state is initialState or one evolve made: plain, as evolvePlain wants
      s = evolvePlain(s, e)
    }
    return s
  }
  // a list this long is sparse (or a proxy): its own index keys, ascending, are its elements
  // eslint-disable-next-line @typescript-eslint/no-for-in-array -- the keys of a sparse array, not its length, are what is walked; each is checked own and an index
  for (const key in list) {
    if (Object.hasOwn(list, key) && String(Number(key) >>> 0) === key && Number(key) < n) {
      s = evolvePlain(s, list[Number(key)] as PaymentEvent)
    }
  }
  return s
}
