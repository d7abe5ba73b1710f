/**
 * Inputs shared by the benchmarks: a realistic create request with 5 splits, the commands of a
 * card payment's life, and payments with many splits for the split-patch benchmark.
 */
import type { Command } from '../src/commands.js'
import { initialState, replay, transition } from './paysplit.js'
import type { PaymentEvent } from '../src/events.js'
import type { Payment, PaymentState } from '../src/payment.js'
import type { MoneySplitPatch, PaymentIntentRequest } from '../src/codecs/requests.js'

export const PAYMENT_ID = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
export const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
export const PARTNERS = [
  '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  '8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b'
] as const
export const FEE_ACCOUNT = '11111111-2222-4333-8444-555555555555'

export const T0 = '2026-11-21T10:00:00.000Z'
export const T1 = '2026-11-21T10:00:01.000Z'
export const T2 = '2026-11-21T10:00:02.000Z'
export const T3 = '2026-11-21T10:00:03.000Z'
export const T4 = '2026-11-21T10:00:04.000Z'

/**
 * A card create request as a shop sends it, parsed from JSON (fresh objects every call): 5 splits
 * (seller, three partners, the platform fee), a customer, one webhook subscription, metaData.
 */
export const requestJson = (): Record<string, unknown> => ({
  externalPaymentReferenceID: 'order-1001',
  environment: 'production',
  paymentGateway: 'creditcard',
  chargeImmediately: false,
  sellerConnectedAccountID: SELLER,
  description: 'Two concert tickets and a program',
  grossAmount: 100000,
  currency: 'NOK',
  moneySplitList: [
    { connectedAccountID: SELLER, amount: 60000, description: 'Tickets', isFee: false, externalID: 'line-1' },
    { connectedAccountID: PARTNERS[0], amount: 15000, description: 'Venue share', isFee: false, externalID: 'line-2' },
    { connectedAccountID: PARTNERS[1], amount: 10000, description: 'Artist share', isFee: false },
    { connectedAccountID: PARTNERS[2], amount: 5000, description: 'Program', isFee: false },
    { connectedAccountID: FEE_ACCOUNT, amount: 10000, description: 'Platform fee', isFee: true }
  ],
  customerExternalID: 'customer-42',
  customer: {
    name: 'Kari Nordmann',
    email: 'kari.nordmann@example.no',
    mobilePrefix: '+47',
    mobile: '91234567',
    customerType: 'Individual'
  },
  webhookSubscriptions: [{ eventType: 'Charged', url: 'https://shop.example.no/hooks/payments' }],
  successUrl: 'https://shop.example.no/checkout/ok?order=1001',
  failedUrl: 'https://shop.example.no/checkout/failed?order=1001',
  metaData: { orderNumber: '1001', channel: 'web', items: 3, gift: false }
})

/** The same request with two problems in its last split (a bad account ID and a negative amount). */
export const invalidRequestJson = (): Record<string, unknown> => {
  const r = requestJson()
  const splits = r['moneySplitList'] as Array<Record<string, unknown>>
  splits[4] = { connectedAccountID: 'not-a-uuid', amount: -10000, description: 'Platform fee', isFee: true }
  return r
}

export const createCommand = (request: unknown = requestJson()): Command =>
  ({ type: 'CreatePayment', at: T0, paymentReferenceID: PAYMENT_ID, request }) as Command

export const completeForm: Command = { type: 'CompletePaymentForm', at: T1 }
export const charge: Command = { type: 'ChargePayment', at: T2 }
/** Refunds the program (split 4) and half the venue share (split 2). */
export const partialRefundPatch = (): MoneySplitPatch => ({
  moneySplitPatch: [
    { splitID: 1, updateType: 'DoNothing' },
    { splitID: 2, updateType: 'UpdateAmount', newAmount: 7500 },
    { splitID: 3, updateType: 'DoNothing' },
    { splitID: 4, updateType: 'DoDeleteSplitEntry', doDelete: true },
    { splitID: 5, updateType: 'DoNothing' }
  ],
  newGrossAmount: 87500
})
export const partialRefund = (): Command => ({ type: 'RefundPartially', at: T3, patch: partialRefundPatch() })
export const fullRefund: Command = { type: 'RefundPayment', at: T4 }

export const must = <A>(r: { readonly _tag: 'Left'; readonly left: unknown } | { readonly _tag: 'Right'; readonly right: A }): A => {
  if (r._tag === 'Left') throw new Error(`unexpected Left: ${JSON.stringify(r.left).slice(0, 500)}`)
  return r.right
}

/** Runs commands from `state` through `transition`, returning the last state and every event. */
export const run = (
  state: PaymentState,
  commands: ReadonlyArray<Command>
): { readonly state: PaymentState; readonly events: ReadonlyArray<PaymentEvent> } => {
  let s = state
  const events: PaymentEvent[] = []
  for (const c of commands) {
    const [next, es] = must(transition(s, c))
    s = next
    events.push(...es)
  }
  return { state: s, events }
}

/** A trusted `Reserved` card payment with 5 splits (it came out of `transition`). */
export const reservedPayment = (): Payment => run(initialState, [createCommand(), completeForm]).state as Payment

// -------------------------------------------------------------------------------------
// many splits
// -------------------------------------------------------------------------------------

/** Amount of every split of the large payments; even, so that halving it is exact. */
export const SPLIT_AMOUNT = 1000

/**
 * A trusted `Charged` card payment with `n` splits of {@link SPLIT_AMOUNT} each (the platform fee
 * last). The create limit is 500 splits, so the payment is built by `replay` of a
 * `PaymentCreated` event (which `evolve` trusts) and a `PaymentCharged`; `transition` validates
 * that foreign state in full once, on a first partial refund (split 1 lowered by 2), and returns
 * the trusted state the benchmark starts from.
 */
export const chargedWithSplits = (n: number): Payment => {
  const moneySplitList = Array.from({ length: n }, (_, i) => ({
    connectedAccountID: i === n - 1 ? FEE_ACCOUNT : PARTNERS[i % 3] as string,
    amount: SPLIT_AMOUNT,
    isFee: i === n - 1
  }))
  const request = { ...requestJson(), moneySplitList, grossAmount: n * SPLIT_AMOUNT }
  delete (request as Record<string, unknown>)['customer']
  const replayed = replay([
    {
      type: 'PaymentCreated',
      at: T0,
      paymentReferenceID: PAYMENT_ID,
      request: { ...(request as unknown as PaymentIntentRequest), webhookSubscriptions: [], metaData: {} }
    },
    { type: 'PaymentCharged', at: T1, paymentReferenceID: PAYMENT_ID, chargedAmount: n * SPLIT_AMOUNT, excessRefundedAmount: 0 }
  ])
  const first = lowerSplits(replayed as Payment, [1], 2)
  return must(transition(replayed, { type: 'RefundPartially', at: T2, patch: first }))[0] as Payment
}

/**
 * The patch of a partial refund that lowers the listed splits by `by` each and leaves every other
 * split alone (`DoNothing`): a patch names every split, whatever it changes.
 */
export const lowerSplits = (p: Payment, splitIDs: ReadonlyArray<number>, by: number): MoneySplitPatch => {
  const lowered = new Set(splitIDs)
  let gross = 0
  const moneySplitPatch = p.moneySplits.map((s) => {
    if (lowered.has(s.splitID)) {
      gross += s.amount - by
      return { splitID: s.splitID, updateType: 'UpdateAmount' as const, newAmount: s.amount - by }
    }
    gross += s.amount
    return { splitID: s.splitID, updateType: 'DoNothing' as const }
  })
  return { moneySplitPatch, newGrossAmount: gross }
}

/** The patch of a proportional partial refund: every split lowered by `by`. */
export const lowerAll = (p: Payment, by: number): MoneySplitPatch => {
  let gross = 0
  const moneySplitPatch = p.moneySplits.map((s) => {
    gross += s.amount - by
    return { splitID: s.splitID, updateType: 'UpdateAmount' as const, newAmount: s.amount - by }
  })
  return { moneySplitPatch, newGrossAmount: gross }
}
