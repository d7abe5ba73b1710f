/**
 * Kills the mutants Stryker left alive in src/kid.ts (docs/testing.md, "Mutation testing"):
 * C7 allows digits only in the base of a KID, and a base with another character must be
 * refused whatever its check digit says; and C2 wants each error to carry "a sentence a
 * person can read", so the issues of `kid.create` are pinned to what they must tell.
 */
import { issue } from '../../src/errors.js'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { kid } from '../../src/kid.js'
import type { PaymentError } from '../../src/errors.js'

/** Every last character a KID may end with: the ten digits and MOD11's `-`. */
const checks = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '-']

const errorOf = (r: E.Either<PaymentError, string>): PaymentError => {
  if (E.isRight(r)) throw new Error(`expected a refusal, got ${r.right}`)
  return r.left
}

describe('C7: only digits before the check', () => {
  it('a base holding a non-digit is no KID, whichever check follows it', () => {
    // Some check in 0-9/- always equals what MOD10 or MOD11 computes from the character codes, so
    // only the digit test of the base refuses these.
    for (const odd of ['a', 'Z', ' ', '.', '/', ':', '+', '-', '１', '٣']) {
      for (const base of [odd, `12${odd}4`, `${odd}2345678`, `1234567${odd}`]) {
        for (const check of checks) expect(kid.isValid(base + check), JSON.stringify(base + check)).toBe(false)
      }
    }
  })

  it('the digit test looks at every base character, not only the first', () => {
    // 'a1' passes the arithmetic of MOD10 ('a' counts as 49: 49·2 = 98 → 89, check 1)
    expect(kid.isValid('a1')).toBe(false)
    expect(kid.isValid('1a' + '0')).toBe(false)
  })
})

describe('kid.create: the issues say what a base and an algorithm must be', () => {
  it('a bad base: a kid format issue (a non-string: a type issue)', () => {
    for (const bad of ['', '9'.repeat(25), '12a']) {
      const e = errorOf(kid.create(bad, 'mod10'))
      expect(e.code).toBe('ValidationFailed')
      expect(e.issues).toEqual([issue('kid', 'format', { format: 'kid' })])
      expect(e.issues?.[0]?.message).toBe('Must be a valid kid.')
    }
    expect(errorOf(kid.create(123 as never, 'mod10')).issues).toEqual([issue('kid', 'type', { expected: 'string' })])
  })

  it('an unknown algorithm: the issue lists the two algorithms', () => {
    const e = errorOf(kid.create('123', 'mod12' as never))
    expect(e.issues).toEqual([issue('algorithm', 'not_one_of', { allowed: ['mod10', 'mod11'] })])
    expect(e.issues?.[0]?.message).toBe('Must be one of: mod10, mod11.')
  })
})
