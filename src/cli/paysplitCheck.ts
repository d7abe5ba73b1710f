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
import {
  checkService,
  describeCoverage,
  describeReport,
  type CheckServiceOptions,
  type ConformanceReport,
  type ServiceRequest,
  type ServiceResponse,
  type SkippedHook
} from '../testing.js'
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
  --seed S             seed of the sequences (default: a random one, printed;
                       a negative one as --seed=-5 or --seed -5)
  --path P             replay one failure: the path its report printed (with its --seed)
  --run-id ID          names this run's references (default: from the clock)
  --webhooks           start a webhook receiver on 127.0.0.1 and check the webhooks it gets
  --webhook-port N     port of the receiver (default: any free one)
  --webhook-url URL    url the service reaches the receiver at (default http://127.0.0.1:<port>)
  --webhook-secret S   Standard Webhooks secret (whsec_…): check every signature
  --grace MS           how long to wait for missing webhooks (default 3000)
  --api-key K          sent as Authorization: Bearer K
  --form-complete-path P   POST P (with {id} the payment's id) completes the payment
                       form, e.g. '/pay/{id}/complete': cards get charged and refunded
  --form-fail-path P   POST P fails the payment form, e.g. '/pay/{id}/fail'
  --form-page-path P   GET the form page P first, e.g. '/pay/{id}', and post the hidden
                       fields of its form (a token issued with the page), as a browser does
  --bank-transfer-path P   POST P with {"kid","amount"} reports a bank transfer,
                       e.g. '/bank/transfers': invoices get paid
  --bank-key K         sent as Authorization: Bearer K to the bank path
  --max-commands N     longest sequence (default 12)
  --kinds K            card, invoice or card,invoice (default both)
  --environments E     test, production or test,production (default both): 'test' for
                       a service whose form completes test payments only
  --no-races           do not send the same request twice at once
  --retries N          send every POST with an Idempotency-Key, then N more times with
                       the same key: each resend must get the first answer (default 0)
  --compare-messages   compare human-readable messages too
  --max-shrink-seconds N   time budget for shrinking a failure (default 120)
  --json FILE          write the report as JSON to FILE
  --junit FILE         write the report as JUnit XML to FILE (for CI)
  --help               this text`

const int = (name: string, raw: string | undefined, min: number): number | undefined => {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${String(min)}, got "${raw}".`)
  return n
}

class UsageError extends Error {}

/** A connection error (refused, reset, no such host, timed out): the service was not reached. */
class Unreachable extends Error {}

/** The service refused the API key (or its absence) before any run: nothing could be checked. */
class KeyRefused extends Error {}

/** The reason of a failed fetch, as its cause names it (`ECONNREFUSED`, `ENOTFOUND`, …). */
const causeOf = (e: unknown): string => {
  const cause = e instanceof Error ? (e.cause as { code?: unknown; message?: unknown } | undefined) : undefined
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return e instanceof Error ? e.message : String(e)
}

/** fetch, with a connection error turned into {@link Unreachable}. */
const reach = async (base: string, path: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(base + path, { redirect: 'manual', signal: AbortSignal.timeout(30_000), ...init })
  } catch (e) {
    throw new Unreachable(`cannot reach ${base} (${causeOf(e)})`)
  }
}

/** Sends one request with fetch and reads the answer as JSON (or as text when it is not JSON). */
const sender =
  (base: string, apiKey: string | undefined) =>
  async (request: ServiceRequest): Promise<ServiceResponse> => {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (apiKey !== undefined) headers['authorization'] = `Bearer ${apiKey}`
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    Object.assign(headers, request.headers)
    const res = await reach(base, request.path, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) })
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

/** Statuses that say a form or bank path cannot be driven from outside (no such route, a token or a session wanted). */
const REFUSED_HOOK = [401, 403, 404, 405, 415]

/** Decodes the few character references a form's attribute values carry. */
const unescapeHtml = (s: string): string =>
  s.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos|#39));/gi, (m, dec?: string, hex?: string, name?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec))
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16))
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" } as Record<string, string>)[(name ?? '').toLowerCase()] ?? m
  })

/** An attribute of one HTML tag (double- or single-quoted), decoded. */
const attribute = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag)
  return m === null ? undefined : unescapeHtml(m[1] ?? m[2] ?? '')
}

/**
 * The hidden fields of the page's form that posts to `action` (a path), as a browser would send
 * them; undefined when the page has no such form. A page of at most 1 MiB is read.
 */
export const hiddenFieldsOf = (html: string, action: string): Record<string, string> | undefined => {
  const page = html.slice(0, 1024 * 1024)
  for (const form of page.matchAll(/<form\b[^>]*>[\s\S]*?<\/form\s*>/gi)) {
    const open = /^<form\b[^>]*>/i.exec(form[0])?.[0] ?? ''
    const target = attribute(open, 'action')
    if (target === undefined || (target !== action && !target.endsWith(action))) continue
    const fields: Record<string, string> = {}
    for (const input of form[0].matchAll(/<input\b[^>]*>/gi)) {
      if ((attribute(input[0], 'type') ?? '').toLowerCase() !== 'hidden') continue
      const name = attribute(input[0], 'name')
      if (name !== undefined) fields[name] = attribute(input[0], 'value') ?? ''
    }
    return fields
  }
  return undefined
}

/**
 * A form or bank hook: POSTs to `template` (`{id}` the payment's id) and resolves with nothing,
 * or with `{ skipped }` when the service refuses the hook itself; a 5xx is the service's failure.
 * With `pageTemplate` (a form hook), it first GETs the payment's form page there and posts the
 * hidden fields of the form whose action is the hook's path (a token issued with the page, say),
 * form-encoded and same-origin, as the customer's browser does.
 */
const hook =
  (base: string, template: string, headers: Record<string, string>, pageTemplate?: string) =>
  async (id: string, body?: unknown): Promise<SkippedHook | undefined> => {
    const path = template.replaceAll('{id}', encodeURIComponent(id))
    let res: Response
    if (pageTemplate === undefined) {
      res = await reach(base, path, {
        method: 'POST',
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    } else {
      const pagePath = pageTemplate.replaceAll('{id}', encodeURIComponent(id))
      const page = await reach(base, pagePath, { method: 'GET', headers: { ...headers, accept: 'text/html' } })
      const html = await page.text()
      if (REFUSED_HOOK.includes(page.status)) return { skipped: `GET ${pageTemplate} answered ${String(page.status)}: the form page cannot be read from outside` }
      if (page.status >= 500) throw new Error(`GET ${pagePath} answered ${String(page.status)}`)
      const fields = hiddenFieldsOf(html, path)
      // the page offers no such form (a payment past its form, say): the customer cannot act
      if (fields === undefined) return undefined
      const reason = typeof body === 'object' && body !== null && Object.prototype.hasOwnProperty.call(body, 'reason') ? (body as { reason?: unknown }).reason : undefined
      if (typeof reason === 'string') fields['reason'] = reason
      res = await reach(base, path, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', origin: new URL(base).origin },
        body: new URLSearchParams(fields).toString()
      })
    }
    await res.arrayBuffer()
    if (REFUSED_HOOK.includes(res.status)) {
      return { skipped: `POST ${template} answered ${String(res.status)}; a form that wants a token or a session, or a bank route that wants another key, cannot be driven from outside (try --form-page-path)` }
    }
    if (res.status >= 500) throw new Error(`POST ${path} answered ${String(res.status)}`)
    return undefined
  }

/**
 * A progress bar on a terminal; a line per tenth of the runs otherwise. While a failure is shrunk:
 * a line for each shorter counterexample and every 25 tries, with the time spent.
 */
const progress = (io: CliIO, total: number, maxShrinkSeconds: number): { readonly onRun: (run: number, passed: boolean, steps: number) => void; readonly end: () => void } => {
  let failedAt: number | undefined
  let shrinkStart = 0
  let shortest = 0
  let lastLine = -1
  const width = 30
  return {
    onRun: (run, passed, steps) => {
      const first = !passed && failedAt === undefined
      if (first) {
        failedAt = run
        shrinkStart = io.now()
        shortest = steps
      }
      // strictly shorter: a failing try of the same length (a value shrunk) is no news
      const shorter = !passed && !first && steps < shortest
      if (shorter) shortest = steps
      if (failedAt !== undefined) {
        const tries = run - failedAt
        const spent = `${((io.now() - shrinkStart) / 1000).toFixed(0)} s of at most ${String(maxShrinkSeconds)} s`
        const line = `shrinking the failure of run ${String(failedAt)}: ${String(tries)} tries, shortest counterexample ${String(shortest)} steps (${spent})`
        if (io.isTTY) io.err(`\r\x1b[2K${line}`)
        else if (first) io.err(`run ${String(run)} failed (${String(steps)} steps); shrinking it (at most ${String(maxShrinkSeconds)} s)…\n`)
        else if (shorter || tries % 25 === 0) io.err(`${line}\n`)
        return
      }
      if (io.isTTY) {
        const done = Math.min(run, total)
        io.err(`\r\x1b[2K[${'#'.repeat(Math.round((done / total) * width)).padEnd(width, '-')}] ${String(done)}/${String(total)} runs`)
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

const xml = (s: string): string => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c).replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')

/** The report as JUnit XML: one test case, failed with the report's text when the service differs. */
const junitReport = (report: ConformanceReport, base: string, ms: number, text: string, coverage: string): string => {
  const name = `${base} behaves like paysplit's model (${String(report.numRuns)} runs, seed ${String(report.seed)})`
  const seconds = (ms / 1000).toFixed(3)
  const failure = report.ok ? '' : `\n      <failure message="The service differs from paysplit's model" type="ConformanceFailure">${xml(text)}</failure>`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="paysplit-check" tests="1" failures="${report.ok ? '0' : '1'}" time="${seconds}">`,
    `  <testsuite name="paysplit-check" tests="1" failures="${report.ok ? '0' : '1'}" errors="0" skipped="0" time="${seconds}">`,
    `    <testcase classname="paysplit-check" name="${xml(name)}" time="${seconds}">${failure}`,
    `      <system-out>${xml([coverage, ...report.notes.map((n) => `Note: ${n}`)].join('\n'))}</system-out>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    ''
  ].join('\n')
}

/** The report as written with --json. */
const jsonReport = (report: ConformanceReport, base: string, ms: number, replay: string): unknown => ({
  ok: report.ok,
  baseUrl: base,
  numRuns: report.numRuns,
  seed: report.seed,
  prefix: report.prefix,
  notes: report.notes,
  ...(report.coverage !== undefined ? { coverage: report.coverage } : {}),
  durationMs: ms,
  ...(report.ok ? {} : { failure: { path: report.path, counterexample: report.counterexample, steps: report.steps, replay } })
})

/** The options; each a string unless a flag. New options go here and in {@link usage}. */
const options = {
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
  'form-complete-path': { type: 'string' },
  'form-fail-path': { type: 'string' },
  'form-page-path': { type: 'string' },
  'bank-transfer-path': { type: 'string' },
  'bank-key': { type: 'string' },
  'max-commands': { type: 'string' },
  kinds: { type: 'string' },
  environments: { type: 'string' },
  'no-races': { type: 'boolean' },
  retries: { type: 'string' },
  'compare-messages': { type: 'boolean' },
  'max-shrink-seconds': { type: 'string' },
  json: { type: 'string' },
  junit: { type: 'string' },
  help: { type: 'boolean' }
} as const

/**
 * `--seed -5` as `--seed=-5`: a value that starts with `-` after a string option is a negative
 * number here, which `parseArgs` would otherwise refuse as ambiguous.
 */
const joinNegative = (args: ReadonlyArray<string>): string[] => {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ''
    const next = args[i + 1]
    const name = a.startsWith('--') ? a.slice(2) : ''
    if (name in options && options[name as keyof typeof options].type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`)
      i++
    } else out.push(a)
  }
  return out
}

/** A path template given on the command line: absolute, and `{id}` where the form needs the payment's id. */
const template = (name: string, raw: string | undefined, needsId: boolean): string | undefined => {
  if (raw === undefined) return undefined
  if (!raw.startsWith('/') || (needsId && !raw.includes('{id}'))) throw new UsageError(`--${name} must be a path starting with /${needsId ? ' holding {id}' : ''}, got "${raw}".`)
  return raw
}

/**
 * Runs the command with `args` (without the node and script paths) and resolves with the exit
 * code: 0 when the service conforms, 1 when it differs, 2 on a usage error, when the service
 * cannot be reached, or when it refuses the API key.
 */
export const runCli = async (args: ReadonlyArray<string>, io: CliIO): Promise<number> => {
  let values: Record<string, string | boolean | undefined>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({ args: joinNegative(args), allowPositionals: true, options }))
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
    const environments = str('environments')?.split(',').map((k) => k.trim())
    if (environments !== undefined && (environments.length === 0 || environments.some((k) => k !== 'test' && k !== 'production'))) {
      throw new UsageError(`--environments takes test, production or test,production, got "${String(str('environments'))}".`)
    }
    const maxCommands = int('max-commands', str('max-commands'), 1)
    const retries = int('retries', str('retries'), 0)
    const graceMs = int('grace', str('grace'), 0)
    const port = int('webhook-port', str('webhook-port'), 0)
    const maxShrinkSeconds = int('max-shrink-seconds', str('max-shrink-seconds'), 0) ?? 120
    const secret = str('webhook-secret')
    const webhooks = values['webhooks'] === true
    if (!webhooks && (secret !== undefined || port !== undefined || str('webhook-url') !== undefined)) throw new UsageError('--webhook-port, --webhook-url and --webhook-secret go with --webhooks.')
    const formComplete = template('form-complete-path', str('form-complete-path'), true)
    const formFail = template('form-fail-path', str('form-fail-path'), true)
    const formPage = template('form-page-path', str('form-page-path'), true)
    const bankPath = template('bank-transfer-path', str('bank-transfer-path'), false)
    const bankKey = str('bank-key')
    if (bankKey !== undefined && bankPath === undefined) throw new UsageError('--bank-key goes with --bank-transfer-path.')
    // Reachable at all? A connection error is no difference from the model: exit 2, before any run.
    await (await reach(base, '/', { method: 'GET' })).arrayBuffer()
    // The API key: a create it refuses (401, 403) is a missing or wrong key, not a difference from
    // the model, and every request of every run would fail the same way. `{}` creates nothing.
    const keyed = await sender(base, str('api-key'))({ method: 'POST', path: '/payments', body: {} })
    if (keyed.status === 401 || keyed.status === 403) {
      const code = keyed.body !== null && typeof keyed.body === 'object' ? (keyed.body as { error?: { code?: unknown } }).error?.code : undefined
      const answered = `${String(keyed.status)}${typeof code === 'string' ? ` ${code}` : ''}`
      throw new KeyRefused(
        str('api-key') === undefined
          ? `${base} refused a request without an API key (POST /payments answered ${answered}): give the service's key with --api-key`
          : `${base} refused the API key given with --api-key (POST /payments answered ${answered})`
      )
    }
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
    const bar = progress(io, runs, maxShrinkSeconds)
    const bank = bankPath === undefined ? undefined : hook(base, bankPath, bankKey === undefined ? {} : { authorization: `Bearer ${bankKey}` })
    const complete = formComplete === undefined ? undefined : hook(base, formComplete, {}, formPage)
    const fail = formFail === undefined ? undefined : hook(base, formFail, {}, formPage)
    const checkOptions: CheckServiceOptions = {
      send: sender(base, str('api-key')),
      numRuns: runs,
      runId,
      races: values['no-races'] !== true,
      onRun: bar.onRun,
      maxShrinkMs: maxShrinkSeconds * 1000,
      now: io.now,
      ...(seed !== undefined ? { seed } : {}),
      ...(str('path') !== undefined ? { path: str('path') } : {}),
      ...(maxCommands !== undefined ? { maxCommands } : {}),
      ...(retries !== undefined ? { retries } : {}),
      ...(kinds !== undefined ? { kinds: kinds as PaymentKind[] } : {}),
      ...(environments !== undefined ? { environments: environments as Array<'test' | 'production'> } : {}),
      ...(values['compare-messages'] === true ? { compareMessages: true } : {}),
      ...(receiver !== undefined ? { webhookReceiver: receiver } : {}),
      ...(complete !== undefined ? { completeForm: (id: string) => complete(id) } : {}),
      ...(fail !== undefined ? { failForm: (id: string) => fail(id) } : {}),
      ...(bank !== undefined ? { receiveTransferByKid: (kid: string, amount: number) => bank('', { kid, amount }) } : {})
    }
    io.err(`paysplit-check ${base}: ${String(runs)} run(s)${webhooks ? `, webhooks at ${receiver?.url ?? ''}` : ''}\n`)
    const started = io.now()
    const report = await checkService(checkOptions)
    const ms = io.now() - started
    bar.end()
    // The service went away during the run: not a difference either.
    const lost = report.ok ? undefined : /cannot reach \S+ \([^)]*\)/.exec(report.counterexample)
    if (lost !== null && lost !== undefined) throw new Unreachable(`${lost[0]} during the run`)
    // The flags that shape the sequences, so that the replay line sends exactly the same requests.
    const quoted = (flag: string, value: string | undefined): string => (value === undefined ? '' : `${flag} '${value}'`)
    const shaping = [
      webhooks ? '--webhooks' : '',
      values['no-races'] === true ? '--no-races' : '',
      maxCommands !== undefined ? `--max-commands ${String(maxCommands)}` : '',
      retries !== undefined && retries > 0 ? `--retries ${String(retries)}` : '',
      kinds !== undefined ? `--kinds ${kinds.join(',')}` : '',
      environments !== undefined ? `--environments ${environments.join(',')}` : '',
      str('api-key') !== undefined ? '--api-key "$API_KEY"' : '',
      quoted('--form-complete-path', formComplete),
      quoted('--form-fail-path', formFail),
      quoted('--form-page-path', formPage),
      quoted('--bank-transfer-path', bankPath),
      bankKey !== undefined ? '--bank-key "$BANK_KEY"' : ''
    ].filter((s) => s !== '')
    const command = ['npx paysplit-check', base, ...shaping].join(' ')
    const text = describeReport(report, command)
    io.out(`${text}\n`)
    const hooks = receiver === undefined ? '' : `, ${String(receiver.received.length)} webhook(s) received`
    io.out(`${report.ok ? 'PASSED' : 'FAILED'}: ${String(report.numRuns)} run(s) in ${(ms / 1000).toFixed(1)} s${hooks}, seed ${String(report.seed)}, references prefixed ${report.prefix}\n`)
    const coverage = report.coverage === undefined ? '' : describeCoverage(report.coverage)
    const missing = report.coverage !== undefined && !(report.coverage.charged && report.coverage.refunded && report.coverage.invoicePaid)
    if (coverage !== '') io.out(`${coverage}${missing ? '\n  With paysplit-check: --form-complete-path for the form, --bank-transfer-path and --bank-key for the bank.' : ''}\n`)
    const file = str('json')
    if (file !== undefined) writeFileSync(file, JSON.stringify(jsonReport(report, base, ms, report.ok ? '' : `${command} ${report.replay}`), null, 2) + '\n')
    const junit = str('junit')
    if (junit !== undefined) writeFileSync(junit, junitReport(report, base, ms, text, coverage))
    return report.ok ? 0 : 1
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${e instanceof UsageError ? `\n${usage}\n` : ''}`)
    return 2
  } finally {
    await receiver?.close()
  }
}
