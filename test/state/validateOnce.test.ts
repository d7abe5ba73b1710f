/**
 * Admit once: a stored state is validated once per request. What `validateState` returns is
 * trusted (fresh, deep-frozen, marked), so `transition`, `handle` and the world operations take it
 * as it is; a state they must validate themselves (a world built from raw rows) is validated once
 * per call, not once per step inside it. The validator's calls are counted by a spy on its module.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as stored from '../../src/state/storedState.js'
import { initialState, transition, validateState, type Payment } from '../../src/index.js'
import { completeForm, emptyWorld, failForm, handle, receiveTransfer, receiveTransferByKid, worldOf, type World } from '../../src/http.js'
import { KID, atOf, cardRequest, idOf, invoiceRequest, patchOf } from '../support/http.fixtures.js'

vi.mock('../../src/state/storedState.js', async (importOriginal) => {
  const original = await importOriginal<typeof stored>()
  return { ...original, validateState: vi.fn(original.validateState) }
})

const validations = vi.mocked(stored.validateState)

/** A payment as a database gives it back: JSON, so neither frozen nor trusted. */
const loaded = <T>(p: T): T => JSON.parse(JSON.stringify(p)) as T

const worldWith = (p: Payment): World => ({ ...emptyWorld, payments: new Map([[p.paymentReferenceID.toLowerCase(), p]]) })

const ctx = { at: atOf(10), paymentReferenceID: idOf(9) }

const created = (body: Record<string, unknown>, kid?: string): Payment => {
  const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: atOf(1), paymentReferenceID: idOf(1), ...(kid === undefined ? {} : { kid }) })
  return world.payments.get(idOf(1)) as Payment
}

const charged = (): Payment => {
  const { world: w1 } = completeForm(worldWith(created(cardRequest({ chargeImmediately: true }))), idOf(1), { at: atOf(2) })
  return w1.payments.get(idOf(1)) as Payment
}

describe('Admit once: a stored state is validated once', () => {
  beforeEach(() => {
    validations.mockClear()
  })

  it('what validateState returns is trusted: fresh, deep-frozen, and no command validates it again', () => {
    const row = loaded(charged())
    const checked = validateState(row)
    expect(validations).toHaveBeenCalledTimes(1)
    expect(E.isRight(checked)).toBe(true)
    const state = (checked as E.Right<Payment>).right
    expect(state).not.toBe(row)
    expect(Object.isFrozen(state) && Object.isFrozen(state.moneySplits) && Object.isFrozen(state.moneySplits[0])).toBe(true)
    // a trusted state comes back as it is
    expect(validateState(state)).toStrictEqual(E.right(state))
    expect(E.isRight(transition(state, { type: 'RefundPayment', at: atOf(3) }))).toBe(true)
    const world = worldWith(state)
    expect(handle(world, { method: 'POST', path: `/payments/${idOf(1)}/refund/partially`, body: patchOf(state, { 1: 1 }) }, ctx).response.status).toBe(200)
    expect(handle(world, { method: 'GET', path: `/payments/${idOf(1)}` }, ctx).response.status).toBe(200)
    expect(validations).toHaveBeenCalledTimes(1)
  })

  it('a world of raw rows: one validation per call of handle (a command or a read)', () => {
    const world = worldWith(loaded(charged()))
    expect(handle(world, { method: 'POST', path: `/payments/${idOf(1)}/refund` }, ctx).response.status).toBe(200)
    expect(validations).toHaveBeenCalledTimes(1)
    expect(handle(world, { method: 'GET', path: `/payments/${idOf(1)}` }, ctx).response.status).toBe(200)
    expect(validations).toHaveBeenCalledTimes(2)
  })

  it('a world of raw rows: one validation per form or bank operation (the redirect and the command share it)', () => {
    const card = worldWith(loaded(created(cardRequest())))
    const { result: completed, redirectUrl: url } = completeForm(card, idOf(1), { at: atOf(2) })
    expect(E.isRight(completed) && url !== undefined).toBe(true)
    expect(validations).toHaveBeenCalledTimes(1)
    const { result: failed, redirectUrl: back } = failForm(card, idOf(1), { at: atOf(2), reason: 'card declined' })
    expect(E.isRight(failed) && back !== undefined).toBe(true)
    expect(validations).toHaveBeenCalledTimes(2)
    const invoice = worldWith(loaded(created(invoiceRequest(), KID)))
    validations.mockClear()
    expect(E.isRight(receiveTransfer(invoice, idOf(1), { amount: 100, kid: KID }, { at: atOf(2) }).result)).toBe(true)
    expect(validations).toHaveBeenCalledTimes(1)
    expect(E.isRight(receiveTransferByKid(invoice, { amount: 100, kid: KID }, { at: atOf(2) }).result)).toBe(true)
    expect(validations).toHaveBeenCalledTimes(2)
  })

  it('C15 worldOf admits each payment row by validateState once: the operations on its world validate nothing again', () => {
    const invoice = handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, { at: atOf(1), paymentReferenceID: idOf(2), kid: KID }).world.payments.get(idOf(2))
    const rows = [loaded(charged()), loaded(invoice)]
    const built = worldOf({ payments: rows })
    expect(validations).toHaveBeenCalledTimes(2)
    expect(E.isRight(built)).toBe(true)
    const world = (built as E.Right<World>).right
    expect(handle(world, { method: 'POST', path: `/payments/${idOf(1)}/refund` }, ctx).response.status).toBe(200)
    expect(handle(world, { method: 'GET', path: `/payments/${idOf(1)}` }, ctx).response.status).toBe(200)
    expect(E.isRight(receiveTransferByKid(world, { amount: 100, kid: KID }, { at: atOf(2) }).result)).toBe(true)
    expect(validations).toHaveBeenCalledTimes(2)
    // a row paysplit returned (trusted) is taken as it is
    expect(E.isRight(worldOf({ payments: [...world.payments.values()] }))).toBe(true)
    expect(validations).toHaveBeenCalledTimes(2)
  })

  it('a create validates nothing (no payment yet), and a payment transition made is never validated', () => {
    const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctx)
    const { world: w2 } = completeForm(world, idOf(9), { at: atOf(2) })
    expect(E.isRight(transition(w2.payments.get(idOf(9)) as Payment, { type: 'ChargePayment', at: atOf(3) }))).toBe(true)
    expect(transition(initialState, { type: 'ChargePayment', at: atOf(3) })._tag).toBe('Left')
    expect(validations).toHaveBeenCalledTimes(0)
  })
})
