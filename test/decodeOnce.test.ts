/**
 * One pass per request: POST /payments decodes the create body once (handle decodes it, the
 * decider takes the decoded request); the decoder's calls are counted by a spy on the module.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as checks from '../src/codecs/requestChecks.js'
import { emptyWorld, handle } from '../src/http.js'
import { transition } from '../src/decider.js'
import { initialState } from '../src/payment.js'
import { KID, atOf, cardRequest, idOf, invoiceRequest } from './http.fixtures.js'

vi.mock('../src/codecs/requestChecks.js', async (importOriginal) => {
  const original = await importOriginal<typeof checks>()
  return { ...original, validatePaymentIntentRequest: vi.fn(original.validatePaymentIntentRequest) }
})

const decoder = vi.mocked(checks.validatePaymentIntentRequest)

describe('POST /payments decodes the request once', () => {
  beforeEach(() => {
    decoder.mockClear()
  })

  it('a card create, an invoice create, a repeat and a refused request: one decoder call each', () => {
    const ctx = { at: atOf(1), paymentReferenceID: idOf(1) }
    const [world, created] = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctx)
    expect(created.status).toBe(201)
    expect(decoder).toHaveBeenCalledTimes(1)
    const [, invoice] = handle(world, { method: 'POST', path: '/payments', body: invoiceRequest() }, { ...ctx, paymentReferenceID: idOf(2), kid: KID })
    expect(invoice.status).toBe(201)
    expect(decoder).toHaveBeenCalledTimes(2)
    expect(handle(world, { method: 'POST', path: '/payments', body: cardRequest() }, { ...ctx, paymentReferenceID: idOf(3) })[1].status).toBe(200)
    expect(decoder).toHaveBeenCalledTimes(3)
    expect(handle(world, { method: 'POST', path: '/payments', body: cardRequest({ grossAmount: 1 }) }, ctx)[1].status).toBe(400)
    expect(decoder).toHaveBeenCalledTimes(4)
  })

  it('the spy counts the decider\'s own decoding too (transition decodes the request it is given)', () => {
    transition(initialState, { type: 'CreatePayment', at: atOf(1), paymentReferenceID: idOf(1), request: cardRequest() as never })
    expect(decoder).toHaveBeenCalledTimes(1)
  })
})
