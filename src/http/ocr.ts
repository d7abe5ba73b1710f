/**
 * Bank files (docs/rules.md C14): Nets' OCR giro files, read purely and checked whole, and the
 * transmission they hold applied to the world transfer by transfer through `receiveTransferByKid`,
 * once per transmission.
 *
 * @module ocr
 */
import * as E from '../internal/either.js'
import type { Issue, PaymentError } from '../errors.js'
import { issue, MAX_ISSUES, paymentError, validationError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import type { Payment } from '../payment.js'
import { own } from './own.js'
import { receiveTransferByKid, type EventContext } from './bank.js'
import { checkContext, isWorld, unreadable, type Deliveries, type World } from './world.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * One transaction of an OCR giro file: its amount items 1 and 2 (and 3, for the free-text types
 * 20 and 21) read into one value. Strings of digits stay strings (leading zeros are meaningful);
 * dates are `YYYY-MM-DD`.
 */
export interface OcrTransaction {
  /** The transaction's serial number in its assignment (item 1, positions 9–15). */
  readonly transactionNumber: number
  /** 10–17 payments (giro, standing order, direct remittance, BTG, counter, AvtaleGiro, telegiro, cash), 18–21 terminal information. */
  readonly transactionType: number
  /** The KID without its blank padding (empty when the field is blank). */
  readonly kid: string
  /** In øre; negative when the sign field is `-` (a credit note). */
  readonly amount: number
  /** Nets' processing date. */
  readonly netsDate: string
  readonly centreId: string
  readonly dayCode: number
  readonly partialSettlementNumber: number
  readonly partialSettlementSerialNumber: string
  /** Item 1, positions 75–76 ("filler/card drawer"): two digits as read. */
  readonly cardDrawer: string
  /** Item 2: the giro's form number, or zeros. */
  readonly formNumber: string
  /** Item 2: the payer's agreement id or the archive reference. */
  readonly archiveReference: string
  /** Item 2, positions 35–41: documented as a zero filler, carrying digits in the specification's own sample; kept as read. */
  readonly reserved: string
  /** Item 2: the bank date, absent when the field is zeros. */
  readonly bankDate?: string
  /** Item 2: the payer's account, zeros when unknown. */
  readonly debitAccount: string
  /** Item 3 (types 20 and 21 only): the terminal's free text, trailing blanks removed. */
  readonly freeText?: string
  /** The line of the transaction's amount item 1, counted from 1. */
  readonly line: number
}

/** One assignment of an OCR giro file: the payee's agreement and account and its transactions. */
export interface OcrAssignment {
  readonly assignmentNumber: string
  readonly agreementId: string
  readonly account: string
  /** The date Nets made the assignment (its end record). */
  readonly netsDate: string
  readonly transactions: ReadonlyArray<OcrTransaction>
}

/** A whole OCR giro file: one transmission of one or more assignments. */
export interface OcrTransmission {
  readonly transmissionNumber: string
  /** The data transmitter of the start record (Nets: `00008080`). */
  readonly dataSender: string
  /** The payee's customer unit id at Nets. */
  readonly dataRecipient: string
  /** The date Nets made the transmission (its end record). */
  readonly netsDate: string
  readonly assignments: ReadonlyArray<OcrAssignment>
}

/** What happened to one transaction of a transmission (docs/rules.md C14). */
export type OcrOutcome =
  | { readonly outcome: 'matched'; readonly paymentReferenceID: string }
  | { readonly outcome: 'unmatched' }
  | { readonly outcome: 'refused'; readonly error: PaymentError }
  | { readonly outcome: 'duplicate' }

/** One row of the report of {@link receiveOcrGiro}, in file order. */
export type OcrReportRow = {
  readonly transactionNumber: number
  readonly kid: string
  readonly amount: number
} & OcrOutcome

/** The outcome of {@link receiveOcrGiro}. */
export type OcrReceived = readonly [
  world: World,
  report: ReadonlyArray<OcrReportRow>,
  deliveries: Deliveries,
  events: ReadonlyArray<PaymentEvent>
]

/**
 * The rules an OCR giro file is checked by, each named in `params.rule` of the issue that
 * reports it (docs/rules.md C14).
 */
export type OcrRule =
  | 'empty'
  | 'line-length'
  | 'format-code'
  | 'service-code'
  | 'record-type'
  | 'type-code'
  | 'record-order'
  | 'truncated'
  | 'digits'
  | 'filler'
  | 'date'
  | 'day-code'
  | 'sign'
  | 'kid'
  | 'text'
  | 'amount-range'
  | 'transaction-number'
  | 'transaction-type'
  | 'assignment-number'
  | 'transaction-count'
  | 'record-count'
  | 'total-amount'
  | 'earliest-date'
  | 'latest-date'

// -------------------------------------------------------------------------------------
// the parser
// -------------------------------------------------------------------------------------

const LINE = 80
const ZERO = 48
const NINE = 57

interface Collector {
  readonly issues: Issue[] & { more?: number }
}

const report = (c: Collector, line: number, rule: OcrRule, field?: string): void => {
  if (c.issues.length >= MAX_ISSUES) {
    c.issues.more = (c.issues.more ?? 0) + 1
    return
  }
  const params: Record<string, string> = { format: 'OCR giro record', rule }
  if (field !== undefined) params.field = field
  c.issues.push(issue(`line.${line}`, 'format', params))
}

/** True when `s[from, from + length)` is all ASCII digits. */
const allDigits = (s: string, from: number, length: number): boolean => {
  for (let i = from; i < from + length; i++) {
    const ch = s.charCodeAt(i)
    if (ch < ZERO || ch > NINE) return false
  }
  return true
}

/** True when `s[from, from + length)` is all `0`. */
const allZeros = (s: string, from: number, length: number): boolean => {
  for (let i = from; i < from + length; i++) if (s.charCodeAt(i) !== ZERO) return false
  return true
}

/** A numeric field as a number (digits checked first); `undefined` (and an issue) when not digits. */
const digitsOf = (c: Collector, s: string, n: number, from: number, length: number, field: string): string | undefined => {
  if (allDigits(s, from, length)) return s.slice(from, from + length)
  report(c, n, 'digits', field)
  return undefined
}

const numberOf = (c: Collector, s: string, n: number, from: number, length: number, field: string): number | undefined => {
  const d = digitsOf(c, s, n, from, length, field)
  if (d === undefined) return undefined
  const v = Number(d)
  if (!Number.isSafeInteger(v)) {
    report(c, n, 'amount-range', field)
    return undefined
  }
  return v
}

const filler = (c: Collector, s: string, n: number, from: number): void => {
  if (!allZeros(s, from, LINE - from)) report(c, n, 'filler')
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const two = (v: number): string => (v < 10 ? `0${v}` : String(v))

/**
 * A `DDMMYY` date as `YYYY-MM-DD`: years 69–99 are 1969–1999, 00–68 are 2000–2068 (the POSIX
 * pivot, docs/decisions.md "OCR giro files"). `null` for `000000`, `undefined` for anything else
 * that is not a calendar date.
 */
const dateOf = (s: string, from: number): string | null | undefined => {
  if (!allDigits(s, from, 6)) return undefined
  if (allZeros(s, from, 6)) return null
  const day = Number(s.slice(from, from + 2))
  const month = Number(s.slice(from + 2, from + 4))
  const yy = Number(s.slice(from + 4, from + 6))
  const year = yy < 69 ? 2000 + yy : 1900 + yy
  if (month < 1 || month > 12 || day < 1) return undefined
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const max = month === 2 && !leap ? 28 : (DAYS[month - 1] as number)
  if (day > max) return undefined
  return `${year}-${two(month)}-${two(day)}`
}

const requiredDate = (c: Collector, s: string, n: number, from: number, field: string): string | undefined => {
  const d = dateOf(s, from)
  if (d === undefined || d === null) {
    report(c, n, 'date', field)
    return undefined
  }
  return d
}

/** The KID field: blanks, then digits, the last of which may be `-` (a MOD11 check digit); blank is `''`. */
const kidOf = (c: Collector, s: string, n: number): string | undefined => {
  const from = 49
  const end = 74
  let i = from
  while (i < end && s.charCodeAt(i) === 32) i++
  for (let j = i; j < end; j++) {
    const ch = s.charCodeAt(j)
    const digit = ch >= ZERO && ch <= NINE
    if (!digit && !(ch === 45 && j === end - 1 && j > i)) {
      report(c, n, 'kid', 'kid')
      return undefined
    }
  }
  return s.slice(i, end)
}

/** Free text: printable characters (no control characters), trailing blanks removed. */
const textOf = (c: Collector, s: string, n: number, from: number, length: number): string | undefined => {
  let last = from - 1
  for (let i = from; i < from + length; i++) {
    const ch = s.charCodeAt(i)
    if (ch < 32 || ch === 127 || (ch >= 128 && ch < 160)) {
      report(c, n, 'text', 'freeText')
      return undefined
    }
    if (ch !== 32) last = i
  }
  return s.slice(from, last + 1)
}

/** The record's head: `NY`, the service code it must have, the record type. */
const headOk = (c: Collector, s: string, n: number, service: '00' | '09'): boolean => {
  let ok = true
  if (s.charCodeAt(0) !== 78 || s.charCodeAt(1) !== 89) {
    report(c, n, 'format-code')
    ok = false
  }
  if (s.slice(2, 4) !== service) {
    report(c, n, 'service-code')
    ok = false
  }
  return ok
}

interface PendingTransaction {
  line: number
  transactionNumber?: number
  transactionType?: number
  kid?: string
  amount?: number
  netsDate?: string
  centreId?: string
  dayCode?: number
  partialSettlementNumber?: number
  partialSettlementSerialNumber?: string
  cardDrawer?: string
  formNumber?: string
  archiveReference?: string
  reserved?: string
  bankDate?: string
  debitAccount?: string
  freeText?: string
  // which items were read
  items: number
}

interface PendingAssignment {
  line: number
  assignmentNumber?: string
  agreementId?: string
  account?: string
  transactions: OcrTransaction[]
  records: number
  total: number
  earliest?: string
  latest?: string
  lastTransactionNumber: number
  /** The amount items 1 read: the transactions the end record counts. */
  itemsOne: number
  current?: PendingTransaction
}

type State = 'start' | 'transmission' | 'assignment' | 'item1' | 'item2' | 'done'

const hasItem3 = (type: number | undefined): boolean => type === 20 || type === 21

/**
 * Reads an OCR giro file (Nets' format of KID payments, docs/rules.md C14) and checks it whole:
 * every line 80 characters, every record type, field and filler the format defines, the order
 * of the records (transmission start, assignments of transactions of amount items 1, 2 and — for
 * types 20 and 21 — 3, transmission end), and the counts, totals and dates of the end records. A
 * broken file is `Left` `ValidationFailed`, its issues at `line.<n>` (counted from 1), reason
 * `format`, `params.rule` naming the rule broken and `params.field` the field; at most 100 issues,
 * no value of the file quoted. `\n` and `\r\n` line ends are both read; one line end after the
 * last record is allowed, a blank line anywhere is not a record and is refused.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { parseOcrGiro } from 'paysplit/http'
 * const pad = (s: string): string => s.padEnd(80, '0')
 * const file = [
 *   pad('NY000010000080800170031000102'),
 *   pad('NY090020001008566000000299991042764'),
 *   'NY09103000000012001921320101464000000000000102000' + '0000531'.padStart(25, ' ') + '000000',
 *   pad('NY091031000000196368271940990385620000000160192999905123410'),
 *   pad('NY090088000000010000000400000000000102000200192200192200192'),
 *   pad('NY000089000000010000000600000000000102000200192')
 * ].join('\n') + '\n'
 * const read = parseOcrGiro(file)
 * assert.ok(E.isRight(read))
 * const t = read.right.assignments[0]?.transactions[0]
 * assert.deepStrictEqual([t?.kid, t?.amount, t?.netsDate], ['0000531', 102000, '1992-01-20'])
 * // the assignment's end record edited: its total no longer the sum of its amounts
 * const broken = parseOcrGiro(file.replace('102000200192', '102001200192'))
 * assert.ok(E.isLeft(broken))
 * assert.deepStrictEqual(broken.left.issues?.map((i) => [i.path, i.params?.rule]), [['line.5', 'total-amount']])
 */
export const parseOcrGiro = (text: string): E.Either<PaymentError, OcrTransmission> => {
  if (typeof text !== 'string') return E.left(validationError([issue('', 'type', { expected: 'string' })]))
  const c: Collector = { issues: [] }
  let state: State = 'start'
  let transmissionNumber: string | undefined
  let dataSender: string | undefined
  let dataRecipient: string | undefined
  let netsDate: string | undefined
  const assignments: OcrAssignment[] = []
  let assignment: PendingAssignment | undefined
  let lastAssignmentNumber = -1
  let records = 0
  let transactions = 0
  let total = 0
  let lineNumber = 0
  let pos = 0
  const length = text.length

  const closeTransaction = (a: PendingAssignment): void => {
    const t = a.current
    a.current = undefined
    if (t === undefined) return
    if (
      t.transactionNumber === undefined || t.transactionType === undefined || t.kid === undefined ||
      t.amount === undefined || t.netsDate === undefined || t.centreId === undefined || t.dayCode === undefined ||
      t.partialSettlementNumber === undefined || t.partialSettlementSerialNumber === undefined || t.cardDrawer === undefined ||
      t.formNumber === undefined || t.archiveReference === undefined || t.reserved === undefined || t.debitAccount === undefined ||
      (hasItem3(t.transactionType) && t.freeText === undefined)
    ) {
      return
    }
    const done: OcrTransaction = {
      transactionNumber: t.transactionNumber,
      transactionType: t.transactionType,
      kid: t.kid,
      amount: t.amount,
      netsDate: t.netsDate,
      centreId: t.centreId,
      dayCode: t.dayCode,
      partialSettlementNumber: t.partialSettlementNumber,
      partialSettlementSerialNumber: t.partialSettlementSerialNumber,
      cardDrawer: t.cardDrawer,
      formNumber: t.formNumber,
      archiveReference: t.archiveReference,
      reserved: t.reserved,
      ...(t.bankDate !== undefined ? { bankDate: t.bankDate } : {}),
      debitAccount: t.debitAccount,
      ...(t.freeText !== undefined ? { freeText: t.freeText } : {}),
      line: t.line
    }
    a.transactions.push(done)
  }

  if (length === 0) report(c, 1, 'empty')
  // one line end after the last record ends the file; a second one starts a blank line
  while (pos < length) {
    let end = text.indexOf('\n', pos)
    if (end === -1) end = length
    let stop = end
    if (stop > pos && text.charCodeAt(stop - 1) === 13) stop--
    const s = text.slice(pos, stop)
    pos = end + 1
    lineNumber++
    const n = lineNumber
    records++
    if (s.length !== LINE) {
      report(c, n, 'line-length')
      continue
    }
    const recordType = s.slice(6, 8)
    if (state === 'done') {
      report(c, n, 'record-order')
      continue
    }
    switch (recordType) {
      case '10': {
        if (state !== 'start') report(c, n, 'record-order')
        headOk(c, s, n, '00')
        if (s.slice(4, 6) !== '00') report(c, n, 'type-code', 'transmissionType')
        dataSender = digitsOf(c, s, n, 8, 8, 'dataSender')
        transmissionNumber = digitsOf(c, s, n, 16, 7, 'transmissionNumber')
        dataRecipient = digitsOf(c, s, n, 23, 8, 'dataRecipient')
        filler(c, s, n, 31)
        state = 'transmission'
        break
      }
      case '20': {
        if (state !== 'transmission') report(c, n, 'record-order')
        if (assignment !== undefined) closeTransaction(assignment)
        headOk(c, s, n, '09')
        if (s.slice(4, 6) !== '00') report(c, n, 'type-code', 'assignmentType')
        const agreementId = digitsOf(c, s, n, 8, 9, 'agreementId')
        const assignmentNumber = digitsOf(c, s, n, 17, 7, 'assignmentNumber')
        const account = digitsOf(c, s, n, 24, 11, 'account')
        filler(c, s, n, 35)
        if (assignmentNumber !== undefined) {
          const v = Number(assignmentNumber)
          if (v <= lastAssignmentNumber) report(c, n, 'assignment-number', 'assignmentNumber')
          lastAssignmentNumber = v
        }
        assignment = { line: n, transactions: [], records: 1, total: 0, lastTransactionNumber: 0, itemsOne: 0 }
        if (assignmentNumber !== undefined) assignment.assignmentNumber = assignmentNumber
        if (agreementId !== undefined) assignment.agreementId = agreementId
        if (account !== undefined) assignment.account = account
        state = 'assignment'
        break
      }
      case '30': {
        if (state !== 'assignment' && state !== 'item2') report(c, n, 'record-order')
        else if (state === 'item2' && hasItem3(assignment?.current?.transactionType)) report(c, n, 'record-order')
        if (assignment === undefined) {
          state = 'item1'
          break
        }
        closeTransaction(assignment)
        assignment.records++
        assignment.itemsOne++
        transactions++
        const t: PendingTransaction = { line: n, items: 1 }
        assignment.current = t
        headOk(c, s, n, '09')
        const type = numberOf(c, s, n, 4, 2, 'transactionType')
        if (type !== undefined && (type < 10 || type > 21)) report(c, n, 'type-code', 'transactionType')
        else if (type !== undefined) t.transactionType = type
        const number = numberOf(c, s, n, 8, 7, 'transactionNumber')
        if (number !== undefined) {
          if (number <= assignment.lastTransactionNumber) report(c, n, 'transaction-number', 'transactionNumber')
          else t.transactionNumber = number
          assignment.lastTransactionNumber = Math.max(assignment.lastTransactionNumber, number)
        }
        const date = requiredDate(c, s, n, 15, 'netsDate')
        if (date !== undefined) {
          t.netsDate = date
          if (assignment.earliest === undefined || date < assignment.earliest) assignment.earliest = date
          if (assignment.latest === undefined || date > assignment.latest) assignment.latest = date
        }
        t.centreId = digitsOf(c, s, n, 21, 2, 'centreId')
        const day = numberOf(c, s, n, 23, 2, 'dayCode')
        if (day !== undefined && (day < 1 || day > 31)) report(c, n, 'day-code', 'dayCode')
        else t.dayCode = day
        t.partialSettlementNumber = numberOf(c, s, n, 25, 1, 'partialSettlementNumber')
        t.partialSettlementSerialNumber = digitsOf(c, s, n, 26, 5, 'partialSettlementSerialNumber')
        const sign = s.charCodeAt(31)
        const amount = numberOf(c, s, n, 32, 17, 'amount')
        if (sign !== ZERO && sign !== 45) report(c, n, 'sign', 'sign')
        else if (sign === 45 && amount === 0) report(c, n, 'sign', 'sign')
        else if (amount !== undefined) {
          t.amount = sign === 45 ? -amount : amount
          // the end records add every amount, reversals and credit notes included (never deducted)
          assignment.total += amount
          total += amount
        }
        t.kid = kidOf(c, s, n)
        t.cardDrawer = digitsOf(c, s, n, 74, 2, 'cardDrawer')
        filler(c, s, n, 76)
        state = 'item1'
        break
      }
      case '31': {
        if (state !== 'item1') report(c, n, 'record-order')
        const t = assignment?.current
        if (assignment === undefined || t === undefined) {
          state = 'item2'
          break
        }
        assignment.records++
        t.items++
        headOk(c, s, n, '09')
        const type = numberOf(c, s, n, 4, 2, 'transactionType')
        if (type !== undefined && type !== t.transactionType) report(c, n, 'transaction-type', 'transactionType')
        const number = numberOf(c, s, n, 8, 7, 'transactionNumber')
        if (number !== undefined && number !== t.transactionNumber) report(c, n, 'transaction-number', 'transactionNumber')
        t.formNumber = digitsOf(c, s, n, 15, 10, 'formNumber')
        t.archiveReference = digitsOf(c, s, n, 25, 9, 'archiveReference')
        t.reserved = digitsOf(c, s, n, 34, 7, 'reserved')
        const bank = dateOf(s, 41)
        if (bank === undefined) report(c, n, 'date', 'bankDate')
        else if (bank !== null) t.bankDate = bank
        t.debitAccount = digitsOf(c, s, n, 47, 11, 'debitAccount')
        filler(c, s, n, 58)
        state = 'item2'
        break
      }
      case '32': {
        const t = assignment?.current
        if (state !== 'item2' || !hasItem3(t?.transactionType)) report(c, n, 'record-order')
        if (assignment === undefined || t === undefined) {
          state = 'assignment'
          break
        }
        assignment.records++
        t.items++
        headOk(c, s, n, '09')
        const type = numberOf(c, s, n, 4, 2, 'transactionType')
        if (type !== undefined && type !== t.transactionType) report(c, n, 'transaction-type', 'transactionType')
        const number = numberOf(c, s, n, 8, 7, 'transactionNumber')
        if (number !== undefined && number !== t.transactionNumber) report(c, n, 'transaction-number', 'transactionNumber')
        t.freeText = textOf(c, s, n, 15, 40)
        filler(c, s, n, 55)
        // a third item closes the transaction
        state = 'assignment'
        break
      }
      case '88': {
        if (state !== 'assignment' && state !== 'item2') report(c, n, 'record-order')
        else if (state === 'item2' && hasItem3(assignment?.current?.transactionType)) report(c, n, 'record-order')
        state = 'transmission'
        if (assignment === undefined) break
        closeTransaction(assignment)
        assignment.records++
        const a = assignment
        assignment = undefined
        headOk(c, s, n, '09')
        if (s.slice(4, 6) !== '00') report(c, n, 'type-code', 'assignmentType')
        const count = numberOf(c, s, n, 8, 8, 'numberOfTransactions')
        const recordCount = numberOf(c, s, n, 16, 8, 'numberOfRecords')
        const sum = numberOf(c, s, n, 24, 17, 'totalAmount')
        const made = requiredDate(c, s, n, 41, 'netsDate')
        const earliest = dateOf(s, 47)
        const latest = dateOf(s, 53)
        filler(c, s, n, 59)
        if (count !== undefined && count !== a.itemsOne) report(c, n, 'transaction-count', 'numberOfTransactions')
        if (recordCount !== undefined && recordCount !== a.records) report(c, n, 'record-count', 'numberOfRecords')
        if (sum !== undefined && sum !== a.total) report(c, n, 'total-amount', 'totalAmount')
        if (earliest === undefined || (a.earliest === undefined ? earliest !== null : earliest !== a.earliest)) {
          report(c, n, 'earliest-date', 'earliestNetsDate')
        }
        if (latest === undefined || (a.latest === undefined ? latest !== null : latest !== a.latest)) {
          report(c, n, 'latest-date', 'latestNetsDate')
        }
        if (a.assignmentNumber !== undefined && a.agreementId !== undefined && a.account !== undefined && made !== undefined) {
          assignments.push({
            assignmentNumber: a.assignmentNumber,
            agreementId: a.agreementId,
            account: a.account,
            netsDate: made,
            transactions: a.transactions
          })
        }
        break
      }
      case '89': {
        if (state !== 'transmission') report(c, n, 'record-order')
        if (assignment !== undefined) {
          closeTransaction(assignment)
          assignment = undefined
        }
        headOk(c, s, n, '00')
        if (s.slice(4, 6) !== '00') report(c, n, 'type-code', 'transmissionType')
        const count = numberOf(c, s, n, 8, 8, 'numberOfTransactions')
        const recordCount = numberOf(c, s, n, 16, 8, 'numberOfRecords')
        const sum = numberOf(c, s, n, 24, 17, 'totalAmount')
        netsDate = requiredDate(c, s, n, 41, 'netsDate')
        filler(c, s, n, 47)
        if (count !== undefined && count !== transactions) report(c, n, 'transaction-count', 'numberOfTransactions')
        if (recordCount !== undefined && recordCount !== records) report(c, n, 'record-count', 'numberOfRecords')
        if (sum !== undefined && sum !== total) report(c, n, 'total-amount', 'totalAmount')
        state = 'done'
        break
      }
      default:
        report(c, n, 'record-type')
    }
  }
  if (state !== 'done' && length > 0) report(c, lineNumber + 1, 'truncated')
  if (!Number.isSafeInteger(total)) report(c, lineNumber, 'amount-range', 'totalAmount')
  if (
    c.issues.length > 0 ||
    transmissionNumber === undefined ||
    dataSender === undefined ||
    dataRecipient === undefined ||
    netsDate === undefined
  ) {
    return E.left(c.issues.length > 0 ? validationError(c.issues) : paymentError('ValidationFailed', 'The input is not valid.'))
  }
  return E.right({ transmissionNumber, dataSender, dataRecipient, netsDate, assignments })
}


// -------------------------------------------------------------------------------------
// applying a transmission
// -------------------------------------------------------------------------------------

/**
 * The key a transmission is applied once under (docs/rules.md C14): its data sender and
 * transmission number. A world remembers the keys of the transmissions applied.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { ocrTransmissionKey } from 'paysplit/http'
 * assert.strictEqual(ocrTransmissionKey('00008080', '0170031'), '00008080/0170031')
 */
export const ocrTransmissionKey = (dataSender: string, transmissionNumber: string): string => `${dataSender}/${transmissionNumber}`

/** The transaction types that are money received; 18 and 20 are reversals reported by terminals. */
const PAYMENT_TYPES: ReadonlyArray<number> = [10, 11, 12, 13, 14, 15, 16, 17, 19, 21]

const reversal: PaymentError = validationError([issue('transactionType', 'not_one_of', { allowed: PAYMENT_TYPES })])

/** The keys of the open invoices by KID, as `openInvoicesWithKid` finds them. */
const openByKid = (world: World): Map<string, string[]> => {
  const open = new Map<string, string[]>()
  for (const [k, p] of world.payments) {
    if (own(p, 'kind') !== 'invoice' || own(p, 'status') !== 'Initiated') continue
    const kid = own(p, 'kid')
    if (typeof kid !== 'string') continue
    const keys = open.get(kid)
    if (keys === undefined) open.set(kid, [k])
    else keys.push(k)
  }
  return open
}

interface Row {
  readonly transactionNumber: number
  readonly transactionType: number
  readonly kid: string
  readonly amount: number
}

/** What applying a transaction reads of it, through own properties only. */
const rowOf = (t: unknown): Row => ({
  transactionNumber: own(t, 'transactionNumber') as number,
  transactionType: own(t, 'transactionType') as number,
  kid: own(t, 'kid') as string,
  amount: own(t, 'amount') as number
})

/** The transactions of a transmission in file order, read through own properties only. */
const rowsOf = (transmission: unknown): Row[] => {
  const rows: Row[] = []
  const assignments = own(transmission, 'assignments')
  if (!Array.isArray(assignments)) return rows
  for (const a of assignments as unknown[]) {
    const transactions = own(a, 'transactions')
    if (!Array.isArray(transactions)) continue
    for (const t of transactions as unknown[]) rows.push(rowOf(t))
  }
  return rows
}

/** The outcome of {@link receiveOcrTransaction}: the new world, the report row, the webhooks, the events. */
export type OcrTransactionReceived = readonly [world: World, row: OcrReportRow, deliveries: Deliveries, events: ReadonlyArray<PaymentEvent>]

/**
 * Applies one transaction of an OCR giro file (docs/rules.md C14) as {@link receiveOcrGiro} applies
 * each: a reversal (transaction types 18 and 20) is `refused` and changes nothing; any other goes
 * through `receiveTransferByKid` — `matched`, `unmatched` (no open invoice holds the KID) or
 * `refused` (with its error). For a service that writes each transfer on its own rows; the
 * transmission's once-only rule is {@link receiveOcrGiro}'s (or the service's own table).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, receiveOcrTransaction } from 'paysplit/http'
 * const [world, row] = receiveOcrTransaction(emptyWorld, { transactionNumber: 1, transactionType: 10, kid: '12345674', amount: 500 }, { at: '2026-11-21T10:00:00.000Z' })
 * assert.deepStrictEqual(row, { transactionNumber: 1, kid: '12345674', amount: 500, outcome: 'unmatched' })
 * assert.strictEqual(world, emptyWorld)
 * const [, reversal] = receiveOcrTransaction(emptyWorld, { transactionNumber: 2, transactionType: 18, kid: '12345674', amount: 500 }, { at: '2026-11-21T10:00:00.000Z' })
 * assert.strictEqual(reversal.outcome, 'refused')
 */
export const receiveOcrTransaction = (
  world: World,
  transaction: Pick<OcrTransaction, 'transactionNumber' | 'transactionType' | 'kid' | 'amount'>,
  ctx: EventContext
): OcrTransactionReceived => {
  const r = rowOf(transaction)
  const head = { transactionNumber: r.transactionNumber, kid: r.kid, amount: r.amount }
  if (!PAYMENT_TYPES.includes(r.transactionType)) return [world, { ...head, outcome: 'refused', error: reversal }, [], []]
  const [next, result, sent, happened] = receiveTransferByKid(world, { kid: r.kid, amount: r.amount }, ctx)
  const row: OcrReportRow = E.isRight(result)
    ? { ...head, outcome: 'matched', paymentReferenceID: result.right.paymentReferenceID }
    : result.left.code === 'UnmatchedTransfer'
      ? { ...head, outcome: 'unmatched' }
      : { ...head, outcome: 'refused', error: result.left }
  return [next, row, sent, happened]
}

/**
 * Applies a transmission read by {@link parseOcrGiro} (docs/rules.md C14): every transaction, in
 * file order, through `receiveTransferByKid`, and a report of one row per transaction:
 * `matched` (with the `paymentReferenceID`), `unmatched` (no open invoice holds the KID: park the
 * money), `refused` (with the `error`: a KID or amount that is not valid — an amount of 0 or a
 * credit note's negative one —, a reversal (transaction types 18 and 20), or the invoice refused
 * it) or `duplicate`. A transmission is applied once, by its data sender and transmission number:
 * the world remembers it, and the same transmission again changes nothing and reports every row
 * `duplicate`. A second transfer in one file to an invoice the first one settled finds no open
 * invoice: `unmatched`. A context that is not valid refuses every row with `InvalidContext`, and
 * the transmission is not remembered (nothing of it was applied).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle, parseOcrGiro, receiveOcrGiro } from 'paysplit/http'
 * const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 * const made = kid.create('2026112100042', 'mod10')
 * assert.ok(E.isRight(made))
 * const body = {
 *   externalPaymentReferenceID: 'invoice-2001', environment: 'test', paymentGateway: 'invoice',
 *   sellerConnectedAccountID: seller, grossAmount: 10000, currency: 'NOK',
 *   customerExternalID: 'customer-42', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
 *   moneySplitList: [{ connectedAccountID: seller, amount: 10000, isFee: false }]
 * }
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id, kid: made.right })
 * const pad = (s: string): string => s.padEnd(80, '0')
 * const file = [
 *   pad('NY000010000080800170031000102'),
 *   pad('NY090020001008566000000299991042764'),
 *   'NY09103000000012111262620101464000000000000010000' + made.right.padStart(25, ' ') + '000000',
 *   pad('NY091031000000100000000000000000000000000211126000000000000'),
 *   pad('NY090088000000010000000400000000000010000211126211126211126'),
 *   pad('NY000089000000010000000600000000000010000211126')
 * ].join('\n')
 * const read = parseOcrGiro(file)
 * assert.ok(E.isRight(read))
 * const [after, report] = receiveOcrGiro(world, read.right, { at: '2026-11-21T11:00:00.000Z' })
 * assert.deepStrictEqual(report, [{ transactionNumber: 1, kid: made.right, amount: 10000, outcome: 'matched', paymentReferenceID: id }])
 * const [again, twice] = receiveOcrGiro(after, read.right, { at: '2026-11-21T12:00:00.000Z' })
 * assert.strictEqual(again, after)
 * assert.strictEqual(twice[0]?.outcome, 'duplicate')
 */
export const receiveOcrGiro = (world: World, transmission: OcrTransmission, ctx: EventContext): OcrReceived => {
  const rows = rowsOf(transmission)
  const refuseAll = (error: PaymentError): OcrReceived => [
    world,
    rows.map((r) => ({ transactionNumber: r.transactionNumber, kid: r.kid, amount: r.amount, outcome: 'refused', error })),
    [],
    []
  ]
  if (!isWorld(world)) return refuseAll(unreadable)
  const checked = checkContext(ctx, false)
  if (E.isLeft(checked)) return refuseAll(checked.left)
  const dataSender = own(transmission, 'dataSender')
  const transmissionNumber = own(transmission, 'transmissionNumber')
  if (typeof dataSender !== 'string' || typeof transmissionNumber !== 'string') {
    return refuseAll(validationError([issue(typeof dataSender !== 'string' ? 'dataSender' : 'transmissionNumber', 'type', { expected: 'string' })]))
  }
  const key = ocrTransmissionKey(dataSender, transmissionNumber)
  const applied = own(world, 'ocrTransmissions')
  if (applied instanceof Set && applied.has(key)) {
    return [world, rows.map((r) => ({ transactionNumber: r.transactionNumber, kid: r.kid, amount: r.amount, outcome: 'duplicate' })), [], []]
  }
  const context: EventContext = checked.right.catchAllUrl === undefined ? { at: checked.right.at } : { at: checked.right.at, catchAllUrl: checked.right.catchAllUrl }
  // Each transfer runs on the slice of the world it can touch — the open invoices holding its KID,
  // as a service loads it (docs/decisions.md "The world a service loads") — and the changed
  // payments are written into one new map at the end: linear in the file and the world, where
  // copying the whole world once per transfer would be quadratic. Same outcome, transfer by transfer.
  const open = openByKid(world)
  const changed = new Map<string, Payment>()
  const report: OcrReportRow[] = []
  const deliveries: Array<Deliveries[number]> = []
  const events: PaymentEvent[] = []
  for (const r of rows) {
    const keys = typeof r.kid === 'string' ? open.get(r.kid) : undefined
    const payments = new Map<string, Payment>()
    if (keys !== undefined) for (const k of keys) payments.set(k, changed.get(k) ?? (world.payments.get(k) as Payment))
    const slice: World = { ...world, payments }
    const [next, row, sent, happened] = receiveOcrTransaction(slice, r, context)
    if (next !== slice && keys !== undefined) {
      for (const k of [...keys]) {
        const after = next.payments.get(k)
        if (after === undefined || after === payments.get(k)) continue
        changed.set(k, after)
        // an invoice no longer Initiated holds its KID no more
        if (own(after, 'status') !== 'Initiated') keys.splice(keys.indexOf(k), 1)
      }
    }
    report.push(row)
    for (const d of sent) deliveries.push(d)
    for (const e of happened) events.push(e)
  }
  let payments = world.payments
  if (changed.size > 0) {
    const all = new Map(world.payments)
    for (const [k, p] of changed) all.set(k, p)
    payments = all
  }
  const remembered = new Set<string>(applied instanceof Set ? (applied as Set<string>) : [])
  remembered.add(key)
  return [{ ...world, payments, ocrTransmissions: remembered }, report, deliveries, events]
}
