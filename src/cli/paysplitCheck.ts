/**
 * `paysplit-check <base-url>`: the conformance runner of paysplit/testing as a command (the
 * adapter side: sockets, the clock, the terminal). It sends the contract's requests to a running
 * service with `fetch`, optionally starts a webhook receiver on 127.0.0.1 and subscribes to it,
 * shows progress, prints the report (with the requests of a failure and the command that replays
 * them) and exits 1 when the service differs from paysplit's model, 2 on a usage error.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import type { PaymentKind } from '../payment.js'
import { checkService, describeReport, type CheckServiceOptions, type ConformanceReport, type ServiceRequest, type ServiceResponse } from '../testing.js'
import { startReceiver, type RunningReceiver } from './receiver.js'

/** Where the command writes; a terminal gets a progress bar, anything else plain lines. */
export interface CliIO {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly isTTY: boolean
  /** Milliseconds since some fixed point (the run id and the run time). */
  readonly now: () => number
}

export const usage = `Usage: paysplit-check <base-url> [options]

Checks a running payments service against paysplit's reference model (docs/testing.md).

Options:
  --runs N             command sequences to run (default 100)
  --seed S             seed of the sequences (default: a random one, printed)
  --path P             replay one failure: the path its report printed (with its --seed)
  --run-id ID          names this run's references (default: from the clock)
  --webhooks           start a webhook receiver on 127.0.0.1 and check the webhooks it gets
  --webhook-port N     port of the receiver (default: any free one)
  --webhook-url URL    url the service reaches the receiver at (default http://127.0.0.1:<port>)
  --webhook-secret S   Standard Webhooks secret (whsec_…): check every signature
  --grace MS           how long to wait for missing webhooks (default 3000)
  --api-key K          sent as Authorization: Bearer K
  --max-commands N     longest sequence (default 12)
  --kinds K            card, invoice or card,invoice (default both)
  --no-races           do not send the same request twice at once
  --retries N          send every POST with an Idempotency-Key, then N more times with
                       the same key: each resend must get the first answer (default 0)
  --compare-messages   compare human-readable messages too
  --json FILE          write the report as JSON to FILE
  --help               this text`

const int = (name: string, raw: string | undefined, min: number): number | undefined => {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${String(min)}, got "${raw}".`)
  return n
}

class UsageError extends Error {}

/** Sends one request with fetch and reads the answer as JSON (or as text when it is not JSON). */
const sender =
  (base: string, apiKey: string | undefined) =>
  async (request: ServiceRequest): Promise<ServiceResponse> => {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (apiKey !== undefined) headers['authorization'] = `Bearer ${apiKey}`
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    Object.assign(headers, request.headers)
    const res = await fetch(base + request.path, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000)
    })
    const text = await res.text()
    let body: unknown = text === '' ? undefined : text
    try {
      if (text !== '') body = JSON.parse(text)
    } catch {
      // not JSON: compared as text, so the report shows it
    }
    return { status: res.status, body }
  }

/** A progress bar on a terminal; a line per tenth of the runs otherwise. */
const progress = (io: CliIO, total: number): { readonly onRun: (run: number, passed: boolean) => void; readonly end: () => void } => {
  let failedAt: number | undefined
  let lastLine = -1
  const width = 30
  return {
    onRun: (run, passed) => {
      if (!passed && failedAt === undefined) failedAt = run
      const shrinking = failedAt !== undefined
      if (io.isTTY) {
        const done = Math.min(run, total)
        const bar = shrinking ? `shrinking the failure of run ${String(failedAt)}: ${String(run - (failedAt ?? 0))} tries` : `[${'#'.repeat(Math.round((done / total) * width)).padEnd(width, '-')}] ${String(done)}/${String(total)} runs`
        io.err(`\r\x1b[2K${bar}`)
        return
      }
      if (shrinking) {
        if (run === failedAt) io.err(`run ${String(run)} failed; shrinking it…\n`)
        return
      }
      const tenth = Math.floor((run * 10) / total)
      if (tenth !== lastLine) {
        lastLine = tenth
        if (run % Math.max(1, Math.floor(total / 10)) === 0 || run === total) io.err(`${String(run)}/${String(total)} runs passed\n`)
      }
    },
    end: () => {
      if (io.isTTY) io.err('\r\x1b[2K')
    }
  }
}

/** The report as written with --json. */
const jsonReport = (report: ConformanceReport, base: string, ms: number, replay: string): unknown => ({
  ok: report.ok,
  baseUrl: base,
  numRuns: report.numRuns,
  seed: report.seed,
  prefix: report.prefix,
  notes: report.notes,
  durationMs: ms,
  ...(report.ok ? {} : { failure: { path: report.path, counterexample: report.counterexample, steps: report.steps, replay } })
})

/**
 * Runs the command with `args` (without the node and script paths) and resolves with the exit
 * code: 0 when the service conforms, 1 when it differs, 2 on a usage error.
 */
export const runCli = async (args: ReadonlyArray<string>, io: CliIO): Promise<number> => {
  let values: Record<string, string | boolean | undefined>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        runs: { type: 'string' },
        seed: { type: 'string' },
        path: { type: 'string' },
        'run-id': { type: 'string' },
        webhooks: { type: 'boolean' },
        'webhook-port': { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-secret': { type: 'string' },
        grace: { type: 'string' },
        'api-key': { type: 'string' },
        'max-commands': { type: 'string' },
        kinds: { type: 'string' },
        'no-races': { type: 'boolean' },
        retries: { type: 'string' },
        'compare-messages': { type: 'boolean' },
        json: { type: 'string' },
        help: { type: 'boolean' }
      }
    }))
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n\n${usage}\n`)
    return 2
  }
  if (values['help'] === true) {
    io.out(`${usage}\n`)
    return 0
  }
  let receiver: RunningReceiver | undefined
  try {
    const [rawBase, ...extra] = positionals
    if (rawBase === undefined || extra.length > 0) throw new UsageError('Give exactly one base url, e.g. paysplit-check http://127.0.0.1:8080')
    let base: string
    try {
      const u = new URL(rawBase)
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http')
      base = rawBase.replace(/\/+$/, '')
    } catch {
      throw new UsageError(`The base url must be an absolute http(s) url, got "${rawBase}".`)
    }
    const str = (k: string): string | undefined => (typeof values[k] === 'string' ? values[k] : undefined)
    const runs = int('runs', str('runs'), 1) ?? 100
    const seed = str('seed') === undefined ? undefined : Number(str('seed'))
    if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer, got "${String(str('seed'))}".`)
    const kinds = str('kinds')?.split(',').map((k) => k.trim())
    if (kinds !== undefined && (kinds.length === 0 || kinds.some((k) => k !== 'card' && k !== 'invoice'))) throw new UsageError(`--kinds takes card, invoice or card,invoice, got "${String(str('kinds'))}".`)
    const maxCommands = int('max-commands', str('max-commands'), 1)
    const retries = int('retries', str('retries'), 0)
    const graceMs = int('grace', str('grace'), 0)
    const port = int('webhook-port', str('webhook-port'), 0)
    const secret = str('webhook-secret')
    const webhooks = values['webhooks'] === true
    if (!webhooks && (secret !== undefined || port !== undefined || str('webhook-url') !== undefined)) throw new UsageError('--webhook-port, --webhook-url and --webhook-secret go with --webhooks.')
    // The run id: the clock's, so that runs of the same seed on one service never share a reference.
    const runId = str('run-id') ?? io.now().toString(36)
    if (webhooks) {
      receiver = await startReceiver({
        ...(port !== undefined ? { port } : {}),
        ...(str('webhook-url') !== undefined ? { publicUrl: str('webhook-url') } : {}),
        ...(graceMs !== undefined ? { graceMs } : {}),
        ...(secret !== undefined ? { secret } : {})
      })
    }
    const bar = progress(io, runs)
    const options: CheckServiceOptions = {
      send: sender(base, str('api-key')),
      numRuns: runs,
      runId,
      races: values['no-races'] !== true,
      onRun: bar.onRun,
      ...(seed !== undefined ? { seed } : {}),
      ...(str('path') !== undefined ? { path: str('path') } : {}),
      ...(maxCommands !== undefined ? { maxCommands } : {}),
      ...(retries !== undefined ? { retries } : {}),
      ...(kinds !== undefined ? { kinds: kinds as PaymentKind[] } : {}),
      ...(values['compare-messages'] === true ? { compareMessages: true } : {}),
      ...(receiver !== undefined ? { webhookReceiver: receiver } : {})
    }
    io.err(`paysplit-check ${base}: ${String(runs)} run(s)${webhooks ? `, webhooks at ${receiver?.url ?? ''}` : ''}\n`)
    const started = io.now()
    const report = await checkService(options)
    const ms = io.now() - started
    bar.end()
    // The flags that shape the sequences, so that the replay line sends exactly the same requests.
    const shaping = [
      webhooks ? '--webhooks' : '',
      values['no-races'] === true ? '--no-races' : '',
      maxCommands !== undefined ? `--max-commands ${String(maxCommands)}` : '',
      retries !== undefined && retries > 0 ? `--retries ${String(retries)}` : '',
      kinds !== undefined ? `--kinds ${kinds.join(',')}` : '',
      str('api-key') !== undefined ? '--api-key "$API_KEY"' : ''
    ].filter((s) => s !== '')
    const command = ['npx paysplit-check', base, ...shaping].join(' ')
    io.out(`${describeReport(report, command)}\n`)
    const hooks = receiver === undefined ? '' : `, ${String(receiver.received.length)} webhook(s) received`
    io.out(`${report.ok ? 'PASSED' : 'FAILED'}: ${String(report.numRuns)} run(s) in ${(ms / 1000).toFixed(1)} s${hooks}, seed ${String(report.seed)}, references prefixed ${report.prefix}\n`)
    const file = str('json')
    if (file !== undefined) writeFileSync(file, JSON.stringify(jsonReport(report, base, ms, report.ok ? '' : `${command} ${report.replay}`), null, 2) + '\n')
    return report.ok ? 0 : 1
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${e instanceof UsageError ? `\n${usage}\n` : ''}`)
    return 2
  } finally {
    await receiver?.close()
  }
}
