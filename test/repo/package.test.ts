/**
 * The package as a consumer outside this repo sees it: the build is installed into a scratch
 * folder's node_modules (with fp-ts and io-ts beside it, as peers), and small ESM and CJS
 * programs there import `paysplit`, `paysplit/codecs`, `paysplit/http`, `paysplit/camt054`, `paysplit/testing` and
 * `paysplit/conformance` by package name and walk a payment through SPEC's contract (and a camt.054
 * notification through `paysplit/camt054`); a TypeScript consumer of each module
 * kind type-checks against the built typings (strict, node16 resolution, skipLibCheck off).
 * Package metadata is checked by
 * `npm run check:package` (publint, attw).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
let scratch = ''

const program = (kind: 'esm' | 'cjs'): string => {
  const load =
    kind === 'esm'
      ? `import * as paysplit from 'paysplit'\nimport * as codecs from 'paysplit/codecs'\nimport * as http from 'paysplit/http'\nimport * as camt054 from 'paysplit/camt054'\nimport * as testing from 'paysplit/testing'\nimport * as conformance from 'paysplit/conformance'\nimport fc from 'fast-check'`
      : `const paysplit = require('paysplit')\nconst codecs = require('paysplit/codecs')\nconst http = require('paysplit/http')\nconst camt054 = require('paysplit/camt054')\nconst testing = require('paysplit/testing')\nconst conformance = require('paysplit/conformance')\nconst fc = require('fast-check')`
  return `${load}
const { transition, initialState, replay, parseStatus, kid, settlement, proportionalPatch } = paysplit
const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const FEE = '11111111-2222-4333-8444-555555555555'
const request = {
  externalPaymentReferenceID: 'order-1', environment: 'test', paymentGateway: 'creditcard',
  chargeImmediately: false, sellerConnectedAccountID: SELLER, grossAmount: 1000, currency: 'NOK',
  moneySplitList: [{ connectedAccountID: SELLER, amount: 900, isFee: false }, { connectedAccountID: FEE, amount: 100, isFee: true }],
  customerExternalID: 'c-1', successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed'
}
const out = {}
const decoded = codecs.decodePaymentIntentRequest(request)
out.decoded = decoded._tag
out.bad = codecs.decodePaymentIntentRequest({ ...request, grossAmount: 999 }).left.code
let s = initialState
const events = []
const step = (c) => { const r = transition(s, c); if (r._tag === 'Left') throw new Error(r.left.code); s = r.right[0]; events.push(...r.right[1]) }
step({ type: 'CreatePayment', at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c', request })
step({ type: 'CompletePaymentForm', at: '2026-11-21T10:00:01.000Z' })
const reserved = s
step({ type: 'ChargePayment', at: '2026-11-21T10:00:02.000Z' })
// a state transition made is trusted by the build too: used as it is, its unchanged splits shared;
// a copy of it is validated into fresh objects first
out.trusted = s.moneySplits === reserved.moneySplits && Object.isFrozen(s)
const fromCopy = transition({ ...reserved }, { type: 'ChargePayment', at: '2026-11-21T10:00:02.000Z' })
out.copyValidated = fromCopy._tag === 'Right' && fromCopy.right[0].moneySplits !== reserved.moneySplits
const patch = proportionalPatch(s, 100)
step({ type: 'RefundPartially', at: '2026-11-21T10:00:03.000Z', patch: patch.right })
out.status = s.status
out.amounts = [s.grossAmount, s.chargedAmount, s.refundedAmount]
out.replayed = JSON.stringify(replay(events)) === JSON.stringify(s)
out.refused = transition(s, { type: 'CancelPayment', at: '2026-11-21T10:00:04.000Z' }).left.code
out.long = parseStatus('ChargedPayment')
out.kid = kid.isValid(kid.create('1234567', 'mod10').right)
out.net = settlement(s).rows.reduce((a, r) => a + r.net, 0)
out.route = http.matchRoute('POST', '/payments')._tag
out.httpStatus = http.httpStatusOf({ code: 'InvoiceCannotBeCancelled' })
out.sampled = fc.sample(testing.paymentIntentRequestArb(), { numRuns: 20, seed: 1 }).every((r) => codecs.decodePaymentIntentRequest(r)._tag === 'Right')
const notification = camt054.parseCamt054(testing.camt054Xml({ version: 'camt.054.001.08', messageId: 'M-1', createdAt: '2026-11-21T10:00:00', notifications: [{ account: 'NO9386011117947', entries: [{ accountServicerReference: 'E-1', currency: 'NOK', creditDebit: 'CRDT', bookingDate: '2026-11-21', details: [{ amount: '12.34', creditorReferences: ['12345674'] }] }] }] }))
out.camt054 = notification._tag === 'Right' ? camt054.receiveCamt054(http.emptyWorld, notification.right, { at: '2026-11-21T10:00:00.000Z' }).report.map((r) => [r.kid, r.amount, r.outcome]) : notification.left.code
out.camt054Rows = notification._tag === 'Right' ? http.receiveCamt054(http.emptyWorld, notification.right, { at: '2026-11-21T10:00:00.000Z' }).changes.camt054Messages.concat(http.camt054Keys(notification.right).camt054Messages) : notification.left.code
out.conformance = [conformance.checkService, conformance.httpService, conformance.formDriver, conformance.startWebhookReceiver, http.ocrGiroText].every((f) => typeof f === 'function')
console.log(JSON.stringify(out))
`
}

/** A typed consumer: the contract's names and types, as C2–C6 give them. */
const typed = `import { transition, initialState, proportionalPatch, settlement, kid, parseStatus, replay } from 'paysplit'
import type { Payment, Command, PaymentEvent, PaymentError, PaymentState } from 'paysplit'
import { decodePaymentIntentRequest, decodeMoneySplitPatch, PaymentIntentRequest } from 'paysplit/codecs'
import type { Issue } from 'paysplit/codecs'
import { handle, emptyWorld, webhookDeliveries, httpStatusOf, getPayment } from 'paysplit/http'
import { parseCamt054, receiveCamt054 } from 'paysplit/camt054'
import type { Camt054Notification, Camt054ReportRow } from 'paysplit/camt054'
import { camt054Keys, receiveCamt054 as applyCamt054, type Camt054Changes, type Camt054RowKeys } from 'paysplit/http'
import { paymentIntentRequestArb, given, checkService } from 'paysplit/testing'
import { checkService as check, httpService, startWebhookReceiver, type ConformanceReport } from 'paysplit/conformance'
const c: Command = { type: 'ChargePayment', at: '2026-11-21T10:00:00.000Z' }
const r = transition(initialState, c)
if (r._tag === 'Right') {
  const [s, events]: readonly [PaymentState, ReadonlyArray<PaymentEvent>] = r.right
  const p = s as Payment
  const patch = proportionalPatch(p, 1)
  const rows = settlement(p).rows
  void patch; void rows; void replay(events)
} else {
  const e: PaymentError = r.left
  void e.code
}
const d = decodePaymentIntentRequest({})
if (d._tag === 'Left') { const issues: ReadonlyArray<Issue> | undefined = d.left.issues; void issues }
void decodeMoneySplitPatch({}); void PaymentIntentRequest.decode({}); void kid.isValid('12'); void parseStatus('Charged')
const { world, response, deliveries, changes } = handle(emptyWorld, { method: 'POST', path: '/payments', body: {} }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' })
const status: number = response.status
void world; void deliveries; void changes.payments; void status; void getPayment; void webhookDeliveries
void httpStatusOf({ code: 'PaymentNotFound' }); void paymentIntentRequestArb; void given; void checkService
const read = parseCamt054('<Document/>')
if (read._tag === 'Right') {
  const n: Camt054Notification = read.right
  const rows: ReadonlyArray<Camt054ReportRow> = receiveCamt054(emptyWorld, n, { at: '2026-11-21T10:00:00.000Z' }).report
  const written: Camt054Changes = applyCamt054(emptyWorld, n, { at: '2026-11-21T10:00:00.000Z' }).changes
  const keys: Camt054RowKeys = camt054Keys(n)
  void rows; void written.camt054Transactions; void keys.camt054Messages
}
const conforms: Promise<ConformanceReport> = check({ ...httpService('http://127.0.0.1:1'), numRuns: 1 })
void conforms; void startWebhookReceiver
`

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'paysplit-consumer-'))
  const pkg = join(scratch, 'node_modules', 'paysplit')
  mkdirSync(pkg, { recursive: true })
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'))
  execFileSync(join(root, 'node_modules', '.bin', 'tsup'), ['--out-dir', join(pkg, 'dist')], {
    cwd: root,
    stdio: 'pipe'
  })
  for (const peer of ['fp-ts', 'io-ts', 'fast-check', 'pure-rand', 'saxes', 'xmlchars', '@types']) symlinkSync(join(root, 'node_modules', peer), join(scratch, 'node_modules', peer), 'dir')
  writeFileSync(join(scratch, 'consumer.mjs'), program('esm'))
  writeFileSync(join(scratch, 'consumer.cjs'), program('cjs'))
  writeFileSync(join(scratch, 'typed.mts'), typed)
  writeFileSync(join(scratch, 'typed.cts'), typed)
}, 120_000)

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
})

describe('the built package, imported by name from outside the repo', () => {
  const expected = {
    decoded: 'Right',
    bad: 'GrossAmountMismatch',
    status: 'Charged',
    amounts: [900, 1000, 100],
    replayed: true,
    trusted: true,
    copyValidated: true,
    refused: 'CancelNotAllowedInStatus',
    long: { _tag: 'Some', value: 'Charged' },
    kid: true,
    net: 900,
    route: 'Right',
    httpStatus: 409,
    sampled: true,
    camt054: [['12345674', 1234, 'unmatched']],
    camt054Rows: [{ messageId: 'M-1', at: '2026-11-21T10:00:00.000Z' }, 'M-1'],
    conformance: true
  }

  it.each(['typed.mts', 'typed.cts'])('%s type-checks against the built typings (strict, node16)', (file) => {
    const args = ['--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022', '--skipLibCheck', 'false', '--types', 'node', file]
    const run = (): string => execFileSync(join(root, 'node_modules', '.bin', 'tsc'), args, { cwd: scratch, encoding: 'utf8' })
    expect(run).not.toThrow()
  })

  it.each(['consumer.mjs', 'consumer.cjs'])('%s walks a payment through the contract', (file) => {
    const stdout = execFileSync(process.execPath, [file], { cwd: scratch, encoding: 'utf8' })
    expect(JSON.parse(stdout)).toEqual(expected)
  })
})

describe('the built typings', () => {
  /** The exported names of an entry's .d.ts whose declaration is tagged `@internal`. */
  const internalExports = (entry: string): ReadonlyArray<string> => {
    const file = join(scratch, 'node_modules', 'paysplit', 'dist', `${entry}.d.ts`)
    const program = ts.createProgram([file], { strict: true, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, skipLibCheck: true })
    const checker = program.getTypeChecker()
    const source = program.getSourceFile(file)
    if (source === undefined) throw new Error(`no ${entry}.d.ts`)
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (moduleSymbol === undefined) throw new Error(`${entry}.d.ts is no module`)
    return checker
      .getExportsOfModule(moduleSymbol)
      .filter((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
        return (target.declarations ?? []).some((d) => ts.getJSDocTags(d).some((tag) => tag.tagName.text === 'internal'))
      })
      .map((symbol) => symbol.name)
  }

  it.each(['index', 'codecs', 'http', 'camt054', 'testing', 'conformance'])('dist/%s.d.ts exports no name marked @internal', (entry) => {
    expect(internalExports(entry)).toStrictEqual([])
  })
})

describe('the XML parser stays out of the other entries', () => {
  const dist = (): string => join(scratch, 'node_modules', 'paysplit', 'dist')
  /** An entry's built file and every chunk it loads, followed through their relative imports. */
  const loaded = (file: string): ReadonlyArray<string> => {
    const seen = new Set<string>()
    const visit = (f: string): void => {
      if (seen.has(f)) return
      seen.add(f)
      const text = readFileSync(join(dist(), f), 'utf8')
      // a TSDoc example kept in a chunk may name a source module (`from './expiringMap.js'`): not a file of dist/
      for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']\.\/([^"']+)["']/g)) if (existsSync(join(dist(), m[1] as string))) visit(m[1] as string)
    }
    visit(file)
    return [...seen]
  }
  const importsSaxes = (file: string): boolean =>
    loaded(file).some((f) => /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']saxes["']/.test(readFileSync(join(dist(), f), 'utf8')))

  it.each(['index.js', 'index.cjs', 'codecs.js', 'codecs.cjs', 'http.js', 'http.cjs', 'testing.js', 'testing.cjs', 'conformance.js', 'conformance.cjs', 'cli.js'])(
    'dist/%s and the chunks it loads import no saxes (only paysplit/camt054 needs the optional peer)',
    (file) => {
      expect(importsSaxes(file)).toBe(false)
    }
  )

  it('the check is not blind: dist/camt054.js and .cjs import saxes', () => {
    expect([importsSaxes('camt054.js'), importsSaxes('camt054.cjs')]).toStrictEqual([true, true])
  })
})
