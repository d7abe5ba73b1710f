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
import { isPayment } from './payment.js'
import { validateState } from './codecs/storedState.js'
import { isTrusted, markTrusted } from './internal/trust.js'

// -------------------------------------------------------------------------------------
// trusted states
// -------------------------------------------------------------------------------------


/**
 * Freezes `value` and everything reachable from it that is not frozen yet. A frozen object is
 * not entered again: its parts were frozen with it. Arrays are walked by index (`Object.keys` of
 * an array of 100 000 splits would make 100 000 strings), and only values that are objects are
 * visited.
 */
const deepFreeze = <A>(value: A): A => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    if (Array.isArray(value)) {
      const items: ReadonlyArray<unknown> = value
      for (let i = 0; i < items.length; i++) {
        const item = items[i]
        /* v8 ignore else -- unreachable: every array a state or event holds (splits, allocation, attempts, subscriptions) is a list of records */
        if (typeof item === 'object' && item !== null) deepFreeze(item)
      }
    } else {
      const record = value as Record<string, unknown>
      for (const key of Object.keys(record)) {
        const item = record[key]
        if (typeof item === 'object' && item !== null) deepFreeze(item)
      }
    }
  }
  return value
}

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
 * Marks `after`, a payment `evolve` built from the trusted (so deep-frozen) state `before`, as
 * trusted and deep-freezes it. Only its new parts need freezing: a field that holds the very object
 * `before` held (the splits, the allocation, the customer, the subscriptions… an event did not
 * touch) is frozen already. The lists paysplit builds itself hold flat records only (see `next`,
 * `created`, `applyPatch`), so they are frozen without walking into each record; every other part
 * is walked by {@link deepFreeze}. A test checks that every state `transition` returns is
 * deep-frozen. Events are not frozen (it would cost more than the rest of a step, docs/performance.md, "Why the code looks like this"): they
 * are fresh, and whatever part of them the new state holds too (a patch's split list, the
 * customer) is frozen here as part of the state.
 */
export const trustAfter = (after: PaymentState, before: PaymentState): PaymentState => {
  /* v8 ignore if -- unreachable: an accepted command has at least one event, and each event gives a new state */
  if (after === before) return after
  /* v8 ignore if -- unreachable: a state after an accepted command is a payment (only CreatePayment is accepted before one exists) */
  if (!isPayment(after)) return trust(after)
  // a payment just created has nothing in common with "no payment yet": every part is new
  const b: Partial<Payment> = isPayment(before) ? before : {}
  Object.freeze(markTrusted(after))
  if (after.moneySplits !== b.moneySplits) freezeRecords(after.moneySplits)
  if (after.allocation !== b.allocation && after.allocation !== b.moneySplits) freezeRecords(after.allocation)
  if (after.formAttempts !== b.formAttempts) freezeRecords(after.formAttempts)
  // flat records (strings, numbers, booleans, null), as the codec makes them: nothing to walk into
  if (after.customer !== b.customer && after.customer !== undefined) Object.freeze(after.customer)
  if (after.webhookSubscriptions !== b.webhookSubscriptions) freezeRecords(after.webhookSubscriptions)
  if (after.metaData !== b.metaData) Object.freeze(after.metaData)
  return after
}

const trust = (state: PaymentState): PaymentState => deepFreeze(markTrusted(state))

/** The state to decide on: a trusted one as it is, any other validated into a fresh copy. */
export const admitState = (state: unknown): E.Either<PaymentError, PaymentState> => {
  if (isTrusted(state)) return E.right(state as PaymentState)
  const checked = validateState(state)
  return E.isRight(checked) ? E.right(trust(checked.right)) : checked
}

