/**
 * Structural equality of JSON-like values, for the two places that ask whether a request is the
 * same one again: a repeated create (docs/rules.md C6) and a retried Idempotency-Key (C13).
 *
 * @internal
 * @module json
 */
import { hasOwn, isObject } from './own.js'

/**
 * Whether `a` and `b` are the same JSON-like value: own enumerable keys in any order, arrays
 * element by element, leaves by `===` (so `0` and `-0` are one number, as JSON has one) or both
 * `NaN`. Property values are read by their descriptors, so no getter of an input runs.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { sameJson } from './json.js'
 * assert.strictEqual(sameJson({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] }), true)
 * assert.strictEqual(sameJson({ a: 1 }, { a: 1, b: undefined }), false)
 * assert.strictEqual(sameJson([1, 2], { 0: 1, 1: 2 }), false)
 * assert.strictEqual(sameJson(-0, 0), true)
 */
export const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b || Object.is(a, b)) return true
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  return ka.every((k) => hasOwn(b, k) && sameJson(Object.getOwnPropertyDescriptor(a, k)?.value, Object.getOwnPropertyDescriptor(b, k)?.value))
}
