/**
 * Kills the survivors of the mutation run of `src/testing/harness.ts` (docs/testing.md, "Mutation
 * testing"): the failure messages are the harness's product, so they are pinned exactly; the
 * error carries `expected`, `actual`, `showDiff` and `operator` for the runners' diff; and
 * `deepEqual` is checked at its edges (NaN, primitives against objects, arrays against arrays
 * with an extra `undefined`, the depth limit of 200, `null`).
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { decideWith, deepEqual } from '../../src/testing.js'

type Ev = { readonly type: 'Added'; readonly n: number }
type Err = { readonly code: 'TooBig'; readonly message: string }
const counter = {
  initialState: 0,
  decide: (s: number, c: { readonly add: number }): E.Either<Err, ReadonlyArray<Ev>> =>
    s + c.add > 10 ? E.left({ code: 'TooBig', message: 'over 10' }) : E.right([{ type: 'Added', n: c.add }]),
  evolve: (s: number, e: Ev): number => s + e.n
}
const count = decideWith(counter)
const added = (n: number): Ev => ({ type: 'Added', n })

/** The error `f` throws (the test fails when it throws none). */
const thrown = (f: () => unknown): Error & Record<string, unknown> => {
  try {
    f()
  } catch (e) {
    return e as Error & Record<string, unknown>
  }
  throw new Error('expected a throw')
}

const WHEN_ADD_3 = 'when {\n    "add": 3\n  }'
const TOO_BIG = '{\n  "code": "TooBig",\n  "message": "over 10"\n}'

describe('harness: the failure messages, exactly', () => {
  it('no events print as "(no events)"; the command is indented under "when"', () => {
    const e = thrown(() => count([]).when({ add: 3 }).then([added(4)]))
    expect(e.message).toBe(`given (no events)\n${WHEN_ADD_3}\nthen Added\nbut got Added:\n[\n  {\n    "type": "Added",\n    "n": 3\n  }\n]`)
  })

  it('several events are listed by type, comma-separated; an event without a type prints as "?"', () => {
    const e = thrown(() => count([added(1), added(2)]).when({ add: 3 }).then([{ n: 3 } as never, added(3)]))
    expect(e.message).toBe(
      `given Added, Added\n${WHEN_ADD_3}\nthen ?, Added\nbut got Added:\n[\n  {\n    "type": "Added",\n    "n": 3\n  }\n]`
    )
  })

  it('the error has the shape of an AssertionError: name, expected, actual, showDiff, operator', () => {
    const e = thrown(() => count([]).when({ add: 3 }).then([added(4)]))
    expect(e.name).toBe('AssertionError')
    expect(e['expected']).toEqual([added(4)])
    expect(e['actual']).toEqual([added(3)])
    expect(e['showDiff']).toBe(true)
    expect(e['operator']).toBe('deepStrictEqual')
  })

  it('then(check) on a refusal: "then events that pass the check"', () => {
    const e = thrown(() => count([added(9)]).when({ add: 3 }).then(() => undefined))
    expect(e.message).toBe(`given Added\n${WHEN_ADD_3}\nthen events that pass the check\nbut it was refused: ${TOO_BIG}`)
    expect(e['expected']).toBe('events that pass the check')
  })

  it('thenState on a refusal: "then a state"', () => {
    const e = thrown(() => count([added(9)]).when({ add: 3 }).thenState(12))
    expect(e.message).toBe(`given Added\n${WHEN_ADD_3}\nthen a state\nbut it was refused: ${TOO_BIG}`)
    expect(e['expected']).toBe('a state')
  })

  it('thenState of a primitive state: passes when equal, and "then the state is … but it is …" when not', () => {
    expect(count([added(1), added(2)]).when({ add: 3 }).thenState(6)).toBe(6)
    const e = thrown(() => count([added(1), added(2)]).when({ add: 3 }).thenState(7))
    expect(e.message).toBe(`given Added, Added\n${WHEN_ADD_3}\nthen the state is 7\nbut it is 6`)
    expect(e['expected']).toBe(7)
    expect(e['actual']).toBe(6)
  })

  it('thenState(null) against an object state is an assertion failure, not a TypeError', () => {
    const noPayment = {
      initialState: { status: 'None' },
      decide: () => E.right([{ type: 'Nothing' }]),
      evolve: (s: { status: string }) => s
    }
    const f = thrown(() => decideWith(noPayment)([]).when({}).thenState(null as never))
    expect(f.name).toBe('AssertionError')
    expect(f.message).toBe('given (no events)\nwhen {}\nthen the state is null\nbut it is {\n  "status": "None"\n}')
  })
})

describe('deepEqual: the edges', () => {
  it('NaN equals NaN only', () => {
    expect(deepEqual(NaN, NaN)).toBe(true)
    expect(deepEqual(NaN, 1)).toBe(false)
    expect(deepEqual(1, NaN)).toBe(false)
    expect(deepEqual([NaN], [0])).toBe(false)
  })

  it('different primitives are unequal; a primitive never equals an object', () => {
    expect(deepEqual(1, 2)).toBe(false)
    expect(deepEqual('a', 'b')).toBe(false)
    expect(deepEqual({}, 1)).toBe(false)
    expect(deepEqual(1, {})).toBe(false)
    expect(deepEqual([], 'x')).toBe(false)
    expect(deepEqual('', [])).toBe(false)
    expect(deepEqual({ a: 1 }, { a: 2 })).toBe(false)
  })

  it('null equals null only', () => {
    expect(deepEqual(null, null)).toBe(true)
    expect(deepEqual(null, {})).toBe(false)
    expect(deepEqual({}, null)).toBe(false)
  })

  it('comparing an object with null reads nothing of the object', () => {
    let reads = 0
    const watched = new Proxy({}, { ownKeys: (t) => (reads++, Reflect.ownKeys(t)) })
    expect(deepEqual(watched, null)).toBe(false)
    expect(reads).toBe(0)
  })

  it('arrays of different lengths are unequal, even when the extra element is undefined', () => {
    expect(deepEqual([1], [1, undefined])).toBe(false)
    expect(deepEqual([1, undefined], [1])).toBe(false)
    expect(deepEqual([1, 2], [1, 2])).toBe(true)
  })

  const nestedArrays = (levels: number): unknown => {
    let v: unknown = 1
    for (let i = 0; i < levels; i++) v = [v]
    return v
  }
  const nestedObjects = (levels: number): unknown => {
    let v: unknown = 1
    for (let i = 0; i < levels; i++) v = { a: v }
    return v
  }

  it('structures nested 201 deep compare; at 202 they are unequal (the depth limit of 200)', () => {
    expect(deepEqual(nestedArrays(201), nestedArrays(201))).toBe(true)
    expect(deepEqual(nestedArrays(202), nestedArrays(202))).toBe(false)
    expect(deepEqual(nestedObjects(201), nestedObjects(201))).toBe(true)
    expect(deepEqual(nestedObjects(202), nestedObjects(202))).toBe(false)
  })
})
