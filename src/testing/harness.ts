/**
 * A given/when/then harness for deciders (emmett's `DeciderSpecification`): given the events
 * that happened, when a command arrives, then these events follow — or the command fails with
 * this code. Works with paysplit's `paymentDecider` and with any `{ initialState, decide, evolve }`.
 *
 * The assertions (`then`, `thenFails`, `thenState`) throw an `AssertionError`-shaped `Error`
 * (with `expected`, `actual` and a readable message) so that vitest, jest, mocha and
 * node:test print a diff; nothing else in the harness throws.
 *
 * @module testing/harness
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Command } from '../commands.js'
import type { Decider } from '../decider.js'
import { paymentDecider } from '../decider.js'
import type { PaymentError } from '../errors.js'
import type { PaymentEvent } from '../events.js'
import type { PaymentState } from '../payment.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The assertions after `when`. Do not `await` them: `then` makes the object look like a promise. */
export interface DeciderThen<S, Ev, Err> {
  /**
   * Asserts the command is accepted and decides exactly `expected` (deep equality), or, given a
   * function, passes the events to it (to assert on a part of them).
   */
  readonly then: (expected: ReadonlyArray<Ev> | ((events: ReadonlyArray<Ev>) => void)) => ReadonlyArray<Ev>
  /** Asserts the command is refused with `code`, and (optionally) that the error has `fields`. */
  readonly thenFails: (code: Err extends { readonly code: infer C } ? C : string, fields?: Partial<Err>) => Err
  /** Asserts the command is accepted and the state after its events has every field of `expected`. */
  readonly thenState: (expected: Partial<S> | ((state: S) => void)) => S
}

/** What `given(events)` returns. */
export interface DeciderGiven<C, S, Ev, Err> {
  readonly when: (command: C) => DeciderThen<S, Ev, Err>
}

/** `given` bound to a decider. */
export type DeciderSpecification<C, S, Ev, Err> = (events: ReadonlyArray<Ev>) => DeciderGiven<C, S, Ev, Err>

// -------------------------------------------------------------------------------------
// equality and printing (no dependency: the kit also runs in browsers)
// -------------------------------------------------------------------------------------

/**
 * Structural equality of plain data: primitives by `Object.is` (but `0` equals `-0`), arrays
 * element by element, objects by their own enumerable keys (order ignored; a key holding
 * `undefined` equals an absent key). Never throws: a value that cannot be read is unequal.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { deepEqual } from 'paysplit/testing'
 * assert.ok(deepEqual({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] }))
 * assert.ok(!deepEqual({ a: 1 }, { a: '1' }))
 */
export const deepEqual = (a: unknown, b: unknown): boolean => {
  try {
    return equal(a, b, 0)
  } catch {
    return false
  }
}

const equal = (a: unknown, b: unknown, depth: number): boolean => {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 200) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => equal(x, b[i], depth + 1))
  }
  const ra = a as Record<string, unknown>
  const rb = b as Record<string, unknown>
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)])
  for (const k of keys) if (!equal(ra[k], rb[k], depth + 1)) return false
  return true
}

/**
 * JSON of a value for failure messages, two-space indented; never throws (cycles and
 * unreadable values print as `"[unprintable]"`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { show } from 'paysplit/testing'
 * assert.strictEqual(show({ a: 1 }), '{\n  "a": 1\n}')
 */
export const show = (value: unknown): string => {
  if (value === undefined) return 'undefined'
  try {
    return JSON.stringify(value, (_k, v: unknown) => (v === undefined ? '[undefined]' : v), 2) ?? typeof value
  } catch {
    return '[unprintable]'
  }
}

const typesOf = (events: ReadonlyArray<unknown>): string =>
  events.length === 0
    ? '(no events)'
    : events.map((e) => (typeof e === 'object' && e !== null && 'type' in e ? String((e).type) : '?')).join(', ')

/** An Error shaped like node's AssertionError, so test runners show a diff. */
const failure = (message: string, expected: unknown, actual: unknown): Error => {
  const e = new Error(message) as Error & { expected: unknown; actual: unknown; showDiff: boolean; operator: string }
  e.name = 'AssertionError'
  e.expected = expected
  e.actual = actual
  e.showDiff = true
  e.operator = 'deepStrictEqual'
  return e
}

// -------------------------------------------------------------------------------------
// the harness
// -------------------------------------------------------------------------------------

/**
 * The given/when/then harness of any decider.
 *
 * @example
 * import * as E from 'fp-ts/lib/Either.js'
 * import { decideWith } from 'paysplit/testing'
 * type Ev = { type: 'Added'; n: number }
 * const counter = {
 *   initialState: 0,
 *   decide: (s: number, c: { add: number }) => (s + c.add > 10 ? E.left({ code: 'TooBig', message: 'over 10' }) : E.right([{ type: 'Added' as const, n: c.add }])),
 *   evolve: (s: number, e: Ev) => s + e.n
 * }
 * const given = decideWith(counter)
 * given([{ type: 'Added', n: 4 }]).when({ add: 3 }).then([{ type: 'Added', n: 3 }])
 * given([{ type: 'Added', n: 9 }]).when({ add: 3 }).thenFails('TooBig')
 */
export const decideWith =
  <C, S, Ev, Err>(decider: Decider<C, S, Ev, Err>): DeciderSpecification<C, S, Ev, Err> =>
  (events) => ({
    when: (command) => {
      const context = (): string =>
        `given ${typesOf(events)}\nwhen ${show(command).replace(/\n/g, '\n  ')}`
      const run = (): E.Either<Err, ReadonlyArray<Ev>> | { readonly thrown: unknown } => {
        try {
          const state = events.reduce(decider.evolve, decider.initialState)
          return decider.decide(state, command)
        } catch (thrown) {
          return { thrown }
        }
      }
      const accepted = (what: string): { state: S; events: ReadonlyArray<Ev> } => {
        const r = run()
        if ('thrown' in r) throw failure(`${context()}\nthen ${what}\nbut the decider threw: ${String(r.thrown)}`, what, r.thrown)
        if (E.isLeft(r)) {
          throw failure(`${context()}\nthen ${what}\nbut it was refused: ${show(r.left)}`, what, r.left)
        }
        const before = events.reduce(decider.evolve, decider.initialState)
        return { state: r.right.reduce(decider.evolve, before), events: r.right }
      }
      return {
        then: (expected) => {
          const label = typeof expected === 'function' ? 'events that pass the check' : typesOf(expected)
          const got = accepted(label)
          if (typeof expected === 'function') expected(got.events)
          else if (!deepEqual(got.events, expected)) {
            throw failure(
              `${context()}\nthen ${typesOf(expected)}\nbut got ${typesOf(got.events)}:\n${show(got.events)}`,
              expected,
              got.events
            )
          }
          return got.events
        },
        thenFails: (code, fields) => {
          const r = run()
          if ('thrown' in r) throw failure(`${context()}\nthen it fails with ${String(code)}\nbut the decider threw: ${String(r.thrown)}`, code, r.thrown)
          if (E.isRight(r)) {
            throw failure(`${context()}\nthen it fails with ${String(code)}\nbut it was accepted: ${typesOf(r.right)}`, code, r.right)
          }
          const got = r.left as Err & { readonly code?: unknown }
          if (got.code !== code) {
            throw failure(`${context()}\nthen it fails with ${String(code)}\nbut it failed with ${String(got.code)}: ${show(got)}`, code, got.code)
          }
          if (fields !== undefined) {
            const picked = Object.fromEntries(Object.keys(fields).map((k) => [k, (got as Record<string, unknown>)[k]]))
            if (!deepEqual(picked, fields)) {
              throw failure(`${context()}\nthen it fails with ${String(code)} and ${show(fields)}\nbut the error is ${show(got)}`, fields, picked)
            }
          }
          return r.left
        },
        thenState: (expected) => {
          const got = accepted('a state')
          if (typeof expected === 'function') expected(got.state)
          else if (typeof expected !== 'object' || expected === null) {
            if (!deepEqual(got.state, expected)) {
              throw failure(`${context()}\nthen the state is ${show(expected)}\nbut it is ${show(got.state)}`, expected, got.state)
            }
          } else {
            const s = got.state as Record<string, unknown>
            const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, s[k]]))
            if (!deepEqual(picked, expected)) {
              throw failure(`${context()}\nthen the state has ${show(expected)}\nbut it has ${show(picked)}`, expected, picked)
            }
          }
          return got.state
        }
      }
    }
  })

/**
 * The given/when/then harness of paysplit's payment decider (`paymentDecider`): `given(events)`
 * folds the events with `evolve` from `initialState`, `.when(command)` decides, and `.then`,
 * `.thenFails`, `.thenState` assert.
 *
 * @example
 * import { given } from 'paysplit/testing'
 * given([]).when({ type: 'ChargePayment', at: '2026-11-21T10:00:00.000Z' }).thenFails('PaymentNotFound')
 */
export const given: DeciderSpecification<Command, PaymentState, PaymentEvent, PaymentError> = decideWith(paymentDecider)
