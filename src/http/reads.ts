/**
 * The reads of the service model (docs/rules.md C9): `GET /payments/{id}`,
 * `GET /payments?externalPaymentReferenceID=…` and `GET /customers/{customerExternalID}`. They use
 * no context and change nothing.
 *
 * @module reads
 */
import * as E from '../internal/either.js'
import type { PaymentError } from '../errors.js'
import { paymentError, validationError } from '../errors.js'
import { fail, keySegment, type Issues } from '../codecs/fields.js'
import type { Payment } from '../payment.js'
import { errorResponse, mismatchResponse, type HttpResponse } from './responses.js'
import type { ReadRoute } from './routes.js'
import { webhookPaymentOf } from '../service/webhooks.js'
import { customerOf, keyOf, notFound, readable, type World } from '../service/world.js'

const QUERY_KEY = 'externalPaymentReferenceID'

/**
 * The `externalPaymentReferenceID` of a `GET /payments` query (docs/rules.md C9): exactly once,
 * non-empty, read as `URLSearchParams` reads it; any other parameter is an issue at its name.
 */
export const readFindQuery = (query: string): E.Either<PaymentError, string> => {
  const params = new URLSearchParams(query)
  const issues: Issues = []
  const seen = new Set<string>()
  for (const key of params.keys()) {
    if (key === QUERY_KEY || seen.has(key)) continue
    seen.add(key)
    fail(issues, keySegment(key), 'not_one_of', { allowed: [QUERY_KEY] })
  }
  const values = params.getAll(QUERY_KEY)
  if (values.length === 0) fail(issues, QUERY_KEY, 'required')
  else if (values.length > 1) fail(issues, QUERY_KEY, 'too_many', { max: 1 })
  else if (values[0] === '') fail(issues, QUERY_KEY, 'too_short', { min: 1 })
  return issues.length > 0 ? E.left(validationError(issues)) : E.right(values[0] as string)
}

const paymentResponse = (world: World, route: ReadRoute, stored: Payment | undefined, missing: PaymentError): HttpResponse => {
  if (stored === undefined) return errorResponse(route.name, missing)
  const payment = readable(stored)
  if (E.isLeft(payment)) return errorResponse(route.name, payment.left)
  return { status: 200, body: { payment: webhookPaymentOf(payment.right, customerOf(world, payment.right)) } }
}

/** Answers one read (the world is a world: `handle` checked it). */
export const handleRead = (world: World, route: ReadRoute): HttpResponse => {
  switch (route.name) {
    case 'getPayment':
      return paymentResponse(world, route, world.payments.get(keyOf(route.paymentReferenceID)), notFound)
    case 'findPayment': {
      const ref = readFindQuery(route.query)
      if (E.isLeft(ref)) return errorResponse(route.name, ref.left)
      const reference = world.references.get(ref.right)
      const stored = reference === undefined ? undefined : world.payments.get(keyOf(reference.paymentReferenceID))
      return paymentResponse(
        world,
        route,
        stored,
        paymentError('PaymentNotFound', 'No payment has this externalPaymentReferenceID.')
      )
    }
    case 'getCustomer': {
      const customer = world.customers.get(route.customerExternalID)
      return customer === undefined
        ? mismatchResponse({ reason: 'CustomerNotFound' })
        : { status: 200, body: { customer: { ...customer } } }
    }
  }
}
