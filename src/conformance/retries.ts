/**
 * The conformance runner's retry mode (docs/testing.md, "Retries"; docs/rules.md C13): every
 * `POST` goes out with an `idempotency-key` of its own and is sent again with the same key; each
 * resend must get exactly the first answer. The runner compares the first answer with the model,
 * so a change applied twice shows in the answers and webhooks that follow.
 *
 * @module conformance/retries
 */
import { deepEqual } from '../testing/harness.js'
import { Mismatch } from './model.js'
import { brief, differences, normalise } from './normalise.js'
import type { ServiceRequest, ServiceResponse, ServiceUnderTest } from './types.js'

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/**
 * An answer as the message shows it: its ids as `<id>`, its times as `<time>` and the run's prefix
 * dropped (as the log drops it), so that the message of a replay reads as the first run's.
 */
const shown = (body: unknown, prefix: string): string => {
  const ids = [...new Set(brief(body, 100_000).match(UUID) ?? [])].map((id) => [id, '<id>'] as const)
  return brief(normalise(body, [...ids, [prefix, '']], true), 300)
}

/** The answer of a resend, compared with the first one: a message when they differ. */
const resendDifference = (request: ServiceRequest, key: string, n: number, first: ServiceResponse, again: ServiceResponse, prefix: string): string | undefined => {
  if (again.status === first.status && deepEqual(again.body, first.body)) return undefined
  return [
    `a retry with the same Idempotency-Key got another answer (resend ${String(n)} of ${request.method} ${request.path}, key ${key})`,
    `  first answer: ${String(first.status)} ${shown(first.body, prefix)}`,
    `  resent:       ${String(again.status)} ${shown(again.body, prefix)}`,
    ...differences({ status: first.status, body: first.body }, { status: again.status, body: again.body }).map((d) => `  at ${d}`)
  ].join('\n')
}

/**
 * The service under test with the retry mode on its `send`: each `POST` keeps the
 * `idempotency-key` it carries (the runner gives one to each), or gets `<prefix>retry-<n>` (a new
 * `n` for every request, so keys never repeat, and the prefix keeps calls apart on a long-lived
 * service), and is sent `1 + retries`
 * times one after the other; the first answer is returned, and a resend whose status or body
 * differs rejects with a mismatch. A 5xx first answer is not compared (it is no answer to keep,
 * docs/rules.md C13). Other methods are sent once, as they are.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { emptyWorld, handle } from 'paysplit/http'
 * import { withRetries } from './retries.js'
 * let world = emptyWorld
 * let sends = 0
 * const sut = withRetries({
 *   send: async (request) => {
 *     sends += 1
 *     const { world: next, response } = handle(world, request, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' })
 *     world = next
 *     return { status: response.status, body: response.body }
 *   }
 * }, 2, 'k7-')
 * const answer = await sut.send({ method: 'POST', path: '/payments/0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c/cancel' })
 * assert.strictEqual(answer.status, 404)
 * assert.strictEqual(sends, 3)
 */
export const withRetries = <S extends ServiceUnderTest>(sut: S, retries: number, prefix: string): S => {
  if (!(retries > 0)) return sut
  let n = 0
  const send = async (request: ServiceRequest): Promise<ServiceResponse> => {
    if (request.method !== 'POST') return sut.send(request)
    n += 1
    const given = request.headers?.['idempotency-key']
    const key = given ?? `${prefix}retry-${String(n)}`
    const keyed: ServiceRequest = given !== undefined ? request : { ...request, headers: { ...request.headers, 'idempotency-key': key } }
    const first = await sut.send(keyed)
    for (let i = 1; i <= retries && first.status < 500; i++) {
      const again = await sut.send(keyed)
      const difference = resendDifference(request, key, i, first, again, prefix)
      if (difference !== undefined) throw new Mismatch(difference)
    }
    return first
  }
  return { ...sut, send }
}
