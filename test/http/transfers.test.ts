/**
 * C9: bank transfers by KID. A KID identifies at most one open invoice (409 DuplicateKid on create);
 * receiveTransferByKid applies a transfer to exactly one invoice or to none (UnmatchedTransfer, the
 * world unchanged), never losing one silently.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { initialState, kid as kidNumber, transition } from '../../src/index.js'
import { emptyWorld, handle, receiveTransferByKid, type World } from '../../src/http.js'
import { CATCH_ALL, KID, OTHER_KID, Session, atOf, idOf, invoiceRequest } from '../support/http.fixtures.js'

const kidOf = (n: number): string => {
  const made = kidNumber.create(String(1000 + n), 'mod11')
  if (E.isLeft(made)) throw new Error('kid')
  return made.right
}

describe('C9: a KID identifies at most one open invoice (409 DuplicateKid)', () => {
  it('a second invoice with the KID of an open one → 409 DuplicateKid, nothing changed; free again once the first is Charged', () => {
    const s = new Session()
    const first = s.create(invoiceRequest(), { kid: KID })
    const world = s.world
    const clash = s.send('POST', '/payments', invoiceRequest({ externalPaymentReferenceID: 'invoice-2002' }), { kid: KID })
    expect(clash).toStrictEqual({
      status: 409,
      body: {
        success: false,
        error: { code: 'DuplicateKid', message: 'An open invoice holds this KID already: the service must give the new invoice another.' }
      }
    })
    expect(s.world).toBe(world)
    // another KID: fine
    expect(s.send('POST', '/payments', invoiceRequest({ externalPaymentReferenceID: 'invoice-2003' }), { kid: OTHER_KID }).status).toBe(201)
    // once the first is paid (Charged), its KID is free for reuse
    expect(E.isRight(s.transfer(first, 10000, KID))).toBe(true)
    expect(s.send('POST', '/payments', invoiceRequest({ externalPaymentReferenceID: 'invoice-2002' }), { kid: KID }).status).toBe(201)
  })

  it('a card ignores the context\'s KID: no DuplicateKid for cards', () => {
    const s = new Session()
    s.create(invoiceRequest(), { kid: KID })
    const card = s.send('POST', '/payments', { ...invoiceRequest({ externalPaymentReferenceID: 'order-9', paymentGateway: 'creditcard', chargeImmediately: true }) }, { kid: KID })
    expect(card.status).toBe(201)
  })
})

describe('C9: receiveTransferByKid', () => {
  const ctx = { at: atOf(50), catchAllUrl: CATCH_ALL }

  it('applies the transfer to the open invoice that holds the KID, with its webhooks', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    const { world, result, deliveries } = receiveTransferByKid(s.world, { kid: KID, amount: 10000 }, ctx)
    expect(E.isRight(result) && [result.right.paymentReferenceID, result.right.status, result.right.paidAmount]).toStrictEqual([id, 'Charged', 10000])
    expect(world.payments.get(id)).toBe(E.isRight(result) ? result.right : undefined)
    expect(deliveries.map((d) => [d.eventType, d.url])).toStrictEqual([['Charged', CATCH_ALL]])
  })

  it('no open invoice with that KID → Left UnmatchedTransfer, the very world given, no webhook', () => {
    const s = new Session()
    const id = s.create(invoiceRequest(), { kid: KID })
    s.transfer(id, 10000, KID) // now Charged: no longer open
    for (const world of [emptyWorld, s.world]) {
      const { world: after, result, deliveries } = receiveTransferByKid(world, { kid: KID, amount: 100 }, ctx)
      expect(result).toStrictEqual(
        E.left({ code: 'UnmatchedTransfer', message: 'No open invoice holds this KID: the transfer was not applied; park it for manual matching.' })
      )
      expect(after).toBe(world)
      expect(deliveries).toEqual([])
    }
  })

  it('a KID or amount that is not valid → ValidationFailed (both at once), the world unchanged', () => {
    const s = new Session()
    s.create(invoiceRequest(), { kid: KID })
    const { world: after, result } = receiveTransferByKid(s.world, { kid: '12345', amount: 0 }, ctx)
    expect(after).toBe(s.world)
    expect(E.isLeft(result) && result.left.code).toBe('ValidationFailed')
    expect(E.isLeft(result) && result.left.issues?.map((i) => i.path)).toStrictEqual(['amount', 'kid'])
    expect(E.isLeft(receiveTransferByKid(s.world, null as never, ctx).result)).toBe(true)
  })

  it("a transfer's amount is refused with the decider's own issue (reason and params) for the same value", () => {
    const s = new Session()
    s.create(invoiceRequest(), { kid: KID })
    const created = transition(initialState, { type: 'CreatePayment', at: atOf(0), paymentReferenceID: idOf(9), request: invoiceRequest() as never, kid: KID })
    if (E.isLeft(created)) throw new Error(created.left.message)
    const invoice = created.right[0]
    // the decider stops at the amount (its checks go amount, then KID); the bank reports both at
    // once, and refuses a KID of no valid form where the decider compares it with the invoice's
    const issuesAt = (r: E.Either<{ readonly issues?: ReadonlyArray<{ readonly path: string }> }, unknown>, path: string): unknown =>
      E.isLeft(r) ? (r.left.issues ?? []).filter((i) => i.path === path) : []
    for (const amount of [undefined, null, '100', true, Number.NaN, Infinity, 0.5, 1.5, 0, -1, 2 ** 53, 100]) {
      for (const kid of [KID, '12345', 42, undefined]) {
        const byBank = receiveTransferByKid(s.world, { kid, amount } as never, ctx).result
        const byDecider = transition(invoice, { type: 'ReceiveInvoiceTransfer', at: atOf(1), amount, kid } as never)
        expect(issuesAt(byBank, 'amount'), `${String(amount)} ${String(kid)}`).toStrictEqual(issuesAt(byDecider, 'amount'))
      }
    }
  })

  it('the context first: a bad at or catchAllUrl → InvalidContext, nothing changed', () => {
    const s = new Session()
    s.create(invoiceRequest(), { kid: KID })
    for (const bad of [{ at: 'now' }, { at: atOf(1), catchAllUrl: null }, { at: atOf(1), catchAllUrl: 'ftp://x.example' }, null]) {
      const { world: after, result, deliveries } = receiveTransferByKid(s.world, { kid: 'garbage', amount: -1 }, bad as never)
      expect(E.isLeft(result) && result.left.code).toBe('InvalidContext')
      expect(after).toBe(s.world)
      expect(deliveries).toEqual([])
    }
  })

  it('two open invoices with one KID (a world paysplit did not make) → UnmatchedTransfer: never a guess', () => {
    const s = new Session()
    const a = s.create(invoiceRequest(), { kid: KID })
    const b = s.create(invoiceRequest({ externalPaymentReferenceID: 'invoice-2002' }), { kid: OTHER_KID })
    const pb = s.payment(b)
    const world: World = { ...s.world, payments: new Map([[a, s.payment(a)], [b, { ...pb, kid: KID }]]) }
    const { world: after, result } = receiveTransferByKid(world, { kid: KID, amount: 1 }, ctx)
    expect(E.isLeft(result) && result.left.code).toBe('UnmatchedTransfer')
    expect(after).toBe(world)
  })

  it('property: a transfer is applied to exactly one invoice or to none, and never lost silently', () => {
    type Op =
      | { readonly op: 'create'; readonly kid: number; readonly gross: number }
      | { readonly op: 'transfer'; readonly kid: number; readonly amount: number }
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant('create' as const), kid: fc.integer({ min: 0, max: 3 }), gross: fc.integer({ min: 1, max: 500 }) }),
      fc.record({ op: fc.constant('transfer' as const), kid: fc.integer({ min: 0, max: 4 }), amount: fc.integer({ min: 1, max: 600 }) })
    )
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
        let world: World = emptyWorld
        let n = 0
        const totalPaid = (w: World): number => [...w.payments.values()].reduce((sum, p) => sum + p.paidAmount, 0)
        const open = (w: World, k: string) => [...w.payments.values()].filter((p) => p.status === 'Initiated' && p.kid === k)
        for (const o of ops) {
          n += 1
          const k = kidOf(o.kid)
          if (o.op === 'create') {
            const body = invoiceRequest({
              externalPaymentReferenceID: `invoice-${String(n)}`,
              grossAmount: o.gross,
              moneySplitList: [{ connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount: o.gross, isFee: false }]
            })
            const held = open(world, k).length > 0
            const { world: next, response: r } = handle(world, { method: 'POST', path: '/payments', body }, { at: atOf(n), paymentReferenceID: idOf(n), kid: k })
            expect(r.status).toBe(held ? 409 : 201)
            world = next
          } else {
            const before = world
            const candidates = open(before, k)
            const { world: after, result } = receiveTransferByKid(before, { kid: k, amount: o.amount }, { at: atOf(n) })
            if (E.isRight(result)) {
              // exactly one invoice took it: the one open invoice with that KID, paid exactly the amount
              expect(candidates).toHaveLength(1)
              const target = candidates[0]
              expect(result.right.paymentReferenceID).toBe(target?.paymentReferenceID)
              expect(result.right.paidAmount).toBe((target?.paidAmount ?? 0) + o.amount)
              expect(totalPaid(after)).toBe(totalPaid(before) + o.amount)
              const changed = [...after.payments].filter(([key, p]) => before.payments.get(key) !== p)
              expect(changed.map(([key]) => key)).toStrictEqual([target?.paymentReferenceID.toLowerCase()])
            } else {
              // none took it, and the caller is told why
              expect(after).toBe(before)
              expect(result.left.code).toBe('UnmatchedTransfer')
              expect(candidates).toHaveLength(0)
            }
            world = after
          }
          // the invariant the world keeps: at most one open invoice per KID
          for (const p of world.payments.values()) {
            if (p.status === 'Initiated' && p.kid !== undefined) expect(open(world, p.kid)).toHaveLength(1)
          }
        }
      })
    )
  })
})
