/**
 * `replay` of 10⁶ events against the plain loop of `baseline.ts` (a for-loop over the events and
 * a switch that builds every state as an object literal). The events are those of 200 000 card
 * payments, 5 each (created, reserved, charged, partially refunded, refunded: the events a
 * store holds for a finished payment), each payment's stream replayed on its own, as a service
 * that rebuilds its payments from an event store does.
 */
import type { PaymentEvent } from '../src/events.js'
import type { Payment } from '../src/payment.js'
import { initialState } from './paysplit.js'
import { replay } from './paysplit.js'
import { handReplay } from './baseline.js'
import { charge, completeForm, createCommand, fullRefund, partialRefund, requestJson, run } from './fixtures.js'
import { keep, ratio, report, us } from './harness.js'

const TARGET = 2
const PAYMENTS = 200_000

export const runReplayBenchmarks = async (): Promise<void> => {
  const request = requestJson()
  delete request['customer']
  const { events } = run(initialState, [createCommand(request), completeForm, charge, partialRefund(), fullRefund])
  if (events.length !== 5) throw new Error(`expected 5 events, got ${String(events.length)}`)
  // one stream per payment (the same five events: evolve never changes what it is given)
  const streams: ReadonlyArray<ReadonlyArray<PaymentEvent>> = Array.from({ length: PAYMENTS }, () => [...events])

  const a = replay(events) as Payment
  const b = handReplay(events) as Payment
  if (a.status !== 'Refunded' || b.status !== 'Refunded' || a.refundedAmount !== b.refundedAmount || a.version !== b.version) {
    throw new Error('replay and the plain loop disagree')
  }

  const r = ratio(
    () => {
      let last: unknown
      for (let i = 0; i < streams.length; i++) last = replay(streams[i] as ReadonlyArray<PaymentEvent>)
      return last
    },
    () => {
      let last: unknown
      for (let i = 0; i < streams.length; i++) last = handReplay(streams[i] as ReadonlyArray<PaymentEvent>)
      return last
    },
    { rounds: 7, batchMs: 1, warmupMs: 500 }
  )
  await report({
    name: 'replay of 10⁶ events (200 000 payments × 5) / plain for-loop over object literals',
    ratio: r.ratio,
    target: TARGET,
    detail: `${us(r.subjectUs)} vs ${us(r.baselineUs)} per 10⁶ events`
  })
  keep(streams)
}
