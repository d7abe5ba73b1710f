/**
 * OCR giro files for property tests (docs/rules.md C14): a writer of a transmission as Nets
 * writes it, and an arbitrary of valid files with the transmission `parseOcrGiro` must read from
 * each. Pure: the only randomness is fast-check's.
 *
 * @module testing/ocr
 */
import fc from 'fast-check'
import type { OcrAssignment, OcrTransaction, OcrTransmission } from '../bankFiles/ocrGiro.js'
import { kidArb } from './arbitraries.js'

// -------------------------------------------------------------------------------------
// the writer
// -------------------------------------------------------------------------------------

/** How {@link ocrGiroText} ends lines. */
export interface OcrTextOptions {
  /** `'\n'` (the default) or `'\r\n'`. */
  readonly lineEnd?: '\n' | '\r\n'
  /** A line end after the last record too (default `true`). */
  readonly finalLineEnd?: boolean
}

const zeros = (n: number): string => '0'.repeat(n)
const num = (v: number, width: number): string => String(v).padStart(width, '0')
/** `YYYY-MM-DD` as `DDMMYY`. */
const ddmmyy = (iso: string | undefined): string =>
  iso === undefined ? '000000' : `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(2, 4)}`

const transactionLines = (t: OcrTransaction): string[] => {
  const type = num(t.transactionType, 2)
  const number = num(t.transactionNumber, 7)
  const lines = [
    `NY09${type}30${number}${ddmmyy(t.netsDate)}${t.centreId}${num(t.dayCode, 2)}${num(t.partialSettlementNumber, 1)}` +
      `${t.partialSettlementSerialNumber}${t.amount < 0 ? '-' : '0'}${num(Math.abs(t.amount), 17)}${t.kid.padStart(25, ' ')}` +
      `${t.cardDrawer}${zeros(4)}`,
    `NY09${type}31${number}${t.formNumber}${t.archiveReference}${t.reserved}${ddmmyy(t.bankDate)}${t.debitAccount}${zeros(22)}`
  ]
  if (t.transactionType === 20 || t.transactionType === 21) {
    lines.push(`NY09${type}32${number}${(t.freeText ?? '').padEnd(40, ' ')}${zeros(25)}`)
  }
  return lines
}

const earliestAndLatest = (a: OcrAssignment): readonly [string | undefined, string | undefined] => {
  let earliest: string | undefined
  let latest: string | undefined
  for (const t of a.transactions) {
    if (earliest === undefined || t.netsDate < earliest) earliest = t.netsDate
    if (latest === undefined || t.netsDate > latest) latest = t.netsDate
  }
  return [earliest, latest]
}

/**
 * Writes a transmission as an OCR giro file, as Nets writes it: 80-character records, the end
 * records' counts, totals (the net sum: credit notes deducted) and dates computed from the
 * transactions. Its `line` fields are not read (the lines follow from the layout). A total below 0
 * cannot be written (the field has no sign): such a file is refused by `parseOcrGiro`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { parseOcrGiro } from 'paysplit/http'
 * import { ocrGiroText } from 'paysplit/testing'
 * const text = ocrGiroText({ transmissionNumber: '0000001', dataSender: '00008080', dataRecipient: '00010200', netsDate: '2026-11-21', assignments: [] })
 * assert.strictEqual(text.split('\n')[0]?.length, 80)
 * assert.ok(E.isRight(parseOcrGiro(text)))
 */
export const ocrGiroText = (transmission: OcrTransmission, options: OcrTextOptions = {}): string => {
  const lines: string[] = [
    `NY000010${transmission.dataSender}${transmission.transmissionNumber}${transmission.dataRecipient}${zeros(49)}`
  ]
  let transactions = 0
  let total = 0
  for (const a of transmission.assignments) {
    const first = lines.length
    lines.push(`NY090020${a.agreementId}${a.assignmentNumber}${a.account}${zeros(45)}`)
    let sum = 0
    for (const t of a.transactions) {
      for (const l of transactionLines(t)) lines.push(l)
      sum += t.amount
    }
    const [earliest, latest] = earliestAndLatest(a)
    const records = lines.length - first + 1
    lines.push(
      `NY090088${num(a.transactions.length, 8)}${num(records, 8)}${num(sum, 17)}${ddmmyy(a.netsDate)}${ddmmyy(earliest)}${ddmmyy(latest)}${zeros(21)}`
    )
    transactions += a.transactions.length
    total += sum
  }
  lines.push(`NY000089${num(transactions, 8)}${num(lines.length + 1, 8)}${num(total, 17)}${ddmmyy(transmission.netsDate)}${zeros(33)}`)
  const end = options.lineEnd ?? '\n'
  return lines.join(end) + (options.finalLineEnd === false ? '' : end)
}

// -------------------------------------------------------------------------------------
// the arbitrary
// -------------------------------------------------------------------------------------

/** How {@link ocrGiroFileArb} shapes its files. Every field has a default. */
export interface OcrGiroFileOptions {
  /** The KIDs of the transactions (default: valid MOD10 and MOD11 KIDs). */
  readonly kid?: fc.Arbitrary<string>
  /** The amounts in øre (default 1–10,000,000; a negative one is a credit note, written with the `-` sign). */
  readonly amount?: fc.Arbitrary<number>
  /** The transaction types (default: every type, 10–21). */
  readonly transactionTypes?: ReadonlyArray<number>
  /** At most this many assignments (default 3; at least 1, at most 1000). */
  readonly maxAssignments?: number
  /** At most this many transactions per assignment (default 10; at most 1000). */
  readonly maxTransactions?: number
}

/** A valid OCR giro file and the transmission `parseOcrGiro` reads from it. */
export interface OcrGiroFile {
  readonly text: string
  readonly transmission: OcrTransmission
}

const digits = (n: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), { minLength: n, maxLength: n }).map((d) => d.join(''))

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** A date the two-digit years of the format can carry: 1969–2068. */
const dateArb: fc.Arbitrary<string> = fc
  .record({ year: fc.integer({ min: 1969, max: 2068 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .map(({ year, month, day }) => {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
    const max = month === 2 && leap ? 29 : (DAYS[month - 1] as number)
    return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(day, max)).padStart(2, '0')}`
  })

/** Printable ASCII without trailing blanks (the parser removes them). */
const freeTextArb: fc.Arbitrary<string> = fc
  .array(fc.integer({ min: 32, max: 126 }), { maxLength: 40 })
  .map((codes) => String.fromCharCode(...codes).trimEnd())

type Draft = Omit<OcrTransaction, 'transactionNumber' | 'line'> & { readonly step: number }

/**
 * Valid OCR giro files (docs/rules.md C14): one transmission of 1 to `maxAssignments`
 * assignments of 0 to `maxTransactions` transactions, every type (items 3 for types 20 and 21),
 * blank-padded KIDs, credit notes when `amount` gives negative amounts (as long as an assignment's
 * net total stays at 0 or above; never on a reversal), `\n` or `\r\n` line ends, with or
 * without a final line end; each with the transmission `parseOcrGiro` must read.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import fc from 'fast-check'
 * import { parseOcrGiro } from 'paysplit/http'
 * import { ocrGiroFileArb } from 'paysplit/testing'
 * fc.assert(fc.property(ocrGiroFileArb(), ({ text, transmission }) => {
 *   const read = parseOcrGiro(text)
 *   assert.ok(E.isRight(read))
 *   assert.deepStrictEqual(read.right, transmission)
 * }), { numRuns: 20 })
 */
export const ocrGiroFileArb = (options: OcrGiroFileOptions = {}): fc.Arbitrary<OcrGiroFile> => {
  // options that make no sense fall back to the defaults: the kit's helpers never throw
  const given: number[] = Array.isArray(options.transactionTypes) ? (options.transactionTypes as ReadonlyArray<number>).filter((t) => Number.isInteger(t) && t >= 10 && t <= 21) : []
  const types = given.length > 0 ? given : [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]
  const count = (v: unknown, fallback: number, min: number): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= min ? Math.min(v, 1000) : fallback)
  const maxTransactions = count(options.maxTransactions, 10, 0)
  const maxAssignments = count(options.maxAssignments, 3, 1)
  const draftArb: fc.Arbitrary<Draft> = fc
    .record({
      step: fc.integer({ min: 1, max: 3 }),
      transactionType: fc.constantFrom(...types),
      kid: options.kid ?? kidArb,
      amount: options.amount ?? fc.integer({ min: 1, max: 10_000_000 }),
      netsDate: dateArb,
      centreId: digits(2),
      dayCode: fc.integer({ min: 1, max: 31 }),
      partialSettlementNumber: fc.integer({ min: 0, max: 9 }),
      partialSettlementSerialNumber: digits(5),
      cardDrawer: fc.oneof({ weight: 4, arbitrary: fc.constant('00') }, { weight: 1, arbitrary: digits(2) }),
      formNumber: digits(10),
      archiveReference: digits(9),
      reserved: fc.oneof({ weight: 3, arbitrary: fc.constant('0000000') }, { weight: 1, arbitrary: digits(7) }),
      bankDate: fc.option(dateArb, { nil: undefined }),
      debitAccount: digits(11),
      freeText: freeTextArb
    })
    .map((d) => {
      const { bankDate, freeText, ...rest } = d
      // a credit note of 0 øre cannot be written (the sign needs an amount); a reversal carries no sign
      const amount = Object.is(rest.amount, -0) || (rest.amount < 0 && (rest.transactionType === 18 || rest.transactionType === 20)) ? Math.abs(rest.amount) : rest.amount
      return {
        ...rest,
        amount,
        ...(bankDate !== undefined ? { bankDate } : {}),
        ...(rest.transactionType === 20 || rest.transactionType === 21 ? { freeText } : {})
      }
    })
  const assignmentArb = fc.record({
    step: fc.integer({ min: 1, max: 3 }),
    agreementId: digits(9),
    account: digits(11),
    netsDate: dateArb,
    drafts: fc.array(draftArb, { maxLength: maxTransactions })
  })
  return fc
    .record({
      transmissionNumber: digits(7),
      dataSender: fc.oneof({ weight: 3, arbitrary: fc.constant('00008080') }, { weight: 1, arbitrary: digits(8) }),
      dataRecipient: digits(8),
      netsDate: dateArb,
      assignments: fc.array(assignmentArb, { minLength: 1, maxLength: maxAssignments }),
      lineEnd: fc.constantFrom('\n' as const, '\r\n' as const),
      finalLineEnd: fc.boolean()
    })
    .map(({ lineEnd, finalLineEnd, assignments, ...head }) => {
      let line = 2
      let assignmentNumber = 0
      const built: OcrAssignment[] = assignments.map((a) => {
        assignmentNumber += a.step
        const start = line
        let number = 0
        let net = 0
        line = start + 1
        const transactions = a.drafts.map(({ step, ...d }): OcrTransaction => {
          number += step
          // a credit note that would take the assignment's net total below 0 is written as a payment
          const amount = net + d.amount < 0 ? -d.amount : d.amount
          net += amount
          const t = { ...d, amount, transactionNumber: number, line }
          line += d.transactionType === 20 || d.transactionType === 21 ? 3 : 2
          return t
        })
        line += 1 // the assignment's end record
        return {
          assignmentNumber: String(assignmentNumber).padStart(7, '0'),
          agreementId: a.agreementId,
          account: a.account,
          netsDate: a.netsDate,
          transactions
        }
      })
      const transmission: OcrTransmission = { ...head, assignments: built }
      return { text: ocrGiroText(transmission, { lineEnd, finalLineEnd }), transmission }
    })
}
