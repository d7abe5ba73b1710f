/**
 * The wire bodies a caller sends (docs/rules.md I2.1–I2.3 and I2.5), as the codecs of `paysplit/codecs`
 * decode them. A decoded value is a fresh plain object: optional fields the request left out are
 * absent, `webhookSubscriptions` defaults to `[]` and `metaData` to `{}`, and subscription event
 * types are normalised to their short form (`ChargedPayment` → `Charged`).
 *
 * @module requests
 */

/** The environments a payment can run in. */
export type Environment = 'test' | 'production'

/** The payment gateways paysplit knows: `creditcard` for card payments, `invoice` for KID invoices. */
export type PaymentGateway = 'creditcard' | 'invoice'

/**
 * The webhook event types (docs/rules.md C5), short forms. Subscriptions may name them in the service's
 * long form too (`ChargedPayment`); the codecs normalise to these.
 */
export type WebhookEventType =
  | 'Initiated'
  | 'Reserved'
  | 'Charged'
  | 'Cancelled'
  | 'Refunded'
  | 'PartiallyRefunded'
  | 'InvoiceAdjusted'

/** A customer as the create request carries it (docs/rules.md I2.3); every field optional. */
export interface Customer {
  readonly name?: string
  readonly email?: string
  readonly mobilePrefix?: string
  readonly mobile?: string
  readonly customerType?: string
}

/** A per-payment webhook subscription (docs/rules.md I2.1). */
export interface WebhookSubscription {
  readonly eventType: WebhookEventType
  readonly url: string
}

/** Free-form data stored for the caller: a flat object of strings, numbers, booleans and nulls. */
export type MetaData = Readonly<Record<string, string | number | boolean | null>>

/** A money-split entry of the create request (docs/rules.md I2.2). */
export interface MoneySplitRequest {
  readonly connectedAccountID: string
  readonly amount: number
  readonly description?: string
  readonly isFee: boolean
  readonly externalID?: string
}

/** The payment-intent request, body of `POST /payments` (docs/rules.md I2.1). */
export interface PaymentIntentRequest {
  readonly externalPaymentReferenceID: string
  readonly environment: Environment
  readonly paymentGateway: PaymentGateway
  /** Required for card payments; optional (and without effect) for invoices. */
  readonly chargeImmediately?: boolean
  readonly sellerConnectedAccountID: string
  readonly externalObjectIdTag?: string
  readonly description?: string
  readonly grossAmount: number
  readonly currency: string
  readonly moneySplitList: ReadonlyArray<MoneySplitRequest>
  readonly customerExternalID: string
  readonly customer?: Customer
  readonly webhookSubscriptions: ReadonlyArray<WebhookSubscription>
  readonly successUrl: string
  readonly failedUrl: string
  readonly metaData: MetaData
}

/** What a patch entry does to its split (docs/rules.md I2.5). */
export type UpdateType = 'UpdateAmount' | 'DoDeleteSplitEntry' | 'DoNothing'

/** One entry of a money-split patch (docs/rules.md I2.5), a union on `updateType`. */
export type PatchEntry =
  | { readonly splitID: number; readonly updateType: 'UpdateAmount'; readonly newAmount: number }
  | { readonly splitID: number; readonly updateType: 'DoDeleteSplitEntry'; readonly doDelete: boolean }
  | { readonly splitID: number; readonly updateType: 'DoNothing' }

/** The money-split patch, body of partial refund and invoice adjustment (docs/rules.md I2.5). */
export interface MoneySplitPatch {
  readonly moneySplitPatch: ReadonlyArray<PatchEntry>
  readonly newGrossAmount: number
}

// -------------------------------------------------------------------------------------
// form input (docs/rules.md C12)
// -------------------------------------------------------------------------------------

/**
 * What a form holds for a text, number or choice field before validation: the value, a string
 * typed into a number field, `''`, `null` or nothing for an empty field. The codecs check it: a
 * string where a number is needed is a `type` issue; `null` is `required` where the field is
 * required and a `type` issue where it is optional; `''` is `too_short` or `format`. Through
 * `forForm` an empty field (`''`, `null`, `NaN`) is absent instead: an optional one is left out,
 * a required one is `required` (docs/decisions.md "Forms: a form mode").
 */
export type FormValue<A> = A | string | null | undefined

/** A customer as a form holds it before validation (docs/rules.md I2.3). */
export interface CustomerInput {
  readonly name?: FormValue<string>
  readonly email?: FormValue<string>
  readonly mobilePrefix?: FormValue<string>
  readonly mobile?: FormValue<string>
  readonly customerType?: FormValue<string>
}

/** A webhook subscription as a form holds it before validation. */
export interface WebhookSubscriptionInput {
  readonly eventType?: FormValue<string>
  readonly url?: FormValue<string>
}

/** A money-split entry as a form holds it before validation (docs/rules.md I2.2). */
export interface MoneySplitRequestInput {
  readonly connectedAccountID?: FormValue<string>
  readonly amount?: FormValue<number>
  readonly description?: FormValue<string>
  readonly isFee?: FormValue<boolean>
  readonly externalID?: FormValue<string>
}

/**
 * The payment-intent request as a form holds it before validation: every field optional, numbers
 * possibly still strings, empty fields `''` or `null` (validate them with
 * `forForm(PaymentIntentRequest)`); `PaymentIntentRequest` is what the codecs decode it to. A
 * Standard Schema consumer infers it from `PaymentIntentRequest['~standard']`.
 */
export interface PaymentIntentRequestInput {
  readonly externalPaymentReferenceID?: FormValue<string>
  readonly environment?: FormValue<Environment>
  readonly paymentGateway?: FormValue<PaymentGateway>
  readonly chargeImmediately?: FormValue<boolean>
  readonly sellerConnectedAccountID?: FormValue<string>
  readonly externalObjectIdTag?: FormValue<string>
  readonly description?: FormValue<string>
  readonly grossAmount?: FormValue<number>
  readonly currency?: FormValue<string>
  readonly moneySplitList?: ReadonlyArray<MoneySplitRequestInput>
  readonly customerExternalID?: FormValue<string>
  readonly customer?: CustomerInput
  readonly webhookSubscriptions?: ReadonlyArray<WebhookSubscriptionInput>
  readonly successUrl?: FormValue<string>
  readonly failedUrl?: FormValue<string>
  readonly metaData?: Readonly<Record<string, unknown>>
}

/** A patch entry as a form holds it before validation (docs/rules.md I2.5). */
export interface PatchEntryInput {
  readonly splitID?: FormValue<number>
  readonly updateType?: FormValue<UpdateType>
  readonly newAmount?: FormValue<number>
  readonly doDelete?: FormValue<boolean>
}

/** The money-split patch as a form holds it before validation (docs/rules.md I2.5). */
export interface MoneySplitPatchInput {
  readonly moneySplitPatch?: ReadonlyArray<PatchEntryInput>
  readonly newGrossAmount?: FormValue<number>
}
