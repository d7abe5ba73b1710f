/// <reference types="vite/client" />
/**
 * Every `@example` in src/ runs: each is taken from the TSDoc of an exported value, its imports
 * of `paysplit`, `paysplit/codecs`, `paysplit/http`, fp-ts and node:assert bound to the modules
 * themselves, its types stripped by the TypeScript compiler, and run. An example whose assertion
 * fails fails here, and every exported value of the public entries must have one.
 */
import * as assert from 'node:assert'
import { readdirSync, readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as t from 'io-ts'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as codecs from '../src/codecs.js'
import * as http from '../src/http.js'
import * as paysplit from '../src/index.js'

/** The src modules by the relative name an internal example imports them with (`./kid.js`). */
const internals: Record<string, unknown> = Object.fromEntries(
  Object.entries(import.meta.glob('../src/*.ts', { eager: true })).map(([k, v]) => [
    k.replace('../src/', './').replace(/\.ts$/, '.js'),
    v
  ])
)

const modules: Readonly<Record<string, unknown>> = {
  ...internals,
  'node:assert': assert,
  'fp-ts/lib/Either.js': E,
  'fp-ts/lib/Option.js': O,
  'io-ts': t,
  paysplit,
  'paysplit/codecs': codecs,
  'paysplit/http': http
}

/** The domain, codec and wire modules (the testing kit has its own example test). */
const files = readdirSync(new URL('../src/', import.meta.url))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `src/${f}`)

interface Example {
  readonly file: string
  readonly name: string
  readonly code: string
}

/** The examples of a source file, each named after the export it documents. */
const examplesOf = (file: string): ReadonlyArray<Example> => {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
  const out: Array<Example> = []
  const re = /\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*export\s+(?:const|function|class)\s+(\w+)/g
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const doc = m[1] ?? ''
    const name = m[2] ?? '?'
    const at = doc.indexOf('@example')
    if (at < 0) continue
    const lines = doc
      .slice(at + '@example'.length)
      .split('\n')
      .map((l) => l.replace(/^\s*\* ?/, ''))
    const end = lines.findIndex((l, i) => i > 0 && l.startsWith('@'))
    out.push({ file, name, code: lines.slice(0, end < 0 ? undefined : end).join('\n') })
  }
  return out
}

/** `import … from 'm'` → a binding to the module object. */
const bindImports = (code: string): string =>
  code.replace(/^import\s+(?:type\s+)?(.+?)\s+from\s+'([^']+)'\s*$/gm, (all, what: string, from: string) => {
    if (all.startsWith('import type')) return ''
    const mod = `__modules[${JSON.stringify(from)}]`
    if (!(from in modules)) throw new Error(`an example imports ${from}, which the runner does not provide`)
    const ns = /^\*\s+as\s+(\w+)$/.exec(what)
    if (ns) return `const ${ns[1] ?? ''} = ${mod}`
    const named = /^\{(.+)\}$/.exec(what)
    if (named) {
      const names = (named[1] ?? '')
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '' && !n.startsWith('type '))
        .map((n) => n.replace(/\s+as\s+/, ': '))
      return `const { ${names.join(', ')} } = ${mod}`
    }
    return `const ${what} = ${mod}.default`
  })

const run = async (code: string): Promise<void> => {
  const js = ts.transpileModule(bindImports(code), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext }
  }).outputText
  const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (
    ...args: ReadonlyArray<string>
  ) => (m: typeof modules) => Promise<void>
  await new AsyncFunction('__modules', js)(modules)
}

const all = files.flatMap(examplesOf)

describe('every @example in src/ runs', () => {
  it('every exported value of paysplit, paysplit/codecs and paysplit/http has an example', () => {
    const documented = new Set(all.map((e) => e.name))
    const missing = [paysplit, codecs, http].flatMap((m) => Object.keys(m).filter((k) => !documented.has(k)))
    expect([...new Set(missing)]).toStrictEqual([])
  })

  it('the runner fails on a failing example (it is not a no-op)', async () => {
    await expect(run("import * as assert from 'node:assert'\nassert.strictEqual(1 + 1, 3)")).rejects.toThrow()
    await expect(run("import { transition } from 'paysplit'\nif (typeof transition !== 'function') throw new Error('x')")).resolves.toBeUndefined()
  })

  it.each(all.map((e) => [`${e.file} ${e.name}`, e] as const))('%s', async (_name, e) => {
    await run(e.code)
  })
})
