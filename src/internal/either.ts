/**
 * The few `Either` functions paysplit uses, written out so that no fp-ts code runs or is bundled:
 * fp-ts's CommonJS build (`fp-ts/lib`) does not tree-shake, and its ES build (`fp-ts/es6`) cannot
 * be imported by Node (extensionless imports, no `"type": "module"`), so a library that imports
 * either ships ~25 kB of fp-ts to a front-end or breaks in Node ESM. The values are exactly
 * fp-ts's: plain `{ _tag: 'Left', left }` / `{ _tag: 'Right', right }` objects, typed with
 * fp-ts's own `Either` (a type-only import), so callers use fp-ts on them as usual.
 *
 * @internal
 * @module either
 */
import type { Either, Left, Right } from 'fp-ts/lib/Either.js'

export type { Either, Left, Right }

/** fp-ts `left`. @internal */
export const left = <E = never, A = never>(e: E): Either<E, A> => ({ _tag: 'Left', left: e })

/** fp-ts `right`. @internal */
export const right = <E = never, A = never>(a: A): Either<E, A> => ({ _tag: 'Right', right: a })

/** fp-ts `isLeft`. @internal */
export const isLeft = <E, A>(ma: Either<E, A>): ma is Left<E> => ma._tag === 'Left'

/** fp-ts `isRight`. @internal */
export const isRight = <E, A>(ma: Either<E, A>): ma is Right<A> => ma._tag === 'Right'
