/**
 * The OCR giro writer (docs/rules.md C14): a transmission as Nets writes it, the end records'
 * counts, totals and dates computed. Pure, and free of fast-check: a bank job of your own, a test
 * fixture or the kit's runner writes files with it; `parseOcrGiro` reads them back.
 *
 * @module bankFiles/ocrText
 */
import type { OcrTransaction, OcrTransmission } from './ocrGiro.js'

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
 * import { ocrGiroText } from 'paysplit/http'
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
    let earliest: string | undefined
    let latest: string | undefined
    for (const t of a.transactions) {
      for (const l of transactionLines(t)) lines.push(l)
      sum += t.amount
      if (earliest === undefined || t.netsDate < earliest) earliest = t.netsDate
      if (latest === undefined || t.netsDate > latest) latest = t.netsDate
    }
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
