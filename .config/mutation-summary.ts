/**
 * `npm run mutation:summary -- <report.json>…`: one mutation score for `src/` from several Stryker
 * JSON reports (mutation-testing-report-schema), e.g. runs of a few files each, since a first run
 * over all of `src/` takes hours on 2 cores (docs/testing.md, "Mutation testing").
 *
 * For each source file the LAST report given that holds it wins (pass them oldest first). Prints a
 * Markdown table, a row per file and the total, with Stryker's own definition of the score:
 * detected (killed + timed out) / (detected + survived + no coverage); compile errors and ignored
 * mutants do not count. Exits 1 when the total is below `--break <percent>` (default: none).
 */
import { readFileSync } from 'node:fs'

interface Mutant {
  readonly status: string
}
interface Report {
  readonly files: Readonly<Record<string, { readonly mutants: ReadonlyArray<Mutant> }>>
}

const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'RuntimeError', 'Ignored'] as const
type Counts = Record<(typeof STATUSES)[number], number>

const args = process.argv.slice(2)
const breakAt = args.includes('--break') ? Number(args[args.indexOf('--break') + 1]) : undefined
const paths = args.filter((a, i) => a !== '--break' && args[i - 1] !== '--break')
if (paths.length === 0) {
  console.error('usage: npm run mutation:summary -- [--break 90] <stryker-report.json>…')
  process.exit(2)
}

const latest = new Map<string, { readonly mutants: ReadonlyArray<Mutant>; readonly from: string }>()
for (const path of paths) {
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report
  for (const [file, result] of Object.entries(report.files)) latest.set(file, { mutants: result.mutants, from: path })
}

const count = (mutants: ReadonlyArray<Mutant>): Counts => {
  const c = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Counts
  for (const m of mutants) if (m.status in c) c[m.status as keyof Counts]++
  return c
}
const score = (c: Counts): number => {
  const detected = c.Killed + c.Timeout
  const tested = detected + c.Survived + c.NoCoverage
  return tested === 0 ? 100 : (100 * detected) / tested
}

const total = count([])
console.log('| file | score | killed | timed out | survived | no coverage | rejected by the checker | ignored | report |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|')
for (const [file, { mutants, from }] of [...latest].sort(([a], [b]) => a.localeCompare(b))) {
  const c = count(mutants)
  for (const s of STATUSES) total[s] += c[s]
  console.log(
    `| ${file} | ${score(c).toFixed(2)} % | ${String(c.Killed)} | ${String(c.Timeout)} | ${String(c.Survived)} | ` +
      `${String(c.NoCoverage)} | ${String(c.CompileError)} | ${String(c.Ignored)} | ${from} |`
  )
}
console.log(
  `| **all** | **${score(total).toFixed(2)} %** | ${String(total.Killed)} | ${String(total.Timeout)} | ` +
    `${String(total.Survived)} | ${String(total.NoCoverage)} | ${String(total.CompileError)} | ${String(total.Ignored)} | |`
)
if (breakAt !== undefined && score(total) < breakAt) {
  console.error(`mutation score ${score(total).toFixed(2)} % is below ${String(breakAt)} %`)
  process.exit(1)
}
