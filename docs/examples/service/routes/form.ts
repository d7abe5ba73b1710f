/**
 * The hosted payment form: `GET /pay/{id}` shows the payment (amount, currency, description,
 * splits) with Pay and Cancel buttons, a plain HTML form that works without JavaScript;
 * `POST /pay/{id}/complete` and `/fail` run the form's operation in one transaction and answer
 * 303 See Other to where paysplit says the customer goes (docs/http.md, the payment form).
 *
 * Reachable by the payment's id alone (a random UUID, 122 bits): the customer has no API key
 * (docs/decisions.md, "The reference service").
 */
import * as E from 'fp-ts/lib/Either.js'
import type { IncomingMessage } from 'node:http'
import type { Payment } from '../../../../src/index.js'
import { noKeys } from '../db/store.js'
import { readBody, UUID, type Reply } from '../http.js'
import type { FormOutcome } from '../paysplit.js'
import { runTransaction } from '../transaction.js'
import type { Deps } from './context.js'

const escape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** Minor units as the currency's major unit with two decimals (every accepted currency has them). */
const money = (amount: number, currency: string): string =>
  `${Math.floor(amount / 100).toLocaleString('en-US').replace(/,/g, '\u202f')}.${String(amount % 100).padStart(2, '0')} ${currency}`

const page = (title: string, main: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; margin: 0; padding: 2rem 1rem; color: #1d2330; }
  main { max-width: 28rem; margin: 0 auto; background: #fff; border-radius: 12px; padding: 1.5rem 1.75rem; box-shadow: 0 2px 12px #0001; }
  h1 { font-size: 1.1rem; margin: 0 0 .25rem; color: #5a6272; font-weight: 500; }
  .amount { font-size: 2rem; font-weight: 700; margin: 0 0 1rem; }
  table { width: 100%; border-collapse: collapse; margin: 0 0 1.25rem; font-size: .95rem; }
  th, td { text-align: left; padding: .35rem 0; border-bottom: 1px solid #e6e8ec; }
  td.n, th.n { text-align: right; }
  .buttons { display: flex; gap: .75rem; }
  button { flex: 1; font: inherit; padding: .7rem; border-radius: 8px; border: 1px solid #c5cad3; background: #fff; cursor: pointer; }
  button.pay { background: #1b5fd1; border-color: #1b5fd1; color: #fff; font-weight: 600; }
  .status { color: #5a6272; }
</style>
</head>
<body><main>${main}</main></body>
</html>
`

/** The form page of a payment. */
export const formPage = (p: Payment): string => {
  const rows = p.moneySplits
    .map((s) => `<tr><td>${escape(s.description ?? (s.isFee ? 'Fee' : 'Item'))}</td><td class="n">${escape(money(s.amount, p.currency))}</td></tr>`)
    .join('\n')
  const payable = p.kind === 'card' && p.status === 'Initiated'
  const id = escape(p.paymentReferenceID)
  const actions = payable
    ? `<div class="buttons">
  <form method="post" action="/pay/${id}/fail"><input type="hidden" name="reason" value="cancelled by the customer"><button type="submit" name="cancel">Cancel</button></form>
  <form method="post" action="/pay/${id}/complete" style="flex:2;display:flex"><button class="pay" type="submit" name="pay">Pay ${escape(money(p.grossAmount, p.currency))}</button></form>
</div>`
    : `<p class="status">${p.kind === 'invoice' ? 'This is an invoice: pay it by bank transfer with its KID.' : `This payment is ${escape(p.status)}.`}</p>`
  return page(
    `Pay ${money(p.grossAmount, p.currency)}`,
    `<h1>${escape(p.description ?? 'Payment')}</h1>
<p class="amount">${escape(money(p.grossAmount, p.currency))}</p>
<table><thead><tr><th>Split</th><th class="n">Amount</th></tr></thead><tbody>
${rows}
</tbody></table>
${actions}`
  )
}

const notFound: Reply = { status: 404, html: page('Not found', '<h1>Not found</h1><p>There is no such payment.</p>') }

/** `GET /pay/{id}`. */
export const showForm = async (deps: Deps, id: string): Promise<Reply> => {
  if (!UUID.test(id)) return notFound
  const rows = await deps.db.query<{ state: unknown }>('SELECT state FROM payments WHERE payment_reference_id = $1', [id.toLowerCase()])
  const row = rows.rows[0]
  if (row === undefined) return notFound
  const p = deps.rules.storedPayment(row.state)
  if (E.isLeft(p)) return { status: 500, html: page('Error', '<h1>This payment cannot be shown.</h1>') }
  return { status: 200, html: formPage(p.right), headers: { 'cache-control': 'no-store' } }
}

/** `POST /pay/{id}/complete` or `/fail`. */
export const submitForm = async (deps: Deps, req: IncomingMessage, id: string, action: 'complete' | 'fail'): Promise<Reply> => {
  const read = await readBody(req, 4096)
  if (!UUID.test(id)) return notFound
  const reasonField = read.kind === 'ok' ? new URLSearchParams(read.text).get('reason') : null
  const reason = reasonField === null || reasonField === '' ? undefined : reasonField.slice(0, 200)
  const catchAll = deps.config.catchAllUrl !== undefined ? { catchAllUrl: deps.config.catchAllUrl } : {}
  const outcome = await runTransaction<FormOutcome[3]>(
    deps.db,
    {
      keys: { ...noKeys, paymentReferenceIDs: [id] },
      lock: true,
      lockCustomers: false,
      run: (world) => {
        const at = deps.now()
        const [after, , deliveries, redirectUrl, events] =
          action === 'complete'
            ? deps.rules.completeForm(world, id, { at, ...catchAll })
            : deps.rules.failForm(world, id, { at, ...catchAll, ...(reason !== undefined ? { reason } : {}) })
        return { world: after, result: redirectUrl, deliveries, events }
      }
    },
    { attempts: deps.config.maxTransactionAttempts, retryDuplicateKid: false, rules: deps.rules }
  )
  if (outcome.kind !== 'done') return { status: 409, html: page('Busy', '<h1>Please try again.</h1>') }
  if (outcome.deliveries > 0) deps.outboxWritten()
  if (outcome.result === undefined) return notFound
  return { status: 303, headers: { location: outcome.result }, html: '' }
}
