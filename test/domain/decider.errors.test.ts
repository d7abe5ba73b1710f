/**
 * Pins behaviour of src/decider.ts that the rest of the suite let Stryker change unnoticed
 * (docs/testing.md, "Mutation testing"): the sentences, reasons and params of its errors, the exact boundaries of
 * its amount and length checks, fields that must be absent rather than `undefined`, and the
 * deep-freezing promised for every event and state it returns. Named after the behaviour, not
 * after the mutants; the survivors that no test can tell apart are explained in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Command } from '../../src/commands.js'
import { commandTypes } from '../../src/commands.js'
import { decide } from '../../src/decide.js'
import { replay, transition } from '../../src/decider.js'
import { issue } from '../../src/errors.js'
import { evolve } from '../../src/evolve.js'
import type { CustomerUpserted, PaymentCreated, PaymentEvent, PaymentPartiallyRefunded } from '../../src/events.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import { initialState } from '../../src/payment.js'
import {
  at,
  cardRequest,
  charge,
  complete,
  create,
  createInvoice,
  errorOf,
  failForm,
  invoiceRequest,
  KID,
  PAYMENT_ID,
  patchOf,
  paymentAfter,
  refund,
  refundPartially,
  run,
  transfer
} from '../support/builders.js'

const isDeepFrozen = (v: unknown): boolean =>
  typeof v !== 'object' || v === null || (Object.isFrozen(v) && Object.values(v).every(isDeepFrozen))

const eventsOf = (state: PaymentState, command: unknown): ReadonlyArray<PaymentEvent> => {
  const r = decide(state, command as Command)
  if (E.isLeft(r)) throw new Error(`${r.left.code}: ${r.left.message}`)
  return r.right
}

const immediateCard = (): Command => create(cardRequest({ chargeImmediately: true }))

describe('envelope and existence errors say what is wrong', () => {
  it('a command that is not an object (an array, a string, null) is refused as a whole, at the root', () => {
    for (const c of [[], ['CreatePayment'], 'ChargePayment', null, 7]) {
      const e = errorOf(initialState, c)
      expect(e.code).toBe('ValidationFailed')
      expect(e.issues).toEqual([issue('', 'type', { expected: 'object' })])
      expect(e.message).toBe('The input is not valid: 1 problem (see issues).')
    }
  })

  it('an unknown type lists every command type; a bad at shows the expected form', () => {
    const e = errorOf(initialState, { type: 'Teleport', at: 'yesterday' })
    expect(e.issues).toEqual([
      issue('type', 'not_one_of', { allowed: commandTypes }),
      issue('at', 'format', { format: 'timestamp' })
    ])
    expect(e.issues?.[0]?.message).toBe(`Must be one of: ${commandTypes.join(', ')}.`)
    expect(e.message).toBe('The input is not valid: 2 problems (see issues).')
    expect(errorOf(initialState, { at: 7 }).issues).toEqual([issue('type', 'required'), issue('at', 'type', { expected: 'string' })])
    expect(errorOf(initialState, { type: 'ChargePayment' }).issues?.map((i) => i.path)).toEqual(['at'])
    // a known type with a valid at but an unknown one: only the type is wrong
    expect(errorOf(initialState, { type: 'Teleport', at: at(1) }).issues?.map((i) => i.path)).toEqual(['type'])
  })

  it('a second create says the payment exists, quoting no id; a command on nothing names itself', () => {
    expect(errorOf(paymentAfter(create()), create()).message).toBe('The payment already exists; it cannot be created again.')
    expect(errorOf(initialState, charge()).message).toBe('There is no payment yet: ChargePayment needs a created payment.')
  })

  it('a hostile state or command gives the one "could not be read" error: at the root, not a plain object', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    const unreadable = { code: 'ValidationFailed', message: 'The input is not valid: 1 problem (see issues).', issues: [issue('', 'type', { expected: 'object' })] }
    expect(errorOf(paymentAfter(create()), proxy)).toEqual(unreadable)
    const d = decide(paymentAfter(create()), proxy as never)
    expect(E.isLeft(d) && d.left).toEqual(unreadable)
  })
})

describe('create: the command’s own fields', () => {
  it('PaymentCreated carries the request without its customer, and no optional field the request left out', () => {
    const withCustomer = eventsOf(initialState, createInvoice(invoiceRequest({ customer: { name: 'Kari' }, description: undefined })))
    expect(withCustomer.map((e) => e.type)).toEqual(['PaymentCreated', 'CustomerUpserted'])
    const request = (withCustomer[0] as PaymentCreated).request
    expect('customer' in request).toBe(false)
    for (const absent of ['chargeImmediately', 'externalObjectIdTag', 'description']) expect(absent in request).toBe(false)
    expect((withCustomer[1] as CustomerUpserted).customer).toEqual({ name: 'Kari' })
    // and every optional field the request gave is kept
    const full = eventsOf(initialState, create(cardRequest({ customer: { name: 'Kari' }, externalObjectIdTag: 'tag-1' })))
    const kept = (full[0] as PaymentCreated).request
    expect([kept.chargeImmediately, kept.externalObjectIdTag, kept.description]).toEqual([false, 'tag-1', 'Two concert tickets'])
    expect('customer' in kept).toBe(false)
  })

  it('a paymentReferenceID that is not a UUID is one issue that says so', () => {
    const reasons = [issue('paymentReferenceID', 'format', { format: 'uuid' }), issue('paymentReferenceID', 'type', { expected: 'string' }), issue('paymentReferenceID', 'required')]
    ;(['x', 42, undefined] as const).forEach((id, k) => {
      const e = errorOf(initialState, create(cardRequest(), { paymentReferenceID: id }))
      expect(e.issues).toEqual([reasons[k]])
    })
  })

  it('an invoice without a valid KID is told what a KID is, also when the rest of the request is broken', () => {
    const kidIssue = issue('kid', 'required')
    expect(errorOf(initialState, create(invoiceRequest())).issues).toEqual([kidIssue])
    expect(errorOf(initialState, create(invoiceRequest(), { kid: 'abc' })).issues).toEqual([issue('kid', 'format', { format: 'kid' })])
    // the request is invalid (no grossAmount), so the gateway is read from the raw request
    const broken = errorOf(initialState, create(invoiceRequest({ grossAmount: 'lots' })))
    expect(broken.issues).toContainEqual(kidIssue)
    expect(broken.issues?.length).toBeGreaterThan(1)
    // no request at all, or not an object: no gateway, so no KID issue, and never an exception
    for (const request of [undefined, null, 'invoice']) {
      const e = errorOf(initialState, create(cardRequest(), { request }))
      expect(e.code).toBe('ValidationFailed')
      expect(e.issues?.some((i) => i.path === 'kid')).toBe(false)
      expect(e.message).not.toMatch(/could not be read/)
    }
    // a broken card request with no KID has no KID issue
    expect(errorOf(initialState, create(cardRequest({ grossAmount: 'lots' }))).issues?.some((i) => i.path === 'kid')).toBe(false)
  })

  it('the created payment has the request’s optional fields only when given, never as undefined', () => {
    const bare = cardRequest({ description: undefined })
    const r = { ...bare, moneySplitList: [{ connectedAccountID: bare.sellerConnectedAccountID, amount: 10000, isFee: false }] }
    const p = paymentAfter(create(r))
    for (const key of ['description', 'externalObjectIdTag', 'kid', 'customer']) expect(key in p).toBe(false)
    expect(Object.keys(p.moneySplits[0] ?? {}).sort()).toEqual(
      ['amount', 'connectedAccountID', 'insertTime', 'isFee', 'paymentReferenceID', 'splitID'].sort()
    )
    // and they stay absent through every later event
    const later = run(p, complete(), charge(), refundPartially(patchOf(run(p, complete(), charge()).state, { 1: 1 }))).state
    for (const key of ['description', 'externalObjectIdTag', 'kid', 'customer']) expect(key in later).toBe(false)
    expect('description' in (later.moneySplits[0] ?? {})).toBe(false)
    // an invoice has no chargeImmediately unless the request gave one, neither created nor later
    expect('chargeImmediately' in paymentAfter(createInvoice())).toBe(false)
    const inv = run(paymentAfter(createInvoice()), transfer(1)).state
    expect('chargeImmediately' in inv).toBe(false)
  })

  it('a created payment keeps every optional field through later events', () => {
    const request = cardRequest({ externalObjectIdTag: 'tag-1', customer: { name: 'Kari' } })
    const p = run(paymentAfter(create(request)), complete(), charge()).state
    expect(p.description).toBe('Two concert tickets')
    expect(p.chargeImmediately).toBe(false)
    expect(p.externalObjectIdTag).toBe('tag-1')
    expect(p.customer).toEqual({ name: 'Kari' })
    expect(run(paymentAfter(createInvoice()), transfer(1)).state.kid).toBe(KID)
  })

  it('a card payment never carries a KID, even from a stored PaymentCreated that has one', () => {
    const e = eventsOf(initialState, create(cardRequest(), { kid: KID }))[0] as PaymentCreated
    expect('kid' in e).toBe(false)
    const p = evolve(initialState, { ...e, kid: KID }) as Payment
    expect(p.kind).toBe('card')
    expect('kid' in p).toBe(false)
    // and an invoice event stored without one gives an invoice with no kid field, not kid: undefined
    const invoiceCreated = eventsOf(initialState, createInvoice())[0] as PaymentCreated
    const { kid: _dropped, ...withoutKid } = invoiceCreated
    expect(_dropped).toBe(KID)
    const inv = evolve(initialState, withoutKid) as Payment
    expect(inv.kind).toBe('invoice')
    expect('kid' in inv).toBe(false)
  })
})

describe('invoice transfers: exact boundaries', () => {
  it('the smallest transfer is 1; 0 and fractions are refused: too small, not an integer, not a number', () => {
    const inv = paymentAfter(createInvoice())
    const one = run(inv, transfer(1)).state
    expect(one.paidAmount).toBe(1)
    expect(one.status).toBe('Initiated')
    const expected = [
      issue('amount', 'too_small', { min: 1 }),
      issue('amount', 'too_small', { min: 1 }),
      issue('amount', 'not_integer'),
      issue('amount', 'type', { expected: 'number' })
    ]
    ;[0, -1, 0.5, '5'].forEach((amount, k) => {
      const e = errorOf(inv, transfer(amount as number))
      expect(e.issues).toEqual([expected[k]])
    })
  })

  it('the paid total may reach the largest safe integer exactly, not pass it', () => {
    const inv = paymentAfter(createInvoice())
    const max = run(inv, transfer(Number.MAX_SAFE_INTEGER)).state
    expect(max.paidAmount).toBe(Number.MAX_SAFE_INTEGER)
    expect(max.status).toBe('Charged')
    const partly = run(inv, transfer(1))
    const e = errorOf(partly.state, transfer(Number.MAX_SAFE_INTEGER, KID, 2))
    expect(e.issues).toEqual([
      issue('amount', 'too_big', { max: Number.MAX_SAFE_INTEGER - 1 })
    ])
    expect(run(partly.state, transfer(Number.MAX_SAFE_INTEGER - 1, KID, 2)).state.paidAmount).toBe(Number.MAX_SAFE_INTEGER)
  })

  it('a KID that is not a string, or not the invoice’s, is refused with a sentence quoting neither', () => {
    const inv = paymentAfter(createInvoice())
    expect(errorOf(inv, { type: 'ReceiveInvoiceTransfer', at: at(1), amount: 5, kid: 12345674 }).issues).toEqual([
      issue('kid', 'type', { expected: 'string' })
    ])
    expect(errorOf(inv, transfer(5, '12345682')).message).toBe("The transfer's KID is not the invoice's KID.")
  })

  it('a KID of any length is never quoted in the mismatch', () => {
    const inv = paymentAfter(createInvoice())
    for (const kid of ['1'.repeat(40), '1'.repeat(41), '9'.repeat(1_000_000)]) {
      const e = errorOf(inv, transfer(5, kid))
      expect(e.code).toBe('KidMismatch')
      expect(e.message).toBe("The transfer's KID is not the invoice's KID.")
    }
  })

  it('a transfer one short of the gross leaves the invoice Initiated; the last unit charges it', () => {
    const inv = paymentAfter(createInvoice())
    const short = run(inv, transfer(9999))
    expect(short.events.map((e) => e.type)).toEqual(['InvoiceTransferReceived'])
    const { events } = run(short.state, transfer(1, KID, 2))
    expect(events).toStrictEqual([
      { type: 'InvoiceTransferReceived', at: at(2), paymentReferenceID: PAYMENT_ID, amount: 1, kid: KID, paidAmount: 10000 },
      { type: 'PaymentCharged', at: at(2), paymentReferenceID: PAYMENT_ID, chargedAmount: 10000, excessRefundedAmount: 0 }
    ])
  })
})

describe('the payment form: the reason of a failure', () => {
  it('a reason of 1000 characters is kept; 1001 is refused: too long', () => {
    const p = paymentAfter(create())
    const long = 'x'.repeat(1000)
    expect(run(p, failForm(1, long)).state.formAttempts).toStrictEqual([{ at: at(1), reason: long }])
    expect(errorOf(p, failForm(1, long + 'x')).issues).toEqual([
      issue('reason', 'too_long', { max: 1000 })
    ])
  })

  it('a failure without a reason records an attempt with no reason field at all', () => {
    const { state, events } = run(paymentAfter(create()), failForm(1))
    expect(events).toStrictEqual([{ type: 'PaymentFormFailed', at: at(1), paymentReferenceID: PAYMENT_ID }])
    expect(state.formAttempts).toStrictEqual([{ at: at(1) }])
    expect('reason' in (state.formAttempts[0] ?? {})).toBe(false)
  })
})

describe('full refund lists exactly the splits that still hold money', () => {
  it('a split with no description or externalID is listed without those fields', () => {
    const base = cardRequest({ chargeImmediately: true })
    const request = { ...base, moneySplitList: [{ connectedAccountID: base.sellerConnectedAccountID, amount: 10000, isFee: false }] }
    const charged = paymentAfter(create(request), complete())
    const [refunded] = eventsOf(charged, refund())
    expect(refunded).toStrictEqual({
      type: 'PaymentRefunded',
      at: at(3),
      paymentReferenceID: PAYMENT_ID,
      refundAmount: 10000,
      refundedSplit: [{ refundAmount: 10000, connectedAccountID: base.sellerConnectedAccountID, isFee: false }]
    })
  })

  it('a split already refunded to 0 is not listed; the others keep only the fields they have', () => {
    const charged = paymentAfter(immediateCard(), complete())
    const partly = run(charged, refundPartially(patchOf(charged, { 2: 0 }))).state
    const [refunded] = eventsOf(partly, refund(4))
    expect(refunded).toStrictEqual({
      type: 'PaymentRefunded',
      at: at(4),
      paymentReferenceID: PAYMENT_ID,
      refundAmount: 8000,
      refundedSplit: [
        { refundAmount: 7000, connectedAccountID: cardRequest().moneySplitList[0]?.connectedAccountID, isFee: false, description: 'Tickets', externalID: 'item-1' },
        { refundAmount: 1000, connectedAccountID: cardRequest().moneySplitList[2]?.connectedAccountID, isFee: true, description: 'Platform fee' }
      ]
    })
    const after = run(partly, refund(4)).state
    expect(after.moneySplits.map((s) => s.amount)).toEqual([0, 0, 0])
    expect(after.refundedAmount).toBe(10000)
    // the split that was 0 already is the very same record
    expect(after.moneySplits[1]).toBe(partly.moneySplits[1])
  })
})

describe('every state paysplit returns is deep-frozen; its events are fresh', () => {
  it('the events decide returns are fresh, and the parts the new state shares with them are frozen with it', () => {
    const request = cardRequest({ customer: { name: 'Kari' }, metaData: { a: 'b' } })
    const r = transition(initialState, create(request))
    if (E.isLeft(r)) throw new Error(r.left.message)
    const [state, created] = r.right
    expect(created.map((e) => e.type)).toEqual(['PaymentCreated', 'CustomerUpserted'])
    expect(Object.isFrozen(created)).toBe(false)
    expect(Object.isFrozen(created[0])).toBe(false)
    const p = state as Payment
    const first = created[0] as PaymentCreated
    const upserted = created[1] as CustomerUpserted
    // shared with the state, so frozen as part of it
    expect(first.request.metaData).toBe(p.metaData)
    expect(isDeepFrozen(first.request.metaData)).toBe(true)
    expect(upserted.customer).toBe(p.customer)
    expect(isDeepFrozen(upserted.customer)).toBe(true)
    const charged = paymentAfter(immediateCard(), complete())
    const partly = transition(charged, refundPartially(patchOf(charged, { 1: 6000 })))
    if (E.isLeft(partly)) throw new Error(partly.left.message)
    const partial = partly.right[1][0] as PaymentPartiallyRefunded
    expect(partial.splitList).toBe((partly.right[0] as Payment).moneySplits)
    expect(isDeepFrozen(partial.splitList)).toBe(true)
  })

  it('changing an event or the result tuple changes no state', () => {
    const charged = paymentAfter(immediateCard(), complete())
    const snapshot = structuredClone(charged)
    const r = transition(charged, refundPartially(patchOf(charged, { 1: 6000 })))
    if (E.isLeft(r)) throw new Error(r.left.message)
    const after = r.right[0] as Payment
    const afterSnapshot = structuredClone(after)
    const events = r.right[1] as unknown as Array<Record<string, unknown>>
    const e = events[0] as Record<string, unknown>
    e['newGrossAmount'] = 1
    e['splitList'] = []
    e['refundedSplit'] = []
    events.push({ type: 'PaymentCancelled' })
    ;(r.right as unknown as Array<unknown>)[0] = initialState
    expect(after).toEqual(afterSnapshot)
    expect(charged).toEqual(snapshot)
    expect(isDeepFrozen(after)).toBe(true)
    // the state is still trusted and right: a refund of the rest goes through from it
    const rest = transition(after, refund())
    expect(E.isRight(rest) && rest.right[0].status).toBe('Refunded')
    expect(E.isRight(rest) && (rest.right[0] as Payment).refundedAmount).toBe(charged.grossAmount)
  })

  it('the states transition returns are deep-frozen after every kind of event', () => {
    const request = cardRequest({
      customer: { name: 'Kari' },
      metaData: { a: 'b' },
      webhookSubscriptions: [{ eventType: 'Charged', url: 'https://shop.example/hook' }]
    })
    const states: Array<PaymentState> = []
    let s: PaymentState = initialState
    for (const c of [create(request), failForm(1, 'declined'), complete(2), charge(3)]) {
      const r = transition(s, c)
      if (E.isLeft(r)) throw new Error(r.left.message)
      s = r.right[0]
      states.push(s)
      expect(isDeepFrozen(r.right[0])).toBe(true)
    }
    const p = s as Payment
    const r = transition(p, refundPartially(patchOf(p, { 1: 6000 }), 4))
    expect(E.isRight(r) && isDeepFrozen(r.right[0])).toBe(true)
    const inv = paymentAfter(createInvoice())
    for (const c of [transfer(100), { type: 'AdjustInvoice', at: at(2), patch: patchOf(inv, { 1: 1 }) } as Command]) {
      const t = transition(inv, c)
      expect(E.isRight(t) && isDeepFrozen(t.right[0])).toBe(true)
    }
    expect(states.every(isDeepFrozen)).toBe(true)
  })

  it('a state loaded from storage is validated into a frozen copy, so its successors are deep-frozen too', () => {
    const stored = JSON.parse(JSON.stringify(paymentAfter(create(cardRequest({ customer: { name: 'Kari' } })), complete()))) as PaymentState
    const r = transition(stored, charge())
    if (E.isLeft(r)) throw new Error(r.left.message)
    expect(isDeepFrozen(r.right[0])).toBe(true)
    expect(Object.isFrozen(stored)).toBe(false)
    const refused = transition(stored, complete(3))
    expect(E.isLeft(refused) && refused.left.code).toBe('FormNotAllowedInStatus')
  })

  it('replay gives the same state, field for field, as the transitions that made the events', () => {
    const { state, events } = run(initialState, immediateCard(), complete())
    expect(replay(events)).toStrictEqual(state)
  })
})
