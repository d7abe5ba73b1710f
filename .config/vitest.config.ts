import { randomInt } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url))

// `FC_SEED=random` (npm run test:long): one seed drawn for the whole run, printed once, and given
// to every test file (test/support/setup.ts reads FC_SEED); rerun with FC_SEED=<it> to replay a failure.
if (process.env['FC_SEED'] === 'random') {
  process.env['FC_SEED'] = String(randomInt(2 ** 31))
  console.log(`fast-check seed of this run: FC_SEED=${process.env['FC_SEED']} (replay a failure with it)`)
}

/**
 * `paysplit`, `paysplit/codecs`, `paysplit/http`, `paysplit/camt054`, `paysplit/testing` and `paysplit/conformance` are the sources in src/ for
 * the tests: the reference service (docs/examples/service, a workspace package) imports paysplit
 * by name, and a fresh clone has no dist/ yet. Shared by the other vitest configs.
 */
export const paysplitAlias = [
  { find: /^paysplit$/, replacement: `${root}src/index.ts` },
  { find: /^paysplit\/(codecs|http|camt054|testing|conformance)$/, replacement: `${root}src/$1.ts` }
]

export default defineConfig({
  root,
  resolve: { alias: paysplitAlias },
  test: {
    include: ['test/**/*.test.ts'],
    // the PostgreSQL server's suite: npm run test:postgres (.config/vitest.postgres.config.ts)
    exclude: ['test/postgres/**', 'node_modules/**'],
    setupFiles: ['test/support/setup.ts'],
    // one worker more than the cores: many files wait on processes, sockets and databases they
    // start, and a third worker keeps both cores busy meanwhile (npm test on 2 cores: 257 s against 401 s)
    maxWorkers: availableParallelism() + 1,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    env: process.env['FC_SEED'] === undefined ? {} : { FC_SEED: process.env['FC_SEED'] }
  }
})
