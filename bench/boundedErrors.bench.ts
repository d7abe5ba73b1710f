/**
 * Bounded errors (docs/rules.md C3), measured: the error of a patch of `n` `{}` entries (two issues
 * each) for n = 10⁴, 10⁵ and 349 525 (1 MiB of JSON), and of a create request with one metaData key
 * of 1 MB. For each: the error's JSON size, its issue count, the time of the call, and the heap
 * growth during the call (`heapUsed` just after it, minus just before, with no GC in between, so
 * the garbage of the walk is counted) and the heap the error keeps after a full GC. Run alone:
 * `node --expose-gc --import tsx bench/boundedErrors.bench.ts`. Reports, asserts nothing.
 */
import { decodeMoneySplitPatch, decodePaymentIntentRequest } from '../src/codecs.js'
import { requestJson } from './fixtures.js'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')
const settle = (): number => {
  for (let i = 0; i < 4; i++) gc()
  return process.memoryUsage().heapUsed
}
const mb = (n: number): string => `${(n / 1e6).toFixed(2)} MB`

const measure = (name: string, run: () => unknown): void => {
  const base = settle()
  const t0 = process.hrtime.bigint()
  const before = process.memoryUsage().heapUsed
  const r = run()
  const after = process.memoryUsage().heapUsed
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  const kept = settle() - base
  const left = (r as { left?: { issues?: unknown[] } }).left
  console.log(
    `| ${name} | ${String(left?.issues?.length)} | ${JSON.stringify(left).length} B | ${ms.toFixed(1)} ms | ${mb(after - before)} | ${mb(kept)} |`
  )
}

console.log('| input | issues | error JSON | time | heap growth during the call | heap kept by the error |')
console.log('|---|---:|---:|---:|---:|---:|')
for (const n of [10_000, 100_000, Math.floor((1024 * 1024) / 3)]) {
  const patch = { moneySplitPatch: JSON.parse(`[${new Array<string>(n).fill('{}').join(',')}]`) as unknown[], newGrossAmount: 0 }
  measure(`patch of ${n} {} entries`, () => decodeMoneySplitPatch(patch))
}
const request = { ...requestJson(), metaData: { ['k'.repeat(1_000_000)]: 'v' } }
measure('create request, one 1 MB metaData key', () => decodePaymentIntentRequest(request))
