import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url))

/** `npm run test:browser`: the real-browser test only (headless Chromium); not part of `npm test`. */
export default defineConfig({
  root,
  test: {
    include: ['test/browser/**/*.browser.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
