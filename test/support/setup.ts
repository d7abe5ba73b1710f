import fc from 'fast-check'

/**
 * fast-check's configuration for every test file: `npm test` is deterministic, every property runs
 * under one fixed seed; the environment explores.
 *
 * - `FC_SEED=<integer>` runs every property under that seed (a failure prints the seed and path
 *   that replay it); `FC_SEED=random` has .config/vitest.config.ts draw one seed for the whole run
 *   and print it once (`npm run test:long` does).
 * - `FC_RUNS=<n>` runs every property `n` times; without it, 100 × `PAYSPLIT_NUM_RUNS_FACTOR`
 *   (default 1; `npm run test:long` sets 100).
 *
 * Tests that pin an exact output (a sample, a counterexample) pass their own `seed` and `numRuns`.
 */
export const FIXED_SEED = 20_261_121

const integer = (name: string, fallback: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`)
  return n
}

const factor = Number(process.env['PAYSPLIT_NUM_RUNS_FACTOR'] ?? '1')
const runs = integer('FC_RUNS', Math.max(1, Math.round(100 * (Number.isFinite(factor) && factor > 0 ? factor : 1))))
if (runs < 1) throw new Error(`FC_RUNS must be at least 1, got ${String(runs)}`)

fc.configureGlobal({ seed: integer('FC_SEED', FIXED_SEED), numRuns: runs })
