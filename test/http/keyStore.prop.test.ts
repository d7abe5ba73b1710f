/**
 * The key store of safe retries (docs/rules.md C13, docs/decisions.md "Idempotency keys"): the
 * persistent weight-balanced tree and the map with expiry built on two of them, proven against a
 * plain `Map` as the model (the same lookups, the same forgetting, every old version unchanged
 * after a change), and the world's keys under `handle` against the store they replaced (a `Map`
 * copied and filtered on each keyed request).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ExpiringMap } from '../../src/internal/expiringMap.js'
import { entriesOf, insert, lookup, remove, removeMin, sizeOf, type Compare, type Tree } from '../../src/internal/sortedMap.js'
import {
  IDEMPOTENCY_KEY_TTL_MS,
  emptyWorld,
  handle,
  idempotencyEntryKey,
  worldOf,
  type IdempotencyRecord,
  type World
} from '../../src/http.js'
import { CATCH_ALL, atOf, cardRequest, idOf } from '../support/http.fixtures.js'

const byNumber = (a: number, b: number): number => a - b

/**
 * Whether a tree keeps its invariants: keys strictly ascending in order, every `size` right, and
 * every node weight-balanced (neither side more than δ = 3 times the other, one entry against none
 * aside).
 */
const isValidTree = <K, V>(t: Tree<K, V>, cmp: Compare<K>): boolean => {
  const check = (n: Tree<K, V>): boolean => {
    if (n === undefined) return true
    const ln = sizeOf(n.left)
    const rn = sizeOf(n.right)
    const balanced = ln + rn <= 1 || (ln <= 3 * rn && rn <= 3 * ln)
    return n.size === ln + rn + 1 && balanced && check(n.left) && check(n.right)
  }
  const keys = [...entriesOf(t)].map(([k]) => k)
  return keys.every((k, i) => i === 0 || cmp(keys[i - 1] as K, k) < 0) && check(t)
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const byDue = (a: { time: number; key: string }, b: { time: number; key: string }): number => (a.time < b.time ? -1 : a.time > b.time ? 1 : byText(a.key, b.key))

/** Whether both trees of a map keep their invariants and hold the same entries, each with its time. */
const isValidMap = <V>(m: ExpiringMap<V>): boolean => {
  const { byKey, byTime } = ExpiringMap.treesOf(m)
  if (sizeOf(byKey) !== sizeOf(byTime)) return false
  for (const [due, value] of entriesOf(byTime)) {
    const slot = lookup(byKey, due.key, byText)?.value
    if (slot === undefined || slot.value !== value || slot.time !== due.time) return false
  }
  return isValidTree(byKey, byText) && isValidTree(byTime, byDue)
}

// -------------------------------------------------------------------------------------
// the tree
// -------------------------------------------------------------------------------------

type TreeOp = { readonly t: 'insert'; readonly key: number; readonly value: number } | { readonly t: 'remove'; readonly key: number } | { readonly t: 'removeMin' }

const treeOp: fc.Arbitrary<TreeOp> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('insert' as const), key: fc.integer({ min: 0, max: 300 }), value: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('remove' as const), key: fc.integer({ min: 0, max: 300 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('removeMin' as const) }) }
)

describe('the persistent sorted map (a weight-balanced tree)', () => {
  it('aTreeIsASortedMap: after every insert and remove it holds what a Map holds, in key order, balanced; every old version is unchanged', () => {
    fc.assert(
      fc.property(fc.array(treeOp, { maxLength: 400 }), (ops) => {
        let tree: Tree<number, number> = undefined
        let model = new Map<number, number>()
        const versions: Array<readonly [Tree<number, number>, ReadonlyArray<readonly [number, number]>]> = []
        for (const op of ops) {
          const next = new Map(model)
          if (op.t === 'insert') {
            tree = insert(tree, op.key, op.value, byNumber)
            next.set(op.key, op.value)
          } else if (op.t === 'remove') {
            tree = remove(tree, op.key, byNumber)
            next.delete(op.key)
          } else {
            const least = [...model.keys()].sort(byNumber)[0]
            tree = removeMin(tree)
            if (least !== undefined) next.delete(least)
          }
          model = next
          const sorted = [...model].sort(([a], [b]) => a - b)
          expect(isValidTree(tree, byNumber)).toBe(true)
          expect(sizeOf(tree)).toBe(model.size)
          expect([...entriesOf(tree)]).toStrictEqual(sorted)
          for (let k = 0; k <= 300; k += 7) expect(lookup(tree, k, byNumber)?.value).toBe(model.get(k))
          versions.push([tree, sorted])
        }
        for (const [old, entries] of versions) expect([...entriesOf(old)]).toStrictEqual(entries)
      })
    )
  })

  it('stays shallow: 100 000 keys inserted in order make a tree at most 2·log2(n) deep', () => {
    let tree: Tree<number, number> = undefined
    for (let i = 0; i < 100_000; i++) tree = insert(tree, i, i, byNumber)
    const depth = (t: Tree<number, number>): number => (t === undefined ? 0 : 1 + Math.max(depth(t.left), depth(t.right)))
    expect(isValidTree(tree, byNumber)).toBe(true)
    expect(depth(tree)).toBeLessThanOrEqual(2 * Math.log2(100_000))
  })
})

// -------------------------------------------------------------------------------------
// the map with expiry
// -------------------------------------------------------------------------------------

type MapOp =
  | { readonly t: 'with'; readonly key: string; readonly value: number; readonly time: number }
  | { readonly t: 'without'; readonly key: string }
  | { readonly t: 'until'; readonly cutoff: number }

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'ab', '', 'é', '["api",null]']
const keyArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) })
const timeArb = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 50 }) }, { weight: 1, arbitrary: fc.constant(Number.NaN) })

const mapOp: fc.Arbitrary<MapOp> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('with' as const), key: keyArb, value: fc.nat(), time: timeArb }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('without' as const), key: keyArb }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('until' as const), cutoff: fc.integer({ min: -5, max: 55 }) }) }
)

/** The model: a plain Map of each key's value and time. */
type Model = ReadonlyMap<string, { readonly value: number; readonly time: number }>

const orderable = (time: number): number => (Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time)

/** The entries of the model in the map's order: oldest first, then by key. */
const ordered = (model: Model): ReadonlyArray<readonly [string, number]> =>
  [...model]
    .sort(([ka, a], [kb, b]) => orderable(a.time) - orderable(b.time) || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([k, { value }]) => [k, value] as const)

const sameAs = (m: ExpiringMap<number>, model: Model): void => {
  expect(isValidMap(m)).toBe(true)
  expect(m.size).toBe(model.size)
  expect([...m]).toStrictEqual(ordered(model))
  expect([...m.keys()]).toStrictEqual(ordered(model).map(([k]) => k))
  expect([...m.values()]).toStrictEqual(ordered(model).map(([, v]) => v))
  const seen: Array<readonly [string, number]> = []
  m.forEach((v, k, self) => {
    expect(self).toBe(m)
    seen.push([k, v])
  })
  expect(seen).toStrictEqual(ordered(model))
  for (const k of [...KEYS, ...model.keys(), 'zz']) {
    expect(m.get(k)).toBe(model.get(k)?.value)
    expect(m.has(k)).toBe(model.has(k))
  }
}

describe('the map with expiry (the world’s idempotency keys)', () => {
  it('anExpiringMapIsAMap: the same lookups and iteration as a Map, the same forgetting as a filter by time; every old version unchanged', () => {
    fc.assert(
      fc.property(fc.array(mapOp, { maxLength: 120 }), (ops) => {
        let m = ExpiringMap.empty<number>()
        let model: Model = new Map()
        const versions: Array<readonly [ExpiringMap<number>, Model]> = [[m, model]]
        for (const op of ops) {
          const before = m
          if (op.t === 'with') {
            m = m.with(op.key, op.value, op.time)
            model = new Map(model).set(op.key, { value: op.value, time: op.time })
          } else if (op.t === 'without') {
            m = m.without(op.key)
            const next = new Map(model)
            next.delete(op.key)
            if (next.size === model.size) expect(m).toBe(before)
            model = next
          } else {
            m = m.withoutUntil(op.cutoff)
            const next = new Map([...model].filter(([, e]) => !(orderable(e.time) <= op.cutoff)))
            if (next.size === model.size) expect(m).toBe(before)
            model = next
          }
          sameAs(m, model)
          versions.push([m, model])
        }
        for (const [old, snapshot] of versions) sameAs(old, snapshot)
      })
    )
  })

  it('from: of two entries with one key the later is kept, as a Map keeps it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, timeArb), { maxLength: 60 }), (entries) => {
        // each value is its entry's index, its time the entry's
        const model: Model = new Map(entries.map(([k, time], value) => [k, { value, time }] as const))
        const m = ExpiringMap.from(
          entries.map(([k], i) => [k, i] as const),
          (i) => entries[i]?.[1] ?? Number.NaN
        )
        sameAs(m, model)
      })
    )
  })
})

// -------------------------------------------------------------------------------------
// the world's keys under handle
// -------------------------------------------------------------------------------------

const HOUR = 60 * 60 * 1000

describe('the world’s keys under handle (C13)', () => {
  it('theKeyStoreForgetsAsTheMapDid: after each request the world holds exactly the keys a Map copied and filtered by time would hold', () => {
    const step = fc.record({
      gap: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 2 * HOUR }) }, { weight: 1, arbitrary: fc.integer({ min: 20 * HOUR, max: 30 * HOUR }) }),
      key: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
      scope: fc.constantFrom(undefined, 'api-a'),
      payment: fc.integer({ min: 1, max: 3 }),
      action: fc.constantFrom('cancel', 'charge', 'create')
    })
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        let world: World = emptyWorld
        let model = new Map<string, IdempotencyRecord>()
        let now = Date.parse(atOf(0))
        steps.forEach((s, i) => {
          now += s.gap
          const at = new Date(now).toISOString()
          const headers = s.key === undefined ? {} : { headers: { 'idempotency-key': i % 2 === 0 ? `k-${String(s.key)}` : `"k-${String(s.key)}"` } }
          const request =
            s.action === 'create'
              ? { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: `order-${String(s.payment)}` }), ...headers }
              : { method: 'POST', path: `/payments/${idOf(s.payment)}/${s.action}`, ...headers }
          const before = world
          const held = [...(before.idempotencyKeys ?? [])]
          const out = handle(world, request, { at, paymentReferenceID: idOf(s.payment), catchAllUrl: CATCH_ALL, ...(s.scope === undefined ? {} : { idempotencyScope: s.scope }) })
          // the model: the previous store, a Map copied and filtered whenever the world changed
          if (out.world !== before) {
            model = new Map([...model].filter(([, r]) => now - Date.parse(r.at) < IDEMPOTENCY_KEY_TTL_MS))
            for (const r of out.changes.idempotencyKeys) model.set(idempotencyEntryKey(r.scope, r.key), r)
          }
          world = out.world
          const keys = world.idempotencyKeys ?? new Map()
          expect(keys.size).toBe(model.size)
          for (const [entry, r] of model) expect(keys.get(entry)).toBe(r)
          // the world given was not changed: it still holds what it held
          expect([...(before.idempotencyKeys ?? [])]).toStrictEqual(held)
        })
      })
    )
  })

  it('a world built by hand with a Map: answered from it, taken over by the first change, the Map left as it was', () => {
    const { world: made, response: first } = handle(emptyWorld, { method: 'POST', path: `/payments/${idOf(9)}/cancel`, headers: { 'idempotency-key': 'k-1' } }, { at: atOf(0), paymentReferenceID: idOf(9) })
    const map = new Map(made.idempotencyKeys ?? [])
    const byHand: World = { payments: new Map(), customers: new Map(), references: new Map(), idempotencyKeys: map }
    const replay = handle(byHand, { method: 'POST', path: `/payments/${idOf(9)}/cancel`, headers: { 'idempotency-key': '"k-1"' } }, { at: atOf(1), paymentReferenceID: idOf(9) })
    expect(replay.response).toStrictEqual(first)
    expect(replay.world).toBe(byHand)
    const next = handle(byHand, { method: 'POST', path: `/payments/${idOf(8)}/cancel`, headers: { 'idempotency-key': 'k-2' } }, { at: atOf(2), paymentReferenceID: idOf(8) })
    expect(next.world.idempotencyKeys?.size).toBe(2)
    expect(next.world.idempotencyKeys).not.toBeInstanceOf(Map)
    expect(map.size).toBe(1)
  })

  it('many keys expiring at once: 5 000 kept keys past 24 hours are all forgotten by one change; the world given keeps them', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      key: `k-${String(i)}`,
      at: new Date(Date.parse(atOf(0)) + i).toISOString(),
      request: { method: 'POST', path: `/payments/${idOf(1)}/cancel` },
      response: { status: 404, body: { response: null, success: false, error: 'No payment has this paymentReferenceID.' } }
    }))
    const built = worldOf({ idempotencyKeys: rows })
    if (built._tag === 'Left') throw new Error(built.left.message)
    const world = built.right
    const later = new Date(Date.parse(atOf(0)) + IDEMPOTENCY_KEY_TTL_MS + 2500).toISOString()
    const { world: after } = handle(world, { method: 'POST', path: `/payments/${idOf(2)}/cancel`, headers: { 'idempotency-key': 'k-new' } }, { at: later, paymentReferenceID: idOf(2) })
    // the keys first used in the last 24 hours stay (2 499 of them), and the new one
    expect(after.idempotencyKeys?.size).toBe(2500)
    expect(after.idempotencyKeys?.has(idempotencyEntryKey(undefined, 'k-2500'))).toBe(false)
    expect(after.idempotencyKeys?.has(idempotencyEntryKey(undefined, 'k-2501'))).toBe(true)
    expect(world.idempotencyKeys?.size).toBe(5000)
  })
})
