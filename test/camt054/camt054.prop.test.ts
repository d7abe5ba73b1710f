/**
 * C17, as properties over the kit's camt.054 notifications: every generated document reads as
 * what it holds; one element edited is refused or changes exactly what it touches; the same
 * transfers written as an OCR giro file and as a camt.054 notification give the same world,
 * report and equivalent changes; the same transactions sent again in another notification change nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import { ocrGiroText, parseOcrGiro, receiveOcrGiro, type OcrTransmission } from '../../src/http.js'
import { camt054Xml, parseCamt054, receiveCamt054, type Camt054Draft, type Camt054Notification } from '../../src/camt054.js'
import { camt054NotificationArb } from '../../src/testing.js'
import { changedPaths, kidOf, worldWith } from '../support/bank.fixtures.js'
import { CATCH_ALL, atOf } from '../support/http.fixtures.js'
import { transmissionOf } from '../support/ocr.fixtures.js'

describe('C17: parseCamt054 over the kit\'s notifications', () => {
  it('C17 every generated notification reads as what it holds (001.02, 001.04, 001.08)', () => {
    fc.assert(
      fc.property(camt054NotificationArb(), ({ xml, notification }) => {
        expect(parseCamt054(xml)).toStrictEqual(E.right(notification))
      })
    )
  })
})

// -------------------------------------------------------------------------------------
// one element edited
// -------------------------------------------------------------------------------------

/** A text of the document: the element it is in, the positions of that element, where it starts. */
interface Leaf {
  readonly names: ReadonlyArray<string>
  readonly notification: number
  readonly entry: number
  readonly detail: number
  readonly start: number
  readonly length: number
}

/** The texts of a document the kit wrote (no whitespace between elements), in order, read with saxes. */
const leavesOf = (xml: string): ReadonlyArray<Leaf> => {
  const names: string[] = []
  const texts: Array<Omit<Leaf, 'start' | 'length'>> = []
  let notification = 0
  let entry = 0
  let detail = 0
  const parser = new SaxesParser({ xmlns: true })
  parser.on('opentag', (t) => {
    names.push(t.local)
    if (t.local === 'Ntfctn') {
      notification++
      entry = 0
    } else if (t.local === 'Ntry') {
      entry++
      detail = 0
    } else if (t.local === 'TxDtls') detail++
  })
  parser.on('closetag', () => names.pop())
  parser.on('text', () => {
    if (names.length > 0) texts.push({ names: [...names], notification, entry, detail })
  })
  parser.write(xml).close()
  // the same texts, raw, where they stand in the document
  const body = xml.indexOf('<Document')
  const raw = [...xml.slice(body).matchAll(/>([^<]+)</g)]
  expect(raw).toHaveLength(texts.length)
  return texts.map((t, i) => ({ ...t, start: body + (raw[i]?.index ?? 0) + 1, length: raw[i]?.[1]?.length ?? 0 }))
}

/** The fields of the notification a text feeds, as `[top-level fields, transaction fields, which transactions]`. */
const fedBy = (leaf: Leaf, n: Camt054Notification): { readonly top: ReadonlyArray<string>; readonly fields: ReadonlyArray<string>; readonly of: ReadonlySet<number> } => {
  const [, , , ...rest] = leaf.names
  const entryPath = `/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[${leaf.notification}]/Ntry[${leaf.entry}]`
  const of = (prefix: string, exact = false): ReadonlySet<number> =>
    new Set(n.transactions.flatMap((t, i) => ((exact ? t.path === prefix : t.path === prefix || t.path.startsWith(`${prefix}/`)) ? [i] : [])))
  const inNotification = of(`/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[${leaf.notification}]`)
  const inEntry = of(entryPath)
  const inDetail = of(`${entryPath}/NtryDtls[1]/TxDtls[${leaf.detail}]`, true)
  const none = { top: [], fields: [], of: new Set<number>() }
  const names = leaf.names.join('/')
  if (names.endsWith('GrpHdr/MsgId')) return { ...none, top: ['messageId'] }
  if (names.endsWith('GrpHdr/CreDtTm')) return { ...none, top: ['createdAt'] }
  if (names.endsWith('Acct/Id/IBAN') || names.endsWith('Acct/Id/Othr/Id')) return { ...none, fields: ['account'], of: inNotification }
  if (rest[0] !== 'Ntry') return none
  if (names.endsWith('Ntry/AcctSvcrRef') || names.endsWith('Ntry/NtryRef')) return { ...none, fields: ['entryReference'], of: inEntry }
  if (names.endsWith('Ntry/Amt')) return { ...none, fields: ['amount', 'decimalAmount', 'refusal'], of: inEntry }
  if (names.endsWith('BookgDt/Dt')) return { ...none, fields: ['bookingDate'], of: inEntry }
  if (names.endsWith('Btch/NbOfTxs')) return { ...none, fields: ['refusal'], of: inEntry }
  if (names.endsWith('TxDtls/Refs/AcctSvcrRef')) return { ...none, fields: ['transactionReference'], of: inDetail }
  if (names.endsWith('TxDtls/Amt') || names.endsWith('TxAmt/Amt')) return { ...none, fields: ['amount', 'decimalAmount', 'refusal'], of: inDetail }
  if (names.endsWith('CdtrRefInf/Ref') || names.endsWith('CdOrPrtry/Cd')) return { ...none, fields: ['kid', 'creditorReferences', 'refusal'], of: inDetail }
  return none
}

const CHARS = ['0', '1', '5', '9', '.', 'A', 'D', 'T', '-', ' ', '<', '&', 'Ø']

describe('C17: one element of a valid notification edited', () => {
  it('C17 one element of a valid notification edited: refused, or exactly the fields it touches changed', () => {
    fc.assert(
      fc.property(camt054NotificationArb({ maxNotifications: 2, maxEntries: 3, maxDetails: 3 }), fc.nat(), fc.nat(), fc.constantFrom(...CHARS), ({ xml, notification }, which, where, char) => {
        const all = leavesOf(xml)
        fc.pre(all.length > 0)
        const leaf = all[which % all.length] as Leaf
        const at = leaf.start + (where % leaf.length)
        fc.pre(xml[at] !== char)
        const read = parseCamt054(xml.slice(0, at) + char + xml.slice(at + 1))
        if (E.isLeft(read)) {
          // refused: each issue at an element path or a line, with the rule it breaks
          expect(read.left.code).toBe('ValidationFailed')
          expect(read.left.issues?.every((i) => /^(\/|line\.\d+$)/.test(i.path) && i.reason === 'format' && typeof i.params?.['rule'] === 'string')).toBe(true)
          return
        }
        if (leaf.names.at(-2) === 'Sts' || leaf.names.at(-1) === 'Sts') {
          // a status no longer BOOK: that entry's transactions are no longer read, nothing else changes
          const entryPath = `/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[${leaf.notification}]/Ntry[${leaf.entry}]`
          const kept = notification.transactions.filter((t) => !(t.path === entryPath || t.path.startsWith(`${entryPath}/`)))
          expect(read.right).toStrictEqual({ ...notification, transactions: kept.map((t, i) => ({ ...t, transactionNumber: i + 1 })) })
          return
        }
        const { top, fields, of } = fedBy(leaf, notification)
        for (const p of changedPaths(notification, read.right)) {
          const [head, index, field] = p.split('.')
          const allowed = head === 'transactions' ? of.has(Number(index)) && fields.includes(field ?? '') : top.includes(head ?? '')
          expect(allowed ? 'allowed' : `${leaf.names.join('/')} changed ${p}`).toBe('allowed')
        }
      }),
      { numRuns: 400 }
    )
  })
})

// -------------------------------------------------------------------------------------
// applying
// -------------------------------------------------------------------------------------

const INVOICES = 4

const ore = (n: number): string => `${String(Math.floor(Math.abs(n) / 100))}.${String(Math.abs(n) % 100).padStart(2, '0')}`
const DAY = atOf(50).slice(0, 10)

/** The same transfers as an OCR giro file (one assignment) and as a camt.054 notification (one batch entry, or an entry each). */
const bothOf = (transfers: ReadonlyArray<{ kid: string; amount: number }>, version: Camt054Draft['version'], batch: boolean): readonly [OcrTransmission, Camt054Draft] => {
  const transmission = transmissionOf(transfers)
  const details = transfers.map((t, i) => ({
    transactionReference: `T-${String(i + 1)}`,
    amount: ore(t.amount),
    ...(t.amount < 0 ? { creditDebit: 'DBIT' as const } : {}),
    creditorReferences: [t.kid]
  }))
  const entry = { currency: 'NOK', creditDebit: 'CRDT' as const, bookingDate: DAY }
  const entries = batch && details.length > 0
    ? [{ ...entry, accountServicerReference: 'E-1', batch: true, details }]
    : details.map((d, i) => ({ ...entry, accountServicerReference: `E-${String(i + 1)}`, details: [d] }))
  return [transmission, { version, messageId: 'MSG-1', createdAt: `${DAY}T10:00:00`, notifications: [{ account: 'NO9386011117947', summary: true, entries }] }]
}

describe('C17: receiveCamt054 over the kit\'s notifications', () => {
  const base = worldWith(INVOICES)
  const transfer = fc.record({
    kid: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: INVOICES + 2 }).map(kidOf) }, { weight: 1, arbitrary: fc.constant('12345678') }),
    amount: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 7000 }) }, { weight: 1, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -500, max: -1 }) })
  })

  it('C17 the same transfers as an OCR giro file and as a camt.054 notification give the same world, the same report and equivalent changes', () => {
    fc.assert(
      fc.property(fc.array(transfer, { maxLength: 8 }), fc.constantFrom('camt.054.001.02' as const, 'camt.054.001.04' as const, 'camt.054.001.08' as const), fc.boolean(), (drawn, version, batch) => {
        // money going back is a credit note in one assignment (its net at 0 or above) and a debit
        // detail in one batch (where its version writes a detail's direction); else left out of both
        let net = 0
        const transfers = drawn.filter((t) => {
          const keep = t.amount >= 0 || (batch && version !== 'camt.054.001.02' && net + t.amount >= 0)
          if (keep) net += t.amount
          return keep
        })
        const [transmission, draft] = bothOf(transfers, version, batch)
        const ocr = parseOcrGiro(ocrGiroText(transmission))
        const camt = parseCamt054(camt054Xml(draft))
        if (E.isLeft(ocr) || E.isLeft(camt)) throw new Error('the writers wrote a file paysplit refuses')
        const ctx = { at: atOf(50), catchAllUrl: CATCH_ALL }
        const giro = receiveOcrGiro(base, ocr.right, ctx)
        const notified = receiveCamt054(base, camt.right, ctx)
        expect(notified.world.payments).toStrictEqual(giro.world.payments)
        expect([notified.world.customers, notified.world.references]).toStrictEqual([giro.world.customers, giro.world.references])
        expect(notified.report).toStrictEqual(giro.report)
        expect(notified.deliveries).toStrictEqual(giro.deliveries)
        expect(notified.events).toStrictEqual(giro.events)
        // equivalent changes: the same payment rows; each file's own row of being applied
        const { ocrTransmissions, ...giroRows } = giro.changes
        const { camt054Messages, camt054Transactions, ocrTransmissions: none, ...notifiedRows } = notified.changes
        expect([notifiedRows, none]).toStrictEqual([giroRows, []])
        expect(ocrTransmissions.map((r) => r.at)).toStrictEqual([ctx.at])
        expect(camt054Messages).toStrictEqual([{ messageId: 'MSG-1', at: ctx.at }])
        expect(camt054Transactions.map((r) => r.bookingDate)).toStrictEqual(transfers.map(() => DAY))
      })
    )
  })

  it('C17 the same transactions sent again in another notification: every row duplicate (or refused again, without a reference to recognise it), nothing applied', () => {
    fc.assert(
      fc.property(camt054NotificationArb({ maxEntries: 3, maxDetails: 3, kid: fc.integer({ min: 1, max: INVOICES + 1 }).map(kidOf) }), ({ draft }) => {
        // booked the day they arrive, so none is too old
        const today: Camt054Draft = { ...draft, notifications: draft.notifications.map((n) => ({ ...n, entries: n.entries.map((e) => ({ ...e, bookingDate: DAY })) })) }
        const first = parseCamt054(camt054Xml(today))
        const second = parseCamt054(camt054Xml({ ...today, messageId: `${today.messageId.slice(0, 30)}-sent` }))
        if (E.isLeft(first) || E.isLeft(second)) throw new Error('the kit wrote a document paysplit refuses')
        const { world: once } = receiveCamt054(base, first.right, { at: atOf(50) })
        const { world: twice, report, deliveries, events, changes } = receiveCamt054(once, second.right, { at: atOf(51) })
        expect(twice.payments).toBe(once.payments)
        expect([deliveries, events]).toStrictEqual([[], []])
        // nothing to write but the second notification's own row
        expect([changes.payments, changes.camt054Transactions, changes.camt054Messages.length]).toStrictEqual([[], [], 1])
        for (const r of report) {
          expect(r.outcome === 'duplicate' || (r.outcome === 'refused' && r.error.issues?.[0]?.params?.['rule'] === 'reference')).toBe(true)
        }
      })
    )
  })
})
