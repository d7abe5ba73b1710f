import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { paysplitAlias } from './vitest.config.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * `npm run test:browser`: the real-browser test only (the checkout page of docs/examples/checkout in
 * headless Chromium; it also saves docs/checkout.png); not part of `npm test`, run by `.ci/run`.
 */
export default defineConfig({
  root,
  resolve: { alias: paysplitAlias },
  test: {
    include: ['test/browser/**/*.browser.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
