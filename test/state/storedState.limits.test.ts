/**
 * Tests written against the survivors of a Stryker run on `src/state/storedState.ts` (validateState) below
 * line 350, `src/errors.ts` and `src/codecs/currencies.ts` (docs/testing.md, "Mutation testing"): the
 * reasons of the list, metaData and split checks (an issue's reason and params are part of the contract),
 * the exact limits of the subscription and metaData lists and of the sum of the amounts, the
 * surrogate pairs a length counts as one character, the stop at 100 issues, the fields a valid
 * state comes back without (absent, not `undefined`), the list shared by `moneySplits` and an
 * unchanged `allocation`, and the issue an error's message names. Named after the behaviour, not
 * after the mutants; the comments name the mutants (lines as of commit 6217abe). The survivors
 * that no test can tell apart, and the one simplification of line 104, are explained in
 * docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Issue, IssueParams, IssueReason } from '../../src/errors.js'
import { issue, validationError } from '../../src/errors.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import { validateState } from '../../src/state/storedState.js'
import { MAX_METADATA_KEYS, MAX_SUBSCRIPTIONS } from '../../src/codecs/validators.js'
import { cardPayment, charge, ids, invoicePayment } from '../support/fixtures.js'

/** The issues of a state that must be refused. */
const issuesOf = (input: unknown): ReadonlyArray<Issue> => {
  const r = validateState(input)
  if (E.isRight(r)) throw new Error('expected the state to be refused')
  expect(r.left.code).toBe('ValidationFailed')
  return r.left.issues ?? []
}

/** The state a valid input comes back as. */
const rightOf = (input: unknown): PaymentState => {
  const r = validateState(input)
  if (E.isLeft(r)) throw new Error(`expected the state to be accepted, got ${JSON.stringify(r.left.issues)}`)
  return r.right
}

/** The payment a valid input comes back as. */
const paymentOf = (input: unknown): Payment => {
  const s = rightOf(input)
  if (s.status === 'NoPayment') throw new Error('expected a payment')
  return s
}

/** A state as it comes back from storage: plain JSON, sharing nothing. */
const stored = (p: Payment): Payment => JSON.parse(JSON.stringify(p)) as Payment

/** The issue of `reason` at `path` (its message the en one, docs/rules.md C12). */
const invalid = (path: string, reason: IssueReason, params?: IssueParams): Issue => issue(path, reason, params)

/** The card payment of the fixtures, charged: its allocation holds exactly its splits. */
const chargedCard = (): Payment => stored(charge(cardPayment()))

// -------------------------------------------------------------------------------------
// lengths in code points
// -------------------------------------------------------------------------------------

describe('validateState: a length counts a surrogate pair, and only a pair, as one character', () => {
  /** The issues of a card payment whose only metaData key is `key` (at most 40 characters). */
  const keyIssues = (key: string): ReadonlyArray<Issue> => {
    const r = validateState(stored(cardPayment({ metaData: { [key]: 1 } })))
    return E.isLeft(r) ? (r.left.issues ?? []) : []
  }
  // a path writes each lone surrogate of a key as U+FFFD (docs/rules.md C12, the `text` format): the engine's own toWellFormed
  const tooLong = (key: string): ReadonlyArray<Issue> => [
    invalid(`state.metaData.${(key as unknown as { toWellFormed: () => string }).toWellFormed()}`, 'too_long', { max: 40 })
  ]

  it('40 pairs of the first high and the first low surrogate (80 units) are 40 characters and fit', () => {
    // kills 104:9 (`c >= 0xd800` → `c > 0xd800`), 106:11 (`d >= 0xdc00` → `d > 0xdc00`); and 105:30
    // (`charCodeAt(i + 1)` → `i - 1`: each pair but the first counted with the unit before it, 41)
    expect(keyIssues('\ud800\udc00'.repeat(40))).toEqual([])
  })

  it('40 pairs of the last high and the last low surrogate (80 units) are 40 characters and fit', () => {
    // kills 104:24 (`c <= 0xdbff` → `c < 0xdbff`), 106:26 (`d <= 0xdfff` → `d < 0xdfff`)
    expect(keyIssues('\udbff\udfff'.repeat(40))).toEqual([])
  })

  it('a low surrogate after a letter is no pair: 21 such couples are 42 characters, too long for a key', () => {
    // kills 104:9 (the whole pair test → true; `&&` → `||` between the high-surrogate range and the
    // length), 104:9 (the range → true; `&&` → `||` inside it), 104:9 (`c >= 0xd800` → true)
    const key = 'a\udc00'.repeat(21)
    expect(keyIssues(key)).toEqual(tooLong(key))
  })

  it('a low surrogate after a character above the high surrogates is no pair either', () => {
    // kills 104:24 (`c <= 0xdbff` → true)
    const key = '\ue000\udc00'.repeat(21)
    expect(keyIssues(key)).toEqual(tooLong(key))
  })

  it('a high surrogate at the very end is one character of its own', () => {
    // pins the simplification of 104 (`&& i + 1 < s.length` dropped: charCodeAt past the end is
    // NaN, no low surrogate), which removed the survivors 104:39 (→ true, `<=`, `i - 1`)
    expect(keyIssues('\ud83d\ude00'.repeat(20) + '\ud800')).toEqual([]) // 41 units, 21 characters
    const key = 'a'.repeat(40) + '\ud800' // 41 units, 41 characters
    expect(keyIssues(key)).toEqual(tooLong(key))
  })

  it('a high surrogate before a character above the low surrogates is no pair', () => {
    // kills 106:26 (`d <= 0xdfff` → true)
    const key = '\ud800\ue000'.repeat(21)
    expect(keyIssues(key)).toEqual(tooLong(key))
  })
})

// -------------------------------------------------------------------------------------
// at most 100 issues
// -------------------------------------------------------------------------------------

describe('validateState: stops reading a list once it has found 100 issues', () => {
  it('never reads the entry after the one that made the 100th issue', () => {
    // kills 82:43 (`issues.length >= MAX_ISSUES` → `>`: one more entry read, its issue cut off)
    const list: unknown[] = new Array<unknown>(100).fill('not a split')
    let reads = 0
    Object.defineProperty(list, 100, {
      enumerable: true,
      get: () => {
        reads++
        return 'not a split either'
      }
    })
    const issues = issuesOf({ ...stored(cardPayment()), moneySplits: list })
    expect(issues).toHaveLength(100)
    expect(issues[99]).toEqual(invalid('state.moneySplits.99', 'type', { expected: 'object' }))
    expect(reads).toBe(0)
  })
})

// -------------------------------------------------------------------------------------
// fields absent, not undefined
// -------------------------------------------------------------------------------------

describe('validateState: a valid state comes back without the optional fields it lacks, not even as undefined', () => {
  it('a customer with only a name comes back with only a name', () => {
    // kills 168:9 (`v !== undefined` → true: every customer field copied, absent ones as undefined)
    const out = paymentOf(stored(cardPayment({ customer: { name: 'Kari Nordmann' } })))
    expect(out.customer).toStrictEqual({ name: 'Kari Nordmann' })
    expect(Object.keys(out.customer ?? {})).toEqual(['name'])
  })

  it('splits without description or externalID come back without them', () => {
    // kills 298:9 (`description !== undefined` → true), 299:9 (`externalID !== undefined` → true)
    const input = stored(invoicePayment())
    const out = paymentOf(input)
    expect(out).toStrictEqual(input)
    for (const s of out.moneySplits) {
      expect(Object.keys(s).sort()).toEqual(['amount', 'connectedAccountID', 'insertTime', 'isFee', 'paymentReferenceID', 'splitID'])
    }
  })
})

// -------------------------------------------------------------------------------------
// webhookSubscriptions and metaData: limits and sentences
// -------------------------------------------------------------------------------------

describe('validateState: at most 20 webhook subscriptions, each with its url', () => {
  const subscriptions = (n: number): ReadonlyArray<{ eventType: string; url: string }> =>
    Array.from({ length: n }, (_, i) => ({ eventType: 'Charged', url: `https://shop.example/hooks/${i}` }))

  it('20 subscriptions are kept', () => {
    // kills 176:7 (`n > MAX_SUBSCRIPTIONS` → `>=`)
    expect(MAX_SUBSCRIPTIONS).toBe(20)
    const input = { ...stored(cardPayment()), webhookSubscriptions: subscriptions(20) }
    expect(paymentOf(input).webhookSubscriptions).toEqual(subscriptions(20))
  })

  it('21 subscriptions: the list must hold at most 20, in those words', () => {
    // kills 177:41 (template → ``)
    expect(issuesOf({ ...stored(cardPayment()), webhookSubscriptions: subscriptions(21) })).toEqual([
      invalid('state.webhookSubscriptions', 'too_many', { max: 20 })
    ])
  })

  it('a subscription without an eventType or a url is refused: both are required', () => {
    // kills 188:84 (the eventType's `required` true → false: the subscription dropped without a word)
    expect(issuesOf({ ...stored(cardPayment()), webhookSubscriptions: [{ url: 'https://shop.example/hooks' }] })).toEqual([
      invalid('state.webhookSubscriptions.0.eventType', 'required')
    ])
    expect(issuesOf({ ...stored(cardPayment()), webhookSubscriptions: [{ eventType: 'Charged' }] })).toEqual([
      invalid('state.webhookSubscriptions.0.url', 'required')
    ])
  })
})

describe('validateState: at most 50 metaData keys, each of at most 40 characters', () => {
  const metaData = (n: number): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))

  it('50 keys are kept', () => {
    // kills 199:7 (`keys.length > MAX_METADATA_KEYS` → `>=`)
    expect(MAX_METADATA_KEYS).toBe(50)
    expect(paymentOf({ ...stored(cardPayment()), metaData: metaData(50) }).metaData).toEqual(metaData(50))
  })

  it('51 keys: metaData must have at most 50 keys, in those words', () => {
    // kills 200:29 (template → ``)
    expect(issuesOf({ ...stored(cardPayment()), metaData: metaData(51) })).toEqual([
      invalid('state.metaData', 'too_many', { max: 50 })
    ])
  })

  it('a key of 41 characters: the key must be at most 40 characters, in those words', () => {
    // kills 207:25 (template → ``)
    const key = 'k'.repeat(41)
    expect(issuesOf({ ...stored(cardPayment()), metaData: { [key]: 1 } })).toEqual([
      invalid(`state.metaData.${key}`, 'too_long', { max: 40 })
    ])
  })
})

// -------------------------------------------------------------------------------------
// moneySplits
// -------------------------------------------------------------------------------------

describe('validateState: the list of splits', () => {
  it('moneySplits that is no array gets that one issue, and no sum to compare with grossAmount', () => {
    // kills 252:7 (`n < 0` → false: an empty list of sum 0 read, and grossAmount 10000 reported)
    expect(issuesOf({ ...stored(cardPayment()), moneySplits: 'three splits' })).toEqual([
      invalid('state.moneySplits', 'type', { expected: 'array' })
    ])
  })

  it('a splitID not above the one before it must be greater, in those words', () => {
    // kills 267:46 (message → "")
    const input = stored(cardPayment())
    const moneySplits = input.moneySplits.map((s, i) => (i === 1 ? { ...s, splitID: 1 } : s))
    expect(issuesOf({ ...input, moneySplits })).toEqual([
      invalid('state.moneySplits.1.splitID', 'too_small', { min: 'moneySplits.0.splitID + 1' })
    ])
  })

  it("a split of another payment must carry the payment's paymentReferenceID, in those words", () => {
    // kills 273:55 (message → "")
    const input = stored(cardPayment())
    const moneySplits = input.moneySplits.map((s, i) => (i === 0 ? { ...s, paymentReferenceID: ids.invoicePayment } : s))
    expect(issuesOf({ ...input, moneySplits })).toEqual([
      invalid('state.moneySplits.0.paymentReferenceID', 'not_one_of', { allowed: ['paymentReferenceID'] })
    ])
  })

  it("a split's paymentReferenceID that is no UUID gets only the UUID issue", () => {
    // kills 272:9 (the condition → true; `&&` → `||`; `ref !== undefined` → true)
    const input = stored(cardPayment())
    const moneySplits = input.moneySplits.map((s, i) => (i === 0 ? { ...s, paymentReferenceID: 'nope' } : s))
    expect(issuesOf({ ...input, moneySplits })).toEqual([
      invalid('state.moneySplits.0.paymentReferenceID', 'format', { format: 'uuid' })
    ])
  })

  it("a payment's paymentReferenceID that is no UUID gets one issue, none for the splits", () => {
    // kills 272:30 (`paymentReferenceID !== undefined` → true)
    expect(issuesOf({ ...stored(cardPayment()), paymentReferenceID: 'nope' })).toEqual([
      invalid('state.paymentReferenceID', 'format', { format: 'uuid' })
    ])
  })

  it('amounts that add up to exactly the largest safe integer are kept', () => {
    // kills 282:14 (`> Number.MAX_SAFE_INTEGER` → `>=`)
    const input = stored(cardPayment())
    const moneySplits = input.moneySplits.map((s, i) => (i === 0 ? { ...s, amount: Number.MAX_SAFE_INTEGER - 3000 } : s))
    const p = { ...input, moneySplits, grossAmount: Number.MAX_SAFE_INTEGER }
    expect(paymentOf(p)).toEqual(p)
  })
})

// -------------------------------------------------------------------------------------
// the allocation, shared when unchanged
// -------------------------------------------------------------------------------------

describe('validateState: an allocation equal to the splits is their very list, any other its own', () => {
  it('a freshly charged state comes back with one list for moneySplits and allocation, as transition leaves it', () => {
    // kills 318:7 (the whole comparison → true), 318:7, 319:7, 321:7, 322:7, 323:7, 324:7 (each
    // `!==` → `===`: equal fields taken for a difference)
    const input = chargedCard()
    expect(input.allocation).not.toBe(input.moneySplits)
    const out = paymentOf(input)
    expect(out).toEqual(input)
    expect(out.allocation).toBe(out.moneySplits)
  })

  it('an allocation that differs in insertTime, description or externalID only is kept as it is', () => {
    // kills 322:7, 323:7, 324:7 (each comparison → false: the splits' list returned for the allocation)
    const input = chargedCard()
    for (const change of [{ insertTime: '2026-11-21T09:00:00.000Z' }, { description: 'Other tickets' }, { externalID: 'item-9' }]) {
      const allocation = input.allocation.map((a, i) => (i === 0 ? { ...a, ...change } : a))
      const out = paymentOf({ ...input, allocation })
      expect(out.allocation, JSON.stringify(change)).toEqual(allocation)
      expect(out.allocation).not.toBe(out.moneySplits)
      expect(out.moneySplits).toEqual(input.moneySplits)
    }
  })

  it('a split whose splitID the allocation lacks is reported, even when every other field matches', () => {
    // kills 318:7 (`x.splitID !== y.splitID` → false: the splits taken for the allocation, the check passed)
    const input = chargedCard()
    const allocation = input.allocation.map((a, i) => (i === 2 ? { ...a, splitID: 4 } : a))
    expect(issuesOf({ ...input, allocation })).toEqual([
      invalid('state.moneySplits.2.splitID', 'not_one_of', { allowed: ['allocation.*.splitID'] })
    ])
  })

  it('a split whose isFee differs from its allocation is reported, even when every other field matches', () => {
    // kills 321:7 (`x.isFee !== y.isFee` → false)
    const input = chargedCard()
    const allocation = input.allocation.map((a, i) => (i === 0 ? { ...a, isFee: true } : a))
    expect(issuesOf({ ...input, allocation })).toEqual([
      invalid('state.moneySplits.0.isFee', 'not_one_of', { allowed: ['allocation.0.isFee'] }),
      invalid('state.allocation.0.connectedAccountID', 'fee_account_differs')
    ])
  })
})

// -------------------------------------------------------------------------------------
// src/errors.ts, src/codecs/currencies.ts
// -------------------------------------------------------------------------------------

describe('validationError: the code is the first in precedence that any issue has; the message counts the issues and quotes none', () => {
  it('is ValidationFailed when a GrossAmountMismatch comes before a ValidationFailed issue', () => {
    const issues: ReadonlyArray<Issue> = [
      issue('grossAmount', 'sum_mismatch', undefined, 'GrossAmountMismatch'),
      issue('currency', 'unknown_currency')
    ]
    expect(validationError(issues)).toEqual({
      code: 'ValidationFailed',
      message: 'The input is not valid: 2 problems (see issues).',
      issues
    })
    expect(validationError([issues[0] as Issue]).code).toBe('GrossAmountMismatch')
    expect(validationError([...issues, issue('customerExternalID', 'required', undefined, 'MissingCustomerExternalID')]).code).toBe('MissingCustomerExternalID')
  })
})
