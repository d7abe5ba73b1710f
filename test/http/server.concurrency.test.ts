/**
 * Optimistic concurrency on `version` (issue 3): many concurrent refunds at one payment over real
 * sockets. Two requests never both succeed from the same version, so the refunded total never
 * exceeds the charge and no refund is lost. Storage latency makes the requests interleave the way
 * they do against a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/index.js'
import { createPaymentsServer, type PaymentsServer } from '../support/server.js'
import { InMemoryStorage } from '../support/storage.js'
import { FEE_ACCOUNT, OTHER_ACCOUNT, SELLER, cardRequest, patchOf } from '../support/http.fixtures.js'
import { Receiver, call } from '../support/server.fixtures.js'

const splits = [
  { connectedAccountID: SELLER, amount: 4000, isFee: false },
  { connectedAccountID: OTHER_ACCOUNT, amount: 3500, isFee: false },
  { connectedAccountID: SELLER, amount: 1500, isFee: false },
  { connectedAccountID: FEE_ACCOUNT, amount: 1000, isFee: true }
]

const start = async (storage: InMemoryStorage, catchAllUrl: string, maxCommitAttempts = 8) => {
  const server = createPaymentsServer({
    storage,
    catchAllUrl,
    maxCommitAttempts,
    conflictBackoffMs: 1,
    webhooks: { maxAttempts: 2, baseDelayMs: 5, timeoutMs: 2000 }
  })
  const base = await server.listen(0, '127.0.0.1')
  return { server, base }
}

/** A charged card payment of 10000 in four splits (each ≥ 1000: room for 6 clients × 150). */
const chargedPayment = async (server: PaymentsServer, base: string, ref: string): Promise<string> => {
  const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: ref, chargeImmediately: true, moneySplitList: splits }))
  expect(r.status).toBe(201)
  const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
  await server.completeForm(id)
  return id
}

const read = async (server: PaymentsServer, id: string): Promise<Payment> => {
  const p = await server.payment(id)
  if (p === undefined) throw new Error('missing')
  return p
}

const refunded = (body: { refundedSplit: ReadonlyArray<{ refundAmount: number }> }): number =>
  body.refundedSplit.reduce((s, x) => s + x.refundAmount, 0)

let receiver: Receiver
let hooks = ''

beforeAll(async () => {
  receiver = new Receiver()
  hooks = await receiver.start()
})

afterAll(async () => {
  await receiver.stop()
})

describe('concurrent refunds at one payment (optimistic concurrency on version)', () => {
  let app: { server: PaymentsServer; base: string }

  beforeAll(async () => {
    app = await start(new InMemoryStorage({ latencyMs: 1 }), `${hooks}/all`)
  })
  afterAll(async () => {
    await app.server.close()
  })

  it('24 clients, each refunding 3 × 50 by re-reading and retrying: every success is counted once, the total is exact, and never above the charge', async () => {
    const { server, base } = app
    const id = await chargedPayment(server, base, 'conc-1')
    const clients = 24
    const perClient = 3
    const step = 50
    let successes = 0
    let reported = 0
    const statuses = new Map<number, number>()
    const client = async (n: number): Promise<void> => {
      let done = 0
      for (let attempt = 0; attempt < 200 && done < perClient; attempt++) {
        const p = await read(server, id)
        const target = p.moneySplits[n % p.moneySplits.length]
        if (target === undefined || target.amount < step) return
        const r = await call(base, 'POST', `/payments/${id}/refund/partially`, patchOf(p, { [target.splitID]: target.amount - step }))
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        if (r.status === 200) {
          done += 1
          successes += 1
          reported += refunded(r.body)
        } else {
          // stale patch (another refund got in first) or lost every race: read again and retry
          expect([400, 409]).toContain(r.status)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
        }
      }
    }
    await Promise.all(Array.from({ length: clients }, (_, n) => client(n)))

    const final = await read(server, id)
    expect(successes).toBe(clients * perClient)
    expect(reported).toBe(successes * step)
    // no lost update: what the 200s reported is exactly what the payment holds
    expect(final.refundedAmount).toBe(reported)
    expect(final.refundedAmount).toBeLessThanOrEqual(final.chargedAmount)
    expect(final.chargedAmount).toBe(final.grossAmount + final.refundedAmount)
    // one version per success: created (1), charged (2), then one event per refund
    expect(final.version).toBe(2 + successes)
    // contention really happened: some requests were stale
    expect((statuses.get(400) ?? 0) + (statuses.get(409) ?? 0)).toBeGreaterThan(0)

    await server.idle()
    const partial = receiver.for('/all', id).filter((r) => r.body.eventType === 'PartiallyRefunded')
    expect(partial).toHaveLength(successes)
    expect(new Set(partial.map((r) => r.body.eventID)).size).toBe(successes)
  })

  it('30 requests fired at once from one snapshot (partial and full refunds): at most one of each kind succeeds, never more than the charge', async () => {
    const { server, base } = app
    const id = await chargedPayment(server, base, 'conc-2')
    const snapshot = await read(server, id)
    const requests = Array.from({ length: 30 }, (_, n) =>
      n % 3 === 0
        ? call(base, 'POST', `/payments/${id}/refund`)
        : call(base, 'POST', `/payments/${id}/refund/partially`, patchOf(snapshot, { [(n % 4) + 1]: 'delete' }))
    )
    const replies = await Promise.all(requests)
    const fullOk = replies.filter((r, n) => n % 3 === 0 && r.status === 200)
    const partialOk = replies.filter((r, n) => n % 3 !== 0 && r.status === 200)
    for (const r of replies) expect([200, 400, 409]).toContain(r.status)
    expect(fullOk.length).toBeLessThanOrEqual(1)
    // every partial refund was built on the same version: only one can have succeeded from it
    expect(partialOk.length).toBeLessThanOrEqual(1)
    expect(fullOk.length + partialOk.length).toBeGreaterThanOrEqual(1)

    const final = await read(server, id)
    expect(final.refundedAmount).toBeLessThanOrEqual(final.chargedAmount)
    expect(final.chargedAmount).toBe(final.grossAmount + final.refundedAmount)
    expect(final.version).toBe(2 + fullOk.length + partialOk.length)
    if (fullOk.length === 1) {
      expect(final).toMatchObject({ status: 'Refunded', refundedAmount: 10000, grossAmount: 0 })
    } else {
      expect(final.refundedAmount).toBe(refunded(partialOk[0]?.body))
    }
  })
})

describe('the test has teeth: without the version check, concurrent refunds are lost', () => {
  it('a last-writer-wins store lets several refunds succeed from one version, and the stored total disagrees with them', async () => {
    const naive = await start(new InMemoryStorage({ latencyMs: 20, checkVersions: false }), `${hooks}/naive`)
    try {
      const id = await chargedPayment(naive.server, naive.base, 'naive-1')
      const snapshot = await read(naive.server, id)
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          call(naive.base, 'POST', `/payments/${id}/refund/partially`, patchOf(snapshot, { [(n % 4) + 1]: 'delete' }))
        )
      )
      const ok = replies.filter((r) => r.status === 200)
      const final = await read(naive.server, id)
      // several succeeded from the same version; their refunds add up to more than the payment holds
      expect(ok.length).toBeGreaterThan(1)
      expect(ok.reduce((s, r) => s + refunded(r.body), 0)).toBeGreaterThan(final.refundedAmount)
    } finally {
      await naive.server.close()
    }
  })
})
