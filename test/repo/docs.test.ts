/**
 * The documentation keeps working: every ```ts (and ```tsx, React) block of README.md and docs/*.md type-checks
 * against the source (the package's five entries mapped to src/ as a user's import would resolve
 * them to dist/), and every relative link of those files leads to a file of the repository.
 * A block that is not meant as TypeScript (a request log, JSON, a shell command) is fenced as
 * such (```text, ```json, ```sh) and not checked.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

interface Block {
  readonly doc: string
  /** The line of the opening fence, 1-based. */
  readonly line: number
  readonly code: string
  /** A ```tsx block (JSX, type-checked with React's automatic runtime). */
  readonly tsx?: boolean
}

/** The fenced blocks of a Markdown text whose info string is `ts`, `typescript` or `tsx`. */
const tsBlocks = (doc: string, text: string): ReadonlyArray<Block> => {
  const out: Block[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)/.exec(lines[i] ?? '')
    if (open === null) continue
    const fence = open[2] ?? '```'
    const start = i
    const body: string[] = []
    for (i++; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(fence); i++) body.push(lines[i] ?? '')
    if (open[3] === 'ts' || open[3] === 'typescript') out.push({ doc, line: start + 1, code: body.join('\n') })
    if (open[3] === 'tsx') out.push({ doc, line: start + 1, code: body.join('\n'), tsx: true })
  }
  return out
}

const blocks = docs.flatMap((doc) => tsBlocks(doc, readFileSync(join(root, doc), 'utf8')))

/** Type-checks every block as a module of its own, in one program; the diagnostics of each block. */
const check = (all: ReadonlyArray<Block>): ReadonlyArray<string> => {
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p)).config, ts.sys, root)
  const options: ts.CompilerOptions = {
    ...parsed.options,
    // a snippet may import or bind a name only to show it; every other option of tsconfig.json holds
    noUnusedLocals: false,
    noUnusedParameters: false,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    baseUrl: root,
    paths: {
      paysplit: ['src/index.ts'],
      'paysplit/codecs': ['src/codecs.ts'],
      'paysplit/http': ['src/http.ts'],
      'paysplit/camt054': ['src/camt054.ts'],
      'paysplit/testing': ['src/testing.ts'],
      'paysplit/conformance': ['src/conformance.ts']
    }
  }
  // each block is a module (top-level await, its own names) at docs/<file>.<line>.ts (.tsx)
  const files = new Map(
    all.map((b) => [join(root, 'docs', `${b.doc.replace(/[/.]/g, '_')}.${String(b.line)}.${b.tsx === true ? 'tsx' : 'ts'}`), b] as const)
  )
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const readFile = host.readFile.bind(host)
  host.getSourceFile = (name, version, onError, create) => {
    const b = files.get(resolve(name))
    return b === undefined ? getSourceFile(name, version, onError, create) : ts.createSourceFile(name, `${b.code}\nexport {}\n`, version, true)
  }
  host.fileExists = (name) => files.has(resolve(name)) || fileExists(name)
  host.readFile = (name) => {
    const b = files.get(resolve(name))
    return b === undefined ? readFile(name) : b.code
  }
  const program = ts.createProgram([...files.keys()], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const b = d.file === undefined ? undefined : files.get(resolve(d.file.fileName))
    const where =
      d.file === undefined || d.start === undefined
        ? '(program)'
        : b === undefined
          ? `${relative(root, d.file.fileName)}:${String(d.file.getLineAndCharacterOfPosition(d.start).line + 1)}`
          : `${b.doc}:${String(b.line + 1 + d.file.getLineAndCharacterOfPosition(d.start).line)}`
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}

describe('documentation', () => {
  it('finds the TypeScript blocks (the README quickstart among them)', () => {
    expect(blocks.filter((b) => b.doc === 'README.md').length).toBeGreaterThan(0)
  })

  it('every ```ts and ```tsx block of README.md and docs/*.md type-checks against src/', () => {
    expect(check(blocks)).toEqual([])
  })

  it('the form examples are checked: docs/forms.md has tsx blocks for React Hook Form and TanStack Form', () => {
    const forms = blocks.filter((b) => b.doc === 'docs/forms.md' && b.tsx === true).map((b) => b.code)
    expect(forms.some((c) => c.includes("from 'react-hook-form'") && c.includes('standardSchemaResolver'))).toBe(true)
    expect(forms.some((c) => c.includes("from '@tanstack/react-form'"))).toBe(true)
  })

  it('the check is not blind: a tsx block with a type error fails it too', () => {
    const diagnostics = check([{ doc: 'docs/forms.md', line: 10, code: 'export const A = (): number => <div />', tsx: true }])
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatch(/^docs\/forms\.md:11: Type .* is not assignable to type 'number'/)
  })

  it('the check is not blind: a block with a type error fails it, with its file and line', () => {
    const diagnostics = check([{ doc: 'README.md', line: 10, code: "import { transition } from 'paysplit'\nconst n: number = transition\nvoid n" }])
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatch(/^README\.md:12: Type .* is not assignable to type 'number'/)
  })

  it('every relative link of README.md and docs/*.md leads to a file of the repository', () => {
    const broken: string[] = []
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8').replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, '')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (target === undefined || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue
        const path = decodeURIComponent(target.split('#')[0] ?? '')
        if (!existsSync(resolve(root, dirname(doc), path))) broken.push(`${doc}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('every relative link of the packed README.md and docs/*.md resolves to a file inside the package (npm pack --dry-run --json)', () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as ReadonlyArray<{
      readonly files: ReadonlyArray<{ readonly path: string }>
    }>
    const files = new Set(packed[0]?.files.map((f) => f.path))
    const shipped = docs.filter((d) => files.has(d))
    expect(shipped).toEqual(docs)
    expect(files.has('docs/openapi.service.json')).toBe(true)
    const outside: string[] = []
    for (const doc of shipped) {
      for (const target of linksOf(doc)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue
        const path = relative(root, resolve(root, dirname(doc), decodeURIComponent(target.split('#')[0] ?? '')))
        if (!files.has(path)) outside.push(`${doc}: ${target}`)
      }
    }
    expect(outside).toEqual([])
  })

  it('every link to the repository names a file or folder of the repository (what does not ship is linked there)', () => {
    const { repository } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository: { url: string } }
    const base = repository.url.replace(/^git\+/, '').replace(/\.git$/, '')
    const dead: string[] = []
    let n = 0
    for (const doc of docs) {
      for (const target of linksOf(doc)) {
        const m = new RegExp(`^${base.replaceAll('.', '\\.')}/(?:tree|blob)/main/([^#]+)`).exec(target)
        if (m === null) continue
        n++
        if (!existsSync(join(root, decodeURIComponent(m[1] ?? '')))) dead.push(`${doc}: ${target}`)
      }
    }
    expect(n).toBeGreaterThan(3)
    expect(dead).toEqual([])
  })
})

/** The link targets of a Markdown file, fenced blocks left out. */
const linksOf = (doc: string): string[] => {
  const text = readFileSync(join(root, doc), 'utf8').replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, '')
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '')
}
