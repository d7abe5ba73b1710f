/**
 * The floors of src/ (docs/decisions.md, "The house"): a module imports only from its own floor
 * or the floors beneath it, and no import cycle exists, type-only imports included.
 *
 *   internal/  <  messages/  <  errors.ts  <  codecs/  <  the domain (src/*.ts), state/ and bankFiles/
 *   <  service/ (the pure service model)  <  http/ (the wire)  <  testing/  <  conformance/  <  cli/
 *
 * The entries (`index.ts`, `codecs.ts`, `http.ts`, `camt054.ts`, `testing.ts`, `conformance.ts`) stand on the
 * highest floor they export from: `testing.ts` keeps the conformance runner's names (deprecated),
 * `conformance.ts` exports the command's HTTP driver and webhook receiver.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const src = join(root, 'src')

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : []
  })

/** Every relative import, export-from, `import()` and `import('…')` type of a module, as src/-relative paths. */
const importsOf = (file: string, text: string): ReadonlyArray<string> => {
  const out: string[] = []
  const add = (spec: string): void => {
    if (spec.startsWith('.')) out.push(relative(src, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))))
  }
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier !== undefined && ts.isStringLiteral(n.moduleSpecifier)) {
      add(n.moduleSpecifier.text)
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const a = n.arguments[0]
      if (a !== undefined && ts.isStringLiteral(a)) add(a.text)
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      add(n.argument.literal.text)
    }
    ts.forEachChild(n, visit)
  }
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))
  return out
}

/** The import graph of a set of modules (src/-relative path → the paths it imports). */
export type Graph = ReadonlyMap<string, ReadonlyArray<string>>

const graphOf = (files: ReadonlyArray<string>): Graph =>
  new Map(files.map((f) => [relative(src, f), importsOf(f, readFileSync(f, 'utf8'))] as const))

/** The floor of a module of src/ (higher imports lower). */
export const floorOf = (path: string): number => {
  const top = path.split('/')[0] ?? ''
  const floors: Readonly<Record<string, number>> = {
    internal: 0,
    messages: 1,
    'errors.ts': 2,
    codecs: 3,
    'codecs.ts': 3,
    state: 4,
    bankFiles: 4,
    'index.ts': 4,
    service: 5,
    'camt054.ts': 5,
    http: 6,
    'http.ts': 6,
    testing: 7,
    conformance: 8,
    'testing.ts': 8,
    cli: 9,
    'conformance.ts': 9
  }
  // the domain: every other module at the top of src/
  return floors[top] ?? 4
}

/** Imports that go up a floor: `from → to`. */
export const upwardOf = (graph: Graph): ReadonlyArray<string> =>
  [...graph].flatMap(([from, tos]) => tos.filter((to) => floorOf(to) > floorOf(from)).map((to) => `${from} → ${to}`))

/** The import cycles of a graph: each strongly connected component of more than one module (or a self-import), sorted. */
export const cyclesOf = (graph: Graph): ReadonlyArray<ReadonlyArray<string>> => {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  const connect = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string | undefined
      do {
        w = stack.pop()
        if (w === undefined) break
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) connect(v)
  return out
}

const graph = graphOf(walk(src))

describe('the house: floors and cycles of src/', () => {
  it('no import cycle in src/ (type-only imports count)', () => {
    expect(graph.size).toBeGreaterThan(50)
    expect(cyclesOf(graph)).toStrictEqual([])
  })

  it('no upward import: the domain never imports the service model, http, testing, conformance or cli; the service model never http; codecs never the domain; state never http; the runner never the command', () => {
    expect(upwardOf(graph)).toStrictEqual([])
  })

  it('the checks are not blind: a planted cycle and planted upward imports are found', () => {
    const planted: Graph = new Map([
      ['errors.ts', ['messages/en.ts']],
      ['messages/en.ts', ['errors.ts']],
      ['payment.ts', ['service/world.ts']],
      ['codecs/fields.ts', ['kid.ts']],
      ['state/storedState.ts', ['http/responses.ts']],
      ['service/world.ts', ['state/trustedState.ts', 'codecs/fields.ts', 'http/responses.ts']],
      ['bankFiles/ocrGiro.ts', ['service/world.ts']],
      ['testing/arbitraries.ts', ['conformance/model.ts']],
      ['conformance/runner.ts', ['cli/receiver.ts', 'testing/harness.ts']]
    ])
    expect(cyclesOf(planted)).toStrictEqual([['errors.ts', 'messages/en.ts']])
    expect(upwardOf(planted)).toStrictEqual([
      'messages/en.ts → errors.ts',
      'payment.ts → service/world.ts',
      'codecs/fields.ts → kid.ts',
      'state/storedState.ts → http/responses.ts',
      'service/world.ts → http/responses.ts',
      'bankFiles/ocrGiro.ts → service/world.ts',
      'testing/arbitraries.ts → conformance/model.ts',
      'conformance/runner.ts → cli/receiver.ts'
    ])
  })
})
