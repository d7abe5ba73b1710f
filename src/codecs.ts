/**
 * `paysplit/codecs`: the validation layer of the wire bodies a caller sends, small enough for a
 * front-end form. It holds the io-ts codecs of the payment-intent request and of the money-split
 * patch, `decode*` functions returning `Either<PaymentError, T>`, the limits and the format
 * predicates a form needs field by field (docs/rules.md, "Create validation").
 *
 * The checks live in `src/codecs/`: `requestChecks.ts` (the collectors the decider shares),
 * `fields.ts` and `validators.ts` (one rule per kind of field), `currencies.ts`, `decode.ts`
 * (the `decode*` functions and the io-ts codecs), `standardSchema.ts` (their `~standard`),
 * `jsonSchema.ts` (their `~standard.jsonSchema`: Standard JSON Schema, built from the same rules),
 * `forms.ts` (`withMessages` and `forForm`, for form libraries: docs/forms.md),
 * `messages/` (`formatIssue`, `flattenIssues` and one module per catalog, `en` and `nb`, so that
 * a bundle ships only the catalogs it imports).
 *
 * @module codecs
 */
export type { Issue, IssueCode, IssueParams, IssueReason, Messages, PaymentError } from './errors.js'
export { issueReasons } from './errors.js'
export type {
  CustomerInput,
  Environment,
  FormValue,
  MetaData,
  MoneySplitPatchInput,
  MoneySplitRequestInput,
  PatchEntry,
  PatchEntryInput,
  PaymentGateway,
  PaymentIntentRequestInput,
  WebhookEventType,
  WebhookSubscriptionInput
} from './codecs/requests.js'
export type { Codec } from './codecs/decode.js'
export type { Schema, StandardIssue, StandardResult, StandardSchemaV1 } from './codecs/standardSchema.js'
export type { JsonSchemaConverter, JsonSchemaOptions } from './codecs/jsonSchema.js'
export { forForm, withMessages } from './codecs/forms.js'
export { flattenIssues, formatIssue } from './messages/format.js'
export { en } from './messages/en.js'
export { nb } from './messages/nb.js'
export {
  Customer,
  decodeMoneySplitPatch,
  decodePaymentIntentRequest,
  limits,
  MoneySplitPatch,
  MoneySplitRequest,
  PaymentIntentRequest,
  WebhookSubscription
} from './codecs/decode.js'
export { currencyCodes, isCurrencyCode } from './codecs/currencies.js'
export { isEmail, isHttpUrl, isUuid } from './codecs/validators.js'
