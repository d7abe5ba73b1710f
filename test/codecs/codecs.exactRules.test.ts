/**
 * Tests written against the survivors of a Stryker run on `src/codecs.ts` (docs/testing.md,
 * "Mutation testing"): the reasons and params of the list, metaData, subscription and customer
 * checks (an issue's reason, params and en message are part of the contract, docs/rules.md C12), the exact limits of the split, subscription and
 * metaData lists (nothing past a limit is checked), the split counts for which the sum is compared
 * with `grossAmount`, and what `walkMoneySplitPatch` hands to its sink. Named after the behaviour,
 * not after the mutants; the comments name the mutants (lines as of commit 4770b89). The
 * survivors that no test can tell apart are explained in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import {
  decodeMoneySplitPatch,
  decodePaymentIntentRequest
} from '../../src/codecs.js'
import { validatePaymentIntentRequest, walkMoneySplitPatch } from '../../src/codecs/requestChecks.js'
import { en, formatIssue, type Issue, type IssueParams, type IssueReason } from '../../src/codecs.js'
import { cardRequest, FEE_ACCOUNT, PARTNER, SELLER } from '../support/builders.js'

/** The issues of a request that must be refused. */
const issuesOf = (request: unknown): ReadonlyArray<Issue> => {
  const r = decodePaymentIntentRequest(request)
  if (E.isRight(r)) throw new Error('expected the request to be refused')
  return r.left.issues ?? []
}

/** The issue of `reason` at `path`, its message the en one (docs/rules.md C12). */
const invalid = (path: string, reason: IssueReason, params?: IssueParams): Issue => ({
  path,
  code: 'ValidationFailed',
  reason,
  ...(params === undefined ? {} : { params }),
  message: formatIssue({ reason, params }, en)
})

/** `n` valid splits of 1 each to the seller, none a fee. */
const splitsOf = (n: number): Array<Record<string, unknown>> =>
  Array.from({ length: n }, () => ({ connectedAccountID: SELLER, amount: 1, isFee: false }))

const subscription = { eventType: 'Charged', url: 'https://shop.example/hooks' }

// -------------------------------------------------------------------------------------
// moneySplitList
// -------------------------------------------------------------------------------------

describe('moneySplitList: what the list must be, in words', () => {
  it('a moneySplitList that is no array must be an array of splits (it is not "required": it is there)', () => {
    // kills 237:26 (`v === undefined` → true), 237:60 (template → ``), 325:53 ('splits' → "")
    expect(issuesOf(cardRequest({ moneySplitList: 'three splits' }))).toEqual([
      invalid('moneySplitList', 'type', { expected: 'array' })
    ])
    expect(issuesOf(cardRequest({ moneySplitList: { 0: splitsOf(1)[0] } }))).toEqual([
      invalid('moneySplitList', 'type', { expected: 'array' })
    ])
  })

  it('an absent moneySplitList is required', () => {
    expect(issuesOf(cardRequest({ moneySplitList: undefined }))).toEqual([
      invalid('moneySplitList', 'required')
    ])
  })

  it('an empty moneySplitList must hold at least one split, and its sum 0 is not compared with grossAmount', () => {
    // kills 326:35 ('must hold at least one split' → "")
    expect(issuesOf(cardRequest({ moneySplitList: [] }))).toEqual([
      invalid('moneySplitList', 'too_few', { min: 1 })
    ])
  })
})

describe('moneySplitList: at most 500 splits, and nothing past the 500th is checked', () => {
  it('501 splits get exactly one issue, whatever the 501st is', () => {
    // kills 242:35 (template → ``), 325:53 ('splits' → ""), 334:28 (`i < MAX_SPLITS` → `<=`: the
    // 501st entry checked, its issues added)
    for (const extra of [{}, null, 'x', { connectedAccountID: 'nope', amount: -1, isFee: 'no' }]) {
      expect(issuesOf(cardRequest({ moneySplitList: [...splitsOf(500), extra] })), JSON.stringify(extra)).toEqual([
        invalid('moneySplitList', 'too_many', { max: 500 })
      ])
    }
  })

  it('501 splits with a hole at the 501st get no issue for the hole', () => {
    // kills 334:28 (`<=`: the hole at index 500 is reported)
    const list: unknown[] = splitsOf(500)
    list.length = 501
    expect(issuesOf(cardRequest({ moneySplitList: list }))).toEqual([
      invalid('moneySplitList', 'too_many', { max: 500 })
    ])
  })

  it('500 splits are within the limit: every one is checked and their sum must be grossAmount', () => {
    // kills 331:23 (`n <= MAX_SPLITS` → `n < MAX_SPLITS`: the sum of exactly 500 splits not compared)
    const splits = splitsOf(500)
    const ok = decodePaymentIntentRequest(cardRequest({ moneySplitList: splits, grossAmount: 500 }))
    expect(E.isRight(ok) && ok.right.moneySplitList.length).toBe(500)
    expect(issuesOf(cardRequest({ moneySplitList: splits, grossAmount: 501 }))).toEqual([
      { path: 'grossAmount', code: 'GrossAmountMismatch', reason: 'sum_mismatch', message: en.sum_mismatch }
    ])
    expect(issuesOf(cardRequest({ moneySplitList: [...splitsOf(499), {}], grossAmount: 499 }))).toEqual([
      invalid('moneySplitList.499.connectedAccountID', 'required'),
      invalid('moneySplitList.499.amount', 'required'),
      invalid('moneySplitList.499.isFee', 'required')
    ])
  })
})

describe('moneySplitList: the rules across the splits', () => {
  it('a single split: its amount must be grossAmount', () => {
    // kills 331:13 (`n >= 1` → `n > 1`: the sum of a single split not compared)
    expect(issuesOf(cardRequest({ moneySplitList: splitsOf(1), grossAmount: 2 }))).toEqual([
      { path: 'grossAmount', code: 'GrossAmountMismatch', reason: 'sum_mismatch', message: en.sum_mismatch }
    ])
    expect(E.isRight(decodePaymentIntentRequest(cardRequest({ moneySplitList: splitsOf(1), grossAmount: 1 })))).toBe(true)
  })

  it('amounts must add up to at most Number.MAX_SAFE_INTEGER, said once, and then no mismatch is reported', () => {
    // kills 339:26 (template → ``)
    const big = Number.MAX_SAFE_INTEGER
    const list = [
      { connectedAccountID: SELLER, amount: big, isFee: false },
      { connectedAccountID: PARTNER, amount: 1, isFee: false },
      { connectedAccountID: PARTNER, amount: 1, isFee: false }
    ]
    expect(issuesOf(cardRequest({ moneySplitList: list, grossAmount: 1 }))).toEqual([
      invalid('moneySplitList', 'too_big', { max: 9007199254740991 })
    ])
  })

  it('a second fee account must be the fee account of the first fee split, named by its path', () => {
    // kills 352:11 (template → ``)
    const list = [
      { connectedAccountID: SELLER, amount: 7000, isFee: false },
      { connectedAccountID: FEE_ACCOUNT, amount: 1000, isFee: true },
      { connectedAccountID: FEE_ACCOUNT.toUpperCase(), amount: 1000, isFee: true },
      { connectedAccountID: PARTNER, amount: 1000, isFee: true }
    ]
    expect(issuesOf(cardRequest({ moneySplitList: list }))).toEqual([
      invalid('moneySplitList.3.connectedAccountID', 'fee_account_differs')
    ])
  })
})

// -------------------------------------------------------------------------------------
// webhookSubscriptions
// -------------------------------------------------------------------------------------

describe('webhookSubscriptions: what a subscription and the list must be, in words', () => {
  it('a subscription without an eventType: its eventType is required', () => {
    // kills 395:7 (→ false), 395:7 (`===` → `!==`), 396:11 ('is required' → "")
    expect(issuesOf(cardRequest({ webhookSubscriptions: [{ url: subscription.url }] }))).toEqual([
      invalid('webhookSubscriptions.0.eventType', 'required')
    ])
  })

  it('a null eventType is required (a value is needed there: docs/rules.md C12)', () => {
    expect(issuesOf(cardRequest({ webhookSubscriptions: [subscription, { ...subscription, eventType: null }] }))).toEqual([
      invalid('webhookSubscriptions.1.eventType', 'required')
    ])
  })

  it('an unknown eventType must be one of the seven, listed, short or long', () => {
    // kills 395:7 (→ true), 395:7 (`===` → `!==`), 397:11 (template → ``), 397:52 (', ' → "")
    const allowed = ['Initiated', 'Reserved', 'Charged', 'Cancelled', 'Refunded', 'PartiallyRefunded', 'InvoiceAdjusted']
    for (const eventType of ['Paid', 7, 'chargedPayment']) {
      expect(
        issuesOf(cardRequest({ webhookSubscriptions: [subscription, { ...subscription, eventType }] })),
        String(eventType)
      ).toEqual([invalid('webhookSubscriptions.1.eventType', 'not_one_of', { allowed })])
    }
  })

  it('webhookSubscriptions that is no array must be an array of subscriptions', () => {
    // kills 405:60 ('subscriptions' → "")
    expect(issuesOf(cardRequest({ webhookSubscriptions: subscription }))).toEqual([
      invalid('webhookSubscriptions', 'type', { expected: 'array' })
    ])
  })
})

describe('webhookSubscriptions: at most 20, and nothing past the 20th is checked', () => {
  it('20 subscriptions are within the limit', () => {
    const r = decodePaymentIntentRequest(cardRequest({ webhookSubscriptions: Array.from({ length: 20 }, () => subscription) }))
    expect(E.isRight(r) && r.right.webhookSubscriptions.length).toBe(20)
  })

  it('21 subscriptions get exactly one issue, whatever the 21st is', () => {
    // kills 405:60 ('subscriptions' → ""), 409:28 (`i < MAX_SUBSCRIPTIONS` → `<=`: the 21st checked)
    const twenty = Array.from({ length: 20 }, () => subscription)
    const holed: unknown[] = [...twenty]
    holed.length = 21
    for (const list of [[...twenty, {}], [...twenty, 'x'], [...twenty, { eventType: 'Paid', url: 'ftp://x' }], holed]) {
      expect(issuesOf(cardRequest({ webhookSubscriptions: list }))).toEqual([
        invalid('webhookSubscriptions', 'too_many', { max: 20 })
      ])
    }
  })
})

// -------------------------------------------------------------------------------------
// metaData
// -------------------------------------------------------------------------------------

describe('metaData: at most 50 keys, and nothing past the 50th is checked', () => {
  const keys = (n: number): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${String(i).padStart(2, '0')}`, i]))

  it('50 keys are within the limit, and every one of them is checked', () => {
    const r = decodePaymentIntentRequest(cardRequest({ metaData: keys(50) }))
    expect(E.isRight(r) && Object.keys(r.right.metaData)).toHaveLength(50)
    expect(issuesOf(cardRequest({ metaData: { ...keys(49), key49: {} } }))).toEqual([
      invalid('metaData.key49', 'type', { expected: 'string' })
    ])
  })

  it('51 keys get exactly one issue, whatever the keys past the 50th hold', () => {
    // kills 424:28 (→ true: every key checked) and 424:28 (`<=`: the 51st key checked)
    for (const extra of [{ key50: {} }, { key50: 'x'.repeat(501) }, { ['k'.repeat(41)]: 1 }, { key50: 1, key51: NaN }]) {
      expect(issuesOf(cardRequest({ metaData: { ...keys(50), ...extra } })), Object.keys(extra).join()).toEqual([
        invalid('metaData', 'too_many', { max: 50 })
      ])
    }
  })
})

describe('metaData: what a key and a value must be, in words', () => {
  it('a key must be 1–40 characters: the empty key and a key of 41', () => {
    // kills 427:39 (template → ``)
    const long = 'k'.repeat(41)
    expect(issuesOf(cardRequest({ metaData: { '': 'a', [long]: 'b', ['k'.repeat(40)]: 'c' } }))).toEqual([
      invalid('metaData.', 'too_short', { min: 1 }),
      invalid(`metaData.${long}`, 'too_long', { max: 40 })
    ])
  })

  it('a string value must be at most 500 characters', () => {
    // kills 432:41 (template → ``)
    expect(issuesOf(cardRequest({ metaData: { ok: 'x'.repeat(500), note: 'x'.repeat(501) } }))).toEqual([
      invalid('metaData.note', 'too_long', { max: 500 })
    ])
  })

  it('a value must be a string, finite number, boolean or null', () => {
    // kills 435:39 (message → "")
    expect(
      issuesOf(cardRequest({ metaData: { a: null, b: false, c: -1.5, d: Infinity, e: [], f: undefined } }))
    ).toEqual([
      invalid('metaData.d', 'type', { expected: 'number' }), // Infinity is no JSON number
      invalid('metaData.e', 'type', { expected: 'string' }),
      invalid('metaData.f', 'type', { expected: 'string' })
    ])
  })
})

// -------------------------------------------------------------------------------------
// customerExternalID
// -------------------------------------------------------------------------------------

describe('customerExternalID: a missing one says it is required', () => {
  it('absent, null or empty: required, with its own code', () => {
    // kills 475:40 ('is required' → "")
    for (const customerExternalID of [undefined, null, '']) {
      expect(issuesOf(cardRequest({ customerExternalID })), String(customerExternalID)).toEqual([
        { path: 'customerExternalID', code: 'MissingCustomerExternalID', reason: 'required', message: en.required }
      ])
    }
  })
})

// -------------------------------------------------------------------------------------
// the money-split patch
// -------------------------------------------------------------------------------------

describe('moneySplitPatch: what the list must be, in words', () => {
  it('a moneySplitPatch that is no array must be an array of patch entries', () => {
    // kills 584:53 ('patch entries' → "")
    const r = decodeMoneySplitPatch({ moneySplitPatch: { splitID: 1, updateType: 'DoNothing' }, newGrossAmount: 0 })
    expect(E.isLeft(r) && r.left.issues).toEqual([
      invalid('moneySplitPatch', 'type', { expected: 'array' })
    ])
  })
})

describe('walkMoneySplitPatch: the sink is made once per entry array, and gets the valid entries only', () => {
  const walk = (input: unknown): { issues: ReadonlyArray<Issue>; starts: number[]; seen: unknown[] } => {
    const starts: number[] = []
    const seen: unknown[] = []
    const { issues } = walkMoneySplitPatch(input, (length) => {
      starts.push(length)
      return (splitID, updateType, value) => seen.push([splitID, updateType, value])
    })
    return { issues, starts, seen }
  }

  it('start is called once with the length of the array, 0 included', () => {
    // kills 585:7 (`n >= 0` → `n > 0`: no sink for an empty array)
    expect(walk({ moneySplitPatch: [], newGrossAmount: 0 })).toEqual({ issues: [], starts: [0], seen: [] })
    expect(walk({ moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }], newGrossAmount: 0 }).starts).toEqual([1])
  })

  it('start is not called when there is no entry array', () => {
    // kills 585:7 (→ true: start(-1) called)
    for (const moneySplitPatch of [undefined, null, 'x', { length: 0 }]) {
      expect(walk({ moneySplitPatch, newGrossAmount: 0 }).starts, typeof moneySplitPatch).toEqual([])
    }
    expect(walk('not an object').starts).toEqual([])
  })

  it('an entry with any invalid field never reaches the sink; the valid ones do, in order', () => {
    // kills 553:7, all seven: the whole condition → true (381); `a && b || c` (383); `a && b` → true (384);
    // `a || b` (385); `splitID !== undefined` → true (386); `updateType !== undefined` → true (388);
    // `value !== undefined` → true (390)
    const { issues, starts, seen } = walk({
      moneySplitPatch: [
        { splitID: 0, updateType: 'DoNothing' },
        { splitID: 2, updateType: 'Delete' },
        { splitID: 3, updateType: 'UpdateAmount' },
        { splitID: 4, updateType: 'DoDeleteSplitEntry', doDelete: 'yes' },
        { splitID: 5, updateType: 'UpdateAmount', newAmount: 7 },
        { splitID: 6, updateType: 'DoNothing', newAmount: 8 },
        { splitID: 7, updateType: 'DoDeleteSplitEntry', doDelete: true }
      ],
      newGrossAmount: 0
    })
    expect(starts).toEqual([7])
    expect(seen).toEqual([
      [5, 'UpdateAmount', 7],
      [6, 'DoNothing', undefined],
      [7, 'DoDeleteSplitEntry', true]
    ])
    expect(issues.map((i) => i.path)).toEqual([
      'moneySplitPatch.0.splitID',
      'moneySplitPatch.1.updateType',
      'moneySplitPatch.2.newAmount',
      'moneySplitPatch.3.doDelete'
    ])
  })
})

describe('validatePaymentIntentRequest agrees with the decoder on the issues above', () => {
  it('same issues, no value', () => {
    const request = cardRequest({ moneySplitList: [...splitsOf(500), {}], webhookSubscriptions: 'x' })
    const r = validatePaymentIntentRequest(request)
    expect(r.value).toBeUndefined()
    expect(r.issues).toEqual(issuesOf(request))
  })
})
