/**
 * The same 10,000 KID transfers as a camt.054 notification (docs/rules.md C17) and as an OCR giro
 * file (C14), read and applied to a world of 10,000 open invoices, each paid in full: the time
 * of `parseCamt054` + `receiveCamt054` as a ratio to `parseOcrGiro` + `receiveOcrGiro`, run side by
 * side in the same process (the goal: within 2×), for the two shapes banks send — one batch entry
 * listing every transfer (as an OCR giro assignment is reported) and an entry per transfer — and
 * each version read; then parsing and applying apart, and the heap each grows and keeps.
 *
 * Run alone: `npm run bench:bank`. Reports, asserts nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import { ocrGiroText, parseOcrGiro, receiveOcrGiro, type OcrTransaction, type OcrTransmission } from '../src/http.js'
import { camt054Xml, parseCamt054, receiveCamt054, type Camt054Draft, type Camt054Notification, type Camt054Version } from '../src/camt054.js'
import { heapOf, kidOf, mb, sideBySide, worldOfInvoices } from './bankFiles.js'

const N = 10_000
const DAY = '2026-11-21'
const ctx = { at: `${DAY}T11:00:00.000Z`, catchAllUrl: 'https://hooks.example/all' }

const transfers = Array.from({ length: N }, (_, i) => ({ kid: kidOf(i), amount: 10000 }))

const transmission: OcrTransmission = {
  transmissionNumber: '0000001', dataSender: '00008080', dataRecipient: '00010200', netsDate: DAY,
  assignments: [{
    assignmentNumber: '0000001', agreementId: '001008566', account: '99991042764', netsDate: DAY,
    transactions: transfers.map((t, i): OcrTransaction => ({
      transactionNumber: i + 1, transactionType: 10, kid: t.kid, amount: t.amount, netsDate: DAY, centreId: '13', dayCode: 21,
      partialSettlementNumber: 1, partialSettlementSerialNumber: '01464', cardDrawer: '00', formNumber: '0000000000',
      archiveReference: '000000000', reserved: '0000000', debitAccount: '00000000000', line: 0
    }))
  }]
}

/** The same transfers as a notification: one batch entry, or an entry each; references as a bank gives them. */
const draftOf = (version: Camt054Version, batch: boolean): Camt054Draft => {
  const details = transfers.map((t, i) => ({ transactionReference: `2026112100${String(i).padStart(6, '0')}`, amount: '100.00', creditorReferences: [t.kid] }))
  const entry = { currency: 'NOK', creditDebit: 'CRDT' as const, bookingDate: DAY }
  const entries = batch
    ? [{ ...entry, accountServicerReference: 'ARCH-2026112100001', batch: true, details }]
    : details.map((d, i) => ({ ...entry, accountServicerReference: `ARCH-20261121${String(i).padStart(6, '0')}`, details: [d] }))
  return { version, messageId: 'MSG-2026112100001', createdAt: `${DAY}T10:00:00`, notifications: [{ account: 'NO9386011117947', summary: true, entries }] }
}

const readOcr = (text: string): OcrTransmission => {
  const r = parseOcrGiro(text)
  if (E.isLeft(r)) throw new Error('the bench wrote a file paysplit refuses')
  return r.right
}
const readCamt = (xml: string): Camt054Notification => {
  const r = parseCamt054(xml)
  if (E.isLeft(r)) throw new Error('the bench wrote a notification paysplit refuses')
  return r.right
}

console.log(`Node ${process.version}; the machine is shared: read the ratios, the absolute times move.\n`)

const world = worldOfInvoices(N)
const text = ocrGiroText(transmission)
const ocrTotal = (): unknown => receiveOcrGiro(world, readOcr(text), ctx)
console.log(`${N} transfers, each paying one of ${N} open invoices in full. OCR giro file: ${mb(text.length)}.\n`)

console.log('## Read and applied: camt.054 against OCR giro\n')
console.log('| notification | size | camt.054 (parse + apply) | OCR giro (parse + apply) | camt.054 / OCR giro |\n|---|---:|---:|---:|---:|')
const shapes: Array<[string, Camt054Version, boolean]> = [
  ['001.08, one batch entry of 10,000 details', 'camt.054.001.08', true],
  ['001.08, 10,000 entries of one detail', 'camt.054.001.08', false],
  ['001.04, one batch entry', 'camt.054.001.04', true],
  ['001.02, one batch entry', 'camt.054.001.02', true]
]
const xmls = new Map<string, string>()
for (const [name, version, batch] of shapes) {
  const xml = camt054Xml(draftOf(version, batch))
  xmls.set(name, xml)
  // the same report, or the comparison means nothing
  const a = receiveCamt054(world, readCamt(xml), ctx).report.map((r) => r.outcome).join()
  const b = receiveOcrGiro(world, readOcr(text), ctx).report.map((r) => r.outcome).join()
  if (a !== b) throw new Error('the two files do not give the same report')
  const r = sideBySide(() => receiveCamt054(world, readCamt(xml), ctx), ocrTotal, 11)
  console.log(`| ${name} | ${mb(xml.length)} | ${r.subject.toFixed(1)} ms | ${r.baseline.toFixed(1)} ms | **${r.ratio.toFixed(2)}×** |`)
}

const batchXml = xmls.get(shapes[0]?.[0] ?? '') as string
const notification = readCamt(batchXml)
const file = readOcr(text)
console.log('\n## Apart (001.08, one batch entry)\n')
const parse = sideBySide(() => parseCamt054(batchXml), () => parseOcrGiro(text), 9)
const apply = sideBySide(() => receiveCamt054(world, notification, ctx), () => receiveOcrGiro(world, file, ctx), 7)
console.log('| step | camt.054 | OCR giro | ratio |\n|---|---:|---:|---:|')
console.log(`| parse | ${parse.subject.toFixed(1)} ms | ${parse.baseline.toFixed(1)} ms | ${parse.ratio.toFixed(2)}× |`)
console.log(`| apply | ${apply.subject.toFixed(1)} ms | ${apply.baseline.toFixed(1)} ms | ${apply.ratio.toFixed(2)}× |`)

console.log('\n## Memory (001.08, one batch entry)\n')
const camtParse = heapOf(() => parseCamt054(batchXml))
const ocrParse = heapOf(() => parseOcrGiro(text))
const camtApply = heapOf(() => receiveCamt054(world, notification, ctx))
const ocrApply = heapOf(() => receiveOcrGiro(world, file, ctx))
console.log('| call | heap grown during the call | heap kept after GC |\n|---|---:|---:|')
console.log(`| parseCamt054 (${mb(batchXml.length)} of XML) | ${mb(camtParse.grown)} | ${mb(camtParse.kept)} |`)
console.log(`| parseOcrGiro (${mb(text.length)} of text) | ${mb(ocrParse.grown)} | ${mb(ocrParse.kept)} |`)
console.log(`| receiveCamt054 | ${mb(camtApply.grown)} | ${mb(camtApply.kept)} |`)
console.log(`| receiveOcrGiro | ${mb(ocrApply.grown)} | ${mb(ocrApply.kept)} |`)
