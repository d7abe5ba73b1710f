/**
 * Model-based conformance of a payments service: {@link checkService} drives any HTTP service
 * (the caller says how to send a request and how to read the webhooks it sent) with random
 * command sequences (`fc.commands` + `fc.asyncModelRun`), runs the same requests on paysplit's
 * reference service model (`handle` of `paysplit/http`), and compares status codes, bodies and
 * webhooks, with identifiers and times normalised. A difference is shrunk by fast-check to a
 * short sequence and reported as a readable request log.
 *
 * @module testing/conformance
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import type { Payment, PaymentKind } from '../payment.js'
import type { PaymentIntentRequest } from '../codecs/requests.js'
import { completeForm, emptyWorld, failForm, handle, receiveTransfer, type HttpRequest, type World } from '../http/service.js'
import type { WebhookDelivery } from '../http/webhooks.js'
import { invalidPaymentIntentRequestArb, opArb, patchOf, paymentIntentRequestArb, type Op } from './arbitraries.js'
import { deepEqual } from './harness.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A request to the service under test; `body` is a JSON value (absent: no body). */
export interface ServiceRequest {
  readonly method: string
  /** Path relative to the service's base url, e.g. `/payments/{id}/cancel`. */
  readonly path: string
  readonly body?: unknown
}

/** The service's answer: the status code and the body parsed from JSON (`undefined` if empty). */
export interface ServiceResponse {
  readonly status: number
  readonly body: unknown
}

/** A webhook the service sent: the url it was POSTed to and the body parsed from JSON. */
export interface ReceivedWebhook {
  readonly url: string
  readonly body: unknown
}

/**
 * The service under test, as {@link checkService} drives it. Only `send` is required; each other
 * member switches on a part of the check.
 */
export interface ServiceUnderTest {
  /** Sends one request and resolves with the response. */
  readonly send: (request: ServiceRequest) => Promise<ServiceResponse>
  /**
   * Every webhook received so far, in order of arrival. It must resolve only once the webhooks
   * of the requests sent so far have arrived (wait for the service's outbox to drain). Without
   * it, webhooks are not compared.
   */
  readonly receivedWebhooks?: () => Promise<ReadonlyArray<ReceivedWebhook>>
  /** The catch-all webhook url the service is configured with (it receives every webhook). */
  readonly catchAllUrl?: string
  /** The payment form reports success for this payment (not part of the caller's API). */
  readonly completeForm?: (paymentReferenceID: string) => Promise<unknown>
  /** The payment form reports a failed attempt. */
  readonly failForm?: (paymentReferenceID: string, reason?: string) => Promise<unknown>
  /** The bank reports a KID transfer to an invoice. */
  readonly receiveTransfer?: (paymentReferenceID: string, amount: number, kid: string) => Promise<unknown>
  /** Called before each run, e.g. to empty the service's storage. Optional: each run also uses fresh references. */
  readonly reset?: () => Promise<void>
}

/** What to check and how hard. */
export interface CheckServiceOptions extends ServiceUnderTest {
  /**
   * Command sequences to run. Default: fast-check's global `numRuns` (100 unless configured), a
   * quick check; bugs that need a long life (a refund after a partial refund) want about 1000
   * (docs/testing.md, "How many runs").
   */
  readonly numRuns?: number
  /** Replay a failure: the `seed` and `path` of its report. */
  readonly seed?: number
  readonly path?: string
  /** Longest command sequence. Default 12. */
  readonly maxCommands?: number
  /** Payment kinds to create. Default both. */
  readonly kinds?: ReadonlyArray<PaymentKind>
  /**
   * The urls a generated request may subscribe webhooks to; they must reach your receiver.
   * Default none (only the catch-all url receives webhooks).
   */
  readonly webhookUrls?: ReadonlyArray<string>
  /** Compare human-readable texts (`message`, and the string `response`/`error` of cancel, charge, refund) too. Default false. */
  readonly compareMessages?: boolean
}

/** The outcome of {@link checkService}. */
export type ConformanceReport =
  | { readonly ok: true; readonly numRuns: number; readonly seed: number }
  | {
      readonly ok: false
      readonly numRuns: number
      readonly seed: number
      /**
       * With `seed`, replays the shrunk counterexample alone: `checkService({ ...options, seed, path })`.
       * Written `<fast-check path>|<command replay path>`: a command sequence needs both to replay.
       */
      readonly path: string
      /** The shrunk counterexample as a request log, ending with the first difference. */
      readonly counterexample: string
      /** fast-check's own report (the command sequence). */
      readonly details: string
    }

// -------------------------------------------------------------------------------------
// normalisation
// -------------------------------------------------------------------------------------

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/
const TEXT_KEYS = new Set(['message', 'response', 'error'])

const replaceAll = (s: string, needle: string, by: string): string => {
  if (needle === '') return s
  const lower = s.toLowerCase()
  const n = needle.toLowerCase()
  let out = ''
  let from = 0
  for (let i = lower.indexOf(n); i !== -1; i = lower.indexOf(n, from)) {
    out += s.slice(from, i) + by
    from = i + n.length
  }
  return out + s.slice(from)
}

/**
 * A JSON value with identifiers and times made comparable: each occurrence of a known id (any
 * case) becomes its label, every ISO 8601 UTC timestamp `<time>`, and (unless `compareMessages`)
 * every string under a `message`, `response` or `error` key `<text>`. `undefined` members are
 * dropped, as JSON would. Never throws.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { normalise } from 'paysplit/testing'
 * const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
 * assert.deepStrictEqual(
 *   normalise({ eventID: `${id}:2`, createTime: '2026-11-21T10:00:00.000Z', error: 'No such payment.' }, [[id, '<payment 1>']]),
 *   { eventID: '<payment 1>:2', createTime: '<time>', error: '<text>' }
 * )
 */
export const normalise = (
  value: unknown,
  ids: ReadonlyArray<readonly [id: string, label: string]>,
  compareMessages = false
): unknown => {
  const go = (v: unknown, key: string, depth: number): unknown => {
    if (typeof v === 'string') {
      if (!compareMessages && TEXT_KEYS.has(key)) return '<text>'
      if (TIMESTAMP.test(v)) return '<time>'
      return ids.reduce((s, [id, label]) => replaceAll(s, id, label), v)
    }
    if (typeof v !== 'object' || v === null || depth > 100) return v
    if (Array.isArray(v)) return v.map((x) => go(x, '', depth + 1))
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k]
      if (x !== undefined) Object.defineProperty(out, k, { value: go(x, k, depth + 1), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  try {
    return go(value, '', 0)
  } catch {
    return '[unreadable]'
  }
}

// -------------------------------------------------------------------------------------
// the model of a run
// -------------------------------------------------------------------------------------

interface Known {
  readonly label: string
  readonly modelId: string
  readonly realId: string
}

interface Model {
  world: World
  readonly known: Known[]
  readonly creates: unknown[]
  readonly log: string[]
  readonly tag: string
  tick: number
}

interface Real {
  readonly sut: CheckServiceOptions
  seen: number
}

const UNKNOWN_ID = 'ffffffff-ffff-4fff-bfff-ffffffffffff'
const FALLBACK_KID = '12345674'

const modelIdOf = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
const clockOf = (tick: number): string => new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + tick * 1000).toISOString()

const jsonCopy = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown))

const realIds = (m: Model): ReadonlyArray<readonly [string, string]> => m.known.map((k) => [k.realId, k.label] as const)
const modelIds = (m: Model): ReadonlyArray<readonly [string, string]> => m.known.map((k) => [k.modelId, k.label] as const)

const brief = (v: unknown, max = 400): string => {
  const s = JSON.stringify(v) ?? 'undefined'
  return s.length > max ? s.slice(0, max) + '…' : s
}

/** Up to `max` paths where two JSON values differ, each with both values. */
const differences = (a: unknown, b: unknown, max = 4): ReadonlyArray<string> => {
  const out: string[] = []
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= max || deepEqual(x, y)) return
    if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null && Array.isArray(x) === Array.isArray(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])]
      for (const k of keys) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], path === '' ? k : `${path}.${k}`)
      return
    }
    out.push(`${path === '' ? '(body)' : path}: expected ${brief(x, 120)}, received ${brief(y, 120)}`)
  }
  walk(a, b, '')
  return out
}

/** Thrown inside a run when the service and the model differ; caught by {@link checkService}. */
class Mismatch extends Error {}

const field = (v: unknown, ...path: ReadonlyArray<string>): unknown => {
  let cur = v
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null) return undefined
    cur = (cur as Record<string, unknown>)[k]
  }
  return cur
}

/** A webhook's `eventType` or `eventID` for the log: as sent, or `(no eventType)` when the body lacks it. */
const named = (body: unknown, key: string): string => {
  const v = field(body, key)
  return typeof v === 'string' ? v : v === undefined ? `(no ${key})` : brief(v, 60)
}

/** Compares the webhooks the service sent since the last step with the model's deliveries. */
const compareWebhooks = async (m: Model, r: Real, expected: ReadonlyArray<WebhookDelivery>): Promise<void> => {
  const read = r.sut.receivedWebhooks
  if (read === undefined) return
  const all = await read()
  const fresh = all.slice(r.seen)
  r.seen = all.length
  const byUrl = (ws: ReadonlyArray<ReceivedWebhook>, ids: ReadonlyArray<readonly [string, string]>): Record<string, unknown[]> => {
    const out: Record<string, unknown[]> = {}
    for (const w of ws) (out[w.url] ??= []).push(normalise(w.body, ids, r.sut.compareMessages))
    return out
  }
  const want = byUrl(
    expected.map((d) => ({ url: d.url, body: jsonCopy(d.payload) })),
    modelIds(m)
  )
  const got = byUrl(fresh, realIds(m))
  if (deepEqual(want, got)) return
  const line = (ws: Record<string, unknown[]>): string =>
    Object.entries(ws)
      .flatMap(([url, bodies]) => bodies.map((b) => `    ${named(b, 'eventType')} ${named(b, 'eventID')} → ${url}`))
      .join('\n') || '    (none)'
  let detail = ''
  for (const url of new Set([...Object.keys(want), ...Object.keys(got)])) {
    const a = want[url] ?? []
    const b = got[url] ?? []
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (!deepEqual(a[i], b[i])) {
        detail = `  delivery ${String(i + 1)} to ${url} differs at:\n${differences(a[i], b[i]).map((d) => `    ${d}`).join('\n')}`
        break
      }
    }
    if (detail !== '') break
  }
  throw new Mismatch(`webhooks differ\n  expected (model):\n${line(want)}\n  received (service):\n${line(got)}\n${detail}`)
}

/** Sends a request to both sides and compares the responses; returns the real response. */
const exchange = async (
  m: Model,
  r: Real,
  real: ServiceRequest,
  model: (world: World, response: ServiceResponse) => ReturnType<typeof handle>,
  learn?: (response: ServiceResponse, expectedStatus: number) => void
): Promise<void> => {
  m.tick += 1
  const response = await r.sut.send(real)
  const [world, expected, deliveries] = model(m.world, response)
  m.world = world
  learn?.(response, expected.status)
  m.log.push(`${real.method} ${normalise(real.path, realIds(m)) as string}${real.body === undefined ? '' : ' ' + brief(normalise(real.body, realIds(m), true))}`)
  m.log.push(`  ← ${String(response.status)} ${brief(normalise(response.body, realIds(m), r.sut.compareMessages))}`)
  const want = normalise(jsonCopy(expected.body), modelIds(m), r.sut.compareMessages)
  const got = normalise(response.body, realIds(m), r.sut.compareMessages)
  if (response.status !== expected.status || !deepEqual(want, got)) {
    throw new Mismatch(
      `response differs\n  expected (model): ${String(expected.status)} ${brief(want, 600)}\n  received (service): ${String(response.status)} ${brief(got, 600)}\n` +
        differences({ status: expected.status, body: want }, { status: response.status, body: got }).map((d) => `  at ${d}`).join('\n')
    )
  }
  await compareWebhooks(m, r, deliveries)
}

const hooksOf = (r: Real): { catchAllUrl?: string } => ({ catchAllUrl: r.sut.catchAllUrl })

// -------------------------------------------------------------------------------------
// commands
// -------------------------------------------------------------------------------------

type Cmd = fc.AsyncCommand<Model, Real>

class Create implements Cmd {
  constructor(
    readonly request: unknown,
    readonly ext: number,
    readonly customer: number,
    readonly valid: boolean
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const body =
      this.valid
        ? { ...(this.request as object), externalPaymentReferenceID: `${m.tag}order-${String(this.ext)}`, customerExternalID: `${m.tag}customer-${String(this.customer)}` }
        : this.request
    await createWith(m, r, body)
  }
  toString(): string {
    return this.valid ? `create(order-${String(this.ext)}, ${String(field(this.request, 'paymentGateway'))})` : `create(invalid)`
  }
}

class RepeatCreate implements Cmd {
  constructor(readonly which: number) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const body = m.creates[this.which % m.creates.length] // none before the first create (n % 0 is NaN)
    if (body === undefined) return
    await createWith(m, r, body)
  }
  toString(): string {
    return `repeatCreate(${String(this.which)})`
  }
}

const createWith = async (m: Model, r: Real, body: unknown): Promise<void> => {
  m.creates.push(body)
  const modelId = modelIdOf(m.known.length + 1)
  const learn = (response: ServiceResponse, status: number): void => {
    if (status !== 201) return
    const realId = field(response.body, 'paymentIntent', 'paymentCreated', 'paymentReferenceID')
    const n = m.known.length + 1
    m.known.push({ label: `<payment ${String(n)}>`, modelId, realId: typeof realId === 'string' ? realId : `missing-id-${String(n)}` })
  }
  await exchange(m, r, { method: 'POST', path: '/payments', body }, (world, res) => {
    const created = field(res.body, 'paymentIntent', 'paymentCreated')
    const given = field(created, 'kid')
    const ext = field(body, 'externalPaymentReferenceID')
    const stored = typeof ext === 'string' ? world.references.get(ext)?.kid : undefined
    const kid = typeof given === 'string' ? given : (stored ?? FALLBACK_KID)
    return handle(world, { method: 'POST', path: '/payments', body: jsonCopy(body) }, { at: clockOf(m.tick), paymentReferenceID: modelId, kid, ...hooksOf(r) })
  }, learn)
}

type Action = 'cancel' | 'charge' | 'refund' | 'refundPartially' | 'adjust'
const suffix: Record<Action, string> = { cancel: 'cancel', charge: 'charge', refund: 'refund', refundPartially: 'refund/partially', adjust: 'adjust' }

/** The `n`-th payment created in this run, counting round; none before the first (`n % 0` is NaN). */
const knownAt = (m: Model, n: number): Known | undefined => m.known[n % m.known.length]

/** The payment an API action targets: one created in this run, or (when none, or `n` is 7) an unknown id. */
const target = (m: Model, n: number): Known | undefined => (n === 7 ? undefined : knownAt(m, n))

class PaymentAction implements Cmd {
  constructor(
    readonly action: Action,
    readonly target: number,
    readonly ops: ReadonlyArray<Op>,
    readonly garble: number
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const k = target(m, this.target)
    const payment = k === undefined ? undefined : m.world.payments.get(k.modelId)
    let body: unknown = undefined
    if (this.action === 'refundPartially' || this.action === 'adjust') {
      const patch = payment === undefined ? undefined : patchOf(payment, this.ops, false)
      const p = patch ?? { moneySplitPatch: [], newGrossAmount: 0 }
      // Sometimes break the patch: a wrong gross, a missing entry, a raised split.
      const first = p.moneySplitPatch[0]
      body =
        this.garble === 1
          ? { ...p, newGrossAmount: p.newGrossAmount + 1 }
          : this.garble === 2
            ? { ...p, moneySplitPatch: p.moneySplitPatch.slice(1) }
            : this.garble === 3 && first !== undefined && payment?.moneySplits[0] !== undefined
              ? {
                  moneySplitPatch: [{ splitID: first.splitID, updateType: 'UpdateAmount', newAmount: payment.moneySplits[0].amount + 1 }, ...p.moneySplitPatch.slice(1)],
                  newGrossAmount: p.newGrossAmount + 1
                }
              : p
    }
    const path = (id: string): string => `/payments/${id}/${suffix[this.action]}`
    const realPath = path(k?.realId ?? UNKNOWN_ID)
    await exchange(m, r, { method: 'POST', path: realPath, ...(body === undefined ? {} : { body }) }, (world) => {
      const request: HttpRequest = { method: 'POST', path: path(k?.modelId ?? UNKNOWN_ID), ...(body === undefined ? {} : { body: jsonCopy(body) }) }
      return handle(world, request, { at: clockOf(m.tick), paymentReferenceID: UNKNOWN_ID, ...hooksOf(r) })
    })
  }
  toString(): string {
    return `${this.action}(#${String(this.target)}${this.garble > 0 && (this.action === 'adjust' || this.action === 'refundPartially') ? `, broken patch ${String(this.garble)}` : ''})`
  }
}

class WrongRoute implements Cmd {
  constructor(readonly which: number) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const request: ServiceRequest = this.which === 0 ? { method: 'GET', path: '/payments' } : this.which === 1 ? { method: 'POST', path: '/payouts' } : { method: 'POST', path: '/payments/not-a-uuid/cancel' }
    await exchange(m, r, request, (world) => handle(world, request, { at: clockOf(m.tick), paymentReferenceID: UNKNOWN_ID, ...hooksOf(r) }))
  }
  toString(): string {
    return `wrongRoute(${String(this.which)})`
  }
}

type Outside = 'completeForm' | 'failForm' | 'transfer'

class OutsideEvent implements Cmd {
  constructor(
    readonly what: Outside,
    readonly target: number,
    readonly permille: number,
    readonly wrongKid: boolean
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const k = knownAt(m, this.target)
    if (k === undefined) return
    m.tick += 1
    const ctx = { at: clockOf(m.tick), ...hooksOf(r) }
    let outcome: readonly [World, E.Either<unknown, Payment>, ReadonlyArray<WebhookDelivery>, ...unknown[]]
    if (this.what === 'completeForm') {
      await r.sut.completeForm?.(k.realId)
      outcome = completeForm(m.world, k.modelId, ctx)
    } else if (this.what === 'failForm') {
      await r.sut.failForm?.(k.realId, 'card declined')
      outcome = failForm(m.world, k.modelId, { ...ctx, reason: 'card declined' })
    } else {
      const p = m.world.payments.get(k.modelId)
      const amount = Math.max(1, Math.floor((Math.max(1, (p?.grossAmount ?? 1) - (p?.paidAmount ?? 0)) * this.permille) / 1000))
      const right = p?.kid ?? FALLBACK_KID
      const kid = this.wrongKid ? (right === FALLBACK_KID ? '0000000000' : FALLBACK_KID) : right
      await r.sut.receiveTransfer?.(k.realId, amount, kid)
      outcome = receiveTransfer(m.world, k.modelId, { amount, kid }, ctx)
    }
    m.world = outcome[0]
    const result = outcome[1]
    m.log.push(`${this.what} ${k.label}  (model: ${E.isRight(result) ? result.right.status : String(field(result.left, 'code'))})`)
    await compareWebhooks(m, r, outcome[2])
  }
  toString(): string {
    return `${this.what}(#${String(this.target)}${this.what === 'transfer' ? `, ${String(this.permille)}‰${this.wrongKid ? ', wrong KID' : ''}` : ''})`
  }
}

/**
 * Moves a payment of the run one step along its life, whatever that step is in the model's state:
 * the form (or, the other way, a cancel) when an Initiated card; the rest paid by the bank (or an
 * adjustment) when an Initiated invoice; charge (or cancel) when Reserved; a partial (or full)
 * refund when Charged; a refund, refused, once it is over. Independent random actions seldom line
 * up into a long life (charged, partly refunded, then refunded in full), and the bugs of a
 * service hide there; a few of these commands walk a payment through it.
 */
class NextStep implements Cmd {
  constructor(
    readonly target: number,
    readonly ops: ReadonlyArray<Op>,
    readonly otherWay: boolean
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const k = knownAt(m, this.target)
    const p = k === undefined ? undefined : m.world.payments.get(k.modelId)
    if (p === undefined) return
    const act = (a: Action): Cmd => new PaymentAction(a, this.target, this.ops, 0)
    const step =
      p.status === 'Initiated'
        ? p.kind === 'card'
          ? r.sut.completeForm === undefined || this.otherWay
            ? act('cancel')
            : new OutsideEvent('completeForm', this.target, 0, false)
          : r.sut.receiveTransfer === undefined || this.otherWay
            ? act('adjust')
            : new OutsideEvent('transfer', this.target, 1000, false)
        : p.status === 'Reserved'
          ? act(this.otherWay ? 'cancel' : 'charge')
          : act(this.otherWay || p.status !== 'Charged' ? 'refund' : 'refundPartially')
    await step.run(m, r)
  }
  toString(): string {
    return `nextStep(#${String(this.target)}${this.otherWay ? ', the other way' : ''})`
  }
}

const commandArbs = (o: CheckServiceOptions): ReadonlyArray<fc.WeightedArbitrary<Cmd>> => {
  const request: fc.Arbitrary<PaymentIntentRequest> = paymentIntentRequestArb({
    kinds: o.kinds ?? ['card', 'invoice'],
    splits: { max: 4 },
    webhookUrls: o.webhookUrls ?? [],
    maxSubscriptions: 2 // none without urls: the arbitrary gives no subscription when `webhookUrls` is empty
  })
  const small = fc.nat({ max: 3 })
  const out: fc.WeightedArbitrary<Cmd>[] = [
    { weight: 3, arbitrary: fc.tuple(request, fc.nat({ max: 2 }), fc.nat({ max: 2 })).map(([req, ext, cust]) => new Create(req, ext, cust, true)) },
    { weight: 1, arbitrary: invalidPaymentIntentRequestArb({ splits: { max: 3 } }).map((bad) => new Create(bad.input, 0, 0, false)) },
    { weight: 1, arbitrary: small.map((n) => new RepeatCreate(n)) },
    { weight: 1, arbitrary: fc.constantFrom(0, 1, 2).map((n) => new WrongRoute(n)) },
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          fc.constantFrom<Action>('cancel', 'charge', 'refund', 'refundPartially', 'adjust'),
          fc.nat({ max: 7 }),
          fc.array(opArb, { minLength: 1, maxLength: 4 }),
          fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2, 3) })
        )
        .map(([a, t, ops, g]) => new PaymentAction(a, t, ops, g))
    },
    { weight: 6, arbitrary: fc.tuple(small, fc.array(opArb, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([t, ops, other]) => new NextStep(t, ops, other)) }
  ]
  const outside: Outside[] = [
    ...(o.completeForm !== undefined ? (['completeForm', 'completeForm'] as const) : []),
    ...(o.failForm !== undefined ? (['failForm'] as const) : []),
    ...(o.receiveTransfer !== undefined ? (['transfer', 'transfer'] as const) : [])
  ]
  if (outside.length > 0) {
    out.push({
      weight: 5,
      arbitrary: fc
        .tuple(fc.constantFrom(...outside), small, fc.integer({ min: 1, max: 1500 }), fc.boolean())
        .map(([w, t, p, k]) => new OutsideEvent(w, t, p, k))
    })
  }
  return out
}

// -------------------------------------------------------------------------------------
// the runner
// -------------------------------------------------------------------------------------

/**
 * Checks that a payments service behaves like paysplit's reference model: runs `numRuns` random
 * command sequences (creates valid and invalid, repeats, cancel, charge, refunds, adjustments
 * with valid and broken patches, wrong routes, the next step of a payment's life, and — when the
 * service exposes them — payment-form and bank events) against the service and the model, and compares every status code, body and
 * webhook after normalising ids, times and (by default) messages. Resolves with a report and
 * never rejects: a difference, or a service that throws, is a failed report whose
 * `counterexample` is the shrunk request log.
 *
 * The example checks paysplit's own model against itself; point `send` at your service (with
 * `fetch`, see docs/testing.md) to check yours.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { kid } from 'paysplit'
 * import { emptyWorld, handle } from 'paysplit/http'
 * import { checkService } from 'paysplit/testing'
 * let world = emptyWorld
 * let n = 0
 * const report = await checkService({
 *   send: async (request) => {
 *     n += 1
 *     const id = `6f1c3c52-3f51-4b8e-9a8e-${String(n).padStart(12, '0')}`
 *     // a fresh KID for every request, as a service makes them (two open invoices never share one)
 *     const made = kid.create(String(1000 + n), 'mod10')
 *     const invoiceKid = made._tag === 'Right' ? made.right : ''
 *     const [next, response] = handle(world, request, { at: new Date(Date.UTC(2026, 10, 21, 10, 0, n)).toISOString(), paymentReferenceID: id, kid: invoiceKid })
 *     world = next
 *     return { status: response.status, body: JSON.parse(JSON.stringify(response.body)) }
 *   },
 *   numRuns: 20
 * })
 * assert.ok(report.ok)
 */
export const checkService = async (options: CheckServiceOptions): Promise<ConformanceReport> => {
  let runs = 0
  let failure: { log: ReadonlyArray<string>; message: string; tag: string } | undefined
  // A command sequence replays only with fast-check's path and the commands' own replay path:
  // the report's `path` carries both, as `<path>|<replayPath>`.
  const [runPath, replayPath] = options.path === undefined ? [] : options.path.split('|')
  const commands = fc.commands([fc.oneof(...commandArbs(options))], { maxCommands: options.maxCommands ?? 12, ...(replayPath !== undefined ? { replayPath } : {}) })
  const property = fc.asyncProperty(commands, async (cmds) => {
    runs += 1
    const tag = `r${String(runs)}-`
    const model: Model = { world: emptyWorld, known: [], creates: [], log: [], tag, tick: 0 }
    try {
      await options.reset?.()
      const seen = options.receivedWebhooks === undefined ? 0 : (await options.receivedWebhooks()).length
      const real: Real = { sut: options, seen }
      await fc.asyncModelRun(() => ({ model, real }), cmds)
    } catch (e) {
      failure = { log: [...model.log], message: e instanceof Mismatch ? e.message : `the service threw: ${e instanceof Error ? e.message : String(e)}`, tag }
      throw e
    }
  })
  try {
    const details = await fc.check(property, {
      ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(runPath !== undefined ? { path: runPath } : {})
    })
    if (!details.failed) return { ok: true, numRuns: details.numRuns, seed: details.seed }
    const f = failure
    const report = fc.defaultReportMessage(details) ?? ''
    const log = f === undefined ? '(no log)' : [...f.log.map((l) => replaceAll(l, f.tag, '')), `✗ ${replaceAll(f.message, f.tag, '')}`].join('\n')
    return {
      ok: false,
      numRuns: details.numRuns,
      seed: details.seed,
      path: details.counterexamplePath === null ? '' : `${details.counterexamplePath}|${/replayPath="([^"]*)"/.exec(report)?.[1] ?? ''}`,
      counterexample: log,
      details: report
    }
  } catch (e) {
    return { ok: false, numRuns: runs, seed: options.seed ?? 0, path: '', counterexample: `the check itself failed: ${String(e)}`, details: '' }
  }
}

/**
 * {@link checkService} for test runners: resolves when the service conforms, rejects with the
 * readable counterexample (and how to replay it) when it does not.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { assertConforms } from 'paysplit/testing'
 * // A service that answers 404 to everything does not conform: the runner says why.
 * await assert.rejects(
 *   assertConforms({ send: async () => ({ status: 404, body: { success: false } }), numRuns: 5, seed: 1 }),
 *   /Counterexample \(shrunk\)/
 * )
 */
export const assertConforms = async (options: CheckServiceOptions): Promise<void> => {
  const report = await checkService(options)
  if (!report.ok) {
    throw new Error(
      `The service differs from paysplit's model after ${String(report.numRuns)} run(s).\n` +
        `Counterexample (shrunk):\n${report.counterexample}\n` +
        `Replay with { seed: ${String(report.seed)}, path: ${JSON.stringify(report.path)} }.`
    )
  }
}
