/**
 * The test server (test/support/server.ts) over real sockets on 127.0.0.1: every endpoint
 * through success and every rejection the seed names, status codes, bodies, transport errors,
 * and the webhooks a second local server receives (with retries).
 */
import { Webhook } from 'standardwebhooks'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kid } from '../../src/index.js'
import { createPaymentsServer, type PaymentsServer } from '../support/server.js'
import { cardRequest, invoiceRequest, patchOf } from '../support/http.fixtures.js'
import { Receiver, call } from '../support/server.fixtures.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let receiver: Receiver
let payments: PaymentsServer
let base = ''
let hooks = ''
let refs = 0

/** A fresh externalPaymentReferenceID per payment: the tests share one server. */
const ref = (prefix: string): string => `${prefix}-${String((refs += 1))}`

const create = async (body: Record<string, unknown>): Promise<string> => {
  const r = await call(base, 'POST', '/payments', body)
  expect(r.status).toBe(201)
  return r.body.paymentIntent.paymentCreated.paymentReferenceID as string
}

const stored = async (id: string) => {
  const p = await payments.payment(id)
  if (p === undefined) throw new Error(`no payment ${id}`)
  return p
}

const SECRET = 'whsec_' + Buffer.from('reference-server-test-secret-0123').toString('base64')

beforeAll(async () => {
  receiver = new Receiver()
  hooks = await receiver.start()
  payments = createPaymentsServer({
    catchAllUrl: `${hooks}/all`,
    maxBodyBytes: 16 * 1024,
    webhooks: { maxAttempts: 3, baseDelayMs: 5, timeoutMs: 2000, secret: SECRET }
  })
  base = await payments.listen(0, '127.0.0.1')
})

afterAll(async () => {
  await payments.close()
  await receiver.stop()
})

describe('a card payment charged later: create, reserve, charge, partial refund, full refund (I3)', () => {
  it('walks through every step with the seed bodies, status codes and webhooks', async () => {
    const id = await create(
      cardRequest({
        externalPaymentReferenceID: ref('walk'),
        webhookSubscriptions: [{ eventType: 'ChargedPayment', url: `${hooks}/charged` }]
      })
    )
    expect(id).toMatch(UUID)
    expect(await payments.completeForm(id)).toMatchObject(E.right({ status: 'Reserved' }))

    expect(await call(base, 'POST', `/payments/${id}/charge`)).toMatchObject({ status: 200, body: { success: true, error: null } })
    const again = await call(base, 'POST', `/payments/${id}/charge`)
    expect(again.status).toBe(409)
    expect(again.body).toStrictEqual({ success: false, error: expect.any(String) as string, code: 'ChargeNotAllowedInStatus' })

    const p = await stored(id)
    const partial = await call(base, 'POST', `/payments/${id}/refund/partially`, patchOf(p, { 1: 7000 }))
    expect(partial.status).toBe(200)
    expect(Object.keys(partial.body as object)).toStrictEqual(['splitList', 'refundedSplit', 'message', 'success'])
    expect(partial.body.refundedSplit).toStrictEqual([
      { refundAmount: 2000, connectedAccountID: p.moneySplits[0]?.connectedAccountID, description: 'Tickets', externalID: 'item-1', isFee: false }
    ])

    const refund = await call(base, 'POST', `/payments/${id}/refund`)
    expect(refund).toMatchObject({ status: 200, body: { response: expect.any(String) as string, success: true, error: null } })
    expect((await call(base, 'POST', `/payments/${id}/refund`)).status).toBe(409)
    expect((await call(base, 'POST', `/payments/${id}/cancel`)).status).toBe(409)
    expect(await stored(id)).toMatchObject({ status: 'Refunded', chargedAmount: 10000, refundedAmount: 10000, grossAmount: 0 })
    // C9: the reads over the wire
    const read = await call(base, 'GET', `/payments/${id}`)
    expect(read.status).toBe(200)
    expect(read.body.payment.paymentCreated.status).toBe('Refunded')
    const ext = read.body.payment.paymentCreated.externalPaymentReferenceID as string
    expect((await call(base, 'GET', `/payments?externalPaymentReferenceID=${encodeURIComponent(ext)}`)).body).toStrictEqual(read.body)
    expect((await call(base, 'GET', `/customers/${encodeURIComponent(read.body.payment.paymentCreated.customerExternalID as string)}`)).status).toBe(read.body.payment.customer === undefined ? 404 : 200)

    await payments.idle()
    const all = receiver.for('/all', id)
    expect(all.map((r) => [r.body.eventType, r.body.eventID, r.body.payload.payment.paymentCreated.status])).toStrictEqual([
      ['Initiated', `${id}:1`, 'Initiated'],
      ['Reserved', `${id}:2`, 'Reserved'],
      ['Charged', `${id}:3`, 'Charged'],
      ['PartiallyRefunded', `${id}:4`, 'Charged'],
      ['Refunded', `${id}:5`, 'Refunded']
    ])
    for (const r of all) {
      expect(r.headers['content-type']).toBe('application/json')
      expect(r.headers['x-paysplit-event-id']).toBe(r.body.eventID)
      expect(r.body.objectName).toBe('payment')
      // C10: a Standard Webhooks message, signed by the server, verified as a receiver would
      expect(r.headers['webhook-id']).toBe(r.body.eventID)
      const headers = Object.fromEntries(Object.entries(r.headers).filter((e): e is [string, string] => typeof e[1] === 'string'))
      expect(new Webhook(SECRET).verify(r.raw, headers)).toStrictEqual(r.body)
      expect(() => new Webhook(SECRET).verify(r.raw.replace('"payment"', '"pay"'), headers)).toThrow()
    }
    expect(receiver.for('/charged', id).map((r) => r.body.eventType)).toStrictEqual(['Charged'])
    const records = (await payments.deliveries()).filter((d) => d.paymentReferenceID === id)
    expect(records.every((d) => d.state === 'delivered' && d.attempts === 1 && d.lastStatus === 200)).toBe(true)
  })
})

describe('cards: the seed rules over the wire', () => {
  it('chargeImmediately true: the form charges at once; charge → 409 (I3 rule 3)', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('now'), chargeImmediately: true }))
    expect(await payments.completeForm(id)).toMatchObject(E.right({ status: 'Charged' }))
    expect(await call(base, 'POST', `/payments/${id}/charge`)).toMatchObject({ status: 409, body: { success: false } })
    expect((await call(base, 'POST', `/payments/${id}/cancel`)).status).toBe(409)
  })

  it('cancel of an Initiated or Reserved payment → 200 { response, success: true, error: null } (I3 rule 1)', async () => {
    const a = await create(cardRequest({ externalPaymentReferenceID: ref('cancel') }))
    expect(await call(base, 'POST', `/payments/${a}/cancel`)).toMatchObject({
      status: 200,
      body: { response: expect.any(String) as string, success: true, error: null }
    })
    const b = await create(cardRequest({ externalPaymentReferenceID: ref('cancel') }))
    await payments.completeForm(b)
    expect((await call(base, 'POST', `/payments/${b}/cancel`)).status).toBe(200)
    await payments.idle()
    expect(receiver.for('/all', b).map((r) => r.body.eventType)).toStrictEqual(['Initiated', 'Reserved', 'Cancelled'])
  })

  it('refunds only in Charged (I3 rule 2): Initiated → 409 for full and partial refund', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('norefund') }))
    expect(await call(base, 'POST', `/payments/${id}/refund`)).toMatchObject({
      status: 409,
      body: { response: null, success: false, error: expect.any(String) as string }
    })
    const p = await stored(id)
    expect(await call(base, 'POST', `/payments/${id}/refund/partially`, patchOf(p, { 1: 1 }))).toMatchObject({
      status: 409,
      body: { success: false, error: { code: 'RefundNotAllowedInStatus' } }
    })
  })

  it('a failed form attempt keeps the payment Initiated and sends no webhook', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('fail') }))
    expect(await payments.failForm(id, 'card declined')).toMatchObject(E.right({ status: 'Initiated' }))
    await payments.idle()
    expect(receiver.for('/all', id).map((r) => r.body.eventType)).toStrictEqual(['Initiated'])
  })
})

describe('invoices over the wire (I1 item 6; I3)', () => {
  it('create gives a KID; cancel and charge → 409; a partial transfer, then an adjustment that settles: InvoiceAdjusted then Charged', async () => {
    const r = await call(base, 'POST', '/payments', invoiceRequest({ externalPaymentReferenceID: ref('inv') }))
    expect(r.status).toBe(201)
    const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
    const kidNumber = r.body.paymentIntent.paymentCreated.kid as string
    expect(kid.isValid(kidNumber)).toBe(true)

    expect(await call(base, 'POST', `/payments/${id}/cancel`)).toMatchObject({ status: 409, body: { response: null, success: false } })
    expect((await call(base, 'POST', `/payments/${id}/charge`)).status).toBe(409)
    expect(await payments.receiveTransfer(id, 100, '12345678903')).toMatchObject(E.left({ code: 'KidMismatch' }))
    expect(await payments.receiveTransfer(id, 7000, kidNumber)).toMatchObject(E.right({ status: 'Initiated', paidAmount: 7000 }))

    const adjust = await call(base, 'POST', `/payments/${id}/adjust`, patchOf(await stored(id), { 2: 'delete', 1: 2000 }))
    expect(adjust.status).toBe(200)
    expect(Object.keys(adjust.body as object)).toStrictEqual(['splitList', 'adjustedSplit', 'excessRefundedAmount', 'status', 'message', 'success'])
    expect(adjust.body).toMatchObject({ excessRefundedAmount: 4000, status: 'Charged', success: true })
    expect((await call(base, 'POST', `/payments/${id}/adjust`, patchOf(await stored(id), { 1: 1 }))).body).toMatchObject({
      error: { code: 'AdjustNotAllowedInStatus' }
    })

    await payments.idle()
    const all = receiver.for('/all', id)
    expect(all.map((x) => [x.body.eventType, x.body.eventID])).toStrictEqual([
      ['Initiated', `${id}:1`],
      ['InvoiceAdjusted', `${id}:3`],
      ['Charged', `${id}:4`]
    ])
    expect(all.at(-1)?.body.payload.payment['kidNorwayInvoice']).toStrictEqual({ kid: kidNumber, paidAmount: 7000 })
  })

  it('adjust on a card → 409 NotAnInvoice', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('adjcard') }))
    expect((await call(base, 'POST', `/payments/${id}/adjust`, patchOf(await stored(id), { 1: 1 }))).body).toMatchObject({
      success: false,
      error: { code: 'NotAnInvoice' }
    })
  })
})

describe('validation over the wire (I7 item 2)', () => {
  it('a missing customerExternalID → 400 MissingCustomerExternalID; a gross that is not the sum → 400 GrossAmountMismatch', async () => {
    const noCustomer = Object.fromEntries(
      Object.entries(cardRequest({ externalPaymentReferenceID: ref('bad') })).filter(([k]) => k !== 'customerExternalID')
    )
    expect(await call(base, 'POST', '/payments', noCustomer)).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'MissingCustomerExternalID', issues: [{ path: 'customerExternalID' }] } }
    })
    expect(await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: ref('bad'), grossAmount: 10001 }))).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'GrossAmountMismatch' } }
    })
  })

  it('a newGrossAmount that is not the sum → 400 GrossAmountMismatch', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('gross'), chargeImmediately: true }))
    await payments.completeForm(id)
    const patch = patchOf(await stored(id), { 1: 100 })
    expect(await call(base, 'POST', `/payments/${id}/refund/partially`, { ...patch, newGrossAmount: patch.newGrossAmount + 1 })).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'GrossAmountMismatch' } }
    })
  })
})

describe('externalPaymentReferenceID over the wire', () => {
  it('the same request again → 200 and the same payment, no second Initiated webhook; another body → 409', async () => {
    const body = cardRequest({ externalPaymentReferenceID: ref('idem') })
    const first = await call(base, 'POST', '/payments', body)
    const second = await call(base, 'POST', '/payments', body)
    expect(first.status).toBe(201)
    expect(second.status).toBe(200)
    const id = first.body.paymentIntent.paymentCreated.paymentReferenceID as string
    expect(second.body.paymentIntent.paymentCreated.paymentReferenceID).toBe(id)
    expect(await call(base, 'POST', '/payments', { ...body, grossAmount: 9000, moneySplitList: [{ connectedAccountID: body['sellerConnectedAccountID'], amount: 9000, isFee: false }] })).toMatchObject({
      status: 409,
      body: { success: false, error: { code: 'DuplicateExternalPaymentReference' } }
    })
    await payments.idle()
    expect(receiver.for('/all', id)).toHaveLength(1)
  })

  it('an invoice repeat keeps its KID and compares equal', async () => {
    const body = invoiceRequest({ externalPaymentReferenceID: ref('idem-inv') })
    const first = await call(base, 'POST', '/payments', body)
    const second = await call(base, 'POST', '/payments', body)
    expect([first.status, second.status]).toStrictEqual([201, 200])
    expect(second.body.paymentIntent.paymentCreated.kid).toBe(first.body.paymentIntent.paymentCreated.kid)
  })

  it('concurrent identical creates make one payment: one 201, the rest 200 with its id', async () => {
    const body = cardRequest({ externalPaymentReferenceID: ref('race') })
    const replies = await Promise.all(Array.from({ length: 8 }, () => call(base, 'POST', '/payments', body)))
    expect(replies.map((r) => r.status).sort()).toStrictEqual([200, 200, 200, 200, 200, 200, 200, 201])
    expect(new Set(replies.map((r): unknown => r.body.paymentIntent.paymentCreated.paymentReferenceID)).size).toBe(1)
  })
})

describe('routes over the wire (C6)', () => {
  it('an unknown path → 404 RouteNotFound', async () => {
    expect(await call(base, 'POST', '/customers')).toStrictEqual(
      expect.objectContaining({ status: 404, body: { success: false, error: { code: 'RouteNotFound', message: expect.any(String) as string } } })
    )
  })

  it('a known path with another method → 405 MethodNotAllowed with its Allow header', async () => {
    const r = await call(base, 'DELETE', '/payments')
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, POST')
    expect(r.body).toStrictEqual({ success: false, error: { code: 'MethodNotAllowed', message: 'This endpoint accepts GET, POST only.' } })
    expect((await call(base, 'POST', '/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10')).headers.get('allow')).toBe('GET')
    expect((await call(base, 'DELETE', '/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10/cancel')).status).toBe(405)
  })

  it('a path id that is not a UUID, or that nobody created → 404 PaymentNotFound in the endpoint shape', async () => {
    expect(await call(base, 'POST', '/payments/nope/cancel')).toMatchObject({
      status: 404,
      body: { response: null, success: false, error: 'No payment has this paymentReferenceID.' }
    })
    expect(await call(base, 'POST', '/payments/nope/charge')).toMatchObject({ status: 404, body: { success: false, error: expect.any(String) as string } })
    expect(await call(base, 'POST', '/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10/refund/partially', {})).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'PaymentNotFound' } }
    })
  })
})

describe('transport: body limit and JSON', () => {
  it('a body over the limit → 413 PayloadTooLarge, in the endpoint shape', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(20 * 1024) })
    expect(await call(base, 'POST', '/payments', undefined, big)).toMatchObject({
      status: 413,
      body: { success: false, error: { code: 'PayloadTooLarge' } }
    })
    expect(await call(base, 'POST', '/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10/cancel', undefined, big)).toMatchObject({
      status: 413,
      body: { response: null, success: false, error: expect.any(String) as string }
    })
  })

  it('invalid JSON → 400 ValidationFailed; an empty create body → 400', async () => {
    expect(await call(base, 'POST', '/payments', undefined, '{"externalPaymentReferenceID":')).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'ValidationFailed', message: 'The request body is not valid JSON.' } }
    })
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('json'), chargeImmediately: true }))
    await payments.completeForm(id)
    expect(await call(base, 'POST', `/payments/${id}/refund/partially`, undefined, 'nope')).toMatchObject({
      status: 400,
      body: { error: { code: 'ValidationFailed' } }
    })
    expect(await call(base, 'POST', '/payments', undefined, '')).toMatchObject({ status: 400, body: { error: { code: 'ValidationFailed' } } })
  })

  it('cancel, charge and full refund take no body: whatever is sent is ignored', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('nobody') }))
    expect((await call(base, 'POST', `/payments/${id}/cancel`, undefined, 'not json')).status).toBe(200)
  })
})

describe('webhook delivery: bounded retry with backoff, each outcome kept', () => {
  it('a receiver failing twice gets it on the 3rd attempt; 503 forever fails after 3; 410 fails at once; a closed port fails after 3', async () => {
    const closed = 'http://127.0.0.1:9/nothing-listens-here'
    const id = await create(
      cardRequest({
        externalPaymentReferenceID: ref('retry'),
        webhookSubscriptions: [
          { eventType: 'Initiated', url: `${hooks}/flaky` },
          { eventType: 'Initiated', url: `${hooks}/down` },
          { eventType: 'Initiated', url: `${hooks}/gone` },
          { eventType: 'Initiated', url: closed }
        ]
      })
    )
    await payments.idle()
    const records = (await payments.deliveries()).filter((d) => d.paymentReferenceID === id)
    const byUrl = Object.fromEntries(records.map((d) => [d.url, d]))
    expect(byUrl[`${hooks}/all`]).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 })
    expect(byUrl[`${hooks}/flaky`]).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 200 })
    expect(byUrl[`${hooks}/down`]).toMatchObject({ state: 'failed', attempts: 3, lastStatus: 503, lastError: 'HTTP 503' })
    expect(byUrl[`${hooks}/gone`]).toMatchObject({ state: 'failed', attempts: 1, lastStatus: 410 })
    expect(byUrl[closed]).toMatchObject({ state: 'failed', attempts: 3 })
    expect(byUrl[closed]?.lastError).toBeTruthy()
    expect(receiver.for('/flaky', id).map((r) => r.headers['x-paysplit-delivery-attempt'])).toStrictEqual(['1', '2', '3'])
    // every attempt carries the same eventID, so the receiver can drop duplicates
    expect(new Set(receiver.for('/flaky', id).map((r) => r.body.eventID))).toStrictEqual(new Set([`${id}:1`]))
  })
})

describe('webhook delivery: the receiver\'s answer body is not read', () => {
  it('a receiver answering 200 with an endless body counts as delivered on the 1st attempt', async () => {
    const id = await create(
      cardRequest({
        externalPaymentReferenceID: ref('endless'),
        webhookSubscriptions: [{ eventType: 'Initiated', url: `${hooks}/endless` }]
      })
    )
    await payments.idle()
    const records = (await payments.deliveries()).filter((d) => d.paymentReferenceID === id && d.url === `${hooks}/endless`)
    // reading the body would run into the 2 s attempt timeout, and then retry and fail 3 times
    expect(records).toMatchObject([{ state: 'delivered', attempts: 1, lastStatus: 200 }])
    expect(receiver.for('/endless', id)).toHaveLength(1)
    // the sender stopped reading at once: what the receiver got out is what the socket buffers hold
    expect(receiver.endlessBytes).toBeLessThan(16 * 1024 * 1024)
  })
})
