/**
 * The script of the browser test's page: a payment form validated in the browser by
 * `paysplit/codecs` alone (bundled by esbuild from src, as a front-end would bundle the package).
 * On submit it builds the create request from the form as a front-end would send it (empty
 * fields left out, numbers parsed, checkboxes as booleans), decodes it, and shows every issue:
 * next to its field (`[data-error-for="<path>"]`) and in the list `#errors`
 * (`li[data-path][data-code]`), with the error's code in `#summary` and the request in `#request`.
 */
import { decodePaymentIntentRequest, limits } from 'paysplit/codecs'

const form = document.querySelector('form') as HTMLFormElement

const text = (name: string): string | undefined => {
  const el = form.elements.namedItem(name) as HTMLInputElement | null
  const v = el?.value.trim() ?? ''
  return v === '' ? undefined : v
}
const number = (name: string): number | string | undefined => {
  const v = text(name)
  if (v === undefined) return undefined
  const n = Number(v)
  return Number.isNaN(n) ? v : n
}
const checked = (name: string): boolean => (form.elements.namedItem(name) as HTMLInputElement).checked

/** Leaves out the fields that are undefined, as JSON.stringify would. */
const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

const requestFromForm = (): Record<string, unknown> => {
  const splits: Array<Record<string, unknown>> = []
  for (let i = 0; form.elements.namedItem(`moneySplitList.${String(i)}.amount`) !== null; i++) {
    splits.push(
      defined({
        connectedAccountID: text(`moneySplitList.${String(i)}.connectedAccountID`),
        amount: number(`moneySplitList.${String(i)}.amount`),
        description: text(`moneySplitList.${String(i)}.description`),
        isFee: checked(`moneySplitList.${String(i)}.isFee`)
      })
    )
  }
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
    grossAmount: number('grossAmount'),
    currency: text('currency'),
    moneySplitList: splits,
    customerExternalID: text('customerExternalID'),
    customer: Object.keys(customer).length === 0 ? undefined : customer,
    successUrl: text('successUrl'),
    failedUrl: text('failedUrl')
  })
}

// the limits of the codecs, as a form would use them
for (const input of Array.from(form.querySelectorAll<HTMLInputElement>('input[type="text"]'))) {
  input.maxLength = input.name.endsWith('Url') ? limits.urlLength : limits.descriptionLength
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  for (const el of Array.from(document.querySelectorAll('[data-error-for]'))) el.textContent = ''
  const list = document.getElementById('errors') as HTMLUListElement
  list.replaceChildren()
  const request = requestFromForm()
  ;(document.getElementById('request') as HTMLElement).textContent = JSON.stringify(request)
  const decoded = decodePaymentIntentRequest(request)
  const summary = document.getElementById('summary') as HTMLElement
  if (decoded._tag === 'Right') {
    summary.textContent = 'valid'
    return
  }
  summary.textContent = decoded.left.code
  for (const issue of decoded.left.issues ?? []) {
    const li = document.createElement('li')
    li.dataset['path'] = issue.path
    li.dataset['code'] = issue.code
    li.textContent = issue.message
    list.append(li)
    const next = document.querySelector(`[data-error-for="${CSS.escape(issue.path)}"]`)
    if (next !== null) next.textContent = next.textContent === '' ? issue.message : `${next.textContent} ${issue.message}`
  }
})

document.body.dataset['ready'] = 'true'
