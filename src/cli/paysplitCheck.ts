/**
 * `paysplit-check <base-url>`: the conformance runner of `paysplit/conformance` as a command (the
 * adapter side: sockets, the clock, the terminal). It sends the contract's requests to a running
 * service with `fetch`, optionally starts a webhook receiver on 127.0.0.1 and subscribes to it,
 * shows progress, prints the report (with the requests of a failure, as curl commands too, and
 * the command line that replays it) and exits 1 when the service differs from paysplit's model, 2
 * on a usage error. `paysplit-check mock` serves a stateful mock of the whole API instead
 * (./mock/command.ts).
 */
import { writeFileSync } from 'node:fs'
import type { PaymentKind } from '../payment.js'
import { checkService, describeCoverage, describeReport, httpService, startWebhookReceiver, type CheckServiceOptions, type RunningWebhookReceiver } from '../conformance.js'
import { int, parse, secret, str, template, UsageError, type OptionTable, type Secret, type Values } from './args.js'
import { Unreachable } from './httpService.js'
import { runMock } from './mock/command.js'
import { curlLines, jsonReport, junitReport, progress, shellQuote, type CliIO } from './output.js'

export type { CliIO } from './output.js'

export const usage = `Usage: paysplit-check <base-url> [options]
       paysplit-check mock [options]      (a stateful mock of the API: paysplit-check mock --help)

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
  --webhook-secret-env V   the same, from the environment variable V
  --grace MS           how long to wait for missing webhooks (default 3000)
  --api-key K          sent as Authorization: Bearer K
  --api-key-env V      the same, the key from the environment variable V
  --form-complete-path P   POST P (with {id} the payment's id) completes the payment
                       form, e.g. '/pay/{id}/complete': cards get charged and refunded
  --form-fail-path P   POST P fails the payment form, e.g. '/pay/{id}/fail'
  --form-page-path P   GET the form page P first, e.g. '/pay/{id}', and post the hidden
                       fields of its form (a token issued with the page), as a browser does
  --bank-transfer-path P   POST P with {"kid","amount"} reports a bank transfer,
                       e.g. '/bank/transfers': invoices get paid
  --bank-ocr-path P    POST P with OCR giro files (text/plain), e.g. '/bank/ocr':
                       invoices get paid by file, and a file sent twice counts once
  --bank-key K         sent as Authorization: Bearer K to the bank paths
  --bank-key-env V     the same, the key from the environment variable V
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

/** The options; each a string unless a flag. New options go here, in {@link usage} and, when they shape a run, in {@link replayLine}. */
const options: OptionTable = {
  runs: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
  'run-id': { type: 'string' },
  webhooks: { type: 'boolean' },
  'webhook-port': { type: 'string' },
  'webhook-url': { type: 'string' },
  'webhook-secret': { type: 'string' },
  'webhook-secret-env': { type: 'string' },
  grace: { type: 'string' },
  'api-key': { type: 'string' },
  'api-key-env': { type: 'string' },
  'form-complete-path': { type: 'string' },
  'form-fail-path': { type: 'string' },
  'form-page-path': { type: 'string' },
  'bank-transfer-path': { type: 'string' },
  'bank-ocr-path': { type: 'string' },
  'bank-key': { type: 'string' },
  'bank-key-env': { type: 'string' },
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
}

/** The service refused the API key (or its absence) before any run: nothing could be checked. */
class KeyRefused extends Error {}

/** A comma-separated list of `allowed` values. */
const list = <A extends string>(values: Values, name: string, allowed: ReadonlyArray<A>): A[] | undefined => {
  const raw = str(values, name)
  if (raw === undefined) return undefined
  const items = raw.split(',').map((k) => k.trim())
  if (items.length === 0 || items.some((k) => !allowed.includes(k as A))) throw new UsageError(`--${name} takes ${allowed.join(', ')} or ${allowed.join(',')}, got "${raw}".`)
  return items as A[]
}

/** The secrets of a run (the API key, the bank key, the webhook secret), each with the variable the replay line names it by. */
interface Secrets {
  readonly apiKey: Secret | undefined
  readonly bankKey: Secret | undefined
  readonly webhookSecret: Secret | undefined
}

/**
 * The command line that replays a failure: the base url and every option that shapes the run
 * (what it sends, where and how its webhooks go and are judged, its form and bank, its run id when
 * one was given), secrets by the variable that holds them; the seed and path follow.
 */
const replayLine = (base: string, values: Values, secrets: Secrets): string => {
  const flag = (name: string): string => (values[name] === true ? `--${name}` : '')
  const given = (name: string): string => {
    const v = str(values, name)
    return v === undefined ? '' : `--${name} ${/^[A-Za-z0-9_.,:/-]+$/.test(v) && !v.includes('{') ? v : shellQuote(v)}`
  }
  const byVariable = (name: string, s: Secret | undefined): string => (s === undefined ? '' : `--${name}-env ${s.variable}`)
  return [
    'npx paysplit-check',
    base,
    given('runs'),
    given('run-id'),
    flag('webhooks'),
    given('webhook-port'),
    given('webhook-url'),
    byVariable('webhook-secret', secrets.webhookSecret),
    given('grace'),
    byVariable('api-key', secrets.apiKey),
    given('form-complete-path'),
    given('form-fail-path'),
    given('form-page-path'),
    given('bank-transfer-path'),
    given('bank-ocr-path'),
    byVariable('bank-key', secrets.bankKey),
    given('max-commands'),
    given('kinds'),
    given('environments'),
    flag('no-races'),
    given('retries'),
    flag('compare-messages')
  ]
    .filter((s) => s !== '')
    .join(' ')
}

/** What the replay line needs set: the variables of secrets that were given on the command line itself. */
const variablesToSet = (secrets: Secrets): ReadonlyArray<string> =>
  (
    [
      [secrets.apiKey, '--api-key'],
      [secrets.bankKey, '--bank-key'],
      [secrets.webhookSecret, '--webhook-secret']
    ] as const
  ).flatMap(([s, name]) => (s?.literal === true ? [`${s.variable} (the value given with ${name})`] : []))

/**
 * Runs the command with `args` (without the node and script paths) and resolves with the exit
 * code: 0 when the service conforms (or a replay no longer fails), 1 when it differs, 2 on a usage
 * error, when the service cannot be reached, or when it refuses the API key.
 */
export const runCli = async (args: ReadonlyArray<string>, io: CliIO): Promise<number> => {
  if (args[0] === 'mock') return runMock(args.slice(1), io)
  let receiver: RunningWebhookReceiver | undefined
  try {
    const { values, positionals } = parse(args, options)
    if (values['help'] === true) {
      io.out(`${usage}\n`)
      return 0
    }
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
    const env = io.env ?? {}
    const secrets: Secrets = {
      apiKey: secret(values, env, 'api-key', 'PAYSPLIT_API_KEY'),
      bankKey: secret(values, env, 'bank-key', 'PAYSPLIT_BANK_KEY'),
      webhookSecret: secret(values, env, 'webhook-secret', 'PAYSPLIT_WEBHOOK_SECRET')
    }
    const replaying = str(values, 'path') !== undefined
    // a replay runs its one sequence, whatever --runs the line carries
    const runsGiven = int(values, 'runs', 1)
    const runs = replaying ? 1 : (runsGiven ?? 100)
    const seed = str(values, 'seed') === undefined ? undefined : Number(str(values, 'seed'))
    if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer, got "${String(str(values, 'seed'))}".`)
    if (replaying && seed === undefined) throw new UsageError('--path replays a failure of a seed: give its --seed too (the report printed both).')
    const kinds = list<PaymentKind>(values, 'kinds', ['card', 'invoice'])
    const environments = list(values, 'environments', ['test', 'production'] as const)
    const maxCommands = int(values, 'max-commands', 1)
    const retries = int(values, 'retries', 0)
    const graceMs = int(values, 'grace', 0)
    const port = int(values, 'webhook-port', 0)
    const maxShrinkSeconds = int(values, 'max-shrink-seconds', 0) ?? 120
    const webhooks = values['webhooks'] === true
    if (!webhooks && (secrets.webhookSecret !== undefined || port !== undefined || str(values, 'webhook-url') !== undefined || graceMs !== undefined)) {
      throw new UsageError('--webhook-port, --webhook-url, --webhook-secret and --grace go with --webhooks.')
    }
    const formCompletePath = template(values, 'form-complete-path', true)
    const formFailPath = template(values, 'form-fail-path', true)
    const formPagePath = template(values, 'form-page-path', true)
    const bankTransferPath = template(values, 'bank-transfer-path', false)
    const bankOcrPath = template(values, 'bank-ocr-path', false)
    if (formPagePath !== undefined && formCompletePath === undefined && formFailPath === undefined) throw new UsageError('--form-page-path goes with --form-complete-path or --form-fail-path.')
    if (secrets.bankKey !== undefined && bankTransferPath === undefined && bankOcrPath === undefined) throw new UsageError('--bank-key goes with --bank-transfer-path or --bank-ocr-path.')
    const service = httpService(base, {
      ...(secrets.apiKey !== undefined ? { apiKey: secrets.apiKey.value } : {}),
      ...(formCompletePath !== undefined ? { formCompletePath } : {}),
      ...(formFailPath !== undefined ? { formFailPath } : {}),
      ...(formPagePath !== undefined ? { formPagePath } : {}),
      ...(bankTransferPath !== undefined ? { bankTransferPath } : {}),
      ...(bankOcrPath !== undefined ? { bankOcrPath } : {}),
      ...(secrets.bankKey !== undefined ? { bankKey: secrets.bankKey.value } : {})
    })
    // Reachable at all? A connection error is no difference from the model: exit 2, before any run.
    await service.send({ method: 'GET', path: '/' })
    // The API key: a create it refuses (401, 403) is a missing or wrong key, not a difference from
    // the model, and every request of every run would fail the same way. `{}` creates nothing.
    const keyed = await service.send({ method: 'POST', path: '/payments', body: {} })
    if (keyed.status === 401 || keyed.status === 403) {
      const code = keyed.body !== null && typeof keyed.body === 'object' ? (keyed.body as { error?: { code?: unknown } }).error?.code : undefined
      const answered = `${String(keyed.status)}${typeof code === 'string' ? ` ${code}` : ''}`
      throw new KeyRefused(
        secrets.apiKey === undefined
          ? `${base} refused a request without an API key (POST /payments answered ${answered}): give the service's key with --api-key or --api-key-env`
          : `${base} refused the API key given with --api-key${secrets.apiKey.literal ? '' : `-env (${secrets.apiKey.variable})`} (POST /payments answered ${answered})`
      )
    }
    // The run id: the clock's, so that runs of the same seed on one service never share a reference.
    const runId = str(values, 'run-id') ?? io.now().toString(36)
    if (webhooks) {
      receiver = await startWebhookReceiver({
        ...(port !== undefined ? { port } : {}),
        ...(str(values, 'webhook-url') !== undefined ? { publicUrl: str(values, 'webhook-url') } : {}),
        ...(graceMs !== undefined ? { graceMs } : {}),
        ...(secrets.webhookSecret !== undefined ? { secret: secrets.webhookSecret.value } : {})
      })
    }
    const bar = progress(io, runs, maxShrinkSeconds, replaying)
    const checkOptions: CheckServiceOptions = {
      ...service,
      numRuns: runs,
      runId,
      races: values['no-races'] !== true,
      onRun: bar.onRun,
      maxShrinkMs: maxShrinkSeconds * 1000,
      now: io.now,
      ...(seed !== undefined ? { seed } : {}),
      ...(str(values, 'path') !== undefined ? { path: str(values, 'path') } : {}),
      ...(maxCommands !== undefined ? { maxCommands } : {}),
      ...(retries !== undefined ? { retries } : {}),
      ...(kinds !== undefined ? { kinds } : {}),
      ...(environments !== undefined ? { environments } : {}),
      ...(values['compare-messages'] === true ? { compareMessages: true } : {}),
      ...(receiver !== undefined ? { webhookReceiver: receiver } : {})
    }
    const resends = retries !== undefined && retries > 0 ? `, each POST sent ${String(retries + 1)} times with its Idempotency-Key` : ''
    const listening = receiver === undefined ? '' : `, webhooks at ${receiver.url}${receiver.url === receiver.listening ? '' : ` (the receiver listening on ${receiver.listening})`}`
    io.err(`paysplit-check ${base}: ${replaying ? 'replaying one failure' : `${String(runs)} run(s)`}${listening}${resends}\n`)
    const started = io.now()
    const report = await checkService(checkOptions)
    const ms = io.now() - started
    bar.end()
    // The service went away during the run: not a difference either.
    const lost = report.ok ? undefined : /cannot reach \S+ \([^)]*\)/.exec(report.counterexample)
    if (lost !== null && lost !== undefined) throw new Unreachable(`${lost[0]} during the run`)
    const command = replayLine(base, values, secrets)
    const toSet = variablesToSet(secrets)
    const received = receiver === undefined ? '' : `, ${String(receiver.received.length)} webhook(s) received`
    const summary = `${String(report.numRuns)} run(s) in ${(ms / 1000).toFixed(1)} s${received}${resends}, seed ${String(report.seed)}, references prefixed ${report.prefix}`
    const text = describeReport(report, command)
    const coverage = report.coverage === undefined ? '' : describeCoverage(report.coverage)
    if (report.ok) {
      for (const note of report.notes) io.out(`Note: ${note}\n`)
    } else {
      io.out(`${text}\n`)
      if (toSet.length > 0) io.out(`  (with ${toSet.join(' and ')} set in the environment)\n`)
      const curl = curlLines(report.steps, {
        base,
        ...(secrets.apiKey !== undefined ? { apiKeyVariable: secrets.apiKey.variable } : {}),
        ...(secrets.bankKey !== undefined ? { bankKeyVariable: secrets.bankKey.variable } : {}),
        ...(formCompletePath !== undefined ? { formCompletePath } : {}),
        ...(formFailPath !== undefined ? { formFailPath } : {}),
        ...(formPagePath !== undefined ? { formPagePath } : {}),
        ...(bankTransferPath !== undefined ? { bankTransferPath } : {}),
        ...(bankOcrPath !== undefined ? { bankOcrPath } : {})
      })
      if (curl.length > 0) io.out(`The counterexample with curl (the ids those your service answered in this run):\n${curl.map((l) => `  ${l}`).join('\n')}\n`)
    }
    if (replaying) {
      const what = `the sequence of --seed=${String(report.seed)} --path ${shellQuote(str(values, 'path') ?? '')}`
      io.out(
        report.ok
          ? `NOT REPRODUCED: ${what} passed in ${(ms / 1000).toFixed(1)} s: the service answers it as the model does now (fixed?), or the failure depends on timing (two requests at once, a late webhook).\n`
          : `REPRODUCED: ${what} failed again (${summary}).\n`
      )
    } else io.out(`${report.ok ? 'PASSED' : 'FAILED'}: ${summary}\n`)
    // after a failure, the coverage's first line (what was sent, the webhooks checked and missing): the table and warnings are a passing run's
    if (coverage !== '' && !replaying) io.out(`${report.ok ? coverage : (coverage.split('\n')[0] ?? '')}\n`)
    const file = str(values, 'json')
    if (file !== undefined) writeFileSync(file, JSON.stringify(jsonReport(report, base, ms, report.ok ? '' : `${command} ${report.replay}`), null, 2) + '\n')
    const junit = str(values, 'junit')
    if (junit !== undefined) writeFileSync(junit, junitReport(report, base, ms, text, coverage))
    return report.ok ? 0 : 1
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${e instanceof UsageError ? `\n${usage}\n` : ''}`)
    return 2
  } finally {
    await receiver?.close()
  }
}
