/**
 * Own-property reads for the wire layer: a request, a context, a world or an option is read only
 * through its own properties, so a polluted `Object.prototype` adds nothing to it (docs/rules.md C3,
 * "only own properties"). Built on `internal/own.ts`, for inputs that may not be objects at all.
 *
 * @internal
 * @module own
 */
import { own as ownOf } from '../internal/own.js'

export { hasOwn } from '../internal/own.js'

/** True for a non-null object (arrays included). */
export const isObject = (u: unknown): u is object => typeof u === 'object' && u !== null

/** The own property `key` of `o`, or `undefined` when `o` is not an object or has no such own property. */
export const own = (o: unknown, key: string): unknown => (isObject(o) ? ownOf(o, key) : undefined)
