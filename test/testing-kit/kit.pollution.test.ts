/**
 * The kit reads only own properties (docs/rules.md C3): a polluted `Object.prototype` adds nothing
 * to what a service answered, nor to the payments its model holds. A polluted `kid` once gave the
 * model a KID for a card, and for an invoice whose service answered none.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { emptyWorld, handle, type World } from '../../src/http.js'
import { checkService } from '../../src/conformance.js'
import { field } from '../../src/conformance/normalise.js'

const polluted = ['kid', 'paymentReferenceID', 'status'] as const

afterEach(() => {
  for (const k of polluted) Reflect.deleteProperty(Object.prototype, k)
})

const pollute = (): void => {
  for (const k of polluted) {
    Object.defineProperty(Object.prototype, k, { value: k === 'kid' ? '12345674' : 'polluted', configurable: true, writable: true })
  }
}

describe('C3: the kit reads only own properties', () => {
  it('field() reads an answer’s own fields: a polluted Object.prototype is not a field', () => {
    pollute()
    expect(field({}, 'kid')).toBeUndefined()
    expect(field({ paymentIntent: {} }, 'paymentIntent', 'paymentCreated')).toBeUndefined()
    expect(field({ paymentIntent: { paymentCreated: { kid: '0000000000' } } }, 'paymentIntent', 'paymentCreated', 'kid')).toBe('0000000000')
  })

  it('checkService against paysplit’s own handle passes with Object.prototype.kid polluted (the model gives no card a KID)', async () => {
    let world: World = emptyWorld
    let n = 0
    const report = await (async () => {
      pollute()
      return checkService({
        send: ({ method, path, body }) => {
          n += 1
          const at = new Date(Date.UTC(2027, 0, 1) + n * 1000).toISOString()
          const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
          const { world: next, response } = handle(world, { method, path, ...(body !== undefined ? { body } : {}) }, { at, paymentReferenceID: id, kid: '12345674' })
          world = next
          return Promise.resolve({ status: response.status, body: JSON.parse(JSON.stringify(response.body)) as unknown })
        },
        numRuns: 30,
        seed: 7,
        kinds: ['card', 'invoice']
      })
    })()
    expect(report.ok ? '' : report.counterexample).toBe('')
  })
})
