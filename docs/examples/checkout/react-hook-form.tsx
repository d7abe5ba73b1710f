/**
 * The checkout form with React Hook Form 7 (react-hook-form.html beside this file), in Norwegian:
 * `standardSchemaResolver(withMessages(forForm(PaymentIntentRequest), nb))` is its whole
 * validation (docs/forms.md). Every field error stands beside its field in Norwegian Bokmål; an
 * optional field left empty (e-mail, mobile, a split's description) is left out of the request;
 * a valid form shows the request it would send. Bundled for the browser by esbuild with React
 * (`npm run checkout` serves it on /react-hook-form; test/browser/checkout.browser.ts drives it in
 * Chromium and saves docs/forms-nb.png).
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import type { ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { useFieldArray, useForm, type FieldErrors } from 'react-hook-form'
import {
  forForm,
  nb,
  PaymentIntentRequest,
  withMessages,
  type PaymentIntentRequestInput
} from 'paysplit/codecs'

const schema = withMessages(forForm(PaymentIntentRequest), nb)

/** The message of the field at `path` (a list's own message at `<path>.root`, as React Hook Form keeps it). */
const messageAt = (errors: FieldErrors<PaymentIntentRequestInput>, path: string): string | undefined => {
  const at = (keys: string): { readonly message?: string } | undefined =>
    keys.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], errors) as { readonly message?: string } | undefined
  return at(`${path}.root`)?.message ?? at(path)?.message
}

const ErrorFor = ({ errors, path }: { readonly errors: FieldErrors<PaymentIntentRequestInput>; readonly path: string }) => {
  const message = messageAt(errors, path)
  return (
    <p className="error" data-error-for={path} role={message === undefined ? undefined : 'alert'}>
      {message ?? ''}
    </p>
  )
}

/** A labelled field and, below it, its message. */
const Field = ({
  label,
  path,
  errors,
  children
}: {
  readonly label: string
  readonly path: string
  readonly errors: FieldErrors<PaymentIntentRequestInput>
  readonly children: ReactNode
}) => (
  <div className="field">
    <label>
      {label} {children}
    </label>
    <ErrorFor errors={errors} path={path} />
  </div>
)

const defaultValues: PaymentIntentRequestInput = {
  externalPaymentReferenceID: 'ordre-1001',
  environment: 'test',
  paymentGateway: 'creditcard',
  chargeImmediately: true,
  sellerConnectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  description: '',
  grossAmount: 100000,
  currency: 'NOK',
  moneySplitList: [
    { connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount: 90000, isFee: false, description: 'Billetter', externalID: '' },
    { connectedAccountID: '11111111-2222-4333-8444-555555555555', amount: 10000, isFee: true, description: '', externalID: '' }
  ],
  customerExternalID: 'kunde-42',
  customer: { name: 'Kari Nordmann', email: 'kari@example.no', mobilePrefix: '', mobile: '' },
  successUrl: 'https://butikk.example.no/betalt',
  failedUrl: 'https://butikk.example.no/feilet'
}

const Checkout = () => {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitted }
  } = useForm<PaymentIntentRequestInput, unknown, PaymentIntentRequest>({
    resolver: standardSchemaResolver(schema),
    defaultValues
  })
  const splits = useFieldArray({ control, name: 'moneySplitList' })
  const show = (request: PaymentIntentRequest | undefined): void => {
    const status = document.getElementById('status') as HTMLElement
    status.dataset['valid'] = String(request !== undefined)
    status.textContent = request === undefined ? 'Skjemaet har feil.' : 'Klar til betaling.'
    ;(document.getElementById('request') as HTMLElement).textContent = request === undefined ? '' : JSON.stringify(request, null, 2)
  }
  const number = { valueAsNumber: true } as const
  return (
    <form
      id="checkout"
      noValidate
      onSubmit={(e) => {
        void handleSubmit(
          (request) => {
            show(request)
          },
          () => {
            show(undefined)
          }
        )(e)
      }}
    >
      <fieldset>
        <legend>Betaling</legend>
        <Field label="Ordrereferanse" path="externalPaymentReferenceID" errors={errors}>
          <input {...register('externalPaymentReferenceID')} />
        </Field>
        <Field label="Beskrivelse (valgfritt)" path="description" errors={errors}>
          <input {...register('description')} />
        </Field>
        <Field label="Beløp (øre)" path="grossAmount" errors={errors}>
          <input type="number" {...register('grossAmount', number)} />
        </Field>
        <Field label="Valuta" path="currency" errors={errors}>
          <select {...register('currency')}>
            <option>NOK</option>
            <option>SEK</option>
            <option>EUR</option>
            <option>JPY</option>
          </select>
        </Field>
        <Field label="Selgers konto" path="sellerConnectedAccountID" errors={errors}>
          <input {...register('sellerConnectedAccountID')} />
        </Field>
      </fieldset>
      <fieldset>
        <legend>Fordeling</legend>
        {splits.fields.map((field, i) => (
          <div className="split" key={field.id}>
            <Field label="Konto" path={`moneySplitList.${String(i)}.connectedAccountID`} errors={errors}>
              <input {...register(`moneySplitList.${i}.connectedAccountID`)} />
            </Field>
            <Field label="Beløp" path={`moneySplitList.${String(i)}.amount`} errors={errors}>
              <input type="number" {...register(`moneySplitList.${i}.amount`, number)} />
            </Field>
            <div className="field">
              <label>
                Beskrivelse (valgfritt) <input {...register(`moneySplitList.${i}.description`)} />
              </label>
            </div>
            <label className="check">
              <input type="checkbox" {...register(`moneySplitList.${i}.isFee`)} /> Gebyr
            </label>
            <button
              type="button"
              className="remove"
              onClick={() => {
                splits.remove(i)
              }}
            >
              Fjern
            </button>
          </div>
        ))}
        <div className="list-error">
          <ErrorFor errors={errors} path="moneySplitList" />
        </div>
        <button
          type="button"
          id="add-split"
          onClick={() => {
            splits.append({ connectedAccountID: '', amount: Number.NaN, isFee: false, description: '', externalID: '' })
          }}
        >
          + Legg til linje
        </button>
      </fieldset>
      <fieldset>
        <legend>Kunde</legend>
        <Field label="Kunde-ID" path="customerExternalID" errors={errors}>
          <input {...register('customerExternalID')} />
        </Field>
        <div className="field">
          <label>
            Navn (valgfritt) <input {...register('customer.name')} />
          </label>
        </div>
        <Field label="E-post (valgfritt)" path="customer.email" errors={errors}>
          <input type="email" {...register('customer.email')} />
        </Field>
        <Field label="Landskode (valgfritt)" path="customer.mobilePrefix" errors={errors}>
          <input {...register('customer.mobilePrefix')} />
        </Field>
        <Field label="Mobil (valgfritt)" path="customer.mobile" errors={errors}>
          <input {...register('customer.mobile')} />
        </Field>
      </fieldset>
      <fieldset>
        <legend>Etter betaling</legend>
        <Field label="Tilbake til (betalt)" path="successUrl" errors={errors}>
          <input {...register('successUrl')} />
        </Field>
        <Field label="Tilbake til (feilet)" path="failedUrl" errors={errors}>
          <input {...register('failedUrl')} />
        </Field>
      </fieldset>
      <button type="submit" id="pay">
        Betal
      </button>
      <p id="status" data-submitted={String(isSubmitted)} />
    </form>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(<Checkout />)
document.body.dataset['ready'] = 'true'
