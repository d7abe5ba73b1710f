/**
 * `npm run check:size`: what a browser really ships. Each budget bundles the BUILT package
 * (`dist/`, after `npm run build`) the way a front-end bundler does: imported by package name
 * (`paysplit/codecs`, resolved through package.json `exports`), bundled by esbuild for the browser
 * with fp-ts and io-ts INCLUDED (peer dependencies are not external: they are shipped too, and
 * esbuild picks their ES builds through their `module` fields), minified, then gzipped (level 9).
 * Every export of an entry is kept (`export *`, or every name but the message catalogs), so nothing
 * the entry offers is shaken out; the budgets of single functions keep that function alone.
 *
 * Budgets: `paysplit/codecs` without its catalogs ≤ 6.5 kB, each catalog alone ≤ 1.5 kB,
 * `decodePaymentIntentRequest` alone ≤ 3.85 kB, `transition` alone ≤ 13 kB, `parseOcrGiro`
 * alone ≤ 4 kB, the three entries together ≤ 31 kB (docs/decisions.md, "Bundle
 * budgets with OCR giro files and safe retries").
 *
 * Fails (exit 1) when a budget is exceeded. Prints the largest inputs of each bundle and how much of
 * it is string literals (text) rather than code.
 */
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

interface Budget {
  readonly name: string
  readonly entry: string
  /** min+gzip bytes */
  readonly budget: number
}

const KB = 1000

const root = new URL('..', import.meta.url).pathname

/**
 * The message catalogs of `paysplit/codecs` (a plain object from every issue reason to a
 * template): measured on their own, and left out of the entry's own budget, since a front-end
 * imports only the ones it shows.
 */
const codecsExports = Object.entries(
  (await import(new URL('../dist/codecs.js', import.meta.url).href)) as Record<string, unknown>
)
const isCatalog = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.prototype.hasOwnProperty.call(v, 'too_many_issues') &&
  Object.values(v).every((t) => typeof t === 'string')
const catalogs = codecsExports.filter(([, v]) => isCatalog(v)).map(([name]) => name)
const codecsWithoutCatalogs = codecsExports.map(([name]) => name).filter((name) => !catalogs.includes(name))

const budgets: ReadonlyArray<Budget> = [
  {
    name: `paysplit/codecs (every export but the catalogs${catalogs.length > 0 ? ` ${catalogs.join(', ')}` : ''})`,
    entry: `export { ${codecsWithoutCatalogs.join(', ')} } from 'paysplit/codecs'`,
    budget: 6.5 * KB
  },
  ...catalogs.map((name) => ({
    name: `paysplit/codecs catalog \`${name}\` alone`,
    entry: `export { ${name} } from 'paysplit/codecs'`,
    budget: 1.5 * KB
  })),
  {
    name: 'decodePaymentIntentRequest alone',
    entry: "export { decodePaymentIntentRequest } from 'paysplit/codecs'",
    budget: 3.85 * KB
  },
  {
    name: 'paysplit with transition alone',
    entry: "export { transition } from 'paysplit'",
    budget: 13 * KB
  },
  {
    name: 'whole library (paysplit + paysplit/codecs + paysplit/http)',
    entry: [
      "export * as paysplit from 'paysplit'",
      "export * as codecs from 'paysplit/codecs'",
      "export * as http from 'paysplit/http'"
    ].join('\n'),
    budget: 31 * KB
  },
  {
    name: 'parseOcrGiro alone (the OCR giro reader)',
    entry: "export { parseOcrGiro } from 'paysplit/http'",
    budget: 4 * KB
  },
  {
    name: 'paysplit (the domain entry alone; information)',
    entry: "export * from 'paysplit'",
    budget: Number.POSITIVE_INFINITY
  }
]

const kb = (n: number): string => `${(n / KB).toFixed(2)} kB`

let failed = false
console.log('| bundle | minified | min+gzip | budget | |')
console.log('|---|---:|---:|---:|---|')
const details: string[] = []
for (const b of budgets) {
  const result = await build({
    stdin: { contents: b.entry, resolveDir: root, sourcefile: 'entry.js', loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    metafile: true,
    logLevel: 'error'
  })
  const code = (result.outputFiles[0] as { readonly contents: Uint8Array }).contents
  const gz = gzipSync(code, { level: 9 }).length
  const within = gz <= b.budget
  if (!within) failed = true
  console.log(
    `| ${b.name} | ${kb(code.length)} | ${kb(gz)} | ${Number.isFinite(b.budget) ? `≤ ${kb(b.budget)}` : '—'} | ${Number.isFinite(b.budget) ? (within ? 'within' : 'OVER') : ''} |`
  )
  const output = Object.values(result.metafile.outputs)[0]
  if (output !== undefined) {
    const inputs = Object.entries(output.inputs)
      .map(([file, i]) => [file, i.bytesInOutput] as const)
      .filter(([, bytes]) => bytes > 0)
      .sort((x, y) => y[1] - x[1])
    const peers = inputs.filter(([f]) => f.includes('node_modules/')).reduce((s, [, n]) => s + n, 0)
    // String literals (messages, keys, codes) as written in the minified output; template literals
    // keep their `${…}` parts. Information only: what the bundle would gzip to with every literal
    // emptied tells how much of it is text rather than code.
    const text = new TextDecoder().decode(code)
    const literal = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g
    const literalBytes = (text.match(literal) ?? []).reduce((sum, l) => sum + l.length, 0)
    const withoutText = gzipSync(Buffer.from(text.replace(literal, '""')), { level: 9 }).length
    details.push(
      `${b.name}: ${kb(peers)} of the minified bundle is fp-ts/io-ts; string literals ${kb(literalBytes)} minified ` +
        `(${kb(gz - withoutText)} of the min+gzip: ${kb(withoutText)} with every literal emptied); largest inputs: ` +
        inputs
          .slice(0, 6)
          .map(([f, n]) => `${f.replace(/^.*node_modules\//, '')} ${kb(n)}`)
          .join(', ')
    )
  }
}
console.log('')
for (const d of details) console.log(d)
if (failed) {
  console.error('\ncheck:size: a budget is exceeded')
  process.exit(1)
}
