/**
 * C14, as properties over the kit's arbitrary of valid OCR giro files: every file reads as its
 * transmission; one character edited is refused or changes exactly the field it touches; a file
 * applied is its transfers applied one by one through receiveTransferByKid; a file twice applies once.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  parseOcrGiro,
  receiveOcrGiro,
  receiveTransferByKid,
  type Deliveries,
  type OcrReportRow,
  type OcrTransmission,
  type World
} from '../../src/http.js'
import { ocrGiroFileArb } from '../../src/testing.js'
import type { PaymentEvent } from '../../src/events.js'
import { changedPaths, kidOf, worldWith } from '../support/bank.fixtures.js'
import { CATCH_ALL, atOf } from '../support/http.fixtures.js'

// -------------------------------------------------------------------------------------
// fields by position
// -------------------------------------------------------------------------------------

type Span = readonly [from: number, to: number, field: string]

/** The fields of each record type the transmission holds, by their positions (0-based, end excluded). */
const FIELDS: Readonly<Record<string, ReadonlyArray<Span>>> = {
  '10': [[8, 16, 'dataSender'], [16, 23, 'transmissionNumber'], [23, 31, 'dataRecipient']],
  '20': [[8, 17, 'agreementId'], [17, 24, 'assignmentNumber'], [24, 35, 'account']],
  '30': [
    [4, 6, 'transactionType'], [8, 15, 'transactionNumber'], [15, 21, 'netsDate'], [21, 23, 'centreId'], [23, 25, 'dayCode'],
    [25, 26, 'partialSettlementNumber'], [26, 31, 'partialSettlementSerialNumber'], [31, 49, 'amount'], [49, 74, 'kid'], [74, 76, 'cardDrawer']
  ],
  '31': [[4, 6, 'transactionType'], [8, 15, 'transactionNumber'], [15, 25, 'formNumber'], [25, 34, 'archiveReference'], [34, 41, 'reserved'], [41, 47, 'bankDate'], [47, 58, 'debitAccount']],
  '32': [[4, 6, 'transactionType'], [8, 15, 'transactionNumber'], [15, 55, 'freeText']],
  '88': [[41, 47, 'netsDate']],
  '89': [[41, 47, 'netsDate']]
}

/** The path in the transmission of the field at `column` of line `index` (0-based), or undefined (no field: a code, count, total, filler). */
const fieldAt = (lines: ReadonlyArray<string>, index: number, column: number): string | undefined => {
  let assignment = -1
  let transaction = -1
  for (let i = 0; i <= index; i++) {
    const type = lines[i]!.slice(6, 8)
    if (type === '20') {
      assignment++
      transaction = -1
    } else if (type === '30') transaction++
  }
  const type = lines[index]!.slice(6, 8)
  const span = (FIELDS[type] ?? []).find(([from, to]) => column >= from && column < to)
  if (span === undefined) return undefined
  if (type === '10' || type === '89') return span[2]
  if (type === '20' || type === '88') return `assignments.${assignment}.${span[2]}`
  return `assignments.${assignment}.transactions.${transaction}.${span[2]}`
}

const CHARS = ['0', '1', '5', '9', ' ', '-', 'A', 'z', '\n', '\r', '\t', 'Ø']

describe('C14: parseOcrGiro over the kit\'s files', () => {
  it('C14 every valid file reads as its transmission (\\n or \\r\\n, with or without a final line end)', () => {
    fc.assert(
      fc.property(ocrGiroFileArb({ amount: fc.integer({ min: -1_000_000, max: 1_000_000_000 }).filter((n) => n !== 0) }), ({ text, transmission }) => {
        const read = parseOcrGiro(text)
        expect(read).toStrictEqual(E.right(transmission))
      })
    )
  })

  it('C14 one character of a valid file edited: refused, or exactly the field it touches changed', () => {
    fc.assert(
      fc.property(
        ocrGiroFileArb({ maxAssignments: 2, maxTransactions: 4 }),
        fc.nat(),
        fc.constantFrom(...CHARS),
        ({ text, transmission }, where, char) => {
          const at = where % text.length
          fc.pre(text[at] !== char)
          const edited = text.slice(0, at) + char + text.slice(at + 1)
          const read = parseOcrGiro(edited)
          if (E.isLeft(read)) {
            // refused: with the line of the edit (or the end records its counts and totals break)
            expect(read.left.code).toBe('ValidationFailed')
            expect(read.left.issues?.every((i) => /^line\.\d+$/.test(i.path) && i.reason === 'format')).toBe(true)
            return
          }
          const lines = text.split(/\r?\n/)
          const before = text.slice(0, at)
          const index = before.split('\n').length - 1
          const column = at - (before.lastIndexOf('\n') + 1)
          const field = fieldAt(lines, index, column)
          const changed = changedPaths(transmission, read.right)
          expect(field).toBeDefined()
          expect(changed).toStrictEqual([field])
        }
      ),
      { numRuns: 1000 }
    )
  })
})

// -------------------------------------------------------------------------------------
// applying
// -------------------------------------------------------------------------------------

const INVOICES = 4
const filesOfTransfers = ocrGiroFileArb({
  kid: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: INVOICES + 2 }).map(kidOf) }, { weight: 1, arbitrary: fc.constantFrom('', '12345678', '0000531') }),
  amount: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 7000 }) }, { weight: 1, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -500, max: -1 }) }),
  maxAssignments: 2,
  maxTransactions: 6
})

const REVERSALS = [18, 20]

/** The transmission's transfers applied one by one through receiveTransferByKid, reversals refused. */
const oneByOne = (world: World, t: OcrTransmission): [World, Array<string>, Deliveries, ReadonlyArray<PaymentEvent>] => {
  let w = world
  const outcomes: string[] = []
  const deliveries: Array<Deliveries[number]> = []
  const events: PaymentEvent[] = []
  for (const a of t.assignments) {
    for (const x of a.transactions) {
      if (REVERSALS.includes(x.transactionType)) {
        outcomes.push('refused')
        continue
      }
      const { world: next, result, deliveries: sent, events: happened } = receiveTransferByKid(w, { kid: x.kid, amount: x.amount }, { at: atOf(50), catchAllUrl: CATCH_ALL })
      w = next
      deliveries.push(...sent)
      events.push(...happened)
      outcomes.push(E.isRight(result) ? `matched ${result.right.paymentReferenceID}` : result.left.code === 'UnmatchedTransfer' ? 'unmatched' : 'refused')
    }
  }
  return [w, outcomes, deliveries, events]
}

const outcomeOf = (r: OcrReportRow): string => (r.outcome === 'matched' ? `matched ${r.paymentReferenceID}` : r.outcome)

describe('C14: receiveOcrGiro over the kit\'s files', () => {
  const base = worldWith(INVOICES)

  it('C14 a file of random transfers applied = the same transfers applied one by one through receiveTransferByKid', () => {
    fc.assert(
      fc.property(filesOfTransfers, ({ text }) => {
        const read = parseOcrGiro(text)
        if (E.isLeft(read)) throw new Error('the kit wrote a file paysplit refuses')
        const { world, report, deliveries, events } = receiveOcrGiro(base, read.right, { at: atOf(50), catchAllUrl: CATCH_ALL })
        const [expected, outcomes, expectedDeliveries, expectedEvents] = oneByOne(base, read.right)
        expect(world.payments).toStrictEqual(expected.payments)
        expect(world.customers).toBe(base.customers)
        expect(report.map(outcomeOf)).toStrictEqual(outcomes)
        expect(report.map((r) => [r.transactionNumber, r.kid, r.amount])).toStrictEqual(
          read.right.assignments.flatMap((a) => a.transactions.map((x) => [x.transactionNumber, x.kid, x.amount]))
        )
        expect(deliveries).toStrictEqual(expectedDeliveries)
        expect(events).toStrictEqual(expectedEvents)
      })
    )
  })

  it('C14 the same file twice applies once: the world as after the first, every row duplicate, nothing sent', () => {
    fc.assert(
      fc.property(filesOfTransfers, ({ text }) => {
        const first = parseOcrGiro(text)
        const second = parseOcrGiro(text)
        if (E.isLeft(first) || E.isLeft(second)) throw new Error('the kit wrote a file paysplit refuses')
        const { world: once } = receiveOcrGiro(base, first.right, { at: atOf(50) })
        const { world: twice, report, deliveries, events } = receiveOcrGiro(once, second.right, { at: atOf(51) })
        expect(twice).toBe(once)
        expect(report.every((r) => r.outcome === 'duplicate')).toBe(true)
        expect(report).toHaveLength(first.right.assignments.reduce((n, a) => n + a.transactions.length, 0))
        expect([deliveries, events]).toStrictEqual([[], []])
      })
    )
  })
})
