/**
 * The baselines: what a careful engineer would write by hand without paysplit — a reducer over
 * plain object literals that makes the same state change and the same events, with the same
 * guards, but no validation of foreign input, no freezing and no Either. The ratios of the
 * benchmarks are paysplit's time over these.
 */
import type { Command } from '../src/commands.js'
import type { PaymentEvent, RefundedSplit } from '../src/events.js'
import type { Allocation, MoneySplit, Payment, PaymentState } from '../src/payment.js'
import type { MoneySplitPatch, PaymentIntentRequest } from '../src/codecs/requests.js'
import { isTimestamp } from '../src/codecs/validators.js'

type Result = { readonly ok: true; readonly state: Payment; readonly events: ReadonlyArray<PaymentEvent> } | { readonly ok: false; readonly code: string }

const fail = (code: string): Result => ({ ok: false, code })

/** Every field of a payment, written out (no spread), with some of them replaced. */
const withChanges = (
  p: Payment,
  at: string,
  status: Payment['status'],
  grossAmount: number,
  moneySplits: ReadonlyArray<MoneySplit>,
  chargedAmount: number,
  refundedAmount: number,
  allocation: ReadonlyArray<Allocation>,
  customer: Payment['customer'] = p.customer
): Payment => {
  const n: { -readonly [K in keyof Payment]: Payment[K] } = {
    schemaVersion: 1,
    status,
    kind: p.kind,
    paymentReferenceID: p.paymentReferenceID,
    externalPaymentReferenceID: p.externalPaymentReferenceID,
    environment: p.environment,
    paymentGateway: p.paymentGateway,
    sellerConnectedAccountID: p.sellerConnectedAccountID,
    currency: p.currency,
    grossAmount,
    moneySplits,
    customerExternalID: p.customerExternalID,
    webhookSubscriptions: p.webhookSubscriptions,
    successUrl: p.successUrl,
    failedUrl: p.failedUrl,
    metaData: p.metaData,
    chargedAmount,
    refundedAmount,
    excessRefundedAmount: p.excessRefundedAmount,
    paidAmount: p.paidAmount,
    formAttempts: p.formAttempts,
    allocation,
    createdAt: p.createdAt,
    updatedAt: at,
    version: p.version + 1
  }
  if (p.chargeImmediately !== undefined) n.chargeImmediately = p.chargeImmediately
  if (p.externalObjectIdTag !== undefined) n.externalObjectIdTag = p.externalObjectIdTag
  if (p.description !== undefined) n.description = p.description
  if (customer !== undefined) n.customer = customer
  if (p.kid !== undefined) n.kid = p.kid
  return n
}

const created = (id: string, at: string, r: PaymentIntentRequest, version: number): Payment => {
  const moneySplits: MoneySplit[] = []
  for (let i = 0; i < r.moneySplitList.length; i++) {
    const s = r.moneySplitList[i] as PaymentIntentRequest['moneySplitList'][number]
    const split: { -readonly [K in keyof MoneySplit]: MoneySplit[K] } = {
      splitID: i + 1,
      paymentReferenceID: id,
      connectedAccountID: s.connectedAccountID,
      amount: s.amount,
      insertTime: at,
      isFee: s.isFee
    }
    if (s.description !== undefined) split.description = s.description
    if (s.externalID !== undefined) split.externalID = s.externalID
    moneySplits.push(split)
  }
  const p: { -readonly [K in keyof Payment]: Payment[K] } = {
    schemaVersion: 1,
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
    webhookSubscriptions: r.webhookSubscriptions ?? [],
    successUrl: r.successUrl,
    failedUrl: r.failedUrl,
    metaData: r.metaData ?? {},
    chargedAmount: 0,
    refundedAmount: 0,
    excessRefundedAmount: 0,
    paidAmount: 0,
    formAttempts: [],
    allocation: [],
    createdAt: at,
    updatedAt: at,
    version
  }
  if (r.chargeImmediately !== undefined) p.chargeImmediately = r.chargeImmediately
  if (r.externalObjectIdTag !== undefined) p.externalObjectIdTag = r.externalObjectIdTag
  if (r.description !== undefined) p.description = r.description
  if (r.customer !== undefined) p.customer = r.customer
  return p
}

/** The allocation at the charge: the split records of that moment, shared (as paysplit does). */
const allocationOf = (splits: ReadonlyArray<MoneySplit>): ReadonlyArray<Allocation> => splits

const refundOf = (s: MoneySplit, refundAmount: number): RefundedSplit => {
  const r: { -readonly [K in keyof RefundedSplit]: RefundedSplit[K] } = {
    refundAmount,
    connectedAccountID: s.connectedAccountID,
    isFee: s.isFee
  }
  if (s.description !== undefined) r.description = s.description
  if (s.externalID !== undefined) r.externalID = s.externalID
  return r
}

const splitWith = (s: MoneySplit, amount: number): MoneySplit => {
  const n: { -readonly [K in keyof MoneySplit]: MoneySplit[K] } = {
    splitID: s.splitID,
    paymentReferenceID: s.paymentReferenceID,
    connectedAccountID: s.connectedAccountID,
    amount,
    insertTime: s.insertTime,
    isFee: s.isFee
  }
  if (s.description !== undefined) n.description = s.description
  if (s.externalID !== undefined) n.externalID = s.externalID
  return n
}

/** A partial refund by hand: splits matched by position (the patch lists them in order). */
const refundPartially = (p: Payment, at: string, patch: MoneySplitPatch): Result => {
  const splits = p.moneySplits
  const entries = patch.moneySplitPatch
  if (entries.length !== splits.length) return fail('PatchSplitMismatch')
  const splitList: MoneySplit[] = []
  const refundedSplit: RefundedSplit[] = []
  let sum = 0
  for (let i = 0; i < splits.length; i++) {
    const s = splits[i] as MoneySplit
    const e = entries[i] as MoneySplitPatch['moneySplitPatch'][number]
    if (e.splitID !== s.splitID) return fail('PatchSplitMismatch')
    if (e.updateType === 'UpdateAmount') {
      if (e.newAmount > s.amount) return fail('SplitAmountIncrease')
      if (e.newAmount !== s.amount) {
        splitList.push(splitWith(s, e.newAmount))
        refundedSplit.push(refundOf(s, s.amount - e.newAmount))
      } else splitList.push(s)
      sum += e.newAmount
    } else if (e.updateType === 'DoDeleteSplitEntry' && e.doDelete) {
      refundedSplit.push(refundOf(s, s.amount))
    } else {
      splitList.push(s)
      sum += s.amount
    }
  }
  if (sum !== patch.newGrossAmount) return fail('GrossAmountMismatch')
  if (refundedSplit.length === 0) return fail('NothingToChange')
  const refundAmount = p.grossAmount - sum
  const event: PaymentEvent = {
    type: 'PaymentPartiallyRefunded',
    at,
    paymentReferenceID: p.paymentReferenceID,
    newGrossAmount: sum,
    refundAmount,
    splitList,
    refundedSplit
  }
  const state = withChanges(p, at, sum === 0 ? 'Refunded' : 'Charged', sum, splitList, p.chargedAmount, p.refundedAmount + refundAmount, p.allocation)
  return { ok: true, state, events: [event] }
}

/**
 * The hand-written reducer: the card commands of the benchmarks (create from an already
 * validated request, complete form, charge, partial and full refund) with their guards.
 */
export const handReducer = (state: PaymentState | undefined, command: Command): Result => {
  if (command.type === 'CreatePayment') {
    if (state !== undefined && state.status !== 'NoPayment') return fail('PaymentAlreadyExists')
    const p = created(command.paymentReferenceID, command.at, command.request, command.request.customer === undefined ? 1 : 2)
    const events: PaymentEvent[] = [
      { type: 'PaymentCreated', at: command.at, paymentReferenceID: command.paymentReferenceID, request: command.request }
    ]
    if (command.request.customer !== undefined) {
      events.push({
        type: 'CustomerUpserted',
        at: command.at,
        paymentReferenceID: command.paymentReferenceID,
        customerExternalID: command.request.customerExternalID,
        customer: command.request.customer
      })
    }
    return { ok: true, state: p, events }
  }
  if (state === undefined || state.status === 'NoPayment') return fail('PaymentNotFound')
  const p = state
  const at = command.at
  switch (command.type) {
    case 'CompletePaymentForm': {
      if (p.kind === 'invoice') return fail('FormNotUsedForInvoice')
      if (p.status !== 'Initiated') return fail('FormNotAllowedInStatus')
      if (p.chargeImmediately === true) {
        return {
          ok: true,
          state: withChanges(p, at, 'Charged', p.grossAmount, p.moneySplits, p.grossAmount, p.refundedAmount, allocationOf(p.moneySplits)),
          events: [{ type: 'PaymentCharged', at, paymentReferenceID: p.paymentReferenceID, chargedAmount: p.grossAmount, excessRefundedAmount: 0 }]
        }
      }
      return {
        ok: true,
        state: withChanges(p, at, 'Reserved', p.grossAmount, p.moneySplits, p.chargedAmount, p.refundedAmount, p.allocation),
        events: [{ type: 'PaymentReserved', at, paymentReferenceID: p.paymentReferenceID }]
      }
    }
    case 'ChargePayment': {
      if (p.kind === 'invoice') return fail('ChargeNotAllowedForInvoice')
      if (p.chargeImmediately === true) return fail('ChargeNotAllowedForImmediateCharge')
      if (p.status !== 'Reserved') return fail('ChargeNotAllowedInStatus')
      return {
        ok: true,
        state: withChanges(p, at, 'Charged', p.grossAmount, p.moneySplits, p.grossAmount, p.refundedAmount, allocationOf(p.moneySplits)),
        events: [{ type: 'PaymentCharged', at, paymentReferenceID: p.paymentReferenceID, chargedAmount: p.grossAmount, excessRefundedAmount: 0 }]
      }
    }
    case 'RefundPartially':
      if (p.status !== 'Charged') return fail('RefundNotAllowedInStatus')
      return refundPartially(p, at, command.patch)
    case 'RefundPayment': {
      if (p.status !== 'Charged') return fail('RefundNotAllowedInStatus')
      if (p.grossAmount === 0) return fail('NothingToRefund')
      const zeroed: MoneySplit[] = []
      const refundedSplit: RefundedSplit[] = []
      for (const s of p.moneySplits) {
        if (s.amount > 0) {
          refundedSplit.push(refundOf(s, s.amount))
          zeroed.push(splitWith(s, 0))
        } else zeroed.push(s)
      }
      return {
        ok: true,
        state: withChanges(p, at, 'Refunded', 0, zeroed, p.chargedAmount, p.refundedAmount + p.grossAmount, p.allocation),
        events: [{ type: 'PaymentRefunded', at, paymentReferenceID: p.paymentReferenceID, refundAmount: p.grossAmount, refundedSplit }]
      }
    }
    default:
      return fail('NotImplementedInBaseline')
  }
}

/**
 * The sound floor of one step (information, no target): the least a hand-written step must do to
 * keep docs/rules.md C2's promise that `transition` never returns an invalid state whatever it is given,
 * when the state it is given is one it returned itself. On top of {@link handReducer} (the same
 * guards, the same object literal): the command must be an object (a JS caller can pass anything,
 * and the step must not throw), its `at` a real timestamp by the same rule as paysplit's
 * (`isTimestamp`: the form, the ranges, no 30 February), an unknown `type` is refused (the
 * reducer's `default`), and the new state is frozen (`Object.freeze`; what it shares with the old
 * state is frozen already), so that no caller can make it invalid afterwards and the next step can
 * use it without validating it again. What paysplit does beyond this floor (own-property reads, the
 * mark of a trusted state, `Either` and event values) is its own cost.
 */
export const soundFloorReducer = (state: PaymentState | undefined, command: Command): Result => {
  const c: unknown = command
  if (typeof c !== 'object' || c === null || !isTimestamp(command.at)) return fail('ValidationFailed')
  const r = handReducer(state, command)
  if (r.ok) Object.freeze(r.state)
  return r
}

/**
 * The plain replay loop: a for-loop over the events with a switch that builds each state as an
 * object literal (no spread), for the events of a card payment's life.
 */
export const handReplay = (events: ReadonlyArray<PaymentEvent>): Payment | undefined => {
  let p: Payment | undefined
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as PaymentEvent
    switch (e.type) {
      case 'PaymentCreated':
        if (p === undefined) p = created(e.paymentReferenceID, e.at, e.request, 1)
        break
      case 'CustomerUpserted':
        if (p !== undefined) {
          p = withChanges(p, e.at, p.status, p.grossAmount, p.moneySplits, p.chargedAmount, p.refundedAmount, p.allocation, e.customer)
        }
        break
      case 'PaymentReserved':
        if (p !== undefined) p = withChanges(p, e.at, 'Reserved', p.grossAmount, p.moneySplits, p.chargedAmount, p.refundedAmount, p.allocation)
        break
      case 'PaymentCharged':
        if (p !== undefined) p = withChanges(p, e.at, 'Charged', p.grossAmount, p.moneySplits, p.grossAmount, p.refundedAmount, allocationOf(p.moneySplits))
        break
      case 'PaymentPartiallyRefunded':
        if (p !== undefined) {
          p = withChanges(p, e.at, p.status, e.newGrossAmount, e.splitList, p.chargedAmount, p.refundedAmount + (p.grossAmount - e.newGrossAmount), p.allocation)
        }
        break
      case 'PaymentRefunded':
        if (p !== undefined) {
          const zeroed: MoneySplit[] = []
          for (const s of p.moneySplits) zeroed.push(s.amount === 0 ? s : splitWith(s, 0))
          p = withChanges(p, e.at, 'Refunded', 0, zeroed, p.chargedAmount, p.refundedAmount + p.grossAmount, p.allocation)
        }
        break
      default:
        break
    }
  }
  return p
}
