import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { paysplitAlias } from './vitest.config.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * `npm run test:postgres`: the reference service's suite and the embedding example against a real PostgreSQL 17 server
 * (started by test/postgres/global-setup.ts), plus the multi-process tests; not the process test
 * (the built service on PGlite folders: nothing of it uses the server, and `npm test` runs it). One file at a time:
 * the multi-process tests measure latencies and memory of the processes they start.
 */
export default defineConfig({
  root,
  resolve: { alias: paysplitAlias },
  test: {
    include: ['test/service/reference-service*.test.ts', 'test/service/embedding.test.ts', 'test/postgres/**/*.test.ts'],
    // the built service on PGlite folders, as an operator starts it: no database of the server, run by npm test
    exclude: ['test/service/reference-service.process.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    globalSetup: ['test/postgres/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000
  }
})
