/**
 * The payment decider: `{ initialState, decide, evolve }`, and `transition` and `replay` built from
 * it. Pure: no I/O, no clock (time arrives as the command's `at`), no randomness (identifiers
 * arrive on the command), nothing thrown, inputs never mutated.
 *
 * The flow of every command (SPEC §2):
 * 1. the state: one paysplit produced passes at once; any other is validated in full (a state
 *    loaded from storage, or garbage) → `ValidationFailed`;
 * 2. the envelope: `type` known, `at` a valid timestamp → `ValidationFailed`;
 * 3. existence: `PaymentAlreadyExists` / `PaymentNotFound`;
 * 4. the guards of the transition table, in order (see `transitions.ts`);
 * 5. the command's own fields: the request (§3), the patch's shape then the §4 rules, the
 *    transfer's amount then its KID.
 *
 * @module decider
 */
import * as E from './either.js'
import { validatePaymentIntentRequest } from './requestChecks.js'
import type { MetaData, PaymentIntentRequest } from './requests.js'
import type { Command, CommandType } from './commands.js'
import { commandTypes } from './commands.js'
import type { Issue, PaymentError } from './errors.js'
import { invalid, paymentError, validationError } from './errors.js'
import type {
  CustomerUpserted,
  InvoiceAdjusted,
  InvoiceTransferReceived,
  PaymentCharged,
  PaymentCreated,
  PaymentEvent,
  PaymentPartiallyRefunded,
  PaymentRefunded,
  RefundedSplit
} from './events.js'
import { kid as kidNumber } from './kid.js'
import { applyColumns, readPatchColumns, returnedSplit, toAdjustedSplits, toRefundedSplits, withAmount, type PatchColumns } from './patches.js'
import type { MoneySplit, Payment, PaymentState } from './payment.js'
import { initialState, isPayment } from './payment.js'
import { validateState } from './state.js'
import { isTrusted, markTrusted } from './trust.js'
import type { PaymentCommandType } from './transitions.js'
import { checkGuards } from './transitions.js'
import { isAmount, isTimestamp, isUuid } from './validators.js'

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
  if (list === NONE || Object.isFrozen(list)) return
  // the records before the list: V8 reads an element of a frozen array through a slow generic
  // path (~100 machine instructions, five times a plain array's)
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
 * deep-frozen. Events are not frozen (freezing a small array costs ~45 ns, more than the rest of a
 * step): they are fresh, and whatever part of them the new state holds too (a patch's split list,
 * the customer) is frozen here as part of the state.
 */
const trustAfter = (after: PaymentState, before: PaymentState): PaymentState => {
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
const admitState = (state: unknown): E.Either<PaymentError, PaymentState> => {
  if (isTrusted(state)) return E.right(state as PaymentState)
  const checked = validateState(state)
  return E.isRight(checked) ? E.right(trust(checked.right)) : checked
}

// -------------------------------------------------------------------------------------
// reading a command
// -------------------------------------------------------------------------------------


/**
 * The own property `key` of `o`, read once; `undefined` when absent. For the fields read on
 * every command (`type`, `at`, a create's fields, a patch) the same test is written out at the
 * call site instead (`Object.hasOwn(o, 'at') ? o['at'] : undefined`): V8 keeps the shapes it saw
 * per property access in the source, so a helper that reads every key through one access
 * (megamorphic) costs several times as much as a property read of its own.
 */
const own = (o: object, key: string): unknown =>
  Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined

interface Envelope {
  readonly type: CommandType
  readonly at: string
  readonly fields: object
}

/** The command types, for a lookup that does not walk the list. */
const knownTypes: ReadonlySet<unknown> = new Set(commandTypes)

const readEnvelope = (command: unknown): E.Either<PaymentError, Envelope> => {
  if (typeof command !== 'object' || command === null || Array.isArray(command)) {
    return E.left(invalid('', 'A command must be an object with a type and an at.'))
  }
  const c = command as Record<string, unknown>
  const type = Object.hasOwn(c, 'type') ? c['type'] : undefined
  const at = Object.hasOwn(c, 'at') ? c['at'] : undefined
  const typeKnown = knownTypes.has(type)
  const atValid = isTimestamp(at)
  if (typeKnown && atValid) return E.right({ type: type as CommandType, at, fields: command })
  const issues: Array<Issue> = []
  if (!typeKnown) {
    issues.push({
      path: 'type',
      code: 'ValidationFailed',
      message: `type must be one of ${commandTypes.join(', ')}.`
    })
  }
  if (!atValid) {
    issues.push({
      path: 'at',
      code: 'ValidationFailed',
      message: 'at must be an ISO 8601 UTC timestamp with fractional seconds, such as 2026-11-21T10:00:00.000Z.'
    })
  }
  return E.left(validationError(issues))
}

// -------------------------------------------------------------------------------------
// decide
// -------------------------------------------------------------------------------------

/**
 * The request without its customer (the customer goes into its own event). A fresh object
 * literal naming every field (optional ones only when present), not `{ customer, ...rest }`:
 * V8 copies an object rest pattern through a slow generic path.
 */
const withoutCustomer = (r: PaymentIntentRequest): Omit<PaymentIntentRequest, 'customer'> => {
  const o: { -readonly [K in keyof Omit<PaymentIntentRequest, 'customer'>]: PaymentIntentRequest[K] } = {
    externalPaymentReferenceID: r.externalPaymentReferenceID,
    environment: r.environment,
    paymentGateway: r.paymentGateway,
    sellerConnectedAccountID: r.sellerConnectedAccountID,
    grossAmount: r.grossAmount,
    currency: r.currency,
    moneySplitList: r.moneySplitList,
    customerExternalID: r.customerExternalID,
    webhookSubscriptions: r.webhookSubscriptions,
    successUrl: r.successUrl,
    failedUrl: r.failedUrl,
    metaData: r.metaData
  }
  if (r.chargeImmediately !== undefined) o.chargeImmediately = r.chargeImmediately
  if (r.externalObjectIdTag !== undefined) o.externalObjectIdTag = r.externalObjectIdTag
  if (r.description !== undefined) o.description = r.description
  return o
}

/**
 * `m`, a decoded metaData, on maps that V8 shares between payments. The codec copies the input
 * with a spread (`{ ...input }`), and V8 gives such a copy a map of its own, which `Object.freeze`
 * must then copy into yet another one (two maps made and kept per payment: about 7 800 machine
 * instructions a create, garbage collection included); `Object.assign` into `{}` builds the same
 * object, key by key in the same order, on shared maps. The same, that is, unless
 * `Object.prototype` has one of the keys (`__proto__`, or anything a script put there): `{}`'s
 * [[Set]] would meet it, so `m` stays.
 */
const sharedShape = (m: MetaData): MetaData => {
  for (const key in m) if (key in Object.prototype) return m
  return Object.assign({}, m)
}

const decideCreate = (env: Envelope): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const f = env.fields as Record<string, unknown>
  const paymentReferenceID = Object.hasOwn(f, 'paymentReferenceID') ? f['paymentReferenceID'] : undefined
  const rawRequest = Object.hasOwn(f, 'request') ? f['request'] : undefined
  const rawKid = Object.hasOwn(f, 'kid') ? f['kid'] : undefined
  const checked = validatePaymentIntentRequest(rawRequest)
  const issues: Array<Issue> = [...checked.issues]
  if (typeof paymentReferenceID !== 'string' || !isUuid(paymentReferenceID)) {
    issues.push({
      path: 'paymentReferenceID',
      code: 'ValidationFailed',
      message: 'paymentReferenceID must be a UUID (8-4-4-4-12 hexadecimal digits).'
    })
  }
  const gateway =
    checked.value !== undefined
      ? checked.value.paymentGateway
      : typeof rawRequest === 'object' && rawRequest !== null
        ? own(rawRequest, 'paymentGateway')
        : undefined
  if (gateway === 'invoice' && !kidNumber.isValid(rawKid)) {
    issues.push({
      path: 'kid',
      code: 'ValidationFailed',
      message:
        'An invoice needs a valid KID: 2 to 25 digits, the last a MOD10 or MOD11 check digit (or "-" for MOD11).'
    })
  }
  const request = checked.value
  if (issues.length > 0 || request === undefined) return E.left(validationError(issues))
  // the codec's fresh object, seen by no one else yet: the same key keeps its place
  const fresh: { metaData: MetaData } = request
  fresh.metaData = sharedShape(request.metaData)
  const customer = request.customer
  const rest = customer === undefined ? request : withoutCustomer(request)
  const id = paymentReferenceID as string
  const created: PaymentCreated =
    request.paymentGateway === 'invoice'
      ? { type: 'PaymentCreated', at: env.at, paymentReferenceID: id, request: rest, kid: rawKid as string }
      : { type: 'PaymentCreated', at: env.at, paymentReferenceID: id, request: rest }
  if (customer === undefined) return E.right([created])
  const upserted: CustomerUpserted = {
    type: 'CustomerUpserted',
    at: env.at,
    paymentReferenceID: id,
    customerExternalID: request.customerExternalID,
    customer
  }
  return E.right([created, upserted])
}

const charged = (p: Payment, at: string, chargedAmount: number): PaymentCharged => ({
  type: 'PaymentCharged',
  at,
  paymentReferenceID: p.paymentReferenceID,
  chargedAmount,
  excessRefundedAmount: 0
})

const readPatch = (fields: object): E.Either<PaymentError, PatchColumns> => {
  const f = fields as Record<string, unknown>
  const checked = readPatchColumns(Object.hasOwn(f, 'patch') ? f['patch'] : undefined)
  return checked.patch !== undefined && checked.issues.length === 0
    ? E.right(checked.patch)
    : E.left(validationError(checked.issues))
}

const refundPartially = (
  p: Payment,
  env: Envelope
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const patch = readPatch(env.fields)
  if (E.isLeft(patch)) return patch
  const outcome = applyColumns(p, patch.right, true)
  if (E.isLeft(outcome)) return outcome
  const o = outcome.right
  const partial: PaymentPartiallyRefunded = {
    type: 'PaymentPartiallyRefunded',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    newGrossAmount: o.newGrossAmount,
    refundAmount: o.removedAmount,
    splitList: o.splitList,
    refundedSplit: toRefundedSplits(o)
  }
  if (o.newGrossAmount > 0) return E.right([partial])
  const refunded: PaymentRefunded = {
    type: 'PaymentRefunded',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    refundAmount: 0,
    refundedSplit: []
  }
  return E.right([partial, refunded])
}

const adjustInvoice = (
  p: Payment,
  env: Envelope
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const patch = readPatch(env.fields)
  if (E.isLeft(patch)) return patch
  const outcome = applyColumns(p, patch.right, true)
  if (E.isLeft(outcome)) return outcome
  const o = outcome.right
  const settles = o.newGrossAmount <= p.paidAmount
  const excess = settles ? p.paidAmount - o.newGrossAmount : 0
  const adjusted: InvoiceAdjusted = {
    type: 'InvoiceAdjusted',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    newGrossAmount: o.newGrossAmount,
    splitList: o.splitList,
    adjustedSplit: toAdjustedSplits(o),
    excessRefundedAmount: excess
  }
  if (!settles) return E.right([adjusted])
  return E.right([adjusted, { ...charged(p, env.at, p.paidAmount), excessRefundedAmount: excess }])
}

const receiveTransfer = (
  p: Payment,
  env: Envelope
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const amount = own(env.fields, 'amount')
  if (!isAmount(amount) || amount < 1) {
    return E.left(invalid('amount', 'amount must be a safe integer of at least 1 (minor units).'))
  }
  if (amount > Number.MAX_SAFE_INTEGER - p.paidAmount) {
    return E.left(invalid('amount', 'amount would take the paid total past the largest safe integer.'))
  }
  const kid = own(env.fields, 'kid')
  if (typeof kid !== 'string') return E.left(invalid('kid', 'kid must be a string.'))
  if (kid !== p.kid) {
    return E.left(
      paymentError('KidMismatch', `The transfer's KID ${kid.length > 40 ? kid.slice(0, 40) + '…' : kid} is not the KID of invoice ${p.paymentReferenceID}.`)
    )
  }
  const paidAmount = p.paidAmount + amount
  const received: InvoiceTransferReceived = {
    type: 'InvoiceTransferReceived',
    at: env.at,
    paymentReferenceID: p.paymentReferenceID,
    amount,
    kid,
    paidAmount
  }
  if (paidAmount < p.grossAmount) return E.right([received])
  return E.right([
    received,
    { ...charged(p, env.at, paidAmount), excessRefundedAmount: paidAmount - p.grossAmount }
  ])
}

const fullRefund = (p: Payment, at: string): PaymentRefunded => {
  // a plain copy of the frozen splits, read by index: V8 reads a frozen array's elements (and
  // iterates it) through a slow generic path, ~100 machine instructions a split against ~5 to copy
  const splits = [...p.moneySplits]
  const refundedSplit: Array<RefundedSplit> = []
  for (let i = 0; i < splits.length; i++) {
    const s = splits[i] as MoneySplit
    if (s.amount > 0) refundedSplit.push(returnedSplit(s, s.amount))
  }
  return { type: 'PaymentRefunded', at, paymentReferenceID: p.paymentReferenceID, refundAmount: p.grossAmount, refundedSplit }
}

const decidePayment = (
  p: Payment,
  env: Envelope & { readonly type: PaymentCommandType }
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const refused = checkGuards(p, env.type)
  if (refused !== undefined) return E.left(refused)
  const at = env.at
  const id = p.paymentReferenceID
  switch (env.type) {
    case 'CompletePaymentForm':
      return E.right([
        p.chargeImmediately === true
          ? charged(p, at, p.grossAmount)
          : { type: 'PaymentReserved', at, paymentReferenceID: id }
      ])
    case 'FailPaymentForm': {
      const reason = own(env.fields, 'reason')
      if (reason === undefined) return E.right([{ type: 'PaymentFormFailed', at, paymentReferenceID: id }])
      if (typeof reason !== 'string' || reason.length > 1000) {
        return E.left(invalid('reason', 'reason, when given, must be a string of at most 1000 characters.'))
      }
      return E.right([{ type: 'PaymentFormFailed', at, paymentReferenceID: id, reason }])
    }
    case 'ChargePayment':
      return E.right([charged(p, at, p.grossAmount)])
    case 'CancelPayment':
      return E.right([{ type: 'PaymentCancelled', at, paymentReferenceID: id }])
    case 'RefundPayment':
      return E.right([fullRefund(p, at)])
    case 'RefundPartially':
      return refundPartially(p, env)
    case 'AdjustInvoice':
      return adjustInvoice(p, env)
    case 'ReceiveInvoiceTransfer':
      return receiveTransfer(p, env)
    /* v8 ignore next -- exhaustive: the command type was validated by readEnvelope */
    default: {
      const exhaustive: never = env.type
      return exhaustive
    }
  }
}

const decideAdmitted = (
  state: PaymentState,
  command: unknown
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  const envelope = readEnvelope(command)
  if (E.isLeft(envelope)) return envelope
  const env = envelope.right
  if (env.type === 'CreatePayment') {
    if (isPayment(state)) {
      return E.left(
        paymentError('PaymentAlreadyExists', `Payment ${state.paymentReferenceID} already exists; it cannot be created again.`)
      )
    }
    return decideCreate(env)
  }
  if (!isPayment(state)) {
    return E.left(paymentError('PaymentNotFound', `There is no payment yet: ${env.type} needs a created payment.`))
  }
  return decidePayment(state, env as Envelope & { readonly type: PaymentCommandType })
}

const unreadable: PaymentError = invalid(
  '',
  'The state or the command could not be read (a getter or proxy threw while it was validated).'
)

/**
 * Decides what a command does to a payment: the events it causes, or the error of the first rule
 * it breaks (SPEC §2 order: envelope, existence, guards, fields). Pure and total: never throws,
 * whatever `state` and `command` are; a state paysplit did not produce itself is validated first.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { decide, initialState } from 'paysplit'
 * const r = decide(initialState, { type: 'ChargePayment', at: '2026-11-21T10:00:00.000Z' })
 * assert.ok(r._tag === 'Left' && r.left.code === 'PaymentNotFound')
 */
export const decide = (
  state: PaymentState,
  command: Command
): E.Either<PaymentError, ReadonlyArray<PaymentEvent>> => {
  try {
    const admitted = admitState(state)
    if (E.isLeft(admitted)) return admitted
    const decided = decideAdmitted(admitted.right, command)
    return decided
  } catch {
    return E.left(unreadable)
  }
}

// -------------------------------------------------------------------------------------
// evolve
// -------------------------------------------------------------------------------------

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

/** The empty list a new payment starts with (no form attempts, no allocation): one, frozen, shared. */
const NONE: ReadonlyArray<never> = Object.freeze([])

const created = (e: PaymentCreated): Payment => {
  const r = e.request
  const id = e.paymentReferenceID
  // an array of its final size: a pushed-to array keeps room for more, in every payment stored
  const moneySplits = new Array<MoneySplit>(r.moneySplitList.length)
  let count = 0
  for (let i = 0; i < r.moneySplitList.length; i++) {
    const s = r.moneySplitList[i]
    if (s === undefined) continue
    const split: Mutable<MoneySplit> = {
      splitID: i + 1,
      paymentReferenceID: id,
      connectedAccountID: s.connectedAccountID,
      amount: s.amount,
      insertTime: e.at,
      isFee: s.isFee
    }
    if (s.description !== undefined) split.description = s.description
    if (s.externalID !== undefined) split.externalID = s.externalID
    moneySplits[count++] = split
  }
  if (count < moneySplits.length) moneySplits.length = count
  const p: Mutable<Payment> = {
    status: 'Initiated',
    kind: r.paymentGateway === 'invoice' ? 'invoice' : 'card',
    paymentReferenceID: id,
    externalPaymentReferenceID: r.externalPaymentReferenceID,
    environment: r.environment,
    paymentGateway: r.paymentGateway,
    sellerConnectedAccountID: r.sellerConnectedAccountID,
    currency: r.currency,
    grossAmount: r.grossAmount,
    moneySplits,
    customerExternalID: r.customerExternalID,
    webhookSubscriptions: r.webhookSubscriptions,
    successUrl: r.successUrl,
    failedUrl: r.failedUrl,
    metaData: r.metaData,
    chargedAmount: 0,
    refundedAmount: 0,
    excessRefundedAmount: 0,
    paidAmount: 0,
    formAttempts: NONE,
    allocation: NONE,
    createdAt: e.at,
    updatedAt: e.at,
    version: 1
  }
  if (r.chargeImmediately !== undefined) p.chargeImmediately = r.chargeImmediately
  if (r.externalObjectIdTag !== undefined) p.externalObjectIdTag = r.externalObjectIdTag
  if (r.description !== undefined) p.description = r.description
  if (e.kid !== undefined && p.kind === 'invoice') p.kid = e.kid
  return p
}

/**
 * The splits with every amount 0 (the records already at 0 shared). A plain copy of the frozen
 * list, changed in place, not `splits.map`: V8 reads a frozen array's elements (and maps over it)
 * through a slow generic path, ~100 machine instructions a split against ~5 to copy it.
 */
const zeroed = (frozen: ReadonlyArray<MoneySplit>): ReadonlyArray<MoneySplit> => {
  const out = [...frozen]
  for (let i = 0; i < out.length; i++) {
    const s = out[i] as MoneySplit
    if (s.amount !== 0) out[i] = withAmount(s, 0)
  }
  return out
}

/**
 * A fresh copy of `p` after one more event: the event's `at` as `updatedAt`, the version counted
 * up; the caller then sets the fields its event changes on this new, not yet shared object.
 * Written as one object literal that names every field of {@link Payment} (optional ones only
 * when present, so `'customer' in p` stays false when there is none), not as `{ ...p, ...changes }`:
 * V8 copies a spread many times slower, and `replay` of 10⁶ events shows it.
 */
const next = (p: Payment, at: string): Mutable<Payment> => {
  const n: Mutable<Payment> = {
    status: p.status,
    kind: p.kind,
    paymentReferenceID: p.paymentReferenceID,
    externalPaymentReferenceID: p.externalPaymentReferenceID,
    environment: p.environment,
    paymentGateway: p.paymentGateway,
    sellerConnectedAccountID: p.sellerConnectedAccountID,
    currency: p.currency,
    grossAmount: p.grossAmount,
    moneySplits: p.moneySplits,
    customerExternalID: p.customerExternalID,
    webhookSubscriptions: p.webhookSubscriptions,
    successUrl: p.successUrl,
    failedUrl: p.failedUrl,
    metaData: p.metaData,
    chargedAmount: p.chargedAmount,
    refundedAmount: p.refundedAmount,
    excessRefundedAmount: p.excessRefundedAmount,
    paidAmount: p.paidAmount,
    formAttempts: p.formAttempts,
    allocation: p.allocation,
    createdAt: p.createdAt,
    updatedAt: at,
    version: p.version + 1
  }
  if (p.chargeImmediately !== undefined) n.chargeImmediately = p.chargeImmediately
  if (p.externalObjectIdTag !== undefined) n.externalObjectIdTag = p.externalObjectIdTag
  if (p.description !== undefined) n.description = p.description
  if (p.kid !== undefined) n.kid = p.kid
  if (p.customer !== undefined) n.customer = p.customer
  return n
}

/**
 * Applies one event to a state and returns the new state; the state given is not changed. Events
 * that do not apply to the state (anything but `PaymentCreated` before a payment exists, a second
 * `PaymentCreated`) leave it as it is. Pure; trusts its events: give it the events `decide` made.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { evolve, initialState } from 'paysplit'
 * const cancelled = { type: 'PaymentCancelled', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' } as const
 * assert.strictEqual(evolve(initialState, cancelled), initialState) // no payment to cancel
 */
export const evolve = (state: PaymentState, event: PaymentEvent): PaymentState => {
  if (!isPayment(state)) return event.type === 'PaymentCreated' ? created(event) : state
  const p = state
  const at = event.at
  switch (event.type) {
    case 'PaymentCreated':
      return p
    case 'CustomerUpserted': {
      const n = next(p, at)
      n.customer = event.customer
      return n
    }
    case 'PaymentReserved': {
      const n = next(p, at)
      n.status = 'Reserved'
      return n
    }
    case 'PaymentCharged': {
      const excess = p.kind === 'invoice' ? p.paidAmount - p.grossAmount : 0
      const n = next(p, at)
      n.status = 'Charged'
      n.chargedAmount = p.kind === 'invoice' ? p.paidAmount : p.grossAmount
      n.excessRefundedAmount = p.excessRefundedAmount + excess
      n.refundedAmount = p.refundedAmount + excess
      // the splits as they stand now; they never change (a patch makes new ones), so shared
      n.allocation = p.moneySplits
      return n
    }
    case 'PaymentCancelled': {
      const n = next(p, at)
      n.status = 'Cancelled'
      return n
    }
    case 'PaymentRefunded': {
      const n = next(p, at)
      n.status = 'Refunded'
      n.moneySplits = zeroed(p.moneySplits)
      n.grossAmount = 0
      n.refundedAmount = p.refundedAmount + p.grossAmount
      return n
    }
    case 'PaymentPartiallyRefunded': {
      const n = next(p, at)
      n.moneySplits = event.splitList
      n.grossAmount = event.newGrossAmount
      n.refundedAmount = p.refundedAmount + (p.grossAmount - event.newGrossAmount)
      return n
    }
    case 'InvoiceAdjusted': {
      const n = next(p, at)
      n.moneySplits = event.splitList
      n.grossAmount = event.newGrossAmount
      return n
    }
    case 'InvoiceTransferReceived': {
      const n = next(p, at)
      n.paidAmount = p.paidAmount + event.amount
      return n
    }
    case 'PaymentFormFailed': {
      const n = next(p, at)
      n.formAttempts = [...p.formAttempts, event.reason === undefined ? { at } : { at, reason: event.reason }]
      return n
    }
    default: {
      // an event type this version does not know (a JS caller, a newer store): it does not apply
      event satisfies never
      return p
    }
  }
}

// -------------------------------------------------------------------------------------
// the decider, transition and replay
// -------------------------------------------------------------------------------------

/**
 * The payment decider as plain data (`{ initialState, decide, evolve }`), for libraries that run
 * deciders generically (fmodel-ts, emmett).
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
): E.Either<PaymentError, readonly [PaymentState, ReadonlyArray<PaymentEvent>]> => {
  try {
    // a trusted state (the usual case) as it is, without an Either to unwrap
    let s = state
    if (!isTrusted(state)) {
      const admitted = admitState(state)
      if (E.isLeft(admitted)) return admitted
      s = admitted.right
    }
    // what `decide(s, command)` does, without admitting `s` a second time
    const decided = decideAdmitted(s, command)
    if (E.isLeft(decided)) return decided
    const events = decided.right
    let after = s
    for (let i = 0; i < events.length; i++) after = evolve(after, events[i] as PaymentEvent)
    return E.right([trustAfter(after, s), events] as const)
  } catch {
    return E.left(unreadable)
  }
}

/**
 * Rebuilds a state from its events: `events.reduce(evolve, initialState)`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { replay, initialState } from 'paysplit'
 * assert.strictEqual(replay([]), initialState)
 */
export const replay = (events: ReadonlyArray<PaymentEvent>): PaymentState => {
  let s: PaymentState = initialState
  for (const e of events) s = evolve(s, e)
  return s
}
