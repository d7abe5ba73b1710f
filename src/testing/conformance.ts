/**
 * Model-based conformance of a payments service: {@link checkService} drives any HTTP service
 * (the caller says how to send a request and how to read the webhooks it sent) with random
 * command sequences (`fc.commands` + `fc.asyncModelRun`), runs the same requests on paysplit's
 * reference service model (`handle` of `paysplit/http`), and compares status codes, bodies and
 * webhooks, with identifiers and times normalised. A difference is shrunk by fast-check to a
 * short sequence and reported as a readable request log and as the requests to replay.
 *
 * @module testing/conformance
 */
import fc from 'fast-check'
import { handle } from '../http/handle.js'
import { emptyWorld } from '../service/world.js'
import { commandArbs } from './commands.js'
import { clockOf, emptyTally, Mismatch, UNKNOWN_ID, type Model, type Real, type Tally } from './model.js'
import { field, replaceAll } from './normalise.js'
import { describeReport } from './report.js'
import { withRetries } from './retries.js'
import type { CheckServiceOptions, ConformanceReport, Coverage, ReportedStep } from './types.js'
import { checkReceived } from './webhookCheck.js'

/** The part of every reference of this call: the seed, and the caller's run id when given. */
const prefixOf = (seed: number, runId: string | undefined): string => {
  const id = (runId ?? '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32)
  return `k${String(seed).replace('-', 'n')}${id === '' ? '' : `-${id}`}-`
}

/**
 * Whether the service has the read routes (docs/rules.md C5): one `GET /payments/{id}` of an id
 * nobody has, which must give the model's 404 `PaymentNotFound`. Anything else (405, a 404 of an
 * unknown route) means it has none: said once in the report's notes, and reads are not sent.
 */
const probeReads = async (options: CheckServiceOptions, notes: string[]): Promise<boolean> => {
  const request = { method: 'GET', path: `/payments/${UNKNOWN_ID}` }
  const { response: model } = handle(emptyWorld, request, { at: clockOf(0), paymentReferenceID: UNKNOWN_ID })
  const code = field(model.body, 'error', 'code')
  if (code !== 'PaymentNotFound') return false // this version of the model has no reads
  try {
    const res = await options.send(request)
    if (res.status === model.status && field(res.body, 'error', 'code') === code) return true
    const got = field(res.body, 'error', 'code')
    notes.push(`The service has no read routes (GET /payments/{id} of an unknown id answered ${String(res.status)}${typeof got === 'string' ? ` ${got}` : ''}, not 404 ${code}): reads were not checked.`)
  } catch (e) {
    notes.push(`The read routes could not be probed (${e instanceof Error ? e.message : String(e)}): reads were not checked.`)
  }
  return false
}

/** Whether the model's world of a run ever charged, refunded or had an invoice paid. */
const tallyLives = (tally: Tally, model: Model): void => {
  for (const p of model.world.payments.values()) {
    if (p.kind === 'card' && p.chargedAmount > 0) tally.charged = true
    if (p.refundedAmount > p.excessRefundedAmount) tally.refunded = true
    if (p.kind === 'invoice' && p.paidAmount > 0) tally.invoicePaid = true
  }
}

const coverageOf = (t: Tally): Coverage => ({
  requests: { ...t.requests },
  events: { ...t.events },
  webhooksChecked: t.webhooksChecked,
  charged: t.charged,
  refunded: t.refunded,
  invoicePaid: t.invoicePaid
})

/** The notes of hooks that said they cannot drive the service. */
const skippedNotes = (t: Tally): string[] =>
  [...t.skipped].map(([hook, reason]) => `The ${hook} hook could not drive the service (${reason}): it was used no more.`)

/**
 * Checks that a payments service behaves like paysplit's reference model: runs `numRuns` random
 * command sequences (creates valid and invalid, repeats, cancel, charge, refunds, adjustments
 * with valid and broken patches, requests no payment makes valid, the next step of a payment's
 * life, reads when the service has them, the same request twice at once with `races`, and —
 * when the service exposes them — payment-form and bank events) against the service and the
 * model, and compares every status code, body and webhook after normalising ids, times and (by
 * default) messages. Every reference and customer id it makes starts with the report's
 * `prefix`, so any number of calls can share one long-lived service. Resolves with a report and
 * never rejects: a difference, or a service that throws, is a failed report whose
 * `counterexample` is the shrunk request log and whose `steps` are the requests to replay.
 *
 * The example checks paysplit's own model against itself; point `send` at your service (with
 * `fetch`, see docs/testing.md) to check yours.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle } from 'paysplit/http'
 * import { checkService } from 'paysplit/testing'
 * let world = emptyWorld
 * let n = 0
 * const report = await checkService({
 *   send: async (request) => {
 *     n += 1
 *     const id = `6f1c3c52-3f51-4b8e-9a8e-${String(n).padStart(12, '0')}`
 *     // a fresh KID for every request, as a service makes them (two open invoices never share one)
 *     const made = kid.create(String(1000 + n), 'mod10')
 *     const invoiceKid = made._tag === 'Right' ? made.right : ''
 *     const { world: next, response } = handle(world, request, { at: new Date(Date.UTC(2026, 10, 21, 10, 0, n)).toISOString(), paymentReferenceID: id, kid: invoiceKid })
 *     world = next
 *     return { status: response.status, body: JSON.parse(JSON.stringify(response.body)) }
 *   },
 *   numRuns: 20,
 *   seed: 7,
 *   runId: 'example'
 * })
 * assert.ok(report.ok)
 * assert.strictEqual(report.prefix, 'k7-example-')
 */
export const checkService = async (options: CheckServiceOptions): Promise<ConformanceReport> => {
  const seed = options.seed ?? fc.sample(fc.noBias(fc.integer()), { numRuns: 1 })[0] ?? 0
  const prefix = prefixOf(seed, options.runId)
  const notes: string[] = []
  const tally = emptyTally()
  let runs = 0
  let failure: { log: ReadonlyArray<string>; steps: ReadonlyArray<ReportedStep>; message: string; tag: string } | undefined
  // the time of the first failure, and whether shrinking ran out of its budget (options.maxShrinkMs)
  let failedAt: number | undefined
  let shrinkCut = false
  const budgetSpent = (): boolean =>
    failedAt !== undefined && options.maxShrinkMs !== undefined && options.now !== undefined && options.now() - failedAt >= options.maxShrinkMs
  try {
    const reads = await probeReads(options, notes)
    // A command sequence replays only with fast-check's path and the commands' own replay path:
    // the report's `path` carries both, as `<path>|<replayPath>`.
    const [runPath, replayPath] = options.path === undefined ? [] : options.path.split('|')
    const commands = fc.commands([fc.oneof(...commandArbs(options, reads))], { maxCommands: options.maxCommands ?? 12, ...(replayPath !== undefined ? { replayPath } : {}) })
    const receiver = options.webhookReceiver
    const property = fc.asyncProperty(commands, async (cmds) => {
      // Out of the shrinking budget: every further candidate passes at once, so fast-check stops
      // with the smallest counterexample found so far.
      if (budgetSpent()) {
        shrinkCut = true
        return
      }
      runs += 1
      const tag = `${prefix}r${String(runs)}-`
      const model: Model = {
        world: emptyWorld,
        known: [],
        creates: [],
        log: [],
        steps: [],
        prefix: tag,
        hookBase: receiver === undefined ? undefined : `${receiver.url}/${tag}`,
        expected: [],
        tick: 0
      }
      try {
        await options.reset?.()
        const seen = options.receivedWebhooks === undefined ? 0 : (await options.receivedWebhooks()).length
        const real: Real = { sut: withRetries(options, options.retries ?? 0, tag), reads, seen, tally }
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds)
          await checkReceived(model, real)
        } finally {
          tallyLives(tally, model)
        }
        options.onRun?.(runs, true, model.steps.length)
      } catch (e) {
        failure = { log: [...model.log], steps: [...model.steps], message: e instanceof Mismatch ? e.message : `the service threw: ${e instanceof Error ? e.message : String(e)}`, tag }
        failedAt ??= options.now?.()
        options.onRun?.(runs, false, model.steps.length)
        throw e
      }
    })
    const details = await fc.check(property, {
      ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
      seed,
      ...(runPath !== undefined ? { path: runPath } : {})
    })
    notes.push(...skippedNotes(tally))
    const coverage = coverageOf(tally)
    if (!details.failed) return { ok: true, numRuns: details.numRuns, seed: details.seed, prefix, notes, coverage }
    if (shrinkCut) notes.push(`Shrinking stopped when its time budget (${String(options.maxShrinkMs)} ms) was spent: the counterexample is the shortest found by then, not necessarily the shortest.`)
    const f = failure
    const report = fc.defaultReportMessage(details) ?? ''
    const log = f === undefined ? '(no log)' : [...f.log.map((l) => replaceAll(l, f.tag, '')), `✗ ${replaceAll(f.message, f.tag, '')}`].join('\n')
    const path = details.counterexamplePath === null ? '' : `${details.counterexamplePath}|${/replayPath="([^"]*)"/.exec(report)?.[1] ?? ''}`
    return {
      ok: false,
      numRuns: details.numRuns,
      seed: details.seed,
      prefix,
      notes,
      coverage,
      path,
      counterexample: log,
      steps: f?.steps ?? [],
      // `--seed=<n>`: a negative seed after a space would be read as an option
      replay: `--seed=${String(details.seed)} --path '${path}'`,
      details: report
    }
  } catch (e) {
    return { ok: false, numRuns: runs, seed, prefix, notes, path: '', counterexample: `the check itself failed: ${String(e)}`, steps: [], replay: '', details: '' }
  }
}

/**
 * {@link checkService} for test runners: resolves when the service conforms, rejects with the
 * readable counterexample, its requests and how to replay it when it does not.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { assertConforms } from 'paysplit/testing'
 * // A service that answers 404 to everything does not conform: the runner says why.
 * await assert.rejects(
 *   assertConforms({ send: async () => ({ status: 404, body: { success: false } }), numRuns: 5, seed: 1 }),
 *   /Counterexample \(shrunk\)/
 * )
 */
export const assertConforms = async (options: CheckServiceOptions): Promise<void> => {
  const report = await checkService(options)
  if (!report.ok) throw new Error(describeReport(report))
}
