/**
 * C9: reads, the payment form's redirect and the customer record webhooks and reads carry.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { completeForm, emptyWorld, failForm, handle, webhookPaymentOf, type HttpResponse, type World } from '../../src/http.js'
import { CATCH_ALL, KID, Session, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'

const get = (world: World, path: string): HttpResponse => {
  const { world: after, response, deliveries } = handle(world, { method: 'GET', path }, null as never)
  expect(after).toBe(world)
  expect(deliveries).toEqual([])
  return response
}

const bodyOf = (r: HttpResponse): Record<string, unknown> => r.body as unknown as Record<string, unknown>

const issuePaths = (r: HttpResponse): ReadonlyArray<string> =>
  ((bodyOf(r)['error'] as { issues?: ReadonlyArray<{ path: string }> }).issues ?? []).map((i) => i.path)

describe('C9: GET /payments/{id} → 200 { payment }, the webhook payload\'s payment object', () => {
  it('reads a payment in either case of its id; the body is exactly the webhook payload\'s payment', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    const last = s.deliveries.at(-1)
    const r = get(s.world, `/payments/${id.toUpperCase()}`)
    expect(r.status).toBe(200)
    expect(r.body).toStrictEqual({ payment: last?.payload.payload.payment })
    expect(r.body).toStrictEqual({ payment: webhookPaymentOf(s.payment(id)) })
  })

  it('an unknown id → 404 PaymentNotFound; an id that is not a UUID → 404 PaymentNotFound; reads use no context', () => {
    expect(get(emptyWorld, `/payments/${idOf(9)}`)).toStrictEqual({
      status: 404,
      body: { success: false, error: { code: 'PaymentNotFound', message: 'No payment has this paymentReferenceID.' } }
    })
    expect(get(emptyWorld, '/payments/not-a-uuid').status).toBe(404)
  })

  it('a stored state of a newer schema is the service\'s fault: 500 UnsupportedSchemaVersion', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    const newer = { ...s.payment(id), schemaVersion: 2 } as never
    const world: World = { ...s.world, payments: new Map([[id, newer]]) }
    const r = get(world, `/payments/${id}`)
    expect(r.status).toBe(500)
    expect((bodyOf(r)['error'] as { code: string }).code).toBe('UnsupportedSchemaVersion')
  })
})

describe('C9: GET /payments?externalPaymentReferenceID=… → 200 { payment }; the query exactly once, non-empty, nothing else', () => {
  it('finds a payment by the caller\'s own reference, read as URLSearchParams reads it', () => {
    const s = new Session()
    const id = s.create(cardRequest({ externalPaymentReferenceID: 'order 1001/ø' }))
    const r = get(s.world, `/payments?externalPaymentReferenceID=${encodeURIComponent('order 1001/ø')}`)
    expect(r.status).toBe(200)
    expect((bodyOf(r)['payment'] as { paymentCreated: { paymentReferenceID: string } }).paymentCreated.paymentReferenceID).toBe(id)
    expect(get(s.world, '/payments?externalPaymentReferenceID=order+1001%2F%C3%B8').status).toBe(200)
    expect(get(s.world, '/payments?externalPaymentReferenceID=order-9')).toStrictEqual({
      status: 404,
      body: { success: false, error: { code: 'PaymentNotFound', message: 'No payment has this externalPaymentReferenceID.' } }
    })
  })

  it.each([
    ['/payments', ['externalPaymentReferenceID']],
    ['/payments?', ['externalPaymentReferenceID']],
    ['/payments?externalPaymentReferenceID=', ['externalPaymentReferenceID']],
    ['/payments?externalPaymentReferenceID=a&externalPaymentReferenceID=a', ['externalPaymentReferenceID']],
    ['/payments?externalPaymentReferenceID=a&status=Charged', ['status']],
    ['/payments?status=Charged&status=Reserved', ['status', 'externalPaymentReferenceID']],
    ['/payments?externalpaymentreferenceid=a', ['externalpaymentreferenceid', 'externalPaymentReferenceID']]
  ])('%s → 400 ValidationFailed at %j', (path, paths) => {
    const r = get(emptyWorld, path)
    expect(r.status).toBe(400)
    expect((bodyOf(r)['error'] as { code: string }).code).toBe('ValidationFailed')
    expect(issuePaths(r)).toStrictEqual(paths)
  })

  it('a hostile query is answered with bounded issues: at most 100, then one that counts the rest; names cut at 64', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `p${String(i)}=1`).join('&')
    const r = get(emptyWorld, `/payments?${many}&${'k'.repeat(10_000)}=1`)
    expect(r.status).toBe(400)
    const paths = issuePaths(r)
    expect(paths).toHaveLength(101)
    expect(paths.at(-1)).toBe('')
    // 5000 + 1 unknown parameters and the missing externalPaymentReferenceID: 100 listed, 4902 counted
    const error = bodyOf(r)['error'] as { message: string; issues: ReadonlyArray<{ reason: string; params?: unknown }> }
    expect(error.issues.at(-1)).toMatchObject({ reason: 'too_many_issues', params: { more: 4902 } })
    expect(error.message).toBe('The input is not valid: 5002 problems (see issues).')
    expect(JSON.stringify(r.body).length).toBeLessThan(64_000)
    const long = get(emptyWorld, `/payments?${'k'.repeat(10_000)}=1&externalPaymentReferenceID=a`)
    expect(issuePaths(long)).toStrictEqual([`${'k'.repeat(64)}…`])
  })
})

describe('C9: GET /customers/{customerExternalID} → 200 { customer }, the segment percent-decoded', () => {
  it('reads the merged record; a percent-encoded id is decoded; an unknown one or a malformed escape → 404 CustomerNotFound', () => {
    const s = new Session()
    s.create(cardRequest({ customerExternalID: 'kari@nordmann/1', customer: { name: 'Kari', email: 'kari@example.no' } }))
    s.create(cardRequest({ externalPaymentReferenceID: 'order-2', customerExternalID: 'kari@nordmann/1', customer: { mobilePrefix: '+47', mobile: '91234567' } }))
    expect(get(s.world, `/customers/${encodeURIComponent('kari@nordmann/1')}`)).toStrictEqual({
      status: 200,
      body: { customer: { name: 'Kari', email: 'kari@example.no', mobilePrefix: '+47', mobile: '91234567' } }
    })
    const notFound = { status: 404, body: { success: false, error: { code: 'CustomerNotFound', message: 'No customer has this customerExternalID.' } } }
    expect(get(s.world, '/customers/nobody')).toStrictEqual(notFound)
    expect(get(s.world, '/customers/%E0%A4%A')).toStrictEqual(notFound)
    expect(get(s.world, '/customers/%zz')).toStrictEqual(notFound)
  })
})

describe('C9: webhook payloads and reads carry the world\'s stored customer record', () => {
  it('a later create that updates the customer: the next webhook of the first payment and its read report the merged record', () => {
    const s = new Session()
    const first = s.create(cardRequest({ customer: { name: 'Kari', email: 'kari@example.no' } }))
    s.create(cardRequest({ externalPaymentReferenceID: 'order-2', customer: { email: 'kari@nordmann.no' } }))
    // a payment whose own request carried no customer still reports the stored record
    const third = s.create(cardRequest({ externalPaymentReferenceID: 'order-3' }))
    expect(s.deliveries.at(-1)?.payload.payload.payment.customer).toStrictEqual({ name: 'Kari', email: 'kari@nordmann.no' })
    const merged = { name: 'Kari', email: 'kari@nordmann.no' }
    s.complete(first)
    expect(s.deliveries.at(-1)?.payload.payload.payment.customer).toStrictEqual(merged)
    for (const id of [first, third]) {
      expect((bodyOf(get(s.world, `/payments/${id}`))['payment'] as { customer?: unknown }).customer).toStrictEqual(merged)
    }
  })

  it('no customer anywhere: the payload has none', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    expect('customer' in (bodyOf(get(s.world, `/payments/${id}`))['payment'] as object)).toBe(false)
  })
})

describe('C9: the payment form hands the customer back (successUrl after a completed form, failedUrl otherwise)', () => {
  const setup = () => {
    const s = new Session()
    const id = s.create(cardRequest())
    return { s, id, world: s.world }
  }

  it('completed → successUrl; failed → failedUrl', () => {
    const { id, world } = setup()
    const done = completeForm(world, id, { at: atOf(5) })
    expect(E.isRight(done.result)).toBe(true)
    expect(done.redirectUrl).toBe('https://shop.example/ok')
    const failed = failForm(world, id, { at: atOf(5), reason: 'card declined' })
    expect(E.isRight(failed.result)).toBe(true)
    expect(failed.redirectUrl).toBe('https://shop.example/failed')
  })

  it('refused, whatever the error → failedUrl (a second completion, an invoice, a bad context)', () => {
    const { s, id, world } = setup()
    const { world: after } = completeForm(world, id, { at: atOf(5) })
    const again = completeForm(after, id, { at: atOf(6) })
    expect(E.isLeft(again.result) && again.result.left.code).toBe('FormNotAllowedInStatus')
    expect(again.redirectUrl).toBe('https://shop.example/failed')
    expect(failForm(after, id, { at: atOf(6) }).redirectUrl).toBe('https://shop.example/failed')
    const invoice = s.create(invoiceRequest(), { kid: KID })
    const refused = completeForm(s.world, invoice, { at: atOf(7) })
    expect(E.isLeft(refused.result) && refused.result.left.code).toBe('FormNotUsedForInvoice')
    expect(refused.redirectUrl).toBe('https://shop.example/failed')
    const fault = completeForm(world, id, { at: 'now', catchAllUrl: CATCH_ALL })
    expect(E.isLeft(fault.result) && fault.result.left.code).toBe('InvalidContext')
    expect(fault.world).toBe(world)
    expect(fault.redirectUrl).toBe('https://shop.example/failed')
  })

  it('undefined only when there is no such payment or its stored state cannot be read', () => {
    const { id, world } = setup()
    expect(completeForm(world, idOf(99), { at: atOf(5) }).redirectUrl).toBeUndefined()
    expect(failForm(world, idOf(99), { at: atOf(5) }).redirectUrl).toBeUndefined()
    const broken: World = { ...world, payments: new Map([[id, { ...world.payments.get(id), grossAmount: -1 } as never]]) }
    const r = completeForm(broken, id, { at: atOf(5) })
    expect(E.isLeft(r.result) && r.result.left.code).toBe('ValidationFailed')
    expect(r.redirectUrl).toBeUndefined()
    expect(failForm(broken, id, { at: atOf(5) }).redirectUrl).toBeUndefined()
  })
})
