/**
 * The few `Option` functions paysplit uses, written out so that no fp-ts code runs or is bundled
 * (see `either.ts` for why). The values are exactly fp-ts's plain `{ _tag: 'None' }` /
 * `{ _tag: 'Some', value }` objects, typed with fp-ts's own `Option` (a type-only import).
 *
 * @internal
 * @module option
 */
import type { None, Option, Some } from 'fp-ts/lib/Option.js'

export type { None, Option, Some }

/** fp-ts `none`. @internal */
export const none: Option<never> = { _tag: 'None' }

/** fp-ts `some`. @internal */
export const some = <A>(a: A): Option<A> => ({ _tag: 'Some', value: a })

/** fp-ts `isSome`. @internal */
export const isSome = <A>(fa: Option<A>): fa is Some<A> => fa._tag === 'Some'

/** fp-ts `isNone`. @internal */
export const isNone = <A>(fa: Option<A>): fa is None => fa._tag === 'None'

/** fp-ts `fromNullable`: `none` for `null` and `undefined`, else `some`. @internal */
export const fromNullable = <A>(a: A): Option<NonNullable<A>> =>
  a == null ? none : some(a)
