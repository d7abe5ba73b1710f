/**
 * Lists bounded before they are walked, and errors bounded whatever the input (docs/rules.md,
 * "Lists bounded" and "Errors bounded"; docs/decisions.md, "Lists bounded" and "Replay"): a list
 * that claims 2^32−1 entries gets a clear `ValidationFailed` without one of its entries being
 * read; a `PatchSplitMismatch` lists at most 100 splitIDs of each kind, the lowest; the JSON of an
 * error stays under 64,000 bytes.
 */
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import {
  applyPatch,
  deleteSplitsPatch,
  invalid,
  evolve,
  initialState,
  replay,
  setAmountsPatch,
  transition,
  type MoneySplit,
  type Payment,
  type PaymentError,
  type PaymentEvent,
  type PaymentState
} from '../../src/index.js'
import { chargedCardWith } from '../support/fixtures.js'
import { KID, PAYMENT_ID, at, complete, create, createInvoice, refundPartially, transfer } from '../support/builders.js'

const HUGE = 2 ** 32 - 1
const AT = '2026-11-21T10:00:00.000Z'

const account = (i: number): string => `b7f2a1c4-0000-4000-8000-${String(i).padStart(12, '0')}`

/** A Charged card payment with `n` splits of 1 each, splitIDs 1..n. */
const paymentWith = (n: number): Payment => {
  const splits: MoneySplit[] = Array.from({ length: n }, (_, i) => ({
    splitID: i + 1,
    paymentReferenceID: PAYMENT_ID,
    connectedAccountID: account(i + 1),
    amount: 1,
    insertTime: AT,
    isFee: false
  }))
  return chargedCardWith(PAYMENT_ID, AT, splits)
}

const p3 = paymentWith(3)

const left = <A>(r: E.Either<PaymentError, A>): PaymentError => {
  if (E.isRight(r)) throw new Error('expected a refusal')
  return r.left
}

/** An array with a length of 2^32−1 and no element. */
const holes = (): unknown[] => {
  const a: unknown[] = []
  a.length = HUGE
  return a
}

/** A proxy that claims 2^32−1 entries, each `entry`, and counts the entries read. */
const claiming = (entry: unknown): { readonly list: unknown[]; readonly reads: () => number } => {
  let reads = 0
  const list = new Proxy([] as unknown[], {
    get(target, key, receiver) {
      if (key === 'length') return HUGE
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        reads++
        return entry
      }
      return Reflect.get(target, key, receiver) as unknown
    },
    has(_target, key) {
      return key === 'length' || (typeof key === 'string' && /^\d+$/.test(key))
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        reads++
        return { value: entry, writable: true, enumerable: true, configurable: true }
      }
      return Reflect.getOwnPropertyDescriptor(target, key)
    }
  })
  return { list, reads: () => reads }
}

/** The refusal of a list longer than twice the payment's splits plus 100 (3 splits here: 106). */
const tooLong = (path: string, max = 106): PaymentError => invalid(path, 'too_many', { max })

describe('lists bounded: a list claiming 2^32−1 entries is refused before it is walked', () => {
  it('deleteSplitsPatch: an array of that length, and a proxy claiming it', () => {
    expect(left(deleteSplitsPatch(p3, holes() as number[]))).toEqual(tooLong('splitIDs'))
    const proxy = claiming(1)
    expect(left(deleteSplitsPatch(p3, proxy.list as number[]))).toEqual(tooLong('splitIDs'))
    expect(proxy.reads()).toBe(0)
  })

  it('setAmountsPatch: an array of that length, and a proxy claiming it', () => {
    expect(left(setAmountsPatch(p3, holes() as never))).toEqual(tooLong('amounts'))
    const proxy = claiming({ splitID: 1, amount: 0 })
    expect(left(setAmountsPatch(p3, proxy.list as never))).toEqual(tooLong('amounts'))
    expect(proxy.reads()).toBe(0)
  })

  it('applyPatch: a patch whose entries claim that length', () => {
    const patch = (list: unknown[]): never => ({ moneySplitPatch: list, newGrossAmount: 0 }) as never
    expect(left(applyPatch(p3, patch(holes())))).toEqual(tooLong('moneySplitPatch'))
    const proxy = claiming({ splitID: 1, updateType: 'DoNothing' })
    expect(left(applyPatch(p3, patch(proxy.list)))).toEqual(tooLong('moneySplitPatch'))
    expect(proxy.reads()).toBe(0)
  })

  it('transition: a partial refund or an adjustment whose patch claims that length', () => {
    const proxy = claiming({ splitID: 1, updateType: 'DoNothing' })
    const patch = { moneySplitPatch: proxy.list, newGrossAmount: 0 } as never
    expect(left(transition(p3, refundPartially(patch)))).toEqual(tooLong('moneySplitPatch'))
    const invoice = transition(initialState, createInvoice())
    expect(E.isRight(invoice)).toBe(true)
    if (E.isRight(invoice)) {
      const r = transition(invoice.right[0], { type: 'AdjustInvoice', at: at(2), patch })
      expect(left(r)).toEqual(tooLong('moneySplitPatch'))
    }
    expect(proxy.reads()).toBe(0)
  })

  it('within the bound (twice the splits, plus 100) a list still gets its PatchSplitMismatch', () => {
    expect(left(deleteSplitsPatch(p3, [1, 1, 2, 2, 3, 3]))).toMatchObject({ code: 'PatchSplitMismatch', repeated: [1, 2, 3] })
    const unknown = Array.from({ length: 106 }, (_, i) => 10 + i)
    expect(left(deleteSplitsPatch(p3, unknown)).code).toBe('PatchSplitMismatch')
    expect(left(deleteSplitsPatch(p3, [...unknown, 1]))).toEqual(tooLong('splitIDs'))
  })
})

describe('replay: holes skipped, as reduce skips them; a huge sparse list walked by its keys', () => {
  const lifecycle = (): ReadonlyArray<PaymentEvent> => {
    const events: PaymentEvent[] = []
    let s: PaymentState = initialState
    for (const c of [create(), complete(1)]) {
      const r = transition(s, c)
      if (E.isLeft(r)) throw new Error(r.left.message)
      s = r.right[0]
      events.push(...r.right[1])
    }
    return events
  }

  it('a list with holes replays as events.reduce(evolve, initialState)', () => {
    const [created, reserved] = lifecycle()
    const sparse: PaymentEvent[] = []
    sparse[2] = created as PaymentEvent
    sparse[5] = reserved as PaymentEvent
    expect(replay(sparse)).toEqual(sparse.reduce(evolve, initialState))
    expect(replay(sparse)).toEqual(replay([created as PaymentEvent, reserved as PaymentEvent]))
  })

  it('a list of length 2^32−1 holding two events replays those two, in index order', () => {
    const [created, reserved] = lifecycle()
    const sparse = holes() as PaymentEvent[]
    sparse[HUGE - 1] = reserved as PaymentEvent
    sparse[7] = created as PaymentEvent
    expect(replay(sparse)).toEqual(replay([created as PaymentEvent, reserved as PaymentEvent]))
    expect(replay(holes() as PaymentEvent[])).toBe(initialState)
  })

  it('anything but an array replays to initialState', () => {
    for (const u of [undefined, null, 42, 'events', {}, { length: 3 }]) expect(replay(u as never)).toBe(initialState)
  })
})

describe('errors bounded: the JSON of any error stays under 64,000 bytes', () => {
  const size = (e: PaymentError): number => Buffer.byteLength(JSON.stringify(e))

  it('a 1 MiB patch of {} entries', () => {
    const entries = Array.from({ length: (1 << 20) / 3 }, () => ({}))
    const patch = { moneySplitPatch: entries, newGrossAmount: 0 } as never
    const e = left(transition(p3, refundPartially(patch)))
    expect(e.code).toBe('ValidationFailed')
    expect(size(e)).toBeLessThan(64_000)
    expect(size(left(applyPatch(p3, patch)))).toBeLessThan(64_000)
  })

  it('100 000 unknown splitIDs: each list of PatchSplitMismatch holds the lowest 100', () => {
    const payment = paymentWith(100_000)
    const unknown = Array.from({ length: 100_000 }, (_, i) => 300_000 - i)
    const lowest = Array.from({ length: 100 }, (_, i) => 200_001 + i)
    const patch = {
      moneySplitPatch: unknown.map((splitID) => ({ splitID, updateType: 'DoNothing' })),
      newGrossAmount: 0
    } as never
    const results: ReadonlyArray<E.Either<PaymentError, unknown>> = [transition(payment, refundPartially(patch)), applyPatch(payment, patch)]
    for (const r of results) {
      const e = left(r)
      expect(e.code).toBe('PatchSplitMismatch')
      expect(e.unknown).toEqual(lowest)
      expect(e.missing).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
      expect(size(e)).toBeLessThan(64_000)
    }
    const d = left(deleteSplitsPatch(payment, unknown))
    expect(d.unknown).toEqual(lowest)
    expect(size(d)).toBeLessThan(64_000)
    const twice = left(deleteSplitsPatch(payment, [...unknown.slice(0, 1000), ...unknown.slice(0, 1000)]))
    expect(twice.repeated).toEqual(lowest.map((id) => id + 99_000))
  })

  it('no message quotes the input: a 1 MB KID, a huge amount', () => {
    const invoice = transition(initialState, createInvoice())
    if (E.isLeft(invoice)) throw new Error(invoice.left.message)
    const kid = KID.repeat(125_000)
    const e = left(transition(invoice.right[0], transfer(1, kid)))
    expect(e.code).toBe('KidMismatch')
    expect(e.message).not.toContain(KID)
    expect(size(e)).toBeLessThan(200)
    const raised = left(setAmountsPatch(p3, [{ splitID: 1, amount: 987_654_321 }]))
    expect(raised.message).not.toContain('987654321')
  })
})
