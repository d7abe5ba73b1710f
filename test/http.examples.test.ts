/**
 * Every `@example` of paysplit/http's modules runs: each is taken from the TSDoc, its imports of
 * `paysplit`, `paysplit/http`, fp-ts and node:assert bound to the modules themselves, its types
 * stripped by the TypeScript compiler, and run. An example whose assertion fails fails here.
 */
import * as assert from 'node:assert'
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as http from '../src/http.js'
import * as paysplit from '../src/index.js'

const modules: Readonly<Record<string, unknown>> = {
  'node:assert': assert,
  'fp-ts/lib/Either.js': E,
  'fp-ts/lib/Option.js': O,
  paysplit,
  'paysplit/http': http
}

const files = ['src/routes.ts', 'src/responses.ts', 'src/webhooks.ts', 'src/service.ts']

interface Example {
  readonly name: string
  readonly code: string
}

/** The examples of a source file, each named after the export it documents. */
const examplesOf = (file: string): ReadonlyArray<Example> => {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
  const out: Array<Example> = []
  const re = /\/\*\*([\s\S]*?)\*\/\s*export\s+(?:const|function|class)\s+(\w+)/g
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
    out.push({ name: `${file} ${name}`, code: lines.slice(0, end < 0 ? undefined : end).join('\n') })
  }
  return out
}

/** `import … from 'm'` → a binding to the module object. */
const bindImports = (code: string): string =>
  code.replace(/^import\s+(.+?)\s+from\s+'([^']+)'\s*$/gm, (_all, what: string, from: string) => {
    const mod = `__modules[${JSON.stringify(from)}]`
    if (!(from in modules)) throw new Error(`an example imports ${from}, which the runner does not provide`)
    const ns = /^\*\s+as\s+(\w+)$/.exec(what)
    if (ns) return `const ${ns[1] ?? ''} = ${mod}`
    const named = /^\{(.+)\}$/.exec(what)
    if (named) return `const {${(named[1] ?? '').replace(/\s+as\s+/g, ': ')}} = ${mod}`
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

describe('the @examples of paysplit/http run', () => {
  it('every exported function and constant of the wire modules has one', () => {
    const documented = new Set(all.map((e) => e.name.split(' ')[1]))
    const values = Object.keys(http).filter((k) => !documented.has(k))
    expect(values).toStrictEqual([])
  })

  it('the runner fails on a failing example (it is not a no-op)', async () => {
    await expect(run("import * as assert from 'node:assert'\nassert.strictEqual(1 + 1, 3)")).rejects.toThrow()
    await expect(run("import { handle } from 'paysplit/http'\nif (typeof handle !== 'function') throw new Error('x')")).resolves.toBeUndefined()
  })

  it.each(all.map((e) => [e.name, e.code] as const))('%s', async (_name, code) => {
    await run(code)
  })
})
