/**
 * Memory, in a process of its own started with `--expose-gc` (`bench/index.ts` does that):
 *
 * - retained bytes per payment with 5 splits: 100 000 payments created by `transition` from
 *   fresh JSON requests and held in an array, against the same payments built by the
 *   hand-written reducer of `baseline.ts` from the same requests (its state is the same plain
 *   data; paysplit's is also frozen and carries the private trust mark);
 * - heap growth over 10⁶ transitions: 200 000 card lifecycles of 5 transitions each (create,
 *   complete form, charge, partial refund, full refund), nothing kept; the heap after a full GC
 *   at the end against the heap after a full GC before (and halfway, to show it is flat).
 */
import { transition } from './paysplit.js'
import type { PaymentState } from '../src/payment.js'
import { initialState } from './paysplit.js'
import type { PaymentIntentRequest } from '../src/codecs/requests.js'
import { handReducer } from './baseline.js'
import { charge, completeForm, fullRefund, PAYMENT_ID, partialRefund, requestJson, T0 } from './fixtures.js'
import { keep, report } from './harness.js'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')

const heap = (): number => {
  for (let i = 0; i < 4; i++) gc()
  return process.memoryUsage().heapUsed
}

const PAYMENTS = 100_000
const json = JSON.stringify(requestJson())

/**
 * Bytes retained per payment by `make`, holding PAYMENTS of them. Each request is parsed from
 * JSON inside the measured span, so both sides are charged for what they keep of it (its
 * strings; the baseline also keeps some of its objects as they are, paysplit keeps copies).
 */
const retained = (make: (request: Record<string, unknown>) => unknown): number => {
  const held = new Array<unknown>(PAYMENTS)
  const before = heap()
  for (let i = 0; i < PAYMENTS; i++) held[i] = make(JSON.parse(json) as Record<string, unknown>)
  const after = heap()
  keep(held)
  const bytes = (after - before) / PAYMENTS
  held.length = 0
  return bytes
}

const runMemoryBenchmarks = async (): Promise<void> => {
  const viaPaysplit = (request: Record<string, unknown>): PaymentState => {
    const r = transition(initialState, { type: 'CreatePayment', at: T0, paymentReferenceID: PAYMENT_ID, request } as never)
    if (r._tag === 'Left') throw new Error(r.left.message)
    return r.right[0]
  }
  const viaReducer = (request: Record<string, unknown>): PaymentState => {
    const r = handReducer(undefined, {
      type: 'CreatePayment',
      at: T0,
      paymentReferenceID: PAYMENT_ID,
      request: request as unknown as PaymentIntentRequest
    })
    if (!r.ok) throw new Error(r.code)
    return r.state
  }
  // warm both paths, then measure each twice, alternating, and keep the lower figure of each
  retained(viaPaysplit)
  retained(viaReducer)
  const p = Math.min(retained(viaPaysplit), retained(viaPaysplit))
  const b = Math.min(retained(viaReducer), retained(viaReducer))
  await report({
    name: 'retained heap per Payment with 5 splits (100 000 held) / the same payment as plain objects',
    ratio: p / b,
    target: 1.25,
    detail: `${p.toFixed(0)} B vs ${b.toFixed(0)} B per payment`
  })

  // heap over 10⁶ transitions ------------------------------------------------------------
  const lifecycle = (): void => {
    let s: PaymentState = initialState
    const commands = [
      { type: 'CreatePayment', at: T0, paymentReferenceID: PAYMENT_ID, request: JSON.parse(json) as unknown },
      completeForm,
      charge,
      partialRefund(),
      fullRefund
    ]
    for (const c of commands) {
      const r = transition(s, c as never)
      if (r._tag === 'Left') throw new Error(r.left.message)
      s = r.right[0]
    }
  }
  for (let i = 0; i < 20_000; i++) lifecycle() // warm-up: code, caches, heap sizes
  const start = heap()
  for (let i = 0; i < 100_000; i++) lifecycle()
  const half = heap()
  for (let i = 0; i < 100_000; i++) lifecycle()
  const end = heap()
  const mb = (x: number): string => `${(x / 1024 / 1024).toFixed(2)} MB`
  await report({
    name: 'heap after 10⁶ transitions / heap before (each after a full GC)',
    ratio: end / start,
    target: 1.05,
    detail: `${mb(start)} → ${mb(half)} after 5·10⁵ → ${mb(end)}; growth ${((end - start) / 1e6).toFixed(2)} B per transition`
  })
}

await runMemoryBenchmarks()
