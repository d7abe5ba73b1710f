/**
 * The hot-path rewrites of the performance work change no answer: each faster form is checked
 * against the form it replaced (kept here as the oracle), on generated strings near the edges and
 * on hand-picked cases; and the metaData a create stores is the decoded one, key for key, whether
 * or not it takes the shared-map copy.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { transition, initialState } from '../../src/index.js'
import type { Payment } from '../../src/payment.js'
import { isEmail, isHttpUrl, isTimestamp, isUuid } from '../../src/codecs/validators.js'
import { at, cardRequest, create } from '../support/builders.js'

// -------------------------------------------------------------------------------------
// the forms replaced, as oracles
// -------------------------------------------------------------------------------------

const SPACE_OR_CONTROL = /[\0- \x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/

const oldUuid = (s: string): boolean =>
  s.length === 36 && /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i.test(s)

const oldEmail = (s: string): boolean =>
  s.length <= 254 && !SPACE_OR_CONTROL.test(s) && /^[^@]{1,64}@[^@.]+(?:\.[^@.]+)+$/.test(s)

const oldHttpUrl = (s: string): boolean => {
  if (s.length > 2048 || SPACE_OR_CONTROL.test(s)) return false
  if (/^https?:\/\/(?:(?!xn--)[a-z\d-]+\.)*(?!xn--)[a-z][a-z\d-]*(?:[/?#]|$)/i.test(s)) return true
  try {
    const url = new URL(s)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
  } catch {
    return false
  }
}

const digits = (s: string, from: number, to: number): number => Number(s.slice(from, to))
const oldTimestamp = (s: unknown): boolean => {
  if (
    typeof s !== 'string' ||
    !/^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{1,9}Z$/.test(s)
  ) {
    return false
  }
  const year = digits(s, 0, 4)
  const month = digits(s, 5, 7)
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  return digits(s, 8, 10) <= days
}

// -------------------------------------------------------------------------------------
// strings near the edges
// -------------------------------------------------------------------------------------

/** One character of each kind the expressions tell apart, spaces and controls included. */
const edgeChar = fc.constantFrom(
  'a', 'F', 'g', '0', '9', '-', '.', '@', '/', '?', '#', ':', ' ', '\t', '\0', '\x7f', '\xa0',
  '\u1680', '\u2000', '\u2028', '\u3000', 'é', 'K', '\u017f', 'Z', 'T'
)

/** `base` with up to three characters replaced or inserted. */
const mutated = (base: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(base, fc.array(fc.tuple(fc.nat(), edgeChar, fc.boolean()), { maxLength: 3 }))
    .map(([s, edits]) => {
      let out = s
      for (const [i, c, insert] of edits) {
        const k = out.length === 0 ? 0 : i % out.length
        out = out.slice(0, k) + c + out.slice(insert ? k : k + 1)
      }
      return out
    })

const hex = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''))
const hexes = (n: number): fc.Arbitrary<string> => fc.array(hex, { minLength: n, maxLength: n }).map((a) => a.join(''))
const uuidLike = fc
  .tuple(hexes(8), hexes(4), hexes(4), hexes(4), hexes(12))
  .map((parts) => parts.join('-'))

const pad = (n: number, width: number): string => String(n).padStart(width, '0')
const timestampLike = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    fraction: fc.stringMatching(/^\d{1,10}$/)
  })
  .map(
    (t) =>
      `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}.${t.fraction}Z`
  )

const label = fc.stringMatching(/^[a-z\d-]{1,8}$/)
const urlLike = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', 'https:/'),
    fc.array(label, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('', '/', '/a b', '/path?x=1', '#frag', ':8080/', '/\u2028', '?q=\x7f')
  )
  .map(([scheme, labels, rest]) => scheme + labels.join('.') + rest)

const emailLike = fc
  .tuple(fc.stringMatching(/^[a-z.]{0,66}$/), fc.array(label, { minLength: 1, maxLength: 3 }))
  .map(([local, labels]) => `${local}@${labels.join('.')}`)

describe('the faster validators answer as the forms they replaced', () => {
  it('isUuid (the 32 digits written out)', () => {
    fc.assert(fc.property(mutated(uuidLike), (s) => isUuid(s) === oldUuid(s)))
    for (const s of ['0B7B7F5E-6F3A-4C59-9A52-8F1B2A6F0C11', '0b7b7f5e-6f3a-4c59-9a52-8f1b2a6f0c1', '0b7b7f5e-6f3a-4c59-9a52-8f1b2a6f0c1\u017f']) {
      expect(isUuid(s)).toBe(oldUuid(s))
    }
  })

  it('isTimestamp (the year written out, days 01–28 without the month)', () => {
    fc.assert(fc.property(fc.oneof(timestampLike, mutated(timestampLike)), (s) => isTimestamp(s) === oldTimestamp(s)))
    for (const s of [
      '2024-02-29T00:00:00.0Z', '2023-02-29T00:00:00.0Z', '1900-02-29T00:00:00.0Z', '2000-02-29T00:00:00.0Z',
      '2026-02-28T23:59:59.999999999Z', '2026-04-30T10:00:00.000Z', '2026-04-31T10:00:00.000Z', '2026-12-31T10:00:00.000Z'
    ]) {
      expect(isTimestamp(s)).toBe(oldTimestamp(s))
    }
  })

  it('isEmail (one pass: the classes leave out spaces and controls)', () => {
    fc.assert(fc.property(fc.oneof(emailLike, mutated(emailLike)), (s) => isEmail(s) === oldEmail(s)))
    for (const s of ['kari nordmann@example.no', 'kari@exa\u2028mple.no', 'kari@example.no\t', 'kari@example.no']) {
      expect(isEmail(s)).toBe(oldEmail(s))
    }
  })

  it('isHttpUrl (the fast path refuses spaces and controls itself)', () => {
    fc.assert(fc.property(fc.oneof(urlLike, mutated(urlLike)), (s) => isHttpUrl(s) === oldHttpUrl(s)))
    for (const s of ['https://shop.example/a b', 'https://shop.example/\u3000', 'https://shop.example', 'https://shop.example/ok?x=\xa0', 'HTTPS://SHOP.EXAMPLE/OK']) {
      expect(isHttpUrl(s)).toBe(oldHttpUrl(s))
    }
  })
})

// -------------------------------------------------------------------------------------
// the metaData a create stores
// -------------------------------------------------------------------------------------

/** The payment and events of a card create with `metaData`. */
const createWith = (metaData: object) => {
  const r = transition(initialState, create(cardRequest({ metaData }), { at: at(0) }))
  if (r._tag === 'Left') throw new Error(r.left.message)
  const [state, events] = r.right
  return { payment: state as Payment, created: events[0] }
}

describe('the metaData a create stores', () => {
  it('is the decoded one, in its key order, frozen and shared with the PaymentCreated event', () => {
    const metaData = { orderNumber: '1001', 2: 'two', channel: 'web', items: 3, gift: false, note: null }
    const { payment, created } = createWith(metaData)
    expect(payment.metaData).toEqual(metaData)
    expect(Object.keys(payment.metaData)).toEqual(Object.keys({ ...metaData }))
    expect(payment.metaData).not.toBe(metaData)
    expect(Object.isFrozen(payment.metaData)).toBe(true)
    expect(Object.getPrototypeOf(payment.metaData)).toBe(Object.prototype)
    expect(created?.type === 'PaymentCreated' && created.request.metaData).toBe(payment.metaData)
  })

  it('keeps a key Object.prototype has as an own data property (the copy that meets no setter)', () => {
    const metaData = JSON.parse('{"a":"1","__proto__":"x","toString":"y"}') as object
    const { payment, created } = createWith(metaData)
    expect(Object.getPrototypeOf(payment.metaData)).toBe(Object.prototype)
    expect(Object.keys(payment.metaData)).toEqual(['a', '__proto__', 'toString'])
    expect(Object.getOwnPropertyDescriptor(payment.metaData, '__proto__')?.value).toBe('x')
    expect(Object.isFrozen(payment.metaData)).toBe(true)
    expect(created?.type === 'PaymentCreated' && created.request.metaData).toBe(payment.metaData)
  })

  it('is right for an empty metaData too', () => {
    const { payment } = createWith({})
    expect(payment.metaData).toEqual({})
    expect(Object.isFrozen(payment.metaData)).toBe(true)
  })
})

// -------------------------------------------------------------------------------------
// the full refund over frozen splits
// -------------------------------------------------------------------------------------

describe('a full refund', () => {
  it('zeroes every split, shares the ones at 0 already, and lists the others as refunded', () => {
    let s = createWith({}).payment as unknown as Parameters<typeof transition>[0]
    for (const [i, command] of [
      { type: 'CompletePaymentForm' },
      { type: 'ChargePayment' },
      {
        type: 'RefundPartially',
        patch: {
          moneySplitPatch: [
            { splitID: 1, updateType: 'UpdateAmount', newAmount: 0 },
            { splitID: 2, updateType: 'DoNothing' },
            { splitID: 3, updateType: 'DoNothing' }
          ],
          newGrossAmount: 3000
        }
      }
    ].entries()) {
      const r = transition(s, { ...command, at: at(i + 1) } as never)
      if (r._tag === 'Left') throw new Error(r.left.message)
      s = r.right[0]
    }
    const before = s as Payment
    const r = transition(before, { type: 'RefundPayment', at: at(9) })
    if (r._tag === 'Left') throw new Error(r.left.message)
    const [after, events] = r.right as unknown as readonly [Payment, ReadonlyArray<{ readonly refundedSplit?: ReadonlyArray<{ readonly refundAmount: number }> }>]
    expect(after.moneySplits.map((x) => x.amount)).toEqual([0, 0, 0])
    expect(after.moneySplits[0]).toBe(before.moneySplits[0])
    expect(after.moneySplits[1]).not.toBe(before.moneySplits[1])
    expect(Object.isFrozen(after.moneySplits) && after.moneySplits.every((x) => Object.isFrozen(x))).toBe(true)
    expect(events[0]?.refundedSplit?.map((x) => x.refundAmount)).toEqual([2000, 1000])
  })
})
