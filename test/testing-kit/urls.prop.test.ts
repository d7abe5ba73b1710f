/**
 * Nothing the kit makes up leaves the machine (docs/testing.md, "Nothing leaves the machine"):
 * every string the arbitraries and the conformance runner generate that parses as an http(s) url
 * is on a name that never resolves (`.example`, `.test`, `.invalid`, RFC 2606 and 6761), or is one
 * the caller gave (a receiver's url, `webhookUrls`, `catchAllUrl`). A service under test that
 * follows such a url (a webhook, the form's redirect) reaches nobody.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { emptyWorld, handle, type World } from '../../src/http.js'
import { kid as kids } from '../../src/index.js'
import { checkService, type ReceivedWebhook } from '../../src/conformance.js'
import { invalidPaymentIntentRequestArb, paymentIntentRequestArb, scenarioArb } from '../../src/testing.js'

const RESERVED = /\.(example|test|invalid)$/

/** Every string in a JSON-like value, keys included. */
const stringsOf = (v: unknown, out: string[] = []): string[] => {
  if (typeof v === 'string') out.push(v)
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out)
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      out.push(k)
      stringsOf(x, out)
    }
  }
  return out
}

/** The http(s) urls among the strings of a value that are neither on a reserved name nor one of `given` (by prefix). */
const leaving = (v: unknown, given: ReadonlyArray<string> = []): string[] =>
  stringsOf(v).filter((s) => {
    let url: URL
    try {
      url = new URL(s)
    } catch {
      return false
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
    return !RESERVED.test(url.hostname) && !given.some((g) => s.startsWith(g))
  })

describe('every url the kit generates is on a reserved name or the caller’s', () => {
  it('the checks are not blind: a real-looking or a loopback url not given is found, a reserved or given one is not', () => {
    expect(leaving({ successUrl: 'http://a.aa/x', failedUrl: 'https://shop.example/failed', u: ['http://127.0.0.1:9/x'] })).toStrictEqual(['http://a.aa/x', 'http://127.0.0.1:9/x'])
    expect(leaving({ u: 'http://127.0.0.1:9/x', v: 'https://hooks.test/a', w: 'not a url', x: 'ftp://a.aa/' }, ['http://127.0.0.1:9/'])).toStrictEqual([])
  })

  it('paymentIntentRequestArb, whatever its options: successUrl, failedUrl and made-up subscriptions', () => {
    const options = fc.record(
      {
        kinds: fc.subarray(['card', 'invoice'] as const),
        customer: fc.boolean(),
        maxSubscriptions: fc.integer({ min: 0, max: 20 }),
        splits: fc.record({ max: fc.integer({ min: 1, max: 5 }) })
      },
      { requiredKeys: [] }
    )
    fc.assert(
      fc.property(options.chain((o) => fc.tuple(fc.constant(o), paymentIntentRequestArb(o))), ([, request]) => {
        expect(leaving(request)).toStrictEqual([])
      })
    )
  })

  it('paymentIntentRequestArb with webhookUrls: only the urls given', () => {
    const given = ['http://127.0.0.1:4100/hooks/a', 'https://receiver.example/b']
    fc.assert(
      fc.property(paymentIntentRequestArb({ webhookUrls: given, maxSubscriptions: 5 }), (request) => {
        expect(leaving(request, given)).toStrictEqual([])
        for (const s of request.webhookSubscriptions ?? []) expect(given).toContain(s.url)
      })
    )
  })

  it('invalidPaymentIntentRequestArb: a broken url stays broken (or not http), any other url is reserved', () => {
    fc.assert(
      fc.property(invalidPaymentIntentRequestArb(), ({ input }) => {
        expect(leaving(input)).toStrictEqual([])
      })
    )
  })

  it('scenarioArb: the requests of whole lives', () => {
    fc.assert(
      fc.property(scenarioArb({ maxCommands: 3 }), ({ commands }) => {
        expect(leaving(commands)).toStrictEqual([])
      })
    )
  })

  it('checkService: every request it sends, with a receiver, webhookUrls and a catch-all given', async () => {
    const receiverUrl = 'http://127.0.0.1:9'
    const given = [`${receiverUrl}/`, 'http://127.0.0.1:9/sub-a', 'http://127.0.0.1:9/all']
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        let world: World = emptyWorld
        let n = 0
        const sent: unknown[] = []
        let received: ReceivedWebhook[] = []
        const report = await checkService({
          send: (request) => {
            sent.push(request)
            n += 1
            const made = kids.create(String(5000 + n), 'mod10')
            const id = `6f1c3c52-3f51-4b8e-9a8e-${String(n).padStart(12, '0')}`
            const { world: next, response, deliveries } = handle(world, JSON.parse(JSON.stringify(request)) as typeof request, {
              at: new Date(Date.UTC(2026, 10, 21) + n * 1000).toISOString(),
              paymentReferenceID: id,
              kid: made._tag === 'Right' ? made.right : '',
              catchAllUrl: 'http://127.0.0.1:9/all'
            })
            world = next
            received.push(...deliveries.map((d) => ({ url: d.url, body: JSON.parse(JSON.stringify(d.payload)) as unknown })))
            return Promise.resolve({ status: response.status, body: JSON.parse(JSON.stringify(response.body)) as unknown })
          },
          webhookReceiver: { url: receiverUrl, collect: () => Promise.resolve([...received]) },
          reset: () => {
            world = emptyWorld
            received = []
            return Promise.resolve()
          },
          catchAllUrl: 'http://127.0.0.1:9/all',
          webhookUrls: ['http://127.0.0.1:9/sub-a'],
          numRuns: 5,
          seed,
          runId: 'urls'
        })
        expect(report.ok ? '' : report.counterexample).toBe('')
        expect(sent.length).toBeGreaterThan(0)
        expect(leaving(sent, given)).toStrictEqual([])
      }),
      { numRuns: 20 }
    )
  })
})
