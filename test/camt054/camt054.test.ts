/**
 * C17: camt.054 notifications. parseCamt054 reads public sample files of versions 001.02, 001.04
 * and 001.08 and refuses a broken document whole, naming the element path and the rule; one test
 * per rule. receiveCamt054 (its own file: camt054.receive.test.ts) applies what it reads.
 */
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { PaymentError } from '../../src/index.js'
import { camt054Xml, parseCamt054, type Camt054Draft, type Camt054DraftEntry, type Camt054Notification, type Camt054Version } from '../../src/camt054.js'

const sample = (name: string): string => readFileSync(new URL(`../camt054-samples/${name}`, import.meta.url), 'utf8')

const read = (xml: string): Camt054Notification => {
  const r = parseCamt054(xml)
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left))
  return r.right
}

const refusal = (xml: string): PaymentError => {
  const r = parseCamt054(xml)
  if (E.isRight(r)) throw new Error('read a broken document')
  return r.left
}

/** [path, rule] of every issue. */
const rules = (xml: string): Array<[string, unknown]> => (refusal(xml).issues ?? []).map((i) => [i.path, i.params?.['rule']])

const NTRY = '/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry'

/** A document of `version` around the given entries (XML), one notification. */
const doc = (entries: string, version: Camt054Version = 'camt.054.001.08', head = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${version}"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2026-11-21T10:00:00</CreDtTm></GrpHdr>
<Ntfctn><Id>N-1</Id><Acct><Id><IBAN>NO9386011117947</IBAN></Id></Acct>${head}${entries}</Ntfctn>
</BkToCstmrDbtCdtNtfctn></Document>`

const sts = (version: Camt054Version, code = 'BOOK'): string => (version === 'camt.054.001.08' ? `<Sts><Cd>${code}</Cd></Sts>` : `<Sts>${code}</Sts>`)
const scor = (ref: string): string => `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>${ref}</Ref></CdtrRefInf></Strd>`
/** An entry of version 08: `amount`, `details` (XML), booked credit unless told. */
const entry = (amount: string, details = '', o: { ind?: string; rvsl?: string; status?: string; ccy?: string; ref?: string } = {}): string =>
  `<Ntry><Amt Ccy="${o.ccy ?? 'NOK'}">${amount}</Amt><CdtDbtInd>${o.ind ?? 'CRDT'}</CdtDbtInd>${o.rvsl === undefined ? '' : `<RvslInd>${o.rvsl}</RvslInd>`}` +
  `${sts('camt.054.001.08', o.status)}<BookgDt><Dt>2026-11-21</Dt></BookgDt><AcctSvcrRef>${o.ref ?? 'E-1'}</AcctSvcrRef>` +
  `${details === '' ? '' : `<NtryDtls>${details}</NtryDtls>`}</Ntry>`
const tx = (amount: string, kids: ReadonlyArray<string> = [], o: { ind?: string; ref?: string; ccy?: string } = {}): string =>
  `<TxDtls>${o.ref === undefined ? '' : `<Refs><AcctSvcrRef>${o.ref}</AcctSvcrRef></Refs>`}<Amt Ccy="${o.ccy ?? 'NOK'}">${amount}</Amt><CdtDbtInd>${o.ind ?? 'CRDT'}</CdtDbtInd>` +
  `${kids.length === 0 ? '' : `<RmtInf>${kids.map(scor).join('')}</RmtInf>`}</TxDtls>`

/** A draft of one notification of the given entries (the kit's writer writes it). */
const draft = (entries: ReadonlyArray<Camt054DraftEntry>, version: Camt054Version = 'camt.054.001.08', summary = false): Camt054Draft => ({
  version,
  messageId: 'MSG-1',
  createdAt: '2026-11-21T10:00:00',
  notifications: [{ account: 'NO9386011117947', summary, entries }]
})
const credit = (details: Camt054DraftEntry['details'], more: Partial<Camt054DraftEntry> = {}): Camt054DraftEntry => ({
  accountServicerReference: 'E-1', currency: 'NOK', creditDebit: 'CRDT', bookingDate: '2026-11-21', details, ...more
})

// -------------------------------------------------------------------------------------
// public sample files
// -------------------------------------------------------------------------------------

describe('C17: parseCamt054 reads public sample files of versions 001.02, 001.04 and 001.08', () => {
  it('genkgo/camt\'s notifications of 001.02, 001.04 and 001.08: debit entries only, so no transaction (debits are never applied)', () => {
    for (const [file, version] of [['genkgo-camt054.v2.xml', 'camt.054.001.02'], ['genkgo-camt054.v4.xml', 'camt.054.001.04'], ['genkgo-camt054.v8.xml', 'camt.054.001.08']] as const) {
      expect(read(sample(file))).toStrictEqual({ messageId: 'AAAASESS-FP-ACCR001', createdAt: '2007-10-18T12:30:00+01:00', version, transactions: [] })
    }
  })

  it('the Finnish banks\' guideline sample (001.02): three booked credit batches split into six transactions from AmtDtls/TxAmt, the summary\'s count and sum held, debits and an INFO reversal skipped, EUR refused', () => {
    const n = read(sample('fffs-camt054.v2-fi-sample.xml'))
    expect([n.messageId, n.version]).toStrictEqual(['BANKFILEID219073', 'camt.054.001.02'])
    expect(n.transactions.map((t) => [t.entryReference, t.transactionReference, t.decimalAmount, t.kid, t.creditorReferences.length, t.currency, t.refusal])).toStrictEqual([
      ['091029ACCTSTMTARCH04', 'D091029N987654321S001', '1900.00', undefined, 2, 'EUR', 'currency'],
      ['091029ACCTSTMTARCH04', 'D091029N987654321S002', '100.00', '43216', 1, 'EUR', 'currency'],
      ['091029ACCTSTMTARCH21', 'D091029N987654321S211', '400.00', '3900', 1, 'EUR', 'currency'],
      ['091029ACCTSTMTARCH21', 'D091029N987654321S212', '100.00', '43216', 1, 'EUR', 'currency'],
      ['091029ACCTSTMTARCH05', 'D091029N123456789S001', '2500.00', undefined, 2, 'EUR', 'currency'],
      ['091029ACCTSTMTARCH05', 'D091029N123456789S002', '500.00', undefined, 0, 'EUR', 'currency']
    ])
    expect(n.transactions[0]).toMatchObject({ transactionNumber: 1, account: 'FI7433010001222090', bookingDate: '2009-10-29', detailNumber: 1, amount: 0, reversal: false })
    expect(n.transactions[0]?.path).toBe(`${NTRY}[1]/NtryDtls[1]/TxDtls[1]`)
    // its summary: six entries of 10,830.05 EUR; one edited, the document is refused there
    expect(rules(sample('fffs-camt054.v2-fi-sample.xml').replace('<Sum>10830.05</Sum>', '<Sum>10830.06</Sum>'))).toStrictEqual([
      ['/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/TxsSummry/TtlNtries/Sum', 'summary-sum']
    ])
  })

  it('PostFinance\'s notifications (001.04): a credit, a batch of five ESR credits summing to its entry, a booked reversal', () => {
    const credit = read(sample('postfinance-camt054.v4-credit.xml'))
    expect(credit.transactions.map((t) => [t.entryReference, t.transactionReference, t.decimalAmount, t.currency, t.refusal])).toStrictEqual([
      ['074820002ZZ9J42U', '074820002ZZ9J42U', '1500.00', 'CHF', 'currency']
    ])
    const batch = read(sample('postfinance-camt054.v4-esr-batch.xml'))
    expect(batch.transactions.map((t) => t.decimalAmount)).toStrictEqual(['250.00', '200.00', '300.00', '324.00', '463.00'])
    // ESR references are proprietary ("ISR Reference"), not SCOR: no KID
    expect(batch.transactions.every((t) => t.kid === undefined && t.creditorReferences.length === 0)).toBe(true)
    expect(rules(sample('postfinance-camt054.v4-esr-batch.xml').replace('<Amt Ccy="CHF">463.00</Amt>', '<Amt Ccy="CHF">463.50</Amt>'))).toStrictEqual([[`${NTRY}[1]/Amt`, 'entry-sum']])
    const returns = read(sample('postfinance-camt054.v4-returns.xml'))
    expect(returns.transactions.map((t) => [t.reversal, t.decimalAmount, t.bookingDate])).toStrictEqual([[true, '500.00', '2020-11-24']])
  })
})

// -------------------------------------------------------------------------------------
// the rules, one each
// -------------------------------------------------------------------------------------

describe('C17: a document is refused whole, naming the element path and the rule', () => {
  it('C17 not well-formed: refused at its line with rule well-formed, nothing of it quoted', () => {
    const broken = doc(entry('10.00')).replace('</Ntfctn>', '</Ntfctn-secret>')
    const e = refusal(broken)
    expect(e.issues?.map((i) => [i.path, i.params?.['rule']])).toStrictEqual([['line.4', 'well-formed']])
    expect(JSON.stringify(e)).not.toContain('secret')
    for (const xml of ['', 'not xml', '<Document', doc(entry('10.00')) + '<Document/>', doc(entry('1 & 2'))]) {
      expect(rules(xml)[0]?.[1]).toBe('well-formed')
    }
  })

  it('C17 no DTD: a DOCTYPE is refused (rule doctype), so no entity it declares, internal or external, is ever expanded', () => {
    const internal = `<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY x "1000.00">]>${doc(entry('&x;')).replace(/^<\?xml[^>]*>/, '')}`
    const external = `<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>${doc(entry('10.00', tx('10.00', ['&x;']))).replace(/^<\?xml[^>]*>/, '')}`
    expect(rules(internal)).toStrictEqual([['line.1', 'doctype']])
    expect(rules(external)).toStrictEqual([['line.1', 'doctype']])
  })

  it('C17 bounded: a document past 128 Mi characters or 64 elements deep is refused (size, depth)', () => {
    const deep = '<AddtlInf>'.repeat(70) + '</AddtlInf>'.repeat(70)
    expect(rules(doc(entry('10.00'), 'camt.054.001.08', deep))[0]?.[1]).toBe('depth')
    expect(rules(' '.repeat(134_217_729))).toStrictEqual([['', 'size']])
  })

  it('C17 not camt.054: another message or version is refused saying which; a root without the ISO namespace is refused', () => {
    const of = (xml: string): unknown => refusal(xml).issues?.map((i) => [i.path, i.params?.['rule'], i.params?.['found']])
    expect(of('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt/></Document>')).toStrictEqual([['/', 'message', 'camt.053.001.02']])
    expect(of('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.06"/>')).toStrictEqual([['/', 'version', 'camt.054.001.06']])
    expect(of('<Document><BkToCstmrDbtCdtNtfctn/></Document>')).toStrictEqual([['/', 'message', undefined]])
    expect(of('<Notification xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"/>')).toStrictEqual([['/', 'message', undefined]])
  })

  it('C17 the elements read must be there (required), once (repeated), of their schema length (length), code (code) and date (date)', () => {
    expect(rules(doc(entry('10.00')).replace('<MsgId>MSG-1</MsgId>', ''))).toStrictEqual([['/Document/BkToCstmrDbtCdtNtfctn/GrpHdr/MsgId', 'required']])
    expect(rules(doc(entry('10.00')).replace('<IBAN>NO9386011117947</IBAN>', ''))).toStrictEqual([['/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Acct/Id', 'required']])
    expect(rules(doc(entry('10.00').replace('<BookgDt><Dt>2026-11-21</Dt></BookgDt>', '')))).toStrictEqual([[`${NTRY}[1]/BookgDt`, 'required']])
    expect(rules(doc(entry('10.00').replace('<CdtDbtInd>CRDT</CdtDbtInd>', '<CdtDbtInd>CRDT</CdtDbtInd><CdtDbtInd>CRDT</CdtDbtInd>')))).toStrictEqual([[`${NTRY}[1]/CdtDbtInd`, 'repeated']])
    expect(rules(doc(entry('10.00', '', { ref: 'R'.repeat(36) })))).toStrictEqual([[`${NTRY}[1]/AcctSvcrRef`, 'length']])
    expect(rules(doc(entry('10.00', '', { ind: 'CRED' })))).toStrictEqual([[`${NTRY}[1]/CdtDbtInd`, 'code']])
    expect(rules(doc(entry('10.00', '', { rvsl: 'yes' })))).toStrictEqual([[`${NTRY}[1]/RvslInd`, 'code']])
    expect(rules(doc(`<Ntry><Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>${sts('camt.054.001.02', 'DONE')}<BookgDt><Dt>2026-11-21</Dt></BookgDt></Ntry>`, 'camt.054.001.02'))).toStrictEqual([[`${NTRY}[1]/Sts`, 'code']])
    expect(rules(doc(entry('10.00').replace('2026-11-21', '2026-02-30')))).toStrictEqual([[`${NTRY}[1]/BookgDt/Dt`, 'date']])
    expect(rules(doc(entry('10.00')).replace('2026-11-21T10:00:00', 'yesterday'))).toStrictEqual([['/Document/BkToCstmrDbtCdtNtfctn/GrpHdr/CreDtTm', 'date']])
  })

  it('C17 an amount is a decimal with a currency: another form refuses the document (amount, currency)', () => {
    for (const bad of ['1,50', '-1.00', '1e3', '+1', '.5', '1.', '']) expect(rules(doc(entry(bad)))).toStrictEqual([[`${NTRY}[1]/Amt`, 'amount']])
    expect(rules(doc(entry('1.00', '', { ccy: 'nok' })))).toStrictEqual([[`${NTRY}[1]/Amt/@Ccy`, 'currency']])
  })

  it('C17 errors are bounded and quote nothing of the document: 100 issues and a count of the rest', () => {
    const e = refusal(doc(Array.from({ length: 300 }, () => entry('secret')).join('')))
    expect(e.issues).toHaveLength(101)
    expect(e.issues?.[100]?.reason).toBe('too_many_issues')
    expect(JSON.stringify(e)).not.toContain('secret')
    expect(e.issues?.[0]?.message).toBe('Must be a valid camt.054 document.')
  })

  it('a document that is no string is a type issue', () => {
    expect(E.isLeft(parseCamt054(42 as unknown as string))).toBe(true)
  })
})

describe('C17: what a notification holds', () => {
  it('C17 booked credit entries only: debit entries and entries not booked are skipped; a booked reversal of either direction is read, reversal true', () => {
    const n = read(
      doc(
        entry('1.00', '', { ref: 'credit' }) +
          entry('2.00', '', { ref: 'debit', ind: 'DBIT' }) +
          entry('3.00', '', { ref: 'pending', status: 'PDNG' }) +
          entry('4.00', '', { ref: 'credit-reversed', ind: 'DBIT', rvsl: 'true' }) +
          entry('5.00', '', { ref: 'debit-reversed', rvsl: 'true' }) +
          entry('6.00', '', { ref: 'not-reversed', rvsl: 'false' })
      )
    )
    expect(n.transactions.map((t) => [t.entryReference, t.amount, t.reversal])).toStrictEqual([
      ['credit', 100, false],
      ['credit-reversed', -400, true],
      ['debit-reversed', 500, true],
      ['not-reversed', 600, false]
    ])
    // a debit entry is checked no further than its amount, direction and status: its details are not read
    const oddDetail = `<TxDtls><Refs><AcctSvcrRef>${'R'.repeat(40)}</AcctSvcrRef></Refs><Amt Ccy="NOK">1,00</Amt><CdtDbtInd>X</CdtDbtInd></TxDtls>`
    expect(read(doc(entry('2.00', oddDetail, { ref: 'debit', ind: 'DBIT' }))).transactions).toStrictEqual([])
    expect(rules(doc(entry('2.00', oddDetail, { ref: 'credit' })))).toStrictEqual([
      [`${NTRY}[1]/NtryDtls[1]/TxDtls[1]/Amt`, 'amount'],
      [`${NTRY}[1]/NtryDtls[1]/TxDtls[1]/CdtDbtInd`, 'code'],
      [`${NTRY}[1]/NtryDtls[1]/TxDtls[1]/Refs/AcctSvcrRef`, 'length']
    ])
  })

  it('C17 the KID is the structured creditor reference of type SCOR; a proprietary type is none; several different ones: no KID, refusal creditor-references', () => {
    const prtry = '<Strd><CdtrRefInf><Tp><CdOrPrtry><Prtry>ISR Reference</Prtry></CdOrPrtry></Tp><Ref>99</Ref></CdtrRefInf></Strd>'
    const n = read(
      doc(
        entry(
          '40.00',
          tx('10.00', ['12345674']) +
            `<TxDtls><Amt Ccy="NOK">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RmtInf><Ustrd>12345674</Ustrd>${prtry}</RmtInf></TxDtls>` +
            tx('10.00', ['12345674', '12345674']) +
            tx('10.00', ['12345674', '55555551'])
        )
      )
    )
    expect(n.transactions.map((t) => [t.kid, t.creditorReferences, t.refusal])).toStrictEqual([
      ['12345674', ['12345674'], undefined],
      [undefined, [], undefined],
      ['12345674', ['12345674', '12345674'], undefined],
      [undefined, ['12345674', '55555551'], 'creditor-references']
    ])
  })

  it('C17 exact øre from the decimal Amt in NOK: another currency, more than two decimals or more than 2^53 − 1 øre is a refusal on that transaction, never a rounding', () => {
    const n = read(
      doc(
        [
          entry('150.5', '', { ref: 'a' }),
          entry('0.10', '', { ref: 'b' }),
          entry('100.000', '', { ref: 'c' }),
          entry('100.001', '', { ref: 'd' }),
          entry('100.00', '', { ref: 'e', ccy: 'EUR' }),
          entry('90071992547409.91', '', { ref: 'f' }),
          entry('90071992547409.92', '', { ref: 'g' }),
          entry('000012.30', '', { ref: 'h' })
        ].join('')
      )
    )
    expect(n.transactions.map((t) => [t.entryReference, t.amount, t.decimalAmount, t.refusal])).toStrictEqual([
      ['a', 15050, '150.5', undefined],
      ['b', 10, '0.10', undefined],
      ['c', 10000, '100.000', undefined],
      ['d', 0, '100.001', 'decimals'],
      ['e', 0, '100.00', 'currency'],
      ['f', Number.MAX_SAFE_INTEGER, '90071992547409.91', undefined],
      ['g', 0, '90071992547409.92', 'amount-range'],
      ['h', 1230, '000012.30', undefined]
    ])
  })

  it('C17 a batch entry is split into its transaction details, their sum checked against the entry\'s amount (entry-sum)', () => {
    const n = read(doc(entry('300.00', tx('100.00', ['12345674'], { ref: 'T-1' }) + tx('200.00', [], { ref: 'T-2' }))))
    expect(n.transactions.map((t) => [t.entryReference, t.transactionReference, t.detailNumber, t.amount])).toStrictEqual([
      ['E-1', 'T-1', 1, 10000],
      ['E-1', 'T-2', 2, 20000]
    ])
    expect(rules(doc(entry('300.01', tx('100.00') + tx('200.00'))))).toStrictEqual([[`${NTRY}[1]/Amt`, 'entry-sum']])
    // a debit detail inside a credit entry counts down (and is money out: a negative amount)
    const netted = read(doc(entry('80.00', tx('100.00') + tx('20.00', [], { ind: 'DBIT' }))))
    expect(netted.transactions.map((t) => t.amount)).toStrictEqual([10000, -2000])
    expect(rules(doc(entry('120.00', tx('100.00') + tx('20.00', [], { ind: 'DBIT' }))))).toStrictEqual([[`${NTRY}[1]/Amt`, 'entry-sum']])
    // a detail in another currency than its entry's cannot be summed
    expect(rules(doc(entry('10.00', tx('10.00', [], { ccy: 'EUR' }))))).toStrictEqual([[`${NTRY}[1]/NtryDtls[1]/TxDtls[1]/Amt/@Ccy`, 'currency']])
  })

  it('C17 a batch (Btch) holds the count (batch-count) and total (batch-sum) of the transactions it lists; one that lists none is one transaction, refused batch-without-details', () => {
    const batch = (nb: string, total: string, details: string): string => `<Btch><NbOfTxs>${nb}</NbOfTxs><TtlAmt Ccy="NOK">${total}</TtlAmt><CdtDbtInd>CRDT</CdtDbtInd></Btch>${details}`
    expect(read(doc(entry('30.00', batch('2', '30.00', tx('10.00') + tx('20.00'))))).transactions).toHaveLength(2)
    expect(rules(doc(entry('30.00', batch('3', '30.00', tx('10.00') + tx('20.00')))))).toStrictEqual([[`${NTRY}[1]/NtryDtls[1]/Btch/NbOfTxs`, 'batch-count']])
    expect(rules(doc(entry('30.00', batch('2', '31.00', tx('10.00') + tx('20.00')))))).toStrictEqual([[`${NTRY}[1]/NtryDtls[1]/Btch/TtlAmt`, 'batch-sum']])
    const lump = read(doc(entry('30.00', batch('2', '30.00', ''))))
    expect(lump.transactions.map((t) => [t.detailNumber, t.amount, t.refusal])).toStrictEqual([[0, 3000, 'batch-without-details']])
    expect(rules(doc(entry('30.00', batch('2', '29.00', ''))))).toStrictEqual([[`${NTRY}[1]/NtryDtls[1]/Btch/TtlAmt`, 'batch-sum']])
  })

  it('C17 a detail\'s amount: TxDtls/Amt, else AmtDtls/TxAmt/Amt (version 001.02), else the entry\'s for a lone detail; several details without amounts cannot be split (transaction-amount)', () => {
    const v2 = (details: string): string =>
      doc(`<Ntry><Amt Ccy="NOK">30.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>${sts('camt.054.001.02')}<BookgDt><DtTm>2026-11-21T23:30:00+01:00</DtTm></BookgDt><NtryRef>R-1</NtryRef><NtryDtls>${details}</NtryDtls></Ntry>`, 'camt.054.001.02')
    const txAmt = (a: string, kid: string): string => `<TxDtls><AmtDtls><TxAmt><Amt Ccy="NOK">${a}</Amt></TxAmt></AmtDtls><RmtInf>${scor(kid)}</RmtInf></TxDtls>`
    const n = read(v2(txAmt('10.00', '12345674') + txAmt('20.00', '55555551')))
    expect(n.transactions.map((t) => [t.entryReference, t.kid, t.amount, t.bookingDate])).toStrictEqual([
      ['R-1', '12345674', 1000, '2026-11-21'],
      ['R-1', '55555551', 2000, '2026-11-21']
    ])
    expect(read(v2(`<TxDtls><RmtInf>${scor('12345674')}</RmtInf></TxDtls>`)).transactions.map((t) => t.amount)).toStrictEqual([3000])
    expect(rules(v2(`<TxDtls/><TxDtls/>`))).toStrictEqual([
      [`${NTRY}[1]/NtryDtls[1]/TxDtls[1]/Amt`, 'transaction-amount'],
      [`${NTRY}[1]/NtryDtls[1]/TxDtls[2]/Amt`, 'transaction-amount']
    ])
  })

  it('C17 the notification\'s summary holds the count (summary-count) and sum (summary-sum) of its entries, of all, of credits, of debits', () => {
    const written = (n: number): string => camt054Xml(draft([credit([], { amount: '10.00' }), credit([], { amount: '5.00', creditDebit: 'DBIT' }), credit([{ amount: '1.00' }, { amount: '2.50' }])].slice(0, n), 'camt.054.001.08', true))
    expect(read(written(3)).transactions).toHaveLength(3)
    const summary = '/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/TxsSummry'
    expect(rules(written(3).replace('<NbOfNtries>3</NbOfNtries>', '<NbOfNtries>4</NbOfNtries>'))).toStrictEqual([[`${summary}/TtlNtries/NbOfNtries`, 'summary-count']])
    expect(rules(written(3).replace('<Sum>18.50</Sum>', '<Sum>18.51</Sum>'))).toStrictEqual([[`${summary}/TtlNtries/Sum`, 'summary-sum']])
    expect(rules(written(3).replace('<TtlDbtNtries><NbOfNtries>1</NbOfNtries><Sum>5.00</Sum>', '<TtlDbtNtries><NbOfNtries>1</NbOfNtries><Sum>5.0001</Sum>'))).toStrictEqual([[`${summary}/TtlDbtNtries/Sum`, 'summary-sum']])
  })

  it('C17 XML as XML: a prefixed namespace reads as the default one, other namespaces\' elements are skipped, CDATA, entities and a byte order mark are text as usual', () => {
    const plain = doc(entry('10.00', tx('10.00', ['12345674'], { ref: 'A&amp;B' })))
    const prefixed = plain
      .replace('<Document xmlns=', '<c:Document xmlns:c=')
      .replace(/<(\/?)(?!c:|\?)([A-Za-z])/g, '<$1c:$2')
      .replace('</Document>', '</c:Document>')
    expect(read(prefixed)).toStrictEqual(read(plain))
    expect(read(plain).transactions[0]?.transactionReference).toBe('A&B')
    const foreign = plain.replace('<Amt Ccy="NOK">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RmtInf>', '<Amt Ccy="NOK">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><x:Amt xmlns:x="urn:other">99.00</x:Amt><RmtInf>')
    expect(read(foreign)).toStrictEqual(read(plain))
    expect(read('\uFEFF' + plain.replace('<Ref>12345674</Ref>', '<Ref><![CDATA[12345674]]></Ref>'))).toStrictEqual(read(plain))
  })

  it('the kit\'s writer: what parseCamt054 reads of a draft of each version is what the draft holds', () => {
    for (const version of ['camt.054.001.02', 'camt.054.001.04', 'camt.054.001.08'] as const) {
      const n = read(camt054Xml(draft([credit([{ transactionReference: 'T-1', amount: '12.34', creditorReferences: ['12345674'] }], { batch: true })], version, true)))
      expect(n.transactions.map((t) => [t.entryReference, t.transactionReference, t.kid, t.amount])).toStrictEqual([['E-1', 'T-1', '12345674', 1234]])
      expect(n.version).toBe(version)
    }
  })
})
