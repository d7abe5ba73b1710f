/**
 * docs/rules.md points at the code: every row's "enforced in" cell names files (`transitions.ts`,
 * `http/responses.ts`, `messages/`) and, after each, the names it means (`guards`, `edges`). This
 * test keeps the pointers true as the code moves: each file exists (a bare name under src/ names
 * exactly one file; the reference service's table points into docs/examples/service/), and each
 * name after it is declared in that file (a function, constant, type, class, method or property),
 * imported by it, or is one of its string literals (an error code such as
 * `InvoiceCannotBeCancelled`, an event type such as `CustomerUpserted`). The "proven by" cell's
 * test files exist under test/ (or where their path says).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? walk(p) : [p]
  })

const srcFiles = walk(join(root, 'src')).filter((f) => f.endsWith('.ts'))
const testFiles = walk(join(root, 'test')).filter((f) => f.endsWith('.ts'))

/** A row of a rules table: its line, the "enforced in" cell and the "proven by" cell. */
interface Row {
  readonly line: number
  /** Where its pointers are relative to: src/, or the reference service's folder for its section. */
  readonly base: string
  readonly code: string
  readonly proof: string
}

/** The rows of every `| rule | enforced in | proven by |` table. */
const rowsOf = (text: string): ReadonlyArray<Row> => {
  const rows: Row[] = []
  let inTable = false
  let base = 'src'
  text.split('\n').forEach((l, i) => {
    if (l.startsWith('## ')) base = l.includes('docs/examples/service') ? 'docs/examples/service' : 'src'
    if (/^\|\s*rule\s*\|\s*enforced in\s*\|\s*proven by\s*\|/.test(l)) {
      inTable = true
      return
    }
    if (!l.startsWith('|')) {
      inTable = false
      return
    }
    if (!inTable || /^\|-/.test(l)) return
    // cells split on a `|` outside backticks (a cell may quote `'card' | 'invoice'`)
    const cells: string[] = []
    let cell = ''
    let quoted = false
    for (const ch of l.slice(1)) {
      if (ch === '`') quoted = !quoted
      if (ch === '|' && !quoted) {
        cells.push(cell.trim())
        cell = ''
      } else cell += ch
    }
    rows.push({ line: i + 1, base, code: cells[1] ?? '', proof: cells[2] ?? '' })
  })
  return rows
}

/** A file pointer and the names written after it (up to the next file pointer). */
interface Pointer {
  readonly file: string
  readonly names: ReadonlyArray<string>
}

const isFileToken = (t: string): boolean => /^[\w./-]+(\.ts|\/)$/.test(t)

/** The pointers of an "enforced in" cell: backticked file names, each with the backticked identifiers after it. */
const pointersOf = (cell: string): ReadonlyArray<Pointer> => {
  const out: Array<{ file: string; names: string[] }> = []
  for (const m of cell.matchAll(/`([^`]+)`/g)) {
    const token = m[1] ?? ''
    if (isFileToken(token)) out.push({ file: token, names: [] })
    else if (/^[A-Za-z_$][\w$]*$/.test(token)) out.at(-1)?.names.push(token)
  }
  return out
}

/** The files a pointer names: a path under `under` (or the repository), or a bare name that is one file of src/. */
const resolvePointer = (token: string, under = 'src'): ReadonlyArray<string> | string => {
  for (const base of [join(root, under), root]) {
    const p = join(base, token)
    if (token.endsWith('/') && existsSync(p) && statSync(p).isDirectory()) return walk(p).filter((f) => f.endsWith('.ts'))
    if (existsSync(p) && statSync(p).isFile()) return [p]
  }
  if (token.includes('/') || under !== 'src') return `no such file: ${token}`
  const found = srcFiles.filter((f) => basename(f) === token)
  if (found.length === 1) return found
  return found.length === 0 ? `no file of src/ is named ${token}` : `${token} is ambiguous: ${found.map((f) => relative(root, f)).join(', ')}`
}

const namesCache = new Map<string, ReadonlySet<string>>()

/** What a file declares (any declaration's name, export names) and its string literals. */
const namesOf = (file: string): ReadonlySet<string> => {
  const cached = namesCache.get(file)
  if (cached !== undefined) return cached
  const names = new Set<string>()
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) names.add(n.text)
    const name = (n as { readonly name?: ts.Node }).name
    if (
      name !== undefined &&
      (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) &&
      (ts.isVariableDeclaration(n) ||
        ts.isFunctionDeclaration(n) ||
        ts.isClassDeclaration(n) ||
        ts.isInterfaceDeclaration(n) ||
        ts.isTypeAliasDeclaration(n) ||
        ts.isEnumDeclaration(n) ||
        ts.isModuleDeclaration(n) ||
        ts.isMethodDeclaration(n) ||
        ts.isMethodSignature(n) ||
        ts.isPropertyDeclaration(n) ||
        ts.isPropertySignature(n) ||
        ts.isPropertyAssignment(n) ||
        ts.isShorthandPropertyAssignment(n) ||
        ts.isEnumMember(n) ||
        ts.isExportSpecifier(n) ||
        ts.isImportSpecifier(n) ||
        ts.isBindingElement(n))
    ) {
      names.add(name.text)
    }
    ts.forEachChild(n, visit)
  }
  visit(sf)
  namesCache.set(file, names)
  return names
}

/** Every fault of the pointers of one rules text: `line N: …`. */
const faultsOf = (text: string): ReadonlyArray<string> => {
  const faults: string[] = []
  for (const row of rowsOf(text)) {
    for (const p of pointersOf(row.code)) {
      const files = resolvePointer(p.file, row.base)
      if (typeof files === 'string') {
        faults.push(`line ${String(row.line)}: ${files}`)
        continue
      }
      for (const name of p.names) {
        if (!files.some((f) => namesOf(f).has(name))) faults.push(`line ${String(row.line)}: ${p.file} declares no ${name}`)
      }
    }
    for (const m of row.proof.matchAll(/([\w./-]+\.test\.ts)/g)) {
      const named = m[1] ?? ''
      const there = named.includes('/')
        ? existsSync(join(root, named)) || existsSync(join(root, 'test', named))
        : testFiles.some((f) => basename(f) === named)
      if (!there) faults.push(`line ${String(row.line)}: no test file ${named}`)
    }
  }
  return faults
}

const rules = readFileSync(join(root, 'docs', 'rules.md'), 'utf8')

describe('docs/rules.md points at code that exists', () => {
  it('every file of an "enforced in" cell exists, every name after it is declared there, every test file named exists', () => {
    expect(rowsOf(rules).length).toBeGreaterThan(80)
    expect(faultsOf(rules)).toStrictEqual([])
  })

  it('the check is not blind: a missing file, a missing name and a missing test file are each caught', () => {
    const table = (code: string, proof = 'decider.test.ts "x"'): string =>
      `| rule | enforced in | proven by |\n|---|---|---|\n| r | ${code} | ${proof} |\n`
    expect(faultsOf(table('`transitions.ts` `guards`, `edges`'))).toStrictEqual([])
    expect(faultsOf(table('`transitions.ts` `InvoiceCannotBeCancelled`'))).toStrictEqual([])
    expect(faultsOf(table('`nowhere/gone.ts` `guards`'))).toStrictEqual(['line 3: no such file: nowhere/gone.ts'])
    expect(faultsOf(table('`transitions.ts` `noSuchGuard`'))).toStrictEqual(['line 3: transitions.ts declares no noSuchGuard'])
    expect(faultsOf(table('`decider.ts` `guards`'))).toStrictEqual(['line 3: decider.ts declares no guards'])
    expect(faultsOf(table('`internal/own.ts` `own`'))).toStrictEqual([])
    expect(faultsOf(table('`service/transfers.ts` `POSITIVE`'))).toStrictEqual([]) // imported, and used there
    expect(faultsOf(table('`gone.ts`'))).toStrictEqual(['line 3: no file of src/ is named gone.ts'])
    expect(faultsOf(table('`arbitraries.ts`', 'none'))).toStrictEqual([])
    expect(faultsOf(table('`index.ts`', 'nothing.test.ts "x"'))).toStrictEqual(['line 3: no test file nothing.test.ts'])
    expect(faultsOf(table('`commands.ts` `CompletePaymentForm`'))).toStrictEqual([]) // src/commands.ts, not src/testing/commands.ts
  })
})
