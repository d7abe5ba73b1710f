/**
 * Random lives of a payment for the decider's properties: a create request with random splits,
 * then a sequence of intents (complete, charge, refund by a random or proportional patch, KID
 * transfers, …) that `commandFor` turns into concrete commands against the current state, valid
 * or not. Garbage commands are mixed in.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import type { Command } from '../../src/commands.js'
import type { Payment, PaymentState } from '../../src/payment.js'
import { proportionalPatch } from '../../src/patchBuilders.js'
import type { MoneySplitPatch, PatchEntry } from '../../src/codecs/requests.js'
import { at, cardRequest, FEE_ACCOUNT, KID, PARTNER, PAYMENT_ID, SELLER } from './builders.js'

export interface SplitSpec {
  readonly amount: number
  readonly isFee: boolean
  readonly account: number
}

export interface CreateSpec {
  readonly kind: 'card' | 'invoice'
  readonly chargeImmediately: boolean
  readonly splits: ReadonlyArray<SplitSpec>
}

export type Intent =
  | { readonly t: 'create' }
  | { readonly t: 'complete' }
  | { readonly t: 'fail'; readonly reason: string | undefined }
  | { readonly t: 'charge' }
  | { readonly t: 'cancel' }
  | { readonly t: 'refund' }
  | { readonly t: 'refundPartially' | 'adjust'; readonly patch: PatchSpec }
  | { readonly t: 'transfer'; readonly permille: number; readonly wrongKid: boolean }
  | { readonly t: 'garbage'; readonly value: unknown }

export type PatchSpec =
  | { readonly mode: 'proportional'; readonly permille: number; readonly includeFees: boolean }
  | { readonly mode: 'random'; readonly ops: ReadonlyArray<number>; readonly grossOff: number; readonly shuffle: number }

const accounts = [SELLER, PARTNER, '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091']

export const createSpecArb: fc.Arbitrary<CreateSpec> = fc.record({
  kind: fc.constantFrom('card' as const, 'invoice' as const),
  chargeImmediately: fc.boolean(),
  splits: fc
    .array(
      fc.record({
        amount: fc.oneof(fc.integer({ min: 0, max: 50_000 }), fc.constant(0), fc.integer({ min: 0, max: 10 })),
        isFee: fc.boolean(),
        account: fc.integer({ min: 0, max: 2 })
      }),
      { minLength: 1, maxLength: 8 }
    )
    .filter((ss) => ss.reduce((a, s) => a + s.amount, 0) >= 1)
})

const patchSpecArb: fc.Arbitrary<PatchSpec> = fc.oneof(
  fc.record({ mode: fc.constant('proportional' as const), permille: fc.integer({ min: 1, max: 1000 }), includeFees: fc.boolean() }),
  fc.record({
    mode: fc.constant('random' as const),
    ops: fc.array(fc.nat({ max: 1000 }), { minLength: 0, maxLength: 10 }),
    grossOff: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -2, max: 2 })),
    shuffle: fc.nat({ max: 20 })
  })
)

export const intentArb: fc.Arbitrary<Intent> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ t: 'create' as const }) },
  { weight: 3, arbitrary: fc.constant({ t: 'complete' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('fail' as const), reason: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) }) },
  { weight: 3, arbitrary: fc.constant({ t: 'charge' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'refund' as const }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('refundPartially' as const), patch: patchSpecArb }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('adjust' as const), patch: patchSpecArb }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('transfer' as const), permille: fc.integer({ min: 1, max: 1500 }), wrongKid: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('garbage' as const), value: fc.anything() }) }
)

/** Half the scenarios start by charging the payment, so that refunds get a Charged payment to work on. */
const prelude: ReadonlyArray<Intent> = [
  { t: 'complete' },
  { t: 'charge' },
  { t: 'transfer', permille: 1000, wrongKid: false }
]

export const scenarioArb = fc
  .record({ create: createSpecArb, charged: fc.boolean(), intents: fc.array(intentArb, { maxLength: 14 }) })
  .map(({ create, charged, intents }) => ({ create, intents: charged ? [...prelude, ...intents] : intents }))

export const createCommand = (spec: CreateSpec): Command => {
  const moneySplitList = spec.splits.map((s, i) => ({
    connectedAccountID: s.isFee ? FEE_ACCOUNT : (accounts[s.account] ?? SELLER),
    amount: s.amount,
    isFee: s.isFee,
    description: `split ${i + 1}`
  }))
  const grossAmount = spec.splits.reduce((a, s) => a + s.amount, 0)
  const request = cardRequest({
    paymentGateway: spec.kind === 'card' ? 'creditcard' : 'invoice',
    chargeImmediately: spec.chargeImmediately,
    grossAmount,
    moneySplitList
  })
  return { type: 'CreatePayment', at: at(0), paymentReferenceID: PAYMENT_ID, request, ...(spec.kind === 'invoice' ? { kid: KID } : {}) }
}

const randomPatch = (p: Payment, spec: Extract<PatchSpec, { mode: 'random' }>): MoneySplitPatch => {
  const entries: Array<PatchEntry> = []
  let gross = 0
  p.moneySplits.forEach((s, i) => {
    const op = spec.ops[i % Math.max(1, spec.ops.length)] ?? 0
    switch (op % 7) {
      case 0:
      case 1:
        entries.push({ splitID: s.splitID, updateType: 'DoNothing' })
        gross += s.amount
        break
      case 2:
      case 3: {
        const newAmount = Math.floor((s.amount * (op % 1000)) / 999)
        entries.push({ splitID: s.splitID, updateType: 'UpdateAmount', newAmount })
        gross += newAmount
        break
      }
      case 4:
        entries.push({ splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: op % 2 === 0 })
        if (op % 2 !== 0) gross += s.amount
        break
      case 5:
        entries.push({ splitID: s.splitID, updateType: 'UpdateAmount', newAmount: s.amount + 1 })
        gross += s.amount + 1
        break
      default:
        // left out, or named twice
        if (op % 2 === 0) entries.push({ splitID: s.splitID, updateType: 'DoNothing' }, { splitID: s.splitID, updateType: 'DoNothing' })
        gross += s.amount
    }
  })
  if (spec.shuffle === 7) entries.push({ splitID: 9999, updateType: 'DoNothing' })
  return { moneySplitPatch: entries, newGrossAmount: Math.max(0, gross + spec.grossOff) }
}

const patchFor = (p: Payment, spec: PatchSpec): MoneySplitPatch => {
  if (spec.mode === 'random') return randomPatch(p, spec)
  const touchable = p.moneySplits.filter((s) => spec.includeFees || !s.isFee).reduce((a, s) => a + s.amount, 0)
  const amount = Math.max(1, Math.floor((touchable * spec.permille) / 1000))
  const built = proportionalPatch(p, amount, { includeFees: spec.includeFees })
  return E.isRight(built) ? built.right : { moneySplitPatch: [], newGrossAmount: p.grossAmount }
}

/** The concrete command of the n-th intent against the current state. */
export const commandFor = (state: PaymentState, spec: CreateSpec, intent: Intent, n: number): unknown => {
  const t = at(n)
  const p = state.status === 'NoPayment' ? undefined : (state)
  switch (intent.t) {
    case 'create':
      return createCommand(spec)
    case 'complete':
      return { type: 'CompletePaymentForm', at: t }
    case 'fail':
      return intent.reason === undefined ? { type: 'FailPaymentForm', at: t } : { type: 'FailPaymentForm', at: t, reason: intent.reason }
    case 'charge':
      return { type: 'ChargePayment', at: t }
    case 'cancel':
      return { type: 'CancelPayment', at: t }
    case 'refund':
      return { type: 'RefundPayment', at: t }
    case 'refundPartially':
      return { type: 'RefundPartially', at: t, patch: p === undefined ? { moneySplitPatch: [], newGrossAmount: 0 } : patchFor(p, intent.patch) }
    case 'adjust':
      return { type: 'AdjustInvoice', at: t, patch: p === undefined ? { moneySplitPatch: [], newGrossAmount: 0 } : patchFor(p, intent.patch) }
    case 'transfer': {
      const gross = p?.grossAmount ?? 100
      return {
        type: 'ReceiveInvoiceTransfer',
        at: t,
        amount: Math.max(1, Math.floor((gross * intent.permille) / 1000)),
        kid: intent.wrongKid ? '0000000000' : KID
      }
    }
    case 'garbage':
      return intent.value
  }
}
