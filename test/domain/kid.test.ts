import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { kid, mod10CheckDigit, mod11CheckDigit } from '../../src/kid.js'

const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((ds) => ds.join(''))

const validUnderMod10 = (s: string): boolean => mod10CheckDigit(s.slice(0, -1)) === s.slice(-1)

describe('KID check digits (C7)', () => {
  it('MOD10: weights 2,1,2,1,… from the rightmost base digit, digits of products summed', () => {
    // 1234567: 7·2=14→1+4=5, 6·1=6, 5·2=10→1, 4·1=4, 3·2=6, 2·1=2, 1·2=2; sum 26; (10 − 6) mod 10 = 4
    expect(mod10CheckDigit('1234567')).toBe('4')
    // The classic Luhn number 7992739871 → 3: sum 67, (10 − 7) mod 10 = 3
    expect(mod10CheckDigit('7992739871')).toBe('3')
    // 0: sum 0 → (10 − 0) mod 10 = 0
    expect(mod10CheckDigit('0')).toBe('0')
    // 31: 1·2=2, 3·1=3; sum 5 → 5
    expect(mod10CheckDigit('31')).toBe('5')
  })

  it('MOD11: weights 2,3,4,5,6,7 repeating from the rightmost base digit, check = 11 − sum mod 11', () => {
    // 1234567: 7·2 + 6·3 + 5·4 + 4·5 + 3·6 + 2·7 + 1·2 = 106; 106 mod 11 = 7; 11 − 7 = 4
    expect(mod11CheckDigit('1234567')).toBe('4')
    // 123: 3·2 + 2·3 + 1·4 = 16; 16 mod 11 = 5; 11 − 5 = 6
    expect(mod11CheckDigit('123')).toBe('6')
    // weights wrap after 7: 11111111 → 2+3+4+5+6+7+2+3 = 32; 32 mod 11 = 10; 11 − 10 = 1
    expect(mod11CheckDigit('11111111')).toBe('1')
  })

  it('MOD11: 11 gives 0', () => {
    // 31: 1·2 + 3·3 = 11; 11 mod 11 = 0; 11 − 0 = 11 → '0'
    expect(mod11CheckDigit('31')).toBe('0')
    // 1230: 0·2 + 3·3 + 2·4 + 1·5 = 22; 22 mod 11 = 0 → '0'
    expect(mod11CheckDigit('1230')).toBe('0')
  })

  it('MOD11: 10 gives -', () => {
    // 23: 3·2 + 2·3 = 12; 12 mod 11 = 1; 11 − 1 = 10 → '-'
    expect(mod11CheckDigit('23')).toBe('-')
    // 1236: 6·2 + 3·3 + 2·4 + 1·5 = 34; 34 mod 11 = 1 → '-'
    expect(mod11CheckDigit('1236')).toBe('-')
  })
})

describe('kid.isValid', () => {
  it('accepts MOD10 KIDs', () => {
    expect(kid.isValid('12345674')).toBe(true)
    expect(kid.isValid('79927398713')).toBe(true)
    expect(kid.isValid('00')).toBe(true)
    expect(kid.isValid('315')).toBe(true) // MOD10 only (MOD11 of 31 is 0)
  })

  it('accepts MOD11 KIDs, including the check 10 written as -', () => {
    expect(kid.isValid('1236')).toBe(true) // MOD11 6; MOD10 of 123 is 0
    expect(kid.isValid('23-')).toBe(true)
    expect(kid.isValid('1236-')).toBe(true)
  })

  it('accepts a MOD11 KID whose check 11 is written as 0', () => {
    expect(kid.isValid('310')).toBe(true) // MOD10 of 31 would be 5
    expect(kid.isValid('12300')).toBe(true) // MOD10 of 1230 would be 2
  })

  it('accepts 2 and 25 characters', () => {
    expect(kid.isValid('00')).toBe(true)
    const base24 = '123456789012345678901234'
    expect(kid.isValid(base24 + mod10CheckDigit(base24))).toBe(true)
  })

  it('rejects a wrong check digit', () => {
    expect(kid.isValid('12345675')).toBe(false)
    expect(kid.isValid('79927398710')).toBe(false)
    expect(kid.isValid('311')).toBe(false)
    expect(kid.isValid('24-')).toBe(false) // MOD11 of 24 is 8
    expect(kid.isValid('12345-')).toBe(false)
  })

  it('rejects letters and other characters', () => {
    expect(kid.isValid('1234567a')).toBe(false)
    expect(kid.isValid('a2345674')).toBe(false)
    expect(kid.isValid('1234 5674')).toBe(false)
    expect(kid.isValid(' 12345674')).toBe(false)
    expect(kid.isValid('12345674 ')).toBe(false)
    expect(kid.isValid('+12345674')).toBe(false)
    expect(kid.isValid('1234567.4')).toBe(false)
    expect(kid.isValid('１２３４５６７４')).toBe(false) // full-width digits
    expect(kid.isValid('١٢٣٤٥٦٧٤')).toBe(false) // Arabic-Indic digits
  })

  it("rejects '-' anywhere but last", () => {
    expect(kid.isValid('-23')).toBe(false)
    expect(kid.isValid('2-3')).toBe(false)
    expect(kid.isValid('23--')).toBe(false)
    expect(kid.isValid('--')).toBe(false)
  })

  it('rejects fewer than 2 and more than 25 characters', () => {
    expect(kid.isValid('')).toBe(false)
    expect(kid.isValid('0')).toBe(false)
    const base25 = '1234567890123456789012345'
    expect(kid.isValid(base25 + mod10CheckDigit(base25))).toBe(false)
    expect(kid.isValid(base25 + mod11CheckDigit(base25))).toBe(false)
  })

  it('rejects what is not a string', () => {
    for (const v of [undefined, null, 12345674, 12345674n, true, {}, [], ['12345674'], new String('12345674')]) {
      expect(kid.isValid(v)).toBe(false)
    }
  })

  it('rejects a 1 MB string (by its length: bench/linearity.bench.ts measures that it is not read)', () => {
    expect(kid.isValid('1'.repeat(1024 * 1024))).toBe(false)
  })
})

describe('kid.create', () => {
  it('appends the check digit of the algorithm', () => {
    expect(kid.create('1234567', 'mod10')).toEqual(E.right('12345674'))
    expect(kid.create('31', 'mod10')).toEqual(E.right('315'))
    expect(kid.create('31', 'mod11')).toEqual(E.right('310'))
    expect(kid.create('23', 'mod11')).toEqual(E.right('23-'))
    expect(kid.create('0', 'mod10')).toEqual(E.right('00'))
  })

  it('takes a base of 1 to 24 digits', () => {
    const base24 = '9'.repeat(24)
    const made = kid.create(base24, 'mod11')
    expect(E.isRight(made) && made.right.length === 25).toBe(true)
    for (const bad of ['', '9'.repeat(25), '12a', '12-', ' 1', '١٢']) {
      for (const algorithm of ['mod10', 'mod11'] as const) {
        const r = kid.create(bad, algorithm)
        expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
        expect(E.isLeft(r) && r.left.issues?.[0]?.path).toBe('kid')
      }
    }
  })

  it('rejects an unknown algorithm and a base that is not a string', () => {
    const r = kid.create('123', 'mod12' as never)
    expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
    expect(E.isLeft(r) && r.left.issues?.[0]?.path).toBe('algorithm')
    const n = kid.create(123 as never, 'mod10')
    expect(E.isLeft(n) && n.left.code).toBe('ValidationFailed')
  })

  it('is a frozen namespace object', () => {
    expect(Object.isFrozen(kid)).toBe(true)
  })
})

describe('KID properties', () => {
  it('every KID created is valid', () => {
    fc.assert(
      fc.property(digits(1, 24), fc.constantFrom('mod10' as const, 'mod11' as const), (base, algorithm) => {
        const made = kid.create(base, algorithm)
        return E.isRight(made) && made.right.startsWith(base) && kid.isValid(made.right)
      })
    )
  })

  it('changing one digit of a MOD10 KID makes it invalid under MOD10', () => {
    fc.assert(
      fc.property(
        digits(1, 24),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (base, at, shift) => {
          const made = kid.create(base, 'mod10')
          if (E.isLeft(made)) return false
          const s = made.right
          const i = at % s.length
          const changed = String((Number(s[i]) + shift) % 10)
          const other = s.slice(0, i) + changed + s.slice(i + 1)
          return validUnderMod10(s) && !validUnderMod10(other)
        }
      )
    )
  })

  it('isValid is total: any value gives a boolean, and only digit strings of 2..25 can pass', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), digits(0, 30)), (v) => {
        const ok = kid.isValid(v)
        if (!ok) return true
        return typeof v === 'string' && v.length >= 2 && v.length <= 25 && /^[0-9]+-?$/.test(v)
      })
    )
  })
})
