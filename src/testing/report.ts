/**
 * A conformance report as text: what differed, the requests to send again, and how to replay.
 *
 * @module testing/report
 */
import { brief } from './normalise.js'
import type { ConformanceReport, Coverage, ReportedStep } from './types.js'

/** One step as a line: `POST /payments {…}  → 201`, or the outside event. */
export const stepLine = (s: ReportedStep): string =>
  s.kind === 'request'
    ? `${s.concurrent === true ? '  (at the same time) ' : ''}${s.method} ${s.path}${s.body === undefined ? '' : ` ${brief(s.body, 100_000)}`}${s.status === undefined ? '' : `  → ${String(s.status)}`}`
    : `[${s.event}] ${s.paymentReferenceID}${s.amount === undefined ? '' : ` amount ${String(s.amount)}`}${s.kid === undefined ? '' : ` kid ${s.kid}`}  (not an API request: your form or bank adapter)`

/**
 * The report as text for a person: on success one line (and the notes); on failure the seed, the
 * path, the shrunk counterexample as a log, its requests as sent (method, path, body) and how to
 * replay exactly that sequence — `command` is the start of the command line to print (e.g.
 * `npx paysplit-check http://localhost:8080`); without it the `checkService` options are shown.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { describeReport } from 'paysplit/testing'
 * const text = describeReport({ ok: true, numRuns: 100, seed: 42, prefix: 'k16-', notes: [] })
 * assert.strictEqual(text, 'The service behaves like paysplit\'s model: 100 run(s) passed (seed 42, references prefixed k16-).')
 */
export const describeReport = (report: ConformanceReport, command?: string): string => {
  const notes = report.notes.map((n) => `Note: ${n}`)
  if (report.ok) {
    return [`The service behaves like paysplit's model: ${String(report.numRuns)} run(s) passed (seed ${String(report.seed)}, references prefixed ${report.prefix}).`, ...notes].join('\n')
  }
  const lines = [
    `The service differs from paysplit's model after ${String(report.numRuns)} run(s).`,
    `Counterexample (shrunk):\n${report.counterexample}`,
    `Replay with { seed: ${String(report.seed)}, path: ${JSON.stringify(report.path)} }.`
  ]
  if (report.steps.length > 0) lines.push(`Requests of the counterexample, as sent (seed ${String(report.seed)}, path ${report.path}):\n${report.steps.map((s, i) => `  ${String(i + 1)}. ${stepLine(s)}`).join('\n')}`)
  if (command !== undefined && report.replay !== '') lines.push(`Replay exactly this sequence against a fresh service:\n  ${command} ${report.replay}`)
  return [...lines, ...notes].join('\n')
}

/**
 * What a call exercised, as text: one line with every route and the statuses it answered, the
 * outside events (form, bank) with the model's outcome, and the webhooks compared; then a
 * warning when no payment was ever charged, refunded or (an invoice) paid, the parts of a
 * payment's life a check without the form and bank hooks cannot reach.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { describeCoverage } from 'paysplit/testing'
 * const text = describeCoverage({
 *   requests: { 'POST /payments 201': 3, 'POST /payments 400': 1, 'POST /payments/{id}/cancel 200': 1 },
 *   events: {},
 *   webhooksChecked: 4,
 *   charged: false,
 *   refunded: false,
 *   invoicePaid: false
 * })
 * assert.ok(text.startsWith('Coverage: 3 (request, status) pairs on 2 routes: POST /payments 201/400; POST /payments/{id}/cancel 200; 4 webhooks checked.'))
 * assert.match(text, /Warning: never exercised: charges, refunds, invoice payments/)
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
  const line =
    `Coverage: ${String(keys.length)} (request, status) pairs on ${String(byRoute.size)} routes: ${routes.join('; ')}` +
    `${events.length > 0 ? `; outside events: ${events.join(', ')}` : ''}; ${String(coverage.webhooksChecked)} webhooks checked.`
  const never = [coverage.charged ? '' : 'charges', coverage.refunded ? '' : 'refunds', coverage.invoicePaid ? '' : 'invoice payments'].filter((s) => s !== '')
  if (never.length === 0) return line
  return `${line}
Warning: never exercised: ${never.join(', ')}. No payment of the model got that far: a card is charged only after the payment form, an invoice paid only by the bank; give the check your form and bank hooks (docs/testing.md).`
}
