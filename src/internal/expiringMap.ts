/**
 * A persistent map from strings to values, each entry with a time, that forgets its oldest
 * entries in O(log n) each: two weight-balanced trees (`./sortedMap.ts`), one by key for lookups,
 * one by time (then key) for expiry. Every change returns a new map; the map given is never
 * changed, and shares all but O(log n) nodes with the new one. It is a `ReadonlyMap`, read like
 * any other; it iterates its entries oldest first (by time, then key). The world of
 * `paysplit/http` keeps its idempotency keys in one (docs/decisions.md, "Idempotency keys").
 *
 * @internal
 * @module expiringMap
 */
import { entriesOf, fromSorted, insert, lookup, min, remove, removeMin, sizeOf, type Compare, type Tree } from './sortedMap.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** An entry as the key tree holds it: the value and its time. @internal */
export interface Slot<V> {
  readonly value: V
  readonly time: number
}

/** An entry as the time tree orders it. @internal */
export interface Due {
  readonly time: number
  readonly key: string
}

const byText: Compare<string> = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
const byDue: Compare<Due> = (a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : byText(a.key, b.key))

/** A time the trees can order: `NaN` (an unreadable time) sorts first, as the oldest. */
const orderable = (time: number): number => (typeof time === 'number' && !Number.isNaN(time) ? time : Number.NEGATIVE_INFINITY)

// -------------------------------------------------------------------------------------
// the map
// -------------------------------------------------------------------------------------

/**
 * Where a map keeps its two trees: own properties under symbols only this module holds, set by
 * assignment and then frozen (`Object.keys`, JSON and `toEqual` see none, and nothing changes
 * them; a map is made on every write, and `Object.defineProperty` made that 20× slower). Plain
 * properties, not `#private` fields: a browser bundle for ES2020 compiles those into `WeakMap`
 * helpers (docs/performance.md, "Bundle sizes").
 */
const BY_KEY = Symbol()
const BY_TIME = Symbol()

/**
 * A persistent `ReadonlyMap<string, V>` whose entries carry a time (see the module doc): lookups,
 * {@link ExpiringMap.with}, {@link ExpiringMap.without} in O(log n); {@link ExpiringMap.withoutUntil}
 * in O(log n) per entry it forgets.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { ExpiringMap } from './expiringMap.js'
 * const one = ExpiringMap.empty<string>().with('a', 'first', 10).with('b', 'second', 20)
 * const two = one.withoutUntil(10)
 * assert.deepStrictEqual([...two], [['b', 'second']])
 * assert.strictEqual(one.get('a'), 'first') // the map given is unchanged
 */
export class ExpiringMap<V> implements ReadonlyMap<string, V> {
  declare readonly [BY_KEY]: Tree<string, Slot<V>>
  declare readonly [BY_TIME]: Tree<Due, V>

  private constructor(byKey: Tree<string, Slot<V>>, byTime: Tree<Due, V>) {
    this[BY_KEY] = byKey
    this[BY_TIME] = byTime
    Object.freeze(this)
  }

  /**
   * The map without entries.
   *
   * @example
   * import * as assert from 'node:assert'
   * import { ExpiringMap } from './expiringMap.js'
   * assert.strictEqual(ExpiringMap.empty().size, 0)
   */
  static empty<V>(): ExpiringMap<V> {
    return new ExpiringMap<V>(undefined, undefined)
  }

  /**
   * The map of these entries, each with the time `timeOf` gives its value (of two entries with
   * one key, the later is kept, as a `Map` keeps it): O(n log n).
   *
   * @example
   * import * as assert from 'node:assert'
   * import { ExpiringMap } from './expiringMap.js'
   * const m = ExpiringMap.from([['a', 3], ['b', 1], ['a', 2]], (v) => v)
   * assert.deepStrictEqual([...m], [['b', 1], ['a', 2]])
   */
  static from<V>(entries: Iterable<readonly [string, V]>, timeOf: (value: V) => number): ExpiringMap<V> {
    const slots = [...new Map(entries)].map(([key, value]) => ({ key, value, time: orderable(timeOf(value)) }))
    const byKey = fromSorted(slots.sort((a, b) => byText(a.key, b.key)).map((s) => [s.key, { value: s.value, time: s.time }] as const))
    const byTime = fromSorted(slots.sort(byDue).map((s) => [{ time: s.time, key: s.key }, s.value] as const))
    return new ExpiringMap(byKey, byTime)
  }

  /** The number of entries. */
  get size(): number {
    return sizeOf(this[BY_KEY])
  }

  /** The value of `key`, if any: O(log n). */
  get(key: string): V | undefined {
    return typeof key === 'string' ? lookup(this[BY_KEY], key, byText)?.value.value : undefined
  }

  /** Whether `key` has an entry: O(log n). */
  has(key: string): boolean {
    return typeof key === 'string' && lookup(this[BY_KEY], key, byText) !== undefined
  }

  /**
   * The map with `key` set to `value` at `time` (its old entry replaced): O(log n). `NaN` is the
   * oldest time there is.
   *
   * @example
   * import * as assert from 'node:assert'
   * import { ExpiringMap } from './expiringMap.js'
   * const m = ExpiringMap.empty<number>().with('a', 1, 5).with('b', 2, 6).with('a', 3, 7)
   * assert.deepStrictEqual([...m], [['b', 2], ['a', 3]])
   */
  with(key: string, value: V, time: number): ExpiringMap<V> {
    const due = { time: orderable(time), key }
    const old = lookup(this[BY_KEY], key, byText)
    const byTime = old === undefined ? this[BY_TIME] : remove(this[BY_TIME], { time: old.value.time, key }, byDue)
    return new ExpiringMap(insert(this[BY_KEY], key, { value, time: due.time }, byText), insert(byTime, due, value, byDue))
  }

  /**
   * The map without `key` (the very map when it has no such key): O(log n).
   *
   * @example
   * import * as assert from 'node:assert'
   * import { ExpiringMap } from './expiringMap.js'
   * const m = ExpiringMap.empty<number>().with('a', 1, 5)
   * assert.strictEqual(m.without('a').size, 0)
   * assert.strictEqual(m.without('b'), m)
   */
  without(key: string): ExpiringMap<V> {
    const old = typeof key === 'string' ? lookup(this[BY_KEY], key, byText) : undefined
    if (old === undefined) return this
    return new ExpiringMap(remove(this[BY_KEY], key, byText), remove(this[BY_TIME], { time: old.value.time, key }, byDue))
  }

  /**
   * The map without every entry whose time is at most `cutoff` (the very map when there is none):
   * O(log n) per entry forgotten, oldest first.
   *
   * @example
   * import * as assert from 'node:assert'
   * import { ExpiringMap } from './expiringMap.js'
   * const m = ExpiringMap.empty<number>().with('a', 1, 5).with('b', 2, Number.NaN).with('c', 3, 9)
   * assert.deepStrictEqual([...m.withoutUntil(5)], [['c', 3]])
   * assert.strictEqual(m.withoutUntil(Number.NEGATIVE_INFINITY).size, 2) // NaN is the oldest time
   * assert.strictEqual(m.withoutUntil(-1).withoutUntil(-1), m.withoutUntil(-1))
   */
  withoutUntil(cutoff: number): ExpiringMap<V> {
    let byKey = this[BY_KEY]
    let byTime = this[BY_TIME]
    for (let oldest = min(byTime); oldest !== undefined && oldest.key.time <= cutoff; oldest = min(byTime)) {
      byKey = remove(byKey, oldest.key.key, byText)
      byTime = removeMin(byTime)
    }
    return byKey === this[BY_KEY] ? this : new ExpiringMap(byKey, byTime)
  }

  /** The entries, oldest first (by time, then key). */
  *entries(): MapIterator<[string, V]> {
    for (const [due, value] of entriesOf(this[BY_TIME])) yield [due.key, value]
    return undefined
  }

  /** The keys, oldest first. */
  *keys(): MapIterator<string> {
    for (const [due] of entriesOf(this[BY_TIME])) yield due.key
    return undefined
  }

  /** The values, oldest first. */
  *values(): MapIterator<V> {
    for (const [, value] of entriesOf(this[BY_TIME])) yield value
    return undefined
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries()
  }

  /** Calls `f` with each entry, oldest first, as `Map.prototype.forEach` does. */
  forEach(f: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [due, value] of entriesOf(this[BY_TIME])) f.call(thisArg, value, due.key, this)
  }

  get [Symbol.toStringTag](): string {
    return 'ExpiringMap'
  }

  /**
   * The two trees of a map, for the properties that prove it (their invariants, and that they
   * hold the same entries).
   *
   * @example
   * import * as assert from 'node:assert'
   * import { ExpiringMap } from './expiringMap.js'
   * assert.strictEqual(ExpiringMap.treesOf(ExpiringMap.empty<number>().with('a', 1, 5)).byKey?.key, 'a')
   */
  static treesOf<V>(m: ExpiringMap<V>): { readonly byKey: Tree<string, Slot<V>>; readonly byTime: Tree<Due, V> } {
    return { byKey: m[BY_KEY], byTime: m[BY_TIME] }
  }
}
