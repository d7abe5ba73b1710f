/**
 * C17: receiveCamt054 applies a notification as receiveOcrGiro applies an OCR giro file — a
 * report row per transaction, matched, unmatched, refused (with the reason) or duplicate — once
 * per message, each transaction once, remembering both for a bounded time.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { getPayment, type World } from '../../src/http.js'
import {
  CAMT054_MEMORY_DAYS,
  camt054TransactionKey,
  camt054Xml,
  parseCamt054,
  receiveCamt054,
  type Camt054Draft,
  type Camt054DraftEntry,
  type Camt054Notification,
  type Camt054ReportRow
} from '../../src/camt054.js'
import { kidOf, paidOf, withInvoices } from '../support/bank.fixtures.js'
import { CATCH_ALL, atOf } from '../support/http.fixtures.js'

const read = (draft: Camt054Draft): Camt054Notification => {
  const r = parseCamt054(camt054Xml(draft))
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left))
  return r.right
}

const notification = (entries: ReadonlyArray<Camt054DraftEntry>, messageId = 'MSG-1', account = 'NO9386011117947'): Camt054Notification =>
  read({ version: 'camt.054.001.08', messageId, createdAt: '2026-11-21T10:00:00', notifications: [{ account, entries }] })

/** A booked NOK credit entry of one detail per KID/amount. */
const credit = (ref: string, details: ReadonlyArray<{ kid?: string; amount: string; ref?: string; debit?: boolean }>, more: Partial<Camt054DraftEntry> = {}): Camt054DraftEntry => ({
  accountServicerReference: ref,
  currency: 'NOK',
  creditDebit: 'CRDT',
  bookingDate: '2026-11-21',
  details: details.map((d) => ({
    amount: d.amount,
    ...(d.ref !== undefined ? { transactionReference: d.ref } : {}),
    ...(d.kid !== undefined ? { creditorReferences: [d.kid] } : {}),
    ...(d.debit === true ? { creditDebit: 'DBIT' as const } : {})
  })),
  ...more
})

const ruleOf = (r: Camt054ReportRow | undefined): unknown => (r?.outcome === 'refused' ? (r.error.issues?.[0]?.params?.['rule'] ?? r.error.code) : undefined)
const AT = atOf(100)

describe('C17: receiveCamt054', () => {
  it('C17 a report row per transaction, in document order: matched, unmatched (unknown KID, no KID), refused with the reason, and a second transfer to a settled invoice unmatched', () => {
    const { s, ids } = withInvoices(2)
    const n = notification([
      credit('E-1', [{ kid: kidOf(1), amount: '100.00', ref: 'T-1' }, { kid: kidOf(9), amount: '5.00', ref: 'T-2' }, { amount: '7.00', ref: 'T-3' }]),
      credit('E-2', [{ kid: kidOf(2), amount: '40.00' }, { kid: kidOf(2), amount: '10.00', debit: true }]),
      credit('E-3', [{ kid: kidOf(2), amount: '60.00' }], { reversal: true }),
      credit('E-4', [{ kid: kidOf(2), amount: '60.00' }], { currency: 'EUR' }),
      credit('E-5', [{ kid: kidOf(2), amount: '60.005' }]),
      credit('E-6', [{ kid: '12345678', amount: '1.00' }]),
      credit('E-7', [{ kid: kidOf(1), amount: '100.00' }]),
      credit('E-8', [{ kid: kidOf(2), amount: '60.00' }])
    ])
    const { world, report, deliveries, events } = receiveCamt054(s.world, n, { at: AT, catchAllUrl: CATCH_ALL })
    expect(report.map((r) => [r.transactionNumber, r.kid, r.amount, r.outcome, r.outcome === 'matched' ? r.paymentReferenceID : ruleOf(r)])).toStrictEqual([
      [1, kidOf(1), 10000, 'matched', ids[0]],
      [2, kidOf(9), 500, 'unmatched', undefined],
      [3, '', 700, 'unmatched', undefined],
      [4, kidOf(2), 4000, 'matched', ids[1]],
      [5, kidOf(2), -1000, 'refused', 'negative-amount'],
      [6, kidOf(2), 6000, 'refused', 'reversal'],
      [7, kidOf(2), 0, 'refused', 'currency'],
      [8, kidOf(2), 0, 'refused', 'decimals'],
      [9, '12345678', 100, 'refused', 'ValidationFailed'],
      [10, kidOf(1), 10000, 'unmatched', undefined],
      [11, kidOf(2), 6000, 'matched', ids[1]]
    ])
    const kidIssue = report[8]?.outcome === 'refused' ? report[8].error.issues?.[0]?.path : undefined
    expect(kidIssue).toBe('kid')
    expect([paidOf(world, ids[0]!), paidOf(world, ids[1]!)]).toStrictEqual([['Charged', 10000], ['Charged', 10000]])
    expect(deliveries.map((d) => d.eventType)).toStrictEqual(['Charged', 'Charged'])
    expect(events.map((e) => e.type)).toStrictEqual(['InvoiceTransferReceived', 'PaymentCharged', 'InvoiceTransferReceived', 'InvoiceTransferReceived', 'PaymentCharged'])
  })

  it('C17 refused as read: several creditor references, a batch without its details, no entry reference to recognise it by', () => {
    const { s } = withInvoices(1)
    const several = read({
      version: 'camt.054.001.04', messageId: 'MSG-1', createdAt: '2026-11-21T10:00:00',
      notifications: [{ account: 'NO9386011117947', entries: [
        { ...credit('E-1', []), details: [{ amount: '10.00', creditorReferences: [kidOf(1), kidOf(2)] }] },
        { ...credit('E-2', []), amount: '10.00', batch: true },
        { ...credit('E-3', [{ kid: kidOf(1), amount: '10.00' }]), accountServicerReference: undefined }
      ] }]
    })
    const { report } = receiveCamt054(s.world, several, { at: AT })
    expect(report.map(ruleOf)).toStrictEqual(['creditor-references', 'batch-without-details', 'reference'])
  })

  it('C17 a notification applies once, by its messageId: again, it changes nothing and reports every row duplicate', () => {
    const { s } = withInvoices(1)
    const n = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00' }])])
    const { world: w1, report: r1 } = receiveCamt054(s.world, n, { at: AT })
    expect(r1[0]?.outcome).toBe('matched')
    const { world: w2, report: r2, deliveries: d2, events: e2, changes } = receiveCamt054(w1, n, { at: atOf(101) })
    expect(w2).toBe(w1)
    expect([r2, d2, e2]).toStrictEqual([[{ transactionNumber: 1, kid: kidOf(1), amount: 4000, outcome: 'duplicate' }], [], []])
    expect([changes.payments, changes.camt054Messages, changes.camt054Transactions]).toStrictEqual([[], [], []])
    expect([...(w1.camt054Messages ?? new Map())]).toStrictEqual([['MSG-1', { messageId: 'MSG-1', at: AT }]])
  })

  it('C17 a transaction a bank sends again in another notification (same account, entry and transaction reference) is duplicate; another account\'s or another reference\'s is not', () => {
    const { s, ids } = withInvoices(1)
    const first = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }, { kid: kidOf(1), amount: '10.00' }])], 'MSG-1')
    const { world: w1 } = receiveCamt054(s.world, first, { at: AT })
    // the intraday notification's entry again in the end-of-day one, with a new transaction beside it
    const again = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }, { kid: kidOf(1), amount: '10.00' }]), credit('E-2', [{ kid: kidOf(1), amount: '5.00', ref: 'T-1' }])], 'MSG-2')
    const { world: w2, report: r2 } = receiveCamt054(w1, again, { at: atOf(200) })
    expect(r2.map((r) => r.outcome)).toStrictEqual(['duplicate', 'duplicate', 'matched'])
    const other = notification([credit('E-1', [{ kid: kidOf(1), amount: '1.00', ref: 'T-1' }])], 'MSG-3', 'NO0000000000018')
    const { world: w3, report: r3 } = receiveCamt054(w2, other, { at: atOf(300) })
    expect(r3.map((r) => r.outcome)).toStrictEqual(['matched'])
    const p = getPayment(w3, ids[0]!)
    expect(p._tag === 'Some' && p.value.paidAmount).toBe(5600)
    expect(w3.camt054Transactions?.has(camt054TransactionKey({ account: 'NO9386011117947', entryReference: 'E-1', transactionReference: 'T-1', detailNumber: 1 }))).toBe(true)
    // within one notification, the same transaction twice: the second is a duplicate
    const twice = notification([credit('E-9', [{ kid: kidOf(1), amount: '1.00', ref: 'T-9' }, { kid: kidOf(1), amount: '1.00', ref: 'T-9' }])], 'MSG-4')
    expect(receiveCamt054(w3, twice, { at: atOf(400) }).report.map((r) => r.outcome)).toStrictEqual(['matched', 'duplicate'])
  })

  it('C17 what a world remembers is bounded: messages and transactions are forgotten 400 days on, and a transaction booked before that is refused, never applied twice', () => {
    const { s } = withInvoices(1)
    const n = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }])], 'MSG-1')
    const { world: w1 } = receiveCamt054(s.world, n, { at: AT })
    const later = new Date(Date.parse(AT) + (CAMT054_MEMORY_DAYS + 1) * 86_400_000).toISOString()
    // the same notification 401 days later: forgotten, but booked too long ago to be applied again
    const { world: w2, report: r2, deliveries: d2 } = receiveCamt054(w1, n, { at: later })
    expect([r2.map(ruleOf), d2]).toStrictEqual([['too-old'], []])
    expect(w2.payments).toBe(w1.payments)
    expect([...(w2.camt054Messages?.keys() ?? [])]).toStrictEqual(['MSG-1'])
    expect(w2.camt054Transactions?.size).toBe(0)
    // a day before the bound, it is still remembered
    const within = new Date(Date.parse(AT) + (CAMT054_MEMORY_DAYS - 1) * 86_400_000).toISOString()
    const resent = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }])], 'MSG-2')
    expect(receiveCamt054(w1, resent, { at: within }).report.map((r) => r.outcome)).toStrictEqual(['duplicate'])
  })

  it('C17 a context that is not valid refuses every row with InvalidContext and remembers nothing', () => {
    const { s } = withInvoices(1)
    const n = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00' }])])
    const { world: w, report, changes } = receiveCamt054(s.world, n, { at: 'yesterday' })
    expect(w).toBe(s.world)
    expect(report[0]?.outcome === 'refused' && report[0].error.code).toBe('InvalidContext')
    expect(changes.camt054Messages).toStrictEqual([])
    expect(receiveCamt054(w, n, { at: AT }).report[0]?.outcome).toBe('matched')
  })

  it('C17 the world given is not changed; a polluted prototype adds no message or transaction seen', () => {
    const { s } = withInvoices(1)
    // a world without memories of its own: only the prototype's could be read
    const before: World = { payments: s.world.payments, customers: s.world.customers, references: s.world.references }
    const n = notification([credit('E-1', [{ kid: kidOf(1), amount: '40.00', ref: 'T-1' }])])
    const proto = Object.prototype as Record<string, unknown>
    proto['camt054Messages'] = new Map([['MSG-1', { messageId: 'MSG-1', at: AT }]])
    proto['camt054Transactions'] = new Map([[camt054TransactionKey(n.transactions[0]!), { transactionKey: camt054TransactionKey(n.transactions[0]!), bookingDate: '2026-11-21' }]])
    try {
      expect(receiveCamt054(before, n, { at: AT }).report[0]?.outcome).toBe('matched')
    } finally {
      delete proto['camt054Messages']
      delete proto['camt054Transactions']
    }
    expect(Object.keys(before)).toStrictEqual(['payments', 'customers', 'references'])
  })
})
