/// <reference types="vite/client" />
/**
 * Every `@example` of the testing kit (src/testing/*.ts) runs, the way test/examples.test.ts runs
 * those of the other entries: imports bound to the modules themselves (`paysplit/testing` to
 * src/testing.ts, fast-check to the installed one), types stripped, run. Every exported value of
 * `paysplit/testing` must have one.
 */
import * as assert from 'node:assert'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as codecs from '../src/codecs.js'
import * as http from '../src/http.js'
import * as paysplit from '../src/index.js'
import * as testing from '../src/testing.js'

const modules: Readonly<Record<string, unknown>> = {
  'node:assert': assert,
  'fast-check': { default: fc },
  'fp-ts/lib/Either.js': E,
  'fp-ts/lib/Option.js': O,
  paysplit,
  'paysplit/codecs': codecs,
  'paysplit/http': http,
  'paysplit/testing': testing
}

const files = ['src/testing/arbitraries.ts', 'src/testing/harness.ts', 'src/testing/conformance.ts']

interface Example {
  readonly file: string
  readonly name: string
  readonly code: string
}

const examplesOf = (file: string): ReadonlyArray<Example> => {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
  const out: Array<Example> = []
  const re = /\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*export\s+(?:const|function|class)\s+(\w+)/g
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const doc = m[1] ?? ''
    const at = doc.indexOf('@example')
    if (at < 0) continue
    const lines = doc
      .slice(at + '@example'.length)
      .split('\n')
      .map((l) => l.replace(/^\s*\* ?/, ''))
    const end = lines.findIndex((l, i) => i > 0 && l.startsWith('@'))
    out.push({ file, name: m[2] ?? '?', code: lines.slice(0, end < 0 ? undefined : end).join('\n') })
  }
  return out
}

const bindImports = (code: string): string =>
  code.replace(/^import\s+(?:type\s+)?(.+?)\s+from\s+'([^']+)'\s*$/gm, (all, what: string, from: string) => {
    if (all.startsWith('import type')) return ''
    if (!(from in modules)) throw new Error(`an example imports ${from}, which the runner does not provide`)
    const mod = `__modules[${JSON.stringify(from)}]`
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
  const js = ts.transpileModule(bindImports(code), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText
  const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...args: ReadonlyArray<string>) => (m: typeof modules) => Promise<void>
  await new AsyncFunction('__modules', js)(modules)
}

const all = files.flatMap(examplesOf)

describe('every @example of paysplit/testing runs', () => {
  it('every exported value of paysplit/testing has an example', () => {
    const documented = new Set(all.map((e) => e.name))
    expect(Object.keys(testing).filter((k) => !documented.has(k))).toStrictEqual([])
  })

  it.each(all.map((e) => [`${e.file} ${e.name}`, e] as const))('%s', async (_name, e) => {
    await run(e.code)
  })
})
