/**
 * C14: OCR giro files. parseOcrGiro reads the specification's sample files and refuses a broken
 * file whole, naming the line and the rule; receiveOcrGiro applies a transmission once, a report
 * row per transaction in file order.
 */
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { kid as kidNumber, type PaymentError } from '../../src/index.js'
import { emptyWorld, getPayment, parseOcrGiro, receiveOcrGiro, type OcrTransmission, type World } from '../../src/http.js'
import { ocrGiroText } from '../../src/http.js'
import { CATCH_ALL, Session, atOf, invoiceRequest } from '../support/http.fixtures.js'
import { paidOf } from '../support/bank.fixtures.js'
import { transmissionOf } from '../support/ocr.fixtures.js'

const sample = (name: string): string => readFileSync(new URL(`../ocr-samples/${name}`, import.meta.url), 'utf8')
const SPEC = sample('specification-sample.txt')
const ITEM3 = sample('with-amount-item-3.txt')
const CREDIT_NOTES = sample('specification-sample-credit-notes.txt')

const read = (text: string): OcrTransmission => {
  const r = parseOcrGiro(text)
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left))
  return r.right
}

const refusal = (text: string): PaymentError => {
  const r = parseOcrGiro(text)
  if (E.isRight(r)) throw new Error('parsed a broken file')
  return r.left
}

/** [path, rule, field] of every issue. */
const rules = (text: string): Array<[string, unknown, unknown]> =>
  (refusal(text).issues ?? []).map((i) => [i.path, i.params?.['rule'], i.params?.['field']])

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '')
const join = (ls: ReadonlyArray<string>): string => ls.join('\n') + '\n'
const edit = (line: string, at: number, s: string): string => line.slice(0, at) + s + line.slice(at + s.length)

describe('C14: parseOcrGiro reads the specification\'s sample files', () => {
  it('the sample of the OCR giro system manual: one assignment of 20 transactions, 51,449.00 NOK', () => {
    const t = read(SPEC)
    expect([t.transmissionNumber, t.dataSender, t.dataRecipient, t.netsDate]).toStrictEqual(['0170031', '00008080', '00010200', '1992-01-20'])
    expect(t.assignments).toHaveLength(1)
    const a = t.assignments[0]!
    expect([a.assignmentNumber, a.agreementId, a.account, a.netsDate]).toStrictEqual(['0000002', '001008566', '99991042764', '1992-01-20'])
    expect(a.transactions.map((x) => x.transactionNumber)).toStrictEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(a.transactions.reduce((s, x) => s + x.amount, 0)).toBe(5_144_900)
    expect(a.transactions[0]).toStrictEqual({
      transactionNumber: 1,
      transactionType: 10,
      kid: '0000531',
      amount: 102000,
      netsDate: '1992-01-20',
      centreId: '13',
      dayCode: 20,
      partialSettlementNumber: 1,
      partialSettlementSerialNumber: '01464',
      cardDrawer: '00',
      formNumber: '9636827194',
      archiveReference: '099038562',
      reserved: '0000000',
      bankDate: '1992-01-16',
      debitAccount: '99990512341',
      line: 3
    })
    // the filler the specification documents as zeros carries digits in its own sample
    expect(a.transactions[1]?.reserved).toBe('1883206')
    // a KID of 14 digits, a transaction of type 11 (standing order)
    expect(a.transactions[7]).toMatchObject({ transactionType: 11, kid: '02212291038306', amount: 150000, line: 17 })
    // a bank date of zeros is no date
    expect(a.transactions[8]?.bankDate).toBeUndefined()
  })

  it('python-netsgiro\'s variant: a purchase with free text (type 21) carries an amount item 3, counted in the end records', () => {
    const t = read(ITEM3)
    const first = t.assignments[0]!.transactions[0]!
    expect([first.transactionType, first.freeText, first.kid, first.line]).toStrictEqual([21, 'Foo bar baz', '0000531', 3])
    expect(t.assignments[0]!.transactions[1]?.line).toBe(6)
    // the same file without its item 3: the counts of the end records no longer hold
    const without = lines(ITEM3).filter((_, i) => i !== 4)
    expect(rules(join(without))).toStrictEqual([
      ['line.5', 'record-order', undefined],
      ['line.43', 'record-count', 'numberOfRecords'],
      ['line.44', 'record-count', 'numberOfRecords']
    ])
  })

  it('the system manual\'s sample with three credit notes: 23 transactions, the end records\' totals their net sum (19,930.00 − 2,150.00 − 2,150.00 = 15,630.00 NOK)', () => {
    const t = read(CREDIT_NOTES)
    const a = t.assignments[0]!
    expect([t.transmissionNumber, t.netsDate, a.assignmentNumber, a.netsDate]).toStrictEqual(['0170031', '2004-03-24', '0000001', '2004-03-24'])
    expect(a.transactions).toHaveLength(23)
    const notes = a.transactions.filter((x) => x.amount < 0)
    expect(notes.map((x) => [x.transactionNumber, x.transactionType, x.kid, x.amount])).toStrictEqual([
      [15, 13, '44000366370078', -25000],
      [16, 13, '44000366980090', -40000],
      [17, 13, '44000007860156', -150000]
    ])
    expect(a.transactions.reduce((sum, x) => sum + x.amount, 0)).toBe(1_563_000)
    expect(a.transactions.reduce((sum, x) => sum + Math.abs(x.amount), 0)).toBe(1_993_000)
  })

  it('writing the samples back gives each file byte for byte (the kit\'s writer)', () => {
    expect(ocrGiroText(read(SPEC))).toBe(SPEC)
    expect(ocrGiroText(read(ITEM3))).toBe(ITEM3)
    // the credit-note sample ends without a final line end
    expect(ocrGiroText(read(CREDIT_NOTES), { finalLineEnd: false })).toBe(CREDIT_NOTES)
  })
})

describe('C14: line ends, blank lines, empty files', () => {
  it('\\r\\n reads as \\n; a final line end is optional', () => {
    expect(read(SPEC.replaceAll('\n', '\r\n'))).toStrictEqual(read(SPEC))
    expect(read(SPEC.slice(0, -1))).toStrictEqual(read(SPEC))
  })

  it('a blank line — two final line ends, one between records — is no record: refused at its line', () => {
    expect(rules(SPEC + '\n')).toStrictEqual([['line.45', 'line-length', undefined]])
    const ls = lines(SPEC)
    expect(rules(join([...ls.slice(0, 10), '', ...ls.slice(10)]))).toContainEqual(['line.11', 'line-length', undefined])
  })

  it('an empty file is refused; a UTF-8 byte order mark before the first record is skipped, anywhere else it breaks its line', () => {
    expect(rules('')).toStrictEqual([['line.1', 'empty', undefined]])
    expect(rules('\uFEFF')).toStrictEqual([['line.1', 'empty', undefined]])
    expect(read('\uFEFF' + SPEC)).toStrictEqual(read(SPEC))
    expect(read('\uFEFF' + CREDIT_NOTES.replaceAll('\n', '\r\n'))).toStrictEqual(read(CREDIT_NOTES))
    expect(rules('\uFEFF\uFEFF' + SPEC)[0]).toStrictEqual(['line.1', 'line-length', undefined])
    const ls = lines(SPEC)
    expect(rules(join([...ls.slice(0, 3), '\uFEFF' + ls[3]!.slice(1), ...ls.slice(4)]))).toContainEqual(['line.4', 'format-code', undefined])
  })
})

describe('C14: a truncated or edited file is refused with the line and the rule', () => {
  const ls = lines(SPEC)

  it('truncated: without its transmission end record, or cut in the middle of a transaction', () => {
    expect(rules(join(ls.slice(0, -1)))).toStrictEqual([['line.44', 'truncated', undefined]])
    expect(rules(join(ls.slice(0, 10)))).toStrictEqual([['line.11', 'truncated', undefined]])
    // a line cut short
    expect(rules(join([...ls.slice(0, 5), ls[5]!.slice(0, 60), ...ls.slice(6)]))).toContainEqual(['line.6', 'line-length', undefined])
  })

  it('a transaction left out: the counts and the total of both end records', () => {
    expect(rules(join([...ls.slice(0, 4), ...ls.slice(6)]))).toStrictEqual([
      ['line.41', 'transaction-count', 'numberOfTransactions'],
      ['line.41', 'record-count', 'numberOfRecords'],
      ['line.41', 'total-amount', 'totalAmount'],
      ['line.42', 'transaction-count', 'numberOfTransactions'],
      ['line.42', 'record-count', 'numberOfRecords'],
      ['line.42', 'total-amount', 'totalAmount']
    ])
  })

  it('an amount edited: the totals of both end records', () => {
    const changed = [...ls]
    changed[2] = edit(ls[2]!, 44, '3')
    expect(rules(join(changed))).toStrictEqual([
      ['line.43', 'total-amount', 'totalAmount'],
      ['line.44', 'total-amount', 'totalAmount']
    ])
  })

  it('every field: digits, dates, the KID, the sign, fillers, codes and types, each at its line', () => {
    const at = (line: number, pos: number, s: string): Array<[string, unknown, unknown]> => {
      const changed = [...ls]
      changed[line - 1] = edit(ls[line - 1]!, pos, s)
      return rules(join(changed))
    }
    expect(at(1, 0, 'NX')).toContainEqual(['line.1', 'format-code', undefined])
    expect(at(1, 2, '09')).toContainEqual(['line.1', 'service-code', undefined])
    expect(at(1, 4, '01')).toContainEqual(['line.1', 'type-code', 'transmissionType'])
    expect(at(1, 20, 'x')).toContainEqual(['line.1', 'digits', 'transmissionNumber'])
    expect(at(1, 79, '1')).toContainEqual(['line.1', 'filler', undefined])
    expect(at(2, 2, '21')).toContainEqual(['line.2', 'service-code', undefined])
    expect(at(2, 4, '24')).toContainEqual(['line.2', 'type-code', 'assignmentType'])
    expect(at(3, 4, '22')).toContainEqual(['line.3', 'type-code', 'transactionType'])
    expect(at(3, 15, '32')).toContainEqual(['line.3', 'date', 'netsDate'])
    expect(at(3, 17, '13')).toContainEqual(['line.3', 'date', 'netsDate'])
    expect(at(3, 23, '32')).toContainEqual(['line.3', 'day-code', 'dayCode'])
    expect(at(3, 31, '+')).toContainEqual(['line.3', 'sign', 'sign'])
    expect(at(3, 60, '1')).toContainEqual(['line.3', 'kid', 'kid'])
    expect(at(3, 70, ' ')).toContainEqual(['line.3', 'kid', 'kid'])
    expect(at(3, 76, '1')).toContainEqual(['line.3', 'filler', undefined])
    expect(at(4, 4, '11')).toContainEqual(['line.4', 'transaction-type', 'transactionType'])
    expect(at(4, 14, '2')).toContainEqual(['line.4', 'transaction-number', 'transactionNumber'])
    expect(at(4, 41, '32')).toContainEqual(['line.4', 'date', 'bankDate'])
    expect(at(5, 14, '1')).toContainEqual(['line.5', 'transaction-number', 'transactionNumber'])
    expect(at(4, 6, '32')).toContainEqual(['line.4', 'record-order', undefined])
    expect(at(4, 6, '49')).toContainEqual(['line.4', 'record-type', undefined])
    expect(at(43, 47, '190192')).toContainEqual(['line.43', 'earliest-date', 'earliestNetsDate'])
    expect(at(43, 53, '210192')).toContainEqual(['line.43', 'latest-date', 'latestNetsDate'])
    expect(at(44, 41, '000000')).toContainEqual(['line.44', 'date', 'netsDate'])
  })

  it('records out of order: a second transmission start, a record after the end', () => {
    expect(rules(join([ls[0]!, ...ls]))).toContainEqual(['line.2', 'record-order', undefined])
    expect(rules(join([...ls, ls[0]!]))).toStrictEqual([['line.45', 'record-order', undefined]])
  })

  it('a credit note (sign -) reads as a negative amount and the totals are net of it: a sign edited alone breaks both totals', () => {
    const changed = [...ls]
    changed[2] = edit(ls[2]!, 31, '-')
    expect(rules(join(changed))).toStrictEqual([
      ['line.43', 'total-amount', 'totalAmount'],
      ['line.44', 'total-amount', 'totalAmount']
    ])
    // the same credit note with totals written net of it reads, its amount negative
    const t = read(SPEC)
    const [first, ...rest] = t.assignments[0]!.transactions
    const netted = ocrGiroText({ ...t, assignments: [{ ...t.assignments[0]!, transactions: [{ ...first!, amount: -first!.amount }, ...rest] }] })
    expect(read(netted).assignments[0]!.transactions[0]!.amount).toBe(-102000)
    // the credit-note sample with its totals added unsigned, as a reader that ignores the sign would want them
    const unsigned = lines(CREDIT_NOTES).map((l) => (l.startsWith('NY0900880') || l.startsWith('NY0000890') ? edit(l, 24, '00000000001993000') : l))
    expect(rules(join(unsigned))).toStrictEqual([
      ['line.49', 'total-amount', 'totalAmount'],
      ['line.50', 'total-amount', 'totalAmount']
    ])
  })

  it('the sign: - on 0 øre, and - on a reversal (types 18 and 20 carry no sign), are refused', () => {
    const zero = lines(ocrGiroText({ ...read(SPEC) }))
    zero[2] = edit(edit(zero[2]!, 31, '-'), 32, '0'.repeat(17))
    expect(rules(join(zero))).toContainEqual(['line.3', 'sign', 'sign'])
    for (const type of [18, 20]) {
      const text = lines(ocrGiroText(transmissionOf([{ kid: '12345674', amount: 100, type }])))
      text[2] = edit(text[2]!, 31, '-')
      expect(rules(join(text))).toContainEqual(['line.3', 'sign', 'sign'])
    }
    // the same reversals unsigned read, and count in the totals as they are
    expect(read(ocrGiroText(transmissionOf([{ kid: '12345674', amount: 100, type: 18 }, { kid: '12345674', amount: 50 }]))).assignments[0]!.transactions.map((x) => x.amount)).toStrictEqual([100, 50])
  })

  it('errors are bounded and quote nothing of the file: 100 issues and a count of the rest', () => {
    const garbage = join(Array.from({ length: 10_000 }, () => 'NY0910300000001' + '7'.repeat(65)))
    const e = refusal(garbage)
    expect(e.issues).toHaveLength(101)
    expect(e.issues?.[100]?.reason).toBe('too_many_issues')
    expect(JSON.stringify(e)).not.toContain('7777')
    expect(e.issues?.[0]?.message).toBe('Must be a valid OCR giro record.')
  })

  it('a text that is no string is a type issue', () => {
    expect(E.isLeft(parseOcrGiro(42 as unknown as string))).toBe(true)
  })
})

// -------------------------------------------------------------------------------------
// receiveOcrGiro
// -------------------------------------------------------------------------------------

const kidOf = (n: number): string => {
  const made = kidNumber.create(String(5000 + n), 'mod10')
  if (E.isLeft(made)) throw new Error('kid')
  return made.right
}

/** A session with open invoices of 10000 øre, KIDs kidOf(1..n). */
const withInvoices = (n: number): { s: Session; ids: string[] } => {
  const s = new Session()
  const ids = Array.from({ length: n }, (_, i) =>
    s.create(invoiceRequest({ externalPaymentReferenceID: `invoice-${i + 1}` }), { kid: kidOf(i + 1) })
  )
  return { s, ids }
}

describe('C14: receiveOcrGiro', () => {
  it('a report row per transaction, in file order: matched, unmatched, refused (zero, credit note, reversal, bad KID), and a second transfer to a settled invoice unmatched', () => {
    const { s, ids } = withInvoices(2)
    // a file read from text, as a bank sends it
    const t = read(
      ocrGiroText(
        transmissionOf([
          { kid: kidOf(1), amount: 10000 },
          { kid: kidOf(9), amount: 500 },
          { kid: kidOf(2), amount: 4000 },
          { kid: kidOf(2), amount: 0 },
          { kid: kidOf(2), amount: -100 },
          { kid: kidOf(2), amount: 100, type: 18 },
          { kid: '12345678', amount: 100 },
          { kid: kidOf(1), amount: 10000 },
          { kid: kidOf(2), amount: 6000, type: 21 }
        ])
      )
    )
    const { world, report, deliveries, events } = receiveOcrGiro(s.world, t, { at: atOf(100), catchAllUrl: CATCH_ALL })
    expect(report.map((r) => [r.transactionNumber, r.outcome, r.outcome === 'matched' ? r.paymentReferenceID : r.outcome === 'refused' ? r.error.issues?.[0]?.path : undefined])).toStrictEqual([
      [1, 'matched', ids[0]],
      [2, 'unmatched', undefined],
      [3, 'matched', ids[1]],
      [4, 'refused', 'amount'],
      [5, 'refused', 'amount'],
      [6, 'refused', 'transactionType'],
      [7, 'refused', 'kid'],
      [8, 'unmatched', undefined],
      [9, 'matched', ids[1]]
    ])
    expect(report[1]).toStrictEqual({ transactionNumber: 2, kid: kidOf(9), amount: 500, outcome: 'unmatched' })
    // a credit note and a reversal are never applied as payments: refused with the reason, for a person to handle
    const reasons = report.map((r) => (r.outcome === 'refused' ? r.error.issues?.[0]?.params?.['rule'] : undefined))
    expect([reasons[4], reasons[5]]).toStrictEqual(['negative-amount', 'reversal'])
    expect([paidOf(world, ids[0]!), paidOf(world, ids[1]!)]).toStrictEqual([['Charged', 10000], ['Charged', 10000]])
    expect(deliveries.map((d) => d.eventType)).toStrictEqual(['Charged', 'Charged'])
    // the events of the three transfers applied, in file order
    expect(events.map((e) => e.type)).toStrictEqual(['InvoiceTransferReceived', 'PaymentCharged', 'InvoiceTransferReceived', 'InvoiceTransferReceived', 'PaymentCharged'])
  })

  it('a transmission applies once: again, it changes nothing and reports every row duplicate; another number applies', () => {
    const { s, ids } = withInvoices(1)
    const t = transmissionOf([{ kid: kidOf(1), amount: 4000 }])
    const { world: w1, report: r1 } = receiveOcrGiro(s.world, t, { at: atOf(100) })
    expect(r1[0]?.outcome).toBe('matched')
    const { world: w2, report: r2, deliveries: d2, events: e2 } = receiveOcrGiro(w1, t, { at: atOf(101) })
    expect(w2).toBe(w1)
    expect([r2, d2, e2]).toStrictEqual([[{ transactionNumber: 1, kid: kidOf(1), amount: 4000, outcome: 'duplicate' }], [], []])
    // the same number from another data sender, or another number: a transmission of its own
    const { world: w3, report: r3 } = receiveOcrGiro(w2, { ...t, transmissionNumber: '0000002' }, { at: atOf(102) })
    expect(r3[0]?.outcome).toBe('matched')
    const { report: r4 } = receiveOcrGiro(w3, { ...t, dataSender: '12341234' }, { at: atOf(103) })
    expect(r4[0]?.outcome).toBe('matched')
    const p = getPayment(w3, ids[0]!)
    expect(p._tag === 'Some' && p.value.paidAmount).toBe(8000)
  })

  it('a context that is not valid refuses every row with InvalidContext and remembers nothing', () => {
    const { s } = withInvoices(1)
    const t = transmissionOf([{ kid: kidOf(1), amount: 4000 }])
    const { world: w, report } = receiveOcrGiro(s.world, t, { at: 'yesterday' })
    expect(w).toBe(s.world)
    expect(report[0]?.outcome === 'refused' && report[0].error.code).toBe('InvalidContext')
    const { report: again } = receiveOcrGiro(w, t, { at: atOf(1) })
    expect(again[0]?.outcome).toBe('matched')
  })

  it('the world given is not changed; a polluted prototype adds no applied transmission', () => {
    const { s } = withInvoices(1)
    // a world without its own ocrTransmissions (one built by hand)
    const before: World = { payments: s.world.payments, customers: s.world.customers, references: s.world.references }
    const t = transmissionOf([{ kid: kidOf(1), amount: 4000 }])
    const proto = Object.prototype as Record<string, unknown>
    proto['ocrTransmissions'] = new Map([['00008080/0000001', { dataSender: '00008080', transmissionNumber: '0000001', at: atOf(0) }]])
    try {
      const { report } = receiveOcrGiro(before, t, { at: atOf(1) })
      expect(report[0]?.outcome).toBe('matched')
    } finally {
      delete proto['ocrTransmissions']
    }
    expect(before.ocrTransmissions).toBeUndefined()
    expect(getPayment(before, s.world.payments.keys().next().value as string)._tag).toBe('Some')
  })

  it('an empty world: every transfer unmatched', () => {
    const { report } = receiveOcrGiro(emptyWorld, read(SPEC), { at: atOf(1) })
    expect(report).toHaveLength(20)
    expect(new Set(report.map((r) => r.outcome))).toStrictEqual(new Set(['unmatched']))
  })
})
