/**
 * Forms (docs/forms.md; docs/rules.md C12; docs/decisions.md "Forms: …"): the frictions a
 * front-end met, each with its test.
 *
 * - `withMessages(schema, catalog)`: Standard Schema issues in the chosen catalog, `reason` and
 *   `params` kept and typed; React Hook Form's resolver and TanStack Form show Norwegian.
 * - `forForm(schema)`: `''`, `null` and `NaN` of a field are "not filled in"; the wire stays strict.
 * - `null` where a value is needed is `required` (codecs, stored states, and `transition`'s own
 *   command fields); a `null` optional field is a `type` issue.
 * - A URL or an e-mail address longer than its limit is `too_long`, not `format`.
 * - Neither helper adds a byte to a bundle that does not use it.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { FieldApi, FormApi } from '@tanstack/react-form'
import { build } from 'esbuild'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import {
  Customer,
  decodeMoneySplitPatch,
  decodePaymentIntentRequest,
  en,
  forForm,
  type IssueParams,
  type IssueReason,
  limits,
  MoneySplitPatch,
  MoneySplitRequest,
  nb,
  PaymentIntentRequest,
  type PaymentIntentRequestInput,
  type Schema,
  type StandardIssue,
  type StandardResult,
  withMessages,
  WebhookSubscription
} from '../../src/codecs.js'
import { validateState } from '../../src/state/storedState.js'
import { transition } from '../../src/decider.js'
import type { Command } from '../../src/commands.js'
import { initialState } from '../../src/payment.js'
import { at, cardRequest, complete, create, createInvoice, invoiceRequest, KID, paymentAfter, SELLER } from '../support/builders.js'

/** [path, reason] of each issue of a decode. */
const reasons = (r: E.Either<{ readonly issues?: ReadonlyArray<{ path: string; reason: string }> }, unknown>): string[][] =>
  E.isLeft(r) ? (r.left.issues ?? []).map((i) => [i.path, i.reason]) : []

/** [path, reason] of each issue a schema gives. */
const schemaReasons = (issues: ReadonlyArray<StandardIssue> | undefined): string[][] =>
  (issues ?? []).map((i) => [i.path.join('.'), i.reason])

/** The value of a valid result; undefined for an invalid one. */
const valueOf = <A>(r: StandardResult<A>): A | undefined => (r.issues === undefined ? r.value : undefined)

const url = (n: number): string => `https://shop.example.com/${'a'.repeat(n - 'https://shop.example.com/'.length)}`

// -------------------------------------------------------------------------------------
// null → required
// -------------------------------------------------------------------------------------

describe('null where a value is needed is `required` (the reason table of docs/rules.md C12)', () => {
  const required = [
    'externalPaymentReferenceID',
    'environment',
    'paymentGateway',
    'chargeImmediately',
    'sellerConnectedAccountID',
    'grossAmount',
    'currency',
    'moneySplitList',
    'customerExternalID',
    'successUrl',
    'failedUrl'
  ] as const
  for (const field of required) {
    it(`a null ${field} is required`, () => {
      expect(reasons(decodePaymentIntentRequest(cardRequest({ [field]: null })))).toEqual([[field, 'required']])
    })
  }

  it("a null field of a split, a subscription's null fields (a null entry: type)", () => {
    const request = cardRequest()
    const [first, second] = request.moneySplitList
    for (const key of ['connectedAccountID', 'amount', 'isFee']) {
      const r = decodePaymentIntentRequest({ ...request, moneySplitList: [{ ...first, [key]: null }, second, request.moneySplitList[2]] })
      expect(reasons(r)).toEqual([[`moneySplitList.0.${key}`, 'required']])
    }
    // a null entry is an entry of the wrong type (a hole is the missing one)
    expect(reasons(decodePaymentIntentRequest({ ...request, moneySplitList: [null, second, request.moneySplitList[2]] }))).toEqual([
      ['moneySplitList.0', 'type']
    ])
    const sub = { eventType: 'Charged', url: 'https://shop.example.com/hooks' }
    for (const key of ['eventType', 'url']) {
      const r = decodePaymentIntentRequest({ ...request, webhookSubscriptions: [{ ...sub, [key]: null }] })
      expect(reasons(r)).toEqual([[`webhookSubscriptions.0.${key}`, 'required']])
    }
    expect(reasons(decodePaymentIntentRequest({ ...request, webhookSubscriptions: [null] }))).toEqual([['webhookSubscriptions.0', 'type']])
  })

  it('a null optional field is present with the wrong type (type), on the wire', () => {
    const optional = ['externalObjectIdTag', 'description', 'customer', 'webhookSubscriptions', 'metaData'] as const
    for (const field of optional) {
      expect(reasons(decodePaymentIntentRequest(cardRequest({ [field]: null }))), field).toEqual([[field, 'type']])
    }
    for (const key of ['name', 'email', 'mobilePrefix', 'mobile', 'customerType']) {
      expect(reasons(decodePaymentIntentRequest(cardRequest({ customer: { [key]: null } }))), key).toEqual([[`customer.${key}`, 'type']])
    }
  })

  it('the patch: a null entry field, a null newGrossAmount, a null list (a null entry: type)', () => {
    expect(reasons(decodeMoneySplitPatch({ moneySplitPatch: [{ splitID: null, updateType: null }], newGrossAmount: null }))).toEqual([
      ['moneySplitPatch.0.splitID', 'required'],
      ['moneySplitPatch.0.updateType', 'required'],
      ['newGrossAmount', 'required']
    ])
    expect(reasons(decodeMoneySplitPatch({ moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: null }], newGrossAmount: 0 }))).toEqual([
      ['moneySplitPatch.0.newAmount', 'required']
    ])
    expect(reasons(decodeMoneySplitPatch({ moneySplitPatch: [{ splitID: 1, updateType: 'DoDeleteSplitEntry', doDelete: null }], newGrossAmount: 0 }))).toEqual([
      ['moneySplitPatch.0.doDelete', 'required']
    ])
    expect(reasons(decodeMoneySplitPatch({ moneySplitPatch: [null], newGrossAmount: 0 }))).toEqual([['moneySplitPatch.0', 'type']])
    expect(reasons(decodeMoneySplitPatch({ moneySplitPatch: null, newGrossAmount: 0 }))).toEqual([['moneySplitPatch', 'required']])
  })

  it('the body itself, null, is no object (type), as any other non-object body', () => {
    expect(reasons(decodePaymentIntentRequest(null))).toEqual([['', 'type']])
    expect(reasons(decodeMoneySplitPatch(null))).toEqual([['', 'type']])
  })

  it('transition applies the same rule to its own command fields: at, type, paymentReferenceID, kid, amount', () => {
    const left = (state: Parameters<typeof transition>[0], command: unknown): string[][] => {
      const r = transition(state, command as Command)
      return E.isLeft(r) ? (r.left.issues ?? []).map((i) => [i.path, i.reason]) : []
    }
    const created = create()
    expect(left(initialState, { ...created, at: null })).toEqual([['at', 'required']])
    expect(left(initialState, { ...created, type: null, at: at(0) })).toEqual([['type', 'required']])
    expect(left(initialState, { ...created, paymentReferenceID: null })).toEqual([['paymentReferenceID', 'required']])
    expect(left(initialState, { ...createInvoice(), kid: null })).toEqual([['kid', 'required']])
    expect(left(initialState, create(cardRequest({ grossAmount: null })))).toEqual([['grossAmount', 'required']])
    const invoice = paymentAfter(createInvoice(invoiceRequest()))
    expect(left(invoice, { type: 'ReceiveInvoiceTransfer', at: at(1), amount: null, kid: KID })).toEqual([['amount', 'required']])
    expect(left(invoice, { type: 'ReceiveInvoiceTransfer', at: at(1), amount: 100, kid: null })).toEqual([['kid', 'required']])
    // an optional command field that is null is of the wrong type, as in a request
    const card = paymentAfter(create())
    expect(left(card, { type: 'FailPaymentForm', at: at(1), reason: null })).toEqual([['reason', 'type']])
  })

  it('a stored state: a null required field is required, a null optional one the wrong type', () => {
    const payment = paymentAfter(create(), complete())
    const broken = validateState({ ...payment, grossAmount: null, description: null })
    expect(E.isLeft(broken) && (broken.left.issues ?? []).map((i) => [i.path, i.reason])).toEqual([
      ['state.description', 'type'],
      ['state.grossAmount', 'required']
    ])
  })
})

// -------------------------------------------------------------------------------------
// too long → too_long
// -------------------------------------------------------------------------------------

describe('a URL or an e-mail address past its limit is too_long, not format', () => {
  it('successUrl, failedUrl and a subscription url of 2049 characters: too_long { max: 2048 }; 2048 pass', () => {
    expect(url(limits.urlLength)).toHaveLength(2048)
    expect(E.isRight(decodePaymentIntentRequest(cardRequest({ successUrl: url(2048), failedUrl: url(2048) })))).toBe(true)
    const r = decodePaymentIntentRequest(
      cardRequest({ successUrl: url(2049), failedUrl: url(2049), webhookSubscriptions: [{ eventType: 'Charged', url: url(2049) }] })
    )
    expect(E.isLeft(r) && r.left.issues?.map((i) => [i.path, i.reason, i.params])).toEqual([
      ['webhookSubscriptions.0.url', 'too_long', { max: 2048 }],
      ['successUrl', 'too_long', { max: 2048 }],
      ['failedUrl', 'too_long', { max: 2048 }]
    ])
    expect(E.isLeft(r) && r.left.issues?.[0]?.message).toBe('Must be at most 2048 characters.')
  })

  it('an e-mail address of 255 characters: too_long { max: 254 }; a broken one within the limit stays format', () => {
    const email = (n: number): string => `${'k'.repeat(60)}@${'e'.repeat(n - 64)}.no`
    expect(email(254)).toHaveLength(254)
    expect(reasons(decodePaymentIntentRequest(cardRequest({ customer: { email: email(254) } })))).toEqual([])
    const r = decodePaymentIntentRequest(cardRequest({ customer: { email: email(255) } }))
    expect(E.isLeft(r) && r.left.issues?.map((i) => [i.path, i.reason, i.params])).toEqual([['customer.email', 'too_long', { max: 254 }]])
    expect(reasons(decodePaymentIntentRequest(cardRequest({ customer: { email: 'kari@localhost' } })))).toEqual([['customer.email', 'format']])
  })

  it('a stored state says the same of its URLs', () => {
    const payment = paymentAfter(create(), complete())
    const r = validateState({ ...payment, successUrl: url(2049) })
    expect(E.isLeft(r) && r.left.issues?.map((i) => [i.path, i.reason])).toEqual([['state.successUrl', 'too_long']])
  })
})

// -------------------------------------------------------------------------------------
// withMessages
// -------------------------------------------------------------------------------------

/** A request a Norwegian form may hold: wrong in several places, optional fields left empty. */
const badForm = (): PaymentIntentRequestInput => ({
  ...cardRequest(),
  grossAmount: '100',
  moneySplitList: [],
  customer: { name: '', email: 'kari@localhost', mobilePrefix: '', mobile: '' },
  customerExternalID: null
})

describe('withMessages: Standard Schema issues in the chosen catalog, reason and params kept', () => {
  it('every issue worded by nb, everything else as the codec gives it', () => {
    const plain = PaymentIntentRequest['~standard'].validate(badForm())
    const norwegian = withMessages(PaymentIntentRequest, nb)['~standard'].validate(badForm())
    expect(norwegian.issues?.length).toBe(plain.issues?.length)
    const unworded = (issues: ReadonlyArray<StandardIssue> | undefined): unknown => issues?.map((i) => ({ ...i, message: '' }))
    expect(unworded(norwegian.issues)).toEqual(unworded(plain.issues))
    expect(Object.fromEntries((norwegian.issues ?? []).map((i) => [i.path.join('.'), i.message]))).toEqual({
      grossAmount: 'Må være et tall.',
      moneySplitList: 'Må ha minst 1 oppføring.',
      customerExternalID: 'Må fylles ut.',
      'customer.email': 'Må være en gyldig e-postadresse.',
      'customer.mobilePrefix': 'Må være en gyldig landskode.',
      'customer.mobile': 'Må være et gyldig mobilnummer.'
    })
    expect(withMessages(PaymentIntentRequest, en)['~standard'].validate(badForm())).toEqual(plain)
  })

  it('reason, params and code reachable without a cast (typed), on every codec', () => {
    const issue: StandardIssue | undefined = withMessages(PaymentIntentRequest, nb)['~standard'].validate(badForm()).issues?.[0]
    const reason: IssueReason | undefined = issue?.reason
    const params: IssueParams | undefined = issue?.params
    expect([reason, params]).toEqual(['type', { expected: 'number' }])
    const codecs: ReadonlyArray<Schema<unknown, unknown>> = [PaymentIntentRequest, MoneySplitPatch, MoneySplitRequest, Customer, WebhookSubscription]
    for (const codec of codecs) {
      const r = withMessages(codec, nb)['~standard']
      expect([r.version, r.vendor]).toEqual([1, 'paysplit'])
      expect(r.validate(7).issues?.map((i) => [i.reason, i.message])).toEqual([['type', 'Må være et objekt.']])
    }
  })

  it('a valid value passes through unchanged (the decoded one)', () => {
    const r = withMessages(PaymentIntentRequest, nb)['~standard'].validate(cardRequest({ webhookSubscriptions: [{ eventType: 'ChargedPayment', url: 'https://a.example/h' }] }))
    expect(r.issues).toBeUndefined()
    expect(valueOf(r)?.webhookSubscriptions[0]?.eventType).toBe('Charged')
  })

  it("React Hook Form's standardSchemaResolver shows Norwegian at every field", async () => {
    const resolver = standardSchemaResolver(withMessages(forForm(PaymentIntentRequest), nb))
    const r = await resolver(badForm(), undefined, { fields: {}, shouldUseNativeValidation: false })
    const errors = r.errors as Record<string, unknown>
    const atPath = (path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], errors)
    expect(atPath('grossAmount')).toMatchObject({ message: 'Må være et tall.' })
    expect(atPath('moneySplitList')).toMatchObject({ message: 'Må ha minst 1 oppføring.' })
    expect(atPath('customer.email')).toMatchObject({ message: 'Må være en gyldig e-postadresse.' })
    // the form mode: the empty optional fields are no errors
    expect(atPath('customer.mobile')).toBeUndefined()
    expect(atPath('customer.name')).toBeUndefined()
    const good = await resolver({ ...cardRequest(), customer: { email: '', name: 'Kari' } }, undefined, { fields: {}, shouldUseNativeValidation: false })
    expect(good.errors).toEqual({})
    expect((good.values as { customer?: unknown }).customer).toEqual({ name: 'Kari' })
  })

  it('React Hook Form puts a list-level error at errors.moneySplitList.root once fields of the list are registered (at errors.moneySplitList without them), an entry\'s at its field', async () => {
    const resolver = standardSchemaResolver(withMessages(forForm(PaymentIntentRequest), nb))
    // `names`: the fields a form has registered, as useForm hands them to its resolver
    const options = (names: ReadonlyArray<string>) => ({ fields: {}, names: [...names], shouldUseNativeValidation: false }) as never
    const empty = { ...cardRequest(), moneySplitList: [] }
    const registered = await resolver(empty, undefined, options(['grossAmount', 'moneySplitList.0.amount']))
    expect(registered.errors).toMatchObject({ moneySplitList: { root: { message: 'Må ha minst 1 oppføring.' } } })
    const unregistered = await resolver(empty, undefined, options(['grossAmount']))
    expect(unregistered.errors).toMatchObject({ moneySplitList: { message: 'Må ha minst 1 oppføring.' } })
    const entry = await resolver({ ...cardRequest(), moneySplitList: [{ connectedAccountID: 'x', amount: 10000, isFee: false }] }, undefined, options(['moneySplitList.0.connectedAccountID']))
    expect(entry.errors).toMatchObject({ moneySplitList: [{ connectedAccountID: { message: 'Må være en gyldig UUID.' } }] })
  })

  it('TanStack Form: a list-level error is on the list\'s own field (mode array) and in form.state.errors, by its path', async () => {
    const schema = withMessages(forForm(PaymentIntentRequest), nb)
    const defaultValues: PaymentIntentRequestInput = { ...cardRequest(), moneySplitList: [] }
    const form = new FormApi({ defaultValues, validators: { onChange: schema } })
    form.mount()
    const list = new FieldApi({ form, name: 'moneySplitList' })
    list.mount()
    await form.handleSubmit()
    expect(list.state.meta.errors.map((i) => i?.message)).toEqual(['Må ha minst 1 oppføring.'])
    expect(form.state.errors).toEqual([{ moneySplitList: [expect.objectContaining({ path: ['moneySplitList'], reason: 'too_few' })] }])
  })

  it('TanStack Form: a form validator flags every field at the first change; shown once touched (a submit touches every field), an untouched field shows nothing', async () => {
    const schema = withMessages(forForm(PaymentIntentRequest), nb)
    const defaultValues: PaymentIntentRequestInput = { ...cardRequest(), customerExternalID: '' }
    const form = new FormApi({ defaultValues, validators: { onChange: schema } })
    form.mount()
    const amount = new FieldApi({ form, name: 'grossAmount' })
    const customer = new FieldApi({ form, name: 'customerExternalID' })
    amount.mount()
    customer.mount()
    // what the example of docs/forms.md shows beside a field
    const shown = (field: { readonly state: { readonly meta: { readonly isTouched: boolean; readonly errors: ReadonlyArray<{ message: string } | undefined> } } }) =>
      field.state.meta.isTouched ? field.state.meta.errors.map((i) => i?.message) : []
    amount.handleChange(9000)
    expect(customer.state.meta.errors.map((i) => i?.message)).toEqual(['Må fylles ut.'])
    expect([shown(amount), shown(customer)]).toEqual([['Må være lik summen av beløpene i fordelingen.'], []])
    await form.handleSubmit()
    expect(shown(customer)).toEqual(['Må fylles ut.'])
  })

  it('TanStack Form (its FormApi, as useForm runs it) puts each Norwegian issue on its field', () => {
    const schema = withMessages(forForm(PaymentIntentRequest), nb)
    const defaultValues: PaymentIntentRequestInput = { ...cardRequest(), customer: { email: '' } }
    const form = new FormApi({ defaultValues, validators: { onChange: schema } })
    form.mount()
    const email = new FieldApi({ form, name: 'customer.email' })
    email.mount()
    const amount = new FieldApi({ form, name: 'grossAmount' })
    amount.mount()
    email.handleChange('kari@localhost')
    expect(email.state.meta.errors.map((i) => i?.message)).toEqual(['Må være en gyldig e-postadresse.'])
    // the issue objects themselves, reason and params included (TanStack types its errors as the
    // generic Standard Schema issue, so a program reads them as paysplit's)
    expect(email.state.meta.errors.map((i) => (i as StandardIssue | undefined)?.reason)).toEqual(['format'])
    amount.handleChange(Number.NaN)
    expect(amount.state.meta.errors.map((i) => i?.message)).toEqual(['Må fylles ut.'])
    email.handleChange('')
    amount.handleChange(10000)
    expect(email.state.meta.errors).toEqual([])
    expect(form.state.isValid).toBe(true)
  })
})

// -------------------------------------------------------------------------------------
// forForm
// -------------------------------------------------------------------------------------

describe('forForm: a field left empty is not filled in; the wire stays strict', () => {
  const optional: ReadonlyArray<readonly [string, (v: string | null) => PaymentIntentRequestInput]> = [
    ['externalObjectIdTag', (v) => cardRequest({ externalObjectIdTag: v })],
    ['description', (v) => cardRequest({ description: v })],
    ['customer.name', (v) => cardRequest({ customer: { name: v, email: 'kari@example.no' } })],
    ['customer.email', (v) => cardRequest({ customer: { name: 'Kari', email: v } })],
    ['customer.mobilePrefix', (v) => cardRequest({ customer: { name: 'Kari', mobilePrefix: v } })],
    ['customer.mobile', (v) => cardRequest({ customer: { name: 'Kari', mobile: v } })],
    ['customer.customerType', (v) => cardRequest({ customer: { name: 'Kari', customerType: v } })],
    ['moneySplitList.0.externalID', (v) => {
      const r = cardRequest()
      return { ...r, moneySplitList: [{ ...r.moneySplitList[0], externalID: v }, ...r.moneySplitList.slice(1)] }
    }],
    ['moneySplitList.0.description', (v) => {
      const r = cardRequest()
      return { ...r, moneySplitList: [{ ...r.moneySplitList[0], description: v }, ...r.moneySplitList.slice(1)] }
    }]
  ]
  // called in each test, so that every test of this file runs (and fails) on its own
  const form = { validate: (u: unknown) => forForm(PaymentIntentRequest)['~standard'].validate(u) }

  for (const [path, withValue] of optional) {
    it(`${path}: '' and null are absent through forForm; the strict codec refuses null (and '' where the field needs text)`, () => {
      for (const empty of ['', null]) {
        const r = form.validate(withValue(empty))
        expect(r.issues, `${path} ${String(empty)}`).toBeUndefined()
        // absent in the value: the key is not there at all
        const keys = path.split('.')
        const last = keys.pop() as string
        const holder = keys.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], valueOf(r))
        expect(Object.hasOwn(holder as object, last), path).toBe(false)
        // and what the form sends is what the wire accepts
        expect(E.isRight(decodePaymentIntentRequest(valueOf(r))), path).toBe(true)
      }
      expect(schemaReasons(PaymentIntentRequest['~standard'].validate(withValue(null)).issues)).toEqual([[path, 'type']])
    })
  }

  it("on the wire '' stays wrong where the rules want text: format for email, mobile, mobilePrefix; too_short for customerType, externalObjectIdTag, externalID", () => {
    const wire = (path: string): string[][] => {
      const entry = optional.find(([p]) => p === path)
      return schemaReasons(PaymentIntentRequest['~standard'].validate(entry?.[1]('')).issues)
    }
    expect(wire('customer.email')).toEqual([['customer.email', 'format']])
    expect(wire('customer.mobile')).toEqual([['customer.mobile', 'format']])
    expect(wire('customer.mobilePrefix')).toEqual([['customer.mobilePrefix', 'format']])
    expect(wire('customer.customerType')).toEqual([['customer.customerType', 'too_short']])
    expect(wire('externalObjectIdTag')).toEqual([['externalObjectIdTag', 'too_short']])
    expect(wire('moneySplitList.0.externalID')).toEqual([['moneySplitList.0.externalID', 'too_short']])
    expect(reasons(decodePaymentIntentRequest(cardRequest({ customer: { email: '' } })))).toEqual([['customer.email', 'format']])
  })

  it("an empty required field ('', null, NaN) is required, not too_short or type", () => {
    const r = form.validate({
      ...cardRequest(),
      externalPaymentReferenceID: '',
      grossAmount: Number.NaN,
      successUrl: '',
      environment: null
    })
    expect(schemaReasons(r.issues)).toEqual([
      ['externalPaymentReferenceID', 'required'],
      ['environment', 'required'],
      ['grossAmount', 'required'],
      ['successUrl', 'required']
    ])
  })

  it('a customer with every field empty is absent; metaData is kept as given; list rows are never dropped', () => {
    const r = form.validate({ ...cardRequest(), customer: { name: '', email: '', mobile: null }, metaData: { note: '', n: null } })
    expect(r.issues).toBeUndefined()
    expect(Object.hasOwn(valueOf(r) ?? { customer: 1 }, 'customer')).toBe(false)
    expect(valueOf(r)?.metaData).toEqual({ note: '', n: null })
    const request = cardRequest()
    const rows = form.validate({ ...request, moneySplitList: [request.moneySplitList[0], { connectedAccountID: '', amount: '', isFee: false }] })
    expect(schemaReasons(rows.issues)).toEqual([
      ['moneySplitList.1.connectedAccountID', 'required'],
      ['moneySplitList.1.amount', 'required']
    ])
  })

  it('the patch, a subscription and the lone codecs read empty fields the same way', () => {
    expect(schemaReasons(forForm(MoneySplitPatch)['~standard'].validate({ moneySplitPatch: [{ splitID: '', updateType: 'UpdateAmount', newAmount: Number.NaN }], newGrossAmount: '' }).issues)).toEqual([
      ['moneySplitPatch.0.splitID', 'required'],
      ['moneySplitPatch.0.newAmount', 'required'],
      ['newGrossAmount', 'required']
    ])
    expect(schemaReasons(forForm(WebhookSubscription)['~standard'].validate({ eventType: 'Charged', url: '' }).issues)).toEqual([['url', 'required']])
    expect(valueOf(forForm(Customer)['~standard'].validate({ name: 'Kari', email: '' }))).toEqual({ name: 'Kari' })
    expect(valueOf(forForm(MoneySplitRequest)['~standard'].validate({ connectedAccountID: SELLER, amount: 5, isFee: true, externalID: '' }))).toEqual({
      connectedAccountID: SELLER,
      amount: 5,
      isFee: true
    })
  })

  it('composes with withMessages either way, and never changes its input', () => {
    const input = badForm()
    const snapshot = structuredClone(input)
    const a = withMessages(forForm(PaymentIntentRequest), nb)['~standard'].validate(input)
    const b = forForm(withMessages(PaymentIntentRequest, nb))['~standard'].validate(input)
    expect(a).toEqual(b)
    expect(input).toEqual(snapshot)
  })

  it('reads own properties only, and a hostile deep or sparse input costs no more than the codec', () => {
    const polluted = Object.prototype as Record<string, unknown>
    polluted['email'] = 'x'
    try {
      const r = form.validate({ ...cardRequest(), customer: { name: '' } })
      expect(r.issues).toBeUndefined()
      expect(Object.hasOwn(valueOf(r) ?? { customer: 1 }, 'customer')).toBe(false)
    } finally {
      Reflect.deleteProperty(polluted, 'email')
    }
    let deep: unknown = {}
    for (let i = 0; i < 100_000; i++) deep = { x: deep }
    expect(schemaReasons(form.validate({ ...cardRequest(), extra: deep, customer: deep }).issues)).toEqual([])
    const sparse: unknown[] = []
    sparse.length = 2 ** 32 - 1
    const patch = forForm(MoneySplitPatch)['~standard'].validate({ moneySplitPatch: sparse, newGrossAmount: 0 })
    expect(schemaReasons(patch.issues)).toEqual([['moneySplitPatch.0', 'required']])
    const withKey = JSON.parse('{"__proto__": {"polluted": true}, "description": ""}') as Record<string, unknown>
    expect(form.validate({ ...cardRequest(), ...withKey }).issues).toBeUndefined()
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('the form mode is not the wire: decodePaymentIntentRequest and the io-ts codec still refuse the empty fields', () => {
    const input = { ...cardRequest(), customer: { email: '' }, description: null }
    expect(E.isLeft(decodePaymentIntentRequest(input))).toBe(true)
    expect(E.isLeft(PaymentIntentRequest.decode(input))).toBe(true)
    expect(form.validate(input).issues).toBeUndefined()
  })
})

// -------------------------------------------------------------------------------------
// bundles
// -------------------------------------------------------------------------------------

describe('withMessages and forForm are shaken out of a bundle that does not use them', () => {
  const bundle = async (contents: string): Promise<string> => {
    const r = await build({
      stdin: { contents, resolveDir: new URL('../..', import.meta.url).pathname, sourcefile: 'entry.ts', loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'error'
    })
    return (r.outputFiles[0] as { readonly text: string }).text
  }
  it('importing them unused adds not one byte to decodePaymentIntentRequest alone; using them adds their code', async () => {
    const alone = await bundle("export { decodePaymentIntentRequest } from './src/codecs.ts'")
    const unused = await bundle(
      "import { forForm, withMessages } from './src/codecs.ts'\nexport { decodePaymentIntentRequest } from './src/codecs.ts'\nconst unused = [forForm, withMessages]"
    )
    expect(unused.length).toBe(alone.length)
    const used = await bundle("export { decodePaymentIntentRequest, forForm, withMessages } from './src/codecs.ts'")
    expect(used.length).toBeGreaterThan(alone.length)
  }, 60_000)
})
