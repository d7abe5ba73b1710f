/**
 * camt.054 notifications in a conformance run (docs/rules.md C17): the bank sends the service an
 * ISO 20022 camt.054 notification of transfers to the run's invoices (and to KIDs no invoice
 * holds, KIDs that are not valid, transfers without a KID, debits and reversals that must never
 * be applied), sends a message again (every row `duplicate`) or its transactions again in another
 * message (each row `duplicate`), or a broken one (refused whole). The runner writes the
 * document with `camt054Xml` and applies what it holds to the model with `receiveCamt054`,
 * reading no XML (no XML package needed to check a service); it compares the service's report
 * rows, when its answer has them, and the payments' states after it (reads, webhooks).
 *
 * @module conformance/camt054
 */
import fc from 'fast-check'
import { CAMT054_VERSIONS, type Camt054Version } from '../bankFiles/camt054Model.js'
import { camt054Xml, type Camt054Draft, type Camt054DraftEntry } from '../bankFiles/camt054Writer.js'
import { handle } from '../http/handle.js'
import { kid as kids } from '../kid.js'
import type { Payment } from '../payment.js'
import type { Camt054ReportRow } from '../service/camt054Receive.js'
import { receiveCamt054 } from '../service/camt054Receive.js'
import { notificationOf } from '../testing/camt054.js'
import { deepEqual } from '../testing/harness.js'
import { callHook, fnv, hookAgrees } from './hooks.js'
import {
  clockOf,
  compareWebhooks,
  countEvent,
  countState,
  exchange,
  hooksOf,
  kidIds,
  kidOf,
  knownAt,
  Mismatch,
  modelIds,
  realIds,
  shown,
  stateRow,
  type Known,
  type Model,
  type Real,
  type SentCamt054
} from './model.js'
import { brief, field, normalise } from './normalise.js'

/**
 * What one transfer of a notification is: a payment of the run's invoice by its KID (`pay`), a
 * valid KID no invoice holds (`unknownKid`), a reference that is no valid KID (`malformedKid`),
 * a credit without a creditor reference (`noKid`), a debit entry carrying the invoice's KID
 * (`debit`: not a payment, never in the report) or a reversal carrying it (`reversal`: refused).
 */
export type Camt054ItemKind = 'pay' | 'unknownKid' | 'malformedKid' | 'noKid' | 'debit' | 'reversal'

/** How a message is made: a new one, the last one again, the last one's transactions in a new message, a broken one. */
export type Camt054Mode = 'new' | 'sameMessage' | 'sameTransactions' | 'broken'

/** The account the notifications report (a Norwegian IBAN of the reserved test kind: the kit's own). */
const ACCOUNT = 'NO9386011117947'

/** Eight hex digits of a hash. */
const hex = (n: number): string => n.toString(16).padStart(8, '0')

/** This run's `n`-th message: its id (at most 35 characters) from a hash of the run's prefix, so that no other run's is the same. */
const messageIdOf = (m: Model, n: number): string => {
  const key = `${m.prefix}camt054-${String(n)}`
  return `PSK${hex(fnv(key, 0x811c9dc5))}${hex(fnv(key, 0x5bd1e995))}`
}

/**
 * A valid KID of 25 characters that no service's invoice holds: from a hash of the message's
 * number in the run and the transfer's, the same in a replay (a report row shows it).
 */
const unknownKidOf = (n: number, i: number): string => {
  const digits = [0x811c9dc5, 0x5bd1e995, 0x01000193].map((s) => String(fnv(`camt054-${String(n)}-${String(i)}`, s) % 100_000_000).padStart(8, '0')).join('')
  const made = kids.create(digits, 'mod10')
  return made._tag === 'Right' ? made.right : '1234567890123456789012344'
}

/** A reference that is no valid KID under either algorithm: the digits of an unknown one with a wrong check digit. */
const malformedKidOf = (n: number, i: number): string => {
  const base = unknownKidOf(n, i).slice(0, -1)
  for (const d of '0123456789') if (!kids.isValid(base + d)) return base + d
  return `${base}X`
}

/** Øre as a decimal of two places, as a bank writes NOK. */
const decimalOf = (ore: number): string => `${String(Math.floor(ore / 100))}.${String(ore % 100).padStart(2, '0')}`

/** What is left to pay of an invoice, `permille` of it (at least 1 øre). */
const share = (p: Payment | undefined, permille: number): number =>
  Math.max(1, Math.floor((Math.max(1, (p?.grossAmount ?? 1) - (p?.paidAmount ?? 0)) * permille) / 1000))

/** The open invoice (`Initiated`) that holds a KID in the model, if one does. */
const openInvoice = (m: Model, kid: string | undefined): Payment | undefined =>
  kid === undefined ? undefined : [...m.world.payments.values()].find((p) => p.kind === 'invoice' && p.status === 'Initiated' && p.kid === kid)

/**
 * A report row as compared: ids by the run's labels, an invoice's KID as `<KID of payment n>` (the
 * service picks KIDs, so a replay's are others), an error by its code.
 */
const comparable = (row: unknown, ids: ReadonlyArray<readonly [string, string]>, kidLabels: ReadonlyMap<string, string>): unknown => {
  const outcome = field(row, 'outcome')
  const id = field(row, 'paymentReferenceID')
  const code = field(field(row, 'error'), 'code')
  const kid = field(row, 'kid')
  return normalise(
    {
      transactionNumber: field(row, 'transactionNumber'),
      kid: typeof kid === 'string' ? (kidLabels.get(kid) ?? kid) : kid,
      amount: field(row, 'amount'),
      outcome,
      ...(outcome === 'matched' ? { paymentReferenceID: id } : {}),
      ...(outcome === 'refused' ? { errorCode: code } : {})
    },
    ids,
    false
  )
}

/** Whether a hook resolved with the service's HTTP answer (a `fetch` `Response`, or an object with a numeric `status`). */
const answered = (answer: unknown): boolean =>
  (typeof Response !== 'undefined' && answer instanceof Response) || typeof field(answer, 'status') === 'number'

/** The report rows of the service's answer (`{ report: [...] }`), or undefined when its answer has none. */
const reportOf = (answer: unknown): ReadonlyArray<unknown> | undefined => {
  const report = field(field(answer, 'body'), 'report')
  return Array.isArray(report) ? (report as unknown[]) : undefined
}

/**
 * The bank sends a camt.054 notification (docs/rules.md C17). `items` are its transfers, each to a
 * payment of the run (by its position) with `permille` of what is left to pay and a kind; `batch`
 * writes the credits as one batch entry; `mode` says whether it is new, the last message again,
 * the last message's transactions in a new message, or a new one broken (its first entry's
 * amount no longer the sum of its transactions: refused whole, nothing applied). A message to send
 * again when the run has sent none is sent first, then again.
 */
export class Camt054Message implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly items: ReadonlyArray<readonly [target: number, permille: number, kind: Camt054ItemKind]>,
    readonly batch: boolean,
    readonly version: Camt054Version,
    readonly mode: Camt054Mode
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const send = r.sut.receiveCamt054
    if (send === undefined || m.known.length === 0) return
    // a message to send again, and none sent yet: this one, then again
    if ((this.mode === 'sameMessage' || this.mode === 'sameTransactions') && m.lastCamt054 === undefined) {
      await new Camt054Message(this.items, this.batch, this.version, 'new').run(m, r)
      if (m.lastCamt054 === undefined) return
    }
    const last = m.lastCamt054
    const message: SentCamt054 =
      this.mode === 'sameMessage' && last !== undefined
        ? { ...last, labels: 'the last message again' }
        : this.mode === 'sameTransactions' && last !== undefined
          ? this.resent(m, last)
          : this.written(m, r)
    const broken = this.mode === 'broken'
    const xml = broken ? breakSum(message.xml) : message.xml
    // the invoices the transactions pay in the model, before it applies them (the coverage's rows)
    const payees = message.notification.transactions.map((t) => openInvoice(m, t.kid))
    const targets = message.targets
    m.tick += 1
    m.steps.push({ kind: 'event', event: 'camt054', paymentReferenceID: targets.map((k) => k.realId).join(','), text: xml })
    let answer: unknown
    const verdict = await callHook(m, r, 'receiveCamt054', async () => (answer = await send(xml)))
    if (verdict.kind === 'skipped') return
    if (broken) {
      m.log.push(`camt.054 notification, broken (its first entry's amount is not the sum of its transactions): ${message.labels}  (model: refused whole, nothing applied${verdict.kind === 'refused' ? `; the service: refused, ${verdict.reason}` : ''})`)
      // a hook that resolves with no answer says nothing of a refusal: the reads after it judge
      if (verdict.kind !== 'refused' && !answered(answer)) r.tally.camt054Unreported += 1
      else if (verdict.kind !== 'refused') throw new Mismatch(`the service took a camt.054 notification whose sums disagree (its answer: ${brief(shown(m, field(answer, 'body')), 300)}); the model refuses it whole and applies nothing of it`)
      await this.readBack(m, r, targets)
      return
    }
    m.lastCamt054 = message
    const { world, report, deliveries } = receiveCamt054(m.world, message.notification, { at: clockOf(m.tick), ...hooksOf(r) })
    m.world = world
    report.forEach((row, i) => {
      countEvent(r, `camt054 ${row.outcome}`)
      countState(r, stateRow(payees[i]), 'camt054', row.outcome === 'matched')
    })
    const outcomes = report.map((row) => row.outcome).join(', ') || 'no credit to apply'
    m.log.push(`camt.054 notification: ${message.labels}  (model: ${outcomes}${verdict.kind === 'refused' ? `; the hook: refused, ${verdict.reason}` : ''})`)
    // the model reads and applies every document the kit writes whole (but the broken one): a refusal is never right
    hookAgrees('receiveCamt054', verdict, outcomes, `a camt.054 notification (${message.labels})`)
    if (verdict.kind === 'driven') this.compareReport(m, r, report, answer)
    await compareWebhooks(m, r, deliveries)
    await this.readBack(m, r, targets)
  }

  /** A new message of the items, written as a bank writes it. */
  private written(m: Model, r: Real): SentCamt054 {
    m.camt054Files += 1
    const messageId = messageIdOf(m, m.camt054Files)
    // booked today by the caller's clock when it gave one: a service refuses a booking older than
    // what it remembers (400 days for paysplit), and the model's clock is a fixed day
    const clock = r.sut.now?.()
    const date = (clock !== undefined && Number.isFinite(clock) ? new Date(clock).toISOString() : clockOf(m.tick)).slice(0, 10)
    const labels: string[] = []
    const credits: Array<{ readonly amount: string; readonly creditorReferences: ReadonlyArray<string> }> = []
    const others: Camt054DraftEntry[] = []
    this.items.forEach(([t, permille, kind], i) => {
      const known = knownAt(m, t)
      if (known === undefined) return
      const p = m.world.payments.get(known.modelId)
      const amount = decimalOf(share(p, permille))
      // a card has no KID: its transfers carry one no invoice holds
      const own = p?.kind === 'invoice' ? kidOf(p) : unknownKidOf(m.camt054Files, i)
      const whose = p?.kind === 'invoice' ? `the KID of ${known.label}` : `a KID no invoice holds (${known.label} is a card)`
      if (kind === 'debit' || kind === 'reversal') {
        const direction = kind === 'debit' || i % 2 === 1 ? 'DBIT' : 'CRDT'
        others.push({
          accountServicerReference: `${messageId}-E${String(i + 1)}`,
          currency: 'NOK',
          creditDebit: direction,
          ...(kind === 'reversal' ? { reversal: true } : {}),
          bookingDate: date,
          details: [{ transactionReference: `${messageId}-T${String(i + 1)}`, amount, creditorReferences: [own] }]
        })
        labels.push(`${kind === 'debit' ? 'a debit' : `a reversal (${direction})`} of ${amount} with ${whose}`)
        return
      }
      const kid = kind === 'pay' ? own : kind === 'unknownKid' ? unknownKidOf(m.camt054Files, i) : kind === 'malformedKid' ? malformedKidOf(m.camt054Files, i) : undefined
      credits.push({ amount, creditorReferences: kid === undefined ? [] : [kid] })
      labels.push(`${amount} ${kind === 'pay' ? (p?.kind === 'invoice' ? `to ${known.label}` : `with ${whose}`) : kind === 'unknownKid' ? 'to a KID no invoice holds' : kind === 'malformedKid' ? 'to a KID that is not valid' : 'without a KID'}`)
    })
    const creditEntries: Camt054DraftEntry[] = this.batch
      ? credits.length === 0
        ? []
        : [
            {
              accountServicerReference: `${messageId}-B`,
              currency: 'NOK',
              creditDebit: 'CRDT',
              bookingDate: date,
              batch: true,
              details: credits.map((c, j) => ({ transactionReference: `${messageId}-B${String(j + 1)}`, ...c }))
            }
          ]
      : credits.map((c, j) => ({
          accountServicerReference: `${messageId}-C${String(j + 1)}`,
          currency: 'NOK',
          creditDebit: 'CRDT' as const,
          bookingDate: date,
          details: [{ transactionReference: `${messageId}-C${String(j + 1)}`, ...c }]
        }))
    const draft: Camt054Draft = {
      version: this.version,
      messageId,
      createdAt: clockOf(m.tick).slice(0, 19),
      notifications: [{ account: ACCOUNT, summary: this.batch, entries: [...creditEntries, ...others] }]
    }
    const targets = [...new Set(this.items.flatMap(([t]) => knownAt(m, t) ?? []))]
    return { xml: camt054Xml(draft), draft, notification: notificationOf(draft), labels: `${labels.join(', ')}${this.batch && credits.length > 1 ? ' (one batch)' : ''}`, targets }
  }

  /** The last message's transactions again, in a message of its own id (each one a duplicate). */
  private resent(m: Model, last: SentCamt054): SentCamt054 {
    m.camt054Files += 1
    const draft: Camt054Draft = { ...last.draft, messageId: messageIdOf(m, m.camt054Files) }
    return { xml: camt054Xml(draft), draft, notification: notificationOf(draft), labels: 'the last message’s transactions again, in another message', targets: last.targets }
  }

  /**
   * The service's report rows against the model's, when its answer has them (`{ report }`, as the
   * reference service and the mock answer): each row's number, KID, amount and outcome, the
   * invoice it paid, the code of why it was refused.
   */
  private compareReport(m: Model, r: Real, report: ReadonlyArray<Camt054ReportRow>, answer: unknown): void {
    const got = reportOf(answer)
    if (got === undefined) {
      r.tally.camt054Unreported += 1
      return
    }
    const kidLabels = new Map(kidIds(m))
    const want = report.map((row) => comparable(row, modelIds(m), kidLabels))
    const have = got.map((row) => comparable(row, realIds(m), kidLabels))
    m.log.push(`  ← report: ${have.map((row) => String(field(row, 'outcome'))).join(', ') || '(no rows)'}`)
    if (deepEqual(want, have)) return
    const i = want.findIndex((row, j) => !deepEqual(row, have[j]))
    const at = i < 0 ? want.length : i
    throw new Mismatch(
      `the camt.054 report differs\n  expected (model): ${brief(shown(m, want), 600)}\n  received (service): ${brief(shown(m, have), 600)}\n  at row ${String(at + 1)}: expected ${brief(shown(m, want[at]), 200)}, received ${brief(shown(m, have[at]), 200)}`
    )
  }

  /** Reads back the payments the message named, when the service has the read routes: their states must be the model's. */
  private async readBack(m: Model, r: Real, targets: ReadonlyArray<Known>): Promise<void> {
    if (!r.reads) return
    for (const k of targets) {
      await exchange(m, r, { method: 'GET', path: `/payments/${k.realId}` }, (world) =>
        handle(world, { method: 'GET', path: `/payments/${k.modelId}` }, { at: clockOf(m.tick), paymentReferenceID: k.modelId })
      )
    }
  }

  toString(): string {
    const items = this.items.map(([t, p, k]) => `#${String(t)} ${String(p)}‰${k === 'pay' ? '' : ` ${k}`}`).join(', ')
    return `camt054(${this.mode === 'new' ? '' : `${this.mode}, `}${items}${this.batch ? ', batch' : ''}, ${this.version.slice(-2)})`
  }
}

/** The first entry's amount raised by 0.01: no longer the sum of its transactions (refused whole, `entry-sum`). */
const breakSum = (xml: string): string =>
  xml.replace(/<Ntry><Amt Ccy="NOK">(\d+)\.(\d\d)<\/Amt>/, (_, whole: string, cents: string) => {
    const ore = Number(whole) * 100 + Number(cents) + 1
    return `<Ntry><Amt Ccy="NOK">${decimalOf(ore)}</Amt>`
  })

/** The arbitrary of {@link Camt054Message}: 1–4 transfers, mostly payments of the run's invoices. */
export const camt054MessageArb = (): fc.Arbitrary<Camt054Message> =>
  fc
    .tuple(
      fc.array(
        fc.tuple(
          fc.nat({ max: 3 }),
          fc.integer({ min: 1, max: 1500 }),
          fc.oneof(
            { weight: 8, arbitrary: fc.constant<Camt054ItemKind>('pay') },
            { weight: 2, arbitrary: fc.constantFrom<Camt054ItemKind>('unknownKid', 'malformedKid', 'noKid') },
            { weight: 2, arbitrary: fc.constantFrom<Camt054ItemKind>('debit', 'reversal') }
          )
        ),
        { minLength: 1, maxLength: 4 }
      ),
      fc.boolean(),
      fc.constantFrom(...CAMT054_VERSIONS),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<Camt054Mode>('new') },
        { weight: 3, arbitrary: fc.constantFrom<Camt054Mode>('sameMessage', 'sameTransactions') },
        { weight: 1, arbitrary: fc.constant<Camt054Mode>('broken') }
      )
    )
    .map(([items, batch, version, mode]) => new Camt054Message(items, batch, version, mode))
