/**
 * Deciders of the ecosystem: paysplit's decider runs in fmodel-ts and in emmett, through each
 * library's own in-memory machinery (fmodel's EventSourcingAggregate over an in-memory event
 * repository; emmett's DeciderCommandHandler over getInMemoryEventStore, and its
 * DeciderSpecification).
 */
import { DeciderCommandHandler, DeciderSpecification, getInMemoryEventStore } from '@event-driven-io/emmett'
import { Decider as FmodelDeciderClass, EventSourcingAggregate, type EventRepository } from '@fraktalio/fmodel-ts'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import {
  emmettPaymentDecider,
  fmodelPaymentDecider,
  PaymentRejected,
  toEmmettEvent,
  transition,
  initialState,
  type Command,
  type EmmettPaymentCommand,
  type EmmettPaymentEvent,
  type PaymentEvent,
  type PaymentState,
  type Payment
} from '../../src/index.js'
import { KID, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'

/** A card's whole life: create, complete the form, charge, refund part, refund the rest. */
const cardLife = (id: string): ReadonlyArray<Command> => [
  { type: 'CreatePayment', at: atOf(1), paymentReferenceID: id, request: cardRequest() as never },
  { type: 'CompletePaymentForm', at: atOf(2) },
  { type: 'ChargePayment', at: atOf(3) },
  {
    type: 'RefundPartially',
    at: atOf(4),
    patch: { moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 5000 }, { splitID: 2, updateType: 'DoNothing' }], newGrossAmount: 6000 }
  },
  { type: 'RefundPayment', at: atOf(5) }
]

/** An invoice's whole life: create, a part paid, adjusted, paid in full. */
const invoiceLife = (id: string): ReadonlyArray<Command> => [
  { type: 'CreatePayment', at: atOf(1), paymentReferenceID: id, request: invoiceRequest() as never, kid: KID },
  { type: 'ReceiveInvoiceTransfer', at: atOf(2), amount: 3000, kid: KID },
  {
    type: 'AdjustInvoice',
    at: atOf(3),
    patch: {
      moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 4000 }, { splitID: 2, updateType: 'DoNothing' }, { splitID: 3, updateType: 'DoNothing' }],
      newGrossAmount: 9000
    }
  },
  { type: 'ReceiveInvoiceTransfer', at: atOf(4), amount: 6000, kid: KID }
]

/** What paysplit's own transition gives for the same life: the reference. */
const reference = (commands: ReadonlyArray<Command>): { state: PaymentState; events: ReadonlyArray<PaymentEvent> } => {
  let state: PaymentState = initialState
  const events: Array<PaymentEvent> = []
  for (const c of commands) {
    const r = transition(state, c)
    if (E.isLeft(r)) throw new Error(r.left.message)
    state = r.right[0]
    events.push(...r.right[1])
  }
  return { state, events }
}

const plain = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

describe('fmodel-ts: the payment decider runs in EventSourcingAggregate', () => {
  /** An in-memory event repository, streams by paymentReferenceID (commands carry it). */
  const repository = (): EventRepository<Command & { readonly paymentReferenceID: string }, PaymentEvent> & { streams: Map<string, PaymentEvent[]> } => {
    const streams = new Map<string, PaymentEvent[]>()
    return {
      streams,
      fetchEvents: (c) => Promise.resolve([...(streams.get(c.paymentReferenceID) ?? [])]),
      save: (e) => {
        streams.set(e.paymentReferenceID, [...(streams.get(e.paymentReferenceID) ?? []), e])
        return Promise.resolve(e)
      },
      saveAll: (es) => {
        for (const e of es) streams.set(e.paymentReferenceID, [...(streams.get(e.paymentReferenceID) ?? []), e])
        return Promise.resolve(es)
      }
    }
  }

  it.each([['a card', cardLife], ['an invoice', invoiceLife]] as const)('%s: its whole life, the same events and state as transition', async (_, life) => {
    const id = idOf(1)
    const repo = repository()
    // fmodel's own Decider class, built from the adapter: it type-checks against the library's IDecider
    const decider = new FmodelDeciderClass(fmodelPaymentDecider.decide, fmodelPaymentDecider.evolve, fmodelPaymentDecider.initialState)
    const aggregate = new EventSourcingAggregate(decider, repo)
    for (const command of life(id)) await aggregate.handle({ ...command, paymentReferenceID: id })
    const expected = reference(life(id))
    const stored = repo.streams.get(id) ?? []
    expect(plain(stored)).toStrictEqual(plain(expected.events))
    const folded = stored.reduce(fmodelPaymentDecider.evolve, fmodelPaymentDecider.initialState)
    expect(plain(folded)).toStrictEqual(plain(expected.state))
    expect((folded as Payment).status).toBe(life === cardLife ? 'Refunded' : 'Charged')
  })

  it('a refused command rejects with PaymentRejected carrying the PaymentError, and nothing is stored', async () => {
    const id = idOf(2)
    const repo = repository()
    const aggregate = new EventSourcingAggregate(fmodelPaymentDecider, repo)
    await aggregate.handle({ ...(cardLife(id)[0] as Command), paymentReferenceID: id })
    const refused = aggregate.handle({ type: 'ChargePayment', at: atOf(2), paymentReferenceID: id })
    await expect(refused).rejects.toBeInstanceOf(PaymentRejected)
    await expect(refused).rejects.toMatchObject({ error: { code: 'ChargeNotAllowedInStatus' } })
    expect(repo.streams.get(id)).toHaveLength(1)
  })
})

describe('emmett: the payment decider runs in DeciderCommandHandler over the in-memory event store', () => {
  const toEmmett = (c: Command): EmmettPaymentCommand => {
    const { type, ...data } = c
    return { type, data }
  }

  it.each([['a card', cardLife], ['an invoice', invoiceLife]] as const)('%s: its whole life, the same events and state as transition', async (_, life) => {
    const id = idOf(3)
    const store = getInMemoryEventStore()
    const handle = DeciderCommandHandler(emmettPaymentDecider)
    let last: PaymentState = initialState
    for (const command of life(id)) {
      const result = await handle(store, id, toEmmett(command))
      last = result.newState
    }
    const expected = reference(life(id))
    const { events } = await store.readStream<EmmettPaymentEvent>(id)
    expect(plain(events.map((e) => e.data))).toStrictEqual(plain(expected.events))
    expect(plain(last)).toStrictEqual(plain(expected.state))
    const { state } = await store.aggregateStream(id, { evolve: emmettPaymentDecider.evolve, initialState: emmettPaymentDecider.initialState })
    expect(plain(state)).toStrictEqual(plain(expected.state))
  })

  it('a refused command throws PaymentRejected and appends nothing', async () => {
    const id = idOf(4)
    const store = getInMemoryEventStore()
    const handle = DeciderCommandHandler(emmettPaymentDecider)
    await handle(store, id, toEmmett(cardLife(id)[0] as Command))
    await expect(handle(store, id, { type: 'ChargePayment', data: { at: atOf(2) } })).rejects.toMatchObject({
      name: 'PaymentRejected',
      error: { code: 'ChargeNotAllowedInStatus' }
    })
    expect((await store.readStream(id)).events).toHaveLength(1)
  })

  it('DeciderSpecification: given / when / then on paysplit\'s events', () => {
    const id = idOf(5)
    const spec = DeciderSpecification.for(emmettPaymentDecider)
    const created = reference(cardLife(id).slice(0, 1)).events.map(toEmmettEvent)
    spec(created)
      .when({ type: 'CompletePaymentForm', data: { at: atOf(2) } })
      .then([{ type: 'PaymentReserved', data: { type: 'PaymentReserved', at: atOf(2), paymentReferenceID: id } }])
    spec(created)
      .when({ type: 'RefundPayment', data: { at: atOf(2) } })
      .thenThrows<PaymentRejected>((e) => e.error.code === 'RefundNotAllowedInStatus')
    spec([])
      .when({ type: 'CancelPayment', data: { at: atOf(2) } })
      .thenThrows<PaymentRejected>((e) => e.error.code === 'PaymentNotFound')
  })
})

describe('the adapters keep paysplit free of both libraries', () => {
  it('src/adapters.ts imports neither library', async () => {
    const { readFile } = await import('node:fs/promises')
    const source = await readFile(new URL('../../src/adapters.ts', import.meta.url), 'utf8')
    expect(source).not.toMatch(/from '@(fraktalio|event-driven-io)\//)
  })
})
