/**
 * The commands of a conformance run: each sends one request (or causes one outside event) to the
 * service and to the model and compares what comes back.
 *
 * @module conformance/commands
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import type { Payment } from '../payment.js'
import type { PaymentIntentRequest } from '../codecs/requests.js'
import { webhookEventTypes } from '../codecs/validators.js'
import { handle, type HttpRequest } from '../http/handle.js'
import { parseOcrGiro, type OcrTransaction } from '../bankFiles/ocrGiro.js'
import { ocrGiroText } from '../bankFiles/ocrText.js'
import { completeForm, failForm } from '../service/form.js'
import { receiveOcrGiro } from '../service/ocrReceive.js'
import { receiveTransfer } from '../service/transfers.js'
import type { WebhookDelivery } from '../service/webhooks.js'
import type { World } from '../service/world.js'
import { invalidPaymentIntentRequestArb, opArb, patchOf, paymentIntentRequestArb, type Op } from '../testing/arbitraries.js'
import {
  clockOf,
  compareWebhooks,
  countEvent,
  countState,
  exchange,
  FALLBACK_KID,
  hooksOf,
  logIds,
  logRequest,
  Mismatch,
  modelIdOf,
  responseDifference,
  sendLogged,
  stateRow,
  UNKNOWN_ID,
  type Known,
  type Model,
  type Real
} from './model.js'
import { brief, field, jsonCopy, normalise } from './normalise.js'
import type { CheckServiceOptions, HookName, ServiceRequest, ServiceResponse } from './types.js'

export type Cmd = fc.AsyncCommand<Model, Real>

/** Subscription urls a generated request may use when a receiver is given; each run points them at its own urls. */
const PLACEHOLDER = 'https://receiver.invalid/'

/** A valid create's body as this run sends it: its own reference, customer and webhook urls. */
const namespaced = (m: Model, request: unknown, ext: number, customer: number): unknown => {
  const r = request as Record<string, unknown>
  const hookBase = m.hookBase
  const subscriptions = Array.isArray(r['webhookSubscriptions']) ? (r['webhookSubscriptions'] as ReadonlyArray<{ eventType: string; url: string }>) : []
  return {
    ...r,
    externalPaymentReferenceID: `${m.prefix}order-${String(ext)}`,
    customerExternalID: `${m.prefix}customer-${String(customer)}`,
    ...(hookBase === undefined
      ? {}
      : {
          webhookSubscriptions: [
            ...subscriptions.map((s) => ({ ...s, url: s.url.startsWith(PLACEHOLDER) ? hookBase + s.url.slice(PLACEHOLDER.length) : s.url })),
            ...webhookEventTypes.map((eventType) => ({ eventType, url: `${hookBase}all` }))
          ]
        })
  }
}

class Create implements Cmd {
  constructor(
    readonly request: unknown,
    readonly ext: number,
    readonly customer: number,
    readonly valid: boolean
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    await createWith(m, r, this.valid ? namespaced(m, this.request, this.ext, this.customer) : this.request)
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
  let expected = 0
  const learnAndKeep = (response: ServiceResponse, status: number): void => {
    expected = status
    learn(response, status)
  }
  try {
    await exchangeCreate(m, r, body, modelId, learnAndKeep)
  } catch (e) {
    // the service already held this run's reference: an earlier call of the same seed and run id
    const own = String(field(body, 'externalPaymentReferenceID')).startsWith(m.prefix)
    if (!(e instanceof Mismatch) || expected !== 201 || !own || !/received \(service\): (200|409) /.test(e.message)) throw e
    throw new Mismatch(
      `${e.message}\n  the service answered a new reference of this run as a repeat: did an earlier call with the same seed and run id create it? Give each call its own runId (or now: the run id is then the clock's); the command line does.`
    )
  }
}

const exchangeCreate = (m: Model, r: Real, body: unknown, modelId: string, learn: (response: ServiceResponse, status: number) => void): Promise<void> =>
  exchange(m, r, { method: 'POST', path: '/payments', body }, (world, res) => {
    const created = field(res.body, 'paymentIntent', 'paymentCreated')
    const given = field(created, 'kid')
    const ext = field(body, 'externalPaymentReferenceID')
    const stored = typeof ext === 'string' ? field(world.references.get(ext), 'kid') : undefined
    const kid = typeof given === 'string' ? given : typeof stored === 'string' ? stored : FALLBACK_KID
    return handle(world, { method: 'POST', path: '/payments', body: jsonCopy(body) }, { at: clockOf(m.tick), paymentReferenceID: modelId, kid, ...hooksOf(r) })
  }, learn)

/** A payment's own KID (a card has none: a polluted `Object.prototype.kid` is not one), else the fallback. */
const kidOf = (p: Payment | undefined): string => {
  const kid = field(p, 'kid')
  return typeof kid === 'string' ? kid : FALLBACK_KID
}

type Action = 'cancel' | 'charge' | 'refund' | 'refundPartially' | 'adjust'
const suffix: Record<Action, string> = { cancel: 'cancel', charge: 'charge', refund: 'refund', refundPartially: 'refund/partially', adjust: 'adjust' }

/** The `n`-th payment created in this run, counting round; none before the first (`n % 0` is NaN). */
const knownAt = (m: Model, n: number): Known | undefined => m.known[n % m.known.length]

/** The payment an API action targets: one created in this run, or (when none, or `n` is 7) an unknown id. */
const target = (m: Model, n: number): Known | undefined => (n === 7 ? undefined : knownAt(m, n))

/** The coverage's row of a payment of the run (its kind and status in the model), or `no such payment`. */
const rowOf = (m: Model, k: Known | undefined): string => stateRow(k === undefined ? undefined : m.world.payments.get(k.modelId))

/** An API action's request as the service and as the model get it (same body, each side's id). */
const actionRequests = (m: Model, action: Action, t: number, ops: ReadonlyArray<Op>, garble: number): readonly [ServiceRequest, HttpRequest] => {
  const k = target(m, t)
  const payment = k === undefined ? undefined : m.world.payments.get(k.modelId)
  let body: unknown = undefined
  if (action === 'refundPartially' || action === 'adjust') {
    const patch = payment === undefined ? undefined : patchOf(payment, ops, false)
    const p = patch ?? { moneySplitPatch: [], newGrossAmount: 0 }
    // Sometimes break the patch: a wrong gross, a missing entry, a raised split.
    const first = p.moneySplitPatch[0]
    body =
      garble === 1
        ? { ...p, newGrossAmount: p.newGrossAmount + 1 }
        : garble === 2
          ? { ...p, moneySplitPatch: p.moneySplitPatch.slice(1) }
          : garble === 3 && first !== undefined && payment?.moneySplits[0] !== undefined
            ? {
                moneySplitPatch: [{ splitID: first.splitID, updateType: 'UpdateAmount', newAmount: payment.moneySplits[0].amount + 1 }, ...p.moneySplitPatch.slice(1)],
                newGrossAmount: p.newGrossAmount + 1
              }
            : p
  }
  const path = (id: string): string => `/payments/${id}/${suffix[action]}`
  const withBody = body === undefined ? {} : { body }
  return [
    { method: 'POST', path: path(k?.realId ?? UNKNOWN_ID), ...withBody },
    { method: 'POST', path: path(k?.modelId ?? UNKNOWN_ID), ...(body === undefined ? {} : { body: jsonCopy(body) }) }
  ]
}

class PaymentAction implements Cmd {
  constructor(
    readonly action: Action,
    readonly target: number,
    readonly ops: ReadonlyArray<Op>,
    readonly garble: number
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const [real, model] = actionRequests(m, this.action, this.target, this.ops, this.garble)
    const row = rowOf(m, target(m, this.target))
    const count = (_: ServiceResponse, status: number): void => {
      countState(r, row, this.action, status < 300)
    }
    await exchange(m, r, real, (world) => handle(world, model, { at: clockOf(m.tick), paymentReferenceID: UNKNOWN_ID, ...hooksOf(r) }), count)
  }
  toString(): string {
    return `${this.action}(#${String(this.target)}${this.garble > 0 && (this.action === 'adjust' || this.action === 'refundPartially') ? `, broken patch ${String(this.garble)}` : ''})`
  }
}

/**
 * The same API action sent twice at once. A service that runs them one after the other, in
 * either order, answers as the model does for that order; one that lets both read the same
 * state (a lost update: two full refunds both accepted) does not.
 */
class Race implements Cmd {
  constructor(
    readonly action: Action,
    readonly target: number,
    readonly ops: ReadonlyArray<Op>
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const k = target(m, this.target)
    if (k === undefined) return
    const [real, model] = actionRequests(m, this.action, this.target, this.ops, 0)
    const row = rowOf(m, k)
    const [a, b] = await Promise.all([sendLogged(m, r, real), sendLogged(m, r, real, true)])
    let world: World = m.world
    const deliveries: WebhookDelivery[] = []
    const expected: ServiceResponse[] = []
    for (let i = 0; i < 2; i++) {
      m.tick += 1
      const { world: next, response, deliveries: ds } = handle(world, model, { at: clockOf(m.tick), paymentReferenceID: UNKNOWN_ID, ...hooksOf(r) })
      world = next
      expected.push(response)
      deliveries.push(...ds)
    }
    m.world = world
    for (const e of expected) countState(r, row, this.action, e.status < 300)
    logRequest(m, real, '⇉ twice at once: ')
    m.log.push(`  ← ${String(a.status)} ${brief(normalise(a.body, logIds(m), r.sut.compareMessages))}`)
    m.log.push(`  ← ${String(b.status)} ${brief(normalise(b.body, logIds(m), r.sut.compareMessages))}`)
    const [first, second] = expected as [ServiceResponse, ServiceResponse]
    const inOrder = [responseDifference(m, r, first, a), responseDifference(m, r, second, b)]
    const swapped = [responseDifference(m, r, first, b), responseDifference(m, r, second, a)]
    if (inOrder.some((d) => d !== undefined) && swapped.some((d) => d !== undefined)) {
      throw new Mismatch(`the two answers fit neither order of the model (one after the other)\n  first of the two: ${inOrder.find((d) => d !== undefined) ?? ''}`)
    }
    await compareWebhooks(m, r, deliveries, true)
  }
  toString(): string {
    return `race(${this.action}, #${String(this.target)})`
  }
}

/** Requests of the contract's routes that no payment makes valid. */
class WrongRoute implements Cmd {
  constructor(readonly which: number) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    // GET /payments without its query is a read route's 400: only for a service with the reads.
    if (this.which === 0 && !r.reads) return
    const request: ServiceRequest =
      this.which === 0 ? { method: 'GET', path: '/payments' } : this.which === 1 ? { method: 'GET', path: `/payments/${UNKNOWN_ID}/cancel` } : { method: 'POST', path: '/payments/not-a-uuid/cancel' }
    await exchange(m, r, request, (world) => handle(world, request, { at: clockOf(m.tick), paymentReferenceID: UNKNOWN_ID, ...hooksOf(r) }))
  }
  toString(): string {
    return `wrongRoute(${String(this.which)})`
  }
}

/** A read: a payment by id, by the caller's reference, a customer; each one of this run's, or one that does not exist. */
class Read implements Cmd {
  constructor(
    readonly which: number,
    readonly target: number
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const valid = m.creates.filter((c) => typeof field(c, 'externalPaymentReferenceID') === 'string' && String(field(c, 'externalPaymentReferenceID')).startsWith(m.prefix))
    const create = this.target === 7 ? undefined : valid[this.target % valid.length]
    let real: string
    let model: string
    if (this.which === 0) {
      const k = target(m, this.target)
      real = `/payments/${k?.realId ?? UNKNOWN_ID}`
      model = `/payments/${k?.modelId ?? UNKNOWN_ID}`
    } else if (this.which === 1) {
      const ext = field(create, 'externalPaymentReferenceID')
      real = model = `/payments?externalPaymentReferenceID=${encodeURIComponent(typeof ext === 'string' ? ext : `${m.prefix}order-none`)}`
    } else {
      const customer = field(create, 'customerExternalID')
      real = model = `/customers/${encodeURIComponent(typeof customer === 'string' ? customer : `${m.prefix}customer-none`)}`
    }
    await exchange(m, r, { method: 'GET', path: real }, (world) => handle(world, { method: 'GET', path: model }, { at: clockOf(m.tick), paymentReferenceID: UNKNOWN_ID }))
  }
  toString(): string {
    return `read(${['payment', 'byReference', 'customer'][this.which] ?? '?'}, #${String(this.target)})`
  }
}

type Outside = 'completeForm' | 'failForm' | 'transfer'

/** Whether the service has `hook`. */
const hasHook = (r: Real, hook: HookName): boolean => r.sut[hook] !== undefined

/** A hook's failure (it rejected, or it refused what the model accepts): the hook's, not necessarily the service's. */
export class HookFailure extends Mismatch {
  constructor(
    readonly hook: HookName,
    message: string
  ) {
    super(message)
  }
}

/** What a hook's answer says: it drove the service, the service refused the event, or the hook could not drive it this time. */
type Verdict = { readonly kind: 'driven' } | { readonly kind: 'refused' | 'skipped'; readonly reason: string }

const DRIVEN: Verdict = { kind: 'driven' }

/**
 * Reads a hook's answer (docs/testing.md, "Hooks"): `{ skipped }`, `{ refused }`, an HTTP answer
 * (a `fetch` `Response`, or an object with a numeric `status`) of 4xx or 5xx, an fp-ts `Left`;
 * anything else says the hook drove the service. Own properties only, but a `Response`'s status.
 */
const verdictOf = (answer: unknown): Verdict => {
  if (typeof answer !== 'object' || answer === null) return DRIVEN
  const skipped = field(answer, 'skipped')
  if (typeof skipped === 'string') return { kind: 'skipped', reason: skipped }
  const refused = field(answer, 'refused')
  if (typeof refused === 'string') return { kind: 'refused', reason: refused }
  const status = typeof Response !== 'undefined' && answer instanceof Response ? answer.status : field(answer, 'status')
  if (typeof status === 'number' && status >= 400) return { kind: 'refused', reason: `it answered ${String(status)}` }
  if (field(answer, '_tag') === 'Left') {
    const code = field(field(answer, 'left'), 'code')
    return { kind: 'refused', reason: `it resolved with a Left${typeof code === 'string' ? ` (${code})` : ''}` }
  }
  return DRIVEN
}

/**
 * Calls a hook and reads its answer: counted in the coverage; a rejection fails the run as the
 * hook's failure; a skip drops the event's step (the model is left as it was) and counts it with
 * its reason, for this event alone (the next event tries the hook again).
 */
const callHook = async (m: Model, r: Real, hook: HookName, call: () => Promise<unknown> | undefined): Promise<Verdict> => {
  let use = r.tally.hooks.get(hook)
  if (use === undefined) r.tally.hooks.set(hook, (use = { sent: 0, skipped: 0, reasons: new Map() }))
  use.sent += 1
  let answer: unknown
  try {
    answer = await call()
  } catch (e) {
    throw new HookFailure(hook, `the ${hook} hook failed: it rejected (${e instanceof Error ? e.message : String(e)})`)
  }
  const verdict = verdictOf(answer)
  if (verdict.kind === 'skipped') {
    use.skipped += 1
    use.reasons.set(verdict.reason, (use.reasons.get(verdict.reason) ?? 0) + 1)
    m.steps.pop()
  }
  return verdict
}

/**
 * A hook that says the service refused an event the model accepts fails the run as the hook's
 * failure: the service did not take the event (its form wanted a token, its bank route another
 * key), so what follows would be blamed on the service otherwise.
 */
const hookAgrees = (hook: HookName, verdict: Verdict, modelAccepted: string | undefined, event: string): void => {
  if (verdict.kind !== 'refused' || modelAccepted === undefined) return
  const form = hook === 'completeForm' || hook === 'failForm' ? '; a form that takes test payments only wants environments: [\'test\'] (--environments test)' : ''
  throw new HookFailure(
    hook,
    `the ${hook} hook failed: ${verdict.reason}, where the model accepts ${event} (${modelAccepted})\n` +
      `  the hook could not drive the service (a token, a session, a key?), or the service refused what the model accepts; a hook that cannot drive the service resolves with { skipped }${form}`
  )
}

/** The model's outcome of an outside event, for the log and the coverage: the status, or the error's code. */
const outcomeOf = (result: E.Either<unknown, Payment> | undefined): string =>
  result === undefined ? 'UnmatchedTransfer' : E.isRight(result) ? result.right.status : String(field(result.left, 'code'))

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
    if (this.what === 'transfer' && r.sut.receiveTransferByKid !== undefined) {
      await this.byKid(m, r, k, r.sut.receiveTransferByKid)
      return
    }
    const hook: HookName = this.what === 'transfer' ? 'receiveTransfer' : this.what
    if (!hasHook(r, hook)) return
    const row = rowOf(m, k)
    m.tick += 1
    const ctx = { at: clockOf(m.tick), ...hooksOf(r) }
    let outcome: { readonly world: World; readonly result: E.Either<unknown, Payment>; readonly deliveries: ReadonlyArray<WebhookDelivery> }
    let verdict: Verdict
    let event: string
    if (this.what === 'completeForm') {
      m.steps.push({ kind: 'event', event: 'completeForm', paymentReferenceID: k.realId })
      verdict = await callHook(m, r, hook, () => r.sut.completeForm?.(k.realId))
      if (verdict.kind === 'skipped') return
      outcome = completeForm(m.world, k.modelId, ctx)
      event = `the completed form of ${k.label}`
    } else if (this.what === 'failForm') {
      m.steps.push({ kind: 'event', event: 'failForm', paymentReferenceID: k.realId, reason: 'card declined' })
      verdict = await callHook(m, r, hook, () => r.sut.failForm?.(k.realId, 'card declined'))
      if (verdict.kind === 'skipped') return
      outcome = failForm(m.world, k.modelId, { ...ctx, reason: 'card declined' })
      event = `the failed form of ${k.label}`
    } else {
      const p = m.world.payments.get(k.modelId)
      const amount = Math.max(1, Math.floor((Math.max(1, (p?.grossAmount ?? 1) - (p?.paidAmount ?? 0)) * this.permille) / 1000))
      const right = kidOf(p)
      const kid = this.wrongKid ? (right === FALLBACK_KID ? '0000000000' : FALLBACK_KID) : right
      m.steps.push({ kind: 'event', event: 'transfer', paymentReferenceID: k.realId, amount, kid })
      verdict = await callHook(m, r, hook, () => r.sut.receiveTransfer?.(k.realId, amount, kid))
      if (verdict.kind === 'skipped') return
      outcome = receiveTransfer(m.world, k.modelId, { amount, kid }, ctx)
      event = `a transfer of ${String(amount)} to ${k.label}`
    }
    m.world = outcome.world
    const result = outcome.result
    const modelOutcome = outcomeOf(result)
    countEvent(r, `${this.what} ${modelOutcome}`)
    countState(r, row, this.what, E.isRight(result))
    m.log.push(`${this.what} ${k.label}  (model: ${modelOutcome}${verdict.kind === 'refused' ? `; the hook: refused, ${verdict.reason}` : ''})`)
    hookAgrees(hook, verdict, E.isRight(result) ? modelOutcome : undefined, event)
    await compareWebhooks(m, r, outcome.deliveries)
  }
  /**
   * A bank transfer as the bank sends it: a KID and an amount, no payment id. The KID is the
   * target's (or a wrong one); the model applies it to the one open invoice holding that KID
   * (docs/rules.md C9), or to none (the service parks it). Two open invoices with one KID cannot
   * exist under the contract (DuplicateKid), so such a transfer is not sent.
   */
  private async byKid(m: Model, r: Real, k: Known, send: (kid: string, amount: number) => Promise<unknown>): Promise<void> {
    const target = m.world.payments.get(k.modelId)
    const right = kidOf(target)
    const kid = this.wrongKid ? (right === FALLBACK_KID ? '0000000000' : FALLBACK_KID) : right
    const open = [...m.world.payments.values()].filter((p) => p.kind === 'invoice' && p.status === 'Initiated' && p.kid === kid)
    if (open.length > 1) return
    const payee = open[0]
    const due = payee ?? target
    const amount = Math.max(1, Math.floor((Math.max(1, (due?.grossAmount ?? 1) - (due?.paidAmount ?? 0)) * this.permille) / 1000))
    const known = m.known.find((x) => x.modelId === payee?.paymentReferenceID)
    const row = stateRow(payee)
    m.tick += 1
    m.steps.push({ kind: 'event', event: 'transferByKid', paymentReferenceID: known?.realId ?? '(no open invoice)', amount, kid })
    const verdict = await callHook(m, r, 'receiveTransferByKid', () => send(kid, amount))
    if (verdict.kind === 'skipped') return
    const { world, result, deliveries } =
      payee === undefined ? ({ world: m.world, result: undefined, deliveries: [] } as const) : receiveTransfer(m.world, payee.paymentReferenceID, { amount, kid }, { at: clockOf(m.tick), ...hooksOf(r) })
    m.world = world
    const modelOutcome = outcomeOf(result)
    countEvent(r, `transferByKid ${modelOutcome}`)
    countState(r, row, 'transfer', result !== undefined && E.isRight(result))
    m.log.push(
      `transfer by KID of ${k.label}${this.wrongKid ? ' (a wrong KID)' : ''}  (model: ${known === undefined ? 'no open invoice holds it' : `to ${known.label}, ${modelOutcome}`}${verdict.kind === 'refused' ? `; the hook: refused, ${verdict.reason}` : ''})`
    )
    hookAgrees('receiveTransferByKid', verdict, result !== undefined && E.isRight(result) ? modelOutcome : undefined, `a transfer of ${String(amount)} by the KID of ${known?.label ?? k.label}`)
    await compareWebhooks(m, r, deliveries)
  }
  toString(): string {
    return `${this.what}(#${String(this.target)}${this.what === 'transfer' ? `, ${String(this.permille)}‰${this.wrongKid ? ', wrong KID' : ''}` : ''})`
  }
}

/** A 32-bit FNV-1a hash of a text, from `seed`. */
const fnv = (text: string, seed: number): number => {
  let h = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 16777619) >>> 0
  }
  return h
}

/**
 * The head of this run's `n`-th OCR giro file: a data sender and transmission number (8 and 7
 * digits) from a hash of the run's prefix and `n`, so that files of other runs and other calls
 * on a long-lived service are not taken for duplicates of each other (docs/rules.md C14).
 */
const transmissionHead = (m: Model, n: number): { readonly dataSender: string; readonly transmissionNumber: string } => {
  const key = `${m.prefix}ocr-${String(n)}`
  return {
    dataSender: String(fnv(key, 0x811c9dc5) % 100_000_000).padStart(8, '0'),
    transmissionNumber: String(fnv(key, 0x5bd1e995) % 10_000_000).padStart(7, '0')
  }
}

/** One transfer of an OCR file: a payment of the run (by its label), a KID and an amount. */
interface OcrItem {
  readonly known: Known
  readonly kid: string
  readonly amount: number
}

/** An OCR giro file of `items` (one assignment, giro payments of type 10), dated by the run's clock. */
const ocrFileOf = (m: Model, n: number, items: ReadonlyArray<OcrItem>): string => {
  const date = clockOf(m.tick).slice(0, 10)
  const transactions: OcrTransaction[] = items.map((item, i) => ({
    transactionNumber: i + 1,
    transactionType: 10,
    kid: item.kid,
    amount: item.amount,
    netsDate: date,
    centreId: '01',
    dayCode: Number(date.slice(8, 10)),
    partialSettlementNumber: 1,
    partialSettlementSerialNumber: '00001',
    cardDrawer: '00',
    formNumber: '0000000000',
    archiveReference: '000000000',
    reserved: '0000000',
    debitAccount: '00000000000',
    line: 0
  }))
  return ocrGiroText({
    ...transmissionHead(m, n),
    dataRecipient: '00010200',
    netsDate: date,
    assignments: [{ assignmentNumber: '0000001', agreementId: '000000001', account: '00000000000', netsDate: date, transactions }]
  })
}

/**
 * The bank sends an OCR giro file (docs/rules.md C14): transfers by KID to payments of the run
 * (a wrong KID now and then), or the run's last file again (every row a duplicate, nothing
 * applied twice). The model applies it with `receiveOcrGiro`; the service's answer is its own
 * (only a refusal is read), and what it changed shows in the webhooks and the answers after.
 */
class OcrFile implements Cmd {
  constructor(
    readonly items: ReadonlyArray<readonly [target: number, permille: number, wrongKid: boolean]>,
    readonly again: boolean
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const send = r.sut.receiveOcrGiro
    if (send === undefined || m.known.length === 0) return
    let text = this.again ? m.lastOcr : undefined
    let labels: string
    if (text === undefined) {
      const items = this.items.flatMap(([t, permille, wrongKid]): OcrItem[] => {
        const known = knownAt(m, t)
        const p = known === undefined ? undefined : m.world.payments.get(known.modelId)
        if (known === undefined) return []
        const right = kidOf(p)
        const kid = wrongKid ? (right === FALLBACK_KID ? '0000000000' : FALLBACK_KID) : right
        return [{ known, kid, amount: Math.max(1, Math.floor((Math.max(1, (p?.grossAmount ?? 1) - (p?.paidAmount ?? 0)) * permille) / 1000)) }]
      })
      m.ocrFiles += 1
      text = ocrFileOf(m, m.ocrFiles, items)
      labels = items.map((i) => `${String(i.amount)} to ${i.known.label}${i.kid === kidOf(m.world.payments.get(i.known.modelId)) ? '' : ' (a wrong KID)'}`).join(', ')
    } else labels = 'the last file again'
    const read = parseOcrGiro(text)
    if (E.isLeft(read)) throw new Error(`the kit wrote an OCR giro file that does not read: ${read.left.message}`)
    m.lastOcr = text
    m.tick += 1
    const rows = new Map(read.right.assignments.flatMap((a) => a.transactions).map((t) => [t.transactionNumber, [...m.world.payments.values()].find((p) => p.kind === 'invoice' && p.status === 'Initiated' && p.kid === t.kid)] as const))
    m.steps.push({ kind: 'event', event: 'ocr', paymentReferenceID: this.items.map(([t]) => knownAt(m, t)?.realId ?? '').join(','), text })
    const verdict = await callHook(m, r, 'receiveOcrGiro', () => send(text))
    if (verdict.kind === 'skipped') return
    const { world, report, deliveries } = receiveOcrGiro(m.world, read.right, { at: clockOf(m.tick), ...hooksOf(r) })
    m.world = world
    for (const row of report) {
      countEvent(r, `ocr ${row.outcome}`)
      countState(r, stateRow(rows.get(row.transactionNumber)), 'ocr', row.outcome === 'matched')
    }
    const outcomes = report.map((row) => row.outcome).join(', ')
    m.log.push(`OCR giro file: ${labels}  (model: ${outcomes}${verdict.kind === 'refused' ? `; the hook: refused, ${verdict.reason}` : ''})`)
    hookAgrees('receiveOcrGiro', verdict, report.some((row) => row.outcome === 'matched') ? outcomes : undefined, `an OCR giro file (${labels})`)
    await compareWebhooks(m, r, deliveries)
  }
  toString(): string {
    return this.again ? 'ocr(again)' : `ocr(${this.items.map(([t, p, w]) => `#${String(t)} ${String(p)}‰${w ? ' wrong KID' : ''}`).join(', ')})`
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
          ? !hasHook(r, 'completeForm') || this.otherWay
            ? act('cancel')
            : new OutsideEvent('completeForm', this.target, 0, false)
          : this.otherWay
            ? act('adjust')
            : hasHook(r, 'receiveTransfer') || hasHook(r, 'receiveTransferByKid')
              ? new OutsideEvent('transfer', this.target, 1000, false)
              : hasHook(r, 'receiveOcrGiro')
                ? new OcrFile([[this.target, 1000, false]], false)
                : act('adjust')
        : p.status === 'Reserved'
          ? act(this.otherWay ? 'cancel' : 'charge')
          : act(this.otherWay || p.status !== 'Charged' ? 'refund' : 'refundPartially')
    await step.run(m, r)
  }
  toString(): string {
    return `nextStep(#${String(this.target)}${this.otherWay ? ', the other way' : ''})`
  }
}

/**
 * The weighted commands of a run. New kinds of command come last and only when switched on
 * (reads, races), so the sequences of a seed stay the same for a service without them.
 */
export const commandArbs = (o: CheckServiceOptions, reads: boolean): ReadonlyArray<fc.WeightedArbitrary<Cmd>> => {
  const request: fc.Arbitrary<PaymentIntentRequest> = paymentIntentRequestArb({
    kinds: o.kinds ?? ['card', 'invoice'],
    ...(o.environments !== undefined ? { environments: o.environments } : {}),
    splits: { max: 4 },
    webhookUrls: o.webhookReceiver !== undefined ? [`${PLACEHOLDER}a`, `${PLACEHOLDER}b`] : (o.webhookUrls ?? []),
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
    ...(o.receiveTransfer !== undefined || o.receiveTransferByKid !== undefined ? (['transfer', 'transfer'] as const) : [])
  ]
  if (outside.length > 0) {
    out.push({
      weight: 5,
      arbitrary: fc
        .tuple(fc.constantFrom(...outside), small, fc.integer({ min: 1, max: 1500 }), fc.boolean())
        .map(([w, t, p, k]) => new OutsideEvent(w, t, p, k))
    })
  }
  if (reads) out.push({ weight: 2, arbitrary: fc.tuple(fc.constantFrom(0, 1, 2), fc.nat({ max: 7 })).map(([w, t]) => new Read(w, t)) })
  if (o.races === true) {
    out.push({
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom<Action>('refund', 'refundPartially', 'charge', 'cancel', 'adjust'), small, fc.array(opArb, { minLength: 1, maxLength: 4 }))
        .map(([a, t, ops]) => new Race(a, t, ops))
    })
  }
  if (o.receiveOcrGiro !== undefined) {
    out.push({
      weight: 3,
      arbitrary: fc
        .tuple(fc.array(fc.tuple(small, fc.integer({ min: 1, max: 1500 }), fc.boolean()), { minLength: 1, maxLength: 3 }), fc.nat({ max: 5 }))
        .map(([items, again]) => new OcrFile(items, again === 0))
    })
  }
  return out
}
