/**
 * Safe retries (docs/rules.md C13): the `idempotency-key` header of every POST route of `handle`,
 * the record the world keeps per key and scope, and the 24 hours it keeps it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  completeForm,
  emptyWorld,
  handle,
  idempotencyEntryKey,
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
    const [world, response, deliveries] = handle(
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
    const [world, response] = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest(), headers: 'k-1' as never }, ctxOf(at0))
    expect(response.status).toBe(400)
    expect(issuePaths(response)).toStrictEqual([['headers', 'type']])
    expect(world).toBe(emptyWorld)
  })

  it('255 printable characters, a space among them, are a key', () => {
    const key = ` ~${'k'.repeat(253)}`
    const [world, response] = handle(emptyWorld, create(key), ctxOf(at0))
    expect(response.status).toBe(201)
    expect(world.idempotencyKeys?.has(idempotencyEntryKey(undefined, key))).toBe(true)
  })

  it('only the lower-case own property is read (a polluted prototype adds no key)', () => {
    const proto = Object.prototype as Record<string, unknown>
    proto['idempotency-key'] = 'k-polluted'
    try {
      const [world] = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest(), headers: { 'Idempotency-Key': 'k-1' } }, ctxOf(at0))
      expect(world.idempotencyKeys?.size ?? 0).toBe(0)
    } finally {
      delete proto['idempotency-key']
    }
  })
})

describe('the order of checks (C13: routing, then the context, then the key)', () => {
  it('an unknown route or a wrong method answers 404 / 405 whatever the key', () => {
    expect(handle(emptyWorld, keyed('POST', '/nowhere', ''), ctxOf(at0))[1].status).toBe(404)
    expect(handle(emptyWorld, keyed('PUT', '/payments', ''), ctxOf(at0))[1].status).toBe(405)
  })

  it('a bad context is 500 InvalidContext before a bad key is 400', () => {
    const [world, response] = handle(emptyWorld, create(''), { at: 'yesterday', paymentReferenceID: idOf(1) })
    expect(response.status).toBe(500)
    expect(codeOf(response)).toBe('InvalidContext')
    expect(world).toBe(emptyWorld)
  })

  it('an idempotencyScope that is not a string is the service’s fault: 500, nothing remembered', () => {
    const [world, response] = handle(emptyWorld, create('k-1'), ctxOf(at0, 1, { idempotencyScope: 7 as never }))
    expect(response.status).toBe(500)
    expect(issuePaths(response)).toStrictEqual([['idempotencyScope', 'type']])
    expect(world).toBe(emptyWorld)
  })

  it('a key on a read is ignored, even a malformed one (reads change nothing and are safe to repeat)', () => {
    const [world] = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const [again, read] = handle(world, keyed('GET', `/payments/${idOf(1)}`, ''), ctxOf(at0))
    expect(read.status).toBe(200)
    expect(again).toBe(world)
    const [, readAgain] = handle(world, keyed('GET', `/payments/${idOf(1)}`, 'k-1'), ctxOf(at0))
    expect(readAgain).toStrictEqual(read)
  })
})

describe('a retry (C13: the same key and request → the stored response, nothing changed)', () => {
  it('a create retried with a fresh id and KID gets the first answer, 201, and no webhooks', () => {
    const [world, first, deliveries] = handle(emptyWorld, create('k-1', invoiceRequest()), ctxOf(at0, 1, { kid: KID }))
    expect(first.status).toBe(201)
    expect(deliveries.length).toBeGreaterThan(0)
    const [again, second, none, events] = handle(world, create('k-1', invoiceRequest()), ctxOf(atOf(5), 2, { kid: OTHER_KID }))
    expect(second).toStrictEqual(first)
    expect(again).toBe(world)
    expect(none).toStrictEqual([])
    expect(events).toStrictEqual([])
  })

  it('a stored refusal (4xx) is answered again, even after the payment appeared', () => {
    const cancel = keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-cancel')
    const [w1, refused] = handle(emptyWorld, cancel, ctxOf(at0))
    expect(refused.status).toBe(404)
    expect(w1.payments.size).toBe(0)
    const [w2] = handle(w1, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(atOf(1), 1))
    expect(w2.payments.size).toBe(1)
    const [w3, again] = handle(w2, cancel, ctxOf(atOf(2)))
    expect(again).toStrictEqual(refused)
    expect(w3).toBe(w2)
  })

  it('a 500 InvalidContext is not stored: the retry with a good context runs', () => {
    const [w1, fault] = handle(emptyWorld, create('k-1', invoiceRequest()), ctxOf(at0))
    expect(fault.status).toBe(500)
    expect(w1).toBe(emptyWorld)
    const [w2, created] = handle(w1, create('k-1', invoiceRequest()), ctxOf(atOf(1), 1, { kid: KID }))
    expect(created.status).toBe(201)
    expect(w2.payments.size).toBe(1)
  })

  it('the body is compared as a JSON value: key order does not matter', () => {
    const body = cardRequest()
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const [world, first] = handle(emptyWorld, create('k-1', body), ctxOf(at0))
    const [again, second] = handle(world, create('k-1', reordered), ctxOf(atOf(1), 2))
    expect(second).toStrictEqual(first)
    expect(again).toBe(world)
  })

  it('what the world remembers is a copy: changing the first response or body changes no retry', () => {
    const body = cardRequest()
    const [world, first] = handle(emptyWorld, create('k-1', body), ctxOf(at0))
    const kept = structuredClone(first)
    ;(first as { status: number }).status = 599
    ;(body as { grossAmount: number }).grossAmount = 1
    const [, second] = handle(world, create('k-1', cardRequest()), ctxOf(atOf(1), 2))
    expect(second).toStrictEqual(kept)
  })
})

describe('a reused key (C13: another request → 409 IdempotencyKeyReused, nothing changed)', () => {
  it.each([
    ['another body', create('k-1', cardRequest({ grossAmount: 9000, moneySplitList: [{ connectedAccountID: idOf(7), amount: 9000, isFee: false }] }))],
    ['another path', keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-1')],
    ['another path naming the same payment', keyed('POST', `/payments/${idOf(1).toUpperCase()}/cancel`, 'k-2')]
  ])('%s', (_, request) => {
    const [w1] = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const [w2] = handle(w1, keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-2'), ctxOf(atOf(1)))
    const [w3, response, deliveries] = handle(w2, request, ctxOf(atOf(2), 3))
    expect(response.status).toBe(409)
    expect(w3).toBe(w2)
    expect(deliveries).toStrictEqual([])
    // cancel keeps its own failure body
    if (request.path.endsWith('/cancel')) expect(response.body).toStrictEqual({ response: null, success: false, error: expect.any(String), code: 'IdempotencyKeyReused' })
    else expect(codeOf(response)).toBe('IdempotencyKeyReused')
  })

  it('scopes do not share keys: the same key in another scope is a new request', () => {
    const [w1, first] = handle(emptyWorld, create('k-1'), ctxOf(at0, 1, { idempotencyScope: 'api-key-a' }))
    const other = cardRequest({ externalPaymentReferenceID: 'order-2002' })
    const [w2, second] = handle(w1, create('k-1', other), ctxOf(atOf(1), 2, { idempotencyScope: 'api-key-b' }))
    expect([first.status, second.status]).toStrictEqual([201, 201])
    expect(w2.payments.size).toBe(2)
    const [, shared] = handle(w2, create('k-1', other), ctxOf(atOf(2), 3))
    // the shared scope is a third one: the request runs, and is a repeat by its externalPaymentReferenceID
    expect(shared.status).toBe(200)
  })
})

describe('24 hours (C13: a key is kept 24 hours from the at of its first use)', () => {
  it('a retry a millisecond before 24 hours is answered; at 24 hours the key is forgotten and the request runs', () => {
    const cancel = keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-cancel')
    const [w1] = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(at0))
    const [w2, first] = handle(w1, cancel, ctxOf(at0))
    expect(first.status).toBe(200)
    const [w3, replay] = handle(w2, cancel, ctxOf(plus(at0, DAY - 1)))
    expect(replay).toStrictEqual(first)
    expect(w3).toBe(w2)
    const [w4, fresh] = handle(w2, cancel, ctxOf(plus(at0, DAY)))
    expect(fresh.status).toBe(409) // cancelled already: a new request, a new answer
    expect(w4.idempotencyKeys?.get(idempotencyEntryKey(undefined, 'k-cancel'))?.at).toBe(plus(at0, DAY))
  })

  it('a request without a key that changes the world forgets the expired keys; a refusal changes nothing', () => {
    const [w1] = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const late = plus(at0, DAY)
    const [same] = handle(w1, { method: 'POST', path: `/payments/${idOf(9)}/cancel` }, ctxOf(late))
    expect(same).toBe(w1)
    const [w2] = handle(w1, { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: 'order-2' }) }, ctxOf(late, 2))
    expect(w2.idempotencyKeys?.size).toBe(0)
    expect(w2.payments.size).toBe(2)
  })

  it('requests without a key keep the world’s keys: a later retry is still answered from them', () => {
    const cancel = keyed('POST', `/payments/${idOf(1)}/cancel`, 'k-cancel')
    const [w1] = handle(emptyWorld, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(at0))
    const [w2, first] = handle(w1, cancel, ctxOf(atOf(1)))
    const [w3] = handle(w2, { method: 'POST', path: '/payments', body: cardRequest({ externalPaymentReferenceID: 'order-2' }) }, ctxOf(atOf(2), 2))
    expect(w3.payments.size).toBe(2)
    expect(w3.idempotencyKeys).toBe(w2.idempotencyKeys)
    const [w4, again] = handle(w3, cancel, ctxOf(atOf(3)))
    expect(again).toStrictEqual(first)
    expect(w4).toBe(w3)
  })

  it('a create keeps every other part of the world (its keys, its OCR transmissions) as it was', () => {
    const [w1] = handle(emptyWorld, keyed('POST', `/payments/${idOf(9)}/cancel`, 'k-1'), ctxOf(at0))
    const before: World = { ...w1, ocrTransmissions: new Set(['sender:1']) }
    const [after, response] = handle(before, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(atOf(1)))
    expect(response.status).toBe(201)
    expect(after.ocrTransmissions).toBe(before.ocrTransmissions)
    expect(after.idempotencyKeys).toBe(before.idempotencyKeys)
  })

  it('POST /payments without the header keeps its idempotency by externalPaymentReferenceID', () => {
    const [w1] = handle(emptyWorld, create('k-1'), ctxOf(at0))
    const [w2, repeat] = handle(w1, create('k-2'), ctxOf(atOf(1), 2))
    expect(repeat.status).toBe(200)
    expect(w2.payments).toBe(w1.payments)
    const [, plain] = handle(w2, { method: 'POST', path: '/payments', body: cardRequest() }, ctxOf(atOf(2), 3))
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
      const [next, result] = completeForm(world, idOf(step.n), { at, catchAllUrl: CATCH_ALL })
      world = next
      answers.push(result._tag)
      return
    }
    const request = requestOf(step, i)
    const ctx = (s: number): HandleContext => ({ at: atOf(i * 10 + s), paymentReferenceID: idOf(step.n + 10 * s), kid: s % 2 === 0 ? KID : OTHER_KID, catchAllUrl: CATCH_ALL })
    const [next, response, deliveries] = handle(world, request, { ...ctx(0), paymentReferenceID: idOf(step.n) })
    world = next
    answers.push({ response, deliveries: deliveries.length })
    if (!retry || !step.keyed) return
    for (let s = 1; s < step.sends; s++) {
      const [again, resent, none, noEvents] = handle(world, request, ctx(s))
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
        const [after, response, deliveries, events] = handle(world, requestOf(step, i), {
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

  it('aReusedKeyChangesNothing: a used key with another request is 409 IdempotencyKeyReused and the same world', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 10 }), fc.nat(), stepArb, (steps, pick, otherStep) => {
        const { world } = runSteps(steps, false)
        const used = [...(world.idempotencyKeys?.values() ?? [])]
        fc.pre(used.length > 0 && otherStep.t !== 'form')
        const record = used[pick % used.length]
        if (record === undefined) return
        const other = requestOf({ ...otherStep, keyed: true }, 0)
        const differs = other.path !== record.path || JSON.stringify(other.body) !== JSON.stringify(record.body)
        fc.pre(differs)
        const [after, response, deliveries, events] = handle(world, { ...other, headers: { 'idempotency-key': record.key } }, ctxOf(plus(record.at, 1), 50))
        expect(response.status).toBe(409)
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
          const [next, response] = handle(world, requestOf({ ...step, keyed: true }, i), ctxOf(new Date(now).toISOString(), step.n, { kid: KID }))
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
