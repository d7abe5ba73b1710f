/**
 * Writing camt.054 notifications (docs/rules.md C17): a draft of notifications, entries and
 * transaction details written as a bank writes the document, its sums computed. Pure, no XML
 * package and no fast-check: for tests, benchmarks and a service's own fixtures.
 *
 * @module camt054Writer
 */
import type { Camt054Version } from './camt054Model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One transaction detail (`TxDtls`) of a draft entry. */
export interface Camt054DraftDetail {
  /** `Refs/AcctSvcrRef`, when given. */
  readonly transactionReference?: string
  /** The amount as written: a decimal without sign, e.g. `'150.00'`. */
  readonly amount: string
  /** Its direction (default: the entry's). Version 001.02 cannot write one that differs from its entry's. */
  readonly creditDebit?: 'CRDT' | 'DBIT'
  /** The structured creditor references of type `SCOR` (KIDs), each in a `Strd` of its own. */
  readonly creditorReferences?: ReadonlyArray<string>
}

/** One entry (`Ntry`) of a draft notification. */
export interface Camt054DraftEntry {
  /** `AcctSvcrRef`, when given. */
  readonly accountServicerReference?: string
  /** `NtryRef`, when given. */
  readonly entryReference?: string
  readonly currency: string
  readonly creditDebit: 'CRDT' | 'DBIT'
  /** `RvslInd` true (default false: not written). */
  readonly reversal?: boolean
  /** Default `BOOK`. */
  readonly status?: 'BOOK' | 'PDNG' | 'INFO'
  /** `YYYY-MM-DD`. */
  readonly bookingDate: string
  /** The amount of an entry that lists no details; one that lists details has their sum. */
  readonly amount?: string
  /** Write a batch (`Btch`: the count, total and direction of the details). */
  readonly batch?: boolean
  readonly details: ReadonlyArray<Camt054DraftDetail>
}

/** One account's notification (`Ntfctn`). */
export interface Camt054DraftNotification {
  /** An IBAN (`Acct/Id/IBAN`), or another account number when `iban` is false (`Acct/Id/Othr/Id`). */
  readonly account: string
  readonly iban?: boolean
  /** Write the transaction summary (`TxsSummry`: counts and sums of the entries). */
  readonly summary?: boolean
  readonly entries: ReadonlyArray<Camt054DraftEntry>
}

/** A whole camt.054 document to write. */
export interface Camt054Draft {
  readonly version: Camt054Version
  readonly messageId: string
  /** `GrpHdr/CreDtTm`, e.g. `2026-11-21T10:00:00`. */
  readonly createdAt: string
  readonly notifications: ReadonlyArray<Camt054DraftNotification>
}

// -------------------------------------------------------------------------------------
// decimals
// -------------------------------------------------------------------------------------

/** A decimal string as an integer and its number of decimals. */
const decimal = (s: string): readonly [bigint, number] => {
  const [whole = '0', fraction = ''] = s.split('.')
  return [BigInt(whole + fraction), fraction.length]
}

/** The sum of signed decimal strings, written with as many decimals as the most precise. */
const sumOf = (parts: ReadonlyArray<readonly [string, 1 | -1]>): readonly [string, 1 | -1] => {
  const scale = parts.reduce((m, [s]) => Math.max(m, decimal(s)[1]), 0)
  let total = 0n
  for (const [s, sign] of parts) {
    const [v, d] = decimal(s)
    total += BigInt(sign) * v * 10n ** BigInt(scale - d)
  }
  const negative = total < 0n
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0')
  const text = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
  return [text, negative ? -1 : 1]
}

// -------------------------------------------------------------------------------------
// the writer
// -------------------------------------------------------------------------------------

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const el = (name: string, inner: string): string => `<${name}>${inner}</${name}>`
const amountEl = (name: string, currency: string, amount: string): string => `<${name} Ccy="${escape(currency)}">${escape(amount)}</${name}>`
const sign = (d: 'CRDT' | 'DBIT'): 1 | -1 => (d === 'CRDT' ? 1 : -1)

/** An entry's amount: its details' net sum (in its direction), or its own. */
const entryAmount = (e: Camt054DraftEntry): string => {
  if (e.details.length === 0) return e.amount ?? '0.00'
  const [text] = sumOf(e.details.map((d) => [d.amount, sign(d.creditDebit ?? e.creditDebit)]))
  return text
}

const detailXml = (version: Camt054Version, e: Camt054DraftEntry, d: Camt054DraftDetail): string => {
  const refs = d.transactionReference === undefined ? '' : el('Refs', el('AcctSvcrRef', escape(d.transactionReference)))
  const amount =
    version === 'camt.054.001.02'
      ? el('AmtDtls', el('TxAmt', amountEl('Amt', e.currency, d.amount)))
      : amountEl('Amt', e.currency, d.amount) + el('CdtDbtInd', d.creditDebit ?? e.creditDebit)
  const refsOfKids = (d.creditorReferences ?? [])
    .map((r) => el('Strd', el('CdtrRefInf', el('Tp', el('CdOrPrtry', el('Cd', 'SCOR'))) + el('Ref', escape(r)))))
    .join('')
  return el('TxDtls', refs + amount + (refsOfKids === '' ? '' : el('RmtInf', refsOfKids)))
}

const entryXml = (version: Camt054Version, e: Camt054DraftEntry): string => {
  const amount = entryAmount(e)
  const status = e.status ?? 'BOOK'
  const batch = e.batch === true ? el('Btch', el('NbOfTxs', String(e.details.length)) + amountEl('TtlAmt', e.currency, amount) + el('CdtDbtInd', e.creditDebit)) : ''
  const details = e.details.map((d) => detailXml(version, e, d)).join('')
  return el(
    'Ntry',
    (e.entryReference === undefined ? '' : el('NtryRef', escape(e.entryReference))) +
      amountEl('Amt', e.currency, amount) +
      el('CdtDbtInd', e.creditDebit) +
      (e.reversal === true ? el('RvslInd', 'true') : '') +
      el('Sts', version === 'camt.054.001.08' ? el('Cd', status) : status) +
      el('BookgDt', el('Dt', e.bookingDate)) +
      el('ValDt', el('Dt', e.bookingDate)) +
      (e.accountServicerReference === undefined ? '' : el('AcctSvcrRef', escape(e.accountServicerReference))) +
      el('BkTxCd', el('Domn', el('Cd', 'PMNT') + el('Fmly', el('Cd', e.creditDebit === 'CRDT' ? 'RCDT' : 'ICDT') + el('SubFmlyCd', 'DMCT')))) +
      (batch === '' && details === '' ? '' : el('NtryDtls', batch + details))
  )
}

const summaryXml = (entries: ReadonlyArray<Camt054DraftEntry>): string => {
  const totals = (of: ReadonlyArray<Camt054DraftEntry>): string =>
    el('NbOfNtries', String(of.length)) + el('Sum', sumOf(of.map((e) => [entryAmount(e), 1])).at(0) as string)
  const credits = entries.filter((e) => e.creditDebit === 'CRDT')
  const debits = entries.filter((e) => e.creditDebit === 'DBIT')
  return el('TxsSummry', el('TtlNtries', totals(entries)) + el('TtlCdtNtries', totals(credits)) + el('TtlDbtNtries', totals(debits)))
}

/**
 * Writes a draft as a camt.054 document of its version, as a bank writes it (docs/rules.md C17):
 * each entry's amount the sum of its details (or its own when it lists none), each batch's count
 * and total, each summary's counts and sums computed; the elements the schema requires (`Ntfctn/Id`,
 * `CreDtTm`, `BkTxCd`) filled in; text escaped. What `parseCamt054` reads of the result is what
 * the draft holds (the kit's `camt054NotificationArb` gives both).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { camt054Xml, parseCamt054 } from 'paysplit/camt054'
 * const xml = camt054Xml({
 *   version: 'camt.054.001.08', messageId: 'MSG-1', createdAt: '2026-11-21T10:00:00',
 *   notifications: [{ account: 'NO9386011117947', entries: [{
 *     accountServicerReference: 'E-1', currency: 'NOK', creditDebit: 'CRDT', bookingDate: '2026-11-21', batch: true,
 *     details: [{ transactionReference: 'T-1', amount: '100.00', creditorReferences: ['12345674'] }, { transactionReference: 'T-2', amount: '0.50' }]
 *   }] }]
 * })
 * assert.ok(xml.includes('<Amt Ccy="NOK">100.50</Amt>'))
 * const read = parseCamt054(xml)
 * assert.ok(E.isRight(read))
 * assert.deepStrictEqual(read.right.transactions.map((t) => [t.kid, t.amount]), [['12345674', 10000], [undefined, 50]])
 */
export const camt054Xml = (draft: Camt054Draft): string => {
  const { version } = draft
  const notifications = draft.notifications
    .map((n, i) =>
      el(
        'Ntfctn',
        el('Id', `${escape(draft.messageId)}-${String(i + 1)}`) +
          (version === 'camt.054.001.08' ? '' : el('CreDtTm', escape(draft.createdAt))) +
          el('Acct', el('Id', n.iban === false ? el('Othr', el('Id', escape(n.account))) : el('IBAN', escape(n.account)))) +
          (n.summary === true ? summaryXml(n.entries) : '') +
          n.entries.map((e) => entryXml(version, e)).join('')
      )
    )
    .join('')
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${version}">` +
    el('BkToCstmrDbtCdtNtfctn', el('GrpHdr', el('MsgId', escape(draft.messageId)) + el('CreDtTm', escape(draft.createdAt))) + notifications) +
    '</Document>\n'
  )
}
