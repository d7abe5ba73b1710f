/**
 * camt.054 notifications for property tests (docs/rules.md C17): an arbitrary of valid documents,
 * each with the draft it was written from (`camt054Xml`) and the notification `parseCamt054` must
 * read from it. Pure: the only randomness is fast-check's.
 *
 * @module testing/camt054
 */
import fc from 'fast-check'
import { CAMT054_VERSIONS, type Camt054Notification, type Camt054Refusal, type Camt054Transaction, type Camt054Version } from '../bankFiles/camt054Model.js'
import {
  camt054Xml,
  type Camt054Draft,
  type Camt054DraftDetail,
  type Camt054DraftEntry,
  type Camt054DraftNotification
} from '../bankFiles/camt054Writer.js'
import { kidArb } from './arbitraries.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** How {@link camt054NotificationArb} shapes its documents. Every field has a default. */
export interface Camt054NotificationOptions {
  /** The KIDs of the transactions (default: valid MOD10 and MOD11 KIDs). */
  readonly kid?: fc.Arbitrary<string>
  /** The amounts in øre of transaction details and of entries without details (default 0–10,000,000). */
  readonly amount?: fc.Arbitrary<number>
  /** The versions written (default: every version read). */
  readonly versions?: ReadonlyArray<Camt054Version>
  /** At most this many account notifications (default 2; at least 1, at most 100). */
  readonly maxNotifications?: number
  /** At most this many entries per notification (default 4; at most 1000). */
  readonly maxEntries?: number
  /** At most this many transaction details per entry (default 4; at most 1000). */
  readonly maxDetails?: number
  /**
   * Also what is read but refused or skipped (default true): other currencies, more than two
   * decimals, several creditor references, debits inside credit batches, reversals, debit and
   * pending entries. `false`: booked NOK credits of two decimals, one KID or none per detail.
   */
  readonly refusals?: boolean
}

/** A valid camt.054 document, the draft it was written from and the notification `parseCamt054` reads from it. */
export interface Camt054File {
  readonly xml: string
  readonly draft: Camt054Draft
  readonly notification: Camt054Notification
}

// -------------------------------------------------------------------------------------
// what a draft holds
// -------------------------------------------------------------------------------------

const PREFIX = '/Document/BkToCstmrDbtCdtNtfctn'

/** Exact øre of an amount as written, or why there is none (as `parseCamt054` decides it). */
const oreOf = (currency: string, text: string, negative: boolean): { readonly amount: number; readonly refusal?: Camt054Refusal } => {
  if (currency !== 'NOK') return { amount: 0, refusal: 'currency' }
  const [whole = '0', fraction = ''] = text.split('.')
  if (/[1-9]/.test(fraction.slice(2))) return { amount: 0, refusal: 'decimals' }
  const ore = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'))
  return { amount: negative && ore !== 0 ? -ore : ore }
}

/** The notification `parseCamt054` reads from a draft: the transactions of its booked credit entries and booked reversals. */
const notificationOf = (draft: Camt054Draft): Camt054Notification => {
  const transactions: Camt054Transaction[] = []
  draft.notifications.forEach((n, ni) => {
    n.entries.forEach((e, ei) => {
      const reversal = e.reversal === true
      if ((e.status ?? 'BOOK') !== 'BOOK' || (e.creditDebit === 'DBIT' && !reversal)) return
      const entryPath = `${PREFIX}/Ntfctn[${String(ni + 1)}]/Ntry[${String(ei + 1)}]`
      const head = { account: n.account, entryReference: e.accountServicerReference ?? e.entryReference ?? '', bookingDate: e.bookingDate, reversal }
      if (e.details.length === 0) {
        const amount = e.amount ?? '0.00'
        const ore = oreOf(e.currency, amount, e.creditDebit === 'DBIT')
        const refusal = ore.refusal ?? (e.batch === true ? 'batch-without-details' : undefined)
        transactions.push({
          transactionNumber: transactions.length + 1,
          ...head,
          detailNumber: 0,
          creditorReferences: [],
          amount: ore.amount,
          currency: e.currency,
          decimalAmount: amount,
          ...(refusal !== undefined ? { refusal } : {}),
          path: entryPath
        })
        return
      }
      e.details.forEach((d, di) => {
        const refs = d.creditorReferences ?? []
        const kids = [...new Set(refs)]
        const ore = oreOf(e.currency, d.amount, (d.creditDebit ?? e.creditDebit) === 'DBIT')
        const refusal = ore.refusal ?? (kids.length > 1 ? 'creditor-references' : undefined)
        transactions.push({
          transactionNumber: transactions.length + 1,
          ...head,
          ...(d.transactionReference !== undefined ? { transactionReference: d.transactionReference } : {}),
          detailNumber: di + 1,
          ...(kids.length === 1 ? { kid: kids[0] } : {}),
          creditorReferences: refs,
          amount: ore.amount,
          currency: e.currency,
          decimalAmount: d.amount,
          ...(refusal !== undefined ? { refusal } : {}),
          path: `${entryPath}/NtryDtls[1]/TxDtls[${String(di + 1)}]`
        })
      })
    })
  })
  return { messageId: draft.messageId, createdAt: draft.createdAt, version: draft.version, transactions }
}

// -------------------------------------------------------------------------------------
// the arbitrary
// -------------------------------------------------------------------------------------

const chars = (alphabet: string, min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...alphabet.split('')), { minLength: min, maxLength: max }).map((c) => c.join(''))

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const DIGITS = '0123456789'

/** A reference of 1–35 characters, now and then with characters XML must escape. */
const referenceArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: chars(ALNUM + '-/', 1, 20) },
  { weight: 1, arbitrary: fc.constantFrom('A&B', '<ref>', 'Ø-1', 'x'.repeat(35)) }
)

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const two = (v: number): string => String(v).padStart(2, '0')

const dateArb: fc.Arbitrary<string> = fc
  .record({ year: fc.integer({ min: 1990, max: 2060 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .map(({ year, month, day }) => {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
    const max = month === 2 && leap ? 29 : (DAYS[month - 1] as number)
    return `${String(year)}-${two(month)}-${two(Math.min(day, max))}`
  })

const dateTimeArb: fc.Arbitrary<string> = fc
  .tuple(dateArb, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
  .map(([d, h, m, s]) => `${d}T${two(h)}:${two(m)}:${two(s)}`)

/** Øre written as a decimal of two places, and now and then a third (`'0'`: the same value; else more precise). */
const amountText = (ore: number, third: string): string => `${String(Math.floor(ore / 100))}.${two(ore % 100)}${third}`

type EntryKind = 'credit' | 'creditReversal' | 'debit' | 'debitReversal' | 'pending' | 'info'

/**
 * Valid camt.054 documents (docs/rules.md C17), each with its draft and the notification
 * `parseCamt054` must read from it: versions 001.02, 001.04 and 001.08; 1 to `maxNotifications`
 * account notifications of up to `maxEntries` entries — booked credits (as batches or not, with
 * up to `maxDetails` transaction details or none), and, unless `refusals` is false, reversals,
 * debit and pending entries, other currencies, amounts of more than two decimals, several
 * creditor references and debits inside credit batches; summaries now and then; references with
 * characters XML escapes.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import fc from 'fast-check'
 * import { parseCamt054 } from 'paysplit/camt054'
 * import { camt054NotificationArb } from 'paysplit/testing'
 * fc.assert(fc.property(camt054NotificationArb(), ({ xml, notification }) => {
 *   const read = parseCamt054(xml)
 *   assert.ok(E.isRight(read))
 *   assert.deepStrictEqual(read.right, notification)
 * }), { numRuns: 20 })
 */
export const camt054NotificationArb = (options: Camt054NotificationOptions = {}): fc.Arbitrary<Camt054File> => {
  // options that make no sense fall back to the defaults: the kit's helpers never throw
  const count = (v: unknown, fallback: number, min: number, max: number): number =>
    typeof v === 'number' && Number.isSafeInteger(v) && v >= min ? Math.min(v, max) : fallback
  const maxNotifications = count(options.maxNotifications, 2, 1, 100)
  const maxEntries = count(options.maxEntries, 4, 0, 1000)
  const maxDetails = count(options.maxDetails, 4, 0, 1000)
  const given = Array.isArray(options.versions) ? (options.versions as ReadonlyArray<Camt054Version>).filter((v) => CAMT054_VERSIONS.includes(v)) : []
  const versions = given.length > 0 ? given : CAMT054_VERSIONS
  const refusals = options.refusals !== false
  const kid = options.kid ?? kidArb
  const ore = options.amount ?? fc.integer({ min: 0, max: 10_000_000 })
  const third = refusals ? fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('0', '5') }) : fc.constant('')
  const kidsArb = refusals
    ? fc.oneof({ weight: 6, arbitrary: kid.map((k) => [k]) }, { weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.tuple(kid, kid).map(([a, b]) => [a, b]) }, { weight: 1, arbitrary: kid.map((k) => [k, k]) })
    : fc.oneof({ weight: 6, arbitrary: kid.map((k) => [k]) }, { weight: 1, arbitrary: fc.constant([]) })
  const detailArb = fc.record({
    transactionReference: fc.option(referenceArb, { nil: undefined, freq: 4 }),
    ore,
    third,
    debit: refusals ? fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) : fc.constant(false),
    creditorReferences: kidsArb
  })
  const kindArb: fc.Arbitrary<EntryKind> = refusals
    ? fc.oneof(
        { weight: 12, arbitrary: fc.constant('credit' as const) },
        { weight: 1, arbitrary: fc.constantFrom('creditReversal' as const, 'debitReversal' as const) },
        { weight: 2, arbitrary: fc.constant('debit' as const) },
        { weight: 1, arbitrary: fc.constantFrom('pending' as const, 'info' as const) }
      )
    : fc.constant('credit' as const)
  const entryArb = fc.record({
    kind: kindArb,
    accountServicerReference: fc.option(referenceArb, { nil: undefined, freq: 6 }),
    entryReference: fc.option(referenceArb, { nil: undefined, freq: 2 }),
    currency: refusals ? fc.oneof({ weight: 10, arbitrary: fc.constant('NOK') }, { weight: 1, arbitrary: fc.constantFrom('EUR', 'SEK') }) : fc.constant('NOK'),
    bookingDate: dateArb,
    batch: fc.boolean(),
    ore,
    third,
    details: fc.array(detailArb, { maxLength: maxDetails })
  })
  const notificationArb = fc.record({
    account: fc.oneof(chars(DIGITS, 13, 13).map((d) => ({ account: `NO${d}`, iban: true })), chars(DIGITS, 11, 11).map((d) => ({ account: d, iban: false }))),
    summary: fc.boolean(),
    entries: fc.array(entryArb, { maxLength: maxEntries })
  })
  return fc
    .record({
      version: fc.constantFrom(...versions),
      messageId: chars(ALNUM + '-', 1, 35),
      createdAt: dateTimeArb,
      notifications: fc.array(notificationArb, { minLength: 1, maxLength: maxNotifications })
    })
    .map(({ version, messageId, createdAt, notifications }): Camt054File => {
      const drafted: Camt054DraftNotification[] = notifications.map(({ account, summary, entries }) => ({
        ...account,
        summary,
        entries: entries.map((e): Camt054DraftEntry => {
          const creditDebit = e.kind === 'debit' || e.kind === 'debitReversal' ? 'DBIT' : 'CRDT'
          // a debit inside a credit batch: only where the version writes a detail's direction, and
          // only while the batch's net stays at 0 or above; more precise amounts only on credits
          let net = 0
          const details = e.details.map((d): Camt054DraftDetail => {
            const debit = d.debit && creditDebit === 'CRDT' && version !== 'camt.054.001.02' && net - d.ore >= 0
            net += debit ? -d.ore : d.ore
            return {
              ...(d.transactionReference !== undefined ? { transactionReference: d.transactionReference } : {}),
              amount: amountText(d.ore, debit || creditDebit === 'DBIT' ? '' : d.third),
              ...(debit ? { creditDebit: 'DBIT' as const } : {}),
              creditorReferences: d.creditorReferences
            }
          })
          return {
            ...(e.accountServicerReference !== undefined ? { accountServicerReference: e.accountServicerReference } : {}),
            ...(e.entryReference !== undefined ? { entryReference: e.entryReference } : {}),
            currency: e.currency,
            creditDebit,
            ...(e.kind === 'creditReversal' || e.kind === 'debitReversal' ? { reversal: true } : {}),
            ...(e.kind === 'pending' ? { status: 'PDNG' as const } : e.kind === 'info' ? { status: 'INFO' as const } : {}),
            bookingDate: e.bookingDate,
            ...(details.length === 0 ? { amount: amountText(e.ore, creditDebit === 'DBIT' ? '' : e.third) } : {}),
            ...(e.batch ? { batch: true } : {}),
            details
          }
        })
      }))
      const draft: Camt054Draft = { version, messageId, createdAt, notifications: drafted }
      return { xml: camt054Xml(draft), draft, notification: notificationOf(draft) }
    })
}
