/**
 * C11: stored states. Every payment paysplit makes carries `schemaVersion: 1`; `validateState`
 * reads 1 or an absent one, refuses a newer one with `UnsupportedSchemaVersion` and anything else
 * with `ValidationFailed`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Command } from '../../src/commands.js'
import type { Payment } from '../../src/payment.js'
import { validateState } from '../../src/state/storedState.js'
import { transition } from '../../src/decider.js'
import { initialState, SCHEMA_VERSION } from '../../src/payment.js'
import { cardPayment, invoicePayment } from '../support/fixtures.js'

const codeOf = (input: unknown): string | undefined => {
  const r = validateState(input)
  return E.isLeft(r) ? r.left.code : undefined
}

describe('C11: every payment paysplit makes carries schemaVersion 1', () => {
  it('a created payment, and every state after it, has schemaVersion 1', () => {
    const created = transition(initialState, {
      type: 'CreatePayment',
      at: '2026-11-21T10:00:00.000Z',
      paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c',
      request: {
        externalPaymentReferenceID: 'order-1001', environment: 'test', paymentGateway: 'creditcard',
        chargeImmediately: true, sellerConnectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
        grossAmount: 100, currency: 'NOK', customerExternalID: 'c-1',
        successUrl: 'https://shop.example/ok', failedUrl: 'https://shop.example/failed',
        moneySplitList: [{ connectedAccountID: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', amount: 100, isFee: false }],
        webhookSubscriptions: [], metaData: {}
      }
    })
    if (E.isLeft(created)) throw new Error(created.left.message)
    const [payment] = created.right
    expect(payment).toMatchObject({ schemaVersion: SCHEMA_VERSION })
    const charged = transition(payment, { type: 'CompletePaymentForm', at: '2026-11-21T10:01:00.000Z' })
    expect(E.isRight(charged) && charged.right[0]).toMatchObject({ schemaVersion: 1, status: 'Charged' })
    // the JSON of a payment is the document a service stores
    expect(JSON.parse(JSON.stringify(payment)).schemaVersion).toBe(1)
  })
})

describe('C11: validateState reads schemaVersion 1 or absent, refuses a newer one', () => {
  it('schemaVersion 1 and an absent one are read as 1', () => {
    const absent: Record<string, unknown> = { ...cardPayment() }
    delete absent['schemaVersion']
    for (const input of [cardPayment(), absent, invoicePayment({ schemaVersion: 1 })]) {
      const r = validateState(input)
      expect(E.isRight(r) && r.right).toMatchObject({ schemaVersion: 1 })
    }
  })

  it.each([2, 3, 1000, 2 ** 60])('schemaVersion %s → UnsupportedSchemaVersion', (v) => {
    expect(codeOf({ ...cardPayment(), schemaVersion: v })).toBe('UnsupportedSchemaVersion')
    expect(codeOf({ ...invoicePayment(), schemaVersion: v })).toBe('UnsupportedSchemaVersion')
  })

  it.each([[0], [-1], [1.5], ['1'], [null], [true], [Number.NaN], [{}]])('schemaVersion %s → ValidationFailed', (v) => {
    const r = validateState({ ...cardPayment(), schemaVersion: v })
    expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
    expect(E.isLeft(r) && r.left.issues?.map((i) => i.path)).toEqual(['state.schemaVersion'])
  })

  it('an inherited schemaVersion is not read (only own properties)', () => {
    const proto = Object.prototype as Record<string, unknown>
    proto['schemaVersion'] = 2
    try {
      const absent: Record<string, unknown> = { ...cardPayment() }
    delete absent['schemaVersion']
      expect(E.isRight(validateState(absent))).toBe(true)
    } finally {
      delete proto['schemaVersion']
    }
  })

  it('transition refuses a newer stored state with UnsupportedSchemaVersion, nothing changed', () => {
    const stored = { ...cardPayment(), schemaVersion: 2 }
    const r = transition(stored as never, { type: 'CancelPayment', at: '2026-11-21T10:01:00.000Z' })
    expect(E.isLeft(r) && r.left.code).toBe('UnsupportedSchemaVersion')
  })
})

// -------------------------------------------------------------------------------------
// golden documents
// -------------------------------------------------------------------------------------

/**
 * The stored documents of this release, one per status and kind, with and without customer,
 * metaData and subscriptions (test/golden/v1/, see its README). They are never regenerated: every
 * later release must read them as they are and continue each life.
 */
const goldenDir = fileURLToPath(new URL('../golden/v1/', import.meta.url))
const golden: ReadonlyArray<readonly [string, Record<string, unknown>]> = readdirSync(goldenDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(goldenDir + f, 'utf8')) as Record<string, unknown>] as const)

const at = '2026-12-01T09:00:00.000Z'

/** The next step of each life, and what it gives: a status, or the error code of a terminal status. */
const nextOf = (p: Payment): { readonly command: Command; readonly expect: string } => {
  const remaining = p.grossAmount - p.paidAmount
  switch (p.status) {
    case 'Initiated':
      return p.kind === 'card'
        ? { command: { type: 'CompletePaymentForm', at }, expect: 'Reserved' }
        : { command: { type: 'ReceiveInvoiceTransfer', at, amount: remaining, kid: p.kid ?? '' }, expect: 'Charged' }
    case 'Reserved':
      return { command: { type: 'ChargePayment', at }, expect: 'Charged' }
    case 'Charged':
      return { command: { type: 'RefundPayment', at }, expect: 'Refunded' }
    case 'Cancelled':
      return { command: { type: 'CancelPayment', at }, expect: 'CancelNotAllowedInStatus' }
    case 'Refunded':
      return { command: { type: 'RefundPayment', at }, expect: 'RefundNotAllowedInStatus' }
  }
}

describe('C11: golden stored documents of every status and kind are read by this release', () => {
  it('there is one for every status × kind, with and without customer, metaData and subscriptions', () => {
    const names = golden.map(([f]) => f.replace('.json', ''))
    for (const life of ['card-initiated', 'card-reserved', 'card-charged', 'card-cancelled', 'card-refunded', 'card-partially-refunded',
      'invoice-initiated', 'invoice-partly-paid', 'invoice-adjusted', 'invoice-charged', 'invoice-refunded']) {
      expect(names).toContain(life)
      expect(names).toContain(`${life}-with-customer-metadata-subscriptions`)
    }
    expect(names).toContain('card-charged-stored-without-schemaVersion')
  })

  it.each(golden)('%s: validateState accepts it as it is (schemaVersion 1), and transition continues its life', (_, doc) => {
    const read = validateState(doc)
    if (E.isLeft(read)) throw new Error(JSON.stringify(read.left, null, 2))
    const payment = read.right as Payment
    expect(JSON.parse(JSON.stringify(payment))).toStrictEqual({ schemaVersion: 1, ...doc })
    const { command, expect: expected } = nextOf(payment)
    const next = transition(doc as never, command)
    if (E.isRight(next)) {
      const [after] = next.right
      expect((after as Payment).status).toBe(expected)
      expect((after as Payment).version).toBe(payment.version + next.right[1].length)
      expect(after).toMatchObject({ schemaVersion: 1 })
    } else {
      expect(next.left.code).toBe(expected)
    }
  })

  it('the same documents one schema newer → UnsupportedSchemaVersion, never misread', () => {
    for (const [, doc] of golden) expect(codeOf({ ...doc, schemaVersion: 2 })).toBe('UnsupportedSchemaVersion')
  })
})
