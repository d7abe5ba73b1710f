/**
 * A conformance report as text: what differed, the requests to send again, and how to replay.
 *
 * @module conformance/report
 */
import { brief } from './normalise.js'
import type { ConformanceReport, Coverage, HookName, ReportedStep } from './types.js'

/** One step as a line: `POST /payments {…}  → 201`, or the outside event. */
export const stepLine = (s: ReportedStep): string =>
  s.kind === 'request'
    ? `${s.concurrent === true ? '  (at the same time) ' : ''}${s.method} ${s.path}${Object.entries(s.headers ?? {}).map(([k, v]) => ` [${k}: ${v}]`).join('')}${s.body === undefined ? '' : ` ${brief(s.body, 100_000)}`}${s.status === undefined ? '' : `  → ${String(s.status)}`}`
    : `[${s.event}] ${s.paymentReferenceID}${s.amount === undefined ? '' : ` amount ${String(s.amount)}`}${s.kid === undefined ? '' : ` kid ${s.kid}`}  (not an API request: your form or bank adapter)`

/**
 * The report as text for a person: on success one line (and the notes); on failure the seed, the
 * path, the shrunk counterexample as a log, its requests as sent (method, path, body) and how to
 * replay exactly that sequence — `command` is the start of the command line to print (e.g.
 * `npx paysplit-check http://localhost:8080`); without it the `checkService` options are shown.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { describeReport } from 'paysplit/conformance'
 * const text = describeReport({ ok: true, numRuns: 100, seed: 42, prefix: 'k16-', notes: [] })
 * assert.strictEqual(text, 'The service behaves like paysplit\'s model: 100 run(s) passed (seed 42, references prefixed k16-).')
 */
export const describeReport = (report: ConformanceReport, command?: string): string => {
  const notes = report.notes.map((n) => `Note: ${n}`)
  if (report.ok) {
    return [`The service behaves like paysplit's model: ${String(report.numRuns)} run(s) passed (seed ${String(report.seed)}, references prefixed ${report.prefix}).`, ...notes].join('\n')
  }
  const lines = [
    report.hook === undefined
      ? `The service differs from paysplit's model after ${String(report.numRuns)} run(s).`
      : `The ${report.hook} hook failed after ${String(report.numRuns)} run(s): the hook did not drive the service (not necessarily the service's fault).`,
    `Counterexample (shrunk):\n${report.counterexample}`,
    `Replay with { seed: ${String(report.seed)}, path: ${JSON.stringify(report.path)} }.`
  ]
  if (report.steps.length > 0) lines.push(`Requests of the counterexample, as sent (seed ${String(report.seed)}, path ${report.path}):\n${report.steps.map((s, i) => `  ${String(i + 1)}. ${stepLine(s)}`).join('\n')}`)
  if (command !== undefined && report.replay !== '') lines.push(`Replay exactly this sequence (against this service or a fresh one):\n  ${command} ${report.replay}`)
  return [...lines, ...notes].join('\n')
}

/** The commands of the coverage's table, in its column order. */
const COMMANDS: ReadonlyArray<string> = ['cancel', 'charge', 'refund', 'refundPartially', 'adjust', 'completeForm', 'failForm', 'transfer', 'ocr']

/** The statuses a payment of each kind can be in, in the table's row order. */
const STATUSES: Readonly<Record<string, ReadonlyArray<string>>> = {
  card: ['Initiated', 'Reserved', 'Charged', 'Cancelled', 'Refunded'],
  invoice: ['Initiated', 'Charged', 'Refunded']
}

/** The hook columns a check drives, by the hooks it was given. */
const hookColumns: Readonly<Record<string, ReadonlyArray<HookName>>> = {
  completeForm: ['completeForm'],
  failForm: ['failForm'],
  transfer: ['receiveTransfer', 'receiveTransferByKid'],
  ocr: ['receiveOcrGiro']
}

/** The state × command table: a row per kind and status, a column per command, `accepted/refused` in each cell, `·` for never. */
const stateTable = (coverage: Coverage): string => {
  const states = coverage.states ?? {}
  const kinds = coverage.kinds ?? ['card', 'invoice']
  const seen = new Set(Object.values(states).flatMap((cells) => Object.keys(cells)))
  const columns = COMMANDS.filter((c) => seen.has(c) || (hookColumns[c] === undefined ? true : (hookColumns[c] ?? []).some((h) => coverage.hooks?.[h] !== undefined)))
  const rows = [...kinds.flatMap((k) => (STATUSES[k] ?? []).map((s) => `${k} ${s}`))]
  for (const row of Object.keys(states).sort()) if (!rows.includes(row)) rows.push(row)
  const cell = (row: string, column: string): string => {
    const c = states[row]?.[column]
    return c === undefined ? '·' : `${String(c.accepted)}/${String(c.refused)}`
  }
  const first = Math.max(...rows.map((r) => r.length))
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)))
  const line = (head: string, cells: ReadonlyArray<string>): string => `  ${head.padEnd(first)}  ${cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ')}`.trimEnd()
  return [
    'State × command (what the model accepted/refused; · never sent):',
    line('', columns),
    ...rows.map((r) => line(r, columns.map((c) => cell(r, c))))
  ].join('\n')
}

/** Why a part of a payment's life was never reached, and what would reach it. */
const whyNever = (coverage: Coverage, what: 'charges' | 'refunds' | 'invoice payments'): string => {
  const hooks = coverage.hooks
  const bank = hooks === undefined ? [] : (['receiveTransfer', 'receiveTransferByKid', 'receiveOcrGiro'] as const).filter((h) => hooks[h] !== undefined)
  const allSkipped = (names: ReadonlyArray<HookName>): boolean =>
    names.length > 0 && names.every((h) => (hooks?.[h]?.sent ?? 0) > 0 && hooks?.[h]?.skipped === hooks?.[h]?.sent)
  const more = 'no run got that far: more runs (--runs) or longer sequences (--max-commands)'
  if (hooks === undefined) return 'give the check your form and bank hooks (docs/testing.md)'
  if (what === 'charges') {
    if (hooks.completeForm === undefined) return 'a card is charged only after the payment form: give the check a completeForm hook (paysplit-check: --form-complete-path)'
    if (allSkipped(['completeForm'])) return 'the completeForm hook could not drive the service (see the notes)'
    return more
  }
  if (what === 'refunds') return coverage.charged || coverage.invoicePaid ? more : 'nothing was charged or paid'
  if (bank.length === 0) return 'an invoice is paid only by the bank: give the check a bank hook, receiveTransferByKid or receiveOcrGiro (paysplit-check: --bank-transfer-path, --bank-ocr-path)'
  if (allSkipped(bank)) return 'the bank hooks could not drive the service (see the notes)'
  return more
}

/**
 * What a call exercised, as text: a line with every route and the statuses it answered, the
 * outside events (form, bank) with the model's outcome and the webhooks compared (and missing);
 * the table of state × command (how often the model accepted and refused each command sent to a
 * payment in each state); then a warning naming what no payment ever reached — charges, refunds,
 * invoice payments — and for each why and what would reach it (a hook not given is named, one
 * given is not asked for again).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { describeCoverage } from 'paysplit/conformance'
 * const text = describeCoverage({
 *   requests: { 'POST /payments 201': 3, 'POST /payments 400': 1, 'POST /payments/{id}/cancel 200': 1 },
 *   events: {},
 *   states: { 'card Initiated': { cancel: { accepted: 1, refused: 0 } } },
 *   webhooksChecked: 4,
 *   charged: false,
 *   refunded: false,
 *   invoicePaid: false,
 *   kinds: ['card'],
 *   hooks: {}
 * })
 * assert.ok(text.startsWith('Coverage: 3 (request, status) pairs on 2 routes: POST /payments 201/400; POST /payments/{id}/cancel 200; 4 webhooks checked.'))
 * assert.match(text, /card Initiated +1\/0 /)
 * assert.match(text, /Warning: never exercised: charges, refunds\.\n {2}charges: a card is charged only after the payment form/)
 */
export const describeCoverage = (coverage: Coverage): string => {
  const byRoute = new Map<string, string[]>()
  const keys = Object.keys(coverage.requests).sort()
  for (const key of keys) {
    const at = key.lastIndexOf(' ')
    const route = key.slice(0, at)
    byRoute.set(route, [...(byRoute.get(route) ?? []), key.slice(at + 1)])
  }
  const routes = [...byRoute].map(([route, statuses]) => `${route} ${statuses.join('/')}`)
  const events = Object.keys(coverage.events).sort()
  const missing = coverage.webhooksMissing ?? 0
  const line =
    `Coverage: ${String(keys.length)} (request, status) pairs on ${String(byRoute.size)} routes: ${routes.join('; ')}` +
    `${events.length > 0 ? `; outside events: ${events.join(', ')}` : ''}; ${String(coverage.webhooksChecked)} webhooks checked${missing > 0 ? `, ${String(missing)} missing` : ''}.`
  const out = [line]
  if (coverage.states !== undefined) out.push(stateTable(coverage))
  const kinds = coverage.kinds ?? ['card', 'invoice']
  const never = (
    [
      [!coverage.charged && kinds.includes('card'), 'charges'],
      [!coverage.refunded, 'refunds'],
      [!coverage.invoicePaid && kinds.includes('invoice'), 'invoice payments']
    ] as const
  ).flatMap(([missed, what]) => (missed ? [what] : []))
  if (never.length > 0) {
    out.push(`Warning: never exercised: ${never.join(', ')}.`, ...never.map((what) => `  ${what}: ${whyNever(coverage, what)}.`))
  }
  return out.join('\n')
}
