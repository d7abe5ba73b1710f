/**
 * Branches of src/decider.ts that the other tests left uncovered (measured with
 * `npm run test:coverage`): a command that lacks one of its own fields altogether (not `undefined`
 * or wrong, but absent), read by the call-site property reads of the hot path.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Command } from '../../src/commands.js'
import { transition } from '../../src/decider.js'
import { initialState } from '../../src/payment.js'
import { at, cardRequest, charge, complete, create, paymentAfter, PAYMENT_ID } from '../support/builders.js'

/** What a JavaScript caller may send: the type says the field is required, the caller left it out. */
const untyped = (c: Record<string, unknown>): Command => c as unknown as Command

const failure = (r: ReturnType<typeof transition>): { code: string; paths: ReadonlyArray<string> } => {
  if (E.isRight(r)) throw new Error('the command was accepted')
  return { code: r.left.code, paths: (r.left.issues ?? []).map((i) => i.path) }
}

describe('a command without one of its own fields', () => {
  it('CreatePayment without paymentReferenceID: ValidationFailed at paymentReferenceID', () => {
    expect(failure(transition(initialState, untyped({ type: 'CreatePayment', at: at(0), request: cardRequest() })))).toEqual({ code: 'ValidationFailed', paths: ['paymentReferenceID'] })
  })

  it('CreatePayment without request: ValidationFailed, the request is not an object', () => {
    expect(failure(transition(initialState, untyped({ type: 'CreatePayment', at: at(0), paymentReferenceID: PAYMENT_ID })))).toEqual({ code: 'ValidationFailed', paths: [''] })
  })

  it('RefundPartially without patch: ValidationFailed, the patch is not an object (paths are the patch body\'s own)', () => {
    const charged = paymentAfter(create(), complete(), charge())
    expect(failure(transition(charged, untyped({ type: 'RefundPartially', at: at(3) })))).toEqual({ code: 'ValidationFailed', paths: [''] })
  })
})
