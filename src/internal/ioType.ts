/**
 * io-ts's `Type` class, written out the way `either.ts` writes out fp-ts's `Either`: the same
 * constructor, members and methods (`name`, `is`, `validate`, `encode`, `decode`, `pipe`,
 * `asDecoder`, `asEncoder`), typed as io-ts's own `t.Type` (a type-only import). The codecs of
 * `paysplit/codecs` are built with it, so they go into every io-ts combinator (`t.type`,
 * `t.array`, `t.exact`…), reporter (`PathReporter`) and type helper (`t.TypeOf`) as io-ts's own
 * codecs do, and are `instanceof` nothing but this class.
 *
 * Why not io-ts's class itself: io-ts is one ES module whose top level builds every primitive
 * codec (`t.string`, `t.number`, …) with calls no bundler may drop, so importing `Type` alone
 * ships all of io-ts and the parts of fp-ts it uses, 2.1 kB min+gzip, a third of the front-end
 * validation layer's budget (docs/decisions.md, "io-ts codecs without io-ts code").
 *
 * @internal
 * @module ioType
 */
import type * as t from 'io-ts'

/**
 * io-ts `Type<A, O, I>`: a codec. `decode(i)` is `validate(i, [{ key: '', type: this, actual: i }])`.
 *
 * @internal
 */
export class Type<A, O = A, I = unknown> implements t.Type<A, O, I> {
  declare readonly _A: A
  declare readonly _O: O
  declare readonly _I: I
  // declared, then set by assignment: fields of the class itself would be lowered, for a browser
  // target before ES2022, into a defineProperty helper that every bundle of the codecs ships
  declare readonly name: string
  declare readonly is: t.Is<A>
  declare readonly validate: t.Validate<I, A>
  declare readonly encode: t.Encode<A, O>
  constructor(name: string, is: t.Is<A>, validate: t.Validate<I, A>, encode: t.Encode<A, O>) {
    this.name = name
    this.is = is
    this.validate = validate
    this.encode = encode
    this.decode = this.decode.bind(this)
  }

  /** io-ts `pipe`: this codec, then `ab` on what it decoded. */
  pipe<B, IB, OB>(ab: t.Type<B, OB, IB>, name = `pipe(${this.name}, ${ab.name})`): t.Type<B, O, I> {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- io-ts's Type by its members
    return new Type<B, O, I>(
      name,
      ab.is,
      (i, c) => {
        const e = this.validate(i, c)
        return e._tag === 'Left' ? e : ab.validate(e.right as unknown as IB, c)
      },
      (b) => this.encode(ab.encode(b) as unknown as A)
    )
  }

  /** io-ts `asDecoder`: this codec. */
  asDecoder(): t.Decoder<I, A> {
    return this
  }

  /** io-ts `asEncoder`: this codec. */
  asEncoder(): t.Encoder<A, O> {
    return this
  }

  /** io-ts `decode`: `validate` with the root context. */
  decode(i: I): t.Validation<A> {
    return this.validate(i, [{ key: '', type: this, actual: i }])
  }
}
