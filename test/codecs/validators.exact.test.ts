/**
 * Tests written against the survivors of a Stryker run on `src/codecs/validators.ts` and `src/codecs/fields.ts`
 * (docs/testing.md, "Mutation testing"): the timestamp's separators and digits, the months of 30
 * days, and the wording of a one-of rule.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { decodePaymentIntentRequest } from '../../src/codecs.js'
import { isTimestamp } from '../../src/codecs/validators.js'
import { cardRequest } from '../support/builders.js'

describe('isTimestamp: every character where C2 puts it', () => {
  it('accepts the form itself', () => {
    expect(isTimestamp('2026-11-21T10:00:00.000Z')).toBe(true)
  })

  it('refuses a wrong separator at each position, the others being right', () => {
    for (const t of [
      '2026x11-21T10:00:00.000Z',
      '2026-11x21T10:00:00.000Z',
      '2026-11-21T10x00:00.000Z',
      '2026-11-21T10:00x00.000Z'
    ]) {
      expect(isTimestamp(t), t).toBe(false)
    }
  })

  it('refuses a letter or a sign where a digit belongs: in the fraction, the year, the time', () => {
    for (const t of ['2026-11-21T10:00:00.00aZ', '2026-11-21T10:00:00.0/0Z', '2026-11-21T10:00:00.0 0Z', '202a-11-21T10:00:00.000Z', '2026-11-21T1a:00:00.000Z', '2026-11-21T10:0a:00.000Z']) {
      expect(isTimestamp(t), t).toBe(false)
    }
  })

  it('knows the months of 30 days: the 31st of April, June, September and November does not exist', () => {
    for (const month of ['04', '06', '09', '11']) {
      expect(isTimestamp(`2026-${month}-30T00:00:00.000Z`)).toBe(true)
      expect(isTimestamp(`2026-${month}-31T00:00:00.000Z`)).toBe(false)
    }
    expect(isTimestamp('2026-12-31T00:00:00.000Z')).toBe(true)
  })
})

describe('a one-of rule lists the values it accepts', () => {
  it('environment must be one of test, production', () => {
    const r = decodePaymentIntentRequest(cardRequest({ environment: 'staging' }))
    expect(E.isLeft(r) && r.left.issues).toEqual([
      { path: 'environment', code: 'ValidationFailed', reason: 'not_one_of', params: { allowed: ['test', 'production'] }, message: 'Must be one of: test, production.' }
    ])
  })
})
