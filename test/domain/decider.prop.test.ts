/**
 * The laws of the decider, as fast-check properties over random lives of a payment
 * (test/support/scenarios.ts). Run counts come from test/support/setup.ts (×100 under `npm run test:long`).
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Command } from '../../src/commands.js'
import { decide } from '../../src/decide.js'
import { replay, transition } from '../../src/decider.js'
import { evolve } from '../../src/evolve.js'
import type { ErrorCode } from '../../src/errors.js'
import type { PaymentEvent } from '../../src/events.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import { initialState } from '../../src/payment.js'
import type { CreateSpec, Intent } from '../support/scenarios.js'
import { commandFor, createCommand, scenarioArb } from '../support/scenarios.js'

interface Step {
  readonly before: PaymentState
  readonly command: unknown
  readonly intent: Intent | { readonly t: 'create0' }
  readonly result: ReturnType<typeof transition>
}

/** Plays a scenario: the create command first, then every intent. */
const play = (spec: CreateSpec, intents: ReadonlyArray<Intent>): { steps: ReadonlyArray<Step>; final: PaymentState; events: ReadonlyArray<PaymentEvent> } => {
  const steps: Array<Step> = []
  const events: Array<PaymentEvent> = []
  let s: PaymentState = initialState
  const all: Array<[Intent | { readonly t: 'create0' }, unknown]> = [[{ t: 'create0' }, createCommand(spec)]]
  let n = 1
  const runOne = (intent: Intent | { readonly t: 'create0' }, command: unknown) => {
    const result = transition(s, command as Command)
    steps.push({ before: s, command, intent, result })
    if (E.isRight(result)) {
      s = result.right[0]
      events.push(...result.right[1])
    }
  }
  for (const [i, c] of all) runOne(i, c)
  for (const intent of intents) runOne(intent, commandFor(s, spec, intent, n++))
  return { steps, final: s, events }
}

/** Half the global run count (the two slowest properties), so `test:long` scales them too. */
const half = (): number => Math.max(1, Math.round((fc.readConfigureGlobal().numRuns ?? 100) / 2))

const isSafeNat = (n: number): boolean => Number.isSafeInteger(n) && n >= 0

/** Every money invariant of C2 on one state. */
const assertMoneyInvariants = (p: Payment): void => {
  const sum = p.moneySplits.reduce((a, s) => a + s.amount, 0)
  expect(p.grossAmount).toBe(sum)
  for (const n of [p.grossAmount, p.chargedAmount, p.refundedAmount, p.excessRefundedAmount, p.paidAmount, ...p.moneySplits.map((s) => s.amount)]) {
    expect(isSafeNat(n)).toBe(true)
  }
  if (p.status === 'Charged' || p.status === 'Refunded') {
    expect(p.chargedAmount).toBe(p.grossAmount + p.refundedAmount)
    expect(p.refundedAmount).toBeLessThanOrEqual(p.chargedAmount)
    expect(p.excessRefundedAmount).toBeLessThanOrEqual(p.refundedAmount)
  } else {
    expect(p.chargedAmount).toBe(0)
    expect(p.refundedAmount).toBe(0)
  }
  if (p.status === 'Refunded') expect(p.grossAmount).toBe(0)
  if (p.kind === 'card') expect(p.paidAmount).toBe(0)
}

// -------------------------------------------------------------------------------------
// an oracle of the transition table, written from C2 independently of src/transitions.ts
// -------------------------------------------------------------------------------------

const fieldCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ValidationFailed',
  'PatchSplitMismatch',
  'SplitAmountIncrease',
  'GrossAmountMismatch',
  'NothingToChange',
  'KidMismatch'
])

/** The guard error SPEC's table gives, or 'pass' when every guard passes. */
const oracle = (p: Payment, type: string): ErrorCode | 'pass' => {
  const inv = p.kind === 'invoice'
  const st = p.status
  const table: Record<string, ReadonlyArray<[boolean, ErrorCode]>> = {
    CreatePayment: [[true, 'PaymentAlreadyExists']],
    CompletePaymentForm: [[inv, 'FormNotUsedForInvoice'], [st !== 'Initiated', 'FormNotAllowedInStatus']],
    FailPaymentForm: [[inv, 'FormNotUsedForInvoice'], [st !== 'Initiated', 'FormNotAllowedInStatus']],
    ChargePayment: [[inv, 'ChargeNotAllowedForInvoice'], [p.chargeImmediately === true, 'ChargeNotAllowedForImmediateCharge'], [st !== 'Reserved', 'ChargeNotAllowedInStatus']],
    CancelPayment: [[inv, 'InvoiceCannotBeCancelled'], [st !== 'Initiated' && st !== 'Reserved', 'CancelNotAllowedInStatus']],
    RefundPayment: [[st !== 'Charged', 'RefundNotAllowedInStatus'], [p.grossAmount === 0, 'NothingToRefund']],
    RefundPartially: [[st !== 'Charged', 'RefundNotAllowedInStatus']],
    AdjustInvoice: [[!inv, 'NotAnInvoice'], [st !== 'Initiated', 'AdjustNotAllowedInStatus']],
    ReceiveInvoiceTransfer: [[!inv, 'NotAnInvoice'], [st !== 'Initiated', 'TransferNotAllowedInStatus']]
  }
  for (const [fails, code] of table[type] ?? []) if (fails) return code
  return 'pass'
}

const typeOf = (command: unknown): unknown =>
  typeof command === 'object' && command !== null && !Array.isArray(command) ? (command as { type?: unknown }).type : undefined

describe('decider laws (properties)', () => {
  it('money is conserved: Σ splits = gross, chargedAmount = gross + refunded, refunds never exceed the charge', () => {
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        const { steps } = play(create, intents)
        for (const step of steps) {
          if (E.isRight(step.result)) assertMoneyInvariants(step.result.right[0] as Payment)
        }
      })
    )
  })

  it('the guards agree with an independent oracle of the transition table', () => {
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        for (const step of play(create, intents).steps) {
          if (step.before.status === 'NoPayment' || step.intent.t === 'garbage') continue
          const expected = oracle(step.before, String(typeOf(step.command)))
          if (expected === 'pass') {
            if (E.isLeft(step.result)) expect(fieldCodes.has(step.result.left.code)).toBe(true)
          } else {
            expect(E.isLeft(step.result) && step.result.left.code).toBe(expected)
          }
        }
      })
    )
  })

  it('terminal states (Cancelled, Refunded) reject every command', () => {
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        for (const step of play(create, intents).steps) {
          const st = step.before.status
          if (st === 'Cancelled' || st === 'Refunded') expect(E.isLeft(step.result)).toBe(true)
        }
      })
    )
  })

  it('transition(s, c) = Right([events.reduce(evolve, s), events]) exactly when decide(s, c) = Right(events)', () => {
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        for (const step of play(create, intents).steps) {
          const d = decide(step.before, step.command as Command)
          if (E.isLeft(d)) {
            expect(step.result).toEqual(d)
          } else {
            expect(E.isRight(step.result)).toBe(true)
            if (E.isRight(step.result)) {
              expect(step.result.right[1]).toEqual(d.right)
              expect(step.result.right[0]).toEqual(d.right.reduce(evolve, step.before))
            }
          }
        }
      })
    )
  })

  it('replay(events) is the final state', () => {
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        const { final, events } = play(create, intents)
        expect(replay(events)).toEqual(final)
      })
    )
  })

  it('a state stored as JSON and loaded again decides exactly as the state paysplit produced (validated path = trusted path)', () => {
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        for (const step of play(create, intents).steps) {
          const loaded = JSON.parse(JSON.stringify(step.before)) as PaymentState
          expect(transition(loaded, step.command as Command)).toEqual(step.result)
        }
      }),
      { numRuns: half() }
    )
  })

  it('deterministic: the same state and command give the same result', () => {
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        for (const step of play(create, intents).steps) {
          expect(transition(step.before, step.command as Command)).toEqual(step.result)
        }
      })
    )
  })

  it('inputs are never mutated: deep-frozen states and commands pass through untouched', () => {
    const deepFreeze = <A>(v: A): A => {
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
        Object.freeze(v)
        for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k])
      }
      return v
    }
    fc.assert(
      fc.property(scenarioArb, ({ create, intents }) => {
        const { steps } = play(create, intents)
        for (const step of steps) {
          const loaded = deepFreeze(JSON.parse(JSON.stringify(step.before)) as PaymentState)
          const command = deepFreeze(structuredCloneSafe(step.command))
          const snapshot = JSON.stringify([loaded, command])
          transition(loaded, command as Command)
          decide(loaded, command as Command)
          expect(JSON.stringify([loaded, command])).toBe(snapshot)
        }
      }),
      { numRuns: half() }
    )
  })

  it('never throws, whatever the state and the command (fc.anything)', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), fc.anything(), (state, command) => {
        const t = transition(state as PaymentState, command as Command)
        const d = decide(state as PaymentState, command as Command)
        expect(E.isLeft(t)).toBe(true)
        expect(E.isLeft(d)).toBe(true)
      })
    )
    const p = play(
      { kind: 'card', chargeImmediately: false, splits: [{ amount: 100, isFee: false, account: 0 }] },
      []
    ).final
    fc.assert(
      fc.property(fc.anything(), (command) => {
        const r = transition(p, command as Command)
        expect(E.isLeft(r) || E.isRight(r)).toBe(true)
      })
    )
  })
})

/** A copy of a command value that structuredClone can take (fc.anything may hold functions? no; symbols are fine to skip). */
function structuredCloneSafe(v: unknown): unknown {
  try {
    return structuredClone(v)
  } catch {
    return v
  }
}
