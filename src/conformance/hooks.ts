/**
 * The hooks of a conformance run (the form, the bank): calling one, reading what it answered,
 * and failing a run as the hook's failure when it could not drive the service.
 *
 * @module conformance/hooks
 */
import { field } from './normalise.js'
import { Mismatch, type Model, type Real } from './model.js'
import type { HookName } from './types.js'

/** Whether the service has `hook`. */
export const hasHook = (r: Real, hook: HookName): boolean => r.sut[hook] !== undefined

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
export type Verdict = { readonly kind: 'driven' } | { readonly kind: 'refused' | 'skipped'; readonly reason: string }

export const DRIVEN: Verdict = { kind: 'driven' }

/**
 * Reads a hook's answer (docs/testing.md, "Hooks"): `{ skipped }`, `{ refused }`, an HTTP answer
 * (a `fetch` `Response`, or an object with a numeric `status`) of 4xx or 5xx, an fp-ts `Left`;
 * anything else says the hook drove the service. Own properties only, but a `Response`'s status.
 */
export const verdictOf = (answer: unknown): Verdict => {
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
export const callHook = async (m: Model, r: Real, hook: HookName, call: () => Promise<unknown> | undefined): Promise<Verdict> => {
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
export const hookAgrees = (hook: HookName, verdict: Verdict, modelAccepted: string | undefined, event: string): void => {
  if (verdict.kind !== 'refused' || modelAccepted === undefined) return
  const form = hook === 'completeForm' || hook === 'failForm' ? '; a form that takes test payments only wants environments: [\'test\'] (--environments test)' : ''
  throw new HookFailure(
    hook,
    `the ${hook} hook failed: ${verdict.reason}, where the model accepts ${event} (${modelAccepted})\n` +
      `  the hook could not drive the service (a token, a session, a key?), or the service refused what the model accepts; a hook that cannot drive the service resolves with { skipped }${form}`
  )
}

/** A 32-bit FNV-1a hash of a text, from `seed`. */
export const fnv = (text: string, seed: number): number => {
  let h = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 16777619) >>> 0
  }
  return h
}
