/**
 * C3 own properties only, one optional field at a time: with `Object.prototype` polluted by a
 * single name, a command, a request or a context that lacks that field gives exactly what it gives
 * on a clean prototype: an inherited `kid` gives an invoice no KID, an inherited `reason` records
 * none, an inherited `catchAllUrl` sends nothing, and so on for every optional field.
 */
import { describe, expect, it } from 'vitest'
import { decide, initialState, transition, type Command, type Payment } from '../../src/index.js'
import { completeForm, emptyWorld, failForm, handle, receiveTransfer, receiveTransferByKid, type World } from '../../src/http.js'
import { KID, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'

const proto = Object.prototype as unknown as Record<string, unknown>

/** `f` with `Object.prototype[key] = value`, restored after. */
const pollutedBy = <A>(key: string, value: unknown, f: () => A): A => {
  proto[key] = value
  try {
    return f()
  } finally {
    Reflect.deleteProperty(proto, key)
  }
}

const without = (o: Record<string, unknown>, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key))

const createCommand = (request: Record<string, unknown>, extra: Record<string, unknown> = {}): Command =>
  ({ type: 'CreatePayment', at: atOf(1), paymentReferenceID: idOf(1), request, ...extra }) as unknown as Command

const cardWorld = (): World => handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, { at: atOf(1), paymentReferenceID: idOf(1) }).world
const invoiceWorld = (): World => handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, { at: atOf(1), paymentReferenceID: idOf(1), kid: KID }).world
const stateOf = (w: World): Payment => w.payments.get(idOf(1)) as Payment

/** What a run gives, as plain data (a world's maps as entries). */
const plain = (v: unknown): string =>
  JSON.stringify(v, (_, x: unknown) => (x instanceof Map ? [...(x as Map<unknown, unknown>).entries()] : x))

/** Each optional field, the value a polluter would plant, and runs that leave the field out. */
const cases: ReadonlyArray<readonly [field: string, value: unknown, runs: ReadonlyArray<readonly [string, () => unknown]>]> = [
  ['kid', KID, [
    ['transition: an invoice create without kid', () => transition(initialState, createCommand(invoiceRequest()))],
    ['handle: an invoice create whose context has no kid', () => handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, { at: atOf(1), paymentReferenceID: idOf(1) })],
    ['transition: a transfer without kid', () => transition(stateOf(invoiceWorld()), { type: 'ReceiveInvoiceTransfer', at: atOf(2), amount: 100 } as unknown as Command)],
    ['receiveTransfer: a transfer without kid', () => receiveTransfer(invoiceWorld(), idOf(1), { amount: 100 } as never, { at: atOf(2) })],
    ['receiveTransferByKid: a transfer without kid', () => receiveTransferByKid(invoiceWorld(), { amount: 100 } as never, { at: atOf(2) })]
  ]],
  ['reason', 'polluted', [
    ['transition: a form failure without reason', () => transition(stateOf(cardWorld()), { type: 'FailPaymentForm', at: atOf(2) })],
    ['failForm: a context without reason', () => failForm(cardWorld(), idOf(1), { at: atOf(2) })]
  ]],
  ['catchAllUrl', 'https://hooks.example/stolen', [
    ['handle: a create whose context has no catchAllUrl', () => handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, { at: atOf(1), paymentReferenceID: idOf(1) })],
    ['completeForm: a context without catchAllUrl', () => completeForm(cardWorld(), idOf(1), { at: atOf(2) })]
  ]],
  ['customer', { name: 'Polluted', email: 'p@example.no' }, [
    ['transition: a create without customer', () => transition(initialState, createCommand(cardRequest()))],
    ['handle: a create without customer', () => handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, { at: atOf(1), paymentReferenceID: idOf(1) })]
  ]],
  ['externalObjectIdTag', 'polluted-tag', [['transition: a create without externalObjectIdTag', () => transition(initialState, createCommand(without(cardRequest(), 'externalObjectIdTag')))]]],
  ['description', 'polluted description', [['transition: a create without description', () => transition(initialState, createCommand(without(cardRequest(), 'description')))]]],
  ['chargeImmediately', true, [
    ['transition: an invoice create (no chargeImmediately)', () => transition(initialState, createCommand(invoiceRequest(), { kid: KID }))],
    ['decide: a card create without chargeImmediately', () => decide(initialState, createCommand(without(cardRequest(), 'chargeImmediately')))]
  ]],
  ['metaData', { polluted: 'yes' }, [['transition: a create without metaData', () => transition(initialState, createCommand(without(cardRequest(), 'metaData')))]]],
  ['webhookSubscriptions', [{ eventType: 'Charged', url: 'https://hooks.example/stolen' }], [
    ['transition: a create without webhookSubscriptions', () => transition(initialState, createCommand(without(cardRequest(), 'webhookSubscriptions')))]
  ]],
  ['amount', 100, [
    ['transition: a transfer without amount', () => transition(stateOf(invoiceWorld()), { type: 'ReceiveInvoiceTransfer', at: atOf(2), kid: KID } as unknown as Command)],
    ['receiveTransferByKid: a transfer without amount', () => receiveTransferByKid(invoiceWorld(), { kid: KID } as never, { at: atOf(2) })]
  ]],
  ['patch', { moneySplitPatch: [], newGrossAmount: 0 }, [
    ['transition: an adjustment without patch', () => transition(stateOf(invoiceWorld()), { type: 'AdjustInvoice', at: atOf(2) } as unknown as Command)]
  ]],
  ['paymentReferenceID', idOf(5), [
    ['transition: a create without paymentReferenceID', () => transition(initialState, without(createCommand(cardRequest()) as never, 'paymentReferenceID') as never)],
    ['handle: a create whose context has no paymentReferenceID', () => handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, { at: atOf(1) } as never)]
  ]],
  ['at', atOf(9), [
    ['handle: a cancel whose context has no at', () => handle(cardWorld(), { method: 'POST', path: `/payments/${idOf(1)}/cancel` }, {} as never)],
    ['failForm: a context without at', () => failForm(cardWorld(), idOf(1), {} as never)]
  ]]
]

describe('C3 own properties only: each optional field, polluted alone, adds nothing', () => {
  describe.each(cases)('Object.prototype.%s', (field, value, runs) => {
    it.each(runs)('%s gives what it gives on a clean prototype', (_, run) => {
      const clean = plain(run())
      expect(pollutedBy(field, value, () => plain(run()))).toBe(clean)
    })
  })

  it('an invoice create without a KID never succeeds, whatever the prototype holds', () => {
    pollutedBy('kid', KID, () => {
      const decided = transition(initialState, createCommand(invoiceRequest()))
      expect(decided._tag === 'Left' && decided.left.issues?.map((i) => [i.path, i.reason])).toStrictEqual([['kid', 'required']])
      const { world, response } = handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, { at: atOf(1), paymentReferenceID: idOf(1) })
      expect([response.status, world]).toStrictEqual([500, emptyWorld])
    })
  })
})
