/**
 * OCR giro files of 10,000 transactions (docs/rules.md C14), measured as ratios to baselines run
 * in the same process, side by side (the machines are shared; absolute times move, ratios hold):
 *
 * - parsing (`parseOcrGiro`) against reading the file's lines (`text.split('\n')` and a look at
 *   each line's length) — the least any parser does — and against `JSON.parse` of the same
 *   transmission written as JSON (what reading the same data costs in the format Node reads fastest);
 * - parsing at 1,000, 10,000 and 100,000 transactions: linear, time per transaction flat;
 * - applying (`receiveOcrGiro`, a world of 10,000 open invoices, each paid in full, plus 1,000
 *   unmatched transfers) against the same transfers applied one by one through
 *   `receiveTransferByKid` on the slice a service would load (the invoices holding the KID), and
 *   against one by one on the whole world (which copies the world per transfer);
 * - memory: the heap grown during each call (no GC in between) and kept after a full GC, against
 *   the size of the file.
 *
 * Run alone: `npm run bench:ocr`. Reports, asserts nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Payment } from '../src/index.js'
import {
  ocrGiroText,
  parseOcrGiro,
  receiveOcrGiro,
  receiveTransferByKid,
  type OcrTransaction,
  type OcrTransmission
} from '../src/http.js'
import { heapOf, kidOf, mb, median, sideBySide, timed, worldOfInvoices } from './bankFiles.js'

// -------------------------------------------------------------------------------------
// the world and the file
// -------------------------------------------------------------------------------------

/** `paid` transfers paying invoices 0.. in full, then `unmatched` with KIDs no invoice holds. */
const transmissionOf = (paid: number, unmatched: number): OcrTransmission => {
  const transactions: OcrTransaction[] = []
  for (let i = 0; i < paid + unmatched; i++) {
    transactions.push({
      transactionNumber: i + 1, transactionType: 10, kid: i < paid ? kidOf(i) : kidOf(10_000_000 + i), amount: i < paid ? 10000 : 500,
      netsDate: '2026-11-21', centreId: '13', dayCode: 21, partialSettlementNumber: 1, partialSettlementSerialNumber: '01464',
      cardDrawer: '00', formNumber: '0000000000', archiveReference: '000000000', reserved: '0000000', debitAccount: '00000000000', line: 0
    })
  }
  return {
    transmissionNumber: '0000001', dataSender: '00008080', dataRecipient: '00010200', netsDate: '2026-11-21',
    assignments: [{ assignmentNumber: '0000001', agreementId: '001008566', account: '99991042764', netsDate: '2026-11-21', transactions }]
  }
}

const readLines = (text: string): number => {
  let n = 0
  for (const line of text.split('\n')) if (line.length === 80) n++
  return n
}

const parsed = (text: string): OcrTransmission => {
  const r = parseOcrGiro(text)
  if (E.isLeft(r)) throw new Error('the bench wrote a file paysplit refuses')
  return r.right
}

// -------------------------------------------------------------------------------------
// runs
// -------------------------------------------------------------------------------------

console.log(`Node ${process.version}; the machine is shared: read the ratios, the absolute times move.\n`)

const N = 10_000
const text = ocrGiroText(transmissionOf(N, 0))
console.log(`File of ${N} transactions: ${String(text.split('\n').length - 1)} lines, ${mb(text.length)} of text.\n`)

console.log('## Parsing\n')
const parse = sideBySide(() => parseOcrGiro(text), () => readLines(text), 11)
const json = JSON.stringify(parsed(text))
const parseJson = sideBySide(() => parseOcrGiro(text), () => JSON.parse(json), 11)
console.log(`| | median time |\n|---|---:|`)
console.log(`| reading the lines (baseline 1) | ${parse.baseline.toFixed(1)} ms |`)
console.log(`| \`JSON.parse\` of the same transmission as JSON, ${mb(json.length)} (baseline 2) | ${parseJson.baseline.toFixed(1)} ms |`)
console.log(`| parseOcrGiro | ${parse.subject.toFixed(1)} ms |`)
console.log(`\nparseOcrGiro / reading the lines: **${parse.ratio.toFixed(0)}×**; parseOcrGiro / JSON.parse of the same data: **${parseJson.ratio.toFixed(2)}×**\n`)

console.log('Linearity (time per transaction, µs):\n')
console.log('| transactions | parse time | per transaction |\n|---:|---:|---:|')
for (const n of [1_000, 10_000, 100_000]) {
  const t = ocrGiroText(transmissionOf(n, 0))
  const ms = median([0, 1, 2, 3, 4].map(() => timed(() => parseOcrGiro(t))))
  console.log(`| ${n} | ${ms.toFixed(1)} ms | ${((ms * 1000) / n).toFixed(2)} µs |`)
}

console.log('\n## Applying (10,000 invoices paid in full + 1,000 unmatched)\n')
const world = worldOfInvoices(N)
const file = parsed(ocrGiroText(transmissionOf(N, 1_000)))
const ctx = { at: '2026-11-21T11:00:00.000Z', catchAllUrl: 'https://hooks.example/all' }
const rows = file.assignments.flatMap((a) => a.transactions)
const byKidIndex = new Map<string, string>()
for (const [k, p] of world.payments) if (p.kid !== undefined) byKidIndex.set(p.kid, k)
/**
 * One by one on the slice a service loads per transfer (the invoice holding the KID), keeping what
 * each gives (the result, the webhooks, the events), as receiveOcrGiro keeps them for its answer.
 */
const oneBySlice = (): unknown => {
  const results: unknown[] = []
  const deliveries: unknown[] = []
  const events: unknown[] = []
  for (const t of rows) {
    const key = byKidIndex.get(t.kid)
    const payments = new Map<string, Payment>()
    if (key !== undefined) payments.set(key, world.payments.get(key) as Payment)
    const { result, deliveries: sent, events: happened } = receiveTransferByKid({ ...world, payments }, { kid: t.kid, amount: t.amount }, ctx)
    results.push(result)
    deliveries.push(...sent)
    events.push(...happened)
  }
  return [results, deliveries, events]
}
const apply = sideBySide(() => receiveOcrGiro(world, file, ctx), oneBySlice, 5)
console.log(`| | median time |\n|---|---:|`)
console.log(`| receiveTransferByKid one by one, each on its KID's slice, results kept (baseline) | ${apply.baseline.toFixed(1)} ms |`)
console.log(`| receiveOcrGiro | ${apply.subject.toFixed(1)} ms |`)
console.log(`\nreceiveOcrGiro / one by one on slices: **${apply.ratio.toFixed(2)}×**\n`)

// one by one on the whole world: each call copies the world's map and scans it for the KID
const WHOLE = 2_000
const partWorld = worldOfInvoices(WHOLE)
const partFile = parsed(ocrGiroText(transmissionOf(WHOLE, 0)))
const partRows = partFile.assignments.flatMap((a) => a.transactions)
const whole = sideBySide(
  () => receiveOcrGiro(partWorld, partFile, ctx),
  () => {
    let w = partWorld
    for (const t of partRows) w = receiveTransferByKid(w, { kid: t.kid, amount: t.amount }, ctx).world
    return w
  },
  3
)
console.log(`At ${WHOLE} invoices and transfers, one by one on the whole world (quadratic: each call copies it): ${whole.baseline.toFixed(0)} ms; receiveOcrGiro ${whole.subject.toFixed(1)} ms (**${(whole.baseline / whole.subject).toFixed(0)}×** faster).\n`)

console.log('## Memory\n')
const parseHeap = heapOf(() => parseOcrGiro(text))
const applyHeap = heapOf(() => receiveOcrGiro(world, file, ctx))
console.log('| call | heap grown during the call | heap kept after GC | kept / file size |\n|---|---:|---:|---:|')
console.log(`| parseOcrGiro (${N} transactions) | ${mb(parseHeap.grown)} | ${mb(parseHeap.kept)} | ${(parseHeap.kept / text.length).toFixed(1)}× |`)
console.log(`| receiveOcrGiro (${N + 1000} transactions, 10,000 invoices) | ${mb(applyHeap.grown)} | ${mb(applyHeap.kept)} | ${(applyHeap.kept / text.length).toFixed(1)}× |`)
