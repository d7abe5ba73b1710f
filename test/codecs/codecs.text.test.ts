/**
 * The `text` format (docs/rules.md C12): every string of a request — each string field of the
 * create request, of its splits, customer and subscriptions, the metaData keys and string values,
 * and the patch's `updateType` — holding a lone surrogate is a `format` issue with
 * `params.format: 'text'` at that field, through the codecs (decode, io-ts, Standard Schema),
 * `transition` and `handle` (400). A surrogate pair is text; a string past its limit stays
 * `too_long`; a metaData key's lone surrogates are written as U+FFFD in the issue's path, so the
 * error itself is storable text.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  decodeMoneySplitPatch,
  decodePaymentIntentRequest,
  en,
  formatIssue,
  type Issue,
  MoneySplitPatch,
  nb,
  PaymentIntentRequest,
  WebhookSubscription
} from '../../src/codecs.js'
import { transition } from '../../src/decider.js'
import { initialState } from '../../src/payment.js'
import { emptyWorld, handle } from '../../src/http.js'
import { paymentIntentRequestArb } from '../../src/testing.js'
import { at, cardRequest, complete, create, PAYMENT_ID, paymentAfter, refundPartially } from '../support/builders.js'

const TEXT = { format: 'text' } as const

/** [path, reason, params] of each issue of a refused request. */
const found = (r: E.Either<{ readonly issues?: ReadonlyArray<Issue> }, unknown>): unknown[][] =>
  E.isLeft(r) ? (r.left.issues ?? []).map((i) => [i.path, i.reason, i.params]) : []

/** Lone surrogates of every kind: high, low, a low before a high, a high at the very end. */
const lone = ['\ud800', '\udfff', 'a\udc00b', '\udc00\ud800', `${'x'.repeat(10)}\udbff`, '😀\ude00']

/** The request with the string at `path` (dot-separated) replaced by `value`. */
const setAt = (request: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> => {
  const copy = structuredClone(request)
  const keys = path.split('.')
  let o = copy
  for (const k of keys.slice(0, -1)) o = o[k] as Record<string, unknown>
  o[keys.at(-1) as string] = value
  return copy
}

/** A card request with every optional string present. */
const full = (): Record<string, unknown> => ({
  ...cardRequest(),
  externalObjectIdTag: 'cart-77',
  customer: { name: 'Kari Nordmann', email: 'kari@example.no', mobilePrefix: '+47', mobile: '91234567', customerType: 'Individual' },
  webhookSubscriptions: [{ eventType: 'Charged', url: 'https://shop.example/hooks' }],
  metaData: { note: 'gift' }
})

/** Every string field of the create request (its splits', customer's and subscription's too). */
const stringFields = [
  'externalPaymentReferenceID',
  'environment',
  'paymentGateway',
  'sellerConnectedAccountID',
  'externalObjectIdTag',
  'description',
  'currency',
  'moneySplitList.0.connectedAccountID',
  'moneySplitList.0.description',
  'moneySplitList.0.externalID',
  'customerExternalID',
  'customer.name',
  'customer.email',
  'customer.mobilePrefix',
  'customer.mobile',
  'customer.customerType',
  'webhookSubscriptions.0.eventType',
  'webhookSubscriptions.0.url',
  'successUrl',
  'failedUrl',
  'metaData.note'
] as const

describe('C12 text: a lone surrogate in any string of a request is a format issue (text) at that field', () => {
  it.each(stringFields)('%s', (path) => {
    expect(E.isRight(decodePaymentIntentRequest(full()))).toBe(true)
    for (const s of lone) {
      // within the field's own limits, whatever its own format (a UUID, an e-mail, a currency…)
      const r = decodePaymentIntentRequest(setAt(full(), path, s))
      expect(found(r), `${path} ${JSON.stringify(s)}`).toStrictEqual([[path, 'format', TEXT]])
      expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
    }
  })

  it('a text field that is valid but for one lone surrogate: the same (an e-mail, a URL, a name, a metaData value)', () => {
    for (const [path, value] of [
      ['customer.email', 'ka\ud800ri@example.no'],
      ['successUrl', 'https://shop.example/ok?\udc00'],
      ['webhookSubscriptions.0.url', 'https://shop.example/\ud800h'],
      ['customer.name', 'Kari \udfffNordmann'],
      ['metaData.note', 'gi\ud800ft']
    ] as const) {
      expect(found(decodePaymentIntentRequest(setAt(full(), path, value))), path).toStrictEqual([[path, 'format', TEXT]])
    }
  })

  it('a metaData key: text at metaData.<key>, each lone surrogate of the key written as U+FFFD in the path', () => {
    const r = decodePaymentIntentRequest({ ...full(), metaData: { 'a\ud800b': 1, '\udc00': 'x', ok: 'y' } })
    expect(found(r)).toStrictEqual([
      ['metaData.a\ufffdb', 'format', TEXT],
      ['metaData.\ufffd', 'format', TEXT]
    ])
    // both the key and its value: two issues at the one path
    const both = decodePaymentIntentRequest({ ...full(), metaData: { '\ud800': '\ud800' } })
    expect(found(both)).toStrictEqual([
      ['metaData.\ufffd', 'format', TEXT],
      ['metaData.\ufffd', 'format', TEXT]
    ])
    // a key cut at 64 units in the middle of a pair: the half left over is written as U+FFFD
    const long = decodePaymentIntentRequest({ ...full(), metaData: { [`${'k'.repeat(63)}😀`]: 1 } })
    expect(found(long)).toStrictEqual([[`metaData.${'k'.repeat(63)}\ufffd…`, 'too_long', { max: 40 }]])
  })

  it('every path and every message of such an error is storable text: its JSON holds no lone surrogate', () => {
    const r = decodePaymentIntentRequest({ ...full(), description: '\ud800', metaData: { '\udc00\ud800': '\ud800' } })
    expect(E.isLeft(r)).toBe(true)
    const json = JSON.stringify(E.isLeft(r) ? r.left : null)
    expect((json as unknown as { isWellFormed: () => boolean }).isWellFormed()).toBe(true)
    expect(json).not.toMatch(/\\ud[89a-f]/i)
  })

  it('a surrogate pair is text: characters beyond U+FFFF pass everywhere a character may be', () => {
    const emoji = setAt(setAt(setAt(full(), 'description', 'Konsert 🎵'), 'customer.name', '😀'), 'metaData', { '🔑': '🎟️' })
    expect(found(decodePaymentIntentRequest(emoji))).toStrictEqual([])
    expect(E.isRight(decodePaymentIntentRequest(emoji))).toBe(true)
  })

  it('a string past its limit stays too_long (the limit first, as for every format); an empty one too_short', () => {
    expect(found(decodePaymentIntentRequest(setAt(full(), 'externalPaymentReferenceID', `${'x'.repeat(255)}\ud800`)))).toStrictEqual([
      ['externalPaymentReferenceID', 'too_long', { max: 255 }]
    ])
    expect(found(decodePaymentIntentRequest(setAt(full(), 'customer.email', `${'k'.repeat(254)}\ud800`)))).toStrictEqual([
      ['customer.email', 'too_long', { max: 254 }]
    ])
  })

  it('the patch: an updateType with a lone surrogate is text; splitID and the amounts are numbers', () => {
    const r = decodeMoneySplitPatch({ moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing\ud800' }], newGrossAmount: 0 })
    expect(found(r)).toStrictEqual([['moneySplitPatch.0.updateType', 'format', TEXT]])
    expect(E.isLeft(MoneySplitPatch.decode({ moneySplitPatch: [{ splitID: 1, updateType: '\udc00' }], newGrossAmount: 0 }))).toBe(true)
  })

  it('the io-ts codecs and the Standard Schemas say the same', () => {
    const io = PaymentIntentRequest.decode(setAt(full(), 'description', '\ud800'))
    expect(E.isLeft(io) && io.left.map((e) => [e.context.at(-1)?.key, e.message])).toStrictEqual([['description', 'Must be a valid text.']])
    const std = PaymentIntentRequest['~standard'].validate({ ...full(), metaData: { '\ud800': 1 } })
    expect(std.issues?.map((i) => [i.path, i.reason, i.params])).toStrictEqual([[['metaData', '\ufffd'], 'format', TEXT]])
    const sub = WebhookSubscription['~standard'].validate({ eventType: '\ud800', url: 'https://a.example/h' })
    expect(sub.issues?.map((i) => [i.path, i.reason, i.params])).toStrictEqual([[['eventType'], 'format', TEXT]])
  })

  it('messages in en and nb', () => {
    expect(formatIssue({ reason: 'format', params: TEXT }, en)).toBe('Must be a valid text.')
    expect(formatIssue({ reason: 'format', params: TEXT }, nb)).toBe('Må være tekst uten ugyldige tegn.')
  })

  it('transition refuses a create and a patch with one (ValidationFailed, nothing decided)', () => {
    const created = transition(initialState, create(setAt(full(), 'customer.name', 'a\ud800')))
    expect(E.isLeft(created) && [created.left.code, created.left.issues?.map((i) => [i.path, i.reason, i.params])]).toStrictEqual([
      'ValidationFailed',
      [['customer.name', 'format', TEXT]]
    ])
    const charged = paymentAfter(create(cardRequest({ chargeImmediately: true })), complete())
    const patch = { moneySplitPatch: charged.moneySplits.map((s) => ({ splitID: s.splitID, updateType: '\udfffDoNothing' })), newGrossAmount: 0 }
    const refused = transition(charged, refundPartially(patch as never))
    expect(E.isLeft(refused) && refused.left.issues?.[0]).toMatchObject({ path: 'moneySplitPatch.0.updateType', reason: 'format', params: TEXT })
  })

  it('handle answers 400 ValidationFailed at the field, nothing stored', () => {
    const { world, response } = handle(
      emptyWorld,
      { method: 'POST', path: '/payments', body: { ...full(), metaData: { 'k\ud800': 'v' } } },
      { at: at(0), paymentReferenceID: PAYMENT_ID }
    )
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({
      success: false,
      error: { code: 'ValidationFailed', issues: [{ path: 'metaData.k\ufffd', reason: 'format', params: TEXT }] }
    })
    expect(world).toBe(emptyWorld)
  })

  it('property: one lone surrogate put into any string of a valid request gives exactly that issue', () => {
    const strings = (v: unknown, path: string[] = [], out: string[][] = []): string[][] => {
      if (typeof v === 'string') out.push(path)
      else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) strings(x, [...path, k], out)
      return out
    }
    fc.assert(
      fc.property(paymentIntentRequestArb(), fc.nat(), fc.constantFrom(...lone), fc.nat(), (request, pick, s, at) => {
        const paths = strings(request)
        const path = paths[pick % paths.length] as string[]
        const copy = structuredClone(request) as unknown as Record<string, unknown>
        let o = copy
        for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>
        const last = path.at(-1) as string
        const old = o[last] as string
        // inserted at any place of the old value, or in its place when the field would pass its limit
        const i = at % (old.length + 1)
        o[last] = old.length + s.length <= 40 ? old.slice(0, i) + s + old.slice(i) : s
        const r = decodePaymentIntentRequest(copy)
        expect(found(r)).toStrictEqual([[path.join('.'), 'format', TEXT]])
      })
    )
  })
})
