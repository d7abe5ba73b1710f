/**
 * The reference service (docs/examples/service) over real sockets on a real PostgreSQL: PGlite in
 * `npm test`, a PostgreSQL 17 server in `npm run test:postgres`. Every endpoint through success
 * and the rejections the seed names, the hosted form, bank transfers by KID, authentication,
 * transport errors, and what each request leaves in the tables (state, events, outbox).
 */
import { describe, expect, it } from 'vitest'
import type { PaymentEvent } from '../../src/index.js'
import { kid, replay } from '../../src/index.js'
import { paysplitRules, type Rules } from '../../docs/examples/service/paysplit.js'
import { cardRequest, invoiceRequest, patchOf } from '../support/http.fixtures.js'
import { bank, call, eventually, outboxOf, outboxSettled, postForm, serverUrl, serviceUnderTest, startService } from '../support/reference-service.fixtures.js'

const t = serviceUnderTest({ MAX_BODY_BYTES: String(16 * 1024) })
const { ref, create, stored } = t

const pay = (id: string, action: 'complete' | 'fail', form = ''): Promise<Response> =>
  postForm(t.base, id, action, Object.fromEntries(new URLSearchParams(form)))

describe('a card payment charged later: create, form, charge, partial refund, full refund (I3)', () => {
  it('walks through every step with the seed bodies and status codes; the tables hold each state, event and webhook', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('walk'), webhookSubscriptions: [{ eventType: 'ChargedPayment', url: `${t.hooks}/charged` }] }))
    const form = await pay(id, 'complete')
    expect([form.status, form.headers.get('location')]).toStrictEqual([303, 'https://shop.example/ok'])
    expect(await call(t.base, 'POST', `/payments/${id}/charge`)).toMatchObject({ status: 200, body: { success: true, error: null } })
    expect(await call(t.base, 'POST', `/payments/${id}/charge`)).toMatchObject({ status: 409, body: { success: false } })
    const partial = await call(t.base, 'POST', `/payments/${id}/refund/partially`, patchOf(await stored(id), { 1: 7000 }))
    expect(partial.status).toBe(200)
    expect(Object.keys(partial.body as object)).toStrictEqual(['splitList', 'refundedSplit', 'message', 'success'])
    expect(await call(t.base, 'POST', `/payments/${id}/refund`)).toMatchObject({ status: 200, body: { success: true, error: null } })
    expect(await stored(id)).toMatchObject({ status: 'Refunded', chargedAmount: 10000, refundedAmount: 10000, grossAmount: 0, version: 5 })

    const events = await t.db.query<{ version: number; type: string }>('SELECT version, type FROM payment_events WHERE payment_reference_id = $1 ORDER BY version', [id])
    expect(events.rows.map((e) => [e.version, e.type])).toStrictEqual([
      [1, 'PaymentCreated'],
      [2, 'PaymentReserved'],
      [3, 'PaymentCharged'],
      [4, 'PaymentPartiallyRefunded'],
      [5, 'PaymentRefunded']
    ])
    const row = (await t.db.query<{ version: number; status: string; state: { version: number } }>('SELECT version, status, state FROM payments WHERE payment_reference_id = $1', [id])).rows[0]
    expect([row?.version, row?.status, row?.state.version]).toStrictEqual([5, 'Refunded', 5])

    await eventually(() => outboxSettled(t.db))
    expect(t.receiver.for('/all', id).map((r): unknown => [r.body.eventType, r.headers['webhook-id']])).toStrictEqual([
      ['Initiated', `${id}:1`],
      ['Reserved', `${id}:2`],
      ['Charged', `${id}:3`],
      ['PartiallyRefunded', `${id}:4`],
      ['Refunded', `${id}:5`]
    ])
    expect(t.receiver.for('/charged', id).map((r): unknown => r.body.eventType)).toStrictEqual(['Charged'])
    expect(t.receiver.received.every((r) => r.verified)).toBe(true)
    expect((await outboxOf(t.db, id)).every((o) => o.status === 'delivered' && o.attempts === 1)).toBe(true)
  })
})

describe('cards: the seed rules over the wire', () => {
  it('chargeImmediately true: the form charges at once; charge → 409 (I3 rule 3)', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('now'), chargeImmediately: true }))
    expect((await pay(id, 'complete')).status).toBe(303)
    expect(await stored(id)).toMatchObject({ status: 'Charged', chargedAmount: 10000 })
    expect((await call(t.base, 'POST', `/payments/${id}/charge`)).status).toBe(409)
  })

  it('cancel of an Initiated payment → 200; refunds only in Charged → 409 (I3 rules 1, 2)', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('cancel') }))
    expect((await call(t.base, 'POST', `/payments/${id}/refund`)).status).toBe(409)
    expect(await call(t.base, 'POST', `/payments/${id}/cancel`)).toMatchObject({ status: 200, body: { success: true, error: null } })
    expect((await call(t.base, 'POST', `/payments/${id}/cancel`)).status).toBe(409)
  })
})

describe('the hosted payment form', () => {
  it('GET /pay/{id} shows amount, currency, description and splits with Pay and Cancel; unknown ids → 404', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('page'), description: 'Concert <tickets>' }))
    const page = await fetch(`${t.base}/pay/${id}`)
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(html).toContain('100.00 NOK')
    expect(html).toContain('Concert &lt;tickets&gt;')
    expect(html).toContain('90.00 NOK')
    expect(html).toContain(`action="/pay/${id}/complete"`)
    expect(html).toContain(`action="/pay/${id}/fail"`)
    expect((await fetch(`${t.base}/pay/0b7e3f1c-2a4d-4e8f-9c1b-000000000000`)).status).toBe(404)
    expect((await fetch(`${t.base}/pay/not-an-id`)).status).toBe(404)
  })

  it('Cancel → 303 to failedUrl, the payment stays Initiated with the attempt recorded; a refused Pay → 303 to failedUrl', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('fail') }))
    const failed = await pay(id, 'fail', 'reason=cancelled')
    expect([failed.status, failed.headers.get('location')]).toStrictEqual([303, 'https://shop.example/failed'])
    expect(await stored(id)).toMatchObject({ status: 'Initiated', formAttempts: [{ reason: 'cancelled' }] })
    expect((await call(t.base, 'POST', `/payments/${id}/cancel`)).status).toBe(200)
    const refused = await pay(id, 'complete')
    expect([refused.status, refused.headers.get('location')]).toStrictEqual([303, 'https://shop.example/failed'])
    expect((await pay('0b7e3f1c-2a4d-4e8f-9c1b-000000000000', 'complete')).status).toBe(404)
  })
})

describe('invoices and bank transfers by KID', () => {
  it('create gives a KID; a partial transfer by KID, then the rest: Charged; a KID nobody holds is parked and answered as unmatched', async () => {
    const r = await call(t.base, 'POST', '/payments', invoiceRequest({ externalPaymentReferenceID: ref('inv') }))
    expect(r.status).toBe(201)
    const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
    const kidNumber = (await stored(id)).kid ?? ''
    expect(kid.isValid(kidNumber)).toBe(true)
    expect((await call(t.base, 'POST', `/payments/${id}/cancel`)).status).toBe(409)
    expect(await bank(t.base, { kid: kidNumber, amount: 4000 })).toMatchObject({ status: 200, body: { matched: true, paymentReferenceID: id, status: 'Initiated', paidAmount: 4000 } })
    expect(await bank(t.base, { kid: kidNumber, amount: 6000 })).toMatchObject({ status: 200, body: { matched: true, status: 'Charged', paidAmount: 10000 } })
    // the KID is free again: a transfer with it now names no open invoice
    const late = await bank(t.base, { kid: kidNumber, amount: 500 })
    expect(late).toMatchObject({ status: 202, body: { success: true, matched: false } })
    const parked = await t.db.query<{ kid: string; amount: string }>('SELECT kid, amount::text AS amount FROM unmatched_transfers WHERE id = $1', [late.body.unmatchedTransferID])
    expect(parked.rows).toStrictEqual([{ kid: kidNumber, amount: '500' }])
    expect(await stored(id)).toMatchObject({ status: 'Charged', paidAmount: 10000 })
  })

  it('a transfer with a KID or amount that is not valid → 400 ValidationFailed, nothing parked', async () => {
    const before = (await t.db.query('SELECT 1 FROM unmatched_transfers')).rows.length
    expect(await bank(t.base, { kid: '12345', amount: 100 })).toMatchObject({ status: 400, body: { error: { code: 'ValidationFailed' } } })
    expect(await bank(t.base, { kid: '12345678903', amount: 0 })).toMatchObject({ status: 400, body: { error: { code: 'ValidationFailed' } } })
    expect((await t.db.query('SELECT 1 FROM unmatched_transfers')).rows.length).toBe(before)
  })

  it('an adjustment that settles a partly paid invoice: InvoiceAdjusted then Charged', async () => {
    const id = await create(invoiceRequest({ externalPaymentReferenceID: ref('adj') }))
    await bank(t.base, { kid: (await stored(id)).kid, amount: 7000 })
    const adjust = await call(t.base, 'POST', `/payments/${id}/adjust`, patchOf(await stored(id), { 2: 'delete', 1: 2000 }))
    expect(adjust).toMatchObject({ status: 200, body: { excessRefundedAmount: 4000, status: 'Charged', success: true } })
    await eventually(() => outboxSettled(t.db))
    expect(t.receiver.for('/all', id).map((x): unknown => x.body.eventType)).toStrictEqual(['Initiated', 'InvoiceAdjusted', 'Charged'])
  })
})

describe('externalPaymentReferenceID and KIDs are unique in the database', () => {
  it('the same request again → 200 and the same payment, one Initiated webhook; another body → 409 DuplicateExternalPaymentReference', async () => {
    const body = cardRequest({ externalPaymentReferenceID: ref('idem') })
    const first = await call(t.base, 'POST', '/payments', body)
    const second = await call(t.base, 'POST', '/payments', body)
    expect([first.status, second.status]).toStrictEqual([201, 200])
    const id = first.body.paymentIntent.paymentCreated.paymentReferenceID as string
    expect(second.body.paymentIntent.paymentCreated.paymentReferenceID).toBe(id)
    expect(await call(t.base, 'POST', '/payments', { ...body, description: 'other' })).toMatchObject({ status: 409, body: { error: { code: 'DuplicateExternalPaymentReference' } } })
    await eventually(() => outboxSettled(t.db))
    expect(t.receiver.for('/all', id)).toHaveLength(1)
  })

  it('concurrent identical creates make one payment: one 201, the rest 200 with its id', async () => {
    const body = invoiceRequest({ externalPaymentReferenceID: ref('race') })
    const replies = await Promise.all(Array.from({ length: 12 }, () => call(t.base, 'POST', '/payments', body)))
    expect(replies.map((r) => r.status).sort()).toStrictEqual([201, ...Array.from({ length: 11 }, () => 200)].sort())
    expect(new Set(replies.map((r): unknown => r.body.paymentIntent.paymentCreated.paymentReferenceID)).size).toBe(1)
  })

  it('KID_SCHEME=customer: a customer with an open invoice → 409 DuplicateKid for the second; once paid, its KID is free again', async () => {
    const other = await startService(t.db, { KID_SCHEME: 'customer', RELAY: 'off' })
    try {
      const customer = `cust-${String(Date.now())}`
      const a = await call(other.base, 'POST', '/payments', invoiceRequest({ externalPaymentReferenceID: ref('kid-a'), customerExternalID: customer }))
      const b = await call(other.base, 'POST', '/payments', invoiceRequest({ externalPaymentReferenceID: ref('kid-b'), customerExternalID: customer }))
      expect([a.status, b.status]).toStrictEqual([201, 409])
      expect(b.body).toMatchObject({ success: false, error: { code: 'DuplicateKid' } })
      const id = a.body.paymentIntent.paymentCreated.paymentReferenceID as string
      await bank(other.base, { kid: (await stored(id)).kid, amount: 10000 })
      expect((await call(other.base, 'POST', '/payments', invoiceRequest({ externalPaymentReferenceID: ref('kid-c'), customerExternalID: customer }))).status).toBe(201)
    } finally {
      await other.service.close()
    }
  })
})

describe('reads (docs/http.md): answered by handle on the rows they name', () => {
  it('GET /payments/{id} and ?externalPaymentReferenceID= give the payment with the stored customer; GET /customers/{id}; unknown → 404; POST there → 405 Allow GET', async () => {
    const ext = ref('read')
    const id = await create(cardRequest({ externalPaymentReferenceID: ext, customerExternalID: 'reader 1', customer: { name: 'Kari' } }))
    // a later create for the same customer adds a field: reads show the merged record
    await create(cardRequest({ externalPaymentReferenceID: ref('read'), customerExternalID: 'reader 1', customer: { email: 'kari@example.no' } }))
    const byId = await call(t.base, 'GET', `/payments/${id}`)
    expect(byId).toMatchObject({
      status: 200,
      body: { payment: { paymentCreated: { paymentReferenceID: id, status: 'Initiated' }, customer: { name: 'Kari', email: 'kari@example.no' } } }
    })
    expect((await call(t.base, 'GET', `/payments?externalPaymentReferenceID=${encodeURIComponent(ext)}`)).body).toStrictEqual(byId.body)
    expect(await call(t.base, 'GET', `/customers/${encodeURIComponent('reader 1')}`)).toMatchObject({
      status: 200,
      body: { customer: { name: 'Kari', email: 'kari@example.no' } }
    })
    expect((await call(t.base, 'GET', '/payments/0b7e3f1c-2a4d-4e8f-9c1b-000000000000')).status).toBe(404)
    expect(await call(t.base, 'GET', '/customers/nobody')).toMatchObject({ status: 404, body: { error: { code: 'CustomerNotFound' } } })
    expect((await call(t.base, 'GET', '/payments?other=1')).status).toBe(400)
    const wrong = await call(t.base, 'POST', `/payments/${id}`)
    expect([wrong.status, wrong.headers.get('allow')]).toStrictEqual([405, 'GET'])
  })

  it('a stored state of a newer schemaVersion → 500 UnsupportedSchemaVersion for reads and commands, nothing changed', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('newer') }))
    await t.db.query(`UPDATE payments SET state = jsonb_set(state, '{schemaVersion}', '2') WHERE payment_reference_id = $1`, [id])
    expect(await call(t.base, 'GET', `/payments/${id}`)).toMatchObject({ status: 500, body: { error: { code: 'UnsupportedSchemaVersion' } } })
    expect(await call(t.base, 'POST', `/payments/${id}/cancel`)).toMatchObject({ status: 500, body: { success: false } })
    const row = (await t.db.query<{ version: number }>('SELECT version FROM payments WHERE payment_reference_id = $1', [id])).rows[0]
    expect(row?.version).toBe(1)
  })
})

describe('validation, routes and transport', () => {
  it('a missing customerExternalID → 400 MissingCustomerExternalID; a gross that is not the sum → 400 GrossAmountMismatch', async () => {
    const noCustomer = Object.fromEntries(Object.entries(cardRequest({ externalPaymentReferenceID: ref('bad') })).filter(([k]) => k !== 'customerExternalID'))
    expect(await call(t.base, 'POST', '/payments', noCustomer)).toMatchObject({ status: 400, body: { error: { code: 'MissingCustomerExternalID' } } })
    expect(await call(t.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: ref('bad'), grossAmount: 10001 }))).toMatchObject({
      status: 400,
      body: { error: { code: 'GrossAmountMismatch' } }
    })
  })

  it('unknown path → 404; known path, other method → 405 with Allow; a path id nobody created → 404 PaymentNotFound', async () => {
    expect(await call(t.base, 'POST', '/nowhere')).toMatchObject({ status: 404, body: { error: { code: 'RouteNotFound' } } })
    const wrong = await call(t.base, 'DELETE', '/payments')
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toContain('POST')
    expect(await call(t.base, 'POST', '/payments/0b7e3f1c-2a4d-4e8f-9c1b-000000000000/charge')).toMatchObject({ status: 404, body: { success: false } })
  })

  it('a body over the limit → 413 PayloadTooLarge; invalid JSON → 400 ValidationFailed', async () => {
    const big = await call(t.base, 'POST', '/payments', undefined, { raw: JSON.stringify({ pad: 'x'.repeat(20 * 1024) }) })
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'PayloadTooLarge' } } })
    expect(await call(t.base, 'POST', '/payments', undefined, { raw: '{"x":' })).toMatchObject({ status: 400, body: { error: { code: 'ValidationFailed' } } })
  })

  it('GET /healthz answers 200 while the database answers, naming the driver the suite runs on', async () => {
    expect(await call(t.base, 'GET', '/healthz', undefined, { key: null })).toMatchObject({
      status: 200,
      body: { status: 'ok', database: serverUrl() === undefined ? 'pglite' : 'pg' }
    })
  })
})

describe('authentication: bearer keys, the bank its own', () => {
  it('the API without a key, with a wrong key or with the bank key → 401 with WWW-Authenticate; the bank route refuses the API key', async () => {
    for (const key of [null, 'wrong', 'dev-bank-key', 'dev-api-key-and-more']) {
      const r = await call(t.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: ref('auth') }), { key })
      expect(r.status).toBe(401)
      expect(r.headers.get('www-authenticate')).toBe('Bearer')
    }
    expect((await bank(t.base, { kid: '12345678903', amount: 1 }, 'dev-api-key')).status).toBe(401)
    expect((await bank(t.base, { kid: '12345678903', amount: 1 }, null)).status).toBe(401)
  })

  it('every answer carries the request id, the one sent when it is sane', async () => {
    const r = await fetch(`${t.base}/healthz`, { headers: { 'x-request-id': 'req-42' } })
    expect(r.headers.get('x-request-id')).toBe('req-42')
    const other = await fetch(`${t.base}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } })
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('the service writes what paysplit decided (one decision per request)', () => {
  it('the events table holds exactly the events handle and the operations returned: replayed, they give the stored state', async () => {
    const id = await create(cardRequest({ externalPaymentReferenceID: ref('decided'), chargeImmediately: true }))
    expect((await pay(id, 'complete')).status).toBe(303)
    expect((await call(t.base, 'POST', `/payments/${id}/refund/partially`, patchOf(await stored(id), { 1: 5000 }))).status).toBe(200)
    const events = await t.db.query<{ body: PaymentEvent }>('SELECT body FROM payment_events WHERE payment_reference_id = $1 ORDER BY version', [id])
    expect(events.rows.map((e) => e.body.type)).toStrictEqual(['PaymentCreated', 'PaymentCharged', 'PaymentPartiallyRefunded'])
    expect(replay(events.rows.map((e) => e.body))).toStrictEqual(await stored(id))
  })

  it('each loaded row is checked once and handed to paysplit trusted (frozen); events a rules value does not return are not made up: 500, nothing written', async () => {
    const seen: Array<boolean> = []
    let checks = 0
    const dropping: Rules = {
      ...paysplitRules,
      storedPayment: (state) => {
        checks++
        return paysplitRules.storedPayment(state)
      },
      handle: (world, request, ctx) => {
        for (const p of world.payments.values()) seen.push(Object.isFrozen(p) && Object.isFrozen(p.moneySplits))
        // a broken rules value: changes the world but returns no events
        return { ...paysplitRules.handle(world, request, ctx), events: [] }
      }
    }
    const other = await startService(t.db, { CATCH_ALL_URL: `${t.hooks}/all` }, dropping)
    try {
      const id = await create(cardRequest({ externalPaymentReferenceID: ref('dropping'), chargeImmediately: true }))
      expect((await pay(id, 'complete')).status).toBe(303)
      const before = await stored(id)
      checks = 0
      const refund = await call(other.base, 'POST', `/payments/${id}/refund/partially`, patchOf(before, { 1: 5000 }))
      expect(refund.status).toBe(500)
      expect(checks).toBe(1)
      expect(seen).toStrictEqual([true])
      expect(await stored(id)).toStrictEqual(before)
      const count = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_events WHERE payment_reference_id = $1', [id])
      expect(count.rows[0]?.n).toBe(2)
    } finally {
      await other.service.close()
    }
  })
})
