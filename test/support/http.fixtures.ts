/**
 * Fixtures of the wire tests (http, webhooks, service, server): valid requests, identifiers, a
 * clock, and a small driver over the pure service model.
 */
import * as E from 'fp-ts/lib/Either.js'
import { kid } from '../../src/index.js'
import type { Payment, PaymentError } from '../../src/index.js'
import {
  completeForm,
  emptyWorld,
  failForm,
  handle,
  receiveTransfer,
  type HttpResponse,
  type WebhookDelivery,
  type World
} from '../../src/http.js'

export const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
export const FEE_ACCOUNT = '11111111-2222-4333-8444-555555555555'
export const OTHER_ACCOUNT = '22222222-3333-4444-8555-666666666666'
export const CATCH_ALL = 'https://hooks.example/all'

/** The n-th payment id of a test (deterministic UUIDs). */
export const idOf = (n: number): string => `0b7e3f1c-2a4d-4e8f-9c1b-${n.toString(16).padStart(12, '0')}`

const made = kid.create('1234567890', 'mod10')
/** A valid KID. */
export const KID: string = E.isRight(made) ? made.right : 'unreachable'
const other = kid.create('9876543210', 'mod10')
/** Another valid KID. */
export const OTHER_KID: string = E.isRight(other) ? other.right : 'unreachable'

/** The n-th second after a fixed start, as the service's timestamps. */
export const atOf = (n: number): string => new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + n * 1000).toISOString()

/** A valid card request: 10000 NOK, splits 9000 (seller) and 1000 (fee). */
export const cardRequest = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  externalPaymentReferenceID: 'order-1001',
  environment: 'test',
  paymentGateway: 'creditcard',
  chargeImmediately: false,
  sellerConnectedAccountID: SELLER,
  externalObjectIdTag: 'cart-7',
  description: 'Two tickets',
  grossAmount: 10000,
  currency: 'NOK',
  moneySplitList: [
    { connectedAccountID: SELLER, amount: 9000, description: 'Tickets', isFee: false, externalID: 'item-1' },
    { connectedAccountID: FEE_ACCOUNT, amount: 1000, description: 'Platform fee', isFee: true }
  ],
  customerExternalID: 'customer-42',
  successUrl: 'https://shop.example/ok',
  failedUrl: 'https://shop.example/failed',
  metaData: { orderNo: 1001, gift: false },
  ...overrides
})

/** A valid invoice request: 10000 NOK in three splits 5000, 4000, 1000 (fee). */
export const invoiceRequest = (overrides: Record<string, unknown> = {}): Record<string, unknown> => {
  const card = Object.fromEntries(Object.entries(cardRequest()).filter(([k]) => k !== 'chargeImmediately'))
  return {
    ...card,
    externalPaymentReferenceID: 'invoice-2001',
    paymentGateway: 'invoice',
    moneySplitList: [
      { connectedAccountID: SELLER, amount: 5000, isFee: false },
      { connectedAccountID: OTHER_ACCOUNT, amount: 4000, isFee: false },
      { connectedAccountID: FEE_ACCOUNT, amount: 1000, isFee: true }
    ],
    ...overrides
  }
}

/** A patch that keeps every split of `p` except those in `changes` (splitID → new amount, or 'delete'). */
export const patchOf = (
  p: Payment,
  changes: Readonly<Record<number, number | 'delete'>>
): { moneySplitPatch: ReadonlyArray<Record<string, unknown>>; newGrossAmount: number } => {
  let gross = 0
  const moneySplitPatch = p.moneySplits.map((s) => {
    const c = changes[s.splitID]
    if (c === undefined) {
      gross += s.amount
      return { splitID: s.splitID, updateType: 'DoNothing' }
    }
    if (c === 'delete') return { splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: true }
    gross += c
    return { splitID: s.splitID, updateType: 'UpdateAmount', newAmount: c }
  })
  return { moneySplitPatch, newGrossAmount: gross }
}

/**
 * A driver over the pure service model: keeps the world, advances the clock one second per call,
 * and collects every webhook delivery.
 */
export class Session {
  world: World = emptyWorld
  clock = 0
  readonly deliveries: Array<WebhookDelivery> = []
  private ids = 0

  /** `null`: no catch-all url. */
  constructor(readonly catchAllUrl: string | null = CATCH_ALL) {}

  private ctx(): { at: string; catchAllUrl?: string } {
    this.clock += 1
    return this.catchAllUrl === null ? { at: atOf(this.clock) } : { at: atOf(this.clock), catchAllUrl: this.catchAllUrl }
  }

  send(method: string, path: string, body?: unknown, extra: { kid?: string; paymentReferenceID?: string } = {}): HttpResponse {
    this.ids += 1
    const ctx = { ...this.ctx(), paymentReferenceID: extra.paymentReferenceID ?? idOf(this.ids), ...(extra.kid !== undefined ? { kid: extra.kid } : {}) }
    const { world, response, deliveries } = handle(this.world, { method, path, body }, ctx)
    this.world = world
    this.deliveries.push(...deliveries)
    return response
  }

  /** Creates a payment and returns its id (fails the test when the create fails). */
  create(body: Record<string, unknown>, extra: { kid?: string } = {}): string {
    const r = this.send('POST', '/payments', body, extra)
    if (r.status !== 201) throw new Error(`create failed: ${JSON.stringify(r)}`)
    return (r.body as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated
      .paymentReferenceID
  }

  post(id: string, action: string, body?: unknown): HttpResponse {
    return this.send('POST', `/payments/${id}/${action}`, body)
  }

  complete(id: string): E.Either<PaymentError, Payment> {
    const { world, result, deliveries } = completeForm(this.world, id, this.ctx())
    this.world = world
    this.deliveries.push(...deliveries)
    return result
  }

  fail(id: string, reason?: string): E.Either<PaymentError, Payment> {
    const { world, result, deliveries } = failForm(this.world, id, { ...this.ctx(), ...(reason !== undefined ? { reason } : {}) })
    this.world = world
    this.deliveries.push(...deliveries)
    return result
  }

  transfer(id: string, amount: number, kidNumber: string): E.Either<PaymentError, Payment> {
    const { world, result, deliveries } = receiveTransfer(this.world, id, { amount, kid: kidNumber }, this.ctx())
    this.world = world
    this.deliveries.push(...deliveries)
    return result
  }

  payment(id: string): Payment {
    const p = this.world.payments.get(id.toLowerCase())
    if (p === undefined) throw new Error(`no payment ${id}`)
    return p
  }
}
