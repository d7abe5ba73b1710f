/**
 * C15 for camt.054, rule by rule: receiveCamt054 returns receiveOcrGiro's record; camt054Keys names
 * the rows it reads (the open invoices of the KIDs, the message, the transactions, by key); worldOf
 * reads the notification's rows; changes hold them in worldOf's shapes, all empty exactly when the
 * world did not change; paysplit/http offers what needs no XML parser. The laws over random lives
 * are in test/http/storeContract.prop.test.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as http from '../../src/http.js'
import { emptyWorld, worldOf, type World } from '../../src/http.js'
import * as camt054 from '../../src/camt054.js'
import {
  camt054Keys,
  camt054TransactionKey,
  camt054Xml,
  parseCamt054,
  receiveCamt054,
  type Camt054DraftEntry,
  type Camt054Notification
} from '../../src/camt054.js'
import { kidOf, withInvoices } from '../support/bank.fixtures.js'
import { atOf } from '../support/http.fixtures.js'

const ACCOUNT = 'NO9386011117947'

const notification = (entries: ReadonlyArray<Camt054DraftEntry>, messageId = 'MSG-1'): Camt054Notification => {
  const read = parseCamt054(camt054Xml({ version: 'camt.054.001.08', messageId, createdAt: '2026-11-21T10:00:00', notifications: [{ account: ACCOUNT, entries }] }))
  if (E.isLeft(read)) throw new Error(JSON.stringify(read.left))
  return read.right
}

const credit = (ref: string | undefined, details: ReadonlyArray<{ kid?: string; amount: string; ref?: string }>, bookingDate = '2026-11-21'): Camt054DraftEntry => ({
  ...(ref === undefined ? {} : { accountServicerReference: ref }),
  currency: 'NOK',
  creditDebit: 'CRDT',
  bookingDate,
  details: details.map((d) => ({ amount: d.amount, ...(d.ref !== undefined ? { transactionReference: d.ref } : {}), ...(d.kid !== undefined ? { creditorReferences: [d.kid] } : {}) }))
})

const none = { paymentReferenceIDs: [], externalPaymentReferenceIDs: [], customerExternalIDs: [], openInvoiceKids: [], ocrTransmissions: [] }
const AT = atOf(100)

describe('C15: receiveCamt054 and the store contract', () => {
  it('receiveCamt054 → { world, report, deliveries, events, changes }, changes with the notification\'s rows', () => {
    const { s } = withInvoices(1)
    const done = receiveCamt054(s.world, notification([credit('E-1', [{ kid: kidOf(1), amount: '100.00', ref: 'T-1' }])]), { at: AT })
    expect(Object.keys(done).sort()).toStrictEqual(['changes', 'deliveries', 'events', 'report', 'world'])
    expect(Object.keys(done.changes).sort()).toStrictEqual(['camt054Messages', 'camt054Transactions', 'customers', 'idempotencyKeys', 'ocrTransmissions', 'payments', 'references'])
  })

  it('camt054Keys: the open invoices of every KID, each once; the message id; the key of every transaction with an entry reference, each once', () => {
    const n = notification([
      credit('E-1', [{ kid: kidOf(1), amount: '1.00', ref: 'T-1' }, { kid: kidOf(2), amount: '2.00' }, { amount: '3.00', ref: 'T-1' }]),
      credit(undefined, [{ kid: kidOf(1), amount: '4.00', ref: 'T-9' }])
    ])
    expect(camt054Keys(n)).toStrictEqual({
      ...none,
      openInvoiceKids: [kidOf(1), kidOf(2)],
      camt054Messages: ['MSG-1'],
      camt054Transactions: [JSON.stringify([ACCOUNT, 'E-1', 'T-1']), JSON.stringify([ACCOUNT, 'E-1', 2])]
    })
    expect(camt054Keys(n).camt054Transactions).toStrictEqual(n.transactions.slice(0, 2).map(camt054TransactionKey))
  })

  it('camt054Keys never throws on hostile input: what cannot be read names no rows', () => {
    const throwing = new Proxy({}, { get: () => { throw new Error('no') }, getOwnPropertyDescriptor: () => { throw new Error('no') } })
    for (const h of [undefined, null, 42, 'text', [], throwing]) {
      expect(() => camt054Keys(h as never)).not.toThrow()
      expect(() => camt054Keys({ messageId: 'M', transactions: [h] } as never)).not.toThrow()
    }
    expect(camt054Keys(throwing as never)).toStrictEqual({ ...none, camt054Messages: [], camt054Transactions: [] })
    expect(camt054Keys({ messageId: 7, transactions: [{ kid: 8, entryReference: '' }] } as never)).toStrictEqual({ ...none, camt054Messages: [], camt054Transactions: [] })
  })

  it('the rows: { messageId, at } and { transactionKey, bookingDate }, one per transaction remembered (refused ones too, not a too-old one, not one without an entry reference)', () => {
    const { s, ids } = withInvoices(1)
    const n = notification([
      credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }, { kid: kidOf(1), amount: '60.00', ref: 'T-2' }]),
      { ...credit('E-2', [{ kid: kidOf(1), amount: '5.00' }]), currency: 'EUR' },
      credit(undefined, [{ kid: kidOf(1), amount: '5.00' }]),
      credit('E-3', [{ kid: kidOf(1), amount: '5.00' }], '2024-01-01')
    ])
    const done = receiveCamt054(s.world, n, { at: AT })
    expect(done.report.map((r) => r.outcome)).toStrictEqual(['matched', 'matched', 'refused', 'refused', 'refused'])
    expect(done.changes.camt054Messages).toStrictEqual([{ messageId: 'MSG-1', at: AT }])
    expect(done.changes.camt054Transactions).toStrictEqual([
      { transactionKey: JSON.stringify([ACCOUNT, 'E-1', 'T-1']), bookingDate: '2026-11-21' },
      { transactionKey: JSON.stringify([ACCOUNT, 'E-1', 'T-2']), bookingDate: '2026-11-21' },
      { transactionKey: JSON.stringify([ACCOUNT, 'E-2', 1]), bookingDate: '2026-11-21' }
    ])
    // one invoice paid twice in one notification: one change, from its version before it
    expect(done.changes.payments.map((c) => [c.paymentReferenceID, c.fromVersion, c.state.status, c.events.map((e) => e.event.type)])).toStrictEqual([
      [ids[0], 1, 'Charged', ['InvoiceTransferReceived', 'InvoiceTransferReceived', 'PaymentCharged']]
    ])
    expect([done.changes.customers, done.changes.references, done.changes.idempotencyKeys, done.changes.ocrTransmissions]).toStrictEqual([[], [], [], []])
  })

  it('worldOf reads the rows as the world keeps them (messages by messageId, transactions by transactionKey; their dates checked), a row read back from JSON answers as the world: a resent transaction is duplicate', () => {
    const { s } = withInvoices(1)
    const n = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }])])
    const done = receiveCamt054(s.world, n, { at: AT })
    const stored = JSON.parse(JSON.stringify({ camt054Messages: done.changes.camt054Messages, camt054Transactions: done.changes.camt054Transactions })) as http.WorldRows
    const built = worldOf(stored)
    expect(E.isRight(built)).toBe(true)
    const w = (built as E.Right<World>).right
    expect(w.camt054Messages).toStrictEqual(done.world.camt054Messages)
    expect(w.camt054Transactions).toStrictEqual(done.world.camt054Transactions)
    // the same message again, and its transaction in another message: nothing applied
    expect(receiveCamt054(w, n, { at: atOf(101) }).report[0]?.outcome).toBe('duplicate')
    const resent = receiveCamt054(w, notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }])], 'MSG-2'), { at: atOf(101) })
    expect([resent.report[0]?.outcome, resent.changes.camt054Transactions]).toStrictEqual(['duplicate', []])
    // every list optional; a row of the wrong types is refused at its path
    const empty = worldOf({})
    expect(E.isRight(empty) && [empty.right.camt054Messages?.size, empty.right.camt054Transactions?.size]).toStrictEqual([0, 0])
    const path = (rows: unknown): string | undefined => {
      const r = worldOf(rows as never)
      return E.isLeft(r) ? r.left.issues?.[0]?.path : 'built'
    }
    expect(path({ camt054Messages: [{ messageId: 'M' }] })).toBe('camt054Messages.0.at')
    expect(path({ camt054Transactions: [{ transactionKey: 'k', bookingDate: 7 }] })).toBe('camt054Transactions.0.bookingDate')
    expect(path({ camt054Transactions: {} })).toBe('camt054Transactions')
    // the dates the memory expires by are checked: a row that cannot be dated would be forgotten
    expect(path({ camt054Messages: [{ messageId: 'M', at: 'yesterday' }] })).toBe('camt054Messages.0.at')
    expect(path({ camt054Transactions: [{ transactionKey: 'k', bookingDate: '2026-02-30' }] })).toBe('camt054Transactions.0.bookingDate')
    expect(path({ camt054Transactions: [{ transactionKey: 'k', bookingDate: '2026-11-21T00:00:00.000Z' }] })).toBe('camt054Transactions.0.bookingDate')
  })

  it('a world built by hand with Maps of rows is read as one paysplit made (taken over once); the Maps given are not changed', () => {
    const { s } = withInvoices(1)
    const n = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }])], 'MSG-2')
    const key = JSON.stringify([ACCOUNT, 'E-1', 'T-1'])
    const messages = new Map([['MSG-1', { messageId: 'MSG-1', at: AT }]])
    const transactions = new Map([[key, { transactionKey: key, bookingDate: '2026-11-21' }]])
    const byHand: World = { ...s.world, camt054Messages: messages, camt054Transactions: transactions }
    expect(receiveCamt054(byHand, notification([], 'MSG-1'), { at: AT }).world).toBe(byHand)
    const done = receiveCamt054(byHand, n, { at: AT })
    expect([done.report[0]?.outcome, done.changes.camt054Transactions]).toStrictEqual(['duplicate', []])
    expect([...(done.world.camt054Messages?.keys() ?? [])].sort()).toStrictEqual(['MSG-1', 'MSG-2'])
    expect([messages.size, transactions.size]).toStrictEqual([1, 1])
  })

  it('all empty exactly when the world did not change: the same message again, a context that is not valid; an empty notification applied writes its message', () => {
    const { s } = withInvoices(1)
    const empty = { payments: [], customers: [], references: [], idempotencyKeys: [], ocrTransmissions: [], camt054Messages: [], camt054Transactions: [] }
    const n = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }])])
    const bad = receiveCamt054(s.world, n, { at: 'yesterday' })
    expect([bad.world, bad.changes]).toStrictEqual([s.world, empty])
    const once = receiveCamt054(s.world, n, { at: AT })
    const again = receiveCamt054(once.world, n, { at: atOf(101) })
    expect(again.world).toBe(once.world)
    expect(again.changes).toStrictEqual(empty)
    const nothing = receiveCamt054(emptyWorld, notification([], 'MSG-0'), { at: AT })
    expect(nothing.world).not.toBe(emptyWorld)
    expect(nothing.changes).toStrictEqual({ ...empty, camt054Messages: [{ messageId: 'MSG-0', at: AT }] })
  })

  it('paysplit/http offers receiveCamt054, camt054Keys, camt054TransactionKey and CAMT054_MEMORY_DAYS too: the very functions of paysplit/camt054', () => {
    expect(http.receiveCamt054).toBe(camt054.receiveCamt054)
    expect(http.camt054Keys).toBe(camt054.camt054Keys)
    expect(http.camt054TransactionKey).toBe(camt054.camt054TransactionKey)
    expect(http.CAMT054_MEMORY_DAYS).toBe(camt054.CAMT054_MEMORY_DAYS)
  })
})
