/**
 * The conformance runner proves it finds real bugs: it passes against the reference server
 * (docs/examples/server.ts, real sockets, a real webhook receiver), and fails with a short,
 * shrunk counterexample against four deliberately broken variants of it (issue 4):
 * cancel allowed on an invoice; a full refund that may exceed the charge; charge allowed when
 * chargeImmediately is true; a webhook not sent on a status change.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentsServer, type PaymentsServer, type ServerOptions } from '../docs/examples/server.js'
import { handle, webhookPaymentOf, type HandleContext, type Handled, type HttpRequest, type World } from '../src/http.js'
import type { Payment } from '../src/payment.js'
import { checkService, type CheckServiceOptions, type ConformanceReport } from '../src/testing.js'
import { cancelInvoice, chargeImmediate, paymentOf, withPayment } from './conformance.fixtures.js'
import { Receiver } from './server.fixtures.js'

type Handler = NonNullable<ServerOptions['handler']>

const receiver = new Receiver()
beforeAll(async () => {
  await receiver.start()
})
afterAll(async () => {
  await receiver.stop()
})

/** Starts the reference server with `handler`, runs the check against it, stops it. */
const check = async (handler: Handler | undefined, extra: Partial<CheckServiceOptions> = {}): Promise<ConformanceReport> => {
  const catchAllUrl = `${receiver.base}/hooks`
  const payments: PaymentsServer = createPaymentsServer({
    catchAllUrl,
    webhooks: { maxAttempts: 1, baseDelayMs: 1, timeoutMs: 2000 },
    ...(handler !== undefined ? { handler } : {})
  })
  const base = await payments.listen()
  const start = receiver.received.length
  try {
    return await checkService({
      send: async ({ method, path, body }) => {
        const res = await fetch(base + path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) })
        const text = await res.text()
        return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) }
      },
      receivedWebhooks: async () => {
        await payments.idle()
        return receiver.received.slice(start).map((w) => ({ url: receiver.base + w.path, body: w.body }))
      },
      catchAllUrl,
      webhookUrls: [`${receiver.base}/sub-a`, `${receiver.base}/sub-b`],
      completeForm: (id) => payments.completeForm(id),
      failForm: (id, reason) => payments.failForm(id, reason),
      receiveTransfer: (id, amount, k) => payments.receiveTransfer(id, amount, k),
      ...extra
    })
  } finally {
    await payments.close()
  }
}

// -------------------------------------------------------------------------------------
// broken variants of the reference service model
// -------------------------------------------------------------------------------------

/** Bug 2: a full refund returns the original charge again, ignoring earlier partial refunds (it may exceed the charge). */
const refundTooMuch: Handler = (world, request, ctx) => {
  const before = paymentOf(world, request.path)
  const [after, response, deliveries] = handle(world, request, ctx)
  if (!request.path.endsWith('/refund') || before === undefined || response.status !== 200) return [after, response, deliveries]
  const q = paymentOf(after, request.path)
  if (q === undefined) return [after, response, deliveries]
  const broken: Payment = { ...q, refundedAmount: before.refundedAmount + before.chargedAmount }
  const view = webhookPaymentOf(broken)
  return [withPayment(after, broken), response, deliveries.map((d) => ({ ...d, payload: { ...d.payload, payload: { payment: view } } }))]
}

/** Bug 4: no webhook is sent when a payment is cancelled. */
const silentCancel: Handler = (world: World, request: HttpRequest, ctx: HandleContext): Handled => {
  const [after, response, deliveries] = handle(world, request, ctx)
  return [after, response, deliveries.filter((d) => d.eventType !== 'Cancelled')]
}

/** The request lines of a counterexample log (responses, model notes and the verdict left out). */
const steps = (report: ConformanceReport): ReadonlyArray<string> =>
  report.ok ? [] : report.counterexample.split('\n').filter((l) => !l.startsWith(' ') && !l.startsWith('✗'))

describe('checkService against the reference server', () => {
  it('passes: the reference server conforms to the reference model', async () => {
    const report = await check(undefined, { numRuns: 2 * (fc.readConfigureGlobal().numRuns ?? 100) })
    if (!report.ok) console.log(report.counterexample)
    expect(report.ok).toBe(true)
  })

  it('bug 1, cancel allowed on an invoice: fails with create invoice → cancel', async () => {
    const report = await check(cancelInvoice, { numRuns: 200, kinds: ['invoice'] })
    expect(report.ok).toBe(false)
    if (report.ok) return
    console.log(`bug 1 counterexample:\n${report.counterexample}`)
    expect(steps(report)).toHaveLength(2)
    expect(steps(report)[0]).toMatch(/^POST \/payments /)
    expect(steps(report)[1]).toBe('POST /payments/<payment 1>/cancel')
    expect(report.counterexample).toContain('response differs')
  })

  it('bug 2, a full refund that may exceed the charge: fails after a partial refund', async () => {
    // this bug needs a 4–5 step life (charge, partial refund, full refund): random search misses it in
    // some runs of 3000, so the seed is pinned to keep the proof deterministic
    const report = await check(refundTooMuch, { numRuns: 3000, kinds: ['card'], seed: 2 })
    expect(report.ok).toBe(false)
    if (report.ok) return
    console.log(`bug 2 counterexample:\n${report.counterexample}`)
    const s = steps(report)
    expect(s.length).toBeLessThanOrEqual(5)
    expect(s.some((l) => l.includes('/refund/partially'))).toBe(true)
    expect(s[s.length - 1]).toBe('POST /payments/<payment 1>/refund')
    expect(report.counterexample).toContain('webhooks differ')
  })

  it('bug 3, charge allowed when chargeImmediately is true: fails with create → charge', async () => {
    const report = await check(chargeImmediate, { numRuns: 200, kinds: ['card'] })
    expect(report.ok).toBe(false)
    if (report.ok) return
    console.log(`bug 3 counterexample:\n${report.counterexample}`)
    expect(steps(report)).toHaveLength(2)
    expect(steps(report)[1]).toBe('POST /payments/<payment 1>/charge')
  })

  it('bug 4, no webhook on a status change: fails with create → cancel, naming the missing Cancelled', async () => {
    const report = await check(silentCancel, { numRuns: 200, kinds: ['card'] })
    expect(report.ok).toBe(false)
    if (report.ok) return
    console.log(`bug 4 counterexample:\n${report.counterexample}`)
    expect(steps(report)).toHaveLength(2)
    expect(steps(report)[1]).toBe('POST /payments/<payment 1>/cancel')
    expect(report.counterexample).toContain('webhooks differ')
    expect(report.counterexample).toMatch(/Cancelled <payment 1>:2/)
  })

  it('a service that throws is a failed report, not a rejection; the seed and path replay it', async () => {
    let calls = 0
    const report = await checkService({
      send: () => {
        calls += 1
        return Promise.reject(new Error('connection refused'))
      },
      numRuns: 5,
      seed: 1
    })
    expect(report.ok).toBe(false)
    expect(calls).toBeGreaterThan(0)
    if (!report.ok) {
      expect(report.counterexample).toContain('the service threw: connection refused')
      const replay = await checkService({ send: () => Promise.reject(new Error('connection refused')), seed: report.seed, path: report.path })
      expect(replay.ok).toBe(false)
    }
    void E.right(0)
  })
})
