/**
 * Model-based conformance of a payments service: {@link checkService} drives any HTTP service
 * (the caller says how to send a request and how to read the webhooks it sent) with random
 * command sequences (`fc.commands` + `fc.asyncModelRun`), runs the same requests on paysplit's
 * reference service model (`handle` of `paysplit/http`), and compares status codes, bodies and
 * webhooks, with identifiers and times normalised. A difference is shrunk by fast-check to a
 * short sequence and reported as a readable request log and as the requests to replay.
 *
 * @module conformance/runner
 */
import fc from 'fast-check'
import { handle } from '../http/handle.js'
import { emptyWorld } from '../service/world.js'
import { commandArbs, HookFailure } from './commands.js'
import { clockOf, emptyTally, Mismatch, UNKNOWN_ID, type Model, type Real, type Tally } from './model.js'
import { field, replaceAll } from './normalise.js'
import { describeReport } from './report.js'
import { withRetries } from './retries.js'
import type { CheckServiceOptions, ConformanceReport, Coverage, HookName, ReportedStep } from './types.js'
import { checkReceived } from './webhookCheck.js'

/**
 * The part of every reference of this call: the seed and the run id, the caller's or, with a
 * clock (`now`), its reading in base 36, so that a fixed seed run twice on one service never meets
 * its own references; neither given, the seed alone (docs/decisions.md, "How runs share one service").
 */
const prefixOf = (seed: number, runId: string | undefined, now: (() => number) | undefined): string => {
  const given = (runId ?? '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32)
  const clock = now?.()
  const id = given !== '' ? given : clock !== undefined && Number.isSafeInteger(clock) && clock >= 0 ? clock.toString(36) : ''
  return `k${String(seed).replace('-', 'n')}${id === '' ? '' : `-${id}`}-`
}

/**
 * fast-check's path with its runs of one number written `<n>*<count>` (`2:1:1:1:1:0` as
 * `2:1*4:0`): a shrunk counterexample's path repeats itself, and the replay line carries it.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { packPath, unpackPath } from './runner.js'
 * assert.strictEqual(packPath('2:1:1:1:1:0:0'), '2:1*4:0:0')
 * assert.strictEqual(unpackPath('2:1*4:0:0'), '2:1:1:1:1:0:0')
 */
export const packPath = (path: string): string => {
  const parts = path.split(':')
  const out: string[] = []
  for (let i = 0; i < parts.length; ) {
    let j = i
    while (j < parts.length && parts[j] === parts[i]) j++
    out.push(j - i >= 3 ? `${parts[i] ?? ''}*${String(j - i)}` : parts.slice(i, j).join(':'))
    i = j
  }
  return out.join(':')
}

/**
 * A path as fast-check reads it: each `<n>*<count>` of {@link packPath} written out (at most
 * 100,000 of one number); a path without them is left as it is.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { unpackPath } from './runner.js'
 * assert.strictEqual(unpackPath('117:3*2|EA:9H'.split('|')[0] ?? ''), '117:3:3')
 */
export const unpackPath = (path: string): string =>
  path
    .split(':')
    .flatMap((part) => {
      const m = /^(\d+)\*(\d+)$/.exec(part)
      return m === null ? [part] : Array<string>(Math.min(Number(m[2]), 100_000)).fill(m[1] ?? '0')
    })
    .join(':')

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

const HOOKS: ReadonlyArray<HookName> = ['completeForm', 'failForm', 'receiveTransfer', 'receiveTransferByKid', 'receiveOcrGiro']

const coverageOf = (t: Tally, options: CheckServiceOptions): Coverage => ({
  requests: { ...t.requests },
  events: { ...t.events },
  states: Object.fromEntries(Object.entries(t.states).map(([row, cells]) => [row, Object.fromEntries(Object.entries(cells).map(([c, v]) => [c, { ...v }]))])),
  webhooksChecked: t.webhooksChecked,
  webhooksMissing: t.webhooksMissing,
  charged: t.charged,
  refunded: t.refunded,
  invoicePaid: t.invoicePaid,
  kinds: [...(options.kinds ?? ['card', 'invoice'])],
  hooks: Object.fromEntries(
    HOOKS.filter((h) => options[h] !== undefined && !(h === 'receiveTransfer' && options.receiveTransferByKid !== undefined)).map((h) => {
      const use = t.hooks.get(h)
      return [h, { sent: use?.sent ?? 0, skipped: use?.skipped ?? 0 }]
    })
  ),
  webhooks: options.webhookReceiver !== undefined || options.receivedWebhooks !== undefined
})

/** The notes of hooks that said they could not drive the service: how often, and why. */
const skippedNotes = (t: Tally): string[] =>
  [...t.hooks].flatMap(([hook, use]) =>
    [...use.reasons].map(
      ([reason, n]) => `The ${hook} hook could not drive the service ${String(n)} time(s) of ${String(use.sent)} (${reason}): those events were not sent, and the model was left as it was.`
    )
  )

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
 * import { checkService } from 'paysplit/conformance'
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
  const prefix = prefixOf(seed, options.runId, options.now)
  const notes: string[] = []
  const tally = emptyTally()
  let runs = 0
  let failure: { log: ReadonlyArray<string>; steps: ReadonlyArray<ReportedStep>; message: string; tag: string; hook?: HookName } | undefined
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
        tick: 0,
        ocrFiles: 0
      }
      try {
        await options.reset?.()
        const seen = options.receivedWebhooks === undefined ? 0 : (await options.receivedWebhooks()).length
        const real: Real = { sut: withRetries(options, options.retries ?? 0, tag), reads, seen, tally, keys: 0 }
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds)
          await checkReceived(model, real)
        } finally {
          tallyLives(tally, model)
        }
        options.onRun?.(runs, true, model.steps.length)
      } catch (e) {
        failure = {
          log: [...model.log],
          steps: [...model.steps],
          message: e instanceof Mismatch ? e.message : `the service threw: ${e instanceof Error ? e.message : String(e)}`,
          tag,
          ...(e instanceof HookFailure ? { hook: e.hook } : {})
        }
        failedAt ??= options.now?.()
        options.onRun?.(runs, false, model.steps.length)
        throw e
      }
    })
    // A replay runs exactly the counterexample of its path, once, and shrinks it no further.
    const details = await fc.check(
      property,
      runPath !== undefined
        ? { seed, path: unpackPath(runPath), numRuns: 1, endOnFailure: true }
        : { ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}), seed }
    )
    notes.push(...skippedNotes(tally))
    const coverage = coverageOf(tally, options)
    if (!details.failed) return { ok: true, numRuns: details.numRuns, seed: details.seed, prefix, notes, coverage }
    if (shrinkCut) notes.push(`Shrinking stopped when its time budget (${String(options.maxShrinkMs)} ms) was spent: the counterexample is the shortest found by then, not necessarily the shortest.`)
    const f = failure
    const report = fc.defaultReportMessage(details) ?? ''
    const log = f === undefined ? '(no log)' : [...f.log.map((l) => replaceAll(l, f.tag, '')), `✗ ${replaceAll(f.message, f.tag, '')}`].join('\n')
    const path = details.counterexamplePath === null ? '' : `${packPath(details.counterexamplePath)}|${/replayPath="([^"]*)"/.exec(report)?.[1] ?? ''}`
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
      details: report,
      ...(f?.hook !== undefined ? { hook: f.hook } : {})
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
 * import { assertConforms } from 'paysplit/conformance'
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
