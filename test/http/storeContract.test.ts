/**
 * C15, the store contract, rule by rule: the one record every operation returns, the rows to load
 * (`requestKeys`, `transferKeys`, `ocrKeys`, `formKeys`), a world from rows (`worldOf`), the rows to write
 * (`changes`) and the outbox rows (`id`, `body`, `webhookMessage`). The laws over random lives are
 * in storeContract.prop.test.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/index.js'
import {
  completeForm,
  emptyWorld,
  failForm,
  formKeys,
  handle,
  idempotencyEntryKey,
  ocrKeys,
  receiveOcrGiro,
  receiveOcrTransaction,
  receiveTransfer,
  receiveTransferByKid,
  requestKeys,
  transferKeys,
  webhookMessage,
  worldOf,
  type CustomerRow,
  type ReferenceRow,
  type World
} from '../../src/http.js'
import { CATCH_ALL, KID, OTHER_KID, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'
import { transmissionOf } from '../support/ocr.fixtures.js'

const ctx = { at: atOf(1), paymentReferenceID: idOf(1), catchAllUrl: CATCH_ALL }
const none = { paymentReferenceIDs: [], externalPaymentReferenceIDs: [], customerExternalIDs: [], openInvoiceKids: [] }

const create = (world: World, body: Record<string, unknown>, id: string, kid?: string, at = atOf(1)) =>
  handle(world, { method: 'POST', path: '/payments', body }, { ...ctx, at, paymentReferenceID: id, ...(kid === undefined ? {} : { kid }) })

/** A world with a card (idOf(1), customer-42 with a name) and an open invoice (idOf(2), KID). */
const twoPayments = (): World => {
  const card = create(emptyWorld, cardRequest({ customer: { name: 'Kari' } }), idOf(1))
  return create(card.world, invoiceRequest(), idOf(2), KID, atOf(2)).world
}

/** Values whose reads throw, or that are no object at all. */
const hostile: ReadonlyArray<unknown> = [
  undefined,
  null,
  42,
  'text',
  [],
  new Proxy({}, { get: () => { throw new Error('no') }, getOwnPropertyDescriptor: () => { throw new Error('no') }, has: () => { throw new Error('no') } }),
  Object.defineProperty({}, 'method', { get: () => { throw new Error('no') }, enumerable: true }),
  (() => {
    const r = Proxy.revocable({}, {})
    r.revoke()
    return r.proxy
  })()
]

describe('C15: every operation on a world returns one record', () => {
  it('handle → { world, response, deliveries, events, changes }; the form → { world, result, deliveries, redirectUrl, events, changes }; transfers → { world, result, deliveries, events, changes }; OCR → { world, report, deliveries, events, changes }', () => {
    const world = twoPayments()
    const fields = (o: object): ReadonlyArray<string> => Object.keys(o).sort()
    expect(fields(handle(world, { method: 'GET', path: `/payments/${idOf(1)}` }, ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'response', 'world'])
    expect(fields(completeForm(world, idOf(1), ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'redirectUrl', 'result', 'world'])
    expect(fields(failForm(world, idOf(1), ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'redirectUrl', 'result', 'world'])
    expect(fields(receiveTransfer(world, idOf(2), { kid: KID, amount: 1 }, ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'result', 'world'])
    expect(fields(receiveTransferByKid(world, { kid: KID, amount: 1 }, ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'result', 'world'])
    expect(fields(receiveOcrGiro(world, transmissionOf([{ kid: KID, amount: 1 }]), ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'report', 'world'])
    expect(fields(receiveOcrTransaction(world, { transactionNumber: 1, transactionType: 10, kid: KID, amount: 1 }, ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'row', 'world'])
    // refusals too
    expect(fields(completeForm(world, idOf(9), ctx))).toStrictEqual(['changes', 'deliveries', 'events', 'redirectUrl', 'result', 'world'])
    expect(fields(receiveOcrGiro(world, transmissionOf([{ kid: KID, amount: 1 }]), { at: 'yesterday' }))).toStrictEqual(['changes', 'deliveries', 'events', 'report', 'world'])
  })
})

describe('C15: requestKeys names the rows handle reads, from the route matchRoute matched', () => {
  const body = cardRequest({ externalPaymentReferenceID: 'order-7', customerExternalID: 'customer-7' })

  it('POST /payments, /payments#x and /payments?x name the same rows: the context id (lower-cased), the reference, the customer, the open invoices of the context KID', () => {
    const c = { ...ctx, paymentReferenceID: idOf(10).toUpperCase(), kid: KID }
    const expected = { paymentReferenceIDs: [idOf(10)], externalPaymentReferenceIDs: ['order-7'], customerExternalIDs: ['customer-7'], openInvoiceKids: [KID] }
    for (const path of ['/payments', '/payments#x', '/payments?x=1', '/payments?x#y']) {
      expect(requestKeys({ method: 'POST', path, body }, c)).toStrictEqual(expected)
    }
    // a body that is no object names no reference and no customer; the context still names its id and KID
    expect(requestKeys({ method: 'POST', path: '/payments', body: 'x' }, c)).toStrictEqual({ ...expected, externalPaymentReferenceIDs: [], customerExternalIDs: [] })
  })

  it('the payment routes and GET /payments/{id}: the payment of the path, lower-cased; GET /payments?externalPaymentReferenceID=…: the reference; GET /customers/{id}: the customer, percent-decoded', () => {
    const upper = idOf(3).toUpperCase()
    for (const action of ['cancel', 'charge', 'refund', 'refund/partially', 'adjust']) {
      expect(requestKeys({ method: 'POST', path: `/payments/${upper}/${action}` }, ctx)).toStrictEqual({ ...none, paymentReferenceIDs: [idOf(3)] })
    }
    expect(requestKeys({ method: 'GET', path: `/payments/${upper}?x=1` }, ctx)).toStrictEqual({ ...none, paymentReferenceIDs: [idOf(3)] })
    expect(requestKeys({ method: 'GET', path: '/payments?externalPaymentReferenceID=order%2D7' }, ctx)).toStrictEqual({ ...none, externalPaymentReferenceIDs: ['order-7'] })
    expect(requestKeys({ method: 'GET', path: '/customers/kari%40example.no' }, ctx)).toStrictEqual({ ...none, customerExternalIDs: ['kari@example.no'] })
  })

  it('a request handle answers before reading any row names none: an unknown route, a wrong method, an id that is no UUID, a bad query, a bad customer escape', () => {
    for (const [method, path] of [
      ['GET', '/nowhere'],
      ['DELETE', '/payments'],
      ['POST', `/payments/${idOf(3)}`],
      ['POST', '/payments/42/cancel'],
      ['GET', '/payments?externalPaymentReferenceID='],
      ['GET', '/payments?other=1'],
      ['GET', '/customers/%E0%A4%A']
    ] as const) {
      expect(requestKeys({ method, path }, ctx)).toStrictEqual(none)
    }
  })

  it('idempotency: the { scope, key } of a POST with a valid idempotency-key (scope absent for the shared scope); none for a read, a bad key or a scope that is no string', () => {
    const cancel = { method: 'POST', path: `/payments/${idOf(3)}/cancel`, headers: { 'idempotency-key': 'k-1' } }
    expect(requestKeys(cancel, ctx).idempotency).toStrictEqual({ key: 'k-1' })
    expect(requestKeys(cancel, { ...ctx, idempotencyScope: 'api-7' }).idempotency).toStrictEqual({ scope: 'api-7', key: 'k-1' })
    expect(requestKeys({ method: 'POST', path: '/payments', body, headers: { 'idempotency-key': 'k-2' } }, ctx).idempotency).toStrictEqual({ key: 'k-2' })
    expect('idempotency' in requestKeys({ ...cancel, method: 'GET', path: `/payments/${idOf(3)}` }, ctx)).toBe(false)
    expect('idempotency' in requestKeys({ ...cancel, headers: { 'idempotency-key': 'nøkkel' } }, ctx)).toBe(false)
    expect('idempotency' in requestKeys({ ...cancel, headers: { 'idempotency-key': '' } }, ctx)).toBe(false)
    expect('idempotency' in requestKeys(cancel, { ...ctx, idempotencyScope: 7 as never })).toBe(false)
  })

  it('the keys load what handle reads: a create whose customer exists, sent to /payments#x, merges that customer on the slice as on the whole world', () => {
    const first = create(emptyWorld, cardRequest({ externalPaymentReferenceID: 'order-1', customer: { name: 'Kari' } }), idOf(1))
    const request = { method: 'POST', path: '/payments#x', body: cardRequest({ externalPaymentReferenceID: 'order-2', customer: { email: 'kari@example.no' } }) }
    const c = { ...ctx, at: atOf(2), paymentReferenceID: idOf(2) }
    const keys = requestKeys(request, c)
    const rows = worldOf({
      customers: keys.customerExternalIDs.flatMap((id) => {
        const customer = first.world.customers.get(id)
        return customer === undefined ? [] : [{ customerExternalID: id, customer }]
      })
    })
    expect(E.isRight(rows)).toBe(true)
    const onSlice = handle((rows as E.Right<World>).right, request, c)
    const onWhole = handle(first.world, request, c)
    expect(onSlice.response.status).toBe(201)
    expect(onSlice.changes).toStrictEqual(onWhole.changes)
    expect(onSlice.changes.customers).toStrictEqual([{ customerExternalID: 'customer-42', customer: { name: 'Kari', email: 'kari@example.no' } }])
  })

  it('never throws on hostile input: a request or a context that cannot be read names no rows, or what can be read', () => {
    for (const h of hostile) {
      expect(() => requestKeys(h as never, ctx)).not.toThrow()
      expect(() => requestKeys({ method: 'POST', path: '/payments', body: h }, h as never)).not.toThrow()
      expect(() => requestKeys({ method: 'POST', path: `/payments/${idOf(3)}/cancel`, headers: h as never }, h as never)).not.toThrow()
    }
    expect(requestKeys(hostile[5] as never, ctx)).toStrictEqual(none)
    // a cancel names its payment; the context is read for a key only
    expect(requestKeys({ method: 'POST', path: `/payments/${idOf(3)}/cancel` }, hostile[5] as never)).toStrictEqual({ ...none, paymentReferenceIDs: [idOf(3)] })
    expect(requestKeys({ method: 'POST', path: `/payments/${idOf(3)}/cancel`, headers: { 'idempotency-key': 'k' } }, hostile[5] as never)).toStrictEqual(none)
  })
})

describe('C15: transferKeys and ocrKeys name the rows of the bank operations', () => {
  it('transferKeys: the open invoices of the KID; ocrKeys: the open invoices of every KID of the file, each once, and the transmission', () => {
    expect(transferKeys({ kid: KID, amount: 5 })).toStrictEqual({ ...none, openInvoiceKids: [KID], ocrTransmissions: [] })
    const t = transmissionOf([{ kid: KID, amount: 5 }, { kid: OTHER_KID, amount: 6 }, { kid: KID, amount: 7, type: 18 }], '0000042')
    expect(ocrKeys(t)).toStrictEqual({ ...none, openInvoiceKids: [KID, OTHER_KID], ocrTransmissions: [{ dataSender: '00008080', transmissionNumber: '0000042' }] })
  })

  it('never throw on hostile input', () => {
    for (const h of hostile) {
      expect(() => transferKeys(h as never)).not.toThrow()
      expect(() => ocrKeys(h as never)).not.toThrow()
      expect(() => ocrKeys({ dataSender: '1', transmissionNumber: '2', assignments: [{ transactions: [h] }] } as never)).not.toThrow()
    }
    expect(transferKeys(hostile[5] as never)).toStrictEqual({ ...none, ocrTransmissions: [] })
    expect(ocrKeys({ dataSender: 1, transmissionNumber: '2', assignments: [{ transactions: [{ kid: KID }, { kid: 7 }] }] } as never)).toStrictEqual({ ...none, openInvoiceKids: [KID], ocrTransmissions: [] })
  })
})

describe('C15: formKeys names the row the form reads', () => {
  it('formKeys: the payment, lower-cased as the world keys it; the form on that slice answers as on the whole world', () => {
    expect(formKeys(idOf(1).toUpperCase())).toStrictEqual({ ...none, paymentReferenceIDs: [idOf(1).toLowerCase()] })
    const world = twoPayments()
    const keys = formKeys(idOf(1).toUpperCase())
    // the slice a store that matches keys exactly loads: the payment, its customer and reference
    const card = world.payments.get(keys.paymentReferenceIDs[0] ?? '') as Payment
    const slice = worldOf({
      payments: [card],
      customers: [{ customerExternalID: card.customerExternalID, customer: world.customers.get(card.customerExternalID) ?? {} }],
      references: [{ externalPaymentReferenceID: card.externalPaymentReferenceID, ...world.references.get(card.externalPaymentReferenceID)! }]
    })
    expect(E.isRight(slice)).toBe(true)
    if (E.isLeft(slice)) return
    const on = (w: World) => {
      const { result, deliveries, redirectUrl, events, changes } = completeForm(w, idOf(1).toUpperCase(), { at: atOf(3), catchAllUrl: CATCH_ALL })
      return { result, deliveries, redirectUrl, events, changes }
    }
    expect(on(slice.right)).toStrictEqual(on(world))
  })

  it('never throws on hostile input: an id that is no string names nothing', () => {
    for (const h of hostile) expect(formKeys(h as never)).toStrictEqual(typeof h === 'string' ? { ...none, paymentReferenceIDs: [h] } : none)
  })
})

describe('C15: worldOf builds a world from stored rows', () => {
  /** The rows of twoPayments() after a JSON round trip, as a database gives them back. */
  const storedRows = () => {
    const world = twoPayments()
    return JSON.parse(
      JSON.stringify({
        payments: [...world.payments.values()],
        customers: [...world.customers].map(([customerExternalID, customer]) => ({ customerExternalID, customer })),
        references: [...world.references].map(([externalPaymentReferenceID, r]) => ({ externalPaymentReferenceID, ...r }))
      })
    ) as { payments: Array<Record<string, unknown>>; customers: Array<CustomerRow>; references: Array<ReferenceRow> }
  }

  it('rows keyed as the world keys them: payments by lower-cased id, customers, references, idempotency keys by scope and key, transmissions; every list optional', () => {
    const rows = storedRows()
    const keyRow = { scope: 'api-7', key: 'k-1', at: atOf(3), request: { method: 'POST', path: `/payments/${idOf(1)}/cancel` }, response: { status: 200, body: { success: true } } }
    const ocrRow = { dataSender: '00008080', transmissionNumber: '0000001', at: atOf(4) }
    const built = worldOf({ ...rows, idempotencyKeys: [keyRow], ocrTransmissions: [ocrRow] })
    expect(E.isRight(built)).toBe(true)
    const w = (built as E.Right<World>).right
    expect([...w.payments.keys()]).toStrictEqual([idOf(1), idOf(2)])
    expect(w.customers.get('customer-42')).toStrictEqual({ name: 'Kari' })
    expect(w.references.get('invoice-2001')).toMatchObject({ paymentReferenceID: idOf(2), kid: KID })
    expect(w.idempotencyKeys?.get(idempotencyEntryKey('api-7', 'k-1'))).toStrictEqual(keyRow)
    expect(w.ocrTransmissions?.get('00008080/0000001')).toStrictEqual(ocrRow)
    // an id created in capitals is kept lower-cased, as the world keeps it
    const upper = create(emptyWorld, cardRequest(), idOf(3).toUpperCase()).changes.payments[0]?.state
    const fromUpper = worldOf({ payments: [JSON.parse(JSON.stringify(upper)) as unknown] })
    expect(E.isRight(fromUpper) && [...fromUpper.right.payments.keys()]).toStrictEqual([idOf(3)])
    // every list optional
    const empty = worldOf({})
    expect(E.isRight(empty) && empty.right.payments.size + empty.right.customers.size + empty.right.references.size).toBe(0)
    // SQL's null for an absent kid or scope
    const nulls = worldOf({ references: [{ ...rows.references[0], kid: null } as never], idempotencyKeys: [{ ...keyRow, scope: null } as never] })
    expect(E.isRight(nulls) && nulls.right.idempotencyKeys?.has(idempotencyEntryKey(undefined, 'k-1'))).toBe(true)
  })

  it('a world from rows answers as the world they came from', () => {
    const world = twoPayments()
    const built = worldOf(storedRows())
    expect(E.isRight(built)).toBe(true)
    const w = (built as E.Right<World>).right
    const requests = [
      { method: 'GET', path: `/payments/${idOf(1)}` },
      { method: 'GET', path: '/payments?externalPaymentReferenceID=invoice-2001' },
      { method: 'POST', path: `/payments/${idOf(1)}/cancel` },
      { method: 'POST', path: '/payments', body: cardRequest() }
    ]
    for (const r of requests) {
      const onRows = handle(w, r, { ...ctx, at: atOf(5), paymentReferenceID: idOf(5) })
      const onWorld = handle(world, r, { ...ctx, at: atOf(5), paymentReferenceID: idOf(5) })
      expect([onRows.response, onRows.deliveries, onRows.events, onRows.changes]).toStrictEqual([onWorld.response, onWorld.deliveries, onWorld.events, onWorld.changes])
    }
  })

  it('a payment row that is not valid → Left with validateState\'s code and a field paymentReferenceID naming the row; nothing built', () => {
    const rows = storedRows()
    const bad = worldOf({ ...rows, payments: [rows.payments[0], { ...rows.payments[1], grossAmount: -1 }] })
    expect(E.isLeft(bad) && bad.left).toMatchObject({ code: 'ValidationFailed', paymentReferenceID: idOf(2) })
    expect(E.isLeft(bad) && bad.left.issues?.some((i) => i.path === 'state.grossAmount')).toBe(true)
    const newer = worldOf({ payments: [{ ...rows.payments[0], schemaVersion: 2 }] })
    expect(E.isLeft(newer) && newer.left).toMatchObject({ code: 'UnsupportedSchemaVersion', paymentReferenceID: idOf(1) })
    const garbage = worldOf({ payments: [42] })
    expect(E.isLeft(garbage) && garbage.left).toMatchObject({ code: 'ValidationFailed', paymentReferenceID: '' })
    const noPayment = worldOf({ payments: [{ status: 'NoPayment' }] })
    expect(E.isLeft(noPayment) && noPayment.left.issues?.[0]?.path).toBe('state.status')
  })

  it('another row whose fields have the wrong type → Left ValidationFailed at its path; lists that are no arrays, rows that are no object; never throws', () => {
    const path = (rows: unknown): string | undefined => {
      const r = worldOf(rows as never)
      return E.isLeft(r) ? r.left.issues?.[0]?.path : 'built'
    }
    expect(path({ customers: [{ customerExternalID: 'c', customer: {} }, { customerExternalID: 'c' }] })).toBe('customers.1.customer')
    expect(path({ customers: [{ customerExternalID: 7, customer: {} }] })).toBe('customers.0.customerExternalID')
    expect(path({ references: [{ externalPaymentReferenceID: 'r', paymentReferenceID: idOf(1), request: {}, kid: 7 }] })).toBe('references.0.kid')
    expect(path({ idempotencyKeys: [{ key: 'k', at: atOf(1), request: { method: 'POST' }, response: { status: 200 } }] })).toBe('idempotencyKeys.0.request.path')
    expect(path({ idempotencyKeys: [{ key: 'k', at: atOf(1), request: { method: 'POST', path: '/' }, response: { status: '200' } }] })).toBe('idempotencyKeys.0.response.status')
    expect(path({ ocrTransmissions: [{ dataSender: '1', transmissionNumber: '2' }] })).toBe('ocrTransmissions.0.at')
    expect(path({ payments: {} })).toBe('payments')
    for (const h of hostile) {
      expect(() => worldOf(h as never)).not.toThrow()
      expect(() => worldOf({ payments: [h], customers: [h] } as never)).not.toThrow()
    }
    // rows that are no object, or cannot be read
    for (const h of [undefined, null, 42, 'text', [], hostile[5], hostile[7]]) expect(E.isLeft(worldOf(h as never))).toBe(true)
  })
})

describe('C15: changes are the rows to write', () => {
  it('payments: fromVersion 0 for a new payment; state.version = fromVersion + the events; each event its version and eventID <paymentReferenceID>:<version>', () => {
    const id = idOf(1).toUpperCase()
    const created = create(emptyWorld, cardRequest({ customer: { name: 'Kari' }, chargeImmediately: true }), id)
    expect(created.changes.payments).toStrictEqual([
      {
        paymentReferenceID: id,
        fromVersion: 0,
        state: created.world.payments.get(idOf(1)),
        events: created.events.map((event, i) => ({ version: i + 1, eventID: `${id}:${String(i + 1)}`, event }))
      }
    ])
    const completed = completeForm(created.world, idOf(1), { at: atOf(2), catchAllUrl: CATCH_ALL })
    const [change] = completed.changes.payments
    expect(change?.fromVersion).toBe(2)
    expect(change?.state.version).toBe(3)
    expect(change?.events).toStrictEqual([{ version: 3, eventID: `${id}:3`, event: completed.events[0] }])
    // a delivery names one of the change's events
    expect(completed.deliveries.map((d) => d.id)).toContain(`${id}:3`)
  })

  it('the other lists are the rows in worldOf\'s shapes, written whole: the merged customer, the new reference, the answer kept, the transmission applied', () => {
    const first = create(emptyWorld, cardRequest({ customer: { name: 'Kari', email: 'kari@example.no' } }), idOf(1))
    const second = create(first.world, invoiceRequest({ customer: { email: 'kari@nordmann.no' } }), idOf(2), KID, atOf(2))
    expect(second.changes.customers).toStrictEqual([{ customerExternalID: 'customer-42', customer: { name: 'Kari', email: 'kari@nordmann.no' } }])
    expect(second.changes.references).toStrictEqual([{ externalPaymentReferenceID: 'invoice-2001', paymentReferenceID: idOf(2), request: second.world.references.get('invoice-2001')?.request, kid: KID }])
    // no customer in the request: no customer row
    expect(create(emptyWorld, cardRequest(), idOf(1)).changes.customers).toStrictEqual([])
    const cancel = { method: 'POST', path: `/payments/${idOf(1)}/cancel`, headers: { 'idempotency-key': 'k-1' } }
    const cancelled = handle(second.world, cancel, { ...ctx, at: atOf(3), idempotencyScope: 'api-7' })
    expect(cancelled.changes.idempotencyKeys).toStrictEqual([
      { scope: 'api-7', key: 'k-1', at: atOf(3), request: { method: 'POST', path: cancel.path }, response: cancelled.response }
    ])
    const paid = receiveOcrGiro(second.world, transmissionOf([{ kid: KID, amount: 4000 }, { kid: KID, amount: 6000 }]), { at: atOf(4) })
    expect(paid.changes.ocrTransmissions).toStrictEqual([{ dataSender: '00008080', transmissionNumber: '0000001', at: atOf(4) }])
    // one invoice paid twice in one file: one change, from its version before the file, every event in order
    expect(paid.changes.payments.map((c) => [c.fromVersion, c.state.version, c.state.status, c.events.map((e) => e.event.type)])).toStrictEqual([
      [2, 5, 'Charged', ['InvoiceTransferReceived', 'InvoiceTransferReceived', 'PaymentCharged']]
    ])
    // the rows, read back by worldOf, give the world returned
    const rows = worldOf({
      payments: [...second.world.payments.values()].map((p) => paid.world.payments.get(p.paymentReferenceID) as Payment),
      customers: second.changes.customers,
      references: [...first.changes.references, ...second.changes.references],
      ocrTransmissions: paid.changes.ocrTransmissions
    })
    expect(E.isRight(rows) && rows.right.ocrTransmissions).toStrictEqual(paid.world.ocrTransmissions)
  })

  it('all empty exactly when the world did not change: a refusal, a read, a repeat, a retried key, a file sent again; a refusal with a key keeps its answer', () => {
    const world = twoPayments()
    const empty = { payments: [], customers: [], references: [], idempotencyKeys: [], ocrTransmissions: [] }
    const unchanged = [
      handle(world, { method: 'POST', path: `/payments/${idOf(1)}/charge` }, ctx),
      handle(world, { method: 'GET', path: `/payments/${idOf(1)}` }, ctx),
      create(world, cardRequest({ customer: { name: 'Kari' } }), idOf(7)),
      completeForm(world, idOf(2), ctx),
      receiveTransferByKid(world, { kid: OTHER_KID, amount: 1 }, ctx)
    ]
    for (const o of unchanged) {
      expect(o.world).toBe(world)
      expect(o.changes).toStrictEqual(empty)
    }
    const keyed = { method: 'POST', path: `/payments/${idOf(1)}/charge`, headers: { 'idempotency-key': 'k-1' } }
    const refused = handle(world, keyed, ctx)
    expect(refused.response.status).toBe(409)
    expect(refused.world).not.toBe(world)
    expect(refused.changes.idempotencyKeys.length).toBe(1)
    const retried = handle(refused.world, keyed, { ...ctx, at: atOf(9) })
    expect(retried.world).toBe(refused.world)
    expect(retried.changes).toStrictEqual(empty)
    const file = transmissionOf([{ kid: KID, amount: 1 }])
    const once = receiveOcrGiro(world, file, ctx)
    const again = receiveOcrGiro(once.world, file, ctx)
    expect(again.world).toBe(once.world)
    expect(again.changes).toStrictEqual(empty)
  })
})

describe('C15: outbox rows', () => {
  it('each delivery carries id (its payload\'s eventID) and body (the payload\'s JSON text, exactly what is sent)', () => {
    const { deliveries } = create(emptyWorld, cardRequest({ webhookSubscriptions: [{ eventType: 'Initiated', url: 'https://hooks.example/sub' }] }), idOf(1))
    expect(deliveries.length).toBe(2)
    for (const d of deliveries) {
      expect(d.id).toBe(d.payload.eventID)
      expect(d.body).toBe(JSON.stringify(d.payload))
      expect(webhookMessage(d, { timestamp: 1 }).body).toBe(d.body)
    }
  })

  it('webhookMessage signs a { url, id, body } row as it was stored: nothing is parsed back; a delivery built by hand without them still gets them from its payload', () => {
    const row = { url: 'https://hooks.example/all', id: `${idOf(1)}:1`, body: '{ "eventID" : "as stored" }' }
    expect(webhookMessage(row, { timestamp: 1795255200 })).toStrictEqual({
      url: row.url,
      id: row.id,
      timestamp: 1795255200,
      body: row.body,
      headers: { 'content-type': 'application/json', 'webhook-id': row.id, 'webhook-timestamp': '1795255200' }
    })
    const [d] = create(emptyWorld, cardRequest(), idOf(1)).deliveries
    if (d === undefined) throw new Error('no delivery')
    const byHand = { url: d.url, eventType: d.eventType, payload: d.payload }
    expect(webhookMessage(byHand as never, { timestamp: 1 })).toStrictEqual(webhookMessage(d, { timestamp: 1 }))
  })
})
