/**
 * `npm run bench`: every benchmark of issue 5, each figure a ratio to a baseline measured in the
 * same process run (medians over rounds), printed with its target and whether it is met, then a
 * summary table (the one docs/performance.md shows). Memory is measured in a child process
 * started with `--expose-gc`. Takes about two minutes on a 2-core machine.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runDecodeBenchmarks } from './decode.bench.js'
import { runLinearityBenchmarks } from './linearity.bench.js'
import { formatRatio, type Figure } from './harness.js'
import { runPatchBenchmarks } from './patch.bench.js'
import { runReplayBenchmarks } from './replay.bench.js'
import { runTransitionBenchmarks } from './transition.bench.js'

const dir = mkdtempSync(join(tmpdir(), 'paysplit-bench-'))
const out = join(dir, 'figures.jsonl')
process.env['PAYSPLIT_BENCH_OUT'] = out
const started = Date.now()

console.log(`paysplit benchmarks — Node ${process.version}, ${process.platform}/${process.arch}\n`)
console.log('## transition')
await runTransitionBenchmarks()
console.log('\n## decoding a create request')
await runDecodeBenchmarks()
console.log('\n## linear time of validation (docs/rules.md C3)')
await runLinearityBenchmarks()
console.log('\n## split patch')
await runPatchBenchmarks()
console.log('\n## replay')
await runReplayBenchmarks()
console.log('\n## memory (child process, --expose-gc)')
const memory = spawnSync(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('./memory.bench.ts', import.meta.url))],
  { stdio: 'inherit', env: process.env }
)
if (memory.status !== 0) throw new Error('the memory benchmark failed')

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
