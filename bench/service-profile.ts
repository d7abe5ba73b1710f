/**
 * `npx tsx bench/service-profile.ts` (after `npm run build`): where the rules' time goes in one flow
 * of the reference service (create a card payment charged at once → complete the form → partial
 * refund), call by call, as the service's store loop makes the calls — the keys, the row check,
 * `worldOf`, the operation, `webhookMessage` of each stored outbox row — without HTTP or a database
 * (a row is the state's JSON text, as a store gives it back). The same flow through paysplit's
 * rules and through the benchmark baseline's stand-ins (./service-baseline.ts), in rounds in one
 * process, so the difference is what paysplit costs a flow; and paysplit twice: with the rows kept
 * checked (docs/service.md, "Rows checked once": one process serves the whole flow) and with every
 * row checked as it is read (each request on another process). Medians of the rounds, µs a flow.
 * Absolute times move with the machine's load: compare the columns, not runs.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Payment } from '../src/index.js'
import type { Outcome, World } from '../src/http.js'
import { AdmittedRows } from '../docs/examples/service/db/admitted.js'
import { paysplitRules, type Rules } from '../docs/examples/service/paysplit.js'
import { baselineRules } from './service-baseline.js'
import { createBody, refundPatch } from './serviceFlow.js'

const HOOK = 'http://127.0.0.1:9/all'
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? '7')
const FLOWS = Number(process.env['BENCH_FLOWS'] ?? '4000')

const bodyText = (i: number): string => JSON.stringify(createBody(`bench-${String(i)}`, i))
const patchText = JSON.stringify(refundPatch)
const idOf = (i: number): string => `0b7e3f1c-2a4d-4e8f-9c1b-${i.toString(16).padStart(12, '0')}`

/** µs spent in each member of the rules, summed over a round. */
type Spent = Record<string, number>

/** `rules` with the wall time of each call added to `spent` (one thread, nothing else running: its CPU time). */
const timed = (rules: Rules, spent: Spent): Rules =>
  Object.fromEntries(
    (Object.keys(rules) as Array<keyof Rules>).map((name) => {
      const f = rules[name] as (...args: ReadonlyArray<unknown>) => unknown
      return [
        name,
        (...args: ReadonlyArray<unknown>): unknown => {
          const started = process.hrtime.bigint()
          const out = f(...args)
          spent[name] = (spent[name] ?? 0) + Number(process.hrtime.bigint() - started) / 1000
          return out
        }
      ]
    })
  ) as unknown as Rules

/** The store of one round: rows by payment id as JSON text, the create references, the outbox. */
interface Rows {
  readonly payments: Map<string, { version: number; text: string }>
  readonly references: Map<string, unknown>
  readonly outbox: Array<{ url: string; id: string; body: string }>
}

/** What the store loop does with an outcome: the payment rows and references written, the outbox rows kept. */
const write = (rows: Rows, admitted: AdmittedRows, o: Outcome): void => {
  for (const c of o.changes.payments) {
    const id = c.paymentReferenceID.toLowerCase()
    const text = JSON.stringify(c.state)
    rows.payments.set(id, { version: c.state.version, text })
    admitted.wrote(id, c.state.version, text, c.state)
  }
  for (const r of o.changes.references) rows.references.set(r.paymentReferenceID.toLowerCase(), JSON.parse(JSON.stringify(r)))
  for (const d of o.deliveries) rows.outbox.push({ url: d.url, id: d.id, body: d.body })
}

/** A payment's row as the store loop reads it: checked, or kept checked. */
const read = (rules: Rules, rows: Rows, admitted: AdmittedRows, id: string): Payment => {
  const row = rows.payments.get(id)
  if (row === undefined) throw new Error('row')
  const p = admitted.admit(id, row.version, row.text, rules.storedPayment)
  if (E.isLeft(p)) throw new Error('row check')
  return p.right
}

/** The world of a payment's rows as the store loop builds it: the row, its reference, `worldOf`. */
const load = (rules: Rules, rows: Rows, admitted: AdmittedRows, id: string): World => {
  const built = rules.worldOf({ payments: [read(rules, rows, admitted, id)], customers: [], references: [rows.references.get(id) as never] })
  if (E.isLeft(built)) throw new Error('worldOf')
  return built.right
}

/** One round of `FLOWS` flows through `rules`; rows kept checked when `keep`. µs a flow, by member. */
const round = (base: Rules, keep: boolean, offset: number): Spent => {
  const spent: Spent = {}
  const rules = timed(base, spent)
  const rows: Rows = { payments: new Map(), references: new Map(), outbox: [] }
  for (let n = 0; n < FLOWS; n++) {
    const i = offset + n
    const admitted = new AdmittedRows(keep ? 2000 : 0)
    const id = idOf(i)
    const at = new Date(Date.UTC(2026, 10, 21) + i).toISOString()
    // create: its keys, the (empty) world of its rows, handle
    const create = { method: 'POST', path: '/payments', body: JSON.parse(bodyText(i)) as unknown }
    const ctx = { at, paymentReferenceID: id, catchAllUrl: HOOK, idempotencyScope: 'bench' }
    rules.requestKeys(create, ctx)
    const empty = rules.worldOf({ payments: [], customers: [], references: [] })
    if (E.isLeft(empty)) throw new Error('worldOf')
    const created = rules.handle(empty.right, create, ctx)
    if (created.response.status !== 201) throw new Error('create')
    write(rows, admitted, created)
    // the form: the payment read for the gateway (no world built), then the operation on its rows
    rules.formKeys(id)
    read(rules, rows, admitted, id)
    rules.formKeys(id)
    const form = rules.completeForm(load(rules, rows, admitted, id), id, { at, catchAllUrl: HOOK })
    if (E.isLeft(form.result)) throw new Error('form')
    write(rows, admitted, form)
    // the refund (on another process: the rows checked again unless kept)
    const refund = { method: 'POST', path: `/payments/${id}/refund/partially`, body: JSON.parse(patchText) as unknown }
    const refundCtx = { at, paymentReferenceID: idOf(i + 1), catchAllUrl: HOOK, idempotencyScope: 'bench' }
    rules.requestKeys(refund, refundCtx)
    const refunded = rules.handle(load(rules, rows, admitted, id), refund, refundCtx)
    if (refunded.response.status !== 200) throw new Error('refund')
    write(rows, admitted, refunded)
  }
  // the relay: every outbox row signed as stored
  for (const row of rows.outbox) rules.webhookMessage(row, 1_700_000_000)
  for (const k of Object.keys(spent)) spent[k] = (spent[k] ?? 0) / FLOWS
  return spent
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? NaN
}

const COLUMNS = [
  ['paysplit, rows kept checked', paysplitRules, true],
  ['paysplit, every row checked', paysplitRules, false],
  ['baseline stand-ins', baselineRules, true]
] as const
const rounds: Array<Array<Spent>> = COLUMNS.map(() => [])
// a warm-up round each, not counted
COLUMNS.forEach(([, rules, keep]) => round(rules, keep, 0))
for (let r = 1; r <= ROUNDS; r++) COLUMNS.forEach(([, rules, keep], c) => rounds[c]?.push(round(rules, keep, r * FLOWS)))
const members = [...new Set(rounds.flatMap((rs) => rs.flatMap((s) => Object.keys(s))))]
console.log(`the rules in one flow of the reference service's store loop (µs a flow, median of ${String(ROUNDS)} rounds of ${String(FLOWS)} flows; Node ${process.version})\n`)
console.log(`| call | ${COLUMNS.map(([name]) => name).join(' | ')} |`)
console.log(`|---|${COLUMNS.map(() => '---:').join('|')}|`)
const totals = COLUMNS.map(() => 0)
for (const m of members) {
  const cells = COLUMNS.map((_, c) => median((rounds[c] ?? []).map((s) => s[m] ?? 0)))
  cells.forEach((v, c) => (totals[c] = (totals[c] ?? 0) + v))
  console.log(`| ${m} | ${cells.map((v) => v.toFixed(1)).join(' | ')} |`)
}
console.log(`| **a flow** | ${totals.map((t) => `**${t.toFixed(1)}**`).join(' | ')} |`)
const base = totals[2] ?? 0
console.log(`\npaysplit above the stand-ins: ${((totals[0] ?? 0) - base).toFixed(1)} µs a flow with the rows kept checked, ${((totals[1] ?? 0) - base).toFixed(1)} µs with every row checked (goal ≤ 100)`)
