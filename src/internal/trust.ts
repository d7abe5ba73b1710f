/**
 * The mark of the states paysplit produced itself. Internal: `transition` trusts a marked state
 * without validating it again, and only its own deep-frozen results are marked.
 *
 * @internal
 * @packageDocumentation
 */

/**
 * Lets a constructor "return" an object it did not create, so that a subclass's private field is
 * stamped onto that object. Nothing else.
 */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- the return override is the point
class Stamper {
  constructor(o: object) {
    return o
  }
}

/**
 * The mark is a private class field (`#trusted`) stamped onto a plain state object: only this
 * class can add it, and nothing can read or copy it (`{ ...state }`, `structuredClone`, JSON and
 * a `Proxy` over the state do not carry it: `#trusted in proxy` is false), and it is far cheaper
 * than a `WeakSet` (docs/performance.md, "Why the code looks like this"). The state stays a plain object: same prototype, same own keys, so
 * `toEqual`, JSON and spread see no difference.
 *
 * Mark before `Object.freeze`: a field cannot be added to a frozen object in every engine.
 */
class Trusted extends Stamper {
  // declared, never read: `#trusted in state` is the whole test
  readonly #trusted: undefined

  /** Marks `state` (not frozen yet) as produced by paysplit; marking twice is harmless. */
  static mark<S extends object>(state: S): S {
    // `new Trusted(state)` returns `state` itself, now with the field. Its value is used on
    // purpose: a bundler (esbuild) drops an unused `new` of a class it thinks has no effects.
    return #trusted in state ? state : (new Trusted(state) as unknown as S)
  }

  /** Whether `u` was marked by {@link Trusted.mark}. */
  static has(u: unknown): boolean {
    return typeof u === 'object' && u !== null && #trusted in u
  }
}

/** Marks a state, not yet frozen, as produced by paysplit. @internal */
export const markTrusted = <S extends object>(state: S): S => Trusted.mark(state)

/** Whether `u` is a state paysplit produced (and so deep-frozen). @internal */
export const isTrusted = (u: unknown): boolean => Trusted.has(u)
