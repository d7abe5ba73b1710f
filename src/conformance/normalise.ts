/**
 * Making a service's JSON comparable with the model's: ids and times replaced by labels, texts
 * optionally masked, and the differences of two values listed readably.
 *
 * @module conformance/normalise
 */
import { deepEqual } from '../testing/harness.js'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/
const TEXT_KEYS = new Set(['message', 'response', 'error'])

/** `s` with every occurrence of `needle` (any case) replaced by `by`. */
export const replaceAll = (s: string, needle: string, by: string): string => {
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
 * import { normalise } from 'paysplit/conformance'
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

/** A JSON copy (drops `undefined` members, as the wire would). */
export const jsonCopy = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown))

/** JSON text, cut at `max` characters. */
export const brief = (v: unknown, max = 400): string => {
  let s: string
  try {
    s = JSON.stringify(v) ?? 'undefined'
  } catch {
    s = '[unreadable]'
  }
  return s.length > max ? s.slice(0, max) + '…' : s
}

/** Up to `max` paths where two JSON values differ, each with both values. */
export const differences = (a: unknown, b: unknown, max = 4): ReadonlyArray<string> => {
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

/** The value at `path` in a JSON value, or `undefined`. */
export const field = (v: unknown, ...path: ReadonlyArray<string>): unknown => {
  let cur = v
  for (const k of path) {
    // own properties only: a polluted Object.prototype adds nothing to what a service answered
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, k)) return undefined
    cur = (cur as Record<string, unknown>)[k]
  }
  return cur
}
