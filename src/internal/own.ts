/**
 * Own-property reads (docs/rules.md C3: only own properties of the input are read).
 *
 * @internal
 * @module own
 */

/**
 * `Object.prototype.hasOwnProperty`, unbound from any input (an input may shadow it; `Object.hasOwn`
 * is not in the ES2020 that front-end bundles target).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { hasOwn } from './own.js'
 * assert.strictEqual(hasOwn({ a: 1 }, 'a'), true)
 * assert.strictEqual(hasOwn(Object.create({ a: 1 }) as object, 'a'), false)
 */
export const hasOwn = (o: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, key)

/**
 * True for a non-null object (arrays included).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isObject } from './own.js'
 * assert.strictEqual(isObject([]), true)
 * assert.strictEqual(isObject(null), false)
 */
export const isObject = (u: unknown): u is object => typeof u === 'object' && u !== null

/**
 * The own property `key` of `o`; `undefined` when `o` is not an object or has no such own
 * property (an inherited one does not count, docs/rules.md C3: a polluted `Object.prototype` adds
 * nothing). The one own-property read of paysplit: the domain, the codecs and the wire layer all
 * read their inputs through it.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { own } from './own.js'
 * assert.strictEqual(own({ a: 1 }, 'a'), 1)
 * assert.strictEqual(own(Object.create({ a: 1 }) as object, 'a'), undefined)
 * assert.strictEqual(own('text', 'length'), undefined)
 */
export const own = (o: unknown, key: PropertyKey): unknown =>
  typeof o === 'object' && o !== null && hasOwn(o, key) ? (o as Record<PropertyKey, unknown>)[key] : undefined
