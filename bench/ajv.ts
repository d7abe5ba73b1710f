/**
 * The baseline validator: ajv (a dev dependency only) compiled from a JSON Schema equivalent to
 * the rules of docs/rules.md C3 that JSON Schema can say, plus a hand-written check of the two rules it
 * cannot (the gross equals the sum of the splits; every fee split names the same account).
 *
 * Equivalence, rule by rule: required fields as docs/rules.md C3 lists them (`chargeImmediately` required
 * for `creditcard` by `if`/`then`); string lengths (ajv counts code points, paysplit UTF-16
 * units: the same for this input); UUIDs by an 8-4-4-4-12 hex pattern; amounts `integer`
 * within 0 (1 for the gross) .. 2^53 − 1; currency an `enum` of the same active ISO 4217 list;
 * URLs ajv-formats `uri` + an `^https?://` pattern + `maxLength` 2048; e-mail ajv-formats `email`
 * + `maxLength` 254; mobile prefix and number by pattern; webhook event types an `enum` of the
 * short and long forms; metaData flat (`maxProperties` 50, keys 1–40, values string ≤ 500,
 * number, boolean or null); the `text` format (no lone surrogate, docs/rules.md C12) on every
 * string whose other keywords let one through (free text, URLs, metaData keys and values: a UUID,
 * a code, an enum value, digits and ajv-formats' ASCII e-mail refuse one already), as a custom
 * ajv format run by the engine's own `String.prototype.isWellFormed`, the cheapest check there
 * is. paysplit also returns a fresh decoded copy (unknown fields dropped, defaults filled in,
 * event types normalised); ajv only answers yes or no, with errors.
 */
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import type { ValidateFunction } from 'ajv'
import { currencyCodes } from '../src/codecs/currencies.js'

const uuid = { type: 'string', maxLength: 36, pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }
const name = { type: 'string', minLength: 1, maxLength: 255, format: 'text' }
const text = (max: number) => ({ type: 'string', maxLength: max, format: 'text' })
const amount = (min: number) => ({ type: 'integer', minimum: min, maximum: Number.MAX_SAFE_INTEGER })
const url = { type: 'string', maxLength: 2048, format: 'uri', pattern: '^https?://[^/?#\\s]', allOf: [{ format: 'text' }] }
const eventTypes = ['Initiated', 'Reserved', 'Charged', 'Cancelled', 'Refunded', 'PartiallyRefunded', 'InvoiceAdjusted']

export const paymentIntentRequestSchema = {
  type: 'object',
  required: [
    'externalPaymentReferenceID',
    'environment',
    'paymentGateway',
    'sellerConnectedAccountID',
    'grossAmount',
    'currency',
    'moneySplitList',
    'customerExternalID',
    'successUrl',
    'failedUrl'
  ],
  properties: {
    externalPaymentReferenceID: name,
    environment: { enum: ['test', 'production'] },
    paymentGateway: { enum: ['creditcard', 'invoice'] },
    chargeImmediately: { type: 'boolean' },
    sellerConnectedAccountID: uuid,
    externalObjectIdTag: name,
    description: text(1000),
    grossAmount: amount(1),
    currency: { enum: [...currencyCodes] },
    moneySplitList: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      items: {
        type: 'object',
        required: ['connectedAccountID', 'amount', 'isFee'],
        properties: {
          connectedAccountID: uuid,
          amount: amount(0),
          description: text(1000),
          isFee: { type: 'boolean' },
          externalID: name
        }
      }
    },
    customerExternalID: name,
    customer: {
      type: 'object',
      properties: {
        name: text(255),
        email: { type: 'string', maxLength: 254, format: 'email' },
        mobilePrefix: { type: 'string', pattern: '^\\+[0-9]{1,4}$' },
        mobile: { type: 'string', pattern: '^[0-9]{4,15}$' },
        customerType: name
      }
    },
    webhookSubscriptions: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['eventType', 'url'],
        properties: {
          eventType: { enum: [...eventTypes, ...eventTypes.map((t) => `${t}Payment`)] },
          url
        }
      }
    },
    successUrl: url,
    failedUrl: url,
    metaData: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { minLength: 1, maxLength: 40, format: 'text' },
      additionalProperties: {
        anyOf: [{ type: 'string', maxLength: 500, format: 'text' }, { type: ['number', 'boolean', 'null'] }]
      }
    }
  },
  if: { properties: { paymentGateway: { const: 'creditcard' } } },
  then: { required: ['chargeImmediately'] }
} as const

export const moneySplitPatchSchema = {
  type: 'object',
  required: ['moneySplitPatch', 'newGrossAmount'],
  properties: {
    moneySplitPatch: {
      type: 'array',
      items: {
        type: 'object',
        required: ['splitID', 'updateType'],
        properties: {
          splitID: amount(1),
          updateType: { enum: ['UpdateAmount', 'DoDeleteSplitEntry', 'DoNothing'] },
          newAmount: amount(0),
          doDelete: { type: 'boolean' }
        },
        allOf: [
          { if: { properties: { updateType: { const: 'UpdateAmount' } } }, then: { required: ['newAmount'] } },
          { if: { properties: { updateType: { const: 'DoDeleteSplitEntry' } } }, then: { required: ['doDelete'] } }
        ]
      }
    },
    newGrossAmount: amount(0)
  }
} as const

export interface AjvValidators {
  readonly request: ValidateFunction
  readonly patch: ValidateFunction
}

/** The compiled validators; `allErrors` collects every error (as paysplit does) instead of the first. */
export const ajvValidators = (allErrors = false): AjvValidators => {
  const ajv = new Ajv({ allErrors, strict: false, unicodeRegExp: false })
  addFormats(ajv, { mode: 'fast' })
  // the text format (docs/rules.md C12): no lone surrogate, by the engine's own check (Node ≥ 20)
  ajv.addFormat('text', { type: 'string', validate: (s: string) => (s as unknown as { isWellFormed: () => boolean }).isWellFormed() })
  return { request: ajv.compile(paymentIntentRequestSchema), patch: ajv.compile(moneySplitPatchSchema) }
}

/** The two rules of docs/rules.md C3 JSON Schema cannot say, by hand, on a request ajv accepted. */
export const crossFieldRulesHold = (body: Record<string, unknown>): boolean => {
  const splits = body['moneySplitList'] as ReadonlyArray<{ readonly amount: number; readonly isFee: boolean; readonly connectedAccountID: string }>
  let sum = 0
  let fee: string | undefined
  for (const s of splits) {
    sum += s.amount
    if (s.isFee) {
      const account = s.connectedAccountID.toLowerCase()
      if (fee === undefined) fee = account
      else if (fee !== account) return false
    }
  }
  return sum <= Number.MAX_SAFE_INTEGER && sum === body['grossAmount']
}
