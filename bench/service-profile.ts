/**
 * `npx tsx bench/service-profile.ts`: where paysplit's time goes in one flow of the reference
 * service (create a card payment charged at once → complete the form → partial refund), call by
 * call, on the slice worlds the service builds from its rows (a row read back as JSON, checked with
 * `validateState`, alone in its world), without HTTP or a database. Each call is timed from the
 * built package (`dist/`, run `npm run build` first) and from the TypeScript source as tsx compiles
 * it, alternating in rounds in one process; the figures are medians of the rounds (µs a call).
 * Absolute times move with the machine's load: compare the columns, not runs.
 */
import * as E from 'fp-ts/lib/Either.js'
import { createBody, refundPatch } from './serviceFlow.js'

type Index = typeof import('../src/index.js')
type Http = typeof import('../src/http.js')

const HOOK = 'http://127.0.0.1:9/all'
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? '7')
const FLOWS = Number(process.env['BENCH_FLOWS'] ?? '4000')

const bodyText = (i: number): string => JSON.stringify(createBody(`bench-${String(i)}`, i))
const patchText = JSON.stringify(refundPatch)
const idOf = (i: number): string => `0b7e3f1c-2a4d-4e8f-9c1b-${i.toString(16).padStart(12, '0')}`

const CALLS = ['handle (create)', 'validateState (the row, Initiated)', 'completeForm', 'validateState (the row, Charged)', 'handle (partial refund)', 'webhookMessage (×3)'] as const
type Call = (typeof CALLS)[number]

/** One round of `FLOWS` flows: µs a call, by call. */
const round = (index: Index, http: Http, offset: number): Record<Call, number> => {
  const spent = Object.fromEntries(CALLS.map((c) => [c, 0])) as Record<Call, number>
  const time = <A>(call: Call, f: () => A): A => {
    const started = process.hrtime.bigint()
    const out = f()
    spent[call] += Number(process.hrtime.bigint() - started) / 1000
    return out
  }
  const sliceOf = (p: unknown): Parameters<Http['handle']>[0] => ({
    payments: new Map([[(p as { paymentReferenceID: string }).paymentReferenceID, p as never]]),
    customers: new Map(),
    references: new Map()
  })
  for (let n = 0; n < FLOWS; n++) {
    const i = offset + n
    const id = idOf(i)
    const at = new Date(Date.UTC(2026, 10, 21) + i).toISOString()
    const { world: w1, response: created, deliveries: d1 } = time('handle (create)', () => http.handle(http.emptyWorld, { method: 'POST', path: '/payments', body: JSON.parse(bodyText(i)) }, { at, paymentReferenceID: id, catchAllUrl: HOOK }))
    if (created.status !== 201) throw new Error('create')
    const row1: unknown = JSON.parse(JSON.stringify(w1.payments.get(id)))
    const v1 = time('validateState (the row, Initiated)', () => index.validateState(row1))
    if (E.isLeft(v1)) throw new Error('row')
    const { world: w2, result: completed, deliveries: d2 } = time('completeForm', () => http.completeForm(sliceOf(v1.right), id, { at, catchAllUrl: HOOK }))
    if (E.isLeft(completed)) throw new Error('form')
    const row2: unknown = JSON.parse(JSON.stringify(w2.payments.get(id)))
    const v2 = time('validateState (the row, Charged)', () => index.validateState(row2))
    if (E.isLeft(v2)) throw new Error('row')
    const { response: refunded, deliveries: d3 } = time('handle (partial refund)', () => http.handle(sliceOf(v2.right), { method: 'POST', path: `/payments/${id}/refund/partially`, body: JSON.parse(patchText) }, { at, paymentReferenceID: idOf(i + 1), catchAllUrl: HOOK }))
    if (refunded.status !== 200) throw new Error('refund')
    time('webhookMessage (×3)', () => [...d1, ...d2, ...d3].map((d) => http.webhookMessage(d, { timestamp: 1_700_000_000 })))
  }
  for (const c of CALLS) spent[c] /= FLOWS
  return spent
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? NaN
}

// the built package by a computed path: it exists only after `npm run build`, and its types are the source's
const dist = '../dist/'
const built = { index: (await import(`${dist}index.js`)) as Index, http: (await import(`${dist}http.js`)) as Http }
const source = { index: await import('../src/index.js'), http: await import('../src/http.js') }
const rounds: Record<'built' | 'source', Array<Record<Call, number>>> = { built: [], source: [] }
// a warm-up round each, not counted
round(built.index, built.http, 0)
round(source.index, source.http, 0)
for (let r = 1; r <= ROUNDS; r++) {
  rounds.built.push(round(built.index, built.http, r * FLOWS))
  rounds.source.push(round(source.index, source.http, r * FLOWS))
}
console.log(`paysplit's calls in one flow of the reference service (µs a call, median of ${String(ROUNDS)} rounds of ${String(FLOWS)} flows; Node ${process.version})\n`)
console.log('| call | built (dist/) | source (tsx) |')
console.log('|---|---:|---:|')
let totalBuilt = 0
let totalSource = 0
for (const c of CALLS) {
  const b = median(rounds.built.map((x) => x[c]))
  const s = median(rounds.source.map((x) => x[c]))
  totalBuilt += b
  totalSource += s
  console.log(`| ${c} | ${b.toFixed(1)} | ${s.toFixed(1)} |`)
}
console.log(`| **a flow** | **${totalBuilt.toFixed(1)}** | **${totalSource.toFixed(1)}** |`)
