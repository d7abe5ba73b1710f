/**
 * `transition` against the hand-written reducer of `baseline.ts`:
 *
 * - one step, Reserved → Charged, on the realistic trusted path (the state came out of a
 *   previous `transition`, so it is used as it is); also, for information, the sound floor (the
 *   least a hand-written step that keeps docs/rules.md C2 must do, as a ratio to the plain reducer: whether
 *   the target is reachable by any implementation) and the validated path (the same state as a
 *   foreign object, e.g. loaded from storage as JSON, validated in full);
 * - a whole card lifecycle: create → complete form (Reserved) → charge → partial refund → full
 *   refund. The create request arrives as untrusted JSON, so both sides validate it: paysplit
 *   with its own codec, the baseline with ajv (compiled from the equivalent JSON Schema, plus the
 *   two cross-field rules JSON Schema cannot say) and its patch schema for the partial refund.
 */
import type { Command } from '../src/commands.js'
import { transition } from './paysplit.js'
import type { Payment, PaymentState } from '../src/payment.js'
import { initialState } from './paysplit.js'
import type { PaymentIntentRequest } from '../src/codecs/requests.js'
import { ajvValidators, crossFieldRulesHold } from './ajv.js'
import { handReducer, soundFloorReducer } from './baseline.js'
import {
  charge,
  completeForm,
  createCommand,
  fullRefund,
  partialRefund,
  PAYMENT_ID,
  requestJson,
  reservedPayment,
  T0
} from './fixtures.js'
import { keep, ratio, report, us } from './harness.js'

const TARGET = 2

/** A plain recursive freeze that skips what is frozen already (the shared splits). */
const freezeDeep = (v: unknown): void => {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return
  Object.freeze(v)
  for (const x of Object.values(v)) freezeDeep(x)
}

export const runTransitionBenchmarks = async (): Promise<void> => {
  // one step on the trusted path ------------------------------------------------------
  const reserved = reservedPayment()
  const check = transition(reserved, charge)
  if (check._tag !== 'Right' || check.right[0].status !== 'Charged') throw new Error('charge failed')
  const baseCheck = handReducer(reserved, charge)
  if (!baseCheck.ok || baseCheck.state.status !== 'Charged') throw new Error('baseline charge failed')

  const step = ratio(
    () => transition(reserved, charge),
    () => handReducer(reserved, charge)
  )
  await report({
    name: 'transition Reserved → Charged, trusted state / hand-written reducer',
    ratio: step.ratio,
    target: TARGET,
    detail: `${us(step.subjectUs)} vs ${us(step.baselineUs)} per call`
  })

  // what the safety costs (information): the same reducer, deep-freezing what it returns
  const frozen = ratio(
    () => transition(reserved, charge),
    () => {
      const r = handReducer(reserved, charge)
      if (r.ok) {
        freezeDeep(r.state)
        freezeDeep(r.events)
      }
      return r
    }
  )
  console.log(
    `  (against the same reducer deep-freezing its state and events, as paysplit must for its trusted states: ` +
      `${frozen.ratio.toFixed(2)}×, ${us(frozen.baselineUs)} per call; no target)`
  )

  // the sound floor (information): the least any step that keeps docs/rules.md C2 must do, by hand — is
  // the target of 2 reachable at all?
  const floorCheck = soundFloorReducer(reserved, charge)
  if (!floorCheck.ok || floorCheck.state.status !== 'Charged' || !Object.isFrozen(floorCheck.state)) {
    throw new Error('sound floor charge failed')
  }
  const floor = ratio(
    () => soundFloorReducer(reserved, charge),
    () => handReducer(reserved, charge)
  )
  const overFloor = ratio(
    () => transition(reserved, charge),
    () => soundFloorReducer(reserved, charge)
  )
  console.log(
    `  (sound floor, information: a hand-written step doing only what docs/rules.md C2 asks — the same guards, ` +
      `\`at\` checked by the same timestamp rule, the same object literal, Object.freeze of the new state — ` +
      `${floor.ratio.toFixed(2)}× the plain reducer, ${us(floor.subjectUs)} per call; ` +
      `paysplit's step is ${overFloor.ratio.toFixed(2)}× this floor; no target)`
  )

  // one step on the validated path (information) -------------------------------------
  const foreign = JSON.parse(JSON.stringify(reserved)) as Payment
  const validated = ratio(
    () => transition(foreign, charge),
    () => handReducer(foreign, charge)
  )
  console.log(
    `  (validated path, a foreign state validated in full first: ${validated.ratio.toFixed(2)}× the reducer, ` +
      `${us(validated.subjectUs)} per call; no target)`
  )

  // whole lifecycle ---------------------------------------------------------------------
  const { request: validateRequest, patch: validatePatch } = ajvValidators()
  const commandsAfterCreate: ReadonlyArray<Command> = [completeForm, charge, partialRefund(), fullRefund]

  const lifecycle = (): PaymentState => {
    const created = transition(initialState, createCommand(requestJson()))
    if (created._tag === 'Left') throw new Error(created.left.message)
    let s = created.right[0]
    for (const c of commandsAfterCreate) {
      const r = transition(s, c)
      if (r._tag === 'Left') throw new Error(r.left.message)
      s = r.right[0]
    }
    return s
  }
  const baselineLifecycle = (): PaymentState => {
    const body = requestJson()
    if (!validateRequest(body) || !crossFieldRulesHold(body)) throw new Error('invalid request')
    const request = body as unknown as PaymentIntentRequest
    const created = handReducer(undefined, { type: 'CreatePayment', at: T0, paymentReferenceID: PAYMENT_ID, request })
    if (!created.ok) throw new Error(created.code)
    let s = created.state
    for (const c of commandsAfterCreate) {
      if (c.type === 'RefundPartially' && !validatePatch(c.patch)) throw new Error('invalid patch')
      const r = handReducer(s, c)
      if (!r.ok) throw new Error(r.code)
      s = r.state
    }
    return s
  }
  const a = lifecycle() as Payment
  const b = baselineLifecycle() as Payment
  if (a.status !== 'Refunded' || b.status !== 'Refunded' || a.refundedAmount !== b.refundedAmount) {
    throw new Error('the lifecycles disagree')
  }
  keep([a, b])
  const life = ratio(lifecycle, baselineLifecycle)
  await report({
    name: 'card lifecycle (create → Reserved → Charged → partial refund → Refunded) / hand-written reducer + ajv',
    ratio: life.ratio,
    target: TARGET,
    detail: `${us(life.subjectUs)} vs ${us(life.baselineUs)} per lifecycle`
  })
}
