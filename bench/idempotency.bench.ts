/**
 * The key store of safe retries (docs/rules.md C13): what one keyed request costs as the world
 * keeps more keys. A world that kept n answers, first used evenly over the last 24 hours, takes a
 * stream of keyed requests, each `at` one step (24 h / n) after the last: each request is answered
 * (a cancel of an unknown payment: 404, an answer that is kept), keeps its answer, and forgets the
 * one key that expired, so the world stays at n keys. The same is done for a retry of a kept key
 * (answered from the store, nothing changed). Each figure is t(n) / t(10³): ≈ 1 when the cost is
 * flat, ≈ n / 10³ when it grows with the keys kept (a copy or a scan of them per request).
 */
import { IDEMPOTENCY_KEY_TTL_MS, handle, worldOf } from './paysplit.js'
import { ratio, report, us } from './harness.js'

const TARGET = 1.5
const SIZES = [1_000, 10_000, 100_000] as const
const START = Date.UTC(2026, 10, 21, 10, 0, 0)
const UNKNOWN = '0b7e3f1c-2a4d-4e8f-9c1b-000000000999'
const PATH = `/payments/${UNKNOWN}/cancel`
const NOT_FOUND = { status: 404, body: { response: null, success: false, error: 'No payment has this paymentReferenceID.' } }

/** A world that kept `n` answers, the i-th first used at START − 24 h + (i + 1) · step. */
const worldWith = (n: number, step: number) => {
  const rows = Array.from({ length: n }, (_, i) => ({
    scope: `api-${String(i % 7)}`,
    key: `kept-${String(i)}-6f1c3c52-3f51-4b8e-9a8e`,
    at: new Date(START - IDEMPOTENCY_KEY_TTL_MS + (i + 1) * step).toISOString(),
    request: { method: 'POST', path: PATH },
    response: NOT_FOUND
  }))
  const built = worldOf({ idempotencyKeys: rows })
  if (built._tag === 'Left') throw new Error(built.left.message)
  return built.right
}

/** A stream of new keyed requests on a world of `n` kept keys: each keeps its answer and forgets the oldest key. */
const newKeys = (n: number): (() => unknown) => {
  const step = IDEMPOTENCY_KEY_TTL_MS / n
  let world = worldWith(n, step)
  let k = 0
  return () => {
    k++
    const at = new Date(START + Math.floor(k * step)).toISOString()
    const out = handle(world, { method: 'POST', path: PATH, headers: { 'idempotency-key': `new-${String(k)}-6f1c3c52-3f51` } }, {
      at,
      paymentReferenceID: UNKNOWN,
      idempotencyScope: `api-${String(k % 7)}`
    })
    if (out.response.status !== 404 || out.changes.idempotencyKeys.length !== 1) throw new Error('the request was not answered and kept')
    world = out.world
    return out
  }
}

/** Retries of kept keys on a world of `n`: each answered from the store, the world unchanged. */
const retries = (n: number, plainMap = false): (() => unknown) => {
  const step = IDEMPOTENCY_KEY_TTL_MS / n
  const built = worldWith(n, step)
  // the floor: the same records in a plain Map (a hash table: O(1) however many keys)
  const world = plainMap ? { ...built, idempotencyKeys: new Map(built.idempotencyKeys) } : built
  const at = new Date(START).toISOString()
  let k = 0
  return () => {
    const i = (k = (k + 7919) % n)
    const out = handle(world, { method: 'POST', path: PATH, headers: { 'idempotency-key': `"kept-${String(i)}-6f1c3c52-3f51-4b8e-9a8e"` } }, {
      at,
      paymentReferenceID: UNKNOWN,
      idempotencyScope: `api-${String(i % 7)}`
    })
    if (out.world !== world || out.response.status !== 404) throw new Error('the retry was not answered from the store')
    return out
  }
}

export const runIdempotencyBenchmarks = async (): Promise<void> => {
  // CPU time: the machines these run on are shared, and a request that waits for a core costs nothing more
  const options = { rounds: 31, batchMs: 50, warmupMs: 1000, cpu: true } as const
  // the cost per keyed request as the keys kept grow: flat is ≈ 1
  const base = newKeys(SIZES[0])
  for (const n of SIZES.slice(1)) {
    const r = ratio(newKeys(n), base, options)
    await report({
      name: `a keyed request (kept, and the expired key forgotten): ${n.toLocaleString('en')} / 1,000 kept keys`,
      ratio: r.ratio,
      target: TARGET,
      detail: `${us(r.subjectUs)} vs ${us(r.baselineUs)} a request`
    })
  }
  // a retry of a random kept key reads a record no cache holds: past 10⁴ keys that costs the same in
  // a hash table, so the store is measured against one at each size, and the growth is information
  const retry: Array<string> = []
  for (const n of SIZES) {
    const r = ratio(retries(n), retries(n, true), options)
    retry.push(`${n.toLocaleString('en')}: ${us(r.subjectUs)}`)
    await report({
      name: `a retry answered from the store (a quoted key), ${n.toLocaleString('en')} kept keys / the same records in a plain Map`,
      ratio: r.ratio,
      target: TARGET,
      detail: `${us(r.subjectUs)} vs ${us(r.baselineUs)} a request`
    })
  }
  console.log(`  (information) a retry by kept keys: ${retry.join(', ')}; a hash table grows the same way, as its records fall out of the caches`)
}
