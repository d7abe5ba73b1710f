/**
 * The checkout page (index.html beside this file): builds a payment-intent request with money
 * splits and validates it as the user types with `paysplit/codecs` alone, showing each message
 * beside its field in Norwegian Bokmål or English. Bundled for the browser by esbuild
 * (`npm run checkout` serves it; test/browser/checkout.browser.ts drives it in Chromium).
 *
 * Every input is named by the path of its field in the request (`moneySplitList.1.amount`), and
 * every message holder by the same path (`data-error-for`), so the issues of the codec land
 * beside their fields with no mapping table: `flattenIssues(issues, catalog)` gives
 * `{ [path]: messages[] }`. Pay sends the request to the shop's back end (serve.ts), which creates
 * the payment at the payments service (`npx paysplit-check mock` in development) and sends the
 * customer to its hosted form.
 */
import {
  currencyCodes,
  decodePaymentIntentRequest,
  en,
  flattenIssues,
  limits,
  nb,
  type Messages,
  type PaymentIntentRequestInput
} from 'paysplit/codecs'

type Language = 'en' | 'nb'

const catalogs: Readonly<Record<Language, Messages>> = { en, nb }

/** The page's own words (the messages come from the catalogs). */
const words: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
  en: {
    title: 'Checkout',
    payment: 'Payment',
    externalPaymentReferenceID: 'Order reference',
    description: 'Description',
    grossAmount: 'Amount (minor units)',
    currency: 'Currency',
    paymentGateway: 'Payment method',
    creditcard: 'Card',
    invoice: 'Invoice',
    sellerConnectedAccountID: 'Seller account',
    environment: 'Environment',
    chargeImmediately: 'Charge at once',
    splits: 'Splits',
    connectedAccountID: 'Account',
    amount: 'Amount',
    splitDescription: 'Description',
    isFee: 'Fee',
    addSplit: '+ Add split',
    customer: 'Customer',
    customerExternalID: 'Customer ID',
    'customer.name': 'Name',
    'customer.email': 'E-mail',
    'customer.mobilePrefix': 'Country code',
    'customer.mobile': 'Mobile',
    return: 'After payment',
    successUrl: 'Return to (paid)',
    failedUrl: 'Return to (failed)',
    pay: 'Pay',
    request: 'Request body',
    valid: 'Ready to pay.',
    invalid: 'Problems to fix: {n}.',
    sum: 'Sum of splits: {sum}',
    remove: 'Remove'
  },
  nb: {
    title: 'Betaling',
    payment: 'Betaling',
    externalPaymentReferenceID: 'Ordrereferanse',
    description: 'Beskrivelse',
    grossAmount: 'Beløp (øre)',
    currency: 'Valuta',
    paymentGateway: 'Betalingsmåte',
    creditcard: 'Kort',
    invoice: 'Faktura',
    sellerConnectedAccountID: 'Selgers konto',
    environment: 'Miljø',
    chargeImmediately: 'Trekk med en gang',
    splits: 'Fordeling',
    connectedAccountID: 'Konto',
    amount: 'Beløp',
    splitDescription: 'Beskrivelse',
    isFee: 'Gebyr',
    addSplit: '+ Legg til linje',
    customer: 'Kunde',
    customerExternalID: 'Kunde-ID',
    'customer.name': 'Navn',
    'customer.email': 'E-post',
    'customer.mobilePrefix': 'Landskode',
    'customer.mobile': 'Mobil',
    return: 'Etter betaling',
    successUrl: 'Tilbake til (betalt)',
    failedUrl: 'Tilbake til (feilet)',
    pay: 'Betal',
    request: 'Forespørsel',
    valid: 'Klar til betaling.',
    invalid: 'Feil å rette: {n}.',
    sum: 'Sum av linjene: {sum}',
    remove: 'Fjern'
  }
}

const form = document.getElementById('checkout') as HTMLFormElement
const splitsBody = document.getElementById('splits') as HTMLTableSectionElement
const rowTemplate = document.getElementById('split-row') as HTMLTemplateElement

let language: Language = document.documentElement.lang === 'nb' ? 'nb' : 'en'

// -------------------------------------------------------------------------------------
// the form → the request, as a front-end sends it
// -------------------------------------------------------------------------------------

const input = (name: string): HTMLInputElement | HTMLSelectElement | null =>
  form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${CSS.escape(name)}"]`)

/** A text field's value; left out (undefined) when empty. */
const text = (name: string): string | undefined => {
  const v = input(name)?.value.trim() ?? ''
  return v === '' ? undefined : v
}

/** A number field: a number when the text is one, else the text itself (the codec says why not). */
const amount = (name: string): number | string | undefined => {
  const v = text(name)
  if (v === undefined) return undefined
  const n = Number(v)
  return Number.isNaN(n) ? v : n
}

const checked = (name: string): boolean => (input(name) as HTMLInputElement | null)?.checked ?? false

/** Leaves out the fields that are undefined, as JSON.stringify would. */
const defined = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T

const requestFromForm = (): PaymentIntentRequestInput => {
  const rows = splitsBody.rows.length
  const customer = defined({
    name: text('customer.name'),
    email: text('customer.email'),
    mobilePrefix: text('customer.mobilePrefix'),
    mobile: text('customer.mobile')
  })
  return defined({
    externalPaymentReferenceID: text('externalPaymentReferenceID'),
    environment: text('environment'),
    paymentGateway: text('paymentGateway'),
    chargeImmediately: checked('chargeImmediately'),
    sellerConnectedAccountID: text('sellerConnectedAccountID'),
    description: text('description'),
    grossAmount: amount('grossAmount'),
    currency: text('currency'),
    moneySplitList: Array.from({ length: rows }, (_, i) =>
      defined({
        connectedAccountID: text(`moneySplitList.${String(i)}.connectedAccountID`),
        amount: amount(`moneySplitList.${String(i)}.amount`),
        description: text(`moneySplitList.${String(i)}.description`),
        isFee: checked(`moneySplitList.${String(i)}.isFee`)
      })
    ),
    customerExternalID: text('customerExternalID'),
    customer: Object.keys(customer).length === 0 ? undefined : customer,
    successUrl: text('successUrl'),
    failedUrl: text('failedUrl')
  })
}

// -------------------------------------------------------------------------------------
// validation, as the user types
// -------------------------------------------------------------------------------------

const validate = (): void => {
  const request = requestFromForm()
  ;(document.getElementById('request') as HTMLElement).textContent = JSON.stringify(request, null, 2)
  const decoded = decodePaymentIntentRequest(request)
  const issues = decoded._tag === 'Left' ? (decoded.left.issues ?? []) : []
  const byPath = flattenIssues(issues, catalogs[language])

  const shown = new Set<string>()
  for (const holder of Array.from(form.querySelectorAll<HTMLElement>('[data-error-for]'))) {
    const path = holder.dataset['errorFor'] ?? ''
    const messages = byPath[path] ?? []
    holder.textContent = messages.join(' ')
    input(path)?.setAttribute('aria-invalid', String(messages.length > 0))
    if (messages.length > 0) shown.add(path)
  }
  // issues with no field of their own (the body itself, metaData…) are listed below the form
  const other = document.getElementById('other-errors') as HTMLUListElement
  other.replaceChildren(
    ...Object.entries(byPath)
      .filter(([path]) => !shown.has(path))
      .map(([path, messages]) => {
        const li = document.createElement('li')
        li.dataset['path'] = path
        li.textContent = `${path === '' ? '—' : path}: ${messages.join(' ')}`
        return li
      })
  )

  const status = document.getElementById('status') as HTMLElement
  status.dataset['valid'] = String(issues.length === 0)
  status.textContent =
    issues.length === 0 ? (words[language]['valid'] ?? '') : (words[language]['invalid'] ?? '').replace('{n}', String(issues.length))
  ;(document.getElementById('pay') as HTMLButtonElement).disabled = issues.length > 0

  const sum = request.moneySplitList?.reduce<number>((s, x) => s + (typeof x.amount === 'number' ? x.amount : 0), 0) ?? 0
  ;(document.getElementById('sum') as HTMLElement).textContent = (words[language]['sum'] ?? '').replace('{sum}', String(sum))
}

// -------------------------------------------------------------------------------------
// split rows
// -------------------------------------------------------------------------------------

/** Names every field of every row by its path, after a row came or went. */
const renumber = (): void => {
  Array.from(splitsBody.rows).forEach((row, i) => {
    for (const el of Array.from(row.querySelectorAll<HTMLInputElement>('[data-field]'))) {
      el.name = `moneySplitList.${String(i)}.${el.dataset['field'] ?? ''}`
    }
    for (const el of Array.from(row.querySelectorAll<HTMLElement>('[data-error-field]'))) {
      el.dataset['errorFor'] = `moneySplitList.${String(i)}.${el.dataset['errorField'] ?? ''}`
    }
  })
}

interface SplitValues {
  readonly connectedAccountID?: string
  readonly amount?: string
  readonly description?: string
  readonly isFee?: boolean
}

const addSplit = (values: SplitValues = {}): void => {
  const row = (rowTemplate.content.cloneNode(true) as DocumentFragment).firstElementChild as HTMLTableRowElement
  const field = (name: string): HTMLInputElement => row.querySelector(`[data-field="${name}"]`) as HTMLInputElement
  field('connectedAccountID').value = values.connectedAccountID ?? ''
  field('amount').value = values.amount ?? ''
  field('description').value = values.description ?? ''
  field('isFee').checked = values.isFee ?? false
  const remove = row.querySelector('button.remove') as HTMLButtonElement
  remove.addEventListener('click', () => {
    row.remove()
    renumber()
    validate()
  })
  splitsBody.append(row)
  renumber()
}

// -------------------------------------------------------------------------------------
// language
// -------------------------------------------------------------------------------------

const setLanguage = (next: Language): void => {
  language = next
  document.documentElement.lang = next
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-i18n]'))) {
    el.textContent = words[next][el.dataset['i18n'] ?? ''] ?? el.textContent
  }
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>('button.remove'))) b.ariaLabel = words[next]['remove'] ?? ''
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>('[data-lang]'))) {
    b.setAttribute('aria-pressed', String(b.dataset['lang'] === next))
  }
  validate()
}

// -------------------------------------------------------------------------------------
// start
// -------------------------------------------------------------------------------------

const currency = input('currency') as HTMLSelectElement
currency.append(...currencyCodes.map((code) => new Option(code, code, code === 'NOK', code === 'NOK')))

// the limits of the codecs, as a form uses them
for (const el of Array.from(form.querySelectorAll<HTMLInputElement>('input:not([type="checkbox"])'))) {
  el.maxLength = /Url$/.test(el.name) ? limits.urlLength : limits.descriptionLength
}

addSplit({ connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount: '90000', description: 'Tickets' })
addSplit({ connectedAccountID: '11111111-2222-4333-8444-555555555555', amount: '10000', description: 'Platform fee', isFee: true })

;(document.getElementById('add-split') as HTMLButtonElement).addEventListener('click', () => {
  addSplit()
  validate()
})
form.addEventListener('input', validate)
form.addEventListener('change', validate)
// Pay: the request to the shop's back end (serve.ts), which creates the payment at the payments
// service (the mock, in development) and answers with its hosted form, where the customer pays
form.addEventListener('submit', (event) => {
  event.preventDefault()
  validate()
  if ((document.getElementById('pay') as HTMLButtonElement).disabled) return
  const status = document.getElementById('status') as HTMLElement
  void fetch('/api/payments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(requestFromForm()) })
    .then(async (res) => {
      const answer = (await res.json()) as { formUrl?: string; error?: unknown }
      if (answer.formUrl !== undefined) window.location.assign(answer.formUrl)
      else status.textContent = `${String(res.status)}: ${JSON.stringify(answer.error ?? answer)}`
    })
    .catch(() => {
      status.textContent = 'The shop did not answer.'
    })
})
for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>('[data-lang]'))) {
  b.addEventListener('click', () => {
    setLanguage(b.dataset['lang'] === 'nb' ? 'nb' : 'en')
  })
}

setLanguage(language)
document.body.dataset['ready'] = 'true'
