/**
 * Own properties only (docs/rules.md, "Own properties only"; docs/decisions.md): with every field
 * name of every command, request, split, customer, patch, patch entry, option, state and event
 * put on `Object.prototype`, every exported function of `paysplit` gives exactly what it gives on
 * a clean prototype. The prototype is restored in `finally`, and results are compared only then.
 */
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import {
  applyPatch,
  checkGuards,
  decide,
  deleteSplitsPatch,
  evolve,
  initialState,
  isPayment,
  isTerminal,
  kid,
  longStatus,
  paymentDecider,
  parseStatus,
  proportionalPatch,
  replay,
  setAmountsPatch,
  settlement,
  toAdjustedSplits,
  toRefundedSplits,
  transition,
  validateState,
  type Command,
  type MoneySplitPatch,
  type Payment,
  type PaymentEvent,
  type PaymentState
} from '../../src/index.js'
import {
  adjust,
  at,
  cancel,
  cardRequest,
  charge,
  complete,
  create,
  createInvoice,
  failForm,
  refund,
  refundPartially,
  transfer
} from '../support/builders.js'

/** Every field name a caller's object may carry, and the index keys of short lists. */
const FIELDS = [
  // commands
  'type', 'at', 'paymentReferenceID', 'request', 'kid', 'reason', 'patch', 'amount',
  // the create request and its parts
  'externalPaymentReferenceID', 'environment', 'paymentGateway', 'chargeImmediately',
  'sellerConnectedAccountID', 'externalObjectIdTag', 'description', 'grossAmount', 'currency',
  'moneySplitList', 'customerExternalID', 'customer', 'webhookSubscriptions', 'successUrl',
  'failedUrl', 'metaData', 'connectedAccountID', 'isFee', 'externalID', 'email', 'mobilePrefix',
  'mobile', 'customerType', 'name', 'eventType', 'url',
  // patches, builders' lists and options
  'moneySplitPatch', 'newGrossAmount', 'splitID', 'updateType', 'newAmount', 'doDelete',
  'includeFees', 'splitIDs', 'amounts',
  // states and events
  'status', 'kind', 'moneySplits', 'chargedAmount', 'refundedAmount', 'excessRefundedAmount',
  'paidAmount', 'formAttempts', 'allocation', 'createdAt', 'updatedAt', 'version', 'insertTime',
  'splitList', 'refundedSplit', 'adjustedSplit', 'refundAmount', 'adjustedAmount',
  // holes in lists
  '0', '1', '2', '3', '4', '5'
] as const

/** A value for each name that a careless read would take for a real one. */
const pollution = (name: string): unknown => {
  switch (name) {
    case 'customer':
      return { email: 'inherited@example.com' }
    case 'kid':
      return '12345674'
    case 'chargeImmediately':
    case 'isFee':
    case 'doDelete':
    case 'includeFees':
      return true
    case 'amount':
    case 'newAmount':
    case 'newGrossAmount':
    case 'grossAmount':
    case 'splitID':
      return 1
    case '0': case '1': case '2': case '3': case '4': case '5':
      return { type: 'PaymentCancelled', at: at(9), splitID: 1, amount: 0 }
    default:
      return 'inherited'
  }
}

/** Runs `f` with `Object.prototype` polluted by every name of {@link FIELDS}, restoring it after. */
const polluted = <A>(f: () => A): A => {
  const proto = Object.prototype as Record<string, unknown>
  for (const name of FIELDS) proto[name] = pollution(name)
  try {
    return f()
  } finally {
    for (const name of FIELDS) Reflect.deleteProperty(proto, name)
  }
}

const snapshot = (u: unknown): unknown => JSON.parse(JSON.stringify(u ?? null)) as unknown

const stateAfter = (...commands: ReadonlyArray<Command>): { state: PaymentState; events: PaymentEvent[] } => {
  let state: PaymentState = initialState
  const events: PaymentEvent[] = []
  for (const c of commands) {
    const r = transition(state, c)
    if (E.isLeft(r)) return { state, events }
    state = r.right[0]
    events.push(...r.right[1])
  }
  return { state, events }
}

/** Every exported function of `paysplit`, on inputs without the optional fields, as JSON. */
const everything = (): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  const card = stateAfter(create(), failForm(1), complete(2), charge(3))
  const cardPayment = card.state as Payment
  // written out: the test's own helpers are not what is under test
  const lowerFirst = (to: number, gross: number): MoneySplitPatch => ({
    moneySplitPatch: [
      { splitID: 1, updateType: 'UpdateAmount', newAmount: to },
      { splitID: 2, updateType: 'DoNothing' },
      { splitID: 3, updateType: 'DoNothing' }
    ],
    newGrossAmount: gross
  })
  const refundPatch = lowerFirst(5000, 8000)
  const refunded = stateAfter(create(), complete(2), charge(3), refundPartially(refundPatch, 4), refund(5))
  const invoice = stateAfter(createInvoice(), transfer(100, undefined, 1))
  const invoicePayment = invoice.state as Payment
  const adjusted = stateAfter(createInvoice(), transfer(100, undefined, 1), adjust(lowerFirst(6000, 9000), 2))
  out['transitions'] = [card, refunded, invoice, adjusted]
  out['withCustomer'] = stateAfter(create(cardRequest({ customer: { email: 'a@b.no' } })))
  out['decide'] = [
    decide(initialState, create()),
    decide(initialState, createInvoice()),
    decide(cardPayment, refund(5)),
    decide(cardPayment, refundPartially(refundPatch, 4)),
    decide(invoicePayment, transfer(9900, undefined, 2)),
    decide(stateAfter(create()).state, failForm(1)),
    decide(stateAfter(create()).state, cancel(1)),
    paymentDecider.decide(initialState, { type: 'ChargePayment', at: at(1) })
  ]
  const all = [...refunded.events, ...adjusted.events]
  out['evolve'] = all.map((e) => evolve(initialState, e))
  out['replay'] = [replay(refunded.events), replay(adjusted.events), replay(card.events)]
  const sparse: PaymentEvent[] = []
  sparse[7] = card.events[0] as PaymentEvent
  out['replaySparse'] = replay(sparse)
  // events a caller hands in without their optional fields, one by one
  out['evolveBare'] = [
    evolve(cardPayment, { type: 'PaymentFormFailed', at: at(8), paymentReferenceID: cardPayment.paymentReferenceID }),
    evolve(initialState, { ...(card.events[0] as PaymentEvent) })
  ]
  out['settlement'] = [cardPayment, refunded.state, invoicePayment, adjusted.state].map((p) => settlement(p as Payment))
  out['builders'] = [
    proportionalPatch(cardPayment, 100),
    proportionalPatch(cardPayment, 100, {}),
    proportionalPatch(cardPayment, 100, { includeFees: false }),
    deleteSplitsPatch(cardPayment, [2]),
    setAmountsPatch(cardPayment, [{ splitID: 1, amount: 1 }]),
    deleteSplitsPatch({ moneySplits: [...cardPayment.moneySplits] }, [1, 3])
  ]
  const outcome = applyPatch(cardPayment, refundPatch)
  out['applyPatch'] = outcome
  out['returned'] = E.isRight(outcome) ? [toRefundedSplits(outcome.right), toAdjustedSplits(outcome.right)] : null
  out['kid'] = [kid.isValid('12345674'), kid.isValid('1'), kid.create('1234567', 'mod10'), kid.create('6', 'mod11')]
  out['status'] = [parseStatus('ChargedPayment'), parseStatus('x'), longStatus('Charged'), isTerminal('Refunded')]
  out['guards'] = [checkGuards(cardPayment, 'CancelPayment'), checkGuards(cardPayment, 'RefundPayment'), isPayment(cardPayment)]
  return snapshot(out) as Record<string, unknown>
}

/** `validateState` (the stored-state codec) on stored copies of the states above. */
const storedStates = (): unknown => {
  const card = stateAfter(create(), failForm(1), complete(2), charge(3)).state
  return snapshot([validateState(JSON.parse(JSON.stringify(card))), validateState({ status: 'NoPayment' })])
}

describe('own properties only: a polluted Object.prototype adds nothing', () => {
  it('every exported function of paysplit gives what it gives on a clean prototype', () => {
    const clean = everything()
    const dirty = polluted(everything)
    for (const key of Object.keys(clean)) expect({ [key]: dirty[key] }).toEqual({ [key]: clean[key] })
  })

  it('validateState gives what it gives on a clean prototype', () => {
    expect(polluted(storedStates)).toEqual(storedStates())
  })

  it('a create without customer, tag, description or kid gets none of them, and no CustomerUpserted', () => {
    const r = polluted(() => snapshot(transition(initialState, create())))
    expect(r).toMatchObject({ _tag: 'Right' })
    const [payment, events] = (r as { right: [Record<string, unknown>, Array<{ type: string }>] }).right
    for (const field of ['customer', 'externalObjectIdTag', 'kid']) expect(payment).not.toHaveProperty(field)
    expect(events.map((e) => e.type)).toEqual(['PaymentCreated'])
  })

  it('a form failure without reason records none', () => {
    const r = polluted(() => snapshot(transition(stateAfter(create()).state, failForm(1))))
    expect(r).toMatchObject({ right: [{ formAttempts: [{ at: at(1) }] }, [{ type: 'PaymentFormFailed' }]] })
    expect(JSON.stringify(r)).not.toContain('inherited')
  })

  it('an event or state of another prototype: only its own fields count', () => {
    const created = stateAfter(create())
    const payment = created.state as Payment
    const failed = Object.create({ reason: 'inherited', at: at(9) }) as Record<string, unknown>
    Object.assign(failed, { type: 'PaymentFormFailed', at: at(1), paymentReferenceID: payment.paymentReferenceID })
    const after = evolve(payment, failed as unknown as PaymentEvent)
    expect(isPayment(after) && after.formAttempts).toEqual([{ at: at(1) }])
    const untyped = Object.create({ type: 'PaymentCancelled' }) as PaymentEvent
    expect(evolve(payment, untyped)).toBe(payment)
    const foreign = Object.assign(Object.create({ customer: { email: 'inherited@example.com' }, description: 'inherited' }) as object, payment)
    const next = evolve(foreign, { type: 'PaymentReserved', at: at(2), paymentReferenceID: payment.paymentReferenceID })
    expect(next).not.toHaveProperty('customer')
    expect(isPayment(next) && next.description).toBe(payment.description)
  })

  it('a caller payment whose splits are not plain records is refused by the builders and applyPatch', () => {
    const payment = stateAfter(create(), complete(1)).state as Payment
    const split = Object.assign(Object.create({ description: 'inherited' }) as object, payment.moneySplits[0])
    const odd = { moneySplits: [split, ...payment.moneySplits.slice(1)] }
    for (const r of [deleteSplitsPatch(odd, [1]), proportionalPatch(odd, 1), setAmountsPatch(odd, [{ splitID: 1, amount: 0 }])]) {
      expect(E.isLeft(r) && r.left.issues?.map((i) => i.path)).toEqual(['moneySplits.0'])
    }
  })
})
