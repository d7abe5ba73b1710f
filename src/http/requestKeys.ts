/**
 * What a request can read (docs/rules.md C15): the rows `handle` reads for it, named from the route
 * `matchRoute` matches, so a store loads exactly those and needs no route knowledge of its own.
 *
 * @module requestKeys
 */
import * as E from '../internal/either.js'
import { isObject, own } from '../internal/own.js'
import { noKeys, type RowKeys } from '../service/rows.js'
import { keyOf } from '../service/world.js'
import { keyedBy } from './idempotency.js'
import { readFindQuery } from './reads.js'
import { matchRoute } from './routes.js'
import type { HandleContext, HttpRequest } from './handle.js'

/** The `{ scope, key }` of a `POST`'s `idempotency-key`, when it has a valid one (and the scope is a string or absent). */
const idempotencyOf = (request: unknown, ctx: unknown): RowKeys['idempotency'] => {
  const keyed = keyedBy(request, ctx)
  return E.isLeft(keyed) ? undefined : keyed.right
}

const strings = (...values: ReadonlyArray<unknown>): ReadonlyArray<string> => values.filter((v): v is string => typeof v === 'string')

/**
 * The rows {@link handle} can read for this request (docs/rules.md C15), from the route
 * `matchRoute` matches (so `/payments#x`, `/payments?x` and `/payments` name the same rows):
 *
 * - `GET /payments/{id}` and the five actions on a payment: that payment (`paymentReferenceIDs`,
 *   lower-cased);
 * - `GET /payments?externalPaymentReferenceID=…`: that reference;
 * - `GET /customers/{customerExternalID}`: that customer;
 * - `POST /payments`: the context's `paymentReferenceID` (a payment it names already is
 *   `PaymentAlreadyExists`), the body's `externalPaymentReferenceID` (a repeat, or a used
 *   reference) and `customerExternalID` (the record to merge), and the open invoices that hold the
 *   context's `kid` (`DuplicateKid`);
 * - every `POST` with a valid `idempotency-key`: `idempotency`, its `{ scope, key }` (the context's
 *   `idempotencyScope`, absent for the shared scope; the key as `handle` reads it, a
 *   structured-field string unquoted: `"r-1"` names the key `r-1`, docs/rules.md C13).
 *
 * A store loads these rows, and with every payment its customer and reference, and with every
 * reference its payment; `handle` on that slice answers as on the whole world. An unknown route
 * names nothing. Only own properties are read; never throws.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { requestKeys } from 'paysplit/http'
 * const id = '0B7E3F1C-2A4D-4E8F-9C1B-5D6E7F8A9B0C'
 * const ctx = { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10', idempotencyScope: 'api-key-7' }
 * const refund = requestKeys({ method: 'POST', path: `/payments/${id}/refund`, headers: { 'idempotency-key': 'r-1' } }, ctx)
 * assert.deepStrictEqual(refund, {
 *   paymentReferenceIDs: [id.toLowerCase()], externalPaymentReferenceIDs: [], customerExternalIDs: [], openInvoiceKids: [],
 *   idempotency: { scope: 'api-key-7', key: 'r-1' }
 * })
 * const quoted = requestKeys({ method: 'POST', path: `/payments/${id}/refund`, headers: { 'idempotency-key': '"r-1"' } }, ctx)
 * assert.deepStrictEqual(quoted.idempotency, { scope: 'api-key-7', key: 'r-1' })
 * const body = { externalPaymentReferenceID: 'order-1001', customerExternalID: 'customer-42' }
 * const create = requestKeys({ method: 'POST', path: '/payments#x', body }, { ...ctx, kid: '12345674' })
 * assert.deepStrictEqual(create.paymentReferenceIDs, ['6f1c3c52-3f51-4b8e-9a8e-0c5f1b2a9d10'])
 * assert.deepStrictEqual(create.externalPaymentReferenceIDs, ['order-1001'])
 * assert.deepStrictEqual(create.customerExternalIDs, ['customer-42'])
 * assert.deepStrictEqual(create.openInvoiceKids, ['12345674'])
 * const find = requestKeys({ method: 'GET', path: '/payments?externalPaymentReferenceID=order-1001' }, ctx)
 * assert.deepStrictEqual(find.externalPaymentReferenceIDs, ['order-1001'])
 * assert.deepStrictEqual(requestKeys({ method: 'GET', path: '/nowhere' }, ctx).paymentReferenceIDs, [])
 */
export const requestKeys = (request: HttpRequest, ctx: HandleContext): RowKeys => {
  try {
    if (!isObject(request)) return noKeys
    const matched = matchRoute(own(request, 'method') as string, own(request, 'path') as string)
    if (E.isLeft(matched)) return noKeys
    const route = matched.right
    switch (route.name) {
      case 'getPayment':
        return { ...noKeys, paymentReferenceIDs: [keyOf(route.paymentReferenceID)] }
      case 'findPayment': {
        const ref = readFindQuery(route.query)
        return E.isLeft(ref) ? noKeys : { ...noKeys, externalPaymentReferenceIDs: [ref.right] }
      }
      case 'getCustomer':
        return { ...noKeys, customerExternalIDs: [route.customerExternalID] }
      case 'createPayment': {
        const body = own(request, 'body')
        const id = own(ctx, 'paymentReferenceID')
        const idempotency = idempotencyOf(request, ctx)
        return {
          paymentReferenceIDs: typeof id === 'string' ? [keyOf(id)] : [],
          externalPaymentReferenceIDs: strings(own(body, 'externalPaymentReferenceID')),
          customerExternalIDs: strings(own(body, 'customerExternalID')),
          openInvoiceKids: strings(own(ctx, 'kid')),
          ...(idempotency !== undefined ? { idempotency } : {})
        }
      }
      default: {
        const idempotency = idempotencyOf(request, ctx)
        return { ...noKeys, paymentReferenceIDs: [keyOf(route.paymentReferenceID)], ...(idempotency !== undefined ? { idempotency } : {}) }
      }
    }
  } catch {
    return noKeys
  }
}
