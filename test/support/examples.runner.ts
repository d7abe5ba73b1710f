/**
 * Runs the `@example`s of TSDoc: each is taken from the doc comment of an exported value, its
 * imports bound to module objects the caller provides, its types stripped by the TypeScript
 * compiler, and run. Shared by test/repo/examples.test.ts and test/testing-kit/testing.examples.test.ts.
 */
import { readFileSync } from 'node:fs'
import ts from 'typescript'

export interface Example {
  readonly file: string
  readonly name: string
  readonly code: string
}

/** The examples of a source file (a path from the repo root), each named after its export. */
export const examplesOf = (file: string): ReadonlyArray<Example> => {
  const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
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

/** `import … from 'm'` → a binding to `__modules['m']`; type-only imports vanish. */
const bindImports = (code: string, modules: Readonly<Record<string, unknown>>): string =>
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

/** Runs one example's code against `modules`; rejects when it throws or an assertion fails. */
export const runExample = async (code: string, modules: Readonly<Record<string, unknown>>): Promise<void> => {
  const js = ts.transpileModule(bindImports(code, modules), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext }
  }).outputText
  const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (
    ...args: ReadonlyArray<string>
  ) => (m: typeof modules) => Promise<void>
  await new AsyncFunction('__modules', js)(modules)
}
