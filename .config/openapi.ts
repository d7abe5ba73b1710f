/**
 * `npm run openapi`: writes `docs/openapi.json`, the OpenAPI 3.1 description of every route of
 * `paysplit/http` whose `components.schemas` are the JSON Schemas (2020-12) of every wire body.
 *
 * Nothing here is retyped: every limit, list and format comes from the tables the codecs and the
 * wire mapping run on (`limits`, `currencyCodes`, the webhook event types, the environments,
 * gateways and update types, the regular expressions of the validators, the status of every
 * error code, the guards of every command, `allowedMethods`). A test (test/repo/openapi.test.ts)
 * regenerates the document and compares it with the committed file, validates it with a
 * maintained OpenAPI validator, and checks ajv with these schemas against the codecs on more than
 * 10 000 bodies. What JSON Schema cannot say is listed in {@link unexpressedRules} and written
 * into the `description` of the schema it belongs to (docs/decisions.md, "JSON Schema and OpenAPI").
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { decodeMoneySplitPatch, decodePaymentIntentRequest, issueReasons, limits } from '../src/codecs.js'
import { TIMESTAMP, webhookEventTypes } from '../src/codecs/validators.js'
import { fieldSchema } from '../src/codecs/jsonSchema.js'
import { AMOUNT, CURRENCY, UUID as UUID_RULE } from '../src/codecs/fields.js'
import { CUSTOMER, ID_T, META_KEY, META_TEXT, REQUEST_BODY, REQUEST_HEAD, SPLIT, URL_T } from '../src/codecs/requestChecks.js'
import { allowedMethods } from '../src/http/routes.js'
import { statusByCode } from '../src/http/responses.js'
import { paymentStatuses } from '../src/status.js'
import { guards, type PaymentCommandType } from '../src/transitions.js'
import type { Rule } from '../src/codecs/fields.js'

type Schema = Record<string, unknown>

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/**
 * The values the codec allows at `path`, read from the `not_one_of` issue it gives for a value
 * that is none of them (`params.allowed`): the very table the rule runs on.
 */
const allowedOf = (
  decode: (u: unknown) => { readonly _tag: string; readonly left?: { readonly issues?: ReadonlyArray<{ readonly path: string; readonly reason: string; readonly params?: Readonly<Record<string, unknown>> }> } },
  body: unknown,
  path: string
): string[] => {
  const r = decode(body)
  const issue = r.left?.issues?.find((i) => i.path === path && i.reason === 'not_one_of')
  const allowed = issue?.params?.['allowed']
  if (!Array.isArray(allowed) || !allowed.every((v) => typeof v === 'string')) {
    throw new Error(`the codec no longer reports the allowed values of ${path}`)
  }
  return allowed
}

const NONE = '\u0000none of them'
const paymentGateways = allowedOf(decodePaymentIntentRequest, { paymentGateway: NONE }, 'paymentGateway')
const updateTypes = allowedOf(decodeMoneySplitPatch, { moneySplitPatch: [{ updateType: NONE }] }, 'moneySplitPatch.0.updateType')

// -------------------------------------------------------------------------------------
// what JSON Schema cannot say
// -------------------------------------------------------------------------------------

/**
 * A rule the codecs check that JSON Schema cannot express: a validator with these schemas accepts
 * bodies that break it, and the codec (or `transition`) refuses them. `schema` names the component
 * whose `description` states it.
 */
export interface UnexpressedRule {
  readonly id: string
  readonly schema: string
  readonly text: string
}

export const unexpressedRules: ReadonlyArray<UnexpressedRule> = [
  {
    id: 'sum',
    schema: 'PaymentIntentRequest',
    text: 'grossAmount must equal the sum of moneySplitList[].amount (else GrossAmountMismatch, reason sum_mismatch).'
  },
  {
    id: 'fee-account',
    schema: 'PaymentIntentRequest',
    text:
      'every split with isFee true must name the same connectedAccountID, compared without regard to case ' +
      '(the platform fee account; else ValidationFailed, reason fee_account_differs).'
  },
  {
    id: 'safe-sum',
    schema: 'PaymentIntentRequest',
    text: `the split amounts must add up to at most ${MAX_SAFE} (2^53 − 1; else ValidationFailed, reason too_big).`
  },
  {
    id: 'url',
    schema: 'HttpUrl',
    text:
      'the WHATWG URL parser must accept the string with a non-empty host (the pattern only checks the http(s) ' +
      'scheme and the absence of white space and control characters).'
  },
  {
    id: 'utf16-length',
    schema: 'PaymentIntentRequest',
    text:
      'string lengths (maxLength, and the 1–64 characters of an e-mail local part) are counted in UTF-16 code ' +
      'units, as JavaScript and an HTML maxlength count them; JSON Schema counts code points, so a string with ' +
      'characters beyond U+FFFF can pass here and still be too long.'
  },
  {
    id: 'kid-check-digit',
    schema: 'Kid',
    text: "the KID's last character must be its MOD10 (Luhn) or MOD11 check digit (`-` for a MOD11 remainder of 10).",
  },
  {
    id: 'patch-against-payment',
    schema: 'MoneySplitPatch',
    text:
      'one entry per current split of the payment (else PatchSplitMismatch), no raised amount (SplitAmountIncrease), ' +
      'newGrossAmount equal to the sum after the patch (GrossAmountMismatch) and at least one change ' +
      '(NothingToChange): these need the payment and are checked by the service, not by this schema.'
  }
]

const unexpressedFor = (schema: string): string =>
  unexpressedRules
    .filter((r) => r.schema === schema)
    .map((r) => `\n- ${r.text}`)
    .join('')

const withUnexpressed = (name: string, description: string): string => {
  const rules = unexpressedFor(name)
  return rules === '' ? description : `${description}\n\nNot expressed by this schema (checked by paysplit):${rules}`
}

// -------------------------------------------------------------------------------------
// fields, from the rules the codecs run (src/codecs/jsonSchema.ts reads each rule)
// -------------------------------------------------------------------------------------

/** The rule of a field of the codecs' tables, by its key (a table names each key once). */
const ruleOf = (table: ReadonlyArray<readonly [string, Rule, boolean?]>, key: string): Rule => {
  const field = table.find((f) => f[0] === key)
  if (field === undefined) throw new Error(`the codecs no longer check ${key}`)
  return field[1]
}

/** The field's schema as its rule says it (src/codecs/jsonSchema.ts), with a description. */
const field = (rule: Rule, description?: string): Schema => ({
  ...fieldSchema(rule),
  ...(description !== undefined ? { description } : {})
})


const integer = (min: number, description?: string): Schema => ({
  type: 'integer',
  minimum: min,
  maximum: MAX_SAFE,
  ...(description !== undefined ? { description } : {})
})

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

const arrayOf = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra })

/** An object whose listed properties are required, that holds nothing else (response bodies). */
const exact = (description: string, properties: Record<string, Schema>, optional: ReadonlyArray<string> = []): Schema => ({
  type: 'object',
  description,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
  additionalProperties: false
})

// -------------------------------------------------------------------------------------
// request bodies
// -------------------------------------------------------------------------------------

/**
 * The form of a KID (docs/rules.md C7) that a pattern can say: 1–24 digits, then a digit or `-`.
 * Written here, not read from kid.ts (which checks it character by character); test/repo/openapi.test.ts
 * checks it against `kid.isValid` and `kid.create`.
 */
export const KID_FORM = '^[0-9]{1,24}[0-9-]$'

const longEventTypes = webhookEventTypes.map((t) => `${t}Payment`)

/** The schema name of the patch entry of one update type, e.g. `PatchEntryUpdateAmount`. */
const patchEntryName = (updateType: string): string => `PatchEntry${updateType}`

/** The field each update type needs besides splitID (docs/rules.md, the split patch). */
const patchEntryFields = (updateType: string): Record<string, Schema> => {
  switch (updateType) {
    case 'UpdateAmount':
      return { newAmount: { ...ref('Amount'), description: 'The split\'s new amount; never more than it holds now.' } }
    case 'DoDeleteSplitEntry':
      return { doDelete: { type: 'boolean', description: 'true deletes the split; false leaves it as it is.' } }
    case 'DoNothing':
      return {}
    default:
      throw new Error(`no patch entry schema for the update type ${updateType}`)
  }
}

const chargeImmediately: Schema = {
  type: 'boolean',
  description: 'true: charged when the form is completed; false: reserved first. Required for card payments; no effect on invoices.'
}

/** The schema name of the create request of one gateway, e.g. `CardPaymentIntentRequest`. */
const gatewayRequestName = (gateway: string): string => `${gateway === 'creditcard' ? 'Card' : 'Invoice'}PaymentIntentRequest`

const requestSchemas = (): Record<string, Schema> => ({
  Uuid: field(UUID_RULE, 'A UUID in its textual form: 8-4-4-4-12 hexadecimal digits, either case; version and variant are not checked.'),
  Amount: field(AMOUNT, 'An amount in minor units (100 minor units = 1 unit of the currency): a safe integer ≥ 0.'),
  HttpUrl: field(
    URL_T,
    withUnexpressed(
      'HttpUrl',
      `An absolute http(s) URL of at most ${limits.urlLength} UTF-16 code units, with no Unicode White_Space or control ` +
        'character and no lone surrogate anywhere, stored exactly as given.'
    )
  ),
  Currency: field(
    CURRENCY,
    'An active ISO 4217 alphabetic code in upper case whose minor unit is a hundredth of the unit (amounts are ' +
      'in hundredths), the list paysplit accepts.'
  ),
  Environment: fieldSchema(ruleOf(REQUEST_HEAD, 'environment')),
  PaymentGateway: field(ruleOf(REQUEST_HEAD, 'paymentGateway'), '`creditcard` for card payments, `invoice` for invoices paid by KID transfer.'),
  WebhookEventType: {
    type: 'string',
    description: 'A webhook event type, short form; a subscription may also use the long form (short + `Payment`).',
    enum: [...webhookEventTypes]
  },
  MoneySplitRequest: {
    type: 'object',
    description: 'One money split of the create request. Unknown properties are ignored.',
    required: ['connectedAccountID', 'amount', 'isFee'],
    properties: {
      connectedAccountID: { ...ref('Uuid'), description: 'The account that receives the amount; fee splits name the platform fee account.' },
      amount: ref('Amount'),
      description: field(ruleOf(SPLIT, 'description')),
      isFee: field(ruleOf(SPLIT, 'isFee')),
      externalID: field(ruleOf(SPLIT, 'externalID'))
    }
  },
  Customer: {
    type: 'object',
    description: 'The customer, created or updated with the given fields. Every field is optional. Unknown properties are ignored.',
    properties: {
      name: field(ruleOf(CUSTOMER, 'name')),
      email: field(
        ruleOf(CUSTOMER, 'email'),
        'One @, a local part of 1–64 characters, a domain with a dot and no empty label, no white space or control character.'
      ),
      mobilePrefix: field(ruleOf(CUSTOMER, 'mobilePrefix'), 'An international dialling prefix: + and 1–4 digits.'),
      mobile: field(ruleOf(CUSTOMER, 'mobile'), 'A mobile number without its prefix: 4–15 digits.'),
      customerType: field(ruleOf(CUSTOMER, 'customerType'), '`Individual` for private persons.')
    }
  },
  WebhookSubscription: {
    type: 'object',
    required: ['eventType', 'url'],
    properties: {
      eventType: { type: 'string', enum: [...webhookEventTypes, ...longEventTypes] },
      url: ref('HttpUrl')
    }
  },
  MetaData: {
    type: 'object',
    description: 'Free-form data stored for the caller: a flat object of strings, numbers, booleans and nulls.',
    maxProperties: limits.metaDataKeys,
    propertyNames: fieldSchema(META_KEY),
    // a string's limits in a branch of their own: a generator applies maxLength to every type of a
    // list of types (orval's zod makes it the maximum of a number)
    additionalProperties: { anyOf: [fieldSchema(META_TEXT), { type: ['number', 'boolean', 'null'] }] }
  },
  PaymentIntentRequest: {
    type: 'object',
    description: withUnexpressed(
      'PaymentIntentRequest',
      'The payment-intent request, body of POST /payments. Unknown properties are ignored. One schema per `paymentGateway` ' +
        '(the discriminator): `chargeImmediately` is required for card payments (`CardPaymentIntentRequest`) and optional, ' +
        'without effect, for invoices (`InvoicePaymentIntentRequest`).'
    ),
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
      externalPaymentReferenceID: field(ID_T, "The caller's unique identifier of the payment."),
      environment: ref('Environment'),
      paymentGateway: ref('PaymentGateway'),
      chargeImmediately: chargeImmediately,
      sellerConnectedAccountID: ref('Uuid'),
      externalObjectIdTag: field(ruleOf(REQUEST_BODY, 'externalObjectIdTag')),
      description: field(ruleOf(REQUEST_BODY, 'description')),
      grossAmount: field(ruleOf(REQUEST_BODY, 'grossAmount'), 'The amount in minor units, ≥ 1: the sum of the split amounts.'),
      currency: ref('Currency'),
      moneySplitList: arrayOf(ref('MoneySplitRequest'), {
        minItems: 1,
        maxItems: limits.moneySplits,
        description: 'The splits; every fee split names the same account, and the amounts add up to grossAmount.'
      }),
      customerExternalID: field(ID_T, "The caller's own identifier of the customer; required (else MissingCustomerExternalID)."),
      customer: ref('Customer'),
      // no `default` keyword on these two: openapi-typescript makes a property with a default
      // required in the request type (docs/decisions.md, "JSON Schema, OpenAPI and the checkout page")
      webhookSubscriptions: arrayOf(ref('WebhookSubscription'), {
        maxItems: limits.webhookSubscriptions,
        description: 'The webhooks of this payment. Optional: absent is the same as [].'
      }),
      successUrl: ref('HttpUrl'),
      failedUrl: ref('HttpUrl'),
      metaData: { ...ref('MetaData'), description: 'Free-form data stored for the caller. Optional: absent is the same as {}.' }
    },
    // one schema per gateway, as client generators keep it (an if/then they all drop)
    oneOf: paymentGateways.map((g) => ref(gatewayRequestName(g))),
    discriminator: {
      propertyName: 'paymentGateway',
      mapping: Object.fromEntries(paymentGateways.map((g) => [g, `#/components/schemas/${gatewayRequestName(g)}`]))
    }
  },
  ...Object.fromEntries(
    paymentGateways.map((g) => [
      gatewayRequestName(g),
      {
        type: 'object',
        description:
          g === 'creditcard'
            ? 'A card payment (`paymentGateway` `creditcard`): `chargeImmediately` required.'
            : 'An invoice paid by KID transfer (`paymentGateway` `invoice`): `chargeImmediately` optional, without effect.',
        required: g === 'creditcard' ? ['paymentGateway', 'chargeImmediately'] : ['paymentGateway'],
        properties: { paymentGateway: { type: 'string', const: g }, chargeImmediately }
      }
    ])
  ),
  PatchEntry: {
    type: 'object',
    description:
      'What to do with one split, one schema per `updateType` (the discriminator): `UpdateAmount` needs `newAmount`, ' +
      '`DoDeleteSplitEntry` needs `doDelete`; a field the update type does not use is ignored. Unknown properties are ignored.',
    required: ['splitID', 'updateType'],
    properties: {
      splitID: integer(1),
      updateType: { type: 'string', enum: [...updateTypes] }
    },
    oneOf: updateTypes.map((t) => ref(patchEntryName(t))),
    discriminator: {
      propertyName: 'updateType',
      mapping: Object.fromEntries(updateTypes.map((t) => [t, `#/components/schemas/${patchEntryName(t)}`]))
    }
  },
  ...Object.fromEntries(
    updateTypes.map((t) => {
      const fields = patchEntryFields(t)
      return [
        patchEntryName(t),
        {
          type: 'object',
          description: `A patch entry of update type \`${t}\`.`,
          required: ['splitID', 'updateType', ...Object.keys(fields)],
          properties: { splitID: integer(1), updateType: { type: 'string', const: t }, ...fields }
        }
      ]
    })
  ),
  Kid: {
    type: 'string',
    description: withUnexpressed(
      'Kid',
      'A Norwegian KID: 2–25 characters, digits, the last a MOD10 or MOD11 check digit (`-` only as a MOD11 check).'
    ),
    pattern: KID_FORM
  },
  BankTransfer: {
    type: 'object',
    description:
      'Money received by bank transfer with a KID, as a service takes it from its bank (the reference service at ' +
      'POST /bank/transfers): applied to the open invoice holding that KID. Unknown properties are ignored.',
    required: ['kid', 'amount'],
    properties: {
      kid: ref('Kid'),
      amount: integer(1, 'The amount received, in minor units, ≥ 1.')
    }
  },
  MoneySplitPatch: {
    type: 'object',
    description: withUnexpressed(
      'MoneySplitPatch',
      'The money-split patch, body of POST /payments/{paymentReferenceID}/refund/partially and /adjust. Unknown ' +
        'properties are ignored.'
    ),
    required: ['moneySplitPatch', 'newGrossAmount'],
    properties: {
      moneySplitPatch: arrayOf(ref('PatchEntry')),
      newGrossAmount: { ...ref('Amount'), description: 'The sum of the split amounts after the patch.' }
    }
  }
})

// -------------------------------------------------------------------------------------
// response bodies
// -------------------------------------------------------------------------------------

/**
 * Codes a service in front of `handle` answers with: 401 without a valid key, and 409 for an
 * idempotency key whose first request is still running (only where several processes share the
 * keys).
 */
const SERVICE_CODES = ['Unauthorized', 'IdempotencyKeyInFlight']

const codesWithStatus = (status: number): string[] =>
  Object.entries(statusByCode)
    .filter(([, s]) => s === status)
    .map(([code]) => code)

const timestamp: Schema = {
  type: 'string',
  description: 'An ISO 8601 UTC timestamp with fractional seconds, a real date and time (no 30 February, no leap second).',
  pattern: TIMESTAMP.source
}


/** A split a refund or an adjustment changed: its amount under `amountKey`, then the split's own fields (the events' order). */
const changedSplit = (description: string, amountKey: string): Schema =>
  exact(
    description,
    {
      [amountKey]: ref('Amount'),
      connectedAccountID: ref('Uuid'),
      description: { type: 'string' },
      externalID: { type: 'string' },
      isFee: { type: 'boolean' }
    },
    ['description', 'externalID']
  )

/** Every error code a response can carry (the common error body's `code`, and the failure bodies' of cancel, charge and full refund). */
const errorCodes = (): string[] => [...new Set([...Object.keys(statusByCode), ...SERVICE_CODES])]

/** `code` of a failed cancel, charge or full refund: present exactly on failure (docs/rules.md C6). */
const failureCode: Schema = {
  type: 'string',
  description: 'On failure only: the error code (the same as `error.code` of the common error body), so a client tells refusals apart without reading `error`.',
  enum: errorCodes()
}

const responseSchemas = (): Record<string, Schema> => ({
  Timestamp: timestamp,
  PaymentStatus: { type: 'string', enum: [...paymentStatuses] },
  MoneySplitRecord: exact(
    'A money split of a payment; `description` and `externalID` only when set.',
    {
      splitID: integer(1, 'Addresses the split in a patch; 1..n in request order.'),
      paymentReferenceID: ref('Uuid'),
      connectedAccountID: ref('Uuid'),
      amount: ref('Amount'),
      description: { type: 'string' },
      insertTime: ref('Timestamp'),
      externalID: { type: 'string' },
      isFee: { type: 'boolean' }
    },
    ['description', 'externalID']
  ),
  RefundedSplit: changedSplit('A split reduced or deleted by a partial refund, with the amount returned.', 'refundAmount'),
  AdjustedSplit: changedSplit('A split reduced or deleted by an invoice adjustment, with the amount removed.', 'adjustedAmount'),
  PaymentCreated: exact(
    "The payment's identity, status (short form) and amounts; optional request fields only when given.",
    {
      paymentReferenceID: ref('Uuid'),
      externalPaymentReferenceID: { type: 'string' },
      status: ref('PaymentStatus'),
      environment: ref('Environment'),
      paymentGateway: ref('PaymentGateway'),
      chargeImmediately: { type: 'boolean' },
      sellerConnectedAccountID: ref('Uuid'),
      externalObjectIdTag: { type: 'string' },
      description: { type: 'string' },
      currency: ref('Currency'),
      grossAmount: ref('Amount'),
      chargedAmount: ref('Amount'),
      refundedAmount: ref('Amount'),
      excessRefundedAmount: ref('Amount'),
      customerExternalID: { type: 'string' },
      kid: { ...ref('Kid'), description: 'Invoices: the KID the customer pays with.' },
      successUrl: { type: 'string' },
      failedUrl: { type: 'string' },
      createdAt: ref('Timestamp'),
      updatedAt: ref('Timestamp')
    },
    ['chargeImmediately', 'externalObjectIdTag', 'description', 'kid']
  ),
  CreatePaymentResponse: exact('Body of a successful POST /payments (201 created, 200 an idempotent repeat).', {
    paymentIntent: exact('The payment as stored.', {
      paymentCreated: ref('PaymentCreated'),
      moneySplit: arrayOf(ref('MoneySplitRecord'))
    })
  }),
  MessageResponse: exact(
    'Body of cancel and full refund: `response` a sentence and `error` null on success; `response` null, `error` ' +
      'the reason and `code` the error code on failure. Read the outcome from the HTTP status.',
    {
      response: { type: ['string', 'null'] },
      success: { type: 'boolean' },
      error: { type: ['string', 'null'] },
      code: failureCode
    },
    ['code']
  ),
  ChargeResponse: exact(
    'Body of charge: `error` null on success; `error` the reason and `code` the error code on failure. Read the outcome from the HTTP status.',
    {
      success: { type: 'boolean' },
      error: { type: ['string', 'null'] },
      code: failureCode
    },
    ['code']
  ),
  PartialRefundResponse: exact('Body of a successful partial refund.', {
    splitList: { ...arrayOf(ref('MoneySplitRecord')), description: 'The splits that remain, with their new amounts.' },
    refundedSplit: arrayOf(ref('RefundedSplit')),
    message: { type: 'string' },
    success: { const: true }
  }),
  AdjustInvoiceResponse: exact('Body of a successful invoice adjustment.', {
    splitList: arrayOf(ref('MoneySplitRecord')),
    adjustedSplit: arrayOf(ref('AdjustedSplit')),
    excessRefundedAmount: { ...ref('Amount'), description: 'What of the amount already paid goes back to the payer.' },
    status: ref('PaymentStatus'),
    message: { type: 'string' },
    success: { const: true }
  }),
  Issue: exact(
    'One problem of a validation error, at `path` (dot-separated, relative to the body; "" for the body itself; an ' +
      'object key longer than 64 UTF-16 code units cut to its first 64 and "…"). `reason` and `params` say what is ' +
      'wrong for a program; `message` is the English message, which quotes neither the input nor the path.',
    {
      path: { type: 'string' },
      code: { type: 'string', enum: ['MissingCustomerExternalID', 'ValidationFailed', 'GrossAmountMismatch'] },
      reason: { type: 'string', enum: [...issueReasons] },
      params: {
        type: 'object',
        description: 'What a message needs (limits, formats, allowed values), never a value of the input.',
        additionalProperties: {
          anyOf: [{ type: ['string', 'number', 'boolean'] }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }]
        }
      },
      message: { type: 'string' }
    },
    ['params']
  ),
  ErrorDetail: exact(
    'A failure: its code and message; `issues` on a validation error; `missing`, `unknown` and `repeated` (splitIDs, ' +
      'ascending) on a PatchSplitMismatch.',
    {
      code: { type: 'string', enum: errorCodes() },
      message: { type: 'string' },
      issues: arrayOf(ref('Issue')),
      missing: arrayOf(integer(1)),
      unknown: arrayOf(integer(1)),
      repeated: arrayOf(integer(1))
    },
    ['issues', 'missing', 'unknown', 'repeated']
  ),
  ErrorResponse: exact('Body of every failure except those of cancel, charge and full refund.', {
    success: { const: false },
    error: ref('ErrorDetail')
  }),
  KidNorwayInvoice: exact('Invoices: the KID and the total received so far.', {
    kid: ref('Kid'),
    paidAmount: ref('Amount')
  }),
  WebhookPayment: exact(
    'The payment as it is now: the same object in webhook payloads and in reads.',
    {
      paymentCreated: ref('PaymentCreated'),
      customer: ref('Customer'),
      kidNorwayInvoice: ref('KidNorwayInvoice'),
      moneySplit: arrayOf(ref('MoneySplitRecord')),
      metaData: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } }
    },
    ['customer', 'kidNorwayInvoice']
  ),
  PaymentResponse: exact('Body of a read of a payment: the payment as webhooks carry it.', { payment: ref('WebhookPayment') }),
  CustomerResponse: exact('Body of a read of a customer: the customer as stored.', { customer: ref('Customer') }),
  WebhookPayload: exact('The body POSTed to a webhook url.', {
    eventID: {
      type: 'string',
      description: '`<paymentReferenceID>:<n>`, n the payment\'s version right after the event: receivers drop duplicates by it.'
    },
    createTime: { ...ref('Timestamp'), description: "The event's time." },
    objectName: { const: 'payment' },
    eventType: ref('WebhookEventType'),
    payload: exact('', { payment: ref('WebhookPayment') })
  })
})

// -------------------------------------------------------------------------------------
// routes
// -------------------------------------------------------------------------------------

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const
type Method = (typeof METHODS)[number]

const json = (schema: Schema, description: string, headers?: Schema): Schema => ({
  description,
  ...(headers !== undefined ? { headers } : {}),
  content: { 'application/json': { schema } }
})

/** The codes of `command`'s guards with HTTP status `status`. */
const guardCodes = (command: PaymentCommandType, status: number): string[] =>
  guards[command].map((g) => g.code).filter((c) => statusByCode[c] === status)

const listCodes = (codes: ReadonlyArray<string>): string => codes.map((c) => `\`${c}\``).join(', ')

/** The 500 of every route: the service's own fault, with the codes of status 500. */
const serviceFault = (schema: string): Schema => {
  const codes = codesWithStatus(500)
  return json(
    ref(schema),
    `The service's own fault (its context, or a stored payment it cannot read); nothing changed${codes.length > 0 ? `: ${listCodes(codes)}` : ''}.`
  )
}

/** The shared responses (`components.responses`), referenced by the operations. */
const response = (name: string): Schema => ({ $ref: `#/components/responses/${name}` })
const UNAUTHORIZED = response('Unauthorized')
const PAYLOAD_TOO_LARGE = response('PayloadTooLarge')
const TOO_LARGE = '`PayloadTooLarge`: the body is larger than the service accepts (its limit; nothing was read or changed).'
const IN_FLIGHT =
  '`IdempotencyKeyInFlight` (a service whose processes share the keys: the first request with this `idempotency-key` is still ' +
  'being answered; try again)'
const BAD_KEY =
  'the `idempotency-key` header is malformed (the key is not 1–255 printable ASCII characters, or a value that starts with `"` ' +
  'is not a structured-field string)'
/** The 422 of every POST: the draft's status for a key sent again with another request. */
const keyReused = (schema: string): Schema =>
  json(
    ref(schema),
    '`IdempotencyKeyReused`: this `idempotency-key` came before with another request (another method, path or body); nothing ' +
      'changed. Send a new key for a new request.'
  )

const idempotencyKey: Schema = {
  name: 'idempotency-key',
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry: the same key with the same request again gets the first answer, unchanged, and changes ' +
    'nothing; the same key with another request gets 422 `IdempotencyKeyReused`. Remembered for 24 hours from its first use, ' +
    "per caller (the service's API key). As the IETF draft writes it, a structured-field string (RFC 8941: `\"…\"`, with `\\\"` " +
    'and `\\\\` escapes) or bare: `"abc"` and `abc` are one key. The key is 1–255 printable ASCII characters; anything else, or ' +
    'a value that starts with `"` and is not a structured-field string, gets 400 `ValidationFailed`.',
  schema: {
    type: 'string',
    anyOf: [
      { description: 'Bare: the key itself.', pattern: '^[\\x20\\x21\\x23-\\x7E][\\x20-\\x7E]{0,254}$' },
      { description: 'A structured-field string.', pattern: '^"(?:[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\["\\\\]){1,255}"$' }
    ]
  }
}

/** `components.responses`: 401, 404 of an unknown path, 405 and 413, each described once. */
const sharedResponses = (): Record<string, Schema> => ({
  Unauthorized: json(ref('ErrorResponse'), '`Unauthorized`: no `Authorization: Bearer <key>` header, or a key the service does not know.'),
  RouteNotFound: json(ref('ErrorResponse'), '`RouteNotFound`: no endpoint has this path (any method).'),
  MethodNotAllowed: json(ref('ErrorResponse'), '`MethodNotAllowed`: the path exists, the method does not; `Allow` lists the methods it has.', {
    Allow: { description: 'The methods of this path, e.g. `GET, POST`.', required: true, schema: { type: 'string' } }
  }),
  PayloadTooLarge: json(ref('ErrorResponse'), TOO_LARGE)
})

const patchCodes = ['ValidationFailed', 'PatchSplitMismatch', 'SplitAmountIncrease', 'GrossAmountMismatch', 'NothingToChange']

interface Operation {
  readonly method: Method
  readonly operationId: string
  readonly summary: string
  readonly requestBody?: string
  readonly responses: Record<string, Schema>
  readonly parameters?: ReadonlyArray<Schema>
}

interface PathItem {
  readonly path: string
  /** A concrete path of the template, for `allowedMethods`. */
  readonly example: string
  readonly parameters?: ReadonlyArray<Schema>
  readonly operations: ReadonlyArray<Operation>
}

const ID = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'

const paymentIdParameter: Schema = {
  name: 'paymentReferenceID',
  in: 'path',
  required: true,
  description: 'The paymentReferenceID returned at creation (a UUID, either case); any other value gets 404 PaymentNotFound.',
  schema: { type: 'string' }
}

const notFound = (schema: string): Schema => json(ref(schema), '`PaymentNotFound`: no payment has this id (also an id that is not a UUID).')

/** The action routes that take no body (cancel, charge, full refund) keep their success shape on failure. */
const actionRoute = (
  action: string,
  command: PaymentCommandType,
  operationId: string,
  summary: string,
  body: string,
  success: string
): PathItem => ({
  path: `/payments/{paymentReferenceID}/${action}`,
  example: `/payments/${ID}/${action}`,
  parameters: [paymentIdParameter],
  operations: [
    {
      method: 'post',
      operationId,
      summary,
      responses: {
        '200': json(ref(body), success),
        '400': json(ref(body), `\`ValidationFailed\`: ${BAD_KEY}.`),
        '401': UNAUTHORIZED,
        '404': notFound(body),
        '409': json(ref(body), `The payment's kind or status forbids it: ${listCodes(guardCodes(command, 409))}; or ${IN_FLIGHT}.`),
        '422': keyReused(body),
        '413': json(ref(body), TOO_LARGE),
        '500': serviceFault(body)
      }
    }
  ]
})

const patchRoute = (action: string, command: PaymentCommandType, operationId: string, summary: string, body: string): PathItem => ({
  path: `/payments/{paymentReferenceID}/${action}`,
  example: `/payments/${ID}/${action}`,
  parameters: [paymentIdParameter],
  operations: [
    {
      method: 'post',
      operationId,
      summary,
      requestBody: 'MoneySplitPatch',
      responses: {
        '200': json(ref(body), 'Done.'),
        '400': json(ref('ErrorResponse'), `The patch is malformed or breaks a rule: ${listCodes([...patchCodes, ...guardCodes(command, 400)])}; or ${BAD_KEY}.`),
        '401': UNAUTHORIZED,
        '404': json(ref('ErrorResponse'), '`PaymentNotFound`: no payment has this id (also an id that is not a UUID).'),
        '409': json(ref('ErrorResponse'), `The payment's kind or status forbids it: ${listCodes(guardCodes(command, 409))}; or ${IN_FLIGHT}.`),
        '422': keyReused('ErrorResponse'),
        '413': PAYLOAD_TOO_LARGE,
        '500': serviceFault('ErrorResponse')
      }
    }
  ]
})

const pathItems = (): ReadonlyArray<PathItem> => [
  {
    path: '/payments',
    example: '/payments',
    operations: [
      {
        method: 'post',
        operationId: 'createPayment',
        summary: 'Create a payment intent (status Initiated); the same request again returns the stored payment.',
        requestBody: 'PaymentIntentRequest',
        responses: {
          '201': json(ref('CreatePaymentResponse'), 'Created.'),
          '200': json(ref('CreatePaymentResponse'), 'An idempotent repeat of the request that created the payment: the payment as stored now.'),
          '400': json(ref('ErrorResponse'), `The request is invalid: ${listCodes(codesWithStatus(400).filter((c) => ['ValidationFailed', 'MissingCustomerExternalID', 'GrossAmountMismatch'].includes(c)))}; or ${BAD_KEY}.`),
          '401': UNAUTHORIZED,
          '409': json(
            ref('ErrorResponse'),
            `A conflict: ${listCodes(['PaymentAlreadyExists', 'DuplicateExternalPaymentReference', 'DuplicateKid'].filter((c) => c in statusByCode))}; or ${IN_FLIGHT}.`
          ),
          '422': keyReused('ErrorResponse'),
          '413': PAYLOAD_TOO_LARGE,
          '500': serviceFault('ErrorResponse')
        }
      },
      {
        method: 'get',
        operationId: 'findPaymentByExternalReference',
        summary: "Read a payment by the caller's own reference.",
        parameters: [
          {
            name: 'externalPaymentReferenceID',
            in: 'query',
            required: true,
            description: 'Exactly once and non-empty; any other query parameter gets 400.',
            schema: { type: 'string', minLength: 1 }
          }
        ],
        responses: {
          '200': json(ref('PaymentResponse'), 'The payment.'),
          '400': json(ref('ErrorResponse'), '`ValidationFailed`: the query is missing, empty, repeated or has another parameter.'),
          '401': UNAUTHORIZED,
          '404': json(ref('ErrorResponse'), '`PaymentNotFound`.'),
          '500': serviceFault('ErrorResponse')
        }
      }
    ]
  },
  {
    path: '/payments/{paymentReferenceID}',
    example: `/payments/${ID}`,
    parameters: [paymentIdParameter],
    operations: [
      {
        method: 'get',
        operationId: 'getPayment',
        summary: 'Read a payment.',
        responses: {
          '200': json(ref('PaymentResponse'), 'The payment.'),
          '401': UNAUTHORIZED,
          '404': json(ref('ErrorResponse'), '`PaymentNotFound`.'),
          '500': serviceFault('ErrorResponse')
        }
      }
    ]
  },
  actionRoute('cancel', 'CancelPayment', 'cancelPayment', 'Cancel an Initiated or Reserved card payment.', 'MessageResponse', 'Cancelled.'),
  actionRoute('charge', 'ChargePayment', 'chargePayment', 'Charge a Reserved card payment (chargeImmediately false).', 'ChargeResponse', 'Charged.'),
  actionRoute('refund', 'RefundPayment', 'refundPayment', 'Refund a Charged payment in full.', 'MessageResponse', 'Refunded.'),
  patchRoute('refund/partially', 'RefundPartially', 'refundPartially', 'Refund part of a Charged payment by a split patch.', 'PartialRefundResponse'),
  patchRoute('adjust', 'AdjustInvoice', 'adjustInvoice', 'Lower the amount of an Initiated invoice by a split patch.', 'AdjustInvoiceResponse'),
  {
    path: '/customers/{customerExternalID}',
    example: '/customers/customer-42',
    parameters: [
      {
        name: 'customerExternalID',
        in: 'path',
        required: true,
        description: "The caller's own identifier of the customer, percent-encoded.",
        schema: { type: 'string' }
      }
    ],
    operations: [
      {
        method: 'get',
        operationId: 'getCustomer',
        summary: 'Read a customer as stored (the fields of every request merged).',
        responses: {
          '200': json(ref('CustomerResponse'), 'The customer.'),
          '401': UNAUTHORIZED,
          '404': json(ref('ErrorResponse'), '`CustomerNotFound` (also for a malformed percent escape).')
        }
      }
    ]
  }
]

const operationObject = (item: PathItem, op: Operation): Schema => ({
  operationId: op.operationId,
  summary: op.summary,
  ...(op.parameters !== undefined || op.method === 'post'
    ? { parameters: [...(op.parameters ?? []), ...(op.method === 'post' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [])] }
    : {}),
  ...(op.requestBody !== undefined
    ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.requestBody) } } } }
    : {}),
  responses: op.responses,
  ...(item.path.startsWith('/customers') ? { tags: ['customers'] } : { tags: ['payments'] })
})

// -------------------------------------------------------------------------------------
// the document
// -------------------------------------------------------------------------------------

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  readonly version: string
  readonly description: string
}

/** The whole OpenAPI 3.1 document, as written to docs/openapi.json. */
export const openApiDocument = (): Schema => {
  const paths: Record<string, Schema> = {}
  for (const item of pathItems()) {
    // Other methods answer 405 (components.responses.MethodNotAllowed), said once per path: an
    // operation per method would make client generators write a function for each.
    const allow = allowedMethods(item.example).join(', ')
    const entry: Schema = { description: `Other methods answer 405 \`MethodNotAllowed\` with \`Allow: ${allow}\`.` }
    if (item.parameters !== undefined) entry['parameters'] = item.parameters
    for (const method of METHODS) {
      const op = item.operations.find((o) => o.method === method)
      if (op !== undefined) entry[method] = operationObject(item, op)
    }
    paths[item.path] = entry
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'paysplit payments service',
      version: packageJson.version,
      description:
        `${packageJson.description}\n\nGenerated by \`npm run openapi\` from the tables paysplit's codecs and wire mapping ` +
        'run on. The outcome of every call is its HTTP status. Said once for every path (components.responses): an unknown ' +
        'path answers 404 `RouteNotFound`, another method of a known path 405 `MethodNotAllowed` with `Allow`, a request ' +
        'without a valid key 401 `Unauthorized`, a body over the limit 413 `PayloadTooLarge`; every POST takes an ' +
        '`idempotency-key` header. The bank and payment-form routes are not part of this API: they are each service\'s own ' +
        '(the reference service describes its bank routes in docs/openapi.service.json).',
      license: { name: 'MIT', identifier: 'MIT' }
    },
    servers: [
      {
        url: '/',
        description: "Relative: the service this document is served with. Set your service's base url, e.g. http://127.0.0.1:8080 for the reference service in development."
      }
    ],
    security: [{ apiKey: [] }],
    tags: [{ name: 'payments' }, { name: 'customers' }],
    paths,
    webhooks: {
      payment: {
        post: {
          operationId: 'paymentWebhook',
          summary:
            "A payment's status changed: sent to the catch-all url and to each subscription of the event type, signed " +
            'as Standard Webhooks (webhook-id = eventID, webhook-timestamp, webhook-signature).',
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookPayload') } } },
          responses: { '200': { description: 'Received (any 2xx).' } }
        }
      }
    },
    components: {
      schemas: { ...requestSchemas(), ...responseSchemas() },
      responses: sharedResponses(),
      parameters: { IdempotencyKey: idempotencyKey },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: "The service's API key as `Authorization: Bearer <key>`. paysplit's `handle` checks no key: the service in front of it does."
        }
      }
    }
  }
}

/**
 * The reference service's event feed (`GET /events`, docs/service.md "The event feed"): every event
 * that sent webhooks, one item per event, its payload the webhook's, paged by cursor.
 */
const feedPaths = (): Record<string, Schema> => ({
  '/events': {
    description: 'Other methods answer 405 `MethodNotAllowed` with `Allow: GET`.',
    get: {
      operationId: 'listEvents',
      summary: 'The events that sent webhooks, oldest first, one item per event (not per url); page with `after`.',
      description:
        'A consumer that passes each page\'s `next` as `after` sees every committed event exactly once, each payment\'s in version order, ' +
        'also while several instances commit at once: positions are read only below the oldest transaction still running. Events ' +
        'are kept at least 30 days (`EVENTS_RETENTION_DAYS`).',
      tags: ['events'],
      parameters: [
        {
          name: 'after',
          in: 'query',
          required: false,
          description: 'A cursor this feed gave: an item\'s `cursor` or a page\'s `next`. Absent: from the oldest event kept.',
          schema: { type: 'string', pattern: '^\\d{1,20}\\.\\d{1,19}$' }
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'Events in the page at most (100 when absent).',
          schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 }
        }
      ],
      responses: {
        '200': json(ref('EventPage'), 'A page of events.'),
        '400': json(ref('ErrorResponse'), '`ValidationFailed`: a `limit` outside 1..500 or not an integer, or an `after` that is not a cursor; the issue at `query.limit` or `query.after`.'),
        '401': UNAUTHORIZED,
        '500': serviceFault('ErrorResponse')
      }
    }
  }
})

/** The schemas of the event feed. */
const feedSchemas = (): Record<string, Schema> => ({
  EventPage: exact('A page of the event feed.', {
    data: arrayOf(ref('EventItem')),
    next: { type: 'string', description: 'The cursor to pass as `after` next time: the last item\'s, or the `after` given when the page is empty (poll with it).' },
    hasMore: { type: 'boolean', description: 'More events are committed already: ask again at once.' }
  }),
  EventItem: exact('One event that sent webhooks.', {
    cursor: { type: 'string', description: 'Its position: pass it as `after` to read the events after it.' },
    eventID: { type: 'string', description: 'The webhooks\' `webhook-id` and the payload\'s `eventID`: `<paymentReferenceID>:<version>`.' },
    eventType: ref('WebhookEventType'),
    createdAt: { type: 'string', format: 'date-time', description: 'When the event was stored.' },
    payload: ref('WebhookPayload')
  })
})

/**
 * The reference service's document (docs/examples/service): the library's, plus its bank routes
 * under a key of their own. The bank routes are the service's, not paysplit's (a service takes
 * money from its bank as its bank sends it), so they are not in docs/openapi.json
 * (docs/decisions.md, "The bank routes in their own document").
 */
export const serviceDocument = (): Schema => {
  const base = openApiDocument() as Schema & { info: Schema; paths: Record<string, Schema>; components: Record<string, Record<string, Schema>> }
  const bank = [{ bankKey: [] }]
  const bankResponses = {
    '400': json(ref('ErrorResponse'), '`ValidationFailed`: not JSON, or a KID or amount that is not valid.'),
    '401': json(ref('ErrorResponse'), '`Unauthorized`: no bank key, or one the service does not know.'),
    '413': PAYLOAD_TOO_LARGE
  }
  return {
    ...base,
    info: {
      ...base.info,
      title: 'paysplit reference payments service',
      description:
        "The API of paysplit's reference service (docs/examples/service, docs/service.md): every route of paysplit's document " +
        '(docs/openapi.json) and the event feed under the API key, and the bank routes under the bank key.'
    },
    servers: [{ url: 'http://127.0.0.1:8080', description: '`npm run serve`: the reference service in development mode, on its default port.' }],
    paths: {
      ...base.paths,
      '/bank/transfers': {
        description: 'Other methods answer 405 `MethodNotAllowed`.',
        post: {
          operationId: 'receiveBankTransfer',
          summary: 'The bank reports money received with a KID: applied to the open invoice holding it, or parked for manual matching.',
          tags: ['bank'],
          security: bank,
          requestBody: { required: true, content: { 'application/json': { schema: ref('BankTransfer') } } },
          responses: {
            '200': json(ref('BankTransferMatched'), 'Applied to the open invoice holding the KID.'),
            '202': json(ref('BankTransferUnmatched'), '`UnmatchedTransfer`: no open invoice holds the KID; the money is parked for manual matching.'),
            ...bankResponses,
            '409': json(ref('ErrorResponse'), '`ConcurrentModification`: the invoice kept changing; try again.'),
            '500': serviceFault('ErrorResponse')
          }
        }
      },
      ...feedPaths(),
      '/bank/ocr': {
        description: 'Other methods answer 405 `MethodNotAllowed`.',
        post: {
          operationId: 'receiveOcrGiro',
          summary: "The bank's OCR giro file (Nets, 80-character records): every KID payment in it applied or parked, once per transmission.",
          tags: ['bank'],
          security: bank,
          requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string', description: 'The OCR giro file as the bank sends it.' } } } },
          responses: {
            '200': json(ref('OcrReport'), 'What became of each payment of the file; `duplicate` true for a transmission already received (nothing applied again).'),
            ...bankResponses,
            '400': json(ref('ErrorResponse'), '`ValidationFailed`: the file is broken; each issue names its line (`line.<n>`) and the rule.'),
            '409': json(ref('ErrorResponse'), '`ConcurrentModification`: the invoices kept changing; send the file again.'),
            '500': serviceFault('ErrorResponse')
          }
        }
      },
      '/bank/camt054': {
        description: 'Other methods answer 405 `MethodNotAllowed`.',
        post: {
          operationId: 'receiveCamt054',
          summary:
            "The bank's ISO 20022 camt.054 credit notification (versions 001.02 to 001.08): every booked KID credit in it applied or parked, once per message; a transaction sent again in another notification is `duplicate`.",
          tags: ['bank'],
          security: bank,
          requestBody: { required: true, content: { 'application/xml': { schema: { type: 'string', description: 'The camt.054 document as the bank sends it.' } } } },
          responses: {
            '200': json(ref('BankNotificationReport'), 'What became of each transaction of the notification; `duplicate` true for a message already received (nothing applied again).'),
            ...bankResponses,
            '400': json(ref('ErrorResponse'), '`ValidationFailed`: the document is refused whole (not well-formed, not camt.054, or its sums disagree); each issue names the element path and the rule.'),
            '409': json(ref('ErrorResponse'), '`ConcurrentModification`: the invoices kept changing; send the notification again.'),
            '500': serviceFault('ErrorResponse')
          }
        }
      }
    },
    tags: [...(base['tags'] as Schema[]), { name: 'events' }, { name: 'bank' }],
    components: {
      ...base.components,
      schemas: {
        ...base.components['schemas'],
        BankTransferMatched: exact('Body of a transfer applied to an invoice.', {
          success: { const: true },
          matched: { const: true },
          paymentReferenceID: ref('Uuid'),
          status: ref('PaymentStatus'),
          paidAmount: ref('Amount')
        }),
        BankTransferUnmatched: exact('Body of a transfer no open invoice holds the KID of: parked under `unmatchedTransferID`.', {
          success: { const: true },
          matched: { const: false },
          unmatchedTransferID: ref('Uuid'),
          error: ref('ErrorDetail')
        }),
        ...feedSchemas(),
        OcrReport: exact('Body of a received OCR giro file.', {
          transmissionNumber: { type: 'string' },
          dataSender: { type: 'string' },
          duplicate: { type: 'boolean' },
          report: arrayOf(ref('BankReportRow'))
        }),
        BankNotificationReport: exact('Body of a received camt.054 notification.', {
          messageId: { type: 'string' },
          duplicate: { type: 'boolean' },
          report: arrayOf(ref('BankReportRow'))
        }),
        BankReportRow: exact(
          'One payment of a bank file or notification and what became of it (`transactionNumber`: its position in a camt.054 notification; `kid` empty when it has none).',
          {
            transactionNumber: { type: 'integer' },
            kid: { type: 'string' },
            amount: { type: 'integer', description: 'Øre; negative for a credit note or a debit.' },
            outcome: { type: 'string', enum: ['matched', 'unmatched', 'refused', 'duplicate'] },
            paymentReferenceID: ref('Uuid'),
            unmatchedTransferID: ref('Uuid'),
            error: ref('ErrorDetail')
          },
          ['paymentReferenceID', 'unmatchedTransferID', 'error']
        )
      },
      securitySchemes: {
        ...base.components['securitySchemes'],
        bankKey: { type: 'http', scheme: 'bearer', description: "The bank's key as `Authorization: Bearer <key>`: only the bank routes take it." }
      }
    }
  }
}

/** A document as written: two-space JSON and a final newline. */
const text = (doc: Schema): string => `${JSON.stringify(doc, null, 2)}\n`

/** The document as written to docs/openapi.json. */
export const openApiText = (): string => text(openApiDocument())

/** The reference service's document as written to docs/openapi.service.json. */
export const serviceApiText = (): string => text(serviceDocument())

export const openApiPath = fileURLToPath(new URL('../docs/openapi.json', import.meta.url))
export const serviceApiPath = fileURLToPath(new URL('../docs/openapi.service.json', import.meta.url))

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(openApiPath, openApiText())
  writeFileSync(serviceApiPath, serviceApiText())
  console.log(`wrote ${openApiPath} and ${serviceApiPath}`)
}
