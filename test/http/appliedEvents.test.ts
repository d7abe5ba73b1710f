/**
 * C6: `handle` and the world operations hand back the events they applied, so a service stores
 * exactly those and never decides a command again. Over random lives driven only through `handle`,
 * `completeForm`, `failForm`, `receiveTransfer` and `receiveTransferByKid`: every answer's events
 * are what `transition` gives for the same command on the same state; replayed, the events of all
 * answers give every stored payment; each delivery's `eventID` names one of its answer's events;
 * and `[]` exactly when the world did not change; `changes` number the same events, from the version
 * the payment stood at (docs/rules.md C15).
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { initialState, kid as kidNumber, replay, transition, type Command, type Payment, type PaymentEvent } from '../../src/index.js'
import {
  completeForm,
  emptyWorld,
  failForm,
  handle,
  receiveTransfer,
  receiveTransferByKid,
  type Changes,
  type Deliveries,
  type World
} from '../../src/http.js'
import { opArb, patchOf, paymentIntentRequestArb, type Op } from '../../src/testing/arbitraries.js'
import { atOf, CATCH_ALL, idOf } from '../support/http.fixtures.js'

const kidOf = (n: number): string => {
  const made = kidNumber.create(String(4200 + n), 'mod10')
  if (E.isLeft(made)) throw new Error('kid')
  return made.right
}

type Step =
  | { readonly t: 'create'; readonly slot: number; readonly request: number; readonly kid: number }
  | { readonly t: 'cancel' | 'charge' | 'refund' | 'read' | 'complete'; readonly slot: number }
  | { readonly t: 'partial' | 'adjust'; readonly slot: number; readonly ops: ReadonlyArray<Op>; readonly reversed: boolean }
  | { readonly t: 'fail'; readonly slot: number; readonly reason: string | undefined }
  | { readonly t: 'transfer'; readonly slot: number; readonly permille: number; readonly wrongKid: boolean }
  | { readonly t: 'byKid'; readonly kid: number; readonly permille: number }

const SLOTS = 3
const slot = fc.nat({ max: SLOTS - 1 })
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('create' as const), slot, request: fc.nat({ max: 3 }), kid: fc.nat({ max: 2 }) }) },
  fc.record({ t: fc.constantFrom('cancel' as const, 'charge' as const, 'refund' as const, 'read' as const, 'complete' as const), slot }),
  { weight: 2, arbitrary: fc.record({ t: fc.constantFrom('partial' as const, 'adjust' as const), slot, ops: fc.array(opArb, { minLength: 1, maxLength: 4 }), reversed: fc.boolean() }) },
  fc.record({ t: fc.constant('fail' as const), slot, reason: fc.option(fc.constantFrom('card declined', '3-D Secure failed'), { nil: undefined }) }),
  { weight: 2, arbitrary: fc.record({ t: fc.constant('transfer' as const), slot, permille: fc.integer({ min: 1, max: 1500 }), wrongKid: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('byKid' as const), kid: fc.nat({ max: 2 }), permille: fc.integer({ min: 1, max: 1500 }) }) }
)

/** What one answer gave, whatever operation gave it. */
interface Answer {
  readonly world: World
  readonly deliveries: Deliveries
  readonly events: ReadonlyArray<PaymentEvent>
  readonly changes: Changes
  /** The command the operation ran (for `transition` to give the same events), when it ran one. */
  readonly command: Command | undefined
}

const amountOf = (p: Payment | undefined, permille: number): number =>
  Math.max(1, Math.floor((((p?.grossAmount ?? 0) - (p?.paidAmount ?? 0)) * permille) / 1000))

/** Runs one step on the world, only through `handle` and the world operations. */
const run = (world: World, step: Step, tick: number, requests: ReadonlyArray<Record<string, unknown>>): Answer => {
  const at = atOf(tick)
  const ctx = { at, paymentReferenceID: idOf(99), catchAllUrl: CATCH_ALL }
  if (step.t === 'byKid') {
    const kid = kidOf(step.kid)
    const open = [...world.payments.values()].find((p) => p.kind === 'invoice' && p.status === 'Initiated' && p.kid === kid)
    const amount = amountOf(open, step.permille)
    const { world: w, deliveries, events, changes } = receiveTransferByKid(world, { kid, amount }, ctx)
    return { world: w, deliveries, events, changes, command: { type: 'ReceiveInvoiceTransfer', at, amount, kid } }
  }
  const id = idOf(step.slot + 1)
  const path = `/payments/${id}`
  const payment = world.payments.get(id)
  switch (step.t) {
    case 'create': {
      const request = requests[step.request] as Record<string, unknown>
      const { world: w, deliveries, events, changes } = handle(world, { method: 'POST', path: '/payments', body: request }, { ...ctx, paymentReferenceID: id, kid: kidOf(step.kid) })
      const kid = request['paymentGateway'] === 'invoice' ? { kid: kidOf(step.kid) } : {}
      return { world: w, deliveries, events, changes, command: { type: 'CreatePayment', at, paymentReferenceID: id, request, ...kid } as unknown as Command }
    }
    case 'read': {
      const { world: w, deliveries, events, changes } = handle(world, { method: 'GET', path }, ctx)
      return { world: w, deliveries, events, changes, command: undefined }
    }
    case 'cancel':
    case 'charge':
    case 'refund': {
      const { world: w, deliveries, events, changes } = handle(world, { method: 'POST', path: `${path}/${step.t}` }, ctx)
      const type = ({ cancel: 'CancelPayment', charge: 'ChargePayment', refund: 'RefundPayment' } as const)[step.t]
      return { world: w, deliveries, events, changes, command: { type, at } }
    }
    case 'partial':
    case 'adjust': {
      const patch = payment === undefined ? { moneySplitPatch: [], newGrossAmount: 0 } : patchOf(payment, step.ops, step.reversed)
      const route = step.t === 'partial' ? 'refund/partially' : 'adjust'
      const { world: w, deliveries, events, changes } = handle(world, { method: 'POST', path: `${path}/${route}`, body: patch }, ctx)
      return { world: w, deliveries, events, changes, command: { type: step.t === 'partial' ? 'RefundPartially' : 'AdjustInvoice', at, patch } as Command }
    }
    case 'complete': {
      const { world: w, deliveries, events, changes } = completeForm(world, id, ctx)
      return { world: w, deliveries, events, changes, command: { type: 'CompletePaymentForm', at } }
    }
    case 'fail': {
      const { world: w, deliveries, events, changes } = failForm(world, id, { ...ctx, ...(step.reason === undefined ? {} : { reason: step.reason }) })
      return { world: w, deliveries, events, changes, command: { type: 'FailPaymentForm', at, ...(step.reason === undefined ? {} : { reason: step.reason }) } }
    }
    case 'transfer': {
      const kid = step.wrongKid ? kidOf(9) : (payment?.kid ?? kidOf(0))
      const amount = amountOf(payment, step.permille)
      const { world: w, deliveries, events, changes } = receiveTransfer(world, id, { amount, kid }, ctx)
      return { world: w, deliveries, events, changes, command: { type: 'ReceiveInvoiceTransfer', at, amount, kid } }
    }
  }
}

/** The payments an answer changed: those whose stored value is not the very one before. */
const changed = (before: World, after: World): ReadonlyArray<readonly [string, Payment]> =>
  [...after.payments].filter(([key, p]) => before.payments.get(key) !== p)

describe('C6: the events of every answer, replayed, give the stored payments', () => {
  it('each answer gives what transition gives for its command on the same state ([] when nothing changed); replayed, they give every stored payment; every delivery names one of them', () => {
    const requestsArb = fc.array(paymentIntentRequestArb({ splits: { min: 1, max: 4 }, maxSubscriptions: 1 }), { minLength: 4, maxLength: 4 })
    fc.assert(
      fc.property(requestsArb, fc.array(stepArb, { minLength: 1, maxLength: 30 }), (requests, steps) => {
        // two requests share a reference: repeats and DuplicateExternalPaymentReference happen too
        const reqs = requests.map((r, i) => ({ ...r, externalPaymentReferenceID: `order-${String(i % 3)}` }))
        let world = emptyWorld
        const log = new Map<string, Array<PaymentEvent>>()
        steps.forEach((step, tick) => {
          const before = world
          const answer = run(world, step, tick, reqs)
          const touched = changed(before, answer.world)
          if (answer.events.length === 0) {
            // nothing applied: the very world given, nothing sent, nothing to write
            expect(answer.world).toBe(before)
            expect(answer.deliveries).toStrictEqual([])
            expect(answer.changes.payments).toStrictEqual([])
          } else {
            // one payment changed, by exactly what transition gives for the same command on the same state
            expect(touched.length).toBe(1)
            const [key, after] = touched[0] as readonly [string, Payment]
            const old = before.payments.get(key)
            expect(answer.command).toBeDefined()
            const again = transition(old ?? initialState, answer.command as Command)
            expect(again).toStrictEqual(E.right([after, answer.events]))
            // the change to write: from the version read, the state after, the same events numbered (C15)
            const fromVersion = old?.version ?? 0
            expect(answer.changes.payments).toStrictEqual([
              {
                paymentReferenceID: after.paymentReferenceID,
                fromVersion,
                state: after,
                events: answer.events.map((event, i) => ({ version: fromVersion + i + 1, eventID: `${after.paymentReferenceID}:${String(fromVersion + i + 1)}`, event }))
              }
            ])
            log.set(key, [...(log.get(key) ?? []), ...(answer.changes.payments[0]?.events.map((e) => e.event) ?? [])])
            // each delivery's eventID names one of the events of this answer: `<id>:<version after it>`
            const first = (old?.version ?? 0) + 1
            const named = new Set(answer.events.map((_, i) => `${after.paymentReferenceID}:${String(first + i)}`))
            for (const d of answer.deliveries) {
              expect(named).toContain(d.payload.eventID)
              expect(d.id).toBe(d.payload.eventID)
            }
            expect(after.version).toBe(first + answer.events.length - 1)
          }
          world = answer.world
        })
        // replayed, the events of every answer give the stored payments, and no payment is left out
        expect([...log.keys()].sort()).toStrictEqual([...world.payments.keys()].sort())
        for (const [key, events] of log) expect(replay(events)).toStrictEqual(world.payments.get(key))
      }),
      { numRuns: 150 }
    )
  })
})
