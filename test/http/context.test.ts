/**
 * C6: the context is the service's, not the client's. A context that lacks what the request needs,
 * or holds a catchAllUrl that is not an absolute http(s) URL, is 500 InvalidContext with nothing
 * changed; routing comes first, then the context fields the route uses, then the request, then
 * (for a new invoice) the KID.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { completeForm, emptyWorld, failForm, handle, receiveTransfer, type HandleContext, type HttpResponse } from '../../src/http.js'
import { CATCH_ALL, KID, Session, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'

const codeOf = (r: HttpResponse): unknown => {
  const error = (r.body as { error?: unknown }).error
  return typeof error === 'object' && error !== null ? (error as { code: string }).code : error
}

const BAD_URLS: ReadonlyArray<unknown> = [null, '', 'ftp://hooks.example/x', '/hooks', 'https://', 42, 'https://exa mple.com/']

describe('C6: a context fault is 500 InvalidContext, nothing changed', () => {
  const routes = ['cancel', 'charge', 'refund', 'refund/partially', 'adjust']

  it('a bad at: 500 on every route that changes something, whatever the body and whether the payment exists', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    for (const at of ['now', '', null, 42, '2026-11-21T10:00:00Z']) {
      const ctx = { at, paymentReferenceID: idOf(50) } as never
      const { world: after, response: create } = handle(s.world, { method: 'POST', path: '/payments', body: 'garbage' }, ctx)
      expect(create.status).toBe(500)
      expect(codeOf(create)).toBe('InvalidContext')
      expect(after).toBe(s.world)
      for (const route of routes) {
        for (const target of [id, idOf(77)]) {
          const { world: w, response: r, deliveries } = handle(s.world, { method: 'POST', path: `/payments/${target}/${route}`, body: 'garbage' }, ctx)
          expect(r.status).toBe(500)
          expect(w).toBe(s.world)
          expect(deliveries).toEqual([])
        }
      }
    }
  })

  it('cancel, charge and full refund keep their { success: false, error, code } body shape; the others { error: { code, message, issues } }', () => {
    const ctx = { at: 'now', paymentReferenceID: idOf(1) } as never
    const send = (route: string): HttpResponse => handle(emptyWorld, { method: 'POST', path: `/payments/${idOf(1)}/${route}` }, ctx).response
    const code = 'InvalidContext'
    expect(send('cancel').body).toStrictEqual({ response: null, success: false, error: expect.any(String) as string, code })
    expect(send('refund').body).toStrictEqual({ response: null, success: false, error: expect.any(String) as string, code })
    expect(send('charge').body).toStrictEqual({ success: false, error: expect.any(String) as string, code })
    const adjust = send('adjust').body as { error: { code: string; issues: ReadonlyArray<{ path: string }> } }
    expect(adjust.error.code).toBe('InvalidContext')
    expect(adjust.error.issues.map((i) => i.path)).toStrictEqual(['at'])
  })

  it('a paymentReferenceID that is not a UUID: 500 for a create only (the other routes do not use it)', () => {
    const s = new Session()
    const id = s.create(cardRequest())
    for (const paymentReferenceID of ['nope', '', null, undefined, 7]) {
      const ctx = { at: atOf(9), paymentReferenceID } as never
      const { world: after, response: r } = handle(s.world, { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: 'order-2' }) }, ctx)
      expect(r.status).toBe(500)
      expect(after).toBe(s.world)
      expect(handle(s.world, { method: 'POST', path: `/payments/${id}/cancel` }, ctx).response.status).toBe(200)
    }
  })

  it('a catchAllUrl that is not an absolute http(s) URL: 500, and no delivery with a url that is not a string', () => {
    for (const catchAllUrl of BAD_URLS) {
      const ctx = { at: atOf(1), paymentReferenceID: idOf(1), catchAllUrl } as never
      const { world: after, response: r, deliveries } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctx)
      expect(r.status).toBe(500)
      expect(codeOf(r)).toBe('InvalidContext')
      expect(after).toBe(emptyWorld)
      expect(deliveries).toEqual([])
    }
    // absent, or an own undefined: no catch-all url, fine
    for (const ctx of [{ at: atOf(1), paymentReferenceID: idOf(1) }, { at: atOf(1), paymentReferenceID: idOf(1), catchAllUrl: undefined }]) {
      expect(handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctx).response.status).toBe(201)
    }
  })

  it('the form and bank operations give Left InvalidContext for a bad at or catchAllUrl, the world unchanged', () => {
    const s = new Session()
    const card = s.create(cardRequest())
    const invoice = s.create(invoiceRequest(), { kid: KID })
    const bad = [{ at: 'now' }, ...BAD_URLS.map((catchAllUrl) => ({ at: atOf(9), catchAllUrl })), null, 42]
    for (const ctx of bad) {
      const results = [
        completeForm(s.world, card, ctx as never),
        failForm(s.world, card, ctx as never),
        receiveTransfer(s.world, invoice, { amount: 1, kid: KID }, ctx as never)
      ]
      for (const { world: after, result, deliveries } of results) {
        expect(E.isLeft(result) && result.left.code).toBe('InvalidContext')
        expect(after).toBe(s.world)
        expect(deliveries).toEqual([])
      }
    }
  })
})

describe('C6: the order of checks — routing, the context, the request, then the KID of a new invoice', () => {
  it('routing first: 404 and 405 whatever the context', () => {
    expect(handle(emptyWorld, { method: 'POST', path: '/nowhere' }, null as never).response.status).toBe(404)
    expect(handle(emptyWorld, { method: 'PUT', path: '/payments' }, { at: 'x' } as never).response.status).toBe(405)
    expect(handle(emptyWorld, { method: 'POST', path: '/payments/not-a-uuid/cancel' }, null as never).response.status).toBe(404)
  })

  it('the context before the request: a bad context and a bad body → 500, not 400', () => {
    const r = handle(emptyWorld, { method: 'POST', path: '/payments', body: { grossAmount: 'x' } }, { at: atOf(1), paymentReferenceID: 'x' }).response
    expect(r.status).toBe(500)
  })

  it('the KID after the request: a bad request without a KID → 400; a repeat with any KID → 200; a new invoice without a valid KID → 500', () => {
    const ctx: HandleContext = { at: atOf(1), paymentReferenceID: idOf(1), catchAllUrl: CATCH_ALL }
    expect(handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest({ currency: 'nok' }) }, ctx).response.status).toBe(400)
    const { world, response: created } = handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, { ...ctx, kid: KID })
    expect(created.status).toBe(201)
    for (const kid of [undefined, 'garbage', '12345675']) {
      const repeat = handle(world, { method: 'POST', path: '/payments', body: invoiceRequest() }, { ...ctx, paymentReferenceID: idOf(2), ...(kid !== undefined ? { kid } : {}) })
      expect(repeat.response.status).toBe(200)
      expect(repeat.world).toBe(world)
      const fresh = handle(world, { method: 'POST', path: '/payments', body: invoiceRequest({ externalPaymentReferenceID: 'invoice-2' }) }, { ...ctx, paymentReferenceID: idOf(2), ...(kid !== undefined ? { kid } : {}) })
      expect(fresh.response.status).toBe(500)
      expect(codeOf(fresh.response)).toBe('InvalidContext')
      expect(fresh.world).toBe(world)
    }
  })
})
