import fc from 'fast-check'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import type { PaymentStatus } from '../../src/payment.js'
import { longStatus, parseStatus, paymentStatuses } from '../../src/status.js'

const shortForms: ReadonlyArray<PaymentStatus> = ['Initiated', 'Reserved', 'Charged', 'Cancelled', 'Refunded']
const longForms = ['InitiatedPayment', 'ReservedPayment', 'ChargedPayment', 'CancelledPayment', 'RefundedPayment']

describe('paymentStatuses', () => {
  it('lists the five statuses in lifecycle order', () => {
    expect(paymentStatuses).toEqual(shortForms)
  })
})

describe('parseStatus', () => {
  it.each(shortForms)('accepts the short form %s', (s) => {
    expect(parseStatus(s)).toEqual(O.some(s))
  })

  // I3: "In the service's wording they are also written InitiatedPayment, ReservedPayment and ChargedPayment"
  it('I3: accepts the service wording InitiatedPayment, ReservedPayment, ChargedPayment', () => {
    expect(parseStatus('InitiatedPayment')).toEqual(O.some('Initiated'))
    expect(parseStatus('ReservedPayment')).toEqual(O.some('Reserved'))
    expect(parseStatus('ChargedPayment')).toEqual(O.some('Charged'))
  })

  it('accepts the long forms of our own names, CancelledPayment and RefundedPayment', () => {
    expect(parseStatus('CancelledPayment')).toEqual(O.some('Cancelled'))
    expect(parseStatus('RefundedPayment')).toEqual(O.some('Refunded'))
  })

  it.each([
    'charged',
    'CHARGED',
    'chargedPayment',
    'Chargedpayment',
    ' Charged',
    'Charged ',
    'Payment',
    '',
    'NoPayment',
    'Canceled',
    'PartiallyRefunded',
    'toString',
    '__proto__',
    'constructor'
  ])('rejects %j (case-sensitive, nothing else)', (s) => {
    expect(parseStatus(s)).toEqual(O.none)
  })

  it.each([null, undefined, 42, true, {}, [], ['Charged'], new String('Charged'), Symbol('Charged')])(
    'rejects the non-string %s',
    (s) => {
      expect(parseStatus(s)).toEqual(O.none)
    }
  )

  it('gives none for any string that is not one of the ten forms', () => {
    const accepted = new Set<string>([...shortForms, ...longForms])
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!accepted.has(s))
        expect(parseStatus(s)).toEqual(O.none)
      })
    )
  })

  it('never throws and gives none for anything that is not a string', () => {
    fc.assert(
      fc.property(fc.anything(), (u) => {
        fc.pre(typeof u !== 'string')
        expect(parseStatus(u)).toEqual(O.none)
      })
    )
  })
})

describe('longStatus', () => {
  it('appends Payment: Charged → ChargedPayment', () => {
    expect(longStatus('Charged')).toBe('ChargedPayment')
    expect(paymentStatuses.map(longStatus)).toEqual(longForms)
  })

  it('round-trips through parseStatus', () => {
    for (const s of paymentStatuses) expect(parseStatus(longStatus(s))).toEqual(O.some(s))
  })
})
