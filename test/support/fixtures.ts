/**
 * Hand-built, valid payment states for tests: a card payment and an invoice, both `Initiated`,
 * plus helpers that move them on the way `evolve` would (charge, refund by split, set splits).
 * Every call returns a fresh object; `overrides` replace top-level fields as given (no check).
 */
import fc from 'fast-check'
import type { MoneySplit, Payment } from '../../src/payment.js'

// -------------------------------------------------------------------------------------
// identifiers and times
// -------------------------------------------------------------------------------------

/** Valid UUIDs used by the fixtures. */
export const ids = {
  /** The card payment's paymentReferenceID. */
  cardPayment: '3f2b8c1e-7a4d-4e9f-9b2c-1d5e6f7a8b9c',
  /** The invoice's paymentReferenceID. */
  invoicePayment: 'c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
  /** The seller: sellerConnectedAccountID and the first split's account. */
  seller: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  /** A second, non-fee account. */
  partner: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  /** The platform's fee account. */
  platform: '11111111-2222-4333-8444-555555555555'
} as const

/**
 * A valid KID: base 1234567890, MOD10 check digit 3 (weights 2,1,2,1,… from the right:
 * 0·2 + 9·1 + 8·2→7 + 7·1 + 6·2→3 + 5·1 + 4·2 + 3·1 + 2·2 + 1·1 = 47; (10 − 7) mod 10 = 3).
 */
export const validKid = '12345678903'

/** The `at` of the create command: createdAt, updatedAt and every split's insertTime. */
export const createdAt = '2026-11-21T10:00:00.000Z'
/** A later timestamp for the commands that follow. */
export const later = '2026-11-21T10:05:00.000Z'

// -------------------------------------------------------------------------------------
// payments
// -------------------------------------------------------------------------------------

/** One split of a hand-built payment, before splitIDs are assigned. */
export interface SplitSpec {
  readonly connectedAccountID: string
  readonly amount: number
  readonly isFee: boolean
  readonly description?: string
  readonly externalID?: string
}

/** Money-split records 1..n for the specs, owned by `paymentReferenceID`. */
export const makeSplits = (
  paymentReferenceID: string,
  specs: ReadonlyArray<SplitSpec>,
  insertTime: string = createdAt
): Array<MoneySplit> =>
  specs.map((s, i) => ({
    splitID: i + 1,
    paymentReferenceID,
    connectedAccountID: s.connectedAccountID,
    amount: s.amount,
    ...(s.description !== undefined ? { description: s.description } : {}),
    insertTime,
    ...(s.externalID !== undefined ? { externalID: s.externalID } : {}),
    isFee: s.isFee
  }))

/**
 * A valid `Initiated` card payment of 10000 NOK øre, charged immediately when the form is
 * completed: seller 7000, partner 2000, platform fee 1000; with a customer, a webhook
 * subscription and metaData. Version 2 (PaymentCreated, CustomerUpserted).
 */
export const cardPayment = (overrides: Partial<Payment> = {}): Payment => ({
  schemaVersion: 1,
  status: 'Initiated',
  kind: 'card',
  paymentReferenceID: ids.cardPayment,
  externalPaymentReferenceID: 'order-1001',
  environment: 'test',
  paymentGateway: 'creditcard',
  chargeImmediately: true,
  sellerConnectedAccountID: ids.seller,
  externalObjectIdTag: 'cart-77',
  description: 'Two concert tickets',
  currency: 'NOK',
  grossAmount: 10000,
  moneySplits: makeSplits(ids.cardPayment, [
    { connectedAccountID: ids.seller, amount: 7000, isFee: false, description: 'Tickets', externalID: 'item-1' },
    { connectedAccountID: ids.partner, amount: 2000, isFee: false, description: 'Venue share' },
    { connectedAccountID: ids.platform, amount: 1000, isFee: true, description: 'Platform fee' }
  ]),
  customerExternalID: 'customer-42',
  customer: {
    name: 'Kari Nordmann',
    email: 'kari.nordmann@example.no',
    mobilePrefix: '+47',
    mobile: '91234567',
    customerType: 'Individual'
  },
  webhookSubscriptions: [{ eventType: 'Charged', url: 'https://shop.example/hooks/charged' }],
  successUrl: 'https://shop.example/paid?order=1001',
  failedUrl: 'https://shop.example/failed?order=1001',
  metaData: { orderNo: 'A-1001', seats: 2, gift: false, note: null },
  chargedAmount: 0,
  refundedAmount: 0,
  excessRefundedAmount: 0,
  paidAmount: 0,
  formAttempts: [],
  allocation: [],
  createdAt,
  updatedAt: createdAt,
  version: 2,
  ...overrides
})

/**
 * A valid `Initiated`, unpaid invoice of 5000 NOK øre with KID {@link validKid}: seller 4500,
 * platform fee 500; no customer, no chargeImmediately. Version 1 (PaymentCreated).
 */
export const invoicePayment = (overrides: Partial<Payment> = {}): Payment => ({
  schemaVersion: 1,
  status: 'Initiated',
  kind: 'invoice',
  paymentReferenceID: ids.invoicePayment,
  externalPaymentReferenceID: 'invoice-2001',
  environment: 'production',
  paymentGateway: 'invoice',
  sellerConnectedAccountID: ids.seller,
  currency: 'NOK',
  grossAmount: 5000,
  moneySplits: makeSplits(ids.invoicePayment, [
    { connectedAccountID: ids.seller, amount: 4500, isFee: false },
    { connectedAccountID: ids.platform, amount: 500, isFee: true }
  ]),
  customerExternalID: 'customer-43',
  webhookSubscriptions: [],
  successUrl: 'https://shop.example/paid',
  failedUrl: 'https://shop.example/failed',
  metaData: {},
  chargedAmount: 0,
  refundedAmount: 0,
  excessRefundedAmount: 0,
  paidAmount: 0,
  kid: validKid,
  formAttempts: [],
  allocation: [],
  createdAt,
  updatedAt: createdAt,
  version: 1,
  ...overrides
})

// -------------------------------------------------------------------------------------
// moving a payment on, the way evolve does
// -------------------------------------------------------------------------------------

/** The payment with these splits (1..n) and the matching grossAmount. */
export const withSplits = (p: Payment, specs: ReadonlyArray<SplitSpec>): Payment => {
  const moneySplits = makeSplits(p.paymentReferenceID, specs, p.createdAt)
  return { ...p, moneySplits, grossAmount: moneySplits.reduce((n, s) => n + s.amount, 0) }
}

/**
 * The payment `Charged`: a card for its gross; an invoice for its `paidAmount` (raised to the
 * gross when less), any excess refunded. The allocation is the current splits.
 */
export const charge = (p: Payment, at: string = later): Payment => {
  const paidAmount = p.kind === 'invoice' ? Math.max(p.paidAmount, p.grossAmount) : 0
  const excess = p.kind === 'invoice' ? paidAmount - p.grossAmount : 0
  return {
    ...p,
    status: 'Charged',
    paidAmount,
    chargedAmount: p.kind === 'invoice' ? paidAmount : p.grossAmount,
    refundedAmount: p.refundedAmount + excess,
    excessRefundedAmount: p.excessRefundedAmount + excess,
    allocation: p.moneySplits,
    updatedAt: at,
    version: p.version + 1
  }
}

/**
 * What a patch does to one split: its new amount, or `'delete'`. Splits not named keep theirs.
 */
export type SplitChange = number | 'delete'

/**
 * Applies split changes the way a partial refund (status `Charged`) or an invoice adjustment
 * (status `Initiated`) would, without checking them: new amounts (never above the current ones
 * for a valid result), deleted splits removed, grossAmount updated. A charged payment counts the
 * difference as refunded and becomes `Refunded` at 0.
 */
export const changeSplits = (
  p: Payment,
  changes: ReadonlyMap<number, SplitChange>,
  at: string = later
): Payment => {
  const moneySplits: Array<MoneySplit> = []
  for (const s of p.moneySplits) {
    const c = changes.get(s.splitID)
    if (c === 'delete') continue
    moneySplits.push(c === undefined ? s : { ...s, amount: c })
  }
  const grossAmount = moneySplits.reduce((n, s) => n + s.amount, 0)
  const charged = p.status === 'Charged'
  return {
    ...p,
    moneySplits,
    grossAmount,
    refundedAmount: charged ? p.refundedAmount + (p.grossAmount - grossAmount) : p.refundedAmount,
    status: charged && grossAmount === 0 ? 'Refunded' : p.status,
    updatedAt: at,
    version: p.version + 1
  }
}

/** The payment refunded in full: every split kept with amount 0, status `Refunded`. */
export const refundAll = (p: Payment, at: string = later): Payment => ({
  ...p,
  status: 'Refunded',
  moneySplits: p.moneySplits.map((s) => ({ ...s, amount: 0 })),
  grossAmount: 0,
  refundedAmount: p.refundedAmount + p.grossAmount,
  updatedAt: at,
  version: p.version + 1
})

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

/** What one patch does to the split at a position: keep it, lower it to `fraction` of itself, delete it. */
interface StepOp {
  readonly op: 'keep' | 'lower' | 'delete'
  readonly fraction: number
}

const stepOpArb: fc.Arbitrary<StepOp> = fc.record({
  op: fc.constantFrom<StepOp['op']>('keep', 'lower', 'delete'),
  fraction: fc.double({ min: 0, max: 1, noNaN: true })
})

/** A patch as ops by position (cycled over the current splits). */
const stepArb = fc.array(stepOpArb, { minLength: 1, maxLength: 6 })

/** The changes one step makes: each current split gets the op at its position (cycled). */
const changesOf = (p: Payment, step: ReadonlyArray<StepOp>): Map<number, SplitChange> => {
  const changes = new Map<number, SplitChange>()
  p.moneySplits.forEach((s, i) => {
    const o = step[i % step.length]
    if (o === undefined || o.op === 'keep') return
    changes.set(s.splitID, o.op === 'delete' ? 'delete' : Math.floor(s.amount * o.fraction))
  })
  return changes
}

const amountArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 16) }) }
)

/** 1..12 splits; fee splits all on the platform account, which may hold non-fee splits too. */
export const splitSpecsArb: fc.Arbitrary<ReadonlyArray<SplitSpec>> = fc
  .array(
    fc.record({
      isFee: fc.boolean(),
      account: fc.constantFrom(ids.seller, ids.partner, ids.platform),
      amount: amountArb
    }),
    { minLength: 1, maxLength: 12 }
  )
  .map((xs) => {
    const specs = xs.map((x) => ({
      connectedAccountID: x.isFee ? ids.platform : x.account,
      amount: x.amount,
      isFee: x.isFee
    }))
    const first = specs[0]
    if (first !== undefined && specs.every((s) => s.amount === 0)) specs[0] = { ...first, amount: 1 }
    return specs
  })

const applySteps = (p: Payment, steps: ReadonlyArray<ReadonlyArray<StepOp>>): Payment => {
  let q = p
  for (const step of steps) {
    if (q.status !== 'Charged') break
    q = changeSplits(q, changesOf(q, step))
  }
  return q
}

const cardArb: fc.Arbitrary<Payment> = fc
  .record({
    specs: splitSpecsArb,
    chargeImmediately: fc.boolean(),
    attempts: fc.array(fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), { maxLength: 2 }),
    path: fc.constantFrom('Initiated', 'Reserved', 'Cancelled', 'Charged', 'RefundedInFull'),
    steps: fc.array(stepArb, { maxLength: 4 })
  })
  .map(({ specs, chargeImmediately, attempts, path, steps }) => {
    const immediate = path === 'Reserved' ? false : chargeImmediately
    let p = withSplits(
      cardPayment({
        chargeImmediately: immediate,
        formAttempts: attempts.map((reason) => (reason === undefined ? { at: createdAt } : { at: createdAt, reason }))
      }),
      specs
    )
    switch (path) {
      case 'Initiated':
        return p
      case 'Reserved':
        return { ...p, status: 'Reserved', version: p.version + 1 }
      case 'Cancelled':
        return { ...p, status: 'Cancelled', version: p.version + 1 }
      case 'Charged':
        return applySteps(charge(p), steps)
      case 'RefundedInFull':
        p = applySteps(charge(p), steps)
        return p.status === 'Charged' ? refundAll(p) : p
    }
  })

const invoiceArb: fc.Arbitrary<Payment> = fc
  .record({
    specs: splitSpecsArb,
    adjustments: fc.array(stepArb, { maxLength: 2 }),
    settle: fc.boolean(),
    paidFraction: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    excess: fc.integer({ min: 0, max: 100_000 }),
    refundInFull: fc.boolean(),
    steps: fc.array(stepArb, { maxLength: 4 })
  })
  .map(({ specs, adjustments, settle, paidFraction, excess, refundInFull, steps }) => {
    let p = withSplits(invoicePayment(), specs)
    for (const step of adjustments) p = changeSplits(p, changesOf(p, step))
    if (!settle && p.grossAmount > 0) {
      return { ...p, paidAmount: Math.floor(p.grossAmount * paidFraction) }
    }
    p = applySteps(charge({ ...p, paidAmount: p.grossAmount + excess }), steps)
    return refundInFull && p.status === 'Charged' ? refundAll(p) : p
  })

/** Valid payments of every kind and status, built by the helpers above. */
export const paymentArb: fc.Arbitrary<Payment> = fc.oneof(cardArb, invoiceArb)

/**
 * A Charged card payment (charged at once, nothing refunded) holding exactly `moneySplits`,
 * its allocation the same splits: the shell the patch tests put their splits in.
 */
export const chargedCardWith = (paymentReferenceID: string, at: string, moneySplits: ReadonlyArray<MoneySplit>): Payment => {
  const gross = moneySplits.reduce((sum, s) => sum + s.amount, 0)
  return {
    schemaVersion: 1,
    status: 'Charged',
    kind: 'card',
    paymentReferenceID,
    externalPaymentReferenceID: 'order-1',
    environment: 'test',
    paymentGateway: 'creditcard',
    chargeImmediately: true,
    sellerConnectedAccountID: 'cccccccc-0000-4000-8000-000000000000',
    currency: 'NOK',
    grossAmount: gross,
    moneySplits,
    customerExternalID: 'customer-1',
    webhookSubscriptions: [],
    successUrl: 'https://shop.example/ok',
    failedUrl: 'https://shop.example/failed',
    metaData: {},
    chargedAmount: gross,
    refundedAmount: 0,
    excessRefundedAmount: 0,
    paidAmount: 0,
    formAttempts: [],
    allocation: moneySplits,
    createdAt: at,
    updatedAt: at,
    version: 2
  }
}
