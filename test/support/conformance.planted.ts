/**
 * The planted bugs of the conformance kit: every broken variant of paysplit's model that a
 * conformance test proves `checkService` finds (test/testing-kit/conformance.inProcess.test.ts,
 * test/testing-kit/conformance.brokenServices.test.ts; over real sockets, `cancelInvoice` against
 * the reference service in test/service/reference-service.conformance.test.ts), each with the
 * options that aim the runner at it, and the model as an in-process service under test to plant
 * them in.
 *
 * Aimed: a check keeps only the service members (payment form, bank, webhooks) and the payment
 * kind the bug needs, so the runner spends no command on what cannot reach it, and `nextStep`
 * walks a payment towards the bug's step (without `completeForm` an Initiated card's next step
 * is a cancel, without `receiveTransfer` an Initiated invoice's is an adjustment). The runner
 * draws its commands at random, so no option makes one run meet a bug for sure; what is certain
 * is the check: each bug's `share` of runs that meet it is measured, and `numRuns` is set so that
 * all of them missing it has a chance under 10⁻¹² ({@link runsFor}).
 * test/testing-kit/conformance.planted.test.ts checks that each is caught under every seed of a sweep.
 */
import * as E from 'fp-ts/lib/Either.js'
import { kid as kids } from '../../src/index.js'
import {
  completeForm,
  emptyWorld,
  failForm,
  handle,
  receiveTransfer,
  webhookPaymentOf,
  type HandleContext,
  type Handled,
  type WebhookDelivery,
  type World
} from '../../src/http.js'
import type { Payment } from '../../src/payment.js'
import type { CheckServiceOptions, ReceivedWebhook, ServiceRequest, ServiceResponse } from '../../src/conformance.js'
import { cancelInvoice, chargeImmediate, handled, paymentOf, withPayment, type Handler } from './conformance.fixtures.js'

export const CATCH_ALL = 'https://hooks.example/all'
export const SUB_A = 'https://hooks.example/sub-a'
export const SUB_B = 'https://hooks.example/sub-b'

const field = (v: unknown, key: string): unknown => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined)
const json = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown))

// -------------------------------------------------------------------------------------
// broken variants
// -------------------------------------------------------------------------------------

/** A full refund returns the original charge again, ignoring earlier partial refunds (it may exceed the charge). */
export const refundTooMuch: Handler = (world, request, ctx) => {
  const before = paymentOf(world, request.path)
  const { world: after, response, deliveries, events } = handle(world, request, ctx)
  if (!request.path.endsWith('/refund') || before === undefined || response.status !== 200) return handled(after, response, deliveries, events)
  const q = paymentOf(after, request.path)
  if (q === undefined) return handled(after, response, deliveries, events)
  const broken: Payment = { ...q, refundedAmount: before.refundedAmount + before.chargedAmount }
  const view = webhookPaymentOf(broken)
  // the payload and the body sent (what a receiver gets) alike
  return handled(
    withPayment(after, broken),
    response,
    deliveries.map((d) => {
      const payload = { ...d.payload, payload: { payment: view } }
      return { ...d, payload, body: JSON.stringify(payload) }
    }),
    events
  )
}

/** Drops the webhooks of one event type. */
export const silent =
  (eventType: string): Handler =>
  (world, request, ctx) => {
    const { world: after, response, deliveries, events } = handle(world, request, ctx)
    return handled(after, response, deliveries.filter((d) => d.eventType !== eventType), events)
  }

/** No webhook when a payment is cancelled. */
export const silentCancel: Handler = silent('Cancelled')

/** A second, stray webhook for each cancel. */
export const doubleCancel: Handler = (world, request, ctx) => {
  const { world: after, response, deliveries, events } = handle(world, request, ctx)
  return handled(after, response, deliveries.flatMap((d) => (d.eventType === 'Cancelled' ? [d, { ...d, url: 'https://hooks.example/stray' }] : [d])), events)
}

/** A refused charge answers 400 instead of 409. */
export const wrongStatus: Handler = (world, request, ctx) => {
  const { world: after, response, deliveries, events } = handle(world, request, ctx)
  return handled(after, request.path.endsWith('/charge') && response.status === 409 ? { ...response, status: 400 } : response, deliveries, events)
}

/** A cancel answers with `success: "yes"`. */
export const wrongBody: Handler = (world, request, ctx) => {
  const { world: after, response, deliveries, events } = handle(world, request, ctx)
  return handled(after, request.path.endsWith('/cancel') && response.status === 200 ? { ...response, body: { ...(response.body as object), success: 'yes' } as never } : response, deliveries, events)
}

/** The create response leaves out the invoice's KID. */
export const noKid: Handler = (world, request, ctx) => {
  const { world: after, response, deliveries, events } = handle(world, request, ctx)
  const created = field(field(response.body, 'paymentIntent'), 'paymentCreated')
  if (response.status !== 201 || typeof created !== 'object' || created === null) return handled(after, response, deliveries, events)
  const rest = Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'kid'))
  return handled(after, { ...response, body: { ...(response.body as object), paymentIntent: { ...(field(response.body, 'paymentIntent') as object), paymentCreated: rest } } as never }, deliveries, events)
}

/** A split patch that leaves out a split is read as leaving that split alone (instead of a 400 PatchSplitMismatch). */
export const lenientPatch: Handler = (world, request, ctx) => {
  const p = paymentOf(world, request.path)
  const patch = field(request.body, 'moneySplitPatch')
  if (p === undefined || !Array.isArray(patch) || !/\/(refund\/partially|adjust)$/.test(request.path)) return handle(world, request, ctx)
  const named = new Set(patch.map((e) => field(e, 'splitID')))
  const filled = [...patch, ...p.moneySplits.filter((s) => !named.has(s.splitID)).map((s) => ({ splitID: s.splitID, updateType: 'DoNothing' }))]
  return handle(world, { ...request, body: { ...(request.body as object), moneySplitPatch: filled } }, ctx)
}

/** A raised split answers 400 ValidationFailed instead of 400 SplitAmountIncrease. */
export const raiseAsValidation: Handler = (world, request, ctx) => {
  const { world: after, response, deliveries, events } = handle(world, request, ctx)
  const error = field(response.body, 'error')
  if (field(error, 'code') !== 'SplitAmountIncrease') return handled(after, response, deliveries, events)
  return handled(after, { ...response, body: { success: false, error: { ...(error as object), code: 'ValidationFailed' } } as never }, deliveries, events)
}

/** A repeated create is answered with the first payment the service created in this run. */
const firstPaymentAgain = (): { handler: Handler; reset: () => void } => {
  let first: unknown
  return {
    handler: (world, request, ctx) => {
      const out = handle(world, request, ctx)
      if (request.path !== '/payments') return out
      if (out.response.status === 201) first ??= out.response.body
      return out.response.status === 200 ? { ...out, response: { ...out.response, body: first } as Handled['response'] } : out
    },
    reset: () => {
      first = undefined
    }
  }
}

// -------------------------------------------------------------------------------------
// the service under test, in process
// -------------------------------------------------------------------------------------

/** How a variant differs from the reference service. */
export interface Plant {
  /** Instead of `handle`. */
  readonly handler?: Handler
  /** Changes a response on its way out. */
  readonly respond?: (request: ServiceRequest, response: ServiceResponse) => ServiceResponse
  /** Changes the webhooks of one request or operation before they are received. */
  readonly deliver?: (ws: ReadonlyArray<ReceivedWebhook>) => ReadonlyArray<ReceivedWebhook>
  /** Called when a run starts (a variant that keeps state forgets it). */
  readonly onReset?: () => void
  /** A bank transfer is matched to its invoice whatever KID it carries. */
  readonly ignoreKid?: boolean
  /** A bank transfer is dropped. */
  readonly dropTransfer?: boolean
  /** Any bank transfer settles its invoice (it is credited as the whole rest). */
  readonly settleOnAnyTransfer?: boolean
  /** The payment form's operations reject (the form backend is down). */
  readonly formDown?: boolean
  /** A payment-form completion the service refuses still sends a webhook. */
  readonly hookOnRefusedForm?: boolean
}

/**
 * paysplit's own model as a service under test, with `plant` planted in it: the world in a
 * closure, emptied at each run's reset, a fresh time, id and KID per request as a service makes
 * them (a repeated invoice create keeps its stored KID), webhooks JSON-copied. Every member is given; a planted bug's options pick the ones it needs.
 */
export const modelService = (plant: Plant = {}): CheckServiceOptions => {
  let world: World = emptyWorld
  let n = 0
  let received: ReceivedWebhook[] = []
  const hooks = { catchAllUrl: CATCH_ALL }
  const tick = (): string => new Date(Date.UTC(2030, 0, 1, 0, 0, 0) + ++n * 1000).toISOString()
  const newKid = (): string => {
    const made = kids.create(`90${String(n).padStart(6, '0')}`, 'mod10')
    return E.isRight(made) ? made.right : '12345674'
  }
  const deliver = (ds: ReadonlyArray<WebhookDelivery>): void => {
    const ws = ds.map((d) => ({ url: d.url, body: json(d.payload) }))
    received.push(...(plant.deliver?.(ws) ?? ws))
  }
  const keep = <O extends { readonly world: World; readonly deliveries: ReadonlyArray<WebhookDelivery> }>(outcome: O): O => {
    world = outcome.world
    deliver(outcome.deliveries)
    return outcome
  }
  const handler = plant.handler ?? handle
  const formDown = (): Promise<never> => Promise.reject(new Error('form backend down'))
  return {
    send: (request) => {
      const at = tick()
      const ctx: HandleContext = {
        at,
        paymentReferenceID: `6f1c3c52-3f51-4b8e-9a8e-${n.toString(16).padStart(12, '0')}`,
        kid: newKid(), // a fresh KID per request, as a service may make: a repeat keeps the stored one (C6)
        ...hooks
      }
      const response = keep(handler(world, { method: request.method, path: request.path, ...(request.body === undefined ? {} : { body: json(request.body) }) }, ctx)).response
      const res = { status: response.status, body: json(response.body) }
      return Promise.resolve(plant.respond?.(request, res) ?? res)
    },
    receivedWebhooks: () => Promise.resolve([...received]),
    catchAllUrl: CATCH_ALL,
    webhookUrls: [SUB_A, SUB_B],
    completeForm: (id) => {
      if (plant.formDown === true) return formDown()
      const result = keep(completeForm(world, id, { at: tick(), ...hooks })).result
      if (plant.hookOnRefusedForm === true && E.isLeft(result)) received.push({ url: CATCH_ALL, body: { eventType: 'Reserved', refused: true } })
      return Promise.resolve(result)
    },
    failForm: (id, reason) => (plant.formDown === true ? formDown() : Promise.resolve(keep(failForm(world, id, { at: tick(), ...hooks, ...(reason === undefined ? {} : { reason }) })).result)),
    receiveTransfer: (id, amount, kid) => {
      const at = tick()
      if (plant.dropTransfer === true) return Promise.resolve(undefined)
      const p = world.payments.get(id)
      const credited = plant.settleOnAnyTransfer === true && p !== undefined ? Math.max(amount, p.grossAmount - p.paidAmount) : amount
      const right = plant.ignoreKid === true ? p?.kid : undefined
      return Promise.resolve(keep(receiveTransfer(world, id, { amount: credited, kid: right ?? kid }, { at, ...hooks })).result)
    },
    reset: () => {
      world = emptyWorld
      received = []
      plant.onReset?.()
      return Promise.resolve()
    }
  }
}

// -------------------------------------------------------------------------------------
// the planted bugs, each with the options that aim the runner at it
// -------------------------------------------------------------------------------------

/** The members a bug's check keeps; the others are left out so that the runner does not spend its commands on them. */
type Member = 'receivedWebhooks' | 'completeForm' | 'failForm' | 'receiveTransfer'

export interface PlantedBug {
  readonly name: string
  readonly plant: () => Plant
  /** The members of the service the check is given (`send` and `reset` always). */
  readonly members: ReadonlyArray<Member>
  /** The options that aim the runner at the bug (the kinds of payment it lives in). */
  readonly options: Partial<CheckServiceOptions>
  /**
   * The share of runs that meet the bug with these options, measured over 200 seeds (runs until
   * the first failure, seeds 1–200); the check's `numRuns` is {@link runsFor} of it.
   */
  readonly share: number
}

/**
 * Runs that miss a bug met by `share` of the runs with a chance under 10⁻¹², counting with half
 * the measured share for margin: the smallest n with (1 − share/2)ⁿ < 10⁻¹².
 */
export const runsFor = (share: number): number => Math.ceil(Math.log(1e-12) / Math.log(1 - share / 2))

/** The options of a check of `bug`: the in-process service with the bug planted, the aimed options. */
export const plantedCheck = (bug: PlantedBug, extra: Partial<CheckServiceOptions> = {}): CheckServiceOptions => {
  const service = modelService(bug.plant())
  const keep = new Set<string>(['send', 'reset', 'catchAllUrl', 'webhookUrls', ...bug.members])
  const members = Object.fromEntries(Object.entries(service).filter(([k]) => keep.has(k))) as unknown as CheckServiceOptions
  return { ...members, ...bug.options, numRuns: runsFor(bug.share), ...extra }
}

const WEBHOOKS: ReadonlyArray<Member> = ['receivedWebhooks']
/** Only `GET /payments/{unknown id}/cancel` (the runner's `wrongRoute(1)`, a 405) is answered differently. */
const payouts = (change: (r: ServiceResponse) => ServiceResponse): (() => Plant) => () => ({ respond: (q, r) => (q.method === 'GET' && q.path.endsWith('/cancel') ? change(r) : r) })

export const plantedBugs: ReadonlyArray<PlantedBug> = [
  // test/testing-kit/conformance.brokenServices.test.ts (the refund too much: its shrunk counterexample)
  { name: 'cancel allowed on an invoice', plant: () => ({ handler: cancelInvoice }), members: [], options: { kinds: ['invoice'] }, share: 0.098 },
  { name: 'a full refund that may exceed the charge', plant: () => ({ handler: refundTooMuch }), members: ['receivedWebhooks', 'completeForm'], options: { kinds: ['card'] }, share: 0.007 },
  { name: 'charge allowed when chargeImmediately is true', plant: () => ({ handler: chargeImmediate }), members: [], options: { kinds: ['card'] }, share: 0.029 },
  { name: 'no webhook on cancel', plant: () => ({ handler: silentCancel }), members: WEBHOOKS, options: { kinds: ['card'] }, share: 0.311 },
  // test/testing-kit/conformance.brokenServices.test.ts
  { name: 'a stray second webhook on cancel', plant: () => ({ handler: doubleCancel }), members: WEBHOOKS, options: { kinds: ['card'] }, share: 0.311 },
  { name: 'a refused charge answers 400', plant: () => ({ handler: wrongStatus }), members: [], options: { kinds: ['card'] }, share: 0.092 },
  { name: 'a cancel answers success "yes"', plant: () => ({ handler: wrongBody }), members: [], options: { kinds: ['card'] }, share: 0.311 },
  { name: 'the create response leaves out the KID', plant: () => ({ handler: noKid }), members: [], options: { kinds: ['invoice'] }, share: 0.499 },
  { name: 'a transfer is dropped', plant: () => ({ dropTransfer: true }), members: ['receivedWebhooks', 'receiveTransfer'], options: { kinds: ['invoice'] }, share: 0.170 },
  { name: 'the payment form is down', plant: () => ({ formDown: true }), members: ['completeForm'], options: { kinds: ['card'] }, share: 0.248 },
  { name: 'the service throws', plant: () => ({ handler: () => { throw new Error('connection refused') } }), members: [], options: { kinds: ['card'] }, share: 0.816 },
  { name: 'no webhook on a partial refund', plant: () => ({ handler: silent('PartiallyRefunded') }), members: ['receivedWebhooks', 'completeForm'], options: { kinds: ['card'] }, share: 0.030 },
  { name: 'no webhook on an adjustment', plant: () => ({ handler: silent('InvoiceAdjusted') }), members: WEBHOOKS, options: { kinds: ['invoice'] }, share: 0.304 },
  { name: 'a patch that leaves out a split is accepted, on a card', plant: () => ({ handler: lenientPatch }), members: ['completeForm'], options: { kinds: ['card'] }, share: 0.001 },
  { name: 'a patch that leaves out a split is accepted, on an invoice', plant: () => ({ handler: lenientPatch }), members: [], options: { kinds: ['invoice'] }, share: 0.006 },
  { name: 'a transfer with a wrong KID is accepted', plant: () => ({ ignoreKid: true }), members: ['receivedWebhooks', 'receiveTransfer'], options: { kinds: ['invoice'] }, share: 0.062 },
  { name: 'a raised split answers ValidationFailed (an invoice)', plant: () => ({ handler: raiseAsValidation }), members: [], options: { kinds: ['invoice'] }, share: 0.006 },
  { name: 'a partial transfer settles the invoice', plant: () => ({ settleOnAnyTransfer: true }), members: ['receivedWebhooks', 'receiveTransfer'], options: { kinds: ['invoice'] }, share: 0.063 },
  { name: 'a refused payment-form completion sends a webhook', plant: () => ({ hookOnRefusedForm: true }), members: ['receivedWebhooks', 'completeForm'], options: { kinds: ['card'] }, share: 0.104 },
  // test/testing-kit/conformance.inProcess.test.ts
  { name: 'a wrong status code on a wrong route', plant: payouts((r) => ({ ...r, status: 400 })), members: [], options: {}, share: 0.074 },
  { name: 'a wrong error code on a wrong route', plant: payouts((r) => ({ ...r, body: { success: false, error: { code: 'NotFound', message: 'Gone.' } } })), members: [], options: {}, share: 0.074 },
  { name: 'no body on a wrong route', plant: payouts((r) => ({ ...r, body: undefined })), members: [], options: {}, share: 0.074 },
  { name: 'a null body of a create', plant: () => ({ respond: (q, r) => (q.path === '/payments' ? { ...r, body: null } : r) }), members: [], options: {}, share: 0.587 },
  { name: 'a changed amount', plant: () => ({ respond: (_, r) => ({ ...r, body: JSON.parse(JSON.stringify(r.body).replace('"grossAmount":', '"grossAmount":9')) as unknown }) }), members: [], options: {}, share: 0.499 },
  { name: '422 for an invalid create', plant: () => ({ respond: (q, r) => (q.path === '/payments' && r.status === 400 ? { ...r, status: 422 } : r) }), members: [], options: {}, share: 0.231 },
  {
    name: 'a repeated create answered with the first payment',
    plant: () => {
      const v = firstPaymentAgain()
      return { handler: v.handler, onReset: v.reset }
    },
    members: [],
    options: { kinds: ['card'] },
    share: 0.038
  },
  { name: 'webhooks of one url missing', plant: () => ({ deliver: (ws) => ws.filter((w) => w.url !== SUB_A) }), members: WEBHOOKS, options: {}, share: 0.070 },
  { name: 'webhooks to a wrong url', plant: () => ({ deliver: (ws) => ws.map((w) => ({ ...w, url: CATCH_ALL })) }), members: WEBHOOKS, options: {}, share: 0.132 },
  {
    name: 'a wrong payload',
    plant: () => ({ deliver: (ws) => ws.map((w) => ({ ...w, body: JSON.parse(JSON.stringify(w.body).replace('"objectName":"payment"', '"objectName":"Payment"')) as unknown })) }),
    members: WEBHOOKS,
    options: {},
    share: 0.499
  },
  { name: 'an extra webhook to a url nobody subscribed', plant: () => ({ deliver: (ws) => ws.flatMap((w) => [w, { ...w, url: 'https://hooks.example/debug' }]) }), members: WEBHOOKS, options: {}, share: 0.499 },
  {
    name: 'only the first webhook of a request',
    plant: () => ({ deliver: (ws) => ws.filter((w, i) => ws.findIndex((x) => x.url === w.url) === i) }),
    members: ['receivedWebhooks', 'completeForm'],
    options: { kinds: ['card'] },
    share: 0.005
  }
]
