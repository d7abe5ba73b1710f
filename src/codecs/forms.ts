/**
 * Forms on the codecs of `paysplit/codecs` (docs/forms.md; docs/decisions.md "Forms: messages in
 * the form's language" and "Forms: a form mode"): {@link withMessages} gives a schema whose issues
 * carry the messages of a chosen catalog (so React Hook Form, TanStack Form and every library that
 * shows only an issue's `message` show Norwegian), and {@link forForm} one that reads an empty
 * field as a field not filled in. Both take and give a {@link Schema} (a Standard Schema v1 whose
 * issues keep `reason` and `params`, typed), so they compose; neither changes the codec it wraps,
 * and the wire decoders stay strict. A bundle that imports neither ships neither.
 *
 * @module forms
 */
import type { Messages } from '../errors.js'
import { hasOwn } from '../internal/own.js'
import { isRecord } from './fields.js'
import { formatIssue } from '../messages/format.js'
import type { Schema } from './standardSchema.js'

/**
 * `schema` with every issue's `message` worded by the catalog `messages`
 * (`formatIssue(issue, messages)`); the issues keep their `path`, `code`, `reason` and `params`,
 * and a valid value is given as `schema` gives it. For the form libraries that take any Standard
 * Schema and show only the messages: `standardSchemaResolver(withMessages(PaymentIntentRequest,
 * nb))` in React Hook Form, `validators: { onChange: withMessages(…, nb) }` in TanStack Form.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { forForm, nb, PaymentIntentRequest, withMessages } from 'paysplit/codecs'
 * const schema = withMessages(forForm(PaymentIntentRequest), nb)
 * const r = schema['~standard'].validate({ moneySplitList: [], customer: { email: 'kari@localhost' } })
 * const issue = r.issues?.find((i) => i.path.join('.') === 'customer.email')
 * assert.strictEqual(issue?.message, 'Må være en gyldig e-postadresse.')
 * assert.deepStrictEqual([issue?.reason, issue?.params], ['format', { format: 'email' }])
 * assert.strictEqual(r.issues?.find((i) => i.path[0] === 'moneySplitList')?.message, 'Må ha minst 1 oppføring.')
 */
export const withMessages = <Input, Output>(schema: Schema<Input, Output>, messages: Messages): Schema<Input, Output> => ({
  // the schema's own properties (its JSON Schema too: the rules are the same), another validate
  '~standard': {
    ...schema['~standard'],
    validate: (u) => {
      const r = schema['~standard'].validate(u)
      return r.issues === undefined ? r : { issues: r.issues.map((i) => ({ ...i, message: formatIssue(i, messages) })) }
    }
  }
})

/**
 * `u` as a form means it: in an object, every field whose value is empty (`''`, `null` or `NaN`) left
 * out, and an object field left with no field at all left out too; down to the fields of the
 * objects in a list (a split, a subscription, a patch entry), no deeper; `metaData` kept as given.
 * List entries are never left out (the paths of the others would move), and the input is never
 * changed: the objects are fresh, without prototype, built from own enumerable properties only.
 */
const blanksOut = (u: unknown, depth: number): unknown => {
  if (depth > 2) return u
  if (Array.isArray(u)) {
    const list = u as ReadonlyArray<unknown>
    const out: unknown[] = []
    // to the first hole: the codec stops there too (and reports it)
    for (let i = 0; i < list.length && hasOwn(list, i); i++) out.push(blanksOut(list[i], depth + 1))
    out.length = list.length
    return out
  }
  if (!isRecord(u)) return u
  const out = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(u)) {
    const v = u[key]
    // empty in a form: `''`, `null`, or `NaN` (an empty number input)
    if (v === '' || v === null || Number.isNaN(v)) continue
    if (key === 'metaData' && depth === 0) out[key] = v
    else {
      const field = blanksOut(v, depth + 1)
      // an object field of the body (`customer`) with nothing filled in is absent
      if (!(depth === 0 && isRecord(field) && Object.keys(field).length === 0)) out[key] = field
    }
  }
  return out
}

/**
 * The form mode of `schema`: a field left empty in a form (`''`, `null`, or `NaN`, what an empty
 * number input gives) counts as absent, so that an optional field cleared by the user (`email`,
 * `mobile`, `mobilePrefix`, `customerType`, `name`, `description`, `externalObjectIdTag`, a split's
 * `description` and `externalID`) is left out instead of failing, and an empty required field is
 * `required` (not `too_short`, not a `type` issue). A `customer` whose fields are all empty is
 * left out too. Fields inside a list are read the same way (a split's, a subscription's, a patch
 * entry's); `metaData` is free data and kept as given; the entries of a list are never left out.
 * Then `schema` validates as it does on the wire, with the same paths, reasons and output: what
 * the form sends is what the strict codec (`decodePaymentIntentRequest`, the io-ts codec) accepts.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { forForm, PaymentIntentRequest } from 'paysplit/codecs'
 * const form = {
 *   externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
 *   chargeImmediately: true, sellerConnectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f',
 *   externalObjectIdTag: '', description: '', grossAmount: 10000, currency: 'NOK',
 *   moneySplitList: [{ connectedAccountID: '3f0c5a1e-8a4b-4c7d-9e2f-1a2b3c4d5e6f', amount: 10000, isFee: false, externalID: '' }],
 *   customerExternalID: 'customer-42', customer: { name: 'Kari Nordmann', email: '', mobilePrefix: '', mobile: null },
 *   successUrl: 'https://shop.example.com/paid', failedUrl: 'https://shop.example.com/failed'
 * }
 * const r = forForm(PaymentIntentRequest)['~standard'].validate(form)
 * assert.ok(r.issues === undefined)
 * assert.deepStrictEqual(r.value.customer, { name: 'Kari Nordmann' })
 * assert.strictEqual(PaymentIntentRequest['~standard'].validate(form).issues?.length, 5) // the wire stays strict
 * const empty = forForm(PaymentIntentRequest)['~standard'].validate({ ...form, grossAmount: Number.NaN })
 * assert.deepStrictEqual(empty.issues?.map((i) => [i.path.join('.'), i.reason]), [['grossAmount', 'required']])
 */
export const forForm = <Input, Output>(schema: Schema<Input, Output>): Schema<Input, Output> => ({
  '~standard': { version: 1, vendor: 'paysplit', validate: (u) => schema['~standard'].validate(blanksOut(u, 0)) }
})
