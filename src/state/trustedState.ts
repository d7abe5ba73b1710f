/**
 * Trusted states: a state `transition` made is deep-frozen and marked, so the next command takes it
 * as it is; any other state (loaded from storage, or garbage) is validated in full into a fresh,
 * frozen copy first (docs/decisions.md, "Trusted states").
 *
 * @module trustedState
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import type { Payment, PaymentState } from '../payment.js'
import { initialState, isPayment } from '../payment.js'
import { validateState as validateStored } from './storedState.js'
import { isTrusted, markTrusted } from '../internal/trust.js'

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
  const checked = validateStored(state)
  // validateState builds a fresh payment of flat records: every part is frozen as new
  return E.isRight(checked) ? E.right(trustAfter(checked.right, initialState)) : checked
}

/**
 * Checks a state that paysplit did not produce itself (loaded from storage, received from a
 * caller, garbage) and returns a fresh deep copy of it, deep-frozen and trusted: `transition`,
 * `decide`, `handle` and the world operations take it as it is, without validating it again
 * (docs/decisions.md, "The state"), so a service that checks each row it loads validates it
 * once per request. A state paysplit made (trusted already) comes back as it is. `initialState`
 * for any object whose `status` is `NoPayment`.
 *
 * Anything else gives `Left` with code `ValidationFailed` and one issue per problem found (at most
 * 100), each at a path below `state`: `state.grossAmount`, `state.moneySplits.2.amount`, or
 * `state` itself for a value that is not an object; each with the codecs' reason and params and
 * message. A higher `schemaVersion` than this release's is `UnsupportedSchemaVersion`. Only own
 * properties are read, each once; numbers given as `-0` are copied as `0`, except in `metaData`.
 *
 * Checked: every field's type, format and limits (as on create), the kind against the gateway,
 * and the money invariants: `grossAmount = Σ moneySplits[].amount`; cards have no `paidAmount`,
 * excess or KID; invoices are never `Reserved` or `Cancelled`; before the charge nothing is
 * charged, refunded or allocated (and an `Initiated` invoice is not yet fully paid); once charged
 * `chargedAmount = grossAmount + refundedAmount`, `excessRefundedAmount ≤ refundedAmount ≤
 * chargedAmount`, `Σ allocation = chargedAmount − excessRefundedAmount`, every current split is
 * allocated with at least its current amount, a `Refunded` payment's gross is 0 and a charged
 * invoice's `chargedAmount` is its `paidAmount`.
 *
 * Does not catch: a throwing getter or proxy throws through (the decider catches it).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { initialState, transition, validateState } from 'paysplit'
 * assert.deepStrictEqual(validateState({ status: 'NoPayment' }), E.right(initialState))
 * const bad = validateState({ status: 'Charged', grossAmount: -1 })
 * assert.ok(E.isLeft(bad) && bad.left.code === 'ValidationFailed')
 * assert.ok(E.isLeft(bad) && bad.left.issues?.some((i) => i.path === 'state.grossAmount'))
 * const garbage = validateState(42)
 * assert.ok(E.isLeft(garbage) && garbage.left.issues?.[0]?.path === 'state')
 * // a stored payment, read back: validated once, frozen, and taken as it is by the next command
 * const created = transition(initialState, {
 *   type: 'CreatePayment', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c',
 *   request: {
 *     externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *     chargeImmediately: false, sellerConnectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
 *     grossAmount: 10000, currency: 'NOK', customerExternalID: 'customer-42',
 *     successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *     moneySplitList: [{ connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount: 10000, isFee: false }],
 *     webhookSubscriptions: [], metaData: {}
 *   }
 * })
 * assert.ok(E.isRight(created))
 * const loaded = validateState(JSON.parse(JSON.stringify(created.right[0])))
 * assert.ok(E.isRight(loaded) && Object.isFrozen(loaded.right))
 * assert.deepStrictEqual(loaded.right, created.right[0])
 * assert.ok(E.isRight(transition(loaded.right, { type: 'CancelPayment', at: '2026-11-21T10:01:00.000Z' })))
 */
export const validateState = (input: unknown): E.Either<PaymentError, PaymentState> => admitState(input)
