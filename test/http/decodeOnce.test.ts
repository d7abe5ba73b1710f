/**
 * One pass per request: POST /payments decodes the create body once (handle decodes it, the
 * decider takes the decoded request); the decoder's calls are counted by a spy on the module.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as checks from '../../src/codecs/requestChecks.js'
import { emptyWorld, handle } from '../../src/http.js'
import { transition } from '../../src/decider.js'
import { initialState } from '../../src/payment.js'
import { KID, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'

vi.mock('../../src/codecs/requestChecks.js', async (importOriginal) => {
  const original = await importOriginal<typeof checks>()
  return {
    ...original,
    checkRequest: vi.fn(original.checkRequest),
    validatePaymentIntentRequest: vi.fn(original.validatePaymentIntentRequest)
  }
})

// the codec's decodePaymentIntentRequest collects with checkRequest, the decider with
// validatePaymentIntentRequest: a request decoded is one call of either
const collectors = [vi.mocked(checks.checkRequest), vi.mocked(checks.validatePaymentIntentRequest)]
const decoder = {
  mockClear: (): void => {
    for (const c of collectors) c.mockClear()
  },
  calls: (): number => collectors.reduce((n, c) => n + c.mock.calls.length, 0)
}

describe('POST /payments decodes the request once', () => {
  beforeEach(() => {
    decoder.mockClear()
  })

  it('a card create, an invoice create, a repeat and a refused request: one decoder call each', () => {
    const ctx = { at: atOf(1), paymentReferenceID: idOf(1) }
    const { world, response: created } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctx)
    expect(created.status).toBe(201)
    expect(decoder.calls()).toBe(1)
    const { response: invoice } = handle(world, { method: 'POST', path: '/payments', body: invoiceRequest() }, { ...ctx, paymentReferenceID: idOf(2), kid: KID })
    expect(invoice.status).toBe(201)
    expect(decoder.calls()).toBe(2)
    expect(handle(world, { method: 'POST', path: '/payments', body: cardRequest() }, { ...ctx, paymentReferenceID: idOf(3) }).response.status).toBe(200)
    expect(decoder.calls()).toBe(3)
    expect(handle(world, { method: 'POST', path: '/payments', body: cardRequest({ grossAmount: 1 }) }, ctx).response.status).toBe(400)
    expect(decoder.calls()).toBe(4)
  })

  it('the spy counts the decider\'s own decoding too (transition decodes the request it is given)', () => {
    transition(initialState, { type: 'CreatePayment', at: atOf(1), paymentReferenceID: idOf(1), request: cardRequest() as never })
    expect(decoder.calls()).toBe(1)
  })
})
