/**
 * `paysplit-check mock`: starts the stateful mock (./server.ts), prints where it listens and what
 * it offers, logs each request and webhook, and runs until it is stopped (SIGINT, SIGTERM).
 *
 * @module cli/mock/command
 */
import { parse, secret, str, int, UsageError, type OptionTable } from '../args.js'
import type { CliIO } from '../output.js'
import { isLoopback } from './outbox.js'
import { MOCK_WEBHOOK_SECRET, startMock } from './server.js'

export const mockUsage = `Usage: paysplit-check mock [options]

Serves the whole payments API in memory on 127.0.0.1, answered by paysplit itself (docs/testing.md,
"A stateful mock"): payments, the hosted form (/pay/{id}), the bank (/bank/transfers, /bank/ocr),
Idempotency-Key, signed webhooks, and a test clock. No keys are checked.

Options:
  --port N             port to listen on (default 4010; 0: any free one)
  --host H             address to listen on (default 127.0.0.1)
  --webhook-secret S   Standard Webhooks secret the webhooks are signed with (default: a
                       development secret, printed)
  --webhook-secret-env V   the same, from the environment variable V
  --catch-all-url URL  every webhook goes there too
  --webhook-allow H    hosts (names or addresses, comma-separated) webhooks may go to
                       besides loopback; every other host is logged as blocked, never reached
  --quiet              log nothing but where it listens
  --help               this text

Its own routes: GET /_mock/clock, POST /_mock/clock {"advanceSeconds": 86400} or
{"to": "<ISO 8601 time>"} (forward only), POST /_mock/reset, GET /_mock/webhooks.`

const options: OptionTable = {
  port: { type: 'string' },
  host: { type: 'string' },
  'webhook-secret': { type: 'string' },
  'webhook-secret-env': { type: 'string' },
  'catch-all-url': { type: 'string' },
  'webhook-allow': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' }
}

/** Runs the mock until `io.signal` aborts; resolves with the exit code (2 on a usage error or a port in use). */
export const runMock = async (args: ReadonlyArray<string>, io: CliIO): Promise<number> => {
  try {
    const { values, positionals } = parse(args, options)
    if (values['help'] === true) {
      io.out(`${mockUsage}\n`)
      return 0
    }
    if (positionals.length > 0) throw new UsageError(`The mock takes no base url, got "${positionals.join(' ')}".`)
    const port = int(values, 'port', 0) ?? 4010
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${String(port)}.`)
    const host = str(values, 'host') ?? '127.0.0.1'
    const webhookSecret = secret(values, io.env ?? {}, 'webhook-secret', 'PAYSPLIT_WEBHOOK_SECRET')
    if (webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=]+$/.test(webhookSecret.value)) throw new UsageError('--webhook-secret must be whsec_ and base64, as Standard Webhooks secrets are.')
    const catchAllUrl = str(values, 'catch-all-url')
    if (catchAllUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(catchAllUrl)) throw new UsageError(`--catch-all-url must be an absolute http(s) url, got "${catchAllUrl}".`)
    const allow = (str(values, 'webhook-allow') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '')
    const quiet = values['quiet'] === true
    const mock = await startMock({
      port,
      host,
      ...(webhookSecret !== undefined ? { webhookSecret: webhookSecret.value } : {}),
      ...(catchAllUrl !== undefined ? { catchAllUrl } : {}),
      webhookAllow: allow,
      now: io.now,
      ...(quiet ? {} : { log: (line: string) => { io.err(`${line}\n`); } })
    })
    const exposed = isLoopback(host) ? '' : `\n  listening on ${host}: the mock checks no keys, so anyone who reaches this address can use it`
    io.out(
      `paysplit mock on ${mock.url} (in memory: gone when it stops; stop it with Ctrl-C)
  webhooks signed with ${webhookSecret === undefined ? `${MOCK_WEBHOOK_SECRET} (a development secret)` : `the secret given`}, sent to loopback${allow.length > 0 ? ` and ${allow.join(', ')}` : ' only'}
  the payment form: ${mock.url}/pay/<paymentReferenceID>; the bank: POST /bank/transfers, POST /bank/ocr
  the clock: GET ${mock.url}/_mock/clock, POST {"advanceSeconds": 86400}; POST /_mock/reset; GET /_mock/webhooks${exposed}\n`
    )
    await new Promise<void>((resolve) => {
      if (io.signal === undefined) return
      if (io.signal.aborted) resolve()
      else io.signal.addEventListener('abort', () => { resolve(); }, { once: true })
    })
    await mock.close()
    return 0
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${e instanceof UsageError ? `\n${mockUsage}\n` : ''}`)
    return 2
  }
}
