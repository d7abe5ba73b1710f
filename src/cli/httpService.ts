/**
 * A service under test over HTTP, for the conformance runner (the adapter side: `fetch`): its
 * API, its payment form driven as a customer's browser drives it (the page first, then the post
 * of the form's hidden fields), and its bank routes. `paysplit-check` is the runner with these;
 * `paysplit/conformance` exports them for a test runner of your own (docs/testing.md, "The API").
 *
 * @module cli/httpService
 */
import type { RefusedHook, ServiceRequest, ServiceResponse, ServiceUnderTest, SkippedHook } from '../conformance/types.js'

/** A connection error (refused, reset, no such host, timed out): the service was not reached. */
export class Unreachable extends Error {}

/** The reason of a failed fetch, as its cause names it (`ECONNREFUSED`, `ENOTFOUND`, …). */
const causeOf = (e: unknown): string => {
  const cause = e instanceof Error ? (e.cause as { code?: unknown; message?: unknown } | undefined) : undefined
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return e instanceof Error ? e.message : String(e)
}

/**
 * fetch of `base + path`, never following a redirect (a form's 303 is its answer, and the
 * customer's next page is on a host of the shop, not the service's), with a connection error
 * turned into {@link Unreachable}.
 */
export const reach = async (base: string, path: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(base + path, { redirect: 'manual', signal: AbortSignal.timeout(30_000), ...init })
  } catch (e) {
    throw new Unreachable(`cannot reach ${base} (${causeOf(e)})`)
  }
}

/** Reads an answer as JSON, or as text when it is not JSON (`undefined` when empty). */
const bodyOf = (text: string): unknown => {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text // compared as text, so the report shows it
  }
}

/** Sends one API request with fetch (`Authorization: Bearer <apiKey>` when given) and reads the answer. */
const sender =
  (base: string, apiKey: string | undefined) =>
  async (request: ServiceRequest): Promise<ServiceResponse> => {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (apiKey !== undefined) headers['authorization'] = `Bearer ${apiKey}`
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    Object.assign(headers, request.headers)
    const res = await reach(base, request.path, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) })
    })
    return { status: res.status, body: bodyOf(await res.text()) }
  }

/** Statuses that say a form or bank path cannot be driven from outside (no such route, a token or a session wanted). */
const CANNOT_DRIVE = [401, 403, 404, 405, 415]

/** Decodes the few character references a form's attribute values carry. */
const unescapeHtml = (s: string): string =>
  s.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos|#39));/gi, (m, dec?: string, hex?: string, name?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec))
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16))
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" } as Record<string, string>)[(name ?? '').toLowerCase()] ?? m
  })

/** An attribute of one HTML tag (double- or single-quoted), decoded. */
const attribute = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag)
  return m === null ? undefined : unescapeHtml(m[1] ?? m[2] ?? '')
}

/**
 * The hidden fields of the page's form that posts to `action` (a path), as a browser would send
 * them; undefined when the page has no such form. A page of at most 1 MiB is read.
 */
export const hiddenFieldsOf = (html: string, action: string): Record<string, string> | undefined => {
  const page = html.slice(0, 1024 * 1024)
  for (const form of page.matchAll(/<form\b[^>]*>[\s\S]*?<\/form\s*>/gi)) {
    const open = /^<form\b[^>]*>/i.exec(form[0])?.[0] ?? ''
    const target = attribute(open, 'action')
    if (target === undefined || (target !== action && !target.endsWith(action))) continue
    const fields: Record<string, string> = {}
    for (const input of form[0].matchAll(/<input\b[^>]*>/gi)) {
      if ((attribute(input[0], 'type') ?? '').toLowerCase() !== 'hidden') continue
      const name = attribute(input[0], 'name')
      if (name !== undefined) fields[name] = attribute(input[0], 'value') ?? ''
    }
    return fields
  }
  return undefined
}

/** What one form or bank post answered, as a hook resolves: driven, refused, or not drivable from outside. */
type HookAnswer = undefined | SkippedHook | RefusedHook

/** A hook's answer from the status of its post; a 5xx is the service's failure (the hook rejects). */
const answerOf = (template: string, path: string, status: number): HookAnswer => {
  if (CANNOT_DRIVE.includes(status)) {
    return { skipped: `POST ${template} answered ${String(status)}; a form that wants a token or a session, or a bank route that wants another key, cannot be driven from outside (a form: try its page, --form-page-path)` }
  }
  if (status >= 500) throw new Error(`POST ${path} answered ${String(status)}`)
  if (status >= 400) return { refused: `POST ${path} answered ${String(status)}` }
  return undefined
}

/** Where a form posts and, when its buttons carry a token issued with the page, where that page is. */
export interface FormDriverOptions {
  /** The path that completes the form, `{id}` the payment's id, e.g. `/pay/{id}/complete`. */
  readonly completePath?: string
  /** The path that fails it (the customer cancels, the card is declined), e.g. `/pay/{id}/fail`. */
  readonly failPath?: string
  /**
   * The form's page, e.g. `/pay/{id}`: GET first, then the hidden fields of its form whose action
   * is the post's path are posted, form-encoded and same-origin, as the customer's browser does
   * (a token issued with the page, say). Without it, the post has no body.
   */
  readonly pagePath?: string
  /** Headers of every request the driver sends (a session cookie, say). */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * Posts to `template` (`{id}` the payment's id); with `pagePath`, through the page as a browser
 * does. A page that offers no form for this post (a payment past its form) answers `{ refused }`:
 * the customer cannot act there.
 */
const formPost =
  (base: string, template: string, options: FormDriverOptions) =>
  async (id: string, reason?: string): Promise<HookAnswer> => {
    const path = template.replaceAll('{id}', encodeURIComponent(id))
    const headers = { ...options.headers }
    if (options.pagePath === undefined) {
      const res = await reach(base, path, { method: 'POST', headers })
      await res.arrayBuffer()
      return answerOf(template, path, res.status)
    }
    const pagePath = options.pagePath.replaceAll('{id}', encodeURIComponent(id))
    const page = await reach(base, pagePath, { method: 'GET', headers: { ...headers, accept: 'text/html' } })
    const html = await page.text()
    if (CANNOT_DRIVE.includes(page.status)) return { skipped: `GET ${options.pagePath} answered ${String(page.status)}: the form page cannot be read from outside` }
    if (page.status >= 500) throw new Error(`GET ${pagePath} answered ${String(page.status)}`)
    const fields = hiddenFieldsOf(html, path)
    if (fields === undefined) return { refused: `the page GET ${pagePath} offers no form posting to ${path}` }
    if (reason !== undefined) fields['reason'] = reason
    const res = await reach(base, path, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', origin: new URL(base).origin },
      body: new URLSearchParams(fields).toString()
    })
    await res.arrayBuffer()
    return answerOf(template, path, res.status)
  }

/** A base url without its trailing slashes. */
const baseOf = (baseUrl: string): string => baseUrl.replace(/\/+$/, '')

/**
 * The payment form of a service, driven as a customer's browser drives it: the `completeForm`
 * and `failForm` hooks of {@link ServiceUnderTest} for the paths given. Each resolves with
 * nothing when the form answered (a 2xx, or the 303 that sends the customer back to the shop:
 * no redirect is followed, so no shop is reached); `{ refused }` for another 4xx, or when the page
 * offers no form for the post (a payment past its form); `{ skipped }` when the form cannot be
 * driven from outside (401, 403, 404, 405, 415: a token or a session it wants); and rejects on a
 * 5xx. The runner fails a run whose hook refused what the model accepts, as the hook's failure.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { createServer } from 'node:http'
 * import { formDriver } from 'paysplit/conformance'
 * // a form whose page issues a token, and whose post wants it
 * const server = createServer((req, res) => {
 *   if (req.method === 'GET') return res.end('<form method="post" action="/pay/p-1/complete"><input type="hidden" name="token" value="t-1"></form>')
 *   let body = ''
 *   req.on('data', (c) => (body += c)).on('end', () => res.writeHead(body === 'token=t-1' ? 303 : 403, { location: 'https://shop.example/ok' }).end())
 * })
 * await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
 * const base = `http://127.0.0.1:${String((server.address() as { port: number }).port)}`
 * const withPage = formDriver(base, { completePath: '/pay/{id}/complete', pagePath: '/pay/{id}' })
 * assert.strictEqual(await withPage.completeForm?.('p-1'), undefined) // driven: 303
 * const withoutPage = formDriver(base, { completePath: '/pay/{id}/complete' })
 * assert.match(String((await withoutPage.completeForm?.('p-1') as { skipped?: string }).skipped), /answered 403/)
 * server.close()
 */
export const formDriver = (baseUrl: string, options: FormDriverOptions): Pick<ServiceUnderTest, 'completeForm' | 'failForm'> => {
  const base = baseOf(baseUrl)
  const complete = options.completePath === undefined ? undefined : formPost(base, options.completePath, options)
  const fail = options.failPath === undefined ? undefined : formPost(base, options.failPath, options)
  return {
    ...(complete !== undefined ? { completeForm: (id: string) => complete(id) } : {}),
    ...(fail !== undefined ? { failForm: (id: string, reason?: string) => fail(id, reason) } : {})
  }
}

/** How {@link httpService} reaches a service: its key, its form and its bank routes. */
export interface HttpServiceOptions {
  /** Sent as `Authorization: Bearer <apiKey>` with every API request. */
  readonly apiKey?: string
  /** The payment form ({@link formDriver}'s `completePath`, `failPath`, `pagePath`). */
  readonly formCompletePath?: string
  readonly formFailPath?: string
  readonly formPagePath?: string
  /** `POST` here `{ "kid", "amount" }` as the bank reports a transfer, e.g. `/bank/transfers`. */
  readonly bankTransferPath?: string
  /** `POST` here an OCR giro file (`text/plain`) as the bank sends one, e.g. `/bank/ocr`. */
  readonly bankOcrPath?: string
  /** Sent as `Authorization: Bearer <bankKey>` to the bank paths. */
  readonly bankKey?: string
}

/** A bank post: JSON or text, with the bank's key; its answer read as {@link formDriver}'s are. */
const bankPost =
  (base: string, path: string, bankKey: string | undefined) =>
  async (body: string, contentType: string): Promise<HookAnswer> => {
    const res = await reach(base, path, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(bankKey === undefined ? {} : { authorization: `Bearer ${bankKey}` }) },
      body
    })
    await res.arrayBuffer()
    return answerOf(path, path, res.status)
  }

/**
 * A service under test over HTTP (`fetch`): every API request of the runner sent to `baseUrl`
 * (JSON in and out, the runner's `idempotency-key` passed on), and, for the paths given, the
 * payment form ({@link formDriver}) and the bank: transfers by KID (`{ kid, amount }`) and OCR giro
 * files. No redirect is followed. A connection error rejects with `cannot reach <url> (<reason>)`.
 * Spread it into `checkService`'s options, with a webhook receiver when the service sends webhooks.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { createServer } from 'node:http'
 * import { httpService } from 'paysplit/conformance'
 * const server = createServer((req, res) => {
 *   res.writeHead(req.headers.authorization === 'Bearer k-1' ? 404 : 401, { 'content-type': 'application/json' })
 *   res.end(JSON.stringify({ success: false, error: { code: 'PaymentNotFound', message: 'No such payment.' } }))
 * })
 * await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
 * const service = httpService(`http://127.0.0.1:${String((server.address() as { port: number }).port)}`, { apiKey: 'k-1', bankTransferPath: '/bank/transfers' })
 * const answer = await service.send({ method: 'GET', path: '/payments/0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' })
 * assert.strictEqual(answer.status, 404)
 * assert.strictEqual(typeof service.receiveTransferByKid, 'function')
 * assert.strictEqual(service.completeForm, undefined)
 * server.close()
 */
export const httpService = (baseUrl: string, options: HttpServiceOptions = {}): ServiceUnderTest => {
  const base = baseOf(baseUrl)
  const form = formDriver(base, {
    ...(options.formCompletePath !== undefined ? { completePath: options.formCompletePath } : {}),
    ...(options.formFailPath !== undefined ? { failPath: options.formFailPath } : {}),
    ...(options.formPagePath !== undefined ? { pagePath: options.formPagePath } : {})
  })
  const transfer = options.bankTransferPath === undefined ? undefined : bankPost(base, options.bankTransferPath, options.bankKey)
  const ocr = options.bankOcrPath === undefined ? undefined : bankPost(base, options.bankOcrPath, options.bankKey)
  return {
    send: sender(base, options.apiKey),
    ...form,
    ...(transfer !== undefined ? { receiveTransferByKid: (kid: string, amount: number) => transfer(JSON.stringify({ kid, amount }), 'application/json') } : {}),
    ...(ocr !== undefined ? { receiveOcrGiro: (text: string) => ocr(text, 'text/plain; charset=utf-8') } : {})
  }
}
