/**
 * A persistent sorted map: a weight-balanced binary search tree (Adams' trees, with the balance
 * of Haskell's `Data.Map`: δ = 3, ratio = 2, the pair proven to keep the balance under single
 * inserts and deletes). Every operation returns a new tree that shares all but O(log n) nodes
 * with the one given, which is never changed: an old version stays valid and whole. The world of
 * `paysplit/http` keeps its idempotency keys in two of these (docs/decisions.md, "Idempotency
 * keys").
 *
 * @internal
 * @module sortedMap
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A node of the tree: its entry, its subtrees and the number of entries it holds. @internal */
export interface Node<K, V> {
  readonly key: K
  readonly value: V
  readonly left: Tree<K, V>
  readonly right: Tree<K, V>
  readonly size: number
}

/** A tree: a node, or `undefined` for the empty tree. @internal */
export type Tree<K, V> = Node<K, V> | undefined

/** A total order on keys: negative, zero or positive as `a` sorts before, with or after `b`. @internal */
export type Compare<K> = (a: K, b: K) => number

// -------------------------------------------------------------------------------------
// balance
// -------------------------------------------------------------------------------------

/** A subtree may hold at most DELTA times the entries of its sibling (one entry against none aside). */
const DELTA = 3
/** Past DELTA, a single rotation when the outer grandchild holds at least 1/RATIO of the heavy side, else a double one. */
const RATIO = 2

/**
 * The number of entries of a tree.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { insert, sizeOf } from './sortedMap.js'
 * const cmp = (a: number, b: number): number => a - b
 * assert.strictEqual(sizeOf(insert(insert(undefined, 1, 'a', cmp), 2, 'b', cmp)), 2)
 * assert.strictEqual(sizeOf(undefined), 0)
 */
export const sizeOf = <K, V>(t: Tree<K, V>): number => (t === undefined ? 0 : t.size)

const node = <K, V>(key: K, value: V, left: Tree<K, V>, right: Tree<K, V>): Node<K, V> => ({
  key,
  value,
  left,
  right,
  size: sizeOf(left) + sizeOf(right) + 1
})

/** The node of `key`, `value`, `l` and `r` where one side may be one entry off balance (after one insert or delete below). */
const balance = <K, V>(key: K, value: V, l: Tree<K, V>, r: Tree<K, V>): Node<K, V> => {
  const ln = sizeOf(l)
  const rn = sizeOf(r)
  if (ln + rn >= 2) {
    if (rn > DELTA * ln) {
      // the heavy side holds at least 2 entries
      const h = r as Node<K, V>
      if (sizeOf(h.left) < RATIO * sizeOf(h.right)) return node(h.key, h.value, node(key, value, l, h.left), h.right)
      // its inner child is at least twice as heavy as its outer one, so it holds an entry
      const m = h.left as Node<K, V>
      return node(m.key, m.value, node(key, value, l, m.left), node(h.key, h.value, m.right, h.right))
    }
    if (ln > DELTA * rn) {
      const h = l as Node<K, V>
      if (sizeOf(h.right) < RATIO * sizeOf(h.left)) return node(h.key, h.value, h.left, node(key, value, h.right, r))
      const m = h.right as Node<K, V>
      return node(m.key, m.value, node(h.key, h.value, h.left, m.left), node(key, value, m.right, r))
    }
  }
  return node(key, value, l, r)
}

// -------------------------------------------------------------------------------------
// reads
// -------------------------------------------------------------------------------------

/**
 * The node holding `key`, if any: O(log n) comparisons.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { insert, lookup } from './sortedMap.js'
 * const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
 * const t = insert(insert(undefined, 'b', 2, cmp), 'a', 1, cmp)
 * assert.strictEqual(lookup(t, 'a', cmp)?.value, 1)
 * assert.strictEqual(lookup(t, 'c', cmp), undefined)
 */
export const lookup = <K, V>(t: Tree<K, V>, key: K, cmp: Compare<K>): Node<K, V> | undefined => {
  let at = t
  while (at !== undefined) {
    const c = cmp(key, at.key)
    if (c === 0) return at
    at = c < 0 ? at.left : at.right
  }
  return undefined
}

/**
 * The node of the least key, if any: O(log n).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { fromSorted, min } from './sortedMap.js'
 * assert.strictEqual(min(fromSorted([[1, 'a'], [2, 'b']]))?.key, 1)
 * assert.strictEqual(min(undefined), undefined)
 */
export const min = <K, V>(t: Tree<K, V>): Node<K, V> | undefined => {
  if (t === undefined) return undefined
  let at: Node<K, V> = t
  while (at.left !== undefined) at = at.left
  return at
}

/**
 * The entries in key order (an explicit stack: no recursion, O(log n) memory).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { entriesOf, insert } from './sortedMap.js'
 * const cmp = (a: number, b: number): number => a - b
 * const t = insert(insert(insert(undefined, 3, 'c', cmp), 1, 'a', cmp), 2, 'b', cmp)
 * assert.deepStrictEqual([...entriesOf(t)], [[1, 'a'], [2, 'b'], [3, 'c']])
 */
export function* entriesOf<K, V>(t: Tree<K, V>): Generator<[K, V], undefined, undefined> {
  const stack: Array<Node<K, V>> = []
  let at = t
  for (;;) {
    while (at !== undefined) {
      stack.push(at)
      at = at.left
    }
    const top = stack.pop()
    if (top === undefined) return undefined
    yield [top.key, top.value]
    at = top.right
  }
}

// -------------------------------------------------------------------------------------
// changes (each a new tree; the one given is never changed)
// -------------------------------------------------------------------------------------

/**
 * The tree with `key` set to `value` (replaced when present): O(log n) new nodes.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { insert, lookup } from './sortedMap.js'
 * const cmp = (a: number, b: number): number => a - b
 * const one = insert(undefined, 1, 'a', cmp)
 * const two = insert(one, 1, 'b', cmp)
 * assert.strictEqual(lookup(two, 1, cmp)?.value, 'b')
 * assert.strictEqual(lookup(one, 1, cmp)?.value, 'a') // the old version is unchanged
 */
export const insert = <K, V>(t: Tree<K, V>, key: K, value: V, cmp: Compare<K>): Node<K, V> => {
  if (t === undefined) return node(key, value, undefined, undefined)
  const c = cmp(key, t.key)
  if (c < 0) return balance(t.key, t.value, insert(t.left, key, value, cmp), t.right)
  if (c > 0) return balance(t.key, t.value, t.left, insert(t.right, key, value, cmp))
  return node(key, value, t.left, t.right)
}

/**
 * The tree without its least entry: O(log n) new nodes.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { entriesOf, fromSorted, removeMin } from './sortedMap.js'
 * assert.deepStrictEqual([...entriesOf(removeMin(fromSorted([[1, 'a'], [2, 'b']])))], [[2, 'b']])
 */
export const removeMin = <K, V>(t: Tree<K, V>): Tree<K, V> => {
  if (t === undefined) return undefined
  if (t.left === undefined) return t.right
  return balance(t.key, t.value, removeMin(t.left), t.right)
}

/**
 * Two trees, every key of `l` before every key of `r`, as one (the node between them removed): the
 * least entry of `r` takes its place, and `balance` restores the sizes, as after any removal.
 */
const glue = <K, V>(l: Tree<K, V>, r: Tree<K, V>): Tree<K, V> => {
  if (l === undefined) return r
  if (r === undefined) return l
  const m = min(r) as Node<K, V>
  return balance(m.key, m.value, l, removeMin(r))
}

/**
 * The tree without `key` (the very tree given when it holds no such key): O(log n) new nodes.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { fromSorted, lookup, remove } from './sortedMap.js'
 * const cmp = (a: number, b: number): number => a - b
 * const t = fromSorted([[1, 'a'], [2, 'b']])
 * assert.strictEqual(lookup(remove(t, 1, cmp), 1, cmp), undefined)
 * assert.strictEqual(remove(t, 3, cmp), t)
 */
export const remove = <K, V>(t: Tree<K, V>, key: K, cmp: Compare<K>): Tree<K, V> => {
  if (t === undefined) return undefined
  const c = cmp(key, t.key)
  if (c < 0) {
    const left = remove(t.left, key, cmp)
    return left === t.left ? t : balance(t.key, t.value, left, t.right)
  }
  if (c > 0) {
    const right = remove(t.right, key, cmp)
    return right === t.right ? t : balance(t.key, t.value, t.left, right)
  }
  return glue(t.left, t.right)
}

/**
 * A tree of entries already sorted by key, each key once: O(n), perfectly balanced.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { entriesOf, fromSorted } from './sortedMap.js'
 * assert.deepStrictEqual([...entriesOf(fromSorted([['a', 1], ['b', 2], ['c', 3]]))], [['a', 1], ['b', 2], ['c', 3]])
 */
export const fromSorted = <K, V>(sorted: ReadonlyArray<readonly [K, V]>): Tree<K, V> => {
  const build = (from: number, to: number): Tree<K, V> => {
    if (from >= to) return undefined
    const mid = (from + to) >>> 1
    const [key, value] = sorted[mid] as readonly [K, V]
    return node(key, value, build(from, mid), build(mid + 1, to))
  }
  return build(0, sorted.length)
}
