/**
 * Rows checked once (docs/service.md, "Rows checked once"): the reference service keeps the checked
 * payment of a row by its id and version, gives it back only for the very stored text it was checked
 * from, and keeps a bounded number of rows, the least recently used going first.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Payment, PaymentError } from '../../src/index.js'
import { emptyWorld, handle } from '../../src/http.js'
import { AdmittedRows } from '../../docs/examples/service/db/admitted.js'
import { storedPayment } from '../../docs/examples/service/paysplit.js'
import { cardRequest } from '../support/http.fixtures.js'

const idOf = (n: number): string => `0b7e3f1c-2a4d-4e8f-9c1b-${n.toString(16).padStart(12, '0')}`

/** The stored text of a new payment, as a database gives it back. */
const rowOf = (n: number): { readonly id: string; readonly text: string } => {
  const id = idOf(n)
  const { changes } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: `admitted-${String(n)}` }) }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: id })
  return { id, text: JSON.stringify(changes.payments[0]?.state) }
}

/** `storedPayment`, counting its calls. */
const counting = (): { check: (state: unknown) => E.Either<PaymentError, Payment>; readonly calls: () => number } => {
  let calls = 0
  return {
    check: (state) => {
      calls++
      return storedPayment(state)
    },
    calls: () => calls
  }
}

describe('rows checked once', () => {
  it('a row read again with the same id, version and text is not checked again: the same frozen payment', () => {
    const admitted = new AdmittedRows(10)
    const { check, calls } = counting()
    const { id, text } = rowOf(1)
    const first = admitted.admit(id, 1, text, check)
    const again = admitted.admit(id, 1, text, check)
    expect(calls()).toBe(1)
    expect(E.isRight(first) && E.isRight(again) && first.right === again.right).toBe(true)
    expect(E.isRight(first) && Object.isFrozen(first.right)).toBe(true)
  })

  it('another text under the same id and version (a row edited by hand) is checked again; a refused row is not kept', () => {
    const admitted = new AdmittedRows(10)
    const { check, calls } = counting()
    const { id, text } = rowOf(2)
    admitted.admit(id, 1, text, check)
    const edited = text.replace('"grossAmount":10000', '"grossAmount":-1')
    expect(edited).not.toBe(text)
    expect(E.isLeft(admitted.admit(id, 1, edited, check))).toBe(true)
    expect(E.isLeft(admitted.admit(id, 1, edited, check))).toBe(true)
    expect(calls()).toBe(3)
    expect(admitted.size).toBe(1)
  })

  it('a row this process wrote is taken as paysplit returned it, under the text the database gave back', () => {
    const admitted = new AdmittedRows(10)
    const { check, calls } = counting()
    const { id, text } = rowOf(3)
    const written = storedPayment(JSON.parse(text))
    if (E.isLeft(written)) throw new Error('row')
    admitted.wrote(id, 1, text, written.right)
    const read = admitted.admit(id, 1, text, check)
    expect(calls()).toBe(0)
    expect(E.isRight(read) && read.right === written.right).toBe(true)
  })

  it('bounded: past its capacity the least recently used row goes; capacity 0 keeps none', () => {
    const admitted = new AdmittedRows(2)
    const { check, calls } = counting()
    const rows = [rowOf(4), rowOf(5), rowOf(6)]
    const [a, b, c] = rows as [ReturnType<typeof rowOf>, ReturnType<typeof rowOf>, ReturnType<typeof rowOf>]
    admitted.admit(a.id, 1, a.text, check)
    admitted.admit(b.id, 1, b.text, check)
    admitted.admit(a.id, 1, a.text, check) // a used last: b is the least recently used
    admitted.admit(c.id, 1, c.text, check)
    expect(admitted.size).toBe(2)
    expect(calls()).toBe(3)
    admitted.admit(a.id, 1, a.text, check)
    expect(calls()).toBe(3)
    admitted.admit(b.id, 1, b.text, check)
    expect(calls()).toBe(4)
    const none = new AdmittedRows(0)
    none.admit(a.id, 1, a.text, check)
    none.admit(a.id, 1, a.text, check)
    expect([calls(), none.size]).toStrictEqual([6, 0])
  })
})
