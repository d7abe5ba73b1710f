/**
 * Routes of the payments service (docs/rules.md I4, docs/rules.md C6): which endpoint a method and a path name.
 * Pure string work: no I/O, nothing thrown.
 *
 * @module routes
 */
import * as E from '../internal/either.js'
import { isUuid } from '../codecs/validators.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The names of the six endpoints. */
export type RouteName =
  | 'createPayment'
  | 'cancelPayment'
  | 'chargePayment'
  | 'refundPayment'
  | 'refundPartially'
  | 'adjustInvoice'

/** `POST /payments`: create a payment intent. */
export interface CreatePaymentRoute {
  readonly name: 'createPayment'
}

/** An endpoint that acts on one payment, named by the `{paymentReferenceID}` of its path. */
export interface PaymentRoute {
  readonly name: Exclude<RouteName, 'createPayment'>
  /** The id as the path gave it (a UUID, either case). */
  readonly paymentReferenceID: string
}

/** A matched endpoint. */
export type Route = CreatePaymentRoute | PaymentRoute

/**
 * Why a request matches no endpoint:
 * - `RouteNotFound`: no endpoint has this path (404);
 * - `MethodNotAllowed`: the path is an endpoint's, the method is not (405; `allow` lists the methods);
 * - `PaymentNotFound`: the path is an endpoint's and the method right, but its
 *   `{paymentReferenceID}` is not a UUID, so no payment can have it (404). `route` says which
 *   endpoint, so the error body can take that endpoint's shape.
 */
export type RouteMismatch =
  | { readonly reason: 'RouteNotFound' }
  | { readonly reason: 'MethodNotAllowed'; readonly allow: ReadonlyArray<string> }
  | { readonly reason: 'PaymentNotFound'; readonly route: PaymentRoute }

// -------------------------------------------------------------------------------------
// matching
// -------------------------------------------------------------------------------------

const actions: ReadonlyArray<readonly [string, PaymentRoute['name']]> = [
  ['cancel', 'cancelPayment'],
  ['charge', 'chargePayment'],
  ['refund', 'refundPayment'],
  ['refund/partially', 'refundPartially'],
  ['adjust', 'adjustInvoice']
]

const POST: ReadonlyArray<string> = ['POST']

/** The path without its query string or fragment. */
const pathOnly = (target: string): string => {
  let end = target.length
  const q = target.indexOf('?')
  if (q >= 0) end = q
  const h = target.indexOf('#')
  if (h >= 0 && h < end) end = h
  return target.slice(0, end)
}

/** The endpoint a path names, whatever the method; `undefined` for no endpoint. */
const routeOfPath = (target: unknown): Route | undefined => {
  if (typeof target !== 'string') return undefined
  const path = pathOnly(target)
  if (path === '/payments') return { name: 'createPayment' }
  const prefix = '/payments/'
  if (!path.startsWith(prefix)) return undefined
  const rest = path.slice(prefix.length)
  const slash = rest.indexOf('/')
  if (slash < 0) return undefined
  const id = rest.slice(0, slash)
  const action = rest.slice(slash + 1)
  for (const [suffix, name] of actions) {
    if (action === suffix) return { name, paymentReferenceID: id }
  }
  return undefined
}

/**
 * The methods a path accepts: `['POST']` for the six endpoints, `[]` for any other path. A server
 * uses it for the `Allow` header of a 405. The query string is ignored.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { allowedMethods } from 'paysplit/http'
 * assert.deepStrictEqual(allowedMethods('/payments'), ['POST'])
 * assert.deepStrictEqual(allowedMethods('/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10/cancel?x=1'), ['POST'])
 * assert.deepStrictEqual(allowedMethods('/customers'), [])
 */
export const allowedMethods = (path: string): ReadonlyArray<string> =>
  routeOfPath(path) === undefined ? [] : POST

/**
 * Matches a method and a path to an endpoint (docs/rules.md I4; `POST /payments/{id}/adjust` for the
 * invoice adjustment). The path is matched exactly, after dropping a query string: no trailing
 * slash, no percent-decoding. Methods are case-sensitive, as HTTP's are. The path is checked
 * first (no endpoint → `RouteNotFound`), then the method (`MethodNotAllowed`), then the
 * `{paymentReferenceID}` (not a UUID → `PaymentNotFound`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { matchRoute } from 'paysplit/http'
 * const id = '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10'
 * assert.deepStrictEqual(matchRoute('POST', `/payments/${id}/refund/partially`), E.right({ name: 'refundPartially', paymentReferenceID: id }))
 * assert.deepStrictEqual(matchRoute('GET', '/payments'), E.left({ reason: 'MethodNotAllowed', allow: ['POST'] }))
 * assert.deepStrictEqual(matchRoute('POST', '/customers'), E.left({ reason: 'RouteNotFound' }))
 * assert.deepStrictEqual(
 *   matchRoute('POST', '/payments/42/charge'),
 *   E.left({ reason: 'PaymentNotFound', route: { name: 'chargePayment', paymentReferenceID: '42' } })
 * )
 */
export const matchRoute = (method: string, path: string): E.Either<RouteMismatch, Route> => {
  const route = routeOfPath(path)
  if (route === undefined) return E.left({ reason: 'RouteNotFound' })
  if (method !== 'POST') return E.left({ reason: 'MethodNotAllowed', allow: POST })
  if (route.name !== 'createPayment' && !isUuid(route.paymentReferenceID)) {
    return E.left({ reason: 'PaymentNotFound', route })
  }
  return E.right(route)
}

/**
 * True for the endpoints whose request has a body (create, partial refund, adjust); cancel, charge
 * and full refund take none and ignore whatever is sent.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { routeTakesBody } from 'paysplit/http'
 * assert.strictEqual(routeTakesBody({ name: 'createPayment' }), true)
 * assert.strictEqual(routeTakesBody({ name: 'cancelPayment', paymentReferenceID: '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10' }), false)
 */
export const routeTakesBody = (route: Route): boolean =>
  route.name === 'createPayment' || route.name === 'refundPartially' || route.name === 'adjustInvoice'
