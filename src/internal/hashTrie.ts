/**
 * A persistent map from strings: a hash array mapped trie (Bagwell's HAMT), 32 ways a level, so
 * 10⁵ keys sit about 4 levels deep where a binary tree needs 17: a lookup touches a few nodes,
 * and a change copies a few small arrays. Keys whose 32-bit hashes collide share a bucket that is
 * a weight-balanced tree (`./sortedMap.ts`), so even keys chosen to collide (the hash is fixed:
 * paysplit has no randomness) cost O(log n), never O(n). Every change returns a new trie sharing
 * all but O(log n) nodes with the one given, which is never changed. The world of
 * `paysplit/http` indexes its idempotency keys by one (docs/decisions.md, "Idempotency keys").
 *
 * @internal
 * @module hashTrie
 */
import { entriesOf, insert, isValidTree, lookup, remove as removeFromTree, sizeOf, type Compare, type Tree } from './sortedMap.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One key and its value. @internal */
export interface Leaf<V> {
  readonly kind: 'leaf'
  readonly hash: number
  readonly key: string
  readonly value: V
}

/** Two or more keys of one hash, in a sorted tree. @internal */
export interface Bucket<V> {
  readonly kind: 'bucket'
  readonly hash: number
  readonly tree: Tree<string, V>
}

/** A level: one bit of `bitmap` for each of the 32 slots that holds a child, the children in slot order. @internal */
export interface Branch<V> {
  readonly kind: 'branch'
  readonly bitmap: number
  readonly children: ReadonlyArray<Trie<V>>
}

/** A trie, or `undefined` for the empty one. @internal */
export type Trie<V> = Leaf<V> | Bucket<V> | Branch<V> | undefined

const BITS = 5
const SLOTS = 31

const byText: Compare<string> = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The 32-bit hash of a key: FNV-1a over its UTF-16 units, then murmur3's finaliser so that every
 * bit depends on every unit.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { hashOf } from './hashTrie.js'
 * assert.strictEqual(hashOf('k-1'), hashOf('k-1'))
 * assert.notStrictEqual(hashOf('k-1'), hashOf('k-2'))
 */
export const hashOf = (key: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** The slot of `hash` at the level whose first bit is `shift` (0, 5, …, 30: the last level has 2 bits). */
const slotOf = (hash: number, shift: number): number => (hash >>> shift) & SLOTS

/** The number of bits set in a 32-bit number. */
const bitCount = (n: number): number => {
  let x = n - ((n >>> 1) & 0x55555555)
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff
}

// -------------------------------------------------------------------------------------
// reads
// -------------------------------------------------------------------------------------

/**
 * The value of `key` (whose hash is `hash`), or `undefined`.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { get, hashOf, set } from './hashTrie.js'
 * const t = set(undefined, 'a', hashOf('a'), 1)
 * assert.strictEqual(get(t, 'a', hashOf('a')), 1)
 * assert.strictEqual(get(t, 'b', hashOf('b')), undefined)
 */
export const get = <V>(trie: Trie<V>, key: string, hash: number): V | undefined => {
  let at = trie
  let shift = 0
  for (;;) {
    if (at === undefined) return undefined
    switch (at.kind) {
      case 'leaf':
        return at.hash === hash && at.key === key ? at.value : undefined
      case 'bucket':
        return at.hash === hash ? lookup(at.tree, key, byText)?.value : undefined
      case 'branch': {
        const bit = 1 << slotOf(hash, shift)
        if ((at.bitmap & bit) === 0) return undefined
        at = at.children[bitCount(at.bitmap & (bit - 1))]
        shift += BITS
      }
    }
  }
}

// -------------------------------------------------------------------------------------
// changes (each a new trie; the one given is never changed)
// -------------------------------------------------------------------------------------

type Single<V> = Leaf<V> | Bucket<V>

/** A branch holding two singles of different hashes, from the level `shift` down to where their slots differ. */
const split = <V>(a: Single<V>, b: Single<V>, shift: number): Branch<V> => {
  const sa = slotOf(a.hash, shift)
  const sb = slotOf(b.hash, shift)
  if (sa === sb) return { kind: 'branch', bitmap: 1 << sa, children: [split(a, b, shift + BITS)] }
  return { kind: 'branch', bitmap: (1 << sa) | (1 << sb), children: sa < sb ? [a, b] : [b, a] }
}

const bucketOf = <V>(hash: number, tree: Tree<string, V>): Single<V> => {
  // a bucket of one key is a leaf again
  if (tree !== undefined && tree.size === 1) return { kind: 'leaf', hash, key: tree.key, value: tree.value }
  return { kind: 'bucket', hash, tree }
}

/**
 * The trie with `key` (whose hash is `hash`) set to `value`: O(log₃₂ n) small arrays copied (and
 * O(log k) in a bucket of k colliding keys).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { get, hashOf, set } from './hashTrie.js'
 * const one = set(undefined, 'a', hashOf('a'), 1)
 * const two = set(one, 'a', hashOf('a'), 2)
 * assert.strictEqual(get(two, 'a', hashOf('a')), 2)
 * assert.strictEqual(get(one, 'a', hashOf('a')), 1) // the old version is unchanged
 */
export const set = <V>(trie: Trie<V>, key: string, hash: number, value: V, shift = 0): Exclude<Trie<V>, undefined> => {
  if (trie === undefined) return { kind: 'leaf', hash, key, value }
  switch (trie.kind) {
    case 'leaf':
      if (trie.hash !== hash) return split(trie, { kind: 'leaf', hash, key, value }, shift)
      if (trie.key === key) return { kind: 'leaf', hash, key, value }
      return { kind: 'bucket', hash, tree: insert(insert(undefined, trie.key, trie.value, byText), key, value, byText) }
    case 'bucket':
      if (trie.hash !== hash) return split(trie, { kind: 'leaf', hash, key, value }, shift)
      return { kind: 'bucket', hash, tree: insert(trie.tree, key, value, byText) }
    case 'branch': {
      const bit = 1 << slotOf(hash, shift)
      const at = bitCount(trie.bitmap & (bit - 1))
      const children = trie.children.slice()
      if ((trie.bitmap & bit) === 0) {
        children.splice(at, 0, { kind: 'leaf', hash, key, value })
        return { kind: 'branch', bitmap: trie.bitmap | bit, children }
      }
      children[at] = set(trie.children[at], key, hash, value, shift + BITS)
      return { kind: 'branch', bitmap: trie.bitmap, children }
    }
  }
}

/**
 * The trie without `key` (the very trie when it has no such key); a branch left with one leaf or
 * bucket is replaced by it, so the trie stays as shallow as its keys need.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { get, hashOf, remove, set } from './hashTrie.js'
 * const t = set(set(undefined, 'a', hashOf('a'), 1), 'b', hashOf('b'), 2)
 * assert.strictEqual(get(remove(t, 'a', hashOf('a')), 'a', hashOf('a')), undefined)
 * assert.strictEqual(remove(t, 'c', hashOf('c')), t)
 */
export const remove = <V>(trie: Trie<V>, key: string, hash: number, shift = 0): Trie<V> => {
  if (trie === undefined) return undefined
  switch (trie.kind) {
    case 'leaf':
      return trie.hash === hash && trie.key === key ? undefined : trie
    case 'bucket': {
      if (trie.hash !== hash) return trie
      const tree = removeFromTree(trie.tree, key, byText)
      return tree === trie.tree ? trie : bucketOf(hash, tree)
    }
    case 'branch': {
      const bit = 1 << slotOf(hash, shift)
      if ((trie.bitmap & bit) === 0) return trie
      const at = bitCount(trie.bitmap & (bit - 1))
      const child = trie.children[at]
      const next = remove(child, key, hash, shift + BITS)
      if (next === child) return trie
      if (next === undefined) {
        if (trie.children.length === 1) return undefined
        const children = trie.children.slice()
        children.splice(at, 1)
        const only = children.length === 1 ? children[0] : undefined
        // one leaf or bucket left: it moves up
        if (only !== undefined && only.kind !== 'branch') return only
        return { kind: 'branch', bitmap: trie.bitmap & ~bit, children }
      }
      if (trie.children.length === 1 && next.kind !== 'branch') return next
      const children = trie.children.slice()
      children[at] = next
      return { kind: 'branch', bitmap: trie.bitmap, children }
    }
  }
}

// -------------------------------------------------------------------------------------
// invariants (for the properties that prove the trie)
// -------------------------------------------------------------------------------------

/**
 * The entries of a trie (in no particular order) and whether it keeps its invariants: every
 * entry at the slots its hash names; one bit per child; no empty branch, and no branch whose only
 * child is a leaf or a bucket; buckets of two or more keys of one hash. `hash` is the hash the
 * trie was built with (tests build tries with weak ones, to make keys collide).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { checkTrie, hashOf, set } from './hashTrie.js'
 * const t = set(set(undefined, 'a', hashOf('a'), 1), 'b', hashOf('b'), 2)
 * assert.strictEqual(checkTrie(t).valid, true)
 * assert.strictEqual(checkTrie(t).entries.length, 2)
 */
export const checkTrie = <V>(
  trie: Trie<V>,
  hash: (key: string) => number = hashOf
): { readonly valid: boolean; readonly entries: ReadonlyArray<readonly [string, V]> } => {
  const entries: Array<readonly [string, V]> = []
  const walk = (t: Trie<V>, shift: number, prefix: number, isRoot: boolean): boolean => {
    const fits = (hash: number): boolean => shift === 0 || (hash & ((2 ** shift - 1) >>> 0)) >>> 0 === prefix
    if (t === undefined) return isRoot
    switch (t.kind) {
      case 'leaf':
        entries.push([t.key, t.value])
        return hash(t.key) === t.hash && fits(t.hash)
      case 'bucket': {
        const inside = [...entriesOf(t.tree)]
        entries.push(...inside)
        return sizeOf(t.tree) >= 2 && isValidTree(t.tree, byText) && inside.every(([k]) => hash(k) === t.hash) && fits(t.hash)
      }
      case 'branch': {
        if (t.children.length === 0 || bitCount(t.bitmap) !== t.children.length) return false
        const first = t.children[0]
        if (t.children.length === 1 && first !== undefined && first.kind !== 'branch') return false
        let i = 0
        for (let slot = 0; slot <= SLOTS; slot++) {
          if ((t.bitmap & (1 << slot)) === 0) continue
          if (!walk(t.children[i++], shift + BITS, (prefix | (slot << shift)) >>> 0, false)) return false
        }
        return true
      }
    }
  }
  const valid = walk(trie, 0, 0, true)
  return { valid, entries }
}
