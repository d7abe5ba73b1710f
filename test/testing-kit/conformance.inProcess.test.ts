/**
 * Tests written against the survivors of a Stryker run on the conformance runner
 * (docs/testing.md, "Mutation testing"). This file drives the runner in
 * process: `send` calls `handle` on a world kept in a closure (fresh `at` and id per request, a
 * KID for each new invoice, as a service builds its contexts), the webhooks are the
 * deliveries collected, and the payment form and the bank are `completeForm`, `failForm` and
 * `receiveTransfer`. It pins `normalise` (ids of any case, times, texts, dropped `undefined`
 * members, sorted keys, plain writable properties, the depth limit, the empty id) and the exact
 * report of the runner against a conforming service, services that differ only where
 * normalisation must hide it, and broken variants: a wrong status, a wrong body field, many wrong
 * fields, an array for an object, long values, no body, a `null` body, a changed amount, cancel on
 * an invoice, charge with `chargeImmediately`, a 422 for an invalid create, a repeated create
 * answered with another payment, a missing webhook, a webhook to a wrong url, an extra webhook to
 * a url nobody subscribed, a wrong payload, only the first webhook of a request. Small `numRuns`, fixed seeds: deterministic and fast.
 * Named after the behaviour; the comments name the mutants (lines as of commit 6dd1871).
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { kid } from '../../src/index.js'
import {
  completeForm,
  emptyWorld,
  failForm,
  handle,
  receiveTransfer,
  type HandleContext,
  type Handled,
  type HttpRequest,
  type WebhookDelivery,
  type World
} from '../../src/http.js'
import {
  assertConforms,
  checkService,
  normalise,
  type CheckServiceOptions,
  type ConformanceReport,
  type ReceivedWebhook,
  type ServiceRequest,
  type ServiceResponse
} from '../../src/conformance.js'
import { handled } from '../support/conformance.fixtures.js'

// -------------------------------------------------------------------------------------
// normalise
// -------------------------------------------------------------------------------------

const ID = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
const OTHER = '6f1c3c52-3f51-4b8e-9a8e-000000000001'

/** `{ a: { a: … { leaf } } }`, `depth` objects deep: the outermost is at depth 0. */
const nested = (depth: number, leaf: unknown): unknown => {
  let v = leaf
  for (let i = 0; i < depth; i++) v = { a: v }
  return v
}
/** `[[…[leaf]…]]`, `depth` arrays deep. */
const nestedArrays = (depth: number, leaf: unknown): unknown => {
  let v = leaf
  for (let i = 0; i < depth; i++) v = [v]
  return v
}

describe('normalise', () => {
  it('replaces each known id (any case, every occurrence) by its label, times by <time>, texts by <text>', () => {
    const value = {
      eventID: `${ID}:2`,
      path: `/payments/${ID.toUpperCase()}/refund and ${ID}`,
      other: OTHER,
      createTime: '2026-11-21T10:00:00.000Z',
      plain: '2026-11-21T10:00:00Z',
      nanos: '2026-11-21T10:00:00.123456789Z',
      notATime: '2026-11-21 10:00:00',
      message: 'No such payment.',
      nested: { response: 'Refunded.', error: 'x', errors: 'kept' },
      list: ['2026-11-21T10:00:00.000Z', ID, { message: 'm' }]
    }
    expect(normalise(value, [[ID, '<payment 1>'], [OTHER, '<payment 2>']])).toStrictEqual({
      createTime: '<time>',
      eventID: '<payment 1>:2',
      list: ['<time>', '<payment 1>', { message: '<text>' }],
      message: '<text>',
      nanos: '<time>',
      nested: { error: '<text>', errors: 'kept', response: '<text>' },
      notATime: '2026-11-21 10:00:00',
      other: '<payment 2>',
      path: '/payments/<payment 1>/refund and <payment 1>',
      plain: '<time>'
    })
    expect(normalise(value, [], true)).toStrictEqual({
      createTime: '<time>',
      eventID: `${ID}:2`,
      list: ['<time>', ID, { message: 'm' }],
      message: 'No such payment.',
      nanos: '<time>',
      nested: { error: 'x', errors: 'kept', response: 'Refunded.' },
      notATime: '2026-11-21 10:00:00',
      other: OTHER,
      path: `/payments/${ID.toUpperCase()}/refund and ${ID}`,
      plain: '<time>'
    })
    // a string that is no member keeps its text; numbers, booleans and null stay
    expect(normalise('No such payment.', [])).toBe('No such payment.')
    expect(normalise([1, true, null], [])).toStrictEqual([1, true, null])
  })

  it('an empty id replaces nothing (and does not loop)', () => {
    // 112:7 `needle === ''` → false, 112:18 `''` → "Stryker was here!": the empty needle is found
    // at every index, for ever
    expect(normalise({ id: ID, text: 'abc' }, [['', 'x'], [ID, '<payment 1>']])).toStrictEqual({ id: '<payment 1>', text: 'abc' })
  })

  it('drops undefined members, sorts the keys, and gives plain writable members (__proto__ included)', () => {
    const value = JSON.parse('{"b":1,"__proto__":{"x":2},"a":[3],"c":null}') as Record<string, unknown>
    value['u'] = undefined
    const out = normalise(value, []) as Record<string, unknown>
    // 155:11 `x !== undefined` → true
    expect(Object.keys(out)).toStrictEqual(['__proto__', 'a', 'b', 'c'])
    // 153:21 the keys unsorted
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":2},"a":[3],"b":1,"c":null}')
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    // 155:116, 155:136 `writable` / `configurable` → false
    for (const k of Object.keys(out)) {
      expect(Object.getOwnPropertyDescriptor(out, k)).toStrictEqual({ value: out[k], enumerable: true, writable: true, configurable: true })
    }
    out['b'] = 5
    delete out['c']
    expect(out).toStrictEqual(JSON.parse('{"__proto__":{"x":2},"a":[3],"b":5}'))
  })

  it('normalises objects down to depth 100 and leaves deeper ones as they are', () => {
    const time = '2026-11-21T10:00:00.000Z'
    // the object at depth 100 is still normalised, the one at 101 is returned as it is
    // (150:48 `depth > 100` → false / `>= 100`; 155:76 `depth + 1` → `depth - 1`)
    const deepest = { t: time, u: undefined }
    const value = nested(100, { t: time, a: deepest })
    expect(normalise(value, [])).toStrictEqual(nested(100, { a: deepest, t: '<time>' }))
    expect((field100(normalise(value, [])) as { a: unknown }).a).toBe(deepest)
  })

  it('normalises arrays down to depth 100 and leaves deeper ones as they are', () => {
    // 151:57 `depth + 1` → `depth - 1`
    const time = '2026-11-21T10:00:00.000Z'
    const deepest = [time]
    const value = nestedArrays(100, [time, deepest])
    expect(normalise(value, [])).toStrictEqual(nestedArrays(100, ['<time>', deepest]))
  })

  it('a value it cannot read is "[unreadable]"', () => {
    const bad = {
      get x(): never {
        throw new Error('no')
      }
    }
    expect(normalise(bad, [])).toBe('[unreadable]')
  })
})

/** The value 100 objects deep in `nested(100, …)`. */
const field100 = (v: unknown): unknown => {
  let cur = v
  for (let i = 0; i < 100; i++) cur = (cur as { a: unknown }).a
  return cur
}

// -------------------------------------------------------------------------------------
// the service under test, in process
// -------------------------------------------------------------------------------------

type Handler = (world: World, request: HttpRequest, ctx: HandleContext) => Handled

const CATCH_ALL = 'https://hooks.example/all'
const SUB_A = 'https://hooks.example/a'
const SUB_B = 'https://hooks.example/b'

/** How a variant differs from the reference service. */
interface Variant {
  /** Instead of `handle`. */
  readonly handler?: Handler
  /** Changes a response on its way out. */
  readonly respond?: (request: ServiceRequest, response: ServiceResponse) => ServiceResponse
  /** Changes the webhooks of one request or operation before they are received. */
  readonly deliver?: (ws: ReadonlyArray<ReceivedWebhook>) => ReadonlyArray<ReceivedWebhook>
  /** Each run starts with an empty service (and `onReset` is called). */
  readonly onReset?: () => void
}

const json = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown))

/** The n-th KID of the service: a valid MOD10 KID. */
const kidOf = (n: number): string => {
  const made = kid.create(String(1_000_000_000 + n), 'mod10')
  return E.isRight(made) ? made.right : 'unreachable'
}

/**
 * paysplit's service model as a service under test: the world in a closure, a fresh time and id
 * per request (`…-00000000000n`, times from 2027-01-01T08:00:01.000Z on), the KID of a new
 * invoice fresh too (a repeated create keeps the stored one), webhooks JSON-copied.
 */
const service = (variant: Variant = {}): CheckServiceOptions => {
  let world: World = emptyWorld
  let n = 0
  let received: ReceivedWebhook[] = []
  const tick = (): string => new Date(Date.UTC(2027, 0, 1, 8, 0, 0) + ++n * 1000).toISOString()
  const deliver = (ds: ReadonlyArray<WebhookDelivery>): void => {
    const ws = ds.map((d) => ({ url: d.url, body: json(d.payload) }))
    received.push(...(variant.deliver?.(ws) ?? ws))
  }
  const handler = variant.handler ?? handle
  const event = <T,>(operate: (at: string) => { readonly world: World; readonly result: T; readonly deliveries: ReadonlyArray<WebhookDelivery> }): Promise<T> => {
    const { world: next, result, deliveries } = operate(tick())
    world = next
    deliver(deliveries)
    return Promise.resolve(result)
  }
  return {
    send: (request) => {
      const at = tick()
      const id = `6f1c3c52-3f51-4b8e-9a8e-${n.toString(16).padStart(12, '0')}`
      const ext: unknown = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>)['externalPaymentReferenceID'] : undefined
      const stored = typeof ext === 'string' ? world.references.get(ext) : undefined
      const ctx: HandleContext = { at, paymentReferenceID: id, kid: stored?.kid ?? kidOf(n), catchAllUrl: CATCH_ALL }
      const { world: next, response, deliveries } = handler(world, { method: request.method, path: request.path, body: json(request.body) }, ctx)
      world = next
      deliver(deliveries)
      const res = { status: response.status, body: json(response.body) }
      return Promise.resolve(variant.respond?.(request, res) ?? res)
    },
    receivedWebhooks: () => Promise.resolve([...received]),
    catchAllUrl: CATCH_ALL,
    webhookUrls: [SUB_A, SUB_B],
    completeForm: (id) => event((at) => completeForm(world, id, { at, catchAllUrl: CATCH_ALL })),
    failForm: (id, reason) => event((at) => failForm(world, id, { at, catchAllUrl: CATCH_ALL, ...(reason === undefined ? {} : { reason }) })),
    receiveTransfer: (id, amount, k) => event((at) => receiveTransfer(world, id, { amount, kid: k }, { at, catchAllUrl: CATCH_ALL })),
    ...(variant.onReset === undefined
      ? {}
      : {
          reset: () => {
            world = emptyWorld
            received = []
            variant.onReset?.()
            return Promise.resolve()
          }
        })
  }
}

/** A failed report as lines, with fast-check's command sequence (its `toString`s). */
const summary = (report: ConformanceReport): unknown => {
  const s = report.ok
    ? report
    : {
        numRuns: report.numRuns,
        seed: report.seed,
        commands: /Counterexample: \[(.*) \/\*replayPath/.exec(report.details)?.[1],
        counterexample: report.counterexample.split('\n')
      }
  // REPIN=1 prints each summary, to re-pin the expectations after a change of the generators
  if (process.env.REPIN === '1') console.log(`SUMMARY ${JSON.stringify(expect.getState().currentTestName)} ${JSON.stringify(s)}`)
  return s
}

const check = (variant: Variant, options: Partial<CheckServiceOptions>): Promise<ConformanceReport> =>
  checkService({ ...service(variant), numRuns: 100, seed: 1, ...options })

const paymentOf = (world: World, path: string): { readonly kind: string; readonly status: string; readonly chargeImmediately?: boolean } | undefined => {
  const id = /^\/payments\/([^/]+)\//.exec(path)?.[1]
  return id === undefined ? undefined : world.payments.get(id.toLowerCase())
}

/** Only `GET /payments/{unknown id}/cancel` (the runner's `wrongRoute(1)`, a 405) is answered differently: a one-line counterexample. */
const payouts = (change: (response: ServiceResponse) => ServiceResponse): Variant => ({
  respond: (request, response) => (request.method === 'GET' && request.path.endsWith('/cancel') ? change(response) : response)
})

// -------------------------------------------------------------------------------------
// checkService: conforming services
// -------------------------------------------------------------------------------------

describe('checkService in process: conforming services', () => {
  it('paysplit’s own model conforms (creates valid and invalid, repeats, actions, form and bank events, webhooks)', async () => {
    // 251:7 `deepEqual(want, got)` → false; 239:17 every webhook so far compared again at each step
    for (const seed of [1, 2, 3]) expect(await check({}, { numRuns: 40, seed })).toStrictEqual({ ok: true, numRuns: 40, seed, prefix: `k${String(seed)}-`, notes: [], coverage: expect.any(Object) })
    await expect(assertConforms({ ...service(), numRuns: 10, seed: 4 })).resolves.toBeUndefined()
  })

  it('ids in another case and times in another format are hidden by normalisation', async () => {
    const upper = (s: string): string => s.replace(/6f1c3c52-3f51-4b8e-9a8e-[0-9a-f]{12}/g, (id) => id.toUpperCase())
    const seconds = (s: string): string => s.replace(/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d{3}Z/g, '$1Z')
    const report = await check(
      {
        respond: (_, r) => ({ ...r, body: JSON.parse(seconds(upper(JSON.stringify(r.body)))) as unknown }),
        deliver: (ws) => ws.map((w) => ({ url: w.url, body: JSON.parse(seconds(upper(JSON.stringify(w.body)))) as unknown }))
      },
      { numRuns: 40 }
    )
    expect(report).toStrictEqual({ ok: true, numRuns: 40, seed: 1, prefix: 'k1-', notes: [], coverage: expect.any(Object) })
  })

  it('a service without receivedWebhooks is not asked for them: a missing webhook goes unnoticed', async () => {
    const report = await checkService({ ...service({ deliver: () => [] }), receivedWebhooks: undefined, numRuns: 20, seed: 1 })
    expect(report).toStrictEqual({ ok: true, numRuns: 20, seed: 1, prefix: 'k1-', notes: [], coverage: expect.any(Object) })
  })
})

// -------------------------------------------------------------------------------------
// checkService: broken services and their reports
// -------------------------------------------------------------------------------------

describe('checkService in process: broken services', () => {
  it('a wrong status code, the body right', async () => {
    expect(summary(await check(payouts((r) => ({ ...r, status: 400 })), {}))).toStrictEqual({
      numRuns: 7,
      seed: 1,
      commands: 'wrongRoute(1)',
      counterexample: [
        'GET /payments/ffffffff-ffff-4fff-bfff-ffffffffffff/cancel',
        '  ← 400 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '✗ response differs',
        '  expected (model): 405 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  received (service): 400 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  at status: expected 405, received 400'
      ]
    })
  })
  it('a wrong body field, the status right', async () => {
    expect(summary(await check(payouts((r) => ({ ...r, body: { success: false, error: { code: 'NotFound', message: 'Gone.' } } })), {}))).toStrictEqual({
      numRuns: 7,
      seed: 1,
      commands: 'wrongRoute(1)',
      counterexample: [
        'GET /payments/ffffffff-ffff-4fff-bfff-ffffffffffff/cancel',
        '  ← 405 {"error":{"code":"NotFound","message":"<text>"},"success":false}',
        '✗ response differs',
        '  expected (model): 405 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  received (service): 405 {"error":{"code":"NotFound","message":"<text>"},"success":false}',
        '  at body.error.code: expected "MethodNotAllowed", received "NotFound"'
      ]
    })
  })
  it('many differences: the first four are listed', async () => {
    expect(summary(await check(payouts(() => ({ status: 400, body: { success: true, error: 1, a: 1, b: 2, c: 3 } })), {}))).toStrictEqual({
      numRuns: 7,
      seed: 1,
      commands: 'wrongRoute(1)',
      counterexample: [
        'GET /payments/ffffffff-ffff-4fff-bfff-ffffffffffff/cancel',
        '  ← 400 {"a":1,"b":2,"c":3,"error":1,"success":true}',
        '✗ response differs',
        '  expected (model): 405 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  received (service): 400 {"a":1,"b":2,"c":3,"error":1,"success":true}',
        '  at status: expected 405, received 400',
        '  at body.error: expected {"code":"MethodNotAllowed","message":"<text>"}, received 1',
        '  at body.success: expected false, received true',
        '  at body.a: expected undefined, received 1'
      ]
    })
  })
  it('an array where the model has an object is one difference', async () => {
    expect(summary(await check(payouts((r) => ({ ...r, body: { success: false, error: ['MethodNotAllowed', 'x'] } })), {}))).toStrictEqual({
      numRuns: 7,
      seed: 1,
      commands: 'wrongRoute(1)',
      counterexample: [
        'GET /payments/ffffffff-ffff-4fff-bfff-ffffffffffff/cancel',
        '  ← 405 {"error":["MethodNotAllowed","x"],"success":false}',
        '✗ response differs',
        '  expected (model): 405 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  received (service): 405 {"error":["MethodNotAllowed","x"],"success":false}',
        '  at body.error: expected {"code":"MethodNotAllowed","message":"<text>"}, received ["MethodNotAllowed","x"]'
      ]
    })
  })
  it('long values are cut after 120 characters in a difference', async () => {
    expect(summary(await check(payouts((r) => ({ ...r, body: { ...(r.body as object), a: 'a'.repeat(118), b: 'b'.repeat(119) } })), {}))).toStrictEqual({
      numRuns: 7,
      seed: 1,
      commands: 'wrongRoute(1)',
      counterexample: [
        'GET /payments/ffffffff-ffff-4fff-bfff-ffffffffffff/cancel',
        '  ← 405 {"a":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","b":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '✗ response differs',
        '  expected (model): 405 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  received (service): 405 {"a":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","b":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  at body.a: expected undefined, received "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"',
        '  at body.b: expected undefined, received "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…'
      ]
    })
  })
  it('no body', async () => {
    expect(summary(await check(payouts((r) => ({ ...r, body: undefined })), {}))).toStrictEqual({
      numRuns: 7,
      seed: 1,
      commands: 'wrongRoute(1)',
      counterexample: [
        'GET /payments/ffffffff-ffff-4fff-bfff-ffffffffffff/cancel',
        '  ← 405 undefined',
        '✗ response differs',
        '  expected (model): 405 {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}',
        '  received (service): 405 undefined',
        '  at body: expected {"error":{"code":"MethodNotAllowed","message":"<text>"},"success":false}, received undefined'
      ]
    })
  })
  it('a null body of a create', async () => {
    expect(summary(await check({ respond: (q, r) => (q.path === '/payments' ? { ...r, body: null } : r) }, {}))).toStrictEqual({
      numRuns: 3,
      seed: 1,
      commands: 'create(order-0, creditcard)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 null',
        '✗ response differs',
        '  expected (model): 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"paymentGateway":"creditcard","paymentReferenceID":"<payment 1>","refundedAmount":0,"sellerConnectedAccountID":"00000000-0000-0000-0000-000000000…',
        '  received (service): 201 null',
        '  at body: expected {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<t…, received null'
      ]
    })
  })
  it('a changed amount', async () => {
    expect(summary(await check({ respond: (_, r) => ({ ...r, body: JSON.parse(JSON.stringify(r.body).replace('"grossAmount":', '"grossAmount":9')) as unknown }) }, {}))).toStrictEqual({
      numRuns: 3,
      seed: 1,
      commands: 'create(order-0, creditcard)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        '✗ response differs',
        '  expected (model): 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"paymentGateway":"creditcard","paymentReferenceID":"<payment 1>","refundedAmount":0,"sellerConnectedAccountID":"00000000-0000-0000-0000-000000000…',
        '  received (service): 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":91,"paymentGateway":"creditcard","paymentReferenceID":"<payment 1>","refundedAmount":0,"sellerConnectedAccountID":"00000000-0000-0000-0000-00000000…',
        '  at body.paymentIntent.paymentCreated.grossAmount: expected 1, received 91'
      ]
    })
  })
  it('cancel allowed on an invoice', async () => {
    const cancelInvoice: Handler = (world, request, ctx) => {
      const p = paymentOf(world, request.path)
      if (request.path.endsWith('/cancel') && p?.kind === 'invoice' && p.status === 'Initiated') {
        return handled(world, { status: 200, body: { success: true, response: 'Cancelled.' } } as unknown as Handled['response'], [], [])
      }
      return handle(world, request, ctx)
    }
    expect(summary(await check({ handler: cancelInvoice }, { kinds: ['invoice'] }))).toStrictEqual({
      numRuns: 10,
      seed: 1,
      commands: 'create(order-0, invoice),cancel(#0)',
      counterexample: [
        'POST /payments {"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"invoice","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000","successUrl":"http://a.aa.te…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"order-0","failedUrl":"http:…',
        'POST /payments/<payment 1>/cancel',
        '  ← 200 {"response":"<text>","success":true}',
        '✗ response differs',
        '  expected (model): 409 {"code":"InvoiceCannotBeCancelled","error":"<text>","response":null,"success":false}',
        '  received (service): 200 {"response":"<text>","success":true}',
        '  at status: expected 409, received 200',
        '  at body.code: expected "InvoiceCannotBeCancelled", received undefined',
        '  at body.error: expected "<text>", received undefined',
        '  at body.response: expected null, received "<text>"'
      ]
    })
  })
  it('charge allowed with chargeImmediately', async () => {
    const chargeImmediately: Handler = (world, request, ctx) => {
      const p = paymentOf(world, request.path)
      if (request.path.endsWith('/charge') && p?.chargeImmediately === true && p.status === 'Initiated') {
        return handled(world, { status: 200, body: { success: true, response: 'Charged.' } } as unknown as Handled['response'], [], [])
      }
      return handle(world, request, ctx)
    }
    expect(summary(await check({ handler: chargeImmediately }, { kinds: ['card'] }))).toStrictEqual({
      numRuns: 32,
      seed: 1,
      commands: 'create(order-0, creditcard),charge(#0)',
      counterexample: [
        'POST /payments {"chargeImmediately":true,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000",…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":true,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"or…',
        'POST /payments/<payment 1>/charge',
        '  ← 200 {"response":"<text>","success":true}',
        '✗ response differs',
        '  expected (model): 409 {"code":"ChargeNotAllowedForImmediateCharge","error":"<text>","success":false}',
        '  received (service): 200 {"response":"<text>","success":true}',
        '  at status: expected 409, received 200',
        '  at body.code: expected "ChargeNotAllowedForImmediateCharge", received undefined',
        '  at body.error: expected "<text>", received undefined',
        '  at body.success: expected false, received true'
      ]
    })
  })
  it('422 for an invalid create', async () => {
    expect(summary(await check({ respond: (q, r) => (q.path === '/payments' && r.status === 400 ? { ...r, status: 422 } : r) }, {}))).toStrictEqual({
      numRuns: 3,
      seed: 1,
      commands: 'wrongRoute(0)',
      counterexample: [
        'GET /payments',
        '  ← 422 {"error":{"code":"ValidationFailed","issues":[{"code":"ValidationFailed","message":"<text>","path":"externalPaymentReferenceID","reason":"required"}],"message":"<text>"},"success":false}',
        '✗ response differs',
        '  expected (model): 400 {"error":{"code":"ValidationFailed","issues":[{"code":"ValidationFailed","message":"<text>","path":"externalPaymentReferenceID","reason":"required"}],"message":"<text>"},"success":false}',
        '  received (service): 422 {"error":{"code":"ValidationFailed","issues":[{"code":"ValidationFailed","message":"<text>","path":"externalPaymentReferenceID","reason":"required"}],"message":"<text>"},"success":false}',
        '  at status: expected 400, received 422'
      ]
    })
  })
  it('a repeated create answered with the first payment', async () => {
    let first: unknown
    const handler: Handler = (world, request, ctx) => {
      const out = handle(world, request, ctx)
      if (request.path !== '/payments') return out
      if (out.response.status === 201) first ??= out.response.body
      return out.response.status === 200 ? { ...out, response: { ...out.response, body: first } as Handled['response'] } : out
    }
    expect(summary(await check({ handler, onReset: () => (first = undefined) }, { kinds: ['card'] }))).toStrictEqual({
      numRuns: 10,
      seed: 1,
      commands: 'create(order-0, creditcard),nextStep(#0),repeatCreate(0)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        'completeForm <payment 1>  (model: Reserved)',
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 200 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        '✗ response differs',
        '  expected (model): 200 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"paymentGateway":"creditcard","paymentReferenceID":"<payment 1>","refundedAmount":0,"sellerConnectedAccountID":"00000000-0000-0000-0000-000000000…',
        '  received (service): 200 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"paymentGateway":"creditcard","paymentReferenceID":"<payment 1>","refundedAmount":0,"sellerConnectedAccountID":"00000000-0000-0000-0000-000000000…',
        '  at body.paymentIntent.paymentCreated.status: expected "Reserved", received "Initiated"'
      ]
    })
  })
  it('a missing webhook', async () => {
    expect(summary(await check({ deliver: (ws) => ws.filter((w) => field(w.body, 'eventType') !== 'Cancelled') }, { kinds: ['card'] }))).toStrictEqual({
      numRuns: 10,
      seed: 1,
      commands: 'create(order-0, creditcard),cancel(#0)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        'POST /payments/<payment 1>/cancel',
        '  ← 200 {"error":null,"response":"<text>","success":true}',
        '✗ webhooks differ',
        '  expected (model):',
        '    Cancelled <payment 1>:2 → https://hooks.example/all',
        '  received (service):',
        '    (none)',
        '  delivery 1 to https://hooks.example/all differs at:',
        '    (body): expected {"createTime":"<time>","eventID":"<payment 1>:2","eventType":"Cancelled","objectName":"payment","payload":{"payment":{"m…, received undefined'
      ]
    })
  })
  it('webhooks of one url missing', async () => {
    expect(summary(await check({ deliver: (ws) => ws.filter((w) => w.url !== SUB_A) }, { kinds: ['card'] }))).toStrictEqual({
      numRuns: 16,
      seed: 1,
      commands: 'create(order-0, creditcard)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        '✗ webhooks differ',
        '  expected (model):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '    Initiated <payment 1>:1 → https://hooks.example/a',
        '  received (service):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '  delivery 1 to https://hooks.example/a differs at:',
        '    (body): expected {"createTime":"<time>","eventID":"<payment 1>:1","eventType":"Initiated","objectName":"payment","payload":{"payment":{"m…, received undefined'
      ]
    })
  })
  it('webhooks to a wrong url', async () => {
    expect(summary(await check({ deliver: (ws) => ws.map((w) => ({ ...w, url: CATCH_ALL })) }, { kinds: ['card'] }))).toStrictEqual({
      numRuns: 16,
      seed: 1,
      commands: 'create(order-0, creditcard)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        '✗ webhooks differ',
        '  expected (model):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '    Initiated <payment 1>:1 → https://hooks.example/a',
        '  received (service):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '  delivery 2 to https://hooks.example/all differs at:',
        '    (body): expected undefined, received {"createTime":"<time>","eventID":"<payment 1>:1","eventType":"Initiated","objectName":"payment","payload":{"payment":{"m…'
      ]
    })
  })
  it('a wrong payload', async () => {
    expect(summary(await check({ deliver: (ws) => ws.map((w) => ({ ...w, body: JSON.parse(JSON.stringify(w.body).replace('"grossAmount":', '"grossAmount":1').replace('"objectName":"payment"', '"objectName":"Payment"')) as unknown })) }, { kinds: ['card'] }))).toStrictEqual({
      numRuns: 3,
      seed: 1,
      commands: 'create(order-0, creditcard)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        '✗ webhooks differ',
        '  expected (model):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '  received (service):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '  delivery 1 to https://hooks.example/all differs at:',
        '    objectName: expected "payment", received "Payment"',
        '    payload.payment.paymentCreated.grossAmount: expected 1, received 11'
      ]
    })
  })
  it('an extra webhook to a url nobody subscribed', async () => {
    // 258:28 `want[url] ?? []` → `["Stryker was here"]`: a url only the service sent to
    expect(summary(await check({ deliver: (ws) => ws.flatMap((w) => [w, { ...w, url: 'https://hooks.example/debug' }]) }, { kinds: ['card'] }))).toStrictEqual({
      numRuns: 3,
      seed: 1,
      commands: 'create(order-0, creditcard)',
      counterexample: [
        'POST /payments {"chargeImmediately":false,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000"…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":false,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"o…',
        '✗ webhooks differ',
        '  expected (model):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '  received (service):',
        '    Initiated <payment 1>:1 → https://hooks.example/all',
        '    Initiated <payment 1>:1 → https://hooks.example/debug',
        '  delivery 1 to https://hooks.example/debug differs at:',
        '    (body): expected undefined, received {"createTime":"<time>","eventID":"<payment 1>:1","eventType":"Initiated","objectName":"payment","payload":{"payment":{"m…'
      ]
    })
  })
  it('only the first webhook of a request', async () => {
    expect(summary(await check({ deliver: (ws) => ws.filter((w, i) => ws.findIndex((x) => x.url === w.url) === i) }, { kinds: ['card'], numRuns: 1000 }))).toStrictEqual({
      numRuns: 517,
      seed: 1,
      commands: 'create(order-0, creditcard),nextStep(#0),refundPartially(#0)',
      counterexample: [
        'POST /payments {"chargeImmediately":true,"currency":"AED","customerExternalID":"customer-0","environment":"test","externalPaymentReferenceID":"order-0","failedUrl":"http://a.aa.test","grossAmount":1,"metaData":{},"moneySplitList":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false}],"paymentGateway":"creditcard","sellerConnectedAccountID":"00000000-0000-0000-0000-000000000000",…',
        '  ← 201 {"paymentIntent":{"moneySplit":[{"amount":1,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"paymentCreated":{"chargeImmediately":true,"chargedAmount":0,"createdAt":"<time>","currency":"AED","customerExternalID":"customer-0","environment":"test","excessRefundedAmount":0,"externalPaymentReferenceID":"or…',
        'completeForm <payment 1>  (model: Charged)',
        'POST /payments/<payment 1>/refund/partially {"moneySplitPatch":[{"newAmount":0,"splitID":1,"updateType":"UpdateAmount"}],"newGrossAmount":0}',
        '  ← 200 {"message":"<text>","refundedSplit":[{"connectedAccountID":"00000000-0000-0000-0000-000000000000","isFee":false,"refundAmount":1}],"splitList":[{"amount":0,"connectedAccountID":"00000000-0000-0000-0000-000000000000","insertTime":"<time>","isFee":false,"paymentReferenceID":"<payment 1>","splitID":1}],"success":true}',
        '✗ webhooks differ',
        '  expected (model):',
        '    PartiallyRefunded <payment 1>:3 → https://hooks.example/all',
        '    Refunded <payment 1>:4 → https://hooks.example/all',
        '  received (service):',
        '    PartiallyRefunded <payment 1>:3 → https://hooks.example/all',
        '  delivery 2 to https://hooks.example/all differs at:',
        '    (body): expected {"createTime":"<time>","eventID":"<payment 1>:4","eventType":"Refunded","objectName":"payment","payload":{"payment":{"me…, received undefined'
      ]
    })
  })
})

const field = (v: unknown, k: string): unknown => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined)
