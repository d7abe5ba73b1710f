/**
 * Tests written against the survivors of a Stryker run on `src/state/storedState.ts` from line 350 on
 * (docs/testing.md, "Mutation testing"): the money invariants of `validateState` (the fee account,
 * the allocation made at the charge, the amounts before and after the charge), the kind against
 * the gateway, and the optional fields of the copy it returns. Each test compares the whole list
 * of issues, reasons and params included: an invariant must not speak about a field that is already
 * reported as invalid, and must say exactly what it checked. Named after the behaviour, not after
 * the mutants; the survivors no test can tell apart are explained in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { issue as makeIssue, type Issue, type IssueParams, type IssueReason } from '../../src/errors.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import { validateState } from '../../src/state/storedState.js'
import { cardPayment, changeSplits, charge, createdAt, ids, invoicePayment, makeSplits, refundAll, validKid } from '../support/fixtures.js'

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

/** The whole list of issues of a state that must be rejected. */
const issuesOf = (input: unknown): ReadonlyArray<Issue> => {
  const r = validateState(input)
  if (E.isRight(r)) throw new Error(`expected Left, got Right for ${JSON.stringify(input)}`)
  expect(r.left.code).toBe('ValidationFailed')
  return r.left.issues ?? []
}

const rightOf = (input: unknown): PaymentState => {
  const r = validateState(input)
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left, null, 2)}`)
  return r.right
}

/** The issue at `state.<path>` for the rule broken: its reason and params (the message is the en one). */
const issue = (path: string, reason: IssueReason, params?: IssueParams): Issue => makeIssue(`state.${path}`, reason, params)

/** A foreign state: the payment through JSON, with some fields replaced by anything at all. */
const foreign = (p: Payment, changes: Readonly<Record<string, unknown>> = {}): unknown => ({
  ...(JSON.parse(JSON.stringify(p)) as Record<string, unknown>),
  ...changes
})

/** An amount that is no number, and one below 0. */
const NOT_NUMBER = ['type', { expected: 'number' }] as const
const NEGATIVE = ['too_small', { min: 0 }] as const
/** An amount, list or count that must be 0 (or empty). */
const ZERO = { max: 0 }

/** Charged card of 10000: seller 7000 (split 1), partner 2000 (split 2), platform fee 1000 (split 3). */
const chargedCard = (): Payment => charge(cardPayment())
/** Charged invoice of 5000 paid with 5000 + `excess`, the excess refunded: seller 4500, fee 500. */
const chargedInvoice = (excess = 700): Payment => charge(invoicePayment({ paidAmount: 5000 + excess }))

/** The charged card's allocation with some entries changed, by splitID. */
const allocationWith = (changes: Readonly<Record<number, Readonly<Record<string, unknown>>>>): unknown =>
  chargedCard().allocation.map((a) => ({ ...a, ...changes[a.splitID] }))

// -------------------------------------------------------------------------------------
// fee account and allocation
// -------------------------------------------------------------------------------------

describe('validateState: the fee account and the allocation made at the charge', () => {
  it('a fee split naming another fee account is reported at its own path, in words', () => {
    // kills 352:82 (message → ""); the fee accounts compare without regard to case
    const p = cardPayment({
      moneySplits: makeSplits(ids.cardPayment, [
        { connectedAccountID: ids.platform, amount: 5000, isFee: true },
        { connectedAccountID: ids.platform.toUpperCase(), amount: 2000, isFee: true },
        { connectedAccountID: ids.partner, amount: 3000, isFee: true }
      ])
    })
    expect(issuesOf(foreign(p))).toEqual([
      issue('moneySplits.2.connectedAccountID', 'fee_account_differs')
    ])
  })

  it('an allocation entry of a refunded fee split naming another fee account is reported at its allocation path', () => {
    // kills 356:8 ('allocation' → "": the path would be `state..1.connectedAccountID`)
    const p = charge(
      cardPayment({
        moneySplits: makeSplits(ids.cardPayment, [
          { connectedAccountID: ids.seller, amount: 7000, isFee: false },
          { connectedAccountID: ids.partner, amount: 2000, isFee: true },
          { connectedAccountID: ids.platform, amount: 1000, isFee: true }
        ])
      })
    )
    // split 2 refunded in full (deleted): only the allocation still names its account
    const refunded = changeSplits(p, new Map([[2, 'delete']]))
    expect(issuesOf(foreign(refunded))).toEqual([
      issue('allocation.1.connectedAccountID', 'fee_account_differs')
    ])
  })

  it('a current split missing from the allocation is named with its splitID', () => {
    // kills 377:38 (template → ``)
    const allocation = allocationWith({ 1: { amount: 9000 } }) as ReadonlyArray<{ splitID: number }>
    expect(issuesOf(foreign(chargedCard(), { allocation: allocation.filter((a) => a.splitID !== 2) }))).toEqual([
      issue('moneySplits.1.splitID', 'not_one_of', { allowed: ['allocation.*.splitID'] })
    ])
  })

  it('a Refunded payment too keeps every current split in the allocation', () => {
    // kills 531:34 (`status === 'Refunded'` → false)
    const allocation = allocationWith({ 1: { amount: 9000 } }) as ReadonlyArray<{ splitID: number }>
    expect(issuesOf(foreign(refundAll(chargedCard()), { allocation: allocation.filter((a) => a.splitID !== 2) }))).toEqual([
      issue('moneySplits.1.splitID', 'not_one_of', { allowed: ['allocation.*.splitID'] })
    ])
  })

  it('a current split keeps the account and the fee flag allocated to it', () => {
    // kills 381:49 and 383:59 (templates → ``)
    expect(issuesOf(foreign(chargedCard(), { allocation: allocationWith({ 1: { connectedAccountID: ids.partner } }) }))).toEqual([
      issue('moneySplits.0.connectedAccountID', 'not_one_of', { allowed: ['allocation.0.connectedAccountID'] })
    ])
    expect(issuesOf(foreign(chargedCard(), { allocation: allocationWith({ 3: { isFee: false } }) }))).toEqual([
      issue('moneySplits.2.isFee', 'not_one_of', { allowed: ['allocation.2.isFee'] })
    ])
  })

  it('a current split holds at most the amount allocated to it, said with that amount', () => {
    // kills 385:37 (template → ``)
    expect(issuesOf(foreign(chargedCard(), { allocation: allocationWith({ 1: { amount: 6000 }, 2: { amount: 3000 } }) }))).toEqual([
      issue('moneySplits.0.amount', 'too_big', { max: 'allocation.0.amount' })
    ])
  })
})

// -------------------------------------------------------------------------------------
// grossAmount and the kind
// -------------------------------------------------------------------------------------

describe('validateState: grossAmount is the sum of the splits, compared only when both are valid', () => {
  it('a grossAmount that is not the sum is told the sum', () => {
    // kills 409:32 (template → ``)
    expect(issuesOf(foreign(cardPayment(), { grossAmount: 9999 }))).toEqual([
      issue('grossAmount', 'sum_mismatch')
    ])
  })

  it('an invalid grossAmount is reported once, not compared with the sum', () => {
    // kills 408:7 (condition → true, `&&` → `||`) and 408:7 (`gross !== undefined` → true)
    expect(issuesOf(foreign(cardPayment(), { grossAmount: -1 }))).toEqual([issue('grossAmount', ...NEGATIVE)])
  })

  it('an invalid split amount is reported once, and grossAmount not compared with a sum there is not', () => {
    // kills 408:7 (condition → true, `&&` → `||`) and 408:30 (`m.splitSum !== undefined` → true)
    const p = cardPayment()
    const moneySplits = p.moneySplits.map((s) => (s.splitID === 2 ? { ...s, amount: -1 } : s))
    expect(issuesOf(foreign(p, { moneySplits }))).toEqual([issue('moneySplits.1.amount', ...NEGATIVE)])
  })
})

describe('validateState: what a card has no part in, and what an invoice never is', () => {
  it('a card payment has paidAmount 0, and an invalid one is reported once', () => {
    // kills 412:69 (message → ""), 412:9 (`paid !== undefined` → true)
    expect(issuesOf(foreign(cardPayment(), { paidAmount: 1 }))).toEqual([issue('paidAmount', 'too_big', ZERO)])
    expect(issuesOf(foreign(cardPayment(), { paidAmount: 'none' }))).toEqual([issue('paidAmount', ...NOT_NUMBER)])
  })

  it('a card payment has excessRefundedAmount 0, and an invalid one is reported once', () => {
    // kills 413:83 (message → ""), 413:9 (`excess !== undefined` → true),
    // 425:9 (`excess !== undefined` → true, before the charge)
    expect(
      issuesOf(foreign(chargedCard(), { excessRefundedAmount: 1, refundedAmount: 1, chargedAmount: 10001 }))
    ).toEqual([issue('excessRefundedAmount', 'too_big', ZERO)])
    expect(issuesOf(foreign(cardPayment(), { excessRefundedAmount: 'none' }))).toEqual([issue('excessRefundedAmount', ...NOT_NUMBER)])
    expect(issuesOf(foreign(chargedCard(), { excessRefundedAmount: 'none' }))).toEqual([issue('excessRefundedAmount', ...NOT_NUMBER)])
  })

  it('an invoice is never Reserved nor Cancelled, said with the status', () => {
    // kills 415:27 (template → ``)
    for (const status of ['Reserved', 'Cancelled']) {
      expect(issuesOf(foreign(invoicePayment(), { status }))).toEqual([
        issue('status', 'not_one_of', { allowed: ['Initiated', 'Charged', 'Refunded'] })
      ])
    }
  })

  it('a Reserved card has chargeImmediately false; a Reserved invoice is told only its status', () => {
    // kills 418:38 (message → ""), 417:32 (`kind === 'card'` → true)
    expect(issuesOf(foreign(cardPayment({ status: 'Reserved' })))).toEqual([
      issue('chargeImmediately', 'not_one_of', { allowed: [false] })
    ])
    expect(issuesOf(foreign(invoicePayment({ status: 'Reserved', chargeImmediately: true })))).toEqual([
      issue('status', 'not_one_of', { allowed: ['Initiated', 'Charged', 'Refunded'] })
    ])
  })
})

// -------------------------------------------------------------------------------------
// before the charge
// -------------------------------------------------------------------------------------

describe('validateState: before the charge nothing is charged, refunded or allocated', () => {
  it('says which status forbids a charged, refunded or excess amount', () => {
    // kills 422:20, 423:78, 424:81, 425:83 (templates → ``)
    expect(issuesOf(foreign(cardPayment(), { chargedAmount: 10000 }))).toEqual([
      issue('chargedAmount', 'too_big', ZERO)
    ])
    expect(issuesOf(foreign(cardPayment({ status: 'Reserved', chargeImmediately: false }), { refundedAmount: 1 }))).toEqual([
      issue('refundedAmount', 'too_big', ZERO)
    ])
    expect(issuesOf(foreign(invoicePayment(), { excessRefundedAmount: 1 }))).toEqual([
      issue('excessRefundedAmount', 'too_big', ZERO)
    ])
  })

  it('an invalid charged or refunded amount is reported once, not as "must be 0"', () => {
    // kills 423:9 (`charged !== undefined` → true), 424:9 (`refunded !== undefined` → true)
    expect(issuesOf(foreign(cardPayment(), { chargedAmount: 'none' }))).toEqual([issue('chargedAmount', ...NOT_NUMBER)])
    expect(issuesOf(foreign(cardPayment(), { refundedAmount: 'none' }))).toEqual([issue('refundedAmount', ...NOT_NUMBER)])
  })

  it('a Cancelled payment has an empty allocation; an allocation that is not a list is reported once', () => {
    // kills 427:33 (template → ``), 426:9 (`m.allocationLength !== undefined` → true)
    expect(issuesOf(foreign(cardPayment({ status: 'Cancelled', allocation: chargedCard().allocation })))).toEqual([
      issue('allocation', 'too_many', ZERO)
    ])
    expect(issuesOf(foreign(cardPayment(), { allocation: 'none' }))).toEqual([issue('allocation', 'type', { expected: 'array' })])
  })

  it('grossAmount is at least 1 before the charge: 1 passes, 0 is told so (and nothing about paidAmount)', () => {
    // kills 429:32 (`gross < 1` → `gross <= 1`), 429:70 (template → ``),
    // 430:9 (the `&&` before `paid !== undefined` → `||`; `status === 'Initiated' && kind === 'invoice'` → true;
    // its `&&` → `||`),
    // 430:35 (`kind === 'invoice'` → true): a card's paidAmount 0 is not below grossAmount 0
    const one = makeSplits(ids.cardPayment, [{ connectedAccountID: ids.seller, amount: 1, isFee: false }])
    expect(rightOf(foreign(cardPayment({ grossAmount: 1, moneySplits: one })))).toMatchObject({ grossAmount: 1 })
    const zero = makeSplits(ids.cardPayment, [{ connectedAccountID: ids.seller, amount: 0, isFee: false }])
    expect(issuesOf(foreign(cardPayment({ grossAmount: 0, moneySplits: zero })))).toEqual([
      issue('grossAmount', 'too_small', { min: 1 })
    ])
  })

  it('an Initiated invoice is not yet fully paid, said with its gross; a Reserved one is told only its status', () => {
    // kills 431:33 (template → ``), 430:9 (`status === 'Initiated'` → true)
    expect(issuesOf(foreign(invoicePayment({ paidAmount: 5000 })))).toEqual([
      issue('paidAmount', 'too_big', { max: 'grossAmount - 1' })
    ])
    expect(issuesOf(foreign(invoicePayment({ status: 'Reserved', paidAmount: 5000 })))).toEqual([
      issue('status', 'not_one_of', { allowed: ['Initiated', 'Charged', 'Refunded'] })
    ])
  })
})

// -------------------------------------------------------------------------------------
// once charged
// -------------------------------------------------------------------------------------

describe('validateState: once charged, the amounts agree', () => {
  it('a valid Charged payment with a grossAmount above 0 is accepted', () => {
    // the valid states the broken ones below start from
    expect(rightOf(foreign(chargedCard()))).toEqual(chargedCard())
    expect(rightOf(foreign(chargedInvoice()))).toEqual(chargedInvoice())
  })

  it('refundedAmount at most chargedAmount, and chargedAmount = grossAmount + refundedAmount, said with the amounts', () => {
    // kills 437:37 and 439:36 (templates → ``)
    expect(issuesOf(foreign(chargedCard(), { refundedAmount: 10001 }))).toEqual([
      issue('refundedAmount', 'too_big', { max: 'chargedAmount' })
    ])
    expect(issuesOf(foreign(chargedCard(), { refundedAmount: 1 }))).toEqual([
      issue('chargedAmount', 'not_one_of', { allowed: ['grossAmount + refundedAmount'] })
    ])
  })

  it('an invalid grossAmount of a charged payment is reported once, not compared with the charge', () => {
    // kills 435:58 (`gross !== undefined` → true)
    expect(issuesOf(foreign(chargedCard(), { grossAmount: -1 }))).toEqual([issue('grossAmount', ...NEGATIVE)])
  })

  it('excessRefundedAmount at most refundedAmount, said with it', () => {
    // kills 443:41 (template → ``)
    expect(issuesOf(foreign(chargedInvoice(), { excessRefundedAmount: 701 }))).toEqual([
      issue('excessRefundedAmount', 'too_big', { max: 'refundedAmount' }),
      issue('allocation', 'sum_mismatch')
    ])
  })

  it('Σ allocation = chargedAmount − excessRefundedAmount, said with that difference', () => {
    // kills 452:31 (template → ``), 452:99 (`charged - excess` → `charged + excess` in the sentence)
    const allocation = chargedInvoice().allocation.map((a) => (a.splitID === 1 ? { ...a, amount: 4501 } : a))
    expect(issuesOf(foreign(chargedInvoice(), { allocation }))).toEqual([
      issue('allocation', 'sum_mismatch')
    ])
  })

  it('an allocation with an invalid amount is not summed', () => {
    // kills 446:5 (`m.allocationSum !== undefined` → true)
    expect(issuesOf(foreign(chargedCard(), { allocation: allocationWith({ 1: { amount: -1 } }) }))).toEqual([
      issue('allocation.0.amount', ...NEGATIVE),
      issue('moneySplits.0.splitID', 'not_one_of', { allowed: ['allocation.*.splitID'] })
    ])
  })

  it('an excess above chargedAmount is told once, with no allocation sum below 0 to meet', () => {
    // kills 449:5 (`excess <= charged` → true)
    expect(issuesOf(foreign(chargedInvoice(), { excessRefundedAmount: 6000 }))).toEqual([
      issue('excessRefundedAmount', 'too_big', { max: 'refundedAmount' })
    ])
  })

  it('an excess equal to chargedAmount still checks the allocation: it must then add up to 0', () => {
    // kills 449:5 (`excess <= charged` → `excess < charged`)
    expect(issuesOf(foreign(chargedInvoice(), { refundedAmount: 5700, excessRefundedAmount: 5700 }))).toEqual([
      issue('chargedAmount', 'not_one_of', { allowed: ['grossAmount + refundedAmount'] }),
      issue('allocation', 'sum_mismatch')
    ])
  })

  it('a Refunded payment has grossAmount 0; an invalid one is reported once', () => {
    // kills 455:32 (message → ""), 454:32 (`gross !== undefined` → true)
    expect(issuesOf(foreign(chargedCard(), { status: 'Refunded' }))).toEqual([
      issue('grossAmount', 'too_big', ZERO)
    ])
    expect(rightOf(foreign(refundAll(chargedCard())))).toEqual(refundAll(chargedCard()))
    expect(issuesOf(foreign(refundAll(chargedCard()), { grossAmount: -1 }))).toEqual([issue('grossAmount', ...NEGATIVE)])
  })

  it('a charged invoice has chargedAmount = paidAmount, said with it; an invalid one of the two is reported once', () => {
    // kills 458:34 (template → ``), 457:29 (`charged !== undefined` → true), 457:54 (`paid !== undefined` → true)
    expect(issuesOf(foreign(chargedInvoice(), { paidAmount: 5000 }))).toEqual([
      issue('chargedAmount', 'not_one_of', { allowed: ['paidAmount'] })
    ])
    expect(issuesOf(foreign(chargedInvoice(), { chargedAmount: 'none' }))).toEqual([issue('chargedAmount', ...NOT_NUMBER)])
    expect(issuesOf(foreign(chargedInvoice(), { paidAmount: 'none' }))).toEqual([issue('paidAmount', ...NOT_NUMBER)])
  })
})

// -------------------------------------------------------------------------------------
// the kind, KID and form attempts; the copy returned
// -------------------------------------------------------------------------------------

describe('validateState: kind, KID and form attempts', () => {
  it('a kind that does not match the gateway is told the right one; an invalid kind is reported once', () => {
    // kills 479:25 (template → ``), 478:7 (`kind !== undefined` → true)
    expect(issuesOf(foreign(cardPayment(), { kind: 'invoice', kid: validKid }))).toEqual([
      issue('kind', 'not_one_of', { allowed: ['card'] })
    ])
    expect(issuesOf(foreign(cardPayment(), { kind: 'cash' }))).toEqual([issue('kind', 'not_one_of', { allowed: ['card', 'invoice'] })])
  })

  it('a card has no KID, and an invoice no form attempts, said in words', () => {
    // kills 506:66 and 509:33 (messages → "")
    expect(issuesOf(foreign(cardPayment(), { kid: validKid }))).toEqual([issue('kid', 'too_long', ZERO)])
    expect(issuesOf(foreign(invoicePayment(), { formAttempts: [{ at: createdAt }] }))).toEqual([
      issue('formAttempts', 'too_many', ZERO)
    ])
  })
})

describe('validateState: the copy returned', () => {
  it('leaves absent optional fields absent: no chargeImmediately on an invoice, no tag, no kid on a card', () => {
    // kills 567:7, 568:7 and 571:7 (conditions → true: the key set to undefined)
    const invoice = rightOf(foreign(invoicePayment())) as Payment
    expect(Object.keys(invoice)).not.toContain('chargeImmediately')
    expect(Object.keys(invoice)).not.toContain('externalObjectIdTag')
    const card = rightOf(foreign(cardPayment(), { externalObjectIdTag: undefined })) as Payment
    expect(Object.keys(card)).not.toContain('externalObjectIdTag')
    expect(Object.keys(card)).not.toContain('kid')
    expect(Object.keys(card)).toContain('chargeImmediately')
  })

  it('a value that is not an object is told what a state is', () => {
    // kills 611:36 (message → "")
    for (const input of [42, null, 'Charged', [cardPayment()]]) {
      expect(validateState(input)).toEqual(
        E.left({
          code: 'ValidationFailed',
          message: 'The input is not valid: 1 problem (see issues).',
          issues: [makeIssue('state', 'type', { expected: 'object' })]
        })
      )
    }
  })
})
