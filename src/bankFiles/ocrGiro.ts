/**
 * Bank files (docs/rules.md C14): Nets' OCR giro files, read purely and checked whole. Applying
 * the transmission one holds: `ocrReceive.ts`.
 *
 * @module ocr
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { issue, validationError } from '../errors.js'
import { fail, type Issues } from '../codecs/fields.js'
import { daysInMonth } from '../codecs/validators.js'

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
  readonly issues: Issues
}

const report = (c: Collector, line: number, rule: OcrRule, field?: string): void => {
  const params: Record<string, string> = { format: 'OCR giro record', rule }
  if (field !== undefined) params.field = field
  // past 100 issues only counted, as every list of issues
  fail(c.issues, `line.${line}`, 'format', params)
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

/**
 * A `DDMMYY` date as `YYYY-MM-DD`: years 69–99 are 1969–1999, 00–68 are 2000–2068 (the POSIX
 * pivot, docs/decisions.md "OCR giro files"). `null` for `000000`, `undefined` for anything else
 * that is not a calendar date.
 */
const dateOf = (s: string, from: number): string | null | undefined => {
  if (!allDigits(s, from, 6)) return undefined
  if (allZeros(s, from, 6)) return null
  const dd = s.slice(from, from + 2)
  const mm = s.slice(from + 2, from + 4)
  const day = Number(dd)
  const month = Number(mm)
  const yy = Number(s.slice(from + 4, from + 6))
  const year = yy < 69 ? 2000 + yy : 1900 + yy
  if (month < 1 || month > 12 || day < 1) return undefined
  if (day > 28 && day > daysInMonth(year, month)) return undefined
  return `${year}-${mm}-${dd}`
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

/**
 * The record's head: `NY`, the service code it must have; for a start or end record (`field` names
 * its type code) also the type code `00`.
 */
const head = (c: Collector, s: string, n: number, service: '00' | '09', field?: string): void => {
  if (s.charCodeAt(0) !== 78 || s.charCodeAt(1) !== 89) report(c, n, 'format-code')
  if (s.slice(2, 4) !== service) report(c, n, 'service-code')
  if (field !== undefined && s.slice(4, 6) !== '00') report(c, n, 'type-code', field)
}

/**
 * The totals of an end record (an assignment's or the transmission's): the number of
 * transactions, of records and the total amount, each checked against what was counted, and the
 * record's NETS date (returned; `undefined` when it is not one). The filler from `fill`.
 */
const totals = (c: Collector, s: string, n: number, fill: number, transactions: number, records: number, total: number): string | undefined => {
  const count = numberOf(c, s, n, 8, 8, 'numberOfTransactions')
  const recordCount = numberOf(c, s, n, 16, 8, 'numberOfRecords')
  const sum = numberOf(c, s, n, 24, 17, 'totalAmount')
  const made = requiredDate(c, s, n, 41, 'netsDate')
  filler(c, s, n, fill)
  if (count !== undefined && count !== transactions) report(c, n, 'transaction-count', 'numberOfTransactions')
  if (recordCount !== undefined && recordCount !== records) report(c, n, 'record-count', 'numberOfRecords')
  if (sum !== undefined && sum !== total) report(c, n, 'total-amount', 'totalAmount')
  return made
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
}

interface PendingAssignment {
  assignmentNumber: string | undefined
  agreementId: string | undefined
  account: string | undefined
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

/** An amount item after the first: counted, its head checked, its type and number the transaction's it continues. */
const continueItem = (c: Collector, s: string, n: number, assignment: PendingAssignment, t: PendingTransaction): void => {
  assignment.records++
  head(c, s, n, '09')
  const type = numberOf(c, s, n, 4, 2, 'transactionType')
  if (type !== undefined && type !== t.transactionType) report(c, n, 'transaction-type', 'transactionType')
  const number = numberOf(c, s, n, 8, 7, 'transactionNumber')
  if (number !== undefined && number !== t.transactionNumber) report(c, n, 'transaction-number', 'transactionNumber')
}

type State = 'start' | 'transmission' | 'assignment' | 'item1' | 'item2' | 'done'

/**
 * Reads an OCR giro file (Nets' format of KID payments, docs/rules.md C14) and checks it whole:
 * every line 80 characters, every record type, field and filler the format defines, the order
 * of the records (transmission start, assignments of transactions of amount items 1, 2 and — for
 * types 20 and 21 — 3, transmission end), and the counts, totals and dates of the end records (a
 * total is the net sum of its amounts: a credit note, signed `-`, is deducted; a reversal, types 18
 * and 20, carries no sign and is added as it is). A broken file is `Left` `ValidationFailed`, its
 * issues at `line.<n>` (counted from 1), reason `format`, `params.rule` naming the rule broken and
 * `params.field` the field; at most 100 issues, no value of the file quoted. `\n` and `\r\n` line
 * ends are both read; one line end after the last record is allowed, a blank line anywhere is not a
 * record and is refused; a UTF-8 byte order mark before the first record is skipped.
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
  // a UTF-8 byte order mark before the first record is no part of it (docs/decisions.md "OCR giro files")
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let pos = start
  const length = text.length

  const closeTransaction = (a: PendingAssignment): void => {
    const t = a.current
    a.current = undefined
    // Every field a transaction lacks (a field that is not one, an item that never came) was
    // reported where it was missed: the file is then refused and its transactions never seen, so
    // a transaction is kept only while nothing has been reported, and is then whole.
    if (t === undefined || c.issues.length > 0) return
    const done = {
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
    } as OcrTransaction
    a.transactions.push(done)
  }

  if (length === start) report(c, 1, 'empty')
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
        head(c, s, n, '00', 'transmissionType')
        dataSender = digitsOf(c, s, n, 8, 8, 'dataSender')
        transmissionNumber = digitsOf(c, s, n, 16, 7, 'transmissionNumber')
        dataRecipient = digitsOf(c, s, n, 23, 8, 'dataRecipient')
        filler(c, s, n, 31)
        state = 'transmission'
        break
      }
      case '20': {
        // an assignment still open here (no end record) was reported, as at the end record
        if (state !== 'transmission') report(c, n, 'record-order')
        head(c, s, n, '09', 'assignmentType')
        const agreementId = digitsOf(c, s, n, 8, 9, 'agreementId')
        const assignmentNumber = digitsOf(c, s, n, 17, 7, 'assignmentNumber')
        const account = digitsOf(c, s, n, 24, 11, 'account')
        filler(c, s, n, 35)
        if (assignmentNumber !== undefined) {
          const v = Number(assignmentNumber)
          if (v <= lastAssignmentNumber) report(c, n, 'assignment-number', 'assignmentNumber')
          lastAssignmentNumber = v
        }
        // a field that is not one (undefined) was reported: the file is refused, the assignment never kept
        assignment = { assignmentNumber, agreementId, account, transactions: [], records: 1, total: 0, lastTransactionNumber: 0, itemsOne: 0 }
        state = 'assignment'
        break
      }
      case '30': {
        if (state !== 'assignment') report(c, n, 'record-order')
        if (assignment === undefined) {
          state = 'item1'
          break
        }
        closeTransaction(assignment)
        assignment.records++
        assignment.itemsOne++
        transactions++
        const t: PendingTransaction = { line: n }
        assignment.current = t
        head(c, s, n, '09')
        const type = numberOf(c, s, n, 4, 2, 'transactionType')
        if (type !== undefined && (type < 10 || type > 21)) report(c, n, 'type-code', 'transactionType')
        else t.transactionType = type
        const number = numberOf(c, s, n, 8, 7, 'transactionNumber')
        if (number !== undefined && number <= assignment.lastTransactionNumber) report(c, n, 'transaction-number', 'transactionNumber')
        else if (number !== undefined) assignment.lastTransactionNumber = t.transactionNumber = number
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
        // `0` or `-`; `-` marks a credit note: never on 0, never on a reversal (types 18 and 20 carry no sign)
        if (sign !== ZERO && (sign !== 45 || amount === 0 || type === 18 || type === 20)) report(c, n, 'sign', 'sign')
        else if (amount !== undefined) {
          t.amount = sign === 45 ? -amount : amount
          // the end records' totals are the net sum: credit notes deducted, reversals added as they are
          assignment.total += t.amount
          total += t.amount
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
        // after item 2, a third item is due only for the transaction types that have one
        state = t?.transactionType === 20 || t?.transactionType === 21 ? 'item2' : 'assignment'
        if (assignment === undefined || t === undefined) break
        continueItem(c, s, n, assignment, t)
        t.formNumber = digitsOf(c, s, n, 15, 10, 'formNumber')
        t.archiveReference = digitsOf(c, s, n, 25, 9, 'archiveReference')
        t.reserved = digitsOf(c, s, n, 34, 7, 'reserved')
        const bank = dateOf(s, 41)
        if (bank === undefined) report(c, n, 'date', 'bankDate')
        else if (bank !== null) t.bankDate = bank
        t.debitAccount = digitsOf(c, s, n, 47, 11, 'debitAccount')
        filler(c, s, n, 58)
        break
      }
      case '32': {
        const t = assignment?.current
        if (state !== 'item2') report(c, n, 'record-order')
        if (assignment === undefined || t === undefined) {
          state = 'assignment'
          break
        }
        continueItem(c, s, n, assignment, t)
        t.freeText = textOf(c, s, n, 15, 40)
        filler(c, s, n, 55)
        // a third item closes the transaction
        state = 'assignment'
        break
      }
      case '88': {
        if (state !== 'assignment') report(c, n, 'record-order')
        state = 'transmission'
        if (assignment === undefined) break
        closeTransaction(assignment)
        assignment.records++
        const a = assignment
        assignment = undefined
        head(c, s, n, '09', 'assignmentType')
        const made = totals(c, s, n, 59, a.itemsOne, a.records, a.total)
        const earliest = dateOf(s, 47)
        const latest = dateOf(s, 53)
        if (earliest === undefined || (a.earliest === undefined ? earliest !== null : earliest !== a.earliest)) {
          report(c, n, 'earliest-date', 'earliestNetsDate')
        }
        if (latest === undefined || (a.latest === undefined ? latest !== null : latest !== a.latest)) {
          report(c, n, 'latest-date', 'latestNetsDate')
        }
        // as a transaction: a field it lacks was reported, and the file refused
        if (c.issues.length === 0) {
          assignments.push({
            assignmentNumber: a.assignmentNumber,
            agreementId: a.agreementId,
            account: a.account,
            netsDate: made,
            transactions: a.transactions
          } as OcrAssignment)
        }
        break
      }
      case '89': {
        // an assignment still open here (no end record) was reported (record-order, now or at a
        // misplaced start record): the file is refused, its transactions never kept
        if (state !== 'transmission') report(c, n, 'record-order')
        head(c, s, n, '00', 'transmissionType')
        netsDate = totals(c, s, n, 47, transactions, records, total)
        state = 'done'
        break
      }
      default:
        report(c, n, 'record-type')
    }
  }
  if (state !== 'done' && length > start) report(c, lineNumber + 1, 'truncated')
  if (!Number.isSafeInteger(total)) report(c, lineNumber, 'amount-range', 'totalAmount')
  // with nothing reported, the file had its start record and its end record, each whole
  if (c.issues.length > 0) return E.left(validationError(c.issues))
  return E.right({ transmissionNumber, dataSender, dataRecipient, netsDate, assignments } as OcrTransmission)
}
