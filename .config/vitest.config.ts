import { randomInt } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url))

// `FC_SEED=random` (npm run test:long): one seed drawn for the whole run, printed once, and given
// to every test file (test/setup.ts reads FC_SEED); rerun with FC_SEED=<it> to replay a failure.
if (process.env['FC_SEED'] === 'random') {
  process.env['FC_SEED'] = String(randomInt(2 ** 31))
  console.log(`fast-check seed of this run: FC_SEED=${process.env['FC_SEED']} (replay a failure with it)`)
}

export default defineConfig({
  root,
  test: {
    include: ['test/**/*.test.ts'],
    // the PostgreSQL server's suite: npm run test:postgres (.config/vitest.postgres.config.ts)
    exclude: ['test/postgres/**', 'node_modules/**'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    env: process.env['FC_SEED'] === undefined ? {} : { FC_SEED: process.env['FC_SEED'] }
  }
})
