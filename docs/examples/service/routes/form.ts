/**
 * The hosted payment form: `GET /pay/{id}` shows the payment (amount, currency, description,
 * splits) with Pay and Cancel buttons, a plain HTML form that works without JavaScript;
 * `POST /pay/{id}/complete` and `/fail` run the form's operation in one transaction and answer
 * 303 See Other to where paysplit says the customer goes (docs/http.md, the payment form).
 *
 * The page is reached by the payment's id (a random UUID, 122 bits): the customer has no API key
 * (docs/decisions.md, "The reference service"). Its actions need more than the id
 * (docs/decisions.md, "The hosted form's actions"):
 * - a token issued with the page: HMAC-SHA256 (node:crypto) of the payment id, the action and an
 *   expiry, keyed by FORM_SECRET; missing, forged, expired, or another payment's or action's → 403;
 * - a post from another site (Sec-Fetch-Site other than same-origin, or an Origin of another host)
 *   → 403, whatever the token;
 * - Pay goes through a card gateway (./gateway.ts): the simulator for test payments; a live
 *   payment without a configured live gateway is refused (503), the page says so.
 * Every answer carries security headers: a CSP without inline script (the one inline style is
 * hashed), `frame-ancestors 'none'`, `no-store`, `nosniff`, `Referrer-Policy: same-origin`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Payment } from 'paysplit'
import { noKeys } from '../db/store.js'
import { readBody, UUID, type Reply } from '../http.js'
import type { FormOutcome } from '../paysplit.js'
import { storableText } from '../text.js'
import { runTransaction } from '../transaction.js'
import type { Deps } from './context.js'
import { cardPaymentRequest, gatewayFor, type CardPaymentOutcome } from './gateway.js'

const escape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** Minor units as the currency's major unit with two decimals (every accepted currency has them). */
const money = (amount: number, currency: string): string =>
  `${Math.floor(amount / 100).toLocaleString('en-US').replace(/,/g, '\u202f')}.${String(amount % 100).padStart(2, '0')} ${currency}`

const STYLE = `
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
  .notice { background: #fff6db; border-radius: 8px; padding: .5rem .75rem; font-size: .9rem; }
  form.pay { flex: 2; display: flex; }
`

/** The CSP hash of the one inline style: no 'unsafe-inline'. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`

const page = (title: string, main: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>${main}</main></body>
</html>
`

/** An origin as a CSP source, when it is a plain one (a host of letters, digits, dots and dashes, or an IPv6 literal). */
const cspOrigin = (url: string): string | undefined => {
  try {
    const origin = new URL(url).origin
    return /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/.test(origin) ? origin : undefined
  } catch {
    return undefined
  }
}

/**
 * The headers of every answer of the form: no script at all, the inline style by its hash, forms
 * posted only here (and redirected only to the payment's own success and failure pages), never
 * framed, never cached, never sniffed, no referrer to other sites (the page's URL holds the id).
 */
export const securityHeaders = (p?: Pick<Payment, 'successUrl' | 'failedUrl'>): Readonly<Record<string, string>> => {
  const targets = p === undefined ? [] : [...new Set([p.successUrl, p.failedUrl].map(cspOrigin).filter((o): o is string => o !== undefined))]
  return {
    'content-security-policy': [
      "default-src 'none'",
      `style-src ${STYLE_HASH}`,
      `form-action 'self'${targets.map((t) => ` ${t}`).join('')}`,
      "frame-ancestors 'none'",
      "base-uri 'none'"
    ].join('; '),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin'
  }
}

// -------------------------------------------------------------------------------------
// action tokens
// -------------------------------------------------------------------------------------

/** The form's two actions. */
export type FormAction = 'complete' | 'fail'

const mac = (secret: string, id: string, action: FormAction, expires: number): Buffer =>
  createHmac('sha256', secret).update(`paysplit-form-v1\n${id.toLowerCase()}\n${action}\n${String(expires)}`, 'utf8').digest()

/** A token for `action` on payment `id`, valid until `expires` (Unix seconds): `v1.<expires>.<HMAC, base64url>`. */
export const formToken = (secret: string, id: string, action: FormAction, expires: number): string =>
  `v1.${String(expires)}.${mac(secret, id, action, expires).toString('base64url')}`

/** Why a token does not allow `action` on `id` at `nowMs`, or undefined when it does. */
export const tokenRefusal = (secret: string, token: string | null, id: string, action: FormAction, nowMs: number): 'missing' | 'malformed' | 'forged' | 'expired' | undefined => {
  if (token === null || token === '') return 'missing'
  const m = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (m === null) return 'malformed'
  const expires = Number(m[1])
  const given = Buffer.from(m[2] ?? '', 'base64url')
  const expected = mac(secret, id, action, expires)
  // constant time; another payment's or another action's token is forged as far as this one goes
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged'
  if (expires * 1000 <= nowMs) return 'expired'
  return undefined
}

/**
 * Why a post looks sent by another site, or undefined. A browser says where a form post comes
 * from: `Sec-Fetch-Site` (every current browser) must be `same-origin`; without it, an `Origin`
 * must name this host. A client that sends neither is no browser on another site's page: the
 * token alone decides.
 */
export const crossSiteRefusal = (headers: IncomingHttpHeaders): string | undefined => {
  const site = headers['sec-fetch-site']
  if (typeof site === 'string') return site === 'same-origin' ? undefined : `Sec-Fetch-Site ${site}`
  const origin = headers.origin
  if (typeof origin !== 'string') return undefined
  try {
    if (origin !== 'null' && new URL(origin).host === headers.host) return undefined
  } catch {
    // not an origin: refused below
  }
  return 'an Origin of another site'
}

/** What the page may offer: Pay (with the gateway's name), or why not. */
type Offer = { readonly pay: true; readonly test: boolean } | { readonly pay: false; readonly why: string }

/** The form page of a payment, its action tokens valid until `expires` (Unix seconds). */
export const formPage = (p: Payment, offer: Offer, tokens: Readonly<Record<FormAction, string>>): string => {
  const rows = p.moneySplits
    .map((s) => `<tr><td>${escape(s.description ?? (s.isFee ? 'Fee' : 'Item'))}</td><td class="n">${escape(money(s.amount, p.currency))}</td></tr>`)
    .join('\n')
  const payable = p.kind === 'card' && p.status === 'Initiated'
  const id = escape(p.paymentReferenceID)
  const cancel = `<form method="post" action="/pay/${id}/fail"><input type="hidden" name="token" value="${escape(tokens.fail)}"><input type="hidden" name="reason" value="cancelled by the customer"><button type="submit" name="cancel">Cancel</button></form>`
  const actions = !payable
    ? `<p class="status">${p.kind === 'invoice' ? 'This is an invoice: pay it by bank transfer with its KID.' : `This payment is ${escape(p.status)}.`}</p>`
    : offer.pay
      ? `${offer.test ? '<p class="notice">Test payment: the simulated card gateway approves it; no card is charged.</p>\n' : ''}<div class="buttons">
  ${cancel}
  <form class="pay" method="post" action="/pay/${id}/complete"><input type="hidden" name="token" value="${escape(tokens.complete)}"><button class="pay" type="submit" name="pay">Pay ${escape(money(p.grossAmount, p.currency))}</button></form>
</div>`
      : `<p class="notice">${escape(offer.why)}</p>
<div class="buttons">
  ${cancel}
</div>`
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

const answer = (status: number, title: string, main: string, p?: Payment): Reply => ({ status, html: page(title, main), headers: securityHeaders(p) })

const notFound: Reply = answer(404, 'Not found', '<h1>Not found</h1><p>There is no such payment.</p>')

/** Live payments without a live gateway: what the page says, and why Pay is refused. */
export const NO_LIVE_GATEWAY = 'Card payments are not available for this payment: this service has no live card gateway configured. Nothing was charged.'

const offerOf = (deps: Deps, p: Payment): Offer => {
  const gateway = gatewayFor(p, deps.liveCardGateway)
  return gateway === undefined ? { pay: false, why: NO_LIVE_GATEWAY } : { pay: true, test: p.environment === 'test' }
}

const readPayment = async (deps: Deps, id: string): Promise<E.Either<Reply, Payment>> => {
  const rows = await deps.db.query<{ state: unknown }>('SELECT state FROM payments WHERE payment_reference_id = $1', [id.toLowerCase()])
  const row = rows.rows[0]
  if (row === undefined) return E.left(notFound)
  const p = deps.rules.storedPayment(row.state)
  return E.isLeft(p) ? E.left(answer(500, 'Error', '<h1>This payment cannot be shown.</h1>')) : E.right(p.right)
}

/** `GET /pay/{id}`: the page, with tokens for its two actions. */
export const showForm = async (deps: Deps, id: string): Promise<Reply> => {
  if (!UUID.test(id)) return notFound
  const read = await readPayment(deps, id)
  if (E.isLeft(read)) return read.left
  const p = read.right
  const expires = Math.floor((Date.parse(deps.now()) + deps.config.form.tokenTtlMs) / 1000)
  const tokens = {
    complete: formToken(deps.config.form.secret, p.paymentReferenceID, 'complete', expires),
    fail: formToken(deps.config.form.secret, p.paymentReferenceID, 'fail', expires)
  }
  return { status: 200, html: formPage(p, offerOf(deps, p), tokens), headers: securityHeaders(p) }
}

const refused = (id: string, why: string): Reply =>
  answer(
    403,
    'Not accepted',
    `<h1>This request was not accepted.</h1><p>${escape(why)}</p><p><a href="/pay/${escape(id)}">Open the payment again</a>.</p>`
  )

/** `POST /pay/{id}/complete` or `/fail`. */
export const submitForm = async (deps: Deps, req: IncomingMessage, id: string, action: FormAction): Promise<Reply> => {
  const read = await readBody(req, 4096)
  if (!UUID.test(id)) return notFound
  const crossSite = crossSiteRefusal(req.headers)
  if (crossSite !== undefined) {
    deps.log.warn('form post refused', { paymentReferenceID: id, action, why: crossSite })
    return refused(id, 'It was sent from another site.')
  }
  const fields = new URLSearchParams(read.kind === 'ok' ? read.text : '')
  const bad = tokenRefusal(deps.config.form.secret, fields.get('token'), id, action, Date.parse(deps.now()))
  if (bad !== undefined) {
    deps.log.warn('form post refused', { paymentReferenceID: id, action, why: `token ${bad}` })
    return refused(id, bad === 'expired' ? 'The page has expired.' : 'The page it came from is not valid.')
  }
  const reasonField = fields.get('reason')
  let reason = reasonField === null || reasonField === '' ? undefined : storableText(reasonField, 200)
  let run: FormAction = action
  if (action === 'complete') {
    const current = await readPayment(deps, id)
    if (E.isLeft(current)) return current.left
    const p = current.right
    // Only a payment the form can complete goes to a gateway; paysplit refuses the others below.
    if (p.kind === 'card' && p.status === 'Initiated') {
      const gateway = gatewayFor(p, deps.liveCardGateway)
      if (gateway === undefined) return answer(503, 'Not available', `<h1>Not available</h1><p class="notice">${escape(NO_LIVE_GATEWAY)}</p>`, p)
      let outcome: CardPaymentOutcome
      try {
        outcome = await gateway.pay(cardPaymentRequest(p))
      } catch (e) {
        deps.log.error('card gateway failed', { paymentReferenceID: id, gateway: gateway.name, error: e instanceof Error ? e.message : String(e) })
        return answer(502, 'Try again', '<h1>The card could not be charged just now.</h1><p>Nothing was charged. Please try again.</p>', p)
      }
      if (outcome.approved) deps.log.info('card approved', { paymentReferenceID: id, gateway: gateway.name, reference: outcome.reference })
      else {
        deps.log.info('card declined', { paymentReferenceID: id, gateway: gateway.name, reason: outcome.reason })
        run = 'fail'
        reason = storableText(`card declined: ${outcome.reason}`, 200)
      }
    }
  }
  const catchAll = deps.config.catchAllUrl !== undefined ? { catchAllUrl: deps.config.catchAllUrl } : {}
  const outcome = await runTransaction<FormOutcome['redirectUrl']>(
    deps.db,
    {
      keys: { ...noKeys, paymentReferenceIDs: [id] },
      lock: true,
      lockCustomers: false,
      run: (world) => {
        const at = deps.now()
        const { world: after, deliveries, redirectUrl, events } =
          run === 'complete'
            ? deps.rules.completeForm(world, id, { at, ...catchAll })
            : deps.rules.failForm(world, id, { at, ...catchAll, ...(reason !== undefined ? { reason } : {}) })
        return { world: after, result: redirectUrl, deliveries, events }
      }
    },
    { attempts: deps.config.maxTransactionAttempts, retryDuplicateKid: false, rules: deps.rules }
  )
  if (outcome.kind !== 'done') return answer(409, 'Busy', '<h1>Please try again.</h1>')
  if (outcome.deliveries > 0) deps.outboxWritten()
  if (outcome.result === undefined) return notFound
  return { status: 303, headers: { ...securityHeaders(), location: outcome.result }, html: '' }
}
