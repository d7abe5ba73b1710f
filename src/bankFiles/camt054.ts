/**
 * Bank notifications (docs/rules.md C17): ISO 20022 camt.054 ("Bank to Customer Debit Credit
 * Notification") documents, read purely with a maintained XML parser (saxes: well-formedness,
 * namespaces, no DTD, docs/decisions.md "camt.054 notifications") and checked whole. Applying
 * the notification one holds: `service/camt054Receive.ts`.
 *
 * @module camt054
 */
import { SaxesParser, type SaxesTagNS } from 'saxes'
import * as E from '../internal/either.js'
import type { Issue, PaymentError } from '../errors.js'
import { issue, MAX_ISSUES, validationError } from '../errors.js'
import { CAMT054_VERSIONS, type Camt054Notification, type Camt054Refusal, type Camt054Rule, type Camt054Transaction, type Camt054Version } from './camt054Model.js'

// -------------------------------------------------------------------------------------
// limits
// -------------------------------------------------------------------------------------

/**
 * The longest document read, in UTF-16 code units (128 Mi, a notification of some 200,000
 * transactions); a longer one is refused before it is parsed (`size`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { CAMT054_MAX_LENGTH, parseCamt054 } from 'paysplit/camt054'
 * const read = parseCamt054(' '.repeat(CAMT054_MAX_LENGTH + 1))
 * assert.ok(E.isLeft(read) && read.left.issues?.[0]?.params?.rule === 'size')
 */
export const CAMT054_MAX_LENGTH = 134_217_728

/**
 * The deepest element nesting read (a camt.054 nests about 15 deep); a deeper document is refused
 * at the line where it goes too deep (`depth`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { CAMT054_MAX_DEPTH, parseCamt054 } from 'paysplit/camt054'
 * const deep = '<a>'.repeat(CAMT054_MAX_DEPTH + 1) + '</a>'.repeat(CAMT054_MAX_DEPTH + 1)
 * const read = parseCamt054(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">${deep}</Document>`)
 * assert.ok(E.isLeft(read) && read.left.issues?.[0]?.params?.rule === 'depth')
 */
export const CAMT054_MAX_DEPTH = 64

// -------------------------------------------------------------------------------------
// the elements read
// -------------------------------------------------------------------------------------

/**
 * An element paysplit reads: its text is kept (`text`), it may repeat (`many`), its `Ccy` is kept
 * (`ccy`); its children, each with its slot (its position among them).
 */
interface Shape {
  readonly text?: true
  readonly many?: true
  readonly ccy?: true
  readonly children?: ReadonlyMap<string, readonly [slot: number, shape: Shape]>
}

const shape = (s: { text?: true; many?: true; ccy?: true }, children?: Record<string, Shape>): Shape => ({
  ...s,
  ...(children !== undefined ? { children: new Map(Object.entries(children).map(([name, c], i) => [name, [i, c] as const])) } : {})
})
const LEAF = shape({ text: true })
const AMOUNT = shape({ text: true, ccy: true })
const TOTALS = shape({}, { NbOfNtries: LEAF, Sum: LEAF })

/** The elements of camt.054 paysplit reads; every other element is skipped unread (well-formedness aside). */
const DOCUMENT: Shape = shape({}, {
  BkToCstmrDbtCdtNtfctn: shape({}, {
    GrpHdr: shape({}, { MsgId: LEAF, CreDtTm: LEAF }),
    Ntfctn: shape({ many: true }, {
      Acct: shape({}, { Id: shape({}, { IBAN: LEAF, Othr: shape({}, { Id: LEAF }) }) }),
      TxsSummry: shape({}, { TtlNtries: TOTALS, TtlCdtNtries: TOTALS, TtlDbtNtries: TOTALS }),
      Ntry: shape({ many: true }, {
        NtryRef: LEAF,
        Amt: AMOUNT,
        CdtDbtInd: LEAF,
        RvslInd: LEAF,
        Sts: shape({ text: true }, { Cd: LEAF, Prtry: LEAF }),
        BookgDt: shape({}, { Dt: LEAF, DtTm: LEAF }),
        AcctSvcrRef: LEAF,
        NtryDtls: shape({ many: true }, {
          Btch: shape({}, { NbOfTxs: LEAF, TtlAmt: AMOUNT, CdtDbtInd: LEAF }),
          TxDtls: shape({ many: true }, {
            Refs: shape({}, { AcctSvcrRef: LEAF }),
            Amt: AMOUNT,
            CdtDbtInd: LEAF,
            AmtDtls: shape({}, { TxAmt: shape({}, { Amt: AMOUNT }) }),
            RmtInf: shape({}, {
              Strd: shape({ many: true }, {
                CdtrRefInf: shape({}, {
                  Tp: shape({}, { CdOrPrtry: shape({}, { Cd: LEAF, Prtry: LEAF }) }),
                  Ref: LEAF
                })
              })
            })
          })
        })
      })
    })
  })
})

/**
 * An element read: its name, its position among its siblings of that name, its text and currency,
 * its children in document order and how many of each slot it has (small arrays, no maps: a
 * notification of 10,000 transactions holds some 120,000 of these).
 */
interface Node {
  readonly name: string
  readonly index: number
  readonly many: boolean
  readonly parent: Node | undefined
  text: string
  ccy: string | undefined
  kids: Node[] | undefined
  counts: number[] | undefined
  /** Its element path, once asked for. */
  path?: string
}

/** The element path of a node, XPath-like: `/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[2]/Amt`. */
const pathOf = (n: Node): string => {
  if (n.path === undefined) n.path = `${n.parent === undefined ? '' : pathOf(n.parent)}/${n.many ? `${n.name}[${String(n.index)}]` : n.name}`
  return n.path
}

const childrenOf = (n: Node, name: string): ReadonlyArray<Node> => n.kids?.filter((k) => k.name === name) ?? []
const childOf = (n: Node | undefined, name: string): Node | undefined => n?.kids?.find((k) => k.name === name)

// -------------------------------------------------------------------------------------
// issues
// -------------------------------------------------------------------------------------

const FORMAT = 'camt.054 document'

interface Collector {
  readonly issues: Issue[] & { more?: number }
}

/** Keeps an issue, or counts it past the first 100. */
const keep = (c: Collector, i: Issue): void => {
  if (c.issues.length >= MAX_ISSUES) c.issues.more = (c.issues.more ?? 0) + 1
  else c.issues.push(i)
}

const report = (c: Collector, path: string, rule: Camt054Rule, extra?: Readonly<Record<string, string | number | ReadonlyArray<string>>>): void => {
  // the issue is built only when it is kept
  if (c.issues.length >= MAX_ISSUES) c.issues.more = (c.issues.more ?? 0) + 1
  else keep(c, issue(path, 'format', { format: FORMAT, rule, ...extra }))
}

// -------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------

const MAX35 = 35

/** The trimmed text of an element (`''` when absent). */
const textOf = (n: Node | undefined): string => (n === undefined ? '' : n.text.trim())

/** A required element: its node, or a `required` issue at the path it would have. */
const required = (c: Collector, parent: Node, name: string): Node | undefined => {
  const n = childOf(parent, name)
  if (n === undefined) report(c, `${pathOf(parent)}/${name}`, 'required')
  return n
}

/** A text of 1–35 characters (ISO 20022 `Max35Text`); `undefined` (and an issue) otherwise. */
const max35 = (c: Collector, n: Node): string | undefined => {
  const t = textOf(n)
  if (t.length === 0 || t.length > MAX35) {
    report(c, pathOf(n), 'length', { min: 1, max: MAX35 })
    return undefined
  }
  return t
}

/** An optional `Max35Text` child. */
const optional35 = (c: Collector, parent: Node | undefined, name: string): string | undefined => {
  const n = childOf(parent, name)
  return n === undefined ? undefined : max35(c, n)
}

/** A decimal as written: digits, an optional fraction. */
interface Decimal {
  readonly text: string
  readonly whole: string
  readonly fraction: string
  /** The value times 10^18, exact. */
  readonly scaled: bigint
}

const DECIMAL = /^([0-9]{1,18})(?:\.([0-9]{1,18}))?$/
const SCALE = 18

const decimalOf = (text: string): Decimal | undefined => {
  const m = DECIMAL.exec(text)
  if (m === null) return undefined
  const whole = m[1] as string
  const fraction = m[2] ?? ''
  return { text, whole, fraction, scaled: BigInt(whole + fraction.padEnd(SCALE, '0')) }
}

/** An amount with its currency (`ActiveOrHistoricCurrencyAndAmount`). */
interface Money {
  readonly amount: Decimal
  readonly currency: string
  readonly node: Node
}

const CURRENCY = /^[A-Z]{3}$/

const moneyOf = (c: Collector, n: Node): Money | undefined => {
  const amount = decimalOf(textOf(n))
  if (amount === undefined) report(c, pathOf(n), 'amount')
  const currency = n.ccy
  if (currency === undefined || !CURRENCY.test(currency)) report(c, `${pathOf(n)}/@Ccy`, 'currency')
  return amount === undefined || currency === undefined || !CURRENCY.test(currency) ? undefined : { amount, currency, node: n }
}

type Direction = 'CRDT' | 'DBIT'

const directionOf = (c: Collector, n: Node): Direction | undefined => {
  const t = textOf(n)
  if (t === 'CRDT' || t === 'DBIT') return t
  report(c, pathOf(n), 'code', { allowed: ['CRDT', 'DBIT'] })
  return undefined
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/

/** `YYYY-MM-DD` of an ISO date (or date and time), when it is a calendar date. */
const calendarDate = (re: RegExp, t: string): string | undefined => {
  const m = re.exec(t)
  if (m === null) return undefined
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12 || day < 1) return undefined
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const max = month === 2 && !leap ? 28 : (DAYS[month - 1] as number)
  return day > max ? undefined : t.slice(0, 10)
}

const COUNT = /^[0-9]{1,15}$/

const countOf = (c: Collector, n: Node): bigint | undefined => {
  const t = textOf(n)
  if (COUNT.test(t)) return BigInt(t)
  report(c, pathOf(n), 'count')
  return undefined
}

/** Signed by direction: credits count up, debits down. */
const signed = (v: bigint, d: Direction): bigint => (d === 'CRDT' ? v : -v)

// -------------------------------------------------------------------------------------
// the document, element by element
// -------------------------------------------------------------------------------------

const NOK = 'NOK'
const MAX_ORE = BigInt(Number.MAX_SAFE_INTEGER)

/** Exact øre of a NOK amount, or why there is none. */
const oreOf = (money: Pick<Money, 'amount' | 'currency'>, direction: Direction): { readonly amount: number; readonly refusal?: Camt054Refusal } => {
  if (money.currency !== NOK) return { amount: 0, refusal: 'currency' }
  const { whole, fraction } = money.amount
  // more than two decimals: refused, not rounded (trailing zeros change no value)
  for (let i = 2; i < fraction.length; i++) if (fraction.charCodeAt(i) !== 48) return { amount: 0, refusal: 'decimals' }
  const ore = BigInt(whole + fraction.slice(0, 2).padEnd(2, '0'))
  if (ore > MAX_ORE) return { amount: 0, refusal: 'amount-range' }
  const n = Number(ore)
  return { amount: direction === 'CRDT' ? n : n === 0 ? 0 : -n }
}

/**
 * A transaction detail (`TxDtls`) as read when it closes: what its entry needs of it, its own
 * elements dropped (a batch of 10,000 details keeps 10,000 of these, not their elements).
 */
interface DetailRead {
  readonly path: string
  /** Which of the entry's `NtryDtls` holds it. */
  readonly holder: Node
  /** Its own amount (`Amt`, else `AmtDtls/TxAmt/Amt`): `undefined` when it has none, `null` when it is not valid. */
  readonly money: Pick<Money, 'amount' | 'currency'> | undefined | null
  readonly amountPath: string
  /** Its own direction: `undefined` when it has none (its entry's), `null` when it is not valid. */
  readonly direction: Direction | undefined | null
  readonly transactionReference?: string
  readonly creditorReferences: ReadonlyArray<string>
  /** What is wrong with it: reported only when its entry is read (a debit entry's details are never checked). */
  readonly issues: Collector['issues']
}

/** The structured creditor references of type SCOR of a transaction detail, in order. */
const creditorReferencesOf = (c: Collector, tx: Node): string[] => {
  const refs: string[] = []
  for (const strd of childrenOf(childOf(tx, 'RmtInf') ?? tx, 'Strd')) {
    const inf = childOf(strd, 'CdtrRefInf')
    if (textOf(childOf(childOf(childOf(inf, 'Tp'), 'CdOrPrtry'), 'Cd')) !== 'SCOR') continue
    const ref = childOf(inf, 'Ref')
    if (ref === undefined) continue
    const r = max35(c, ref)
    if (r !== undefined) refs.push(r)
  }
  return refs
}

/** A transaction detail read when it closes. */
const readDetail = (tx: Node): DetailRead => {
  const c: Collector = { issues: [] }
  const own = childOf(tx, 'Amt') ?? childOf(childOf(childOf(tx, 'AmtDtls'), 'TxAmt'), 'Amt')
  const money = own === undefined ? undefined : (moneyOf(c, own) ?? null)
  const ind = childOf(tx, 'CdtDbtInd')
  const direction = ind === undefined ? undefined : (directionOf(c, ind) ?? null)
  const transactionReference = optional35(c, childOf(tx, 'Refs'), 'AcctSvcrRef')
  const path = pathOf(tx)
  return {
    path,
    holder: tx.parent as Node,
    money: money === undefined || money === null ? money : { amount: money.amount, currency: money.currency },
    amountPath: own === undefined ? `${path}/Amt` : pathOf(own),
    direction,
    ...(transactionReference !== undefined ? { transactionReference } : {}),
    creditorReferences: creditorReferencesOf(c, tx),
    issues: c.issues
  }
}

/**
 * A transaction as it is built: its number and account given when its notification closes, its
 * optional fields set only when present (one object per transaction, no spread copies).
 */
type Pending = { -readonly [K in keyof Camt054Transaction]: Camt054Transaction[K] }

const pendingOf = (
  entryReference: string,
  bookingDate: string,
  reversal: boolean,
  detailNumber: number,
  creditorReferences: ReadonlyArray<string>,
  amount: number,
  currency: string,
  decimalAmount: string,
  path: string
): Pending => ({
  transactionNumber: 0,
  account: '',
  entryReference,
  detailNumber,
  creditorReferences,
  amount,
  currency,
  decimalAmount,
  bookingDate,
  reversal,
  path
})

/** What a notification counts of its entries, for its summary. */
interface Totals {
  all: bigint
  allCount: number
  credit: bigint
  creditCount: number
  debit: bigint
  debitCount: number
  complete: boolean
}

const STATUS_02 = ['BOOK', 'PDNG', 'INFO']

/** The entry's status code: `Sts` (versions 02, 04) or `Sts/Cd` (08); `undefined` for a proprietary one. */
const statusOf = (c: Collector, entry: Node, version: Camt054Version): string | undefined => {
  const sts = required(c, entry, 'Sts')
  if (sts === undefined) return undefined
  if (version !== 'camt.054.001.08') {
    const t = textOf(sts)
    if (!STATUS_02.includes(t)) report(c, pathOf(sts), 'code', { allowed: STATUS_02 })
    return t
  }
  const cd = childOf(sts, 'Cd')
  const prtry = childOf(sts, 'Prtry')
  if (cd === undefined && prtry === undefined) report(c, `${pathOf(sts)}/Cd`, 'required')
  if (cd !== undefined) {
    const t = textOf(cd)
    if (t.length === 0 || t.length > 4) report(c, pathOf(cd), 'length', { min: 1, max: 4 })
    return t
  }
  if (prtry !== undefined) max35(c, prtry)
  return undefined
}

/** A booked entry's booking date, `YYYY-MM-DD`: `BookgDt/Dt`, or the date of `BookgDt/DtTm`. */
const bookingDateOf = (c: Collector, entry: Node): string | undefined => {
  const booking = required(c, entry, 'BookgDt')
  if (booking === undefined) return undefined
  const dt = childOf(booking, 'Dt')
  const dtTm = childOf(booking, 'DtTm')
  const n = dt ?? dtTm
  if (n === undefined) {
    report(c, `${pathOf(booking)}/Dt`, 'required')
    return undefined
  }
  const date = calendarDate(n === dt ? DATE : DATE_TIME, textOf(n))
  if (date === undefined) report(c, pathOf(n), 'date')
  return date
}

/**
 * An entry read when it closes: checked, counted in its notification's totals, and — a booked
 * credit or a booked reversal — split into its transactions, their sums checked against it and
 * its batches. Debit entries and entries not booked are never applied: read no further.
 */
const readEntry = (c: Collector, entry: Node, version: Camt054Version, details: ReadonlyArray<DetailRead>, totals: Totals, out: Pending[]): void => {
  const amt = required(c, entry, 'Amt')
  const money = amt === undefined ? undefined : moneyOf(c, amt)
  const ind = required(c, entry, 'CdtDbtInd')
  const direction = ind === undefined ? undefined : directionOf(c, ind)
  const rvsl = childOf(entry, 'RvslInd')
  const rvslText = textOf(rvsl)
  if (rvsl !== undefined && !['true', 'false', '1', '0'].includes(rvslText)) report(c, pathOf(rvsl), 'code', { allowed: ['true', 'false'] })
  const reversal = rvslText === 'true' || rvslText === '1'
  const booked = statusOf(c, entry, version) === 'BOOK'
  if (money === undefined || direction === undefined) {
    totals.complete = false
    return
  }
  totals.all += money.amount.scaled
  totals.allCount++
  if (direction === 'CRDT') {
    totals.credit += money.amount.scaled
    totals.creditCount++
  } else {
    totals.debit += money.amount.scaled
    totals.debitCount++
  }
  if (!booked || (direction === 'DBIT' && !reversal)) return
  for (const d of details) {
    for (const i of d.issues) keep(c, i)
    if (d.issues.more !== undefined) c.issues.more = (c.issues.more ?? 0) + d.issues.more
  }
  const bookingDate = bookingDateOf(c, entry)
  const entryReference = optional35(c, entry, 'AcctSvcrRef') ?? optional35(c, entry, 'NtryRef') ?? ''
  // each detail's amount and direction: its own, or (a lone detail) its entry's
  let complete = true
  const amounts: Array<{ readonly detail: DetailRead; readonly money: Pick<Money, 'amount' | 'currency'>; readonly direction: Direction }> = []
  for (const d of details) {
    const m = d.money === undefined ? (details.length === 1 ? money : undefined) : d.money
    if (d.money === undefined && details.length > 1) report(c, d.amountPath, 'transaction-amount')
    const dir = d.direction === undefined ? direction : d.direction
    if (m === undefined || m === null || dir === null) {
      complete = false
      continue
    }
    if (m.currency !== money.currency) {
      report(c, `${d.amountPath}/@Ccy`, 'currency')
      complete = false
      continue
    }
    amounts.push({ detail: d, money: m, direction: dir })
  }
  // a batch that lists its transactions: its count and total are theirs; one that lists none: the entry's
  const holders = childrenOf(entry, 'NtryDtls')
  for (const nd of holders) {
    const btch = childOf(nd, 'Btch')
    if (btch === undefined) continue
    const listed = amounts.filter((x) => x.detail.holder === nd)
    const count = details.filter((d) => d.holder === nd).length
    const nb = childOf(btch, 'NbOfTxs')
    const n = nb === undefined ? undefined : countOf(c, nb)
    if (nb !== undefined && n !== undefined && count > 0 && n !== BigInt(count)) report(c, pathOf(nb), 'batch-count')
    const total = childOf(btch, 'TtlAmt')
    const t = total === undefined ? undefined : moneyOf(c, total)
    if (total === undefined || t === undefined || !complete || (count === 0 && details.length > 0)) continue
    if (t.currency !== money.currency) {
      report(c, `${pathOf(total)}/@Ccy`, 'currency')
      continue
    }
    const bInd = childOf(btch, 'CdtDbtInd')
    const bd = bInd === undefined ? direction : directionOf(c, bInd)
    if (bd === undefined) continue
    const sum = details.length === 0 ? signed(money.amount.scaled, direction) : listed.reduce((s, x) => s + signed(x.money.amount.scaled, x.direction), 0n)
    if (sum !== signed(t.amount.scaled, bd)) report(c, pathOf(total), 'batch-sum')
  }
  if (complete && details.length > 0) {
    const sum = amounts.reduce((s, x) => s + signed(x.money.amount.scaled, x.direction), 0n)
    if (sum !== signed(money.amount.scaled, direction)) report(c, pathOf(amt as Node), 'entry-sum')
  }
  if (!complete || bookingDate === undefined) return
  if (details.length === 0) {
    // an entry that lists no transaction: one transaction of its amount, no KID
    const declared = holders.map((nd) => childOf(childOf(nd, 'Btch'), 'NbOfTxs')).find((n) => n !== undefined)
    const batch = declared !== undefined && textOf(declared) !== '1' && COUNT.test(textOf(declared))
    const ore = oreOf(money, direction)
    const t = pendingOf(entryReference, bookingDate, reversal, 0, [], ore.amount, money.currency, money.amount.text, pathOf(entry))
    const refusal = ore.refusal ?? (batch ? 'batch-without-details' : undefined)
    if (refusal !== undefined) t.refusal = refusal
    out.push(t)
    return
  }
  for (let i = 0; i < amounts.length; i++) {
    const x = amounts[i] as (typeof amounts)[number]
    const { creditorReferences, transactionReference } = x.detail
    const kids = creditorReferences.length < 2 ? creditorReferences : [...new Set(creditorReferences)]
    const ore = oreOf(x.money, x.direction)
    const t = pendingOf(entryReference, bookingDate, reversal, i + 1, creditorReferences, ore.amount, x.money.currency, x.money.amount.text, x.detail.path)
    if (transactionReference !== undefined) t.transactionReference = transactionReference
    if (kids.length === 1) t.kid = kids[0]
    const refusal = ore.refusal ?? (kids.length > 1 ? 'creditor-references' : undefined)
    if (refusal !== undefined) t.refusal = refusal
    out.push(t)
  }
}

const checkTotals = (c: Collector, summary: Node | undefined, name: string, count: number, sum: bigint): void => {
  const totals = childOf(summary, name)
  if (totals === undefined) return
  const n = childOf(totals, 'NbOfNtries')
  if (n !== undefined) {
    const v = countOf(c, n)
    if (v !== undefined && v !== BigInt(count)) report(c, pathOf(n), 'summary-count')
  }
  const s = childOf(totals, 'Sum')
  if (s !== undefined) {
    const v = decimalOf(textOf(s))
    if (v === undefined) report(c, pathOf(s), 'amount')
    else if (v.scaled !== sum) report(c, pathOf(s), 'summary-sum')
  }
}

/** A notification (`Ntfctn`) read when it closes: its account and numbers given to its entries' transactions, its summary checked. */
const readNotification = (c: Collector, ntfctn: Node, pending: ReadonlyArray<Pending>, totals: Totals, out: Camt054Transaction[]): void => {
  const id = childOf(childOf(ntfctn, 'Acct'), 'Id')
  const accountNode = childOf(id, 'IBAN') ?? childOf(childOf(id, 'Othr'), 'Id')
  if (accountNode === undefined) report(c, `${pathOf(ntfctn)}/Acct/Id`, 'required')
  const account = accountNode === undefined ? undefined : max35(c, accountNode)
  const summary = childOf(ntfctn, 'TxsSummry')
  if (summary !== undefined && totals.complete) {
    checkTotals(c, summary, 'TtlNtries', totals.allCount, totals.all)
    checkTotals(c, summary, 'TtlCdtNtries', totals.creditCount, totals.credit)
    checkTotals(c, summary, 'TtlDbtNtries', totals.debitCount, totals.debit)
  }
  if (account === undefined) return
  for (const p of pending) {
    p.transactionNumber = out.length + 1
    p.account = account
    out.push(p)
  }
}

// -------------------------------------------------------------------------------------
// reading the XML
// -------------------------------------------------------------------------------------

const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3}\.\d{3}\.\d{2})$/

/** The root element: a camt.054 `Document` of a version read, or the issue that says what it is. */
const rootOf = (tag: SaxesTagNS): Camt054Version | Issue => {
  const m = NAMESPACE.exec(tag.uri)
  const message = m?.[1]
  if (tag.local !== 'Document' || message === undefined) return issue('/', 'format', { format: FORMAT, rule: 'message' })
  if ((CAMT054_VERSIONS as ReadonlyArray<string>).includes(message)) return message as Camt054Version
  // the message identifier matched a closed pattern of 15 characters: naming it quotes nothing else
  return issue('/', 'format', { format: FORMAT, rule: message.startsWith('camt.054.') ? 'version' : 'message', found: message, allowed: CAMT054_VERSIONS })
}

/**
 * Reads the XML with saxes, element by element: a document that is not well-formed, has a DTD,
 * nests too deep or is not a camt.054 of a version read is refused with one issue. Only the
 * elements paysplit reads are kept, and only until the element that reads them closes: a
 * transaction detail when it closes, an entry when it closes, a notification when it closes —
 * so a document of 10,000 transactions never holds 10,000 detail elements at once. Elements of
 * other namespaces and every element not read are skipped.
 */
const readDocument = (xml: string, c: Collector): Camt054Notification | undefined => {
  const parser = new SaxesParser({ xmlns: true })
  let failed: Issue | undefined
  let version: Camt054Version | undefined
  let namespace = ''
  let root: Node | undefined
  let depth = 0
  // the depth inside an element not read (0: inside one read)
  let skip = 0
  const nodes: Node[] = []
  const shapes: Shape[] = []
  const transactions: Camt054Transaction[] = []
  // of the notification and the entry open
  let pending: Pending[] = []
  let totals: Totals = { all: 0n, allCount: 0, credit: 0n, creditCount: 0, debit: 0n, debitCount: 0, complete: true }
  let details: DetailRead[] = []
  let notifications = 0
  const fail = (i: Issue): void => {
    if (failed === undefined) failed = i
  }
  const at = (rule: Camt054Rule): Issue => issue(`line.${parser.line}`, 'format', { format: FORMAT, rule, column: parser.column })
  parser.on('error', () => {
    fail(at('well-formed'))
  })
  parser.on('doctype', () => {
    fail(at('doctype'))
  })
  parser.on('opentag', (tag) => {
    if (failed !== undefined) return
    if (++depth > CAMT054_MAX_DEPTH) {
      fail(at('depth'))
      return
    }
    if (skip > 0) {
      skip++
      return
    }
    if (root === undefined) {
      const read = rootOf(tag)
      if (typeof read !== 'string') {
        fail(read)
        return
      }
      version = read
      namespace = tag.uri
      root = { name: 'Document', index: 1, many: false, parent: undefined, text: '', ccy: undefined, kids: undefined, counts: undefined }
      nodes.push(root)
      shapes.push(DOCUMENT)
      return
    }
    const parent = nodes[nodes.length - 1]
    const slotted = tag.uri === namespace ? shapes[shapes.length - 1]?.children?.get(tag.local) : undefined
    if (parent === undefined || slotted === undefined) {
      skip = 1
      return
    }
    const [slot, s] = slotted
    if (parent.kids === undefined) parent.kids = []
    if (parent.counts === undefined) parent.counts = []
    const index = (parent.counts[slot] ?? 0) + 1
    parent.counts[slot] = index
    const node: Node = { name: tag.local, index, many: s.many === true, parent, text: '', ccy: undefined, kids: undefined, counts: undefined }
    parent.kids.push(node)
    if (s.many !== true && index > 1) report(c, pathOf(node), 'repeated')
    if (s.ccy === true) {
      const ccy = tag.attributes['Ccy']
      if (ccy !== undefined && ccy.uri === '') node.ccy = ccy.value
    }
    nodes.push(node)
    shapes.push(s)
  })
  parser.on('closetag', () => {
    if (failed !== undefined) return
    depth--
    if (skip > 0) {
      skip--
      return
    }
    const node = nodes.pop()
    shapes.pop()
    if (node === undefined || version === undefined) return
    // read an element when it closes, and drop what it held
    if (node.name === 'TxDtls') {
      details.push(readDetail(node))
      node.parent?.kids?.pop()
    } else if (node.name === 'Ntry') {
      readEntry(c, node, version, details, totals, pending)
      details = []
      node.parent?.kids?.pop()
    } else if (node.name === 'Ntfctn') {
      notifications++
      readNotification(c, node, pending, totals, transactions)
      pending = []
      totals = { all: 0n, allCount: 0, credit: 0n, creditCount: 0, debit: 0n, debitCount: 0, complete: true }
      node.parent?.kids?.pop()
    }
  })
  const text = (t: string): void => {
    if (failed !== undefined || skip > 0) return
    const n = nodes[nodes.length - 1]
    if (n !== undefined && shapes[shapes.length - 1]?.text === true) n.text += t
  }
  parser.on('text', text)
  parser.on('cdata', text)
  try {
    parser.write(xml).close()
  } catch {
    // saxes reports through the error handler; anything thrown past it is a document not read
    fail(at('well-formed'))
  }
  if (failed !== undefined) {
    c.issues.length = 0
    c.issues.push(failed)
    return undefined
  }
  if (root === undefined || version === undefined) return undefined
  const bk = required(c, root, 'BkToCstmrDbtCdtNtfctn')
  if (bk === undefined) return undefined
  const header = required(c, bk, 'GrpHdr')
  const msgId = header === undefined ? undefined : required(c, header, 'MsgId')
  const messageId = msgId === undefined ? undefined : max35(c, msgId)
  const created = header === undefined ? undefined : required(c, header, 'CreDtTm')
  const createdAt = created === undefined ? undefined : textOf(created)
  if (created !== undefined && calendarDate(DATE_TIME, createdAt ?? '') === undefined) report(c, pathOf(created), 'date')
  if (notifications === 0) report(c, `${pathOf(bk)}/Ntfctn[1]`, 'required')
  if (messageId === undefined || createdAt === undefined) return undefined
  return { messageId, createdAt, version, transactions }
}

// -------------------------------------------------------------------------------------
// the parser
// -------------------------------------------------------------------------------------

/**
 * Reads an ISO 20022 camt.054 notification (docs/rules.md C17) and checks it whole: the XML
 * well-formed (saxes), no DTD, at most 64 elements deep and 128 Mi characters long; the root a
 * camt.054 `Document` of version 001.02, 001.04 or 001.08 (another version or message is refused
 * naming it in `params.found`); every element paysplit reads present, once, and well formed
 * (amounts, currencies, codes, dates, references of at most 35 characters); and the sums: each
 * booked credit entry (and booked reversal) the sum of its transaction details, each batch its
 * count and total, each notification's summary its entries' counts and sums. A broken document is
 * `Left` `ValidationFailed`, each issue at the element path (`/Document/BkToCstmrDbtCdtNtfctn/
 * Ntfctn[1]/Ntry[2]/Amt`; `line.<n>` when the XML itself is broken), reason `format`,
 * `params.rule` naming the rule; at most 100 issues, no value of the document quoted.
 *
 * A notification holds `messageId`, `createdAt`, `version` and the `transactions` of its booked
 * credit entries and booked reversals (debit entries and entries not booked are skipped): a
 * batch entry split into its transaction details, each with the KID of its structured creditor
 * reference (type `SCOR`) and its amount in øre converted exactly; a transaction in another
 * currency or with more than two decimals carries a `refusal` rather than a rounded amount.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { parseCamt054 } from 'paysplit/camt054'
 * const xml = `<?xml version="1.0" encoding="UTF-8"?>
 * <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
 *   <BkToCstmrDbtCdtNtfctn>
 *     <GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2026-11-21T10:00:00</CreDtTm></GrpHdr>
 *     <Ntfctn>
 *       <Id>N-1</Id>
 *       <Acct><Id><IBAN>NO9386011117947</IBAN></Id></Acct>
 *       <Ntry>
 *         <Amt Ccy="NOK">150.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
 *         <BookgDt><Dt>2026-11-21</Dt></BookgDt><AcctSvcrRef>E-1</AcctSvcrRef>
 *         <NtryDtls>
 *           <TxDtls><Refs><AcctSvcrRef>T-1</AcctSvcrRef></Refs><Amt Ccy="NOK">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>
 *             <RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>12345674</Ref></CdtrRefInf></Strd></RmtInf></TxDtls>
 *           <TxDtls><Refs><AcctSvcrRef>T-2</AcctSvcrRef></Refs><Amt Ccy="NOK">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></TxDtls>
 *         </NtryDtls>
 *       </Ntry>
 *     </Ntfctn>
 *   </BkToCstmrDbtCdtNtfctn>
 * </Document>`
 * const read = parseCamt054(xml)
 * assert.ok(E.isRight(read))
 * assert.deepStrictEqual(read.right.transactions.map((t) => [t.entryReference, t.transactionReference, t.kid, t.amount]), [
 *   ['E-1', 'T-1', '12345674', 10000],
 *   ['E-1', 'T-2', undefined, 5000]
 * ])
 * // an amount edited: the entry is no longer the sum of its transactions
 * const broken = parseCamt054(xml.replace('50.00', '50.01'))
 * assert.ok(E.isLeft(broken))
 * assert.deepStrictEqual(broken.left.issues?.map((i) => [i.path, i.params?.rule]), [
 *   ['/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]/Amt', 'entry-sum']
 * ])
 */
export const parseCamt054 = (xml: string): E.Either<PaymentError, Camt054Notification> => {
  if (typeof xml !== 'string') return E.left(validationError([issue('', 'type', { expected: 'string' })]))
  const c: Collector = { issues: [] }
  if (xml.length > CAMT054_MAX_LENGTH) {
    report(c, '', 'size', { max: CAMT054_MAX_LENGTH })
    return E.left(validationError(c.issues))
  }
  const notification = readDocument(xml, c)
  if (c.issues.length > 0 || notification === undefined) {
    if (c.issues.length === 0) report(c, '/', 'message')
    return E.left(validationError(c.issues))
  }
  return E.right(notification)
}
