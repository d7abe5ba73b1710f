/**
 * Trusted states: a state `transition` made is deep-frozen and marked, so the next command takes it
 * as it is; any other state (loaded from storage, or garbage) is validated in full into a fresh,
 * frozen copy first (docs/decisions.md, "Trusted states").
 *
 * @module trustedState
 */
import * as E from './internal/either.js'
import type { PaymentError } from './errors.js'
import type { Payment, PaymentState } from './payment.js'
import { initialState, isPayment } from './payment.js'
import { validateState } from './codecs/storedState.js'
import { isTrusted, markTrusted } from './internal/trust.js'

// -------------------------------------------------------------------------------------
// trusted states
// -------------------------------------------------------------------------------------

/**
 * Freezes a list of flat records (splits, allocations, form attempts: objects that hold only
 * strings, numbers and booleans) and each record in it; the records it shares with an older,
 * frozen list are frozen already, which `Object.freeze` finds out at once.
 */
const freezeRecords = (list: ReadonlyArray<object>): void => {
  if (Object.isFrozen(list)) return
  // the records before the list: reading a frozen list is slower (docs/performance.md, "Why the code looks like this")
  for (let i = 0; i < list.length; i++) Object.freeze(list[i])
  Object.freeze(list)
}

/**
 * Marks `after`, a payment `evolve` built from the trusted (so deep-frozen) state `before`, or
 * `validateState` built from a foreign one (then `before` is `initialState`), as trusted and
 * deep-freezes it. Only its new parts need freezing: a field that holds the very object `before`
 * held (the splits, the allocation, the customer, the subscriptions… an event did not touch) is
 * frozen already. Every part of a payment is a flat record or a list of flat records (see `next`,
 * `created`, `applyPatch`, `validateState`), so each is frozen without walking further. A test checks that every state `transition` returns is
 * deep-frozen. Events are not frozen (it would cost more than the rest of a step, docs/performance.md, "Why the code looks like this"): they
 * are fresh, and whatever part of them the new state holds too (a patch's split list, the
 * customer) is frozen here as part of the state.
 */
export const trustAfter = (after: PaymentState, before: PaymentState): PaymentState => {
  // `initialState` validated is `initialState` itself, trusted already (after a command: unreachable, each event gives a new state)
  if (after === before) return after
  Object.freeze(markTrusted(after))
  /* v8 ignore if -- unreachable: a state after an accepted command is a payment (only CreatePayment is accepted before one exists), and `{ status: 'NoPayment' }` holds nothing more to freeze */
  if (!isPayment(after)) return after
  // a payment just created, or validated, has nothing in common with "no payment yet": every part is new
  const b: Partial<Payment> = isPayment(before) ? before : {}
  if (after.moneySplits !== b.moneySplits) freezeRecords(after.moneySplits)
  if (after.allocation !== b.allocation && after.allocation !== b.moneySplits) freezeRecords(after.allocation)
  if (after.formAttempts !== b.formAttempts) freezeRecords(after.formAttempts)
  // flat records (strings, numbers, booleans, null), as the codec makes them: nothing to walk into
  if (after.customer !== b.customer && after.customer !== undefined) Object.freeze(after.customer)
  if (after.webhookSubscriptions !== b.webhookSubscriptions) freezeRecords(after.webhookSubscriptions)
  if (after.metaData !== b.metaData) Object.freeze(after.metaData)
  return after
}

/** The state to decide on: a trusted one as it is, any other validated into a fresh copy. */
export const admitState = (state: unknown): E.Either<PaymentError, PaymentState> => {
  if (isTrusted(state)) return E.right(state as PaymentState)
  const checked = validateState(state)
  // validateState builds a fresh payment of flat records: every part is frozen as new
  return E.isRight(checked) ? E.right(trustAfter(checked.right, initialState)) : checked
}

