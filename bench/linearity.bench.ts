/**
 * docs/rules.md C3: "All validation runs in time linear in the input size (no regular expression that can
 * backtrack badly)". Measured here, not asserted in the tests (the test machines are shared: a
 * timed assertion fails when a neighbour is busy). The tests still feed the same 1 MB adversarial
 * strings and check the answers.
 *
 * Each figure is t(large) / t(small) for the same shape of input, 10× larger: ≈ 10 when the work
 * is linear, ≈ 100 when it is quadratic, and unbounded when an expression backtracks badly. The
 * target is 30, the geometric middle of the two (√(10 · 100) ≈ 31.6): linear with room for what a
 * 10× larger input costs besides the work itself (100 000 fresh entry objects outgrow the young
 * generation: one run measured the patch at 22.7 against a first target of 20). For the create request,
 * every adversarial string is put in every string field of the request (22 places × 5 strings),
 * and the worst pair is reported.
 */
import { decodeMoneySplitPatch, decodePaymentIntentRequest, initialState, kid, transition, validateState } from './paysplit.js'
import { createCommand, requestJson } from './fixtures.js'
import { ratio, report } from './harness.js'

const TARGET = 30
const QUICK = { rounds: 5, batchMs: 10, warmupMs: 30 } as const

type Req = Record<string, unknown>

const withField = (key: string, v: unknown): Req => ({ ...requestJson(), [key]: v })
const withSplit = (key: string, v: unknown): Req => {
  const r = requestJson()
  const splits = r['moneySplitList'] as Array<Req>
  splits[0] = { ...splits[0], [key]: v }
  return r
}
const withCustomer = (key: string, v: unknown): Req => {
  const r = requestJson()
  return { ...r, customer: { ...(r['customer'] as Req), [key]: v } }
}

const payloads: ReadonlyArray<readonly [string, (n: number) => string]> = [
  ["'@' repeated", (n) => '@'.repeat(n)],
  ["'a' repeated then '!'", (n) => 'a'.repeat(n) + '!'],
  ["'-' repeated", (n) => '-'.repeat(n)],
  ['a URL with a huge path', (n) => 'https://example.com/' + 'a'.repeat(n)],
  ['an e-mail with a huge local part', (n) => 'a'.repeat(n) + '@example.com'],
  ['lone surrogates (the text format)', (n) => '\ud800'.repeat(n)],
  ["'a' repeated then a lone surrogate", (n) => 'a'.repeat(n) + '\udc00']
]

const places: ReadonlyArray<readonly [string, (s: string) => Req]> = [
  ...[
    'externalPaymentReferenceID',
    'environment',
    'paymentGateway',
    'sellerConnectedAccountID',
    'externalObjectIdTag',
    'description',
    'currency',
    'customerExternalID',
    'successUrl',
    'failedUrl'
  ].map((k) => [k, (s: string) => withField(k, s)] as const),
  ...['connectedAccountID', 'description', 'externalID'].map(
    (k) => [`moneySplitList.0.${k}`, (s: string) => withSplit(k, s)] as const
  ),
  ...['name', 'email', 'mobilePrefix', 'mobile', 'customerType'].map(
    (k) => [`customer.${k}`, (s: string) => withCustomer(k, s)] as const
  ),
  ['webhookSubscriptions.0.eventType', (s) => withField('webhookSubscriptions', [{ eventType: s, url: 'https://a.example/' }])],
  ['webhookSubscriptions.0.url', (s) => withField('webhookSubscriptions', [{ eventType: 'Charged', url: s }])],
  ['a metaData key', (s) => withField('metaData', { [s]: 1 })],
  ['a metaData value', (s) => withField('metaData', { k: s })]
]

export const runLinearityBenchmarks = async (): Promise<void> => {
  // the create request: the worst of every adversarial string in every field
  let worst = { ratio: 0, what: '' }
  for (const [payload, make] of payloads) {
    const small = make(100_000)
    const large = make(1_000_000)
    for (const [place, put] of places) {
      const inSmall = put(small)
      const inLarge = put(large)
      if (decodePaymentIntentRequest(inLarge)._tag !== 'Left') throw new Error(`accepted: ${payload} at ${place}`)
      const r = ratio(() => decodePaymentIntentRequest(inLarge), () => decodePaymentIntentRequest(inSmall), QUICK)
      if (r.ratio > worst.ratio) worst = { ratio: r.ratio, what: `${payload} at ${place}` }
    }
  }
  await report({
    name: `decodePaymentIntentRequest, 1 MB / 100 kB adversarial string, worst of ${String(payloads.length * places.length)} field × string pairs`,
    ratio: worst.ratio,
    target: TARGET,
    detail: `worst: ${worst.what}; linear ≤ 10, quadratic ≈ 100; ≈ 1 when a length limit refuses the string before it is read`
  })

  // a money-split patch of 100 000 entries vs 10 000
  const patch = (n: number): Req => ({
    moneySplitPatch: Array.from({ length: n }, (_, i) => ({ splitID: i + 1, updateType: 'UpdateAmount', newAmount: i })),
    newGrossAmount: 5
  })
  const pSmall = patch(10_000)
  const pLarge = patch(100_000)
  const p = ratio(() => decodeMoneySplitPatch(pLarge), () => decodeMoneySplitPatch(pSmall), QUICK)
  await report({ name: 'decodeMoneySplitPatch, 100 000 / 10 000 entries', ratio: p.ratio, target: TARGET, detail: 'linear ≈ 10' })

  // validateState on a stored payment (JSON) with 100 000 splits vs 10 000
  // (a create request holds at most 500 splits: the stored payment is given more by hand, as a
  // store could hold after many refunds never does; validateState must still be linear in it)
  const created = transition(initialState, createCommand(requestJson()))
  if (created._tag !== 'Right') throw new Error(created.left.message)
  const base = JSON.parse(JSON.stringify(created.right[0])) as Req & { moneySplits: Array<Req> }
  const template = base.moneySplits[0] as Req
  const stored = (n: number): unknown => ({
    ...base,
    grossAmount: 10 * n,
    moneySplits: Array.from({ length: n }, (_, i) => ({ ...template, splitID: i + 1, amount: 10, isFee: false }))
  })
  const sSmall = stored(10_000)
  const sLarge = stored(100_000)
  if (validateState(sLarge)._tag !== 'Right') throw new Error('a valid stored state was refused')
  const s = ratio(() => validateState(sLarge), () => validateState(sSmall), QUICK)
  await report({ name: 'validateState, stored payment with 100 000 / 10 000 splits', ratio: s.ratio, target: TARGET, detail: 'linear ≈ 10' })

  // a KID of 1 MB is refused by its length, as fast as one of 100 kB
  const kSmall = '1'.repeat(100_000)
  const kLarge = '1'.repeat(1_000_000)
  const k = ratio(() => kid.isValid(kLarge), () => kid.isValid(kSmall), QUICK)
  await report({ name: 'kid.isValid, 1 MB / 100 kB string', ratio: k.ratio, target: 2, detail: 'refused by its length: ≈ 1' })
}
