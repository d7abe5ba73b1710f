/**
 * JSON Schemas of the codecs' wire bodies (docs/rules.md C12): what `~standard.jsonSchema` of every
 * codec gives (Standard JSON Schema v1, targets `draft-2020-12`, `draft-07` and `openapi-3.0`) and
 * what `npm run openapi` builds docs/openapi.json's request schemas from.
 *
 * Nothing is retyped: each field's schema is read from the rule the codecs run on it, by asking
 * the rule about a few values (`null`, −∞, an empty string, a very long one, a lone surrogate) and
 * turning its answers into keywords (`type`, `enum`, `minLength`, `maxLength`, `minimum`,
 * `pattern`), and the objects from the tables the collectors walk (the fields, their order and
 * which are required). Built only when asked, so a bundle carries this code and no schema; a
 * schema is a fresh object each time. What JSON Schema cannot say (the sum of the splits, one fee
 * account, a sum in the safe range, the WHATWG URL parser, lengths in UTF-16 units rather than
 * code points) stays the codec's: docs/decisions.md "JSON Schema and OpenAPI".
 *
 * @internal
 * @module jsonSchema
 */
import { currencyCodes } from './currencies.js'
import type { Field, Rule } from './fields.js'
import { AMOUNT, BOOLEAN, POSITIVE } from './fields.js'
import {
  CUSTOMER,
  ID_T,
  META_KEY,
  META_TEXT,
  REQUEST_BODY,
  REQUEST_HEAD,
  REQUEST_URLS,
  SPLIT,
  UPDATE_TYPE,
  URL_T
} from './requestChecks.js'
import {
  EMAIL,
  MAX_METADATA_KEYS,
  MAX_SPLITS,
  MAX_SUBSCRIPTIONS,
  MOBILE_NUMBER,
  MOBILE_PREFIX,
  SPACE_OR_CONTROL,
  UUID,
  webhookEventTypes
} from './validators.js'

/** A JSON Schema (or a part of one). @internal */
export type JsonSchema = Record<string, unknown>

/**
 * The `text` format as a `pattern` body: no lone surrogate, read alike with or without the `u`
 * flag (with it a pair is one character outside the surrogates, without it the second alternative
 * takes it); each unit is taken by one alternative only, so nothing backtracks.
 */
const TEXT = '(?:[^\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$'

/**
 * The `pattern` of each format the rules name, from the validators' own expressions: a UUID in
 * either case, digits, an e-mail address and an http(s) URL (the last two also in the `text`
 * format, a lookahead: their classes would let a lone surrogate through).
 */
const patterns = (): Record<string, string> => ({
  uuid: UUID.source.replaceAll('[\\da-f]', '[\\da-fA-F]'),
  mobile: MOBILE_NUMBER.source,
  mobilePrefix: MOBILE_PREFIX.source,
  email: `^(?=${TEXT})${EMAIL.source.slice(1)}`,
  url: `^(?=${TEXT})[Hh][Tt][Tt][Pp][Ss]?:[^${SPACE_OR_CONTROL.source.slice(1)}*$`
})

/**
 * The schema of a field from its rule, by what the rule says of a few values: `null` (the type it
 * wants, or the values it allows), −∞ (the least number), '' (a format, the currency list, or an
 * empty string's length), a string of 65 536 units (the greatest length) and a lone surrogate
 * (the `text` format).
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { fieldSchema } from './jsonSchema.js'
 * import { POSITIVE, text } from './fields.js'
 * assert.deepStrictEqual(fieldSchema(POSITIVE), { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
 * assert.deepStrictEqual(fieldSchema(text(40, true, true)), { type: 'string', minLength: 1, maxLength: 40, pattern: '^(?:[^\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$' })
 */
export const fieldSchema = (rule: Rule): JsonSchema => {
  // what a rule says of a value it refuses: its reason and params (none for a value it keeps)
  const ask = (v: unknown): [string?, Params?] => (rule(v) ?? []) as [string?, Params?]
  const { allowed, expected: type } = ask(null)[1] as Params
  if (allowed !== undefined) return { type: 'string', enum: [...allowed] }
  if (type === 'number') return { type: 'integer', minimum: ask(-Infinity)[1]?.min, maximum: Number.MAX_SAFE_INTEGER }
  if (type !== 'string') return { type }
  const [empty, { format } = {}] = ask('')
  if (empty === 'unknown_currency') return { type, enum: [...currencyCodes] }
  const schema: JsonSchema = { type }
  if (empty === 'too_short') schema.minLength = 1
  // a format's own length limit, if it has one
  const max = ask('x'.repeat(65536))[1]?.max
  if (max !== undefined) schema.maxLength = max
  const pattern = format !== undefined ? patterns()[format] : ask('\ud800')[0] && `^${TEXT}`
  if (pattern !== undefined) schema.pattern = pattern
  return schema
}

/** The params of a broken rule, as the schema reads them. */
type Params = { readonly allowed?: ReadonlyArray<string>; readonly expected?: string; readonly format?: string; readonly min?: number; readonly max?: number }

/** An object of `fields` (each by {@link fieldSchema}) and `more` properties; `required`, the required ones, only when there are some (draft-04 wants none empty). */
const object = (fields: ReadonlyArray<Field>, more: JsonSchema = {}, required: ReadonlyArray<string> = []): JsonSchema => {
  const names = [...fields.filter((f) => f[2] === true).map((f) => f[0]), ...required]
  return {
    type: 'object',
    ...(names.length > 0 ? { required: names } : {}),
    properties: { ...Object.fromEntries(fields.map(([key, rule]) => [key, fieldSchema(rule)])), ...more }
  }
}

/** `schema` when `gateway`'s field (`paymentGateway`, `updateType`) is `value`, else anything: "if … then …" as every target has it. */
const when = (key: string, value: string, schema: JsonSchema): JsonSchema => ({
  anyOf: [{ properties: { [key]: { not: { enum: [value] } } } }, schema]
})

/** A list of `items`, at most `max` (at least `min` when given). */
const list = (items: JsonSchema, max: number, min?: number): JsonSchema => ({
  type: 'array',
  ...(min !== undefined ? { minItems: min } : {}),
  maxItems: max,
  items
})

/**
 * The schemas a codec's `~standard.jsonSchema` gives, by codec: each `(output, draft)` → the
 * schema of its input (the wire body: event types in either form, the lists' defaults left out)
 * or of its output (the decoded value: short event types, `webhookSubscriptions` and `metaData`
 * present), for a JSON Schema draft or for OpenAPI 3.0 (no `null` type, no `propertyNames`).
 *
 * @internal
 */
export type SchemaOf = (output: boolean, draft: boolean) => JsonSchema

/** A webhook subscription: the short event types, and on input the long ones too. @internal */
export const subscriptionSchema: SchemaOf = (output) =>
  object([['url', URL_T, true]], {
    eventType: { type: 'string', enum: [...webhookEventTypes, ...(output ? [] : webhookEventTypes.map((t) => `${t}Payment`))] }
  }, ['eventType'])

/** A split of the create request. @internal */
export const splitSchema: SchemaOf = () => object(SPLIT)

/** The customer of the create request. @internal */
export const customerSchema: SchemaOf = () => object(CUSTOMER)

/** The payment-intent request (docs/rules.md C3). @internal */
export const requestSchema: SchemaOf = (output, draft) => {
  const metaData: JsonSchema = {
    type: 'object',
    maxProperties: MAX_METADATA_KEYS,
    // the keys' rule: OpenAPI 3.0 has no propertyNames (its schemas do not check them)
    ...(draft ? { propertyNames: fieldSchema(META_KEY) } : {}),
    additionalProperties: {
      anyOf: [fieldSchema(META_TEXT), { type: 'number' }, { type: 'boolean' }, draft ? { type: 'null' } : { type: 'string', nullable: true, enum: [null] }]
    }
  }
  return {
    ...object(
      [...REQUEST_HEAD, ['chargeImmediately', BOOLEAN], ...REQUEST_BODY, ['customerExternalID', ID_T, true], ...REQUEST_URLS],
      {
        moneySplitList: list(splitSchema(output, draft), MAX_SPLITS, 1),
        customer: customerSchema(output, draft),
        webhookSubscriptions: list(subscriptionSchema(output, draft), MAX_SUBSCRIPTIONS),
        metaData
      },
      output ? ['moneySplitList', 'webhookSubscriptions', 'metaData'] : ['moneySplitList']
    ),
    // required for card payments (docs/rules.md C3)
    ...when('paymentGateway', 'creditcard', { required: ['chargeImmediately'] })
  }
}

/** The money-split patch (its shape: docs/rules.md C4 are `transition`'s). @internal */
export const patchSchema: SchemaOf = () =>
  object([['newGrossAmount', AMOUNT, true]], {
    moneySplitPatch: {
      type: 'array',
      items: {
        ...object([
          ['splitID', POSITIVE, true],
          ['updateType', UPDATE_TYPE, true]
        ]),
        // the field its update type needs, checked only with it (ignored with the others)
        allOf: [
          when('updateType', 'UpdateAmount', object([['newAmount', AMOUNT, true]])),
          when('updateType', 'DoDeleteSplitEntry', object([['doDelete', BOOLEAN, true]]))
        ]
      }
    }
  }, ['moneySplitPatch'])

/**
 * The `jsonSchema` of a codec's `~standard` (Standard JSON Schema v1) from its schemas: `input`
 * and `output` for the targets `draft-2020-12` and `draft-07` (one document: its keywords mean the
 * same in both, so it names neither with `$schema`) and `openapi-3.0`. Any other target throws (a
 * `TypeError`), as the Standard asks of a library without it: the one error paysplit throws, a
 * caller's mistake no data can cause (docs/decisions.md "Standard JSON Schema").
 *
 * @internal
 */
export const converter = (schema: SchemaOf): JsonSchemaConverter => {
  const of =
    (output: boolean) =>
    ({ target }: JsonSchemaOptions): JsonSchema => {
      const draft = target === 'draft-2020-12' || target === 'draft-07'
      if (!draft && target !== 'openapi-3.0') throw new TypeError(`paysplit: no JSON Schema target ${String(target)}`)
      return schema(output, draft)
    }
  return { input: of(false), output: of(true) }
}

/** The options of `~standard.jsonSchema.input` and `output` (Standard JSON Schema v1). */
export interface JsonSchemaOptions {
  /** `draft-2020-12`, `draft-07` or `openapi-3.0`; any other throws. */
  readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | ({} & string)
  readonly libraryOptions?: Record<string, unknown> | undefined
}

/** `~standard.jsonSchema` of a codec (Standard JSON Schema v1): the schema of its input and of its output. */
export interface JsonSchemaConverter {
  readonly input: (options: JsonSchemaOptions) => Record<string, unknown>
  readonly output: (options: JsonSchemaOptions) => Record<string, unknown>
}
