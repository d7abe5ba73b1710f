/**
 * What the bank-file benchmarks share (`npm run bench:ocr`, `npm run bench:bank`): a world of open
 * invoices built in one pass, their KIDs, side-by-side timing and heap measurement. Node with
 * `--expose-gc` (both scripts set it).
 */
import * as E from 'fp-ts/lib/Either.js'
import { kid as kidNumber, type Payment } from '../src/index.js'
import { emptyWorld, handle, type CreatedReference, type World } from '../src/http.js'

const gc = (globalThis as { gc?: () => void }).gc

/** The heap after full collections. */
export const settle = (): number => {
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench:ocr, npm run bench:bank)')
  for (let i = 0; i < 4; i++) gc()
  return process.memoryUsage().heapUsed
}
export const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`
const now = (): number => Number(process.hrtime.bigint()) / 1e6
export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

export let sink: unknown
export const timed = (f: () => unknown): number => {
  const t0 = now()
  sink = f()
  return now() - t0
}

/** Median times of `subject` and `baseline` over `rounds` rounds, the order alternating, and the median of their ratios. */
export const sideBySide = (subject: () => unknown, baseline: () => unknown, rounds: number): { subject: number; baseline: number; ratio: number } => {
  const s: number[] = []
  const b: number[] = []
  const r: number[] = []
  for (let i = 0; i < rounds; i++) {
    let ts: number
    let tb: number
    if (i % 2 === 0) {
      tb = timed(baseline)
      ts = timed(subject)
    } else {
      ts = timed(subject)
      tb = timed(baseline)
    }
    s.push(ts)
    b.push(tb)
    r.push(ts / tb)
  }
  return { subject: median(s), baseline: median(b), ratio: median(r) }
}

/** Heap grown during `f` (no GC in between) and kept by its result after a full GC. */
export const heapOf = (f: () => unknown): { grown: number; kept: number } => {
  const base = settle()
  const before = process.memoryUsage().heapUsed
  const result = f()
  const after = process.memoryUsage().heapUsed
  const kept = settle() - base
  sink = result
  return { grown: after - before, kept }
}

const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'

/** The KID of invoice `n` (MOD10). */
export const kidOf = (n: number): string => {
  const made = kidNumber.create(String(100_000_000 + n), 'mod10')
  if (E.isLeft(made)) throw new Error('kid')
  return made.right
}
const idOf = (n: number): string => `0b7e3f1c-2a4d-4e8f-9c1b-${n.toString(16).padStart(12, '0')}`

/** A world of `n` open invoices of 10000 øre, KIDs kidOf(0..n-1), built in one pass. */
export const worldOfInvoices = (n: number): World => {
  const payments = new Map<string, Payment>()
  const references = new Map<string, CreatedReference>()
  let customers = emptyWorld.customers
  for (let i = 0; i < n; i++) {
    const body = {
      externalPaymentReferenceID: `invoice-${i}`, environment: 'test', paymentGateway: 'invoice',
      sellerConnectedAccountID: SELLER, grossAmount: 10000, currency: 'NOK', customerExternalID: 'customer-42',
      successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
      moneySplitList: [{ connectedAccountID: SELLER, amount: 10000, isFee: false }]
    }
    const { world: w } = handle(emptyWorld, { method: 'POST', path: '/payments', body }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: idOf(i), kid: kidOf(i) })
    for (const [k, p] of w.payments) payments.set(k, p)
    for (const [k, r] of w.references) references.set(k, r)
    customers = w.customers
  }
  return { payments, customers, references }
}
