/**
 * Branches of src/state/storedState.ts (validateState, the check of a state paysplit did not produce itself)
 * that the other tests left uncovered (measured with `npm run test:coverage`). The branches that
 * no input can reach are marked `v8 ignore` in src/ and listed in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { validateState } from '../../src/state/storedState.js'
import { cardPayment, charge } from '../support/fixtures.js'

const issuesOf = (input: unknown): ReadonlyArray<{ path: string; message: string }> => {
  const r = validateState(input)
  if (E.isRight(r)) throw new Error('the state was accepted')
  expect(r.left.code).toBe('ValidationFailed')
  return r.left.issues ?? []
}

describe('validateState: the remaining branches', () => {
  it('counts a lone high surrogate as one character: a metaData key of 41 such characters is too long', () => {
    const tooLong = '\ud800' + 'a'.repeat(40) // 41 code points, the first a high surrogate without its pair
    // the path writes the lone surrogate as U+FFFD (docs/rules.md C12, the `text` format)
    expect(issuesOf(cardPayment({ metaData: { [tooLong]: 1 } })).map((i) => i.path)).toEqual([`state.metaData.\ufffd${'a'.repeat(40)}`])
    const fits = '\ud800' + 'a'.repeat(39) // 40 code points, 40 UTF-16 units
    expect(E.isRight(validateState(cardPayment({ metaData: { [fits]: 1 } })))).toBe(true)
    const pair = '\ud83d\ude00'.repeat(40) // 40 code points, 80 UTF-16 units
    expect(E.isRight(validateState(cardPayment({ metaData: { [pair]: 1 } })))).toBe(true)
  })

  it('counts text lengths in code points: 255 astral characters (510 UTF-16 units) fit an identifier, 256 do not', () => {
    const fits = '\ud83d\ude00'.repeat(255)
    expect(E.isRight(validateState(cardPayment({ externalPaymentReferenceID: fits })))).toBe(true)
    expect(issuesOf(cardPayment({ externalPaymentReferenceID: fits + 'x' }))).toEqual([
      { path: 'state.externalPaymentReferenceID', code: 'ValidationFailed', reason: 'too_long', params: { max: 255 }, message: 'Must be at most 255 characters.' }
    ])
  })

  it('stops at 100 issues, also for the fields read after the list that filled them, and counts those in a last too_many_issues', () => {
    // customerExternalID breaks a rule shared with create, kid (on a card) one of a state only
    const issues = issuesOf({ ...cardPayment({ moneySplits: new Array(150).fill(5) as never }), customerExternalID: '', kid: '12345678903' })
    expect(issues).toHaveLength(101)
    expect(issues.slice(0, 100).every((i) => i.path.startsWith('state.moneySplits.'))).toBe(true)
    // the list stopped at its 100th issue; the two fields after it are counted, not listed
    expect(issues[100]).toEqual({ path: '', code: 'ValidationFailed', reason: 'too_many_issues', params: { more: 2 }, message: '2 more not shown.' })
  })

  it('reports an array whose length is not a safe integer (a proxy) at state.moneySplits', () => {
    const splits = cardPayment().moneySplits
    const odd = new Proxy(splits as unknown[], {
      get: (target, key) => (key === 'length' ? 'many' : Reflect.get(target, key) as unknown)
    })
    expect(Array.isArray(odd)).toBe(true)
    const issues = issuesOf(cardPayment({ moneySplits: odd as never }))
    expect(issues.map((i) => i.path)).toContain('state.moneySplits')
    expect(issues.find((i) => i.path === 'state.moneySplits')).toMatchObject({ reason: 'type', params: { expected: 'array' } })
  })

  it('reports an allocation whose sum passes the largest safe integer at state.allocation', () => {
    const charged = charge(cardPayment())
    const allocation = charged.allocation.map((a, i) => (i < 2 ? { ...a, amount: Number.MAX_SAFE_INTEGER } : a))
    const issues = issuesOf({ ...charged, allocation })
    expect(issues).toContainEqual({
      path: 'state.allocation',
      code: 'ValidationFailed',
      reason: 'too_big',
      params: { max: Number.MAX_SAFE_INTEGER },
      message: `Must be at most ${Number.MAX_SAFE_INTEGER}.`
    })
  })

  it('reports an allocation entry whose splitID is not a safe integer of at least 1 at its splitID', () => {
    const charged = charge(cardPayment())
    for (const bad of [0, 1.5, '1', Number.MAX_SAFE_INTEGER + 1]) {
      const allocation = charged.allocation.map((a, i) => (i === 0 ? { ...a, splitID: bad } : a))
      expect(issuesOf({ ...charged, allocation }).map((i) => i.path)).toContain('state.allocation.0.splitID')
    }
  })

  it('reports a form attempt that is not an object at its index', () => {
    expect(issuesOf(cardPayment({ formAttempts: [5] as never })).map((i) => i.path)).toEqual(['state.formAttempts.0'])
  })

  it('reports a charged payment whose chargedAmount is not an amount at state.chargedAmount, and no sum check on it', () => {
    const issues = issuesOf({ ...charge(cardPayment()), chargedAmount: 'all' })
    expect(issues.map((i) => i.path)).toEqual(['state.chargedAmount'])
  })
})
