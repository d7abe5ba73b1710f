/**
 * Routes of the payments service (docs/rules.md I4, C6, C9): which endpoint a method and a path
 * name. Pure string work: no I/O, nothing thrown.
 *
 * @module routes
 */
import * as E from '../internal/either.js'
import { isUuid } from '../codecs/validators.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The names of the endpoints: six that change a payment, three reads (docs/rules.md C9). */
export type RouteName =
  | 'createPayment'
  | 'cancelPayment'
  | 'chargePayment'
  | 'refundPayment'
  | 'refundPartially'
  | 'adjustInvoice'
  | 'getPayment'
  | 'findPayment'
  | 'getCustomer'

/** `POST /payments`: create a payment intent. */
export interface CreatePaymentRoute {
  readonly name: 'createPayment'
}

/** An endpoint that acts on one payment, named by the `{paymentReferenceID}` of its path. */
export interface PaymentRoute {
  readonly name: 'cancelPayment' | 'chargePayment' | 'refundPayment' | 'refundPartially' | 'adjustInvoice'
  /** The id as the path gave it (a UUID, either case). */
  readonly paymentReferenceID: string
}

/** `GET /payments/{paymentReferenceID}`: read one payment. */
export interface GetPaymentRoute {
  readonly name: 'getPayment'
  /** The id as the path gave it (a UUID, either case). */
  readonly paymentReferenceID: string
}

/**
 * `GET /payments?externalPaymentReferenceID=…`: find a payment by the caller's own reference. The
 * query is checked by `handle` (docs/rules.md C9), not here.
 */
export interface FindPaymentRoute {
  readonly name: 'findPayment'
  /** The query string without its `?` (`''` when there is none). */
  readonly query: string
}

/** `GET /customers/{customerExternalID}`: read a customer. */
export interface GetCustomerRoute {
  readonly name: 'getCustomer'
  /** The path segment, percent-decoded. */
  readonly customerExternalID: string
}

/** The three reads. */
export type ReadRoute = GetPaymentRoute | FindPaymentRoute | GetCustomerRoute

/** A matched endpoint. */
export type Route = CreatePaymentRoute | PaymentRoute | ReadRoute

/**
 * Why a request matches no endpoint:
 * - `RouteNotFound`: no endpoint has this path (404);
 * - `MethodNotAllowed`: the path is an endpoint's, the method is not (405; `allow` lists the methods);
 * - `PaymentNotFound`: the path is an endpoint's and the method right, but its
 *   `{paymentReferenceID}` is not a UUID, so no payment can have it (404). `route` says which
 *   endpoint, so the error body can take that endpoint's shape;
 * - `CustomerNotFound`: `GET /customers/{customerExternalID}` whose segment is not valid
 *   percent-encoding, so no customer can have it (404).
 */
export type RouteMismatch =
  | { readonly reason: 'RouteNotFound' }
  | { readonly reason: 'MethodNotAllowed'; readonly allow: ReadonlyArray<string> }
  | { readonly reason: 'PaymentNotFound'; readonly route: PaymentRoute | GetPaymentRoute }
  | { readonly reason: 'CustomerNotFound' }

// -------------------------------------------------------------------------------------
// matching
// -------------------------------------------------------------------------------------

const POST: ReadonlyArray<string> = Object.freeze(['POST'])
const GET: ReadonlyArray<string> = Object.freeze(['GET'])
const GET_POST: ReadonlyArray<string> = Object.freeze(['GET', 'POST'])

/** What a path names: the methods it takes, and the route each method gets. */
interface PathMatch {
  readonly allow: ReadonlyArray<string>
  /** The route for `method` (one of `allow`); `undefined` for a malformed customer segment. */
  readonly route: (method: string) => Route | undefined
}

/**
 * A request target: the path (up to a query string or a fragment), then the query string
 * (without `?` and fragment; absent when none).
 */
const TARGET = /^([^?#]*)(?:\?([^#]*))?/

/** The paths of the endpoints: `/payments`, `/payments/{id}`, `/payments/{id}/{action}`, `/customers/{id}`. */
const PATH = /^\/(?:payments(?:\/([^/]*)(?:\/(cancel|charge|refund(?:\/partially)?|adjust))?)?|customers\/([^/]+))$/

/** The endpoint a path names, whatever the method; `undefined` for no endpoint. */
const matchPath = (target: unknown): PathMatch | undefined => {
  if (typeof target !== 'string') return undefined
  const [, path, query = ''] = TARGET.exec(target) as unknown as readonly [string, string, string | undefined]
  const m = PATH.exec(path)
  if (m === null) return undefined
  const [, id, action, customer] = m
  if (customer !== undefined) return {
      allow: GET,
      route: (): GetCustomerRoute | undefined => {
        try {
          return { name: 'getCustomer', customerExternalID: decodeURIComponent(customer) }
        } catch {
          return undefined
        }
      }
    }
  if (id === undefined) {
    return { allow: GET_POST, route: (method) => (method === 'POST' ? { name: 'createPayment' } : { name: 'findPayment', query }) }
  }
  if (action !== undefined) {
    // cancel, charge, refund → cancelPayment, chargePayment, refundPayment
    const name = action === 'adjust' ? 'adjustInvoice' : action === 'refund/partially' ? 'refundPartially' : (`${action}Payment` as PaymentRoute['name'])
    return { allow: POST, route: () => ({ name, paymentReferenceID: id }) }
  }
  return id === '' ? undefined : { allow: GET, route: () => ({ name: 'getPayment', paymentReferenceID: id }) }
}

/**
 * The methods a path accepts: `['GET', 'POST']` for `/payments`, `['GET']` for
 * `/payments/{id}` and `/customers/{customerExternalID}`, `['POST']` for the five actions on a
 * payment, `[]` for any other path. A server uses it for the `Allow` header of a 405 (`handle`
 * sets it already). The query string is ignored.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { allowedMethods } from 'paysplit/http'
 * assert.deepStrictEqual(allowedMethods('/payments'), ['GET', 'POST'])
 * assert.deepStrictEqual(allowedMethods('/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10/cancel?x=1'), ['POST'])
 * assert.deepStrictEqual(allowedMethods('/payments/6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10'), ['GET'])
 * assert.deepStrictEqual(allowedMethods('/customers'), [])
 */
export const allowedMethods = (path: string): ReadonlyArray<string> => matchPath(path)?.allow ?? []

/**
 * Matches a method and a path to an endpoint (docs/rules.md I4, C6, C9; `POST /payments/{id}/adjust`
 * for the invoice adjustment). The path is matched exactly, after dropping a query string and a
 * fragment: no trailing slash, no percent-decoding but of the customer segment. Methods are
 * case-sensitive, as HTTP's are. The path is checked first (no endpoint → `RouteNotFound`), then
 * the method (`MethodNotAllowed`), then the `{paymentReferenceID}` (not a UUID →
 * `PaymentNotFound`) or the `{customerExternalID}` (not valid percent-encoding → `CustomerNotFound`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { matchRoute } from 'paysplit/http'
 * const id = '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10'
 * assert.deepStrictEqual(matchRoute('POST', `/payments/${id}/refund/partially`), E.right({ name: 'refundPartially', paymentReferenceID: id }))
 * assert.deepStrictEqual(matchRoute('GET', `/payments/${id}`), E.right({ name: 'getPayment', paymentReferenceID: id }))
 * assert.deepStrictEqual(matchRoute('GET', '/payments?externalPaymentReferenceID=order-1'), E.right({ name: 'findPayment', query: 'externalPaymentReferenceID=order-1' }))
 * assert.deepStrictEqual(matchRoute('GET', '/customers/kari%40example'), E.right({ name: 'getCustomer', customerExternalID: 'kari@example' }))
 * assert.deepStrictEqual(matchRoute('DELETE', '/payments'), E.left({ reason: 'MethodNotAllowed', allow: ['GET', 'POST'] }))
 * assert.deepStrictEqual(matchRoute('POST', '/customers'), E.left({ reason: 'RouteNotFound' }))
 * assert.deepStrictEqual(
 *   matchRoute('POST', '/payments/42/charge'),
 *   E.left({ reason: 'PaymentNotFound', route: { name: 'chargePayment', paymentReferenceID: '42' } })
 * )
 */
export const matchRoute = (method: string, path: string): E.Either<RouteMismatch, Route> => {
  const match = matchPath(path)
  if (match === undefined) return E.left({ reason: 'RouteNotFound' })
  if (!match.allow.includes(method)) {
    return E.left({ reason: 'MethodNotAllowed', allow: match.allow })
  }
  const route = match.route(method)
  if (route === undefined) return E.left({ reason: 'CustomerNotFound' })
  if ('paymentReferenceID' in route && !isUuid(route.paymentReferenceID)) {
    return E.left({ reason: 'PaymentNotFound', route })
  }
  return E.right(route)
}

/**
 * True for the three reads (`GET`), which change nothing and use no context.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { isReadRoute } from 'paysplit/http'
 * assert.strictEqual(isReadRoute({ name: 'getCustomer', customerExternalID: 'customer-42' }), true)
 * assert.strictEqual(isReadRoute({ name: 'createPayment' }), false)
 */
export const isReadRoute = (route: Route): route is ReadRoute =>
  route.name === 'getPayment' || route.name === 'findPayment' || route.name === 'getCustomer'

/**
 * True for the endpoints whose request has a body (create, partial refund, adjust); cancel, charge,
 * full refund and the reads take none and ignore whatever is sent.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { routeTakesBody } from 'paysplit/http'
 * assert.strictEqual(routeTakesBody({ name: 'createPayment' }), true)
 * assert.strictEqual(routeTakesBody({ name: 'cancelPayment', paymentReferenceID: '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10' }), false)
 */
export const routeTakesBody = (route: Route): boolean =>
  route.name === 'createPayment' || route.name === 'refundPartially' || route.name === 'adjustInvoice'
