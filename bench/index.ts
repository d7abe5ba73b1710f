/**
 * `npm run bench`: every benchmark of the library, each figure a ratio to a baseline measured in the
 * same process run (medians over rounds), printed with its target and whether it is met, then a
 * summary table (the one docs/performance.md shows). Memory is measured in a child process
 * started with `--expose-gc`. Takes about two minutes on a 2-core machine.
 *
 * `PAYSPLIT_BENCH=decode npm run bench` runs only the named groups (comma-separated: transition,
 * decode, linearity, patch, replay, idempotency, memory), e.g. to repeat one figure in several runs.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runDecodeBenchmarks } from './decode.bench.js'
import { runLinearityBenchmarks } from './linearity.bench.js'
import { formatRatio, type Figure } from './harness.js'
import { runIdempotencyBenchmarks } from './idempotency.bench.js'
import { runPatchBenchmarks } from './patch.bench.js'
import { runReplayBenchmarks } from './replay.bench.js'
import { runTransitionBenchmarks } from './transition.bench.js'

const dir = mkdtempSync(join(tmpdir(), 'paysplit-bench-'))
const out = join(dir, 'figures.jsonl')
process.env['PAYSPLIT_BENCH_OUT'] = out
const started = Date.now()
const only = (process.env['PAYSPLIT_BENCH'] ?? '').split(',').filter((g) => g !== '')
const groups = ['transition', 'decode', 'linearity', 'patch', 'replay', 'idempotency', 'memory']
const unknown = only.filter((g) => !groups.includes(g))
if (unknown.length > 0) throw new Error(`PAYSPLIT_BENCH: no group ${unknown.join(', ')} (groups: ${groups.join(', ')})`)
const runs = (group: string): boolean => only.length === 0 || only.includes(group)

console.log(`paysplit benchmarks — Node ${process.version}, ${process.platform}/${process.arch}\n`)
if (runs('transition')) {
  console.log('## transition')
  await runTransitionBenchmarks()
}
if (runs('decode')) {
  console.log('\n## decoding a create request')
  await runDecodeBenchmarks()
}
if (runs('linearity')) {
  console.log('\n## linear time of validation (docs/rules.md C3)')
  await runLinearityBenchmarks()
}
if (runs('patch')) {
  console.log('\n## split patch')
  await runPatchBenchmarks()
}
if (runs('replay')) {
  console.log('\n## replay')
  await runReplayBenchmarks()
}
if (runs('idempotency')) {
  console.log('\n## safe retries: the cost of a keyed request as the world keeps more keys (docs/rules.md C13)')
  await runIdempotencyBenchmarks()
}
if (runs('memory')) {
  console.log('\n## memory (child process, --expose-gc)')
  const memory = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('./memory.bench.ts', import.meta.url))],
    { stdio: 'inherit', env: process.env }
  )
  if (memory.status !== 0) throw new Error('the memory benchmark failed')
}

const figures = readFileSync(out, 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Figure & { readonly met: boolean })
rmSync(dir, { recursive: true, force: true })
const metCount = figures.filter((f) => f.met).length
console.log(`\n## summary: ${String(metCount)} of ${String(figures.length)} targets met (${String(Math.round((Date.now() - started) / 1000))} s)\n`)
console.log('| figure | ratio | target | met |')
console.log('|---|---:|---:|---|')
for (const f of figures) console.log(`| ${f.name} | ${formatRatio(f.ratio)} | ≤ ${String(f.target)} | ${f.met ? 'met' : 'NOT met'} |`)
