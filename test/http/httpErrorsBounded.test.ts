/**
 * Bounded errors on the wire (docs/rules.md C3): for any request up to the reference server's body
 * limit (1 MiB), every error body `handle` answers stays under 64 000 bytes of JSON, so a response
 * is never larger than twice its request past 64 kB, and holds nothing copied from the input.
 */
import { describe, expect, it } from 'vitest'
import { cardRequest, invoiceRequest, KID, Session } from '../support/http.fixtures.js'

const MiB = 1024 * 1024
const LIMIT = 64_000
const big = (n: number, c = 'x'): string => c.repeat(n)
const sizeOf = (u: unknown): number => Buffer.byteLength(JSON.stringify(u) ?? '', 'utf8')

/** A charged card payment with two splits, and the session that holds it. */
const charged = (): { session: Session; id: string } => {
  const session = new Session()
  const id = session.create(cardRequest({ chargeImmediately: true }))
  session.complete(id)
  return { session, id }
}

/** Hostile bodies of about 1 MiB each, one per way a body can be large. */
const hostileCreates: ReadonlyArray<readonly [name: string, body: unknown]> = [
  ['one metaData key of 1 MB', cardRequest({ metaData: { [big(MiB)]: 'v' } })],
  ['every string field 100 kB long', cardRequest({ externalPaymentReferenceID: big(100_000), description: big(100_000), externalObjectIdTag: big(100_000), customerExternalID: big(100_000), successUrl: big(100_000), failedUrl: big(100_000), currency: big(100_000), sellerConnectedAccountID: big(100_000) })],
  ['a split list of 100 000 empty objects', cardRequest({ moneySplitList: Array.from({ length: 100_000 }, () => ({})) })],
  ['50 000 metaData keys of 20 characters', cardRequest({ metaData: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${String(i).padStart(19, '0')}`, big(1)])) })],
  ['a customer of 1 MB strings', cardRequest({ customer: { name: big(MiB / 4), email: big(MiB / 4), mobile: big(MiB / 4), customerType: big(MiB / 4) } })],
  ['an invoice whose subscriptions are 20 000 bad entries', invoiceRequest({ webhookSubscriptions: Array.from({ length: 20_000 }, () => ({ eventType: big(40), url: big(10) })) })]
]

describe('C3: every HTTP error body stays under 64 000 bytes, whatever the request up to 1 MiB', () => {
  it.each(hostileCreates)('POST /payments with %s: a 400 under 64 000 bytes, quoting nothing but a key cut at 64 units', (_name, body) => {
    const session = new Session()
    const response = session.send('POST', '/payments', body, { kid: KID })
    expect(response.status).toBe(400)
    expect(sizeOf(response.body)).toBeLessThan(LIMIT)
    expect(JSON.stringify(response.body)).not.toMatch(/x{65}/) // a metaData key may stand in a path, cut at 64 units
  })

  it.each(['refund/partially', 'adjust'])('POST /payments/{id}/%s with 1 MiB of {} patch entries: an error under 64 000 bytes', (action) => {
    const { session, id } = charged()
    const body = { moneySplitPatch: Array.from({ length: Math.floor(MiB / 3) }, () => ({})), newGrossAmount: 0 }
    const response = session.post(id, action, body)
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(sizeOf(response.body)).toBeLessThan(LIMIT)
  })

  it('POST /payments/{id}/refund/partially naming 100 000 unknown splits: the mismatch lists at most 100 of each kind', () => {
    const { session, id } = charged()
    const body = { moneySplitPatch: Array.from({ length: 100_000 }, (_, i) => ({ splitID: i + 10, updateType: 'DoNothing' })), newGrossAmount: 1 }
    const response = session.post(id, 'refund/partially', body)
    expect(response.status).toBe(400)
    expect(sizeOf(response.body)).toBeLessThan(LIMIT)
  })

  it('paths and queries of 1 MB: 404 and 400 bodies under 64 000 bytes, quoting nothing of the input', () => {
    const session = new Session()
    const answers = [
      session.send('GET', `/payments/${big(MiB)}`),
      session.send('POST', `/payments/${big(MiB)}/cancel`),
      session.send('GET', `/customers/${big(MiB)}`),
      session.send('GET', `/payments?${Array.from({ length: 50_000 }, (_, i) => `p${String(i)}=1`).join('&')}`),
      session.send('GET', `/payments?externalPaymentReferenceID=${big(MiB)}&externalPaymentReferenceID=2`),
      session.send('PUT', `/${big(MiB)}`)
    ]
    for (const response of answers) {
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(sizeOf(response.body)).toBeLessThan(LIMIT)
      expect(JSON.stringify(response.body)).not.toMatch(/x{65}/) // a metaData key may stand in a path, cut at 64 units
    }
  })
})
