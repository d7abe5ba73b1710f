/**
 * Decoding a create request with 5 splits (`decodePaymentIntentRequest`, the function a form and
 * `POST /payments` call) against ajv compiled from the equivalent JSON Schema of `ajv.ts` (the
 * `text` format included), plus the two cross-field rules by hand. Valid input: ajv in its fastest set-up (stop at the first
 * error). Input invalid in its last split: ajv with `allErrors`, as paysplit collects every issue
 * too; both sides must report both problems of that split.
 */
import { decodePaymentIntentRequest, PaymentIntentRequest } from './paysplit.js'
import { ajvValidators, crossFieldRulesHold } from './ajv.js'
import { invalidRequestJson, requestJson } from './fixtures.js'
import { ratio, report, us } from './harness.js'

const TARGET_VALID = 1.0
const TARGET_INVALID = 1.5

export const runDecodeBenchmarks = async (): Promise<void> => {
  const valid = requestJson()
  const invalid = invalidRequestJson()
  const first = ajvValidators(false).request
  const all = ajvValidators(true).request

  // both sides agree on the inputs
  const ok = decodePaymentIntentRequest(valid)
  if (ok._tag !== 'Right' || !first(valid) || !crossFieldRulesHold(valid)) throw new Error('valid input rejected')
  // the same rules, the text format among them: a lone surrogate in a description, a metaData key or a URL is refused by both
  for (const lone of [{ ...valid, description: 'x\ud800' }, { ...valid, metaData: { 'k\udc00': 1 } }, { ...valid, successUrl: 'https://shop.example/\ud800' }]) {
    if (decodePaymentIntentRequest(lone)._tag !== 'Left' || first(lone)) throw new Error('a lone surrogate accepted by one side')
  }
  const bad = decodePaymentIntentRequest(invalid)
  const paysplitPaths = bad._tag === 'Left' ? (bad.left.issues ?? []).map((i) => i.path) : []
  all(invalid)
  const ajvPaths = (all.errors ?? []).map((e) => e.instancePath)
  const expected = ['moneySplitList.4.connectedAccountID', 'moneySplitList.4.amount']
  if (expected.some((p) => !paysplitPaths.includes(p))) throw new Error(`paysplit missed an issue: ${paysplitPaths.join(', ')}`)
  if (!ajvPaths.includes('/moneySplitList/4/connectedAccountID') || !ajvPaths.includes('/moneySplitList/4/amount')) {
    throw new Error(`ajv missed an error: ${ajvPaths.join(', ')}`)
  }

  const v = ratio(
    () => decodePaymentIntentRequest(valid),
    () => first(valid) && crossFieldRulesHold(valid)
  )
  await report({
    name: 'decodePaymentIntentRequest, valid, 5 splits / ajv',
    ratio: v.ratio,
    target: TARGET_VALID,
    detail: `${us(v.subjectUs)} vs ${us(v.baselineUs)} per request`
  })

  const i = ratio(
    () => decodePaymentIntentRequest(invalid),
    () => all(invalid) || crossFieldRulesHold(invalid)
  )
  await report({
    name: 'decodePaymentIntentRequest, invalid in the last split, every issue collected / ajv allErrors',
    ratio: i.ratio,
    target: TARGET_INVALID,
    detail: `${us(i.subjectUs)} vs ${us(i.baselineUs)} per request; issues: paysplit ${String(paysplitPaths.length)}, ajv ${String(ajvPaths.length)}`
  })

  // the io-ts codec (same collector, io-ts error objects on failure), for information
  const codec = ratio(
    () => PaymentIntentRequest.decode(valid),
    () => first(valid) && crossFieldRulesHold(valid)
  )
  console.log(`  (the io-ts codec PaymentIntentRequest.decode on the valid input: ${codec.ratio.toFixed(2)}× ajv, ${us(codec.subjectUs)}; no target)`)
}
