/**
 * Safe retries (docs/rules.md C13): the `idempotency-key` header of every POST route of `handle`
 * (a structured-field string or bare), the record the world keeps per key and scope, the 24 hours
 * it keeps it, and the messages of its errors.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  completeForm,
  emptyWorld,
  handle,
  idempotencyEntryKey,
  requestKeys,
  type HandleContext,
  type HttpRequest,
  type HttpResponse,
  type World
} from '../../src/http.js'
import { CATCH_ALL, KID, OTHER_KID, atOf, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'

const DAY = 24 * 60 * 60 * 1000
const at0 = atOf(0)
const plus = (at: string, ms: number): string => new Date(Date.parse(at) + ms).toISOString()
const ctxOf = (at: string, n = 1, extra: Partial<HandleContext> = {}): HandleContext => ({
  at,
  paymentReferenceID: idOf(n),
  catchAllUrl: CATCH_ALL,
  ...extra
})
const keyed = (method: string, path: string, key: string, body?: unknown): HttpRequest =>
  body === undefined ? { method, path, headers: { 'idempotency-key': key } } : { method, path, body, headers: { 'idempotency-key': key } }
const create = (key: string, body: unknown = cardRequest()): HttpRequest => keyed('POST', '/payments', key, body)
const codeOf = (r: HttpResponse): unknown => (r.body as { error?: { code?: unknown } }).error?.code
const issuePaths = (r: HttpResponse): unknown =>
  ((r.body as { error?: { issues?: ReadonlyArray<{ path: string; reason: string }> } }).error?.issues ?? []).map((i) => [i.path, i.reason])

describe('the header (C13: 1–255 printable ASCII characters, else 400 at headers.idempotency-key)', () => {
  it.each([
    ['empty', '', 'too_short'],
    ['longer than 255', 'k'.repeat(256), 'too_long'],
    ['not ASCII', 'nøkkel', 'format'],
    ['a control character', 'k\n1', 'format'],
    ['not a string', 42, 'type']
  ])('a key that is %s: 400 ValidationFailed, nothing remembered', (_, key, reason) => {
    const { world, response, deliveries } = handle(
      emptyWorld,
      { method: 'POST', path: '/payments', body: cardRequest(), headers: { 'idempotency-key': key as string } },
      ctxOf(at0)
    )
    expect(response.status).toBe(400)
    expect(codeOf(response)).toBe('ValidationFailed')
    expect(issuePaths(response)).toStrictEqual([['headers.idempotency-key', reason]])
    expect(world).toBe(emptyWorld)
    expect(deliveries).toStrictEqual([])
  })

  it('headers that are not an object: 400 at headers', () => {
    const { world, response } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest(), headers: 'k-1' as never }, ctxOf(at0))
    expect(response.status).toBe(400)
    expect(issuePaths(response)).toStrictEqual([['headers', 'type']])
    expect(world).toBe(emptyWorld)
  })

  it('255 printable characters, a space among them, are a key', () => {
    const key = ` ~${'k'.repeat(253)}`
    const { world, response } = handle(emptyWorld, create(key), ctxOf(at0))
    expect(response.status).toBe(201)
    expect(world.idempotencyKeys?.has(idempotencyEntryKey(undefined, key))).toBe(true)
  })

  it('only the lower-case own property is read (a polluted prototype adds no key)', () => {
    const proto = Object.prototype as Record<string, unknown>
    proto['idempotency-key'] = 'k-polluted'
    try {
      const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest(), headers: { 'Idempotency-Key': 'k-1' } }, ctxOf(at0))
      expect(world.idempotencyKeys?.size ?? 0).toBe(0)
    } finally {
      delete proto['idempotency-key']
    }
  })
})

/** A key as a structured-field string (RFC 8941): quoted, `"` and `\` escaped. */
const sfString = (key: string): string => `"${key.replace(/[\\"]/g, (c) => `\\${c}`)}"`
const cancelOf = (n: number, key: string): HttpRequest => keyed('POST', `/payments/${idOf(n)}/cancel`, key)
const messageOf = (r: HttpResponse): string => {
  const error = (r.body as { error?: unknown }).error
  return typeof error === 'string' ? error : String((error as { message?: unknown } | undefined)?.message)
}

describe('quoted keys (C13: a structured-field string or bare, one key)', () => {
  it('"k-1" and k-1 are one key: a retry in the other form gets the first answer; the row, requestKeys and changes hold k-1', () => {
    const { world: w1 } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(at0))
    const quoted = cancelOf(1, '"k-1"')
    const { world: w2, response: first, changes } = handle(w1, quoted, ctxOf(atOf(1)))
    expect(first.status).toBe(200)
    expect(changes.idempotencyKeys.map((r) => r.key)).toStrictEqual(['k-1'])
    expect(w2.idempotencyKeys?.get(idempotencyEntryKey(undefined, 'k-1'))?.key).toBe('k-1')
    expect(requestKeys(quoted, ctxOf(atOf(1))).idempotency).toStrictEqual({ key: 'k-1' })
    const { world: w3, response: again } = handle(w2, cancelOf(1, 'k-1'), ctxOf(atOf(2)))
    expect(again).toStrictEqual(first)
    expect(w3).toBe(w2)
    // and the other way round
    const { world: w4, response: bare } = handle(w1, cancelOf(1, 'k-2'), ctxOf(atOf(1)))
    const { world: w5, response: requoted } = handle(w4, cancelOf(1, '"k-2"'), ctxOf(atOf(2)))
    expect(requoted).toStrictEqual(bare)
    expect(w5).toBe(w4)
  })

  it.each([
    ['an escaped quote', String.raw`"say \"hi\""`, 'say "hi"'],
    ['an escaped backslash', String.raw`"a\\b"`, String.raw`a\b`],
    ['spaces kept', '" k 1 "', ' k 1 '],
    ['a quote inside a bare value', 'a"b', 'a"b'],
    ['a backslash in a bare value, as it is', String.raw`a\"b`, String.raw`a\"b`],
    ['255 characters quoted (257 sent)', sfString('k'.repeat(255)), 'k'.repeat(255)],
    ['255 escaped characters (512 sent)', sfString('"'.repeat(255)), '"'.repeat(255)]
  ])('%s: the key %#', (_, sent, key) => {
    const request = cancelOf(9, sent)
    const { response, changes } = handle(emptyWorld, request, ctxOf(at0))
    expect(response.status).toBe(404)
    expect(changes.idempotencyKeys.map((r) => r.key)).toStrictEqual([key])
    expect(requestKeys(request, ctxOf(at0)).idempotency).toStrictEqual({ key })
  })

  it.each([
    ['no closing quote', '"k-1', 'format'],
    ['a lone quote', '"', 'format'],
    ['something after the closing quote', '"k-1"x', 'format'],
    ['parameters after the string', '"k-1";p=1', 'format'],
    ['another escape than \\" and \\\\', String.raw`"k\n1"`, 'format'],
    ['a backslash at the end', '"k-1\\', 'format'],
    ['a control character inside', '"k\t1"', 'format'],
    ['a character past ASCII inside', '"nøkkel"', 'format'],
    ['an empty string', '""', 'too_short'],
    ['256 characters quoted', sfString('k'.repeat(256)), 'too_long'],
    ['longer than any quoted key', `"${'k'.repeat(600)}"`, 'too_long']
  ])('%s: 400 ValidationFailed at headers.idempotency-key, nothing remembered', (_, sent, reason) => {
    const request = { method: 'POST', path: '/payments', body: cardRequest(), headers: { 'idempotency-key': sent } }
    const { world, response } = handle(emptyWorld, request, ctxOf(at0))
    expect(response.status).toBe(400)
    expect(codeOf(response)).toBe('ValidationFailed')
    expect(issuePaths(response)).toStrictEqual([['headers.idempotency-key', reason]])
    expect(world).toBe(emptyWorld)
    expect('idempotency' in requestKeys(request, ctxOf(at0))).toBe(false)
    if (reason === 'format') {
      const params = (response.body as { error: { issues: ReadonlyArray<{ params?: unknown }> } }).error.issues[0]?.params
      expect(params).toStrictEqual({ format: 'structured-field string' })
    }
  })

  it('aQuotedKeyIsTheBareKey: for any key, its structured-field string and the key itself name one key and one answer', () => {
    const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 255 })
    fc.assert(
      fc.property(printable, fc.boolean(), (key, quotedFirst) => {
        // a value that starts with a quote is read as a structured-field string: sent bare, it is not this key
        fc.pre(!key.startsWith('"'))
        const [first, second] = quotedFirst ? [sfString(key), key] : [key, sfString(key)]
        const sent = cancelOf(9, first)
        expect(requestKeys(sent, ctxOf(at0)).idempotency).toStrictEqual({ key })
        const { world, response } = handle(emptyWorld, sent, ctxOf(at0))
        expect(response.status).toBe(404)
        const { world: again, response: replay } = handle(world, cancelOf(9, second), ctxOf(atOf(1)))
        expect(replay).toStrictEqual(response)
        expect(again).toBe(world)
      })
    )
  })
})

describe('messages (C13: on cancel, charge and refund each error of the header names it and says what is wrong)', () => {
  const faults: ReadonlyArray<readonly [string, Partial<HttpRequest>, number, RegExp]> = [
    ['a key that is not a string', { headers: { 'idempotency-key': 42 as never } }, 400, /must be a string/],
    ['an empty key', { headers: { 'idempotency-key': '' } }, 400, /names no key/],
    ['a key too long', { headers: { 'idempotency-key': 'k'.repeat(256) } }, 400, /too long/],
    ['a key not ASCII', { headers: { 'idempotency-key': 'nøkkel' } }, 400, /printable ASCII/],
    ['a malformed structured-field string', { headers: { 'idempotency-key': '"k-1' } }, 400, /not a structured-field string/],
    ['headers that are not an object', { headers: 'k-1' as never }, 400, /headers.*must be an object/]
  ]

  it.each(['cancel', 'charge', 'refund'])('%s: every 400 of the header, the 422 and the scope’s 500 name the header; none says "see issues"', (action) => {
    const path = `/payments/${idOf(1)}/${action}`
    const { world } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(at0))
    for (const [what, request, status, says] of faults) {
      const { response } = handle(world, { method: 'POST', path, ...request }, ctxOf(atOf(1)))
      expect(response.status, what).toBe(status)
      expect(typeof (response.body as { error?: unknown }).error, what).toBe('string')
      expect(messageOf(response), what).toMatch(/idempotency-key/)
      expect(messageOf(response), what).toMatch(says)
      expect(messageOf(response), what).not.toMatch(/see issues/)
    }
    const { world: used } = handle(world, keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-1'), ctxOf(atOf(1)))
    const { response: reused } = handle(used, keyed('POST', path === `/payments/${idOf(1)}/cancel` ? `/payments/${idOf(2)}/cancel` : path, 'k-1'), ctxOf(atOf(2)))
    expect(reused.status).toBe(422)
    expect(messageOf(reused)).toMatch(/idempotency-key.*another request/)
    const { response: scope } = handle(world, keyed('POST', path, 'k-9'), ctxOf(atOf(1), 1, { idempotencyScope: 7 as never }))
    expect(scope.status).toBe(500)
    expect(messageOf(scope)).toMatch(/idempotencyScope.*idempotency-key.*must be a string/)
  })

  it('the routes with the common error body carry the same message beside the issue', () => {
    for (const [what, request, status, says] of faults) {
      const { response } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest(), ...request }, ctxOf(at0))
      expect(response.status, what).toBe(status)
      expect(messageOf(response), what).toMatch(says)
      expect((response.body as { error: { issues?: ReadonlyArray<unknown> } }).error.issues?.length, what).toBe(1)
    }
  })
})

describe('the order of checks (C13: routing, then the context, then the key)', () => {
  it('an unknown route or a wrong method answers 404 / 405 whatever the key', () => {
    expect(handle(emptyWorld, keyed('POST', '/nowhere', ''), ctxOf(at0)).response.status).toBe(404)
    expect(handle(emptyWorld, keyed('PUT', '/payments', ''), ctxOf(at0)).response.status).toBe(405)
  })

  it('a bad context is 500 InvalidContext before a bad key is 400', () => {
    const { world, response } = handle(emptyWorld, create(''), { at: 'yesterday', paymentReferenceID: idOf(1) })
    expect(response.status).toBe(500)
    expect(codeOf(response)).toBe('InvalidContext')
    expect(world).toBe(emptyWorld)
  })

  it('an idempotencyScope that is not a string is the service’s fault: 500, nothing remembered', () => {
    const { world, response } = handle(emptyWorld, create('k-1'), ctxOf(at0, 1, { idempotencyScope: 7 as never }))
    expect(response.status).toBe(500)
    expect(issuePaths(response)).toStrictEqual([['idempotencyScope', 'type']])
    expect(world).toBe(emptyWorld)
  })

  it('a key on a read is ignored, even a malformed one (reads change nothing and are safe to repeat)', () => {
    const { world } = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const { world: again, response: read } = handle(world, keyed('GET', `/payments/${idOf(1)}`, ''), ctxOf(at0))
    expect(read.status).toBe(200)
    expect(again).toBe(world)
    const { response: readAgain } = handle(world, keyed('GET', `/payments/${idOf(1)}`, 'k-1'), ctxOf(at0))
    expect(readAgain).toStrictEqual(read)
  })
})

describe('a retry (C13: the same key and request → the stored response, nothing changed)', () => {
  it('a create retried with a fresh id and KID gets the first answer, 201, and no webhooks', () => {
    const { world, response: first, deliveries } = handle(emptyWorld, create('k-1', invoiceRequest()), ctxOf(at0, 1, { kid: KID }))
    expect(first.status).toBe(201)
    expect(deliveries.length).toBeGreaterThan(0)
    const { world: again, response: second, deliveries: none, events } = handle(world, create('k-1', invoiceRequest()), ctxOf(atOf(5), 2, { kid: OTHER_KID }))
    expect(second).toStrictEqual(first)
    expect(again).toBe(world)
    expect(none).toStrictEqual([])
    expect(events).toStrictEqual([])
  })

  it('a stored refusal (4xx) is answered again, even after the payment appeared', () => {
    const cancel = keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-cancel')
    const { world: w1, response: refused } = handle(emptyWorld, cancel, ctxOf(at0))
    expect(refused.status).toBe(404)
    expect(w1.payments.size).toBe(0)
    const { world: w2 } = handle(w1, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(atOf(1), 1))
    expect(w2.payments.size).toBe(1)
    const { world: w3, response: again } = handle(w2, cancel, ctxOf(atOf(2)))
    expect(again).toStrictEqual(refused)
    expect(w3).toBe(w2)
  })

  it('a 500 InvalidContext is not stored: the retry with a good context runs', () => {
    const { world: w1, response: fault } = handle(emptyWorld, create('k-1', invoiceRequest()), ctxOf(at0))
    expect(fault.status).toBe(500)
    expect(w1).toBe(emptyWorld)
    const { world: w2, response: created } = handle(w1, create('k-1', invoiceRequest()), ctxOf(atOf(1), 1, { kid: KID }))
    expect(created.status).toBe(201)
    expect(w2.payments.size).toBe(1)
  })

  it('the body is compared as a JSON value: key order does not matter', () => {
    const body = cardRequest()
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const { world, response: first } = handle(emptyWorld, create('k-1', body), ctxOf(at0))
    const { world: again, response: second } = handle(world, create('k-1', reordered), ctxOf(atOf(1), 2))
    expect(second).toStrictEqual(first)
    expect(again).toBe(world)
  })

  it('what the world remembers is a copy: changing the first response or body changes no retry', () => {
    const body = cardRequest()
    const { world, response: first } = handle(emptyWorld, create('k-1', body), ctxOf(at0))
    const kept = structuredClone(first)
    ;(first as { status: number }).status = 599
    ;(body as { grossAmount: number }).grossAmount = 1
    const { response: second } = handle(world, create('k-1', cardRequest()), ctxOf(atOf(1), 2))
    expect(second).toStrictEqual(kept)
  })
})

describe('a reused key (C13: another request → 422 IdempotencyKeyReused, nothing changed)', () => {
  it.each([
    ['another body', create('k-1', cardRequest({ grossAmount: 9000, moneySplitList: [{ connectedAccountID: idOf(7), amount: 9000, isFee: false }] }))],
    ['another path', keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-1')],
    ['another path naming the same payment', keyed('POST', `/payments/${idOf(1).toUpperCase()}/cancel`, 'k-2')]
  ])('%s', (_, request) => {
    const { world: w1 } = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const { world: w2 } = handle(w1, keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-2'), ctxOf(atOf(1)))
    const { world: w3, response, deliveries } = handle(w2, request, ctxOf(atOf(2), 3))
    expect(response.status).toBe(422)
    expect(w3).toBe(w2)
    expect(deliveries).toStrictEqual([])
    // cancel keeps its own failure body, its message naming the header, and carries the code
    if (request.path.endsWith('/cancel')) {
      expect(response.body).toStrictEqual({ response: null, success: false, error: expect.stringContaining('idempotency-key') as string, code: 'IdempotencyKeyReused' })
    }
    else expect(codeOf(response)).toBe('IdempotencyKeyReused')
  })

  it('scopes do not share keys: the same key in another scope is a new request', () => {
    const { world: w1, response: first } = handle(emptyWorld, create('k-1'), ctxOf(at0, 1, { idempotencyScope: 'api-key-a' }))
    const other = cardRequest({ externalPaymentReferenceID: 'order-2002' })
    const { world: w2, response: second } = handle(w1, create('k-1', other), ctxOf(atOf(1), 2, { idempotencyScope: 'api-key-b' }))
    expect([first.status, second.status]).toStrictEqual([201, 201])
    expect(w2.payments.size).toBe(2)
    const { response: shared } = handle(w2, create('k-1', other), ctxOf(atOf(2), 3))
    // the shared scope is a third one: the request runs, and is a repeat by its externalPaymentReferenceID
    expect(shared.status).toBe(200)
  })
})

describe('24 hours (C13: a key is kept 24 hours from the at of its first use)', () => {
  it('a retry a millisecond before 24 hours is answered; at 24 hours the key is forgotten and the request runs', () => {
    const cancel = keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-cancel')
    const { world: w1 } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(at0))
    const { world: w2, response: first } = handle(w1, cancel, ctxOf(at0))
    expect(first.status).toBe(200)
    const { world: w3, response: replay } = handle(w2, cancel, ctxOf(plus(at0, DAY - 1)))
    expect(replay).toStrictEqual(first)
    expect(w3).toBe(w2)
    const { world: w4, response: fresh } = handle(w2, cancel, ctxOf(plus(at0, DAY)))
    expect(fresh.status).toBe(409) // cancelled already: a new request, a new answer
    expect(w4.idempotencyKeys?.get(idempotencyEntryKey(undefined, 'k-cancel'))?.at).toBe(plus(at0, DAY))
  })

  it('a request without a key that changes the world forgets the expired keys; a refusal changes nothing', () => {
    const { world: w1 } = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const late = plus(at0, DAY)
    const { world: same } = handle(w1, { method: 'POST', path: `/payments/${idOf(9)}/cancel` }, ctxOf(late))
    expect(same).toBe(w1)
    const { world: w2 } = handle(w1, { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: 'order-2' }) }, ctxOf(late, 2))
    expect(w2.idempotencyKeys?.size).toBe(0)
    expect(w2.payments.size).toBe(2)
  })

  it('requests without a key keep the world’s keys: a later retry is still answered from them', () => {
    const cancel = keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-cancel')
    const { world: w1 } = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(at0))
    const { world: w2, response: first } = handle(w1, cancel, ctxOf(atOf(1)))
    const { world: w3 } = handle(w2, { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: 'order-2' }) }, ctxOf(atOf(2), 2))
    expect(w3.payments.size).toBe(2)
    expect(w3.idempotencyKeys).toBe(w2.idempotencyKeys)
    const { world: w4, response: again } = handle(w3, cancel, ctxOf(atOf(3)))
    expect(again).toStrictEqual(first)
    expect(w4).toBe(w3)
  })

  it('a create keeps every other part of the world (its keys, its OCR transmissions) as it was', () => {
    const { world: w1 } = handle(emptyWorld, keyed('POST', `/payments/${idOf(9)}/cancel`, 'k-1'), ctxOf(at0))
    const before: World = { ...w1, ocrTransmissions: new Map([['sender/1', { dataSender: 'sender', transmissionNumber: '1', at: at0 }]]) }
    const { world: after, response } = handle(before, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(atOf(1)))
    expect(response.status).toBe(201)
    expect(after.ocrTransmissions).toBe(before.ocrTransmissions)
    expect(after.idempotencyKeys).toBe(before.idempotencyKeys)
  })

  it('POST /payments without the header keeps its idempotency by externalPaymentReferenceID', () => {
    const { world: w1 } = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const { world: w2, response: repeat } = handle(w1, create('k-2'), ctxOf(atOf(1), 2))
    expect(repeat.status).toBe(200)
    expect(w2.payments).toBe(w1.payments)
    const { response: plain } = handle(w2, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(atOf(2), 3))
    expect(plain.status).toBe(200)
  })
})

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

/** One step of a client's history: a request (with a key, or not), or the payment form completing. */
type Step =
  | { readonly t: 'create'; readonly n: number; readonly ext: number; readonly gateway: 'card' | 'now' | 'invoice'; readonly keyed: boolean; readonly sends: number }
  | { readonly t: 'action'; readonly n: number; readonly action: string; readonly amount: number; readonly keyed: boolean; readonly sends: number }
  | { readonly t: 'form'; readonly n: number }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    t: fc.constant('create' as const),
    n: fc.integer({ min: 1, max: 3 }),
    ext: fc.integer({ min: 1, max: 3 }),
    gateway: fc.constantFrom('card' as const, 'now' as const, 'invoice' as const),
    keyed: fc.boolean(),
    sends: fc.integer({ min: 1, max: 3 })
  }),
  fc.record({
    t: fc.constant('action' as const),
    n: fc.integer({ min: 1, max: 3 }),
    action: fc.constantFrom('cancel', 'charge', 'refund', 'refund/partially', 'adjust'),
    amount: fc.integer({ min: 0, max: 9000 }),
    keyed: fc.boolean(),
    sends: fc.integer({ min: 1, max: 3 })
  }),
  fc.record({ t: fc.constant('form' as const), n: fc.integer({ min: 1, max: 3 }) })
)

const requestOf = (step: Exclude<Step, { t: 'form' }>, i: number): HttpRequest => {
  const headers = step.keyed ? { headers: { 'idempotency-key': `key-${String(i)}` } } : {}
  if (step.t === 'create') {
    const ext = `order-${String(step.ext)}`
    const body =
      step.gateway === 'invoice'
        ? invoiceRequest({ externalPaymentReferenceID: ext })
        : cardRequest({ externalPaymentReferenceID: ext, chargeImmediately: step.gateway === 'now' })
    return { method: 'POST', path: '/payments', body, ...headers }
  }
  const path = `/payments/${idOf(step.n)}/${step.action}`
  const patched = step.action === 'refund/partially' || step.action === 'adjust'
  const body = {
    moneySplitPatch: [
      { splitID: 1, updateType: 'UpdateAmount', newAmount: step.amount },
      { splitID: 2, updateType: 'DoNothing' }
    ],
    newGrossAmount: step.amount + 1000
  }
  return patched ? { method: 'POST', path, body, ...headers } : { method: 'POST', path, ...headers }
}

interface Answer {
  readonly response: HttpResponse
  readonly deliveries: number
}

/**
 * Runs the steps from the empty world; each request sent `sends` times when `retry` (else once),
 * each send with a context of its own (a later `at`, a fresh id and KID, as a service gives).
 * Gives the world and the answer of each step's first send, and checks every resend got that answer.
 */
const runSteps = (steps: ReadonlyArray<Step>, retry: boolean): { world: World; answers: ReadonlyArray<Answer | string> } => {
  let world: World = emptyWorld
  const answers: Array<Answer | string> = []
  steps.forEach((step, i) => {
    const at = atOf(i * 10)
    if (step.t === 'form') {
      const { world: next, result } = completeForm(world, idOf(step.n), { at, catchAllUrl: CATCH_ALL })
      world = next
      answers.push(result._tag)
      return
    }
    const request = requestOf(step, i)
    const ctx = (s: number): HandleContext => ({ at: atOf(i * 10 + s), paymentReferenceID: idOf(step.n + 10 * s), kid: s % 2 === 0 ? KID : OTHER_KID, catchAllUrl: CATCH_ALL })
    const { world: next, response, deliveries } = handle(world, request, { ...ctx(0), paymentReferenceID: idOf(step.n) })
    world = next
    answers.push({ response, deliveries: deliveries.length })
    if (!retry || !step.keyed) return
    for (let s = 1; s < step.sends; s++) {
      const { world: again, response: resent, deliveries: none, events: noEvents } = handle(world, request, ctx(s))
      expect(resent).toStrictEqual(response)
      expect(again).toBe(world)
      expect(none).toStrictEqual([])
      expect(noEvents).toStrictEqual([])
    }
  })
  return { world, answers }
}

describe('properties of safe retries (C13)', () => {
  it('aRetriedSequenceLeavesTheSameWorldAndAnswers: each keyed request sent 1–3 times = sent once', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 14 }), (steps) => {
        const once = runSteps(steps, false)
        const retried = runSteps(steps, true)
        expect(retried.answers).toStrictEqual(once.answers)
        expect(retried.world).toStrictEqual(once.world)
      })
    )
  })

  it('theStoredAnswerIsReturnedUnchanged: any keyed request sent again later gets its first answer, and nothing changes', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 10 }), fc.nat(), fc.integer({ min: 0, max: DAY - 1 }), (steps, pick, later) => {
        const { world, answers } = runSteps(steps, false)
        const keyedSteps = steps.flatMap((s, i) => (s.t !== 'form' && s.keyed ? [i] : []))
        fc.pre(keyedSteps.length > 0)
        const i = keyedSteps[pick % keyedSteps.length] as number
        const step = steps[i] as Exclude<Step, { t: 'form' }>
        const first = answers[i] as Answer
        const { world: after, response, deliveries, events } = handle(world, requestOf(step, i), {
          at: plus(atOf(i * 10), later),
          paymentReferenceID: idOf(99),
          kid: OTHER_KID
        })
        // a stored 5xx does not exist: a fault of the context is not remembered
        if (first.response.status < 500) {
          expect(response).toStrictEqual(first.response)
          expect(after).toBe(world)
          expect(deliveries).toStrictEqual([])
          expect(events).toStrictEqual([])
        }
      })
    )
  })

  it('aReusedKeyChangesNothing: a used key with another request is 422 IdempotencyKeyReused and the same world', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 10 }), fc.nat(), stepArb, (steps, pick, otherStep) => {
        const { world } = runSteps(steps, false)
        const used = [...(world.idempotencyKeys?.values() ?? [])]
        fc.pre(used.length > 0 && otherStep.t !== 'form')
        const record = used[pick % used.length]
        if (record === undefined) return
        const other = requestOf({ ...otherStep, keyed: true }, 0)
        const differs = other.path !== record.request.path || JSON.stringify(other.body) !== JSON.stringify(record.request.body)
        fc.pre(differs)
        const { world: after, response, deliveries, events } = handle(world, { ...other, headers: { 'idempotency-key': record.key } }, ctxOf(plus(record.at, 1), 50))
        expect(response.status).toBe(422)
        expect(after).toBe(world)
        expect(deliveries).toStrictEqual([])
        expect(events).toStrictEqual([])
      })
    )
  })

  it('theKeyStoreStaysBoundedBy24Hours: after each request only keys first used in the last 24 hours remain', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(stepArb, fc.integer({ min: 0, max: 30 * 60 * 60 * 1000 })), { minLength: 1, maxLength: 20 }), (timed) => {
        let world: World = emptyWorld
        let now = Date.parse(at0)
        const used: Array<number> = []
        timed.forEach(([step, gap], i) => {
          now += gap
          if (step.t === 'form') return
          const { world: next, response } = handle(world, requestOf({ ...step, keyed: true }, i), ctxOf(new Date(now).toISOString(), step.n, { kid: KID }))
          world = next
          if (response.status < 500) used.push(now)
          const records = [...(world.idempotencyKeys?.values() ?? [])]
          for (const r of records) expect(now - Date.parse(r.at)).toBeLessThan(DAY)
          expect(records.length).toBe(used.filter((t) => now - t < DAY).length)
        })
      })
    )
  })
})
