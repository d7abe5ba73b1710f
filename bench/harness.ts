/**
 * A small benchmark harness that reports ratios, never absolute times alone: the machines these
 * benchmarks run on are shared (2 cores, other work running), so absolute figures move 15–30 %
 * from one run to the next while the ratio of two functions measured side by side holds.
 *
 * `ratio(subject, baseline)` runs both in alternating rounds (baseline first on even rounds,
 * subject first on odd ones), each round timing a batch of calls long enough to be measured
 * (≈ `batchMs`), and reports the median over the rounds of subject time / baseline time. Pairing
 * the two in each round cancels slow drifts of the machine's load; the median drops the rounds a
 * neighbour disturbed.
 */

/** Results are written here so that no call can be optimised away. */
export let sink: unknown = undefined

export const keep = (value: unknown): void => {
  sink = value
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6

/** CPU time of this process, ms (user + system): what a call costs, not how long it waited for a core. */
const cpuNow = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** Milliseconds taken by `n` calls of `f` (wall time; CPU time when `cpu`). */
export const timeBatch = (f: () => unknown, n: number, cpu = false): number => {
  const clock = cpu ? cpuNow : now
  const start = clock()
  for (let i = 0; i < n; i++) sink = f()
  return clock() - start
}

/** How many calls of `f` take about `batchMs` (at least 1). */
export const calibrate = (f: () => unknown, batchMs: number): number => {
  let n = 1
  for (;;) {
    const t = timeBatch(f, n)
    if (t >= batchMs / 4 || n >= 1 << 24) return Math.max(1, Math.round((n * batchMs) / Math.max(t, 1e-3)))
    n *= 2
  }
}

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

export interface RatioOptions {
  /** Rounds (each: one batch of the subject and one of the baseline). Default 15. */
  readonly rounds?: number
  /** Target duration of one batch, ms. Default 25. */
  readonly batchMs?: number
  /** Warm-up duration per function before calibrating, ms. Default 300. */
  readonly warmupMs?: number
  /**
   * Time batches in CPU time of the process rather than wall time (default false): on a machine
   * whose cores are shared by more processes than it has, a batch that waits for a core is not
   * slower for it. Batches should then last tens of ms (the clock counts in µs).
   */
  readonly cpu?: boolean
}

export interface RatioResult {
  /** Median over rounds of (subject time per call) / (baseline time per call). */
  readonly ratio: number
  /** Median time per call of the subject, µs. */
  readonly subjectUs: number
  /** Median time per call of the baseline, µs. */
  readonly baselineUs: number
  readonly rounds: number
}

const warm = (f: () => unknown, ms: number): void => {
  const end = now() + ms
  while (now() < end) sink = f()
}

/** Subject vs baseline, measured side by side in the same process (see the module doc). */
export const ratio = (
  subject: () => unknown,
  baseline: () => unknown,
  options: RatioOptions = {}
): RatioResult => {
  const rounds = options.rounds ?? 15
  const batchMs = options.batchMs ?? 25
  const warmupMs = options.warmupMs ?? 300
  const cpu = options.cpu ?? false
  warm(baseline, warmupMs)
  warm(subject, warmupMs)
  const nb = calibrate(baseline, batchMs)
  const ns = calibrate(subject, batchMs)
  const ratios: number[] = []
  const sTimes: number[] = []
  const bTimes: number[] = []
  for (let r = 0; r < rounds; r++) {
    let tb: number
    let ts: number
    if (r % 2 === 0) {
      tb = timeBatch(baseline, nb, cpu) / nb
      ts = timeBatch(subject, ns, cpu) / ns
    } else {
      ts = timeBatch(subject, ns, cpu) / ns
      tb = timeBatch(baseline, nb, cpu) / nb
    }
    ratios.push(ts / tb)
    sTimes.push(ts * 1000)
    bTimes.push(tb * 1000)
  }
  return { ratio: median(ratios), subjectUs: median(sTimes), baselineUs: median(bTimes), rounds }
}

// -------------------------------------------------------------------------------------
// reporting
// -------------------------------------------------------------------------------------

export interface Figure {
  /** What is measured, e.g. "transition Reserved → Charged / hand-written reducer". */
  readonly name: string
  readonly ratio: number
  /** The ratio must be at most this. */
  readonly target: number
  /** Extra facts printed after the verdict (absolute times, sizes). */
  readonly detail?: string
}

export const met = (f: Figure): boolean => f.ratio <= f.target

export const formatRatio = (x: number): string => (x >= 100 ? x.toFixed(1) : x >= 10 ? x.toFixed(2) : x.toFixed(3))

export const line = (f: Figure): string =>
  `${f.name}: ${formatRatio(f.ratio)} (target ≤ ${String(f.target)}): ${met(f) ? 'met' : 'NOT met'}` +
  (f.detail === undefined ? '' : `  [${f.detail}]`)

/** Prints a figure and, when the environment asks for it, appends it to a JSON-lines file. */
export const report = async (f: Figure): Promise<void> => {
  console.log(line(f))
  const out = process.env['PAYSPLIT_BENCH_OUT']
  if (out !== undefined && out !== '') {
    const { appendFileSync } = await import('node:fs')
    appendFileSync(out, JSON.stringify({ ...f, met: met(f) }) + '\n')
  }
}

export const us = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(x >= 10 ? 1 : 3)} µs`)
