/**
 * KID numbers (kundeidentifikasjonsnummer) of Norwegian invoices (docs/rules.md C7): the reference a payer
 * quotes with a bank transfer so the money finds its invoice. A KID has 2–25 characters: digits,
 * the last of them a check digit computed from the others by MOD10 (Luhn) or MOD11. MOD11 can give
 * `-` as its check, the only non-digit a KID may hold, and only in the last place.
 *
 * Everything here is pure and runs in time linear in the input (and constant for input that is too
 * long to be a KID).
 *
 * @module kid
 */
import * as E from './internal/either.js'
import { invalid, type PaymentError } from './errors.js'
import { format, type Rule, STRING } from './codecs/fields.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The two check-digit algorithms of Norwegian KIDs. */
export type KidAlgorithm = 'mod10' | 'mod11'

const CODE_0 = 48 // '0'

// -------------------------------------------------------------------------------------
// check digits
// -------------------------------------------------------------------------------------

/**
 * The MOD10 (Luhn) check digit of `base`, a string of ASCII digits: weights 2, 1, 2, 1, … from
 * the rightmost digit, the digits of each product summed, check = (10 − sum mod 10) mod 10.
 * The caller makes sure `base` holds only digits.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { mod10CheckDigit } from './kid.js'
 * // 7·2=14→5, 6·1=6, 5·2=10→1, 4·1=4, 3·2=6, 2·1=2, 1·2=2: sum 26, check (10 − 6) mod 10 = 4
 * assert.strictEqual(mod10CheckDigit('1234567'), '4')
 */
export const mod10CheckDigit = (base: string): string => {
  let sum = 0
  let weight = 2
  for (let i = base.length - 1; i >= 0; i--) {
    const product = (base.charCodeAt(i) - CODE_0) * weight
    sum += product > 9 ? product - 9 : product
    weight = weight === 2 ? 1 : 2
  }
  return String((10 - (sum % 10)) % 10)
}

/**
 * The MOD11 check digit of `base`, a string of ASCII digits: weights 2, 3, 4, 5, 6, 7, 2, 3, …
 * from the rightmost digit, check = 11 − sum mod 11, where 11 gives `0` and 10 gives `-`.
 * The caller makes sure `base` holds only digits.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { mod11CheckDigit } from './kid.js'
 * // 7·2 + 6·3 + 5·4 + 4·5 + 3·6 + 2·7 + 1·2 = 106; 106 mod 11 = 7; 11 − 7 = 4
 * assert.strictEqual(mod11CheckDigit('1234567'), '4')
 * assert.strictEqual(mod11CheckDigit('0'), '0') // sum 0: 11 − 0 = 11 gives 0
 * assert.strictEqual(mod11CheckDigit('6'), '-') // sum 12, 12 mod 11 = 1: 11 − 1 = 10 gives -
 */
export const mod11CheckDigit = (base: string): string => {
  let sum = 0
  let weight = 2
  for (let i = base.length - 1; i >= 0; i--) {
    sum += (base.charCodeAt(i) - CODE_0) * weight
    weight = weight === 7 ? 2 : weight + 1
  }
  const check = 11 - (sum % 11)
  return check === 11 ? '0' : check === 10 ? '-' : String(check)
}

// -------------------------------------------------------------------------------------
// validation
// -------------------------------------------------------------------------------------

/**
 * True when `s` is a KID: a string of 2–25 characters, digits but for the last, which is the
 * MOD10 or the MOD11 check digit of the others (`-` only as a MOD11 check). Anything that is not
 * a string is not a KID. The length is checked first, so a huge string costs nothing.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { kid } from 'paysplit'
 * assert.strictEqual(kid.isValid('12345674'), true) // MOD10 (and MOD11) check 4
 * assert.strictEqual(kid.isValid('6-'), true) // MOD11 check 10 gives '-'
 * assert.strictEqual(kid.isValid('12345675'), false) // wrong check digit
 * assert.strictEqual(kid.isValid(12345674), false) // not a string
 */
const isValid = (s: unknown): boolean => {
  // 1–24 ASCII digits and a check digit or `-`: at most 25 characters are looked at, however long `s` is
  if (typeof s !== 'string' || !/^\d{1,24}[\d-]$/.test(s)) return false
  const base = s.slice(0, -1)
  const check = s.slice(-1)
  // MOD10 never gives `-`
  return mod10CheckDigit(base) === check || mod11CheckDigit(base) === check
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The KID made of `base` (1–24 digits) followed by its check digit under `algorithm`. A base that
 * is not 1–24 ASCII digits gives `ValidationFailed` at path `kid`; an algorithm other than
 * `mod10` and `mod11` gives `ValidationFailed` at path `algorithm`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * assert.deepStrictEqual(kid.create('1234567', 'mod10'), E.right('12345674'))
 * assert.deepStrictEqual(kid.create('6', 'mod11'), E.right('6-'))
 * const bad = kid.create('12a4', 'mod10')
 * assert.ok(E.isLeft(bad) && bad.left.code === 'ValidationFailed')
 */
const create = (base: string, algorithm: KidAlgorithm): E.Either<PaymentError, string> => {
  if (typeof base !== 'string') return E.left(invalid('kid', 'type', STRING))
  if (!/^\d{1,24}$/.test(base)) return E.left(invalid('kid', 'format', { format: 'kid' }))
  const checkDigit = algorithm === 'mod10' ? mod10CheckDigit : algorithm === 'mod11' ? mod11CheckDigit : undefined
  return checkDigit === undefined
    ? E.left(invalid('algorithm', 'not_one_of', { allowed: ['mod10', 'mod11'] }))
    : E.right(base + checkDigit(base))
}

/**
 * KID helpers (docs/rules.md C7): `kid.isValid(s)` tells whether `s` is a KID under either algorithm;
 * `kid.create(base, algorithm)` appends the check digit to a base of 1–24 digits.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { kid } from 'paysplit'
 * const made = kid.create('2026112100042', 'mod11')
 * assert.ok(E.isRight(made) && kid.isValid(made.right))
 */
export const kid: {
  readonly isValid: (s: unknown) => boolean
  readonly create: (base: string, algorithm: KidAlgorithm) => E.Either<PaymentError, string>
} = Object.freeze({ isValid, create })

/**
 * The field rule of a KID (docs/rules.md C7): `format` `{ format: 'kid' }` for a string that is no
 * KID, `type` for a value that is no string. Shared by the decider, `validateState` and the bank.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { KID_RULE } from './kid.js'
 * assert.deepStrictEqual(KID_RULE('12345'), ['format', { format: 'kid' }])
 */
export const KID_RULE: Rule = /* @__PURE__ */ format(isValid, 'kid')
