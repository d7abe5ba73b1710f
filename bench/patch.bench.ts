/**
 * A partial refund by split patch (`transition` with `RefundPartially`: decoding the patch, the
 * rules of docs/rules.md C4, the events, the new state, freezing) on a trusted `Charged` card payment of
 * N = 10, 100, 1k, 10k and 100k splits (built as `fixtures.chargedWithSplits` says: replay of a
 * `PaymentCreated`, validated in full once by a first `transition`). splitIDs are dense 1..n.
 *
 * Two inputs, both patches that name every split (the seed's patch format requires it):
 * - few changes (the target): the refund lowers 2 splits and leaves the other N − 2 alone
 *   (`DoNothing`), the usual shape of a partial refund (an order line returned);
 * - proportional (information): every split lowered, as `proportionalPatch` writes for a refund
 *   spread over all the splits; N new splits and N refund entries are allocated.
 *
 * The figure is t(100k) / t(1k) (target ≤ 110: per-split cost flat within 10 %), measured side by
 * side in alternating rounds; t(N) for every N is printed too.
 */
import type { Command } from '../src/commands.js'
import { transition } from './paysplit.js'
import type { Payment } from '../src/payment.js'
import type { MoneySplitPatch } from '../src/codecs/requests.js'
import { chargedWithSplits, lowerAll, lowerSplits, T3 } from './fixtures.js'
import { calibrate, keep, median, ratio, report, timeBatch, us } from './harness.js'

const TARGET = 110
const SIZES = [10, 100, 1_000, 10_000, 100_000] as const

interface Case {
  readonly payment: Payment
  readonly command: Command
}

const refund = (payment: Payment, patch: MoneySplitPatch): Case => ({
  payment,
  command: { type: 'RefundPartially', at: T3, patch }
})

const call = (c: Case) => (): unknown => {
  const r = transition(c.payment, c.command)
  if (r._tag === 'Left') throw new Error(r.left.message)
  return r
}

/** Median time per call of `f`, µs, over `rounds` batches of about `batchMs`. */
const timeOf = (f: () => unknown, rounds = 7, batchMs = 40): number => {
  for (let i = 0; i < 3; i++) f()
  const n = calibrate(f, batchMs)
  const times: number[] = []
  for (let r = 0; r < rounds; r++) times.push((timeBatch(f, n) / n) * 1000)
  return median(times)
}

export const runPatchBenchmarks = async (): Promise<void> => {
  const payments = new Map<number, Payment>()
  for (const n of SIZES) payments.set(n, chargedWithSplits(n))
  const few = (n: number): Case => {
    const p = payments.get(n) as Payment
    return refund(p, lowerSplits(p, [2, Math.max(3, Math.floor(n / 2))], 500))
  }
  const proportional = (n: number): Case => {
    const p = payments.get(n) as Payment
    return refund(p, lowerAll(p, 1))
  }

  for (const [label, make, isTarget] of [
    ['few changes (2 splits lowered, the rest DoNothing)', few, true],
    ['proportional (every split lowered)', proportional, false]
  ] as const) {
    const perN: string[] = []
    const t1k = timeOf(call(make(1_000)))
    for (const n of SIZES) {
      const t = n === 1_000 ? t1k : timeOf(call(make(n)))
      perN.push(`N=${n >= 1000 ? `${String(n / 1000)}k` : String(n)}: ${us(t)} (${((t * 1000) / n).toFixed(0)} ns/split, ×${(t / t1k).toFixed(n < 1000 ? 3 : 1)} of 1k)`)
    }
    console.log(`  partial refund, ${label}:\n    ${perN.join('\n    ')}`)
    const r = ratio(call(make(100_000)), call(make(1_000)), { rounds: 15, batchMs: 60, warmupMs: 200 })
    const name = `split patch (partial refund, ${label}): t(100k) / t(1k)`
    if (isTarget) {
      await report({ name, ratio: r.ratio, target: TARGET, detail: `${us(r.subjectUs)} vs ${us(r.baselineUs)}` })
    } else {
      // every split changes, so the per-split cost grows with the payment's size in memory: no target
      console.log(`  (${name}: ${r.ratio.toFixed(1)}, ${us(r.subjectUs)} vs ${us(r.baselineUs)}; information, no target)`)
    }
  }
  keep(payments)
}
