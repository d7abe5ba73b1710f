/**
 * OCR giro files for property tests (docs/rules.md C14): an arbitrary of valid files with the
 * transmission `parseOcrGiro` must read from each (written by `ocrGiroText` of `paysplit/http`).
 * Pure: the only randomness is fast-check's.
 *
 * @module testing/ocr
 */
import fc from 'fast-check'
import type { OcrAssignment, OcrTransaction, OcrTransmission } from '../bankFiles/ocrGiro.js'
import { ocrGiroText } from '../bankFiles/ocrText.js'
import { kidArb } from './arbitraries.js'

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
