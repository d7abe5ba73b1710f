/**
 * A module-resolution hook for `npm run bench:service`: the service's imports of paysplit's
 * entries (`src/index.js`, `src/http.js`) resolve to the built package (`dist/`), so the benchmark
 * measures the code a user installs, as `npm run bench` does, rather than the TypeScript source
 * compiled file by file by tsx. Loaded with `node --import tsx --import ./bench/built-paysplit.mjs`.
 */
import { register } from 'node:module'

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      const root = ${JSON.stringify(new URL('../', import.meta.url).href)}
      const entries = { 'src/index.js': 'dist/index.js', 'src/http.js': 'dist/http.js', 'src/index.ts': 'dist/index.js', 'src/http.ts': 'dist/http.js' }
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context)
        if (resolved.url.startsWith(root)) {
          const path = resolved.url.slice(root.length)
          const built = entries[path]
          if (built !== undefined) return { url: root + built, format: 'module', shortCircuit: true }
        }
        return resolved
      }
    `)
)
