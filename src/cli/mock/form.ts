/**
 * The mock's hosted payment form: `GET /pay/{id}` shows the payment with Pay and Cancel, each a
 * plain HTML form posting to `/pay/{id}/complete` and `/pay/{id}/fail` (the reference service's
 * paths); an invoice, or a payment past its form, shows its status and no buttons. The mock's
 * card gateway approves every payment, test or production: it moves no money.
 *
 * @module cli/mock/form
 */
import type { Payment } from './world.js'

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** Minor units as the major unit with two decimals. */
const money = (amount: number, currency: string): string => `${Math.floor(amount / 100).toLocaleString('en-US')}.${String(amount % 100).padStart(2, '0')} ${currency}`

/** A whole page. */
export const page = (title: string, main: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}table{width:100%;border-collapse:collapse}td{padding:.25rem 0;border-bottom:1px solid #ddd}.n{text-align:right}.mock{background:#fff6db;padding:.5rem .75rem;border-radius:6px}.buttons{display:flex;gap:.75rem;margin-top:1rem}button{font:inherit;padding:.6rem 1rem}</style>
</head>
<body><main>${main}</main></body>
</html>
`

/** The page of a payment. */
export const formPage = (p: Payment): string => {
  const id = encodeURIComponent(p.paymentReferenceID)
  const rows = p.moneySplits
    .map((s) => `<tr><td>${escape(s.description ?? (s.isFee ? 'Fee' : 'Item'))}</td><td class="n">${escape(money(s.amount, p.currency))}</td></tr>`)
    .join('\n')
  const payable = p.kind === 'card' && p.status === 'Initiated'
  const actions = payable
    ? `<div class="buttons">
<form method="post" action="/pay/${id}/complete"><button type="submit" name="pay">Pay ${escape(money(p.grossAmount, p.currency))}</button></form>
<form method="post" action="/pay/${id}/fail"><input type="hidden" name="reason" value="cancelled by the customer"><button type="submit" name="cancel">Cancel</button></form>
</div>`
    : `<p>${p.kind === 'invoice' ? 'This is an invoice: it is paid by bank transfer with its KID.' : `This payment is ${escape(p.status)}.`}</p>`
  return page(
    `Pay ${money(p.grossAmount, p.currency)}`,
    `<p class="mock">paysplit mock: no card is charged; Pay always succeeds.</p>
<h1>${escape(p.description ?? 'Payment')}</h1>
<p><strong>${escape(money(p.grossAmount, p.currency))}</strong> · ${escape(p.environment)} · ${escape(p.status)}</p>
<table>${rows}</table>
${actions}`
  )
}

/** The page for an id no payment has. */
export const notFoundPage = (): string => page('Not found', '<h1>Not found</h1><p>There is no such payment.</p>')
