/**
 * The conformance runner's contract with a live service (docs/testing.md, "Sharing a service",
 * "Webhooks", "Races"), in process: each call's references carry a prefix of its seed and run
 * id, so calls share one service; a service without the read routes passes with one note;
 * webhooks at a receiver are checked at least once and in any order (duplicates pass; a wrong
 * `webhook-id`, an invalid signature or a webhook the model did not send fail); the same request
 * twice at once passes on a service that runs them one after the other.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { kid } from '../../src/index.js'
import { emptyWorld, handle, type HandleContext, type WebhookDelivery, type World } from '../../src/http.js'
import { checkService, describeReport, type CheckServiceOptions, type ReceivedWebhook, type ServiceRequest, type ServiceResponse } from '../../src/conformance.js'

const UNKNOWN = 'ffffffff-ffff-4fff-bfff-ffffffffffff'
const RECEIVER = 'http://receiver.test'

/**
 * One long-lived service: paysplit's model on a world that is never reset, a fresh id, time and
 * KID per request; every delivery kept as the receiver would get it (`webhook-id` = eventID).
 */
const liveService = (answer?: (request: ServiceRequest) => ServiceResponse | undefined) => {
  let world: World = emptyWorld
  let n = 0
  const received: ReceivedWebhook[] = []
  const sent: ServiceRequest[] = []
  const send = (request: ServiceRequest): Promise<ServiceResponse> => {
    sent.push(request)
    const own = answer?.(request)
    if (own !== undefined) return Promise.resolve(own)
    n += 1
    // as a service does: a repeated create keeps the KID stored with its reference
    const made = kid.create(String(5_000_000 + n), 'mod10')
    const ext = (request.body as { externalPaymentReferenceID?: unknown } | undefined)?.externalPaymentReferenceID
    const stored = typeof ext === 'string' ? world.references.get(ext)?.kid : undefined
    const ctx: HandleContext = {
      at: new Date(Date.UTC(2027, 0, 1) + n * 1000).toISOString(),
      paymentReferenceID: `6f1c3c52-3f51-4b8e-9a8e-${n.toString(16).padStart(12, '0')}`,
      kid: stored ?? (E.isRight(made) ? made.right : '')
    }
    const { world: next, response, deliveries } = handle(world, { method: request.method, path: request.path, body: JSON.parse(JSON.stringify(request.body ?? null)) as unknown }, ctx)
    world = next
    received.push(...deliveries.map((d: WebhookDelivery) => ({ url: d.url, body: JSON.parse(JSON.stringify(d.payload)) as unknown, headers: { 'webhook-id': d.payload.eventID } })))
    return Promise.resolve({ status: response.status, body: JSON.parse(JSON.stringify(response.body)) as unknown })
  }
  return { send, received, sent }
}

describe('namespaced runs: any number of calls share one service', () => {
  it('the prefix is k<seed>-<runId>-, the run id cut to letters, digits, _ and -; a negative seed reads n<seed>', async () => {
    const { send } = liveService()
    expect(await checkService({ send, numRuns: 2, seed: 12, runId: 'ci build/7 é' })).toMatchObject({ ok: true, prefix: 'k12-cibuild7-' })
    expect(await checkService({ send, numRuns: 2, seed: -5 })).toMatchObject({ ok: true, prefix: 'kn5-' })
    const sixty = 'x'.repeat(60)
    expect(await checkService({ send, numRuns: 1, seed: 1, runId: sixty })).toMatchObject({ ok: true, prefix: `k1-${'x'.repeat(32)}-` })
  })

  it('the same seed twice on one service without a reset: passes under two run ids, fails under one (its creates are repeats)', async () => {
    const { send } = liveService()
    const options: CheckServiceOptions = { send, numRuns: 30, seed: 5, kinds: ['card'] }
    expect(await checkService({ ...options, runId: 'a' })).toMatchObject({ ok: true, prefix: 'k5-a-' })
    expect(await checkService({ ...options, runId: 'b' })).toMatchObject({ ok: true, prefix: 'k5-b-' })
    const again = await checkService({ ...options, runId: 'b' })
    expect(again.ok).toBe(false)
    expect(again.ok ? '' : again.counterexample).toMatch(/expected \(model\): 201 .*\n\s+received \(service\): (200|409) /)
  })
})

describe('only the contract: reads', () => {
  it('a service without the read routes passes, told so once in the notes (when paysplit’s model has the reads)', async () => {
    const { response: probe } = handle(emptyWorld, { method: 'GET', path: `/payments/${UNKNOWN}` }, { at: '2027-01-01T00:00:00.000Z', paymentReferenceID: UNKNOWN })
    const modelHasReads = (probe.body as { error?: { code?: string } }).error?.code === 'PaymentNotFound'
    const service = liveService((request) =>
      request.method === 'GET' && !request.path.endsWith('/cancel') ? { status: 405, body: { success: false, error: { code: 'MethodNotAllowed', message: 'POST only.' } } } : undefined
    )
    const report = await checkService({ send: service.send, numRuns: 40, seed: 3 })
    if (!report.ok) console.log(report.counterexample)
    expect(report.ok).toBe(true)
    expect(report.notes).toEqual(
      modelHasReads ? ['The service has no read routes (GET /payments/{id} of an unknown id answered 405 MethodNotAllowed, not 404 PaymentNotFound): reads were not checked.'] : []
    )
    // the probe is the only read sent (none at all while the model has no reads)
    expect(service.sent.filter((r) => r.method === 'GET' && !r.path.endsWith('/cancel'))).toHaveLength(modelHasReads ? 1 : 0)
    expect(describeReport(report)).toContain(modelHasReads ? 'Note: The service has no read routes' : 'passed')
  })
})

/** A receiver over the deliveries `liveService` kept; `change` alters what arrives. */
const receiverOf = (received: ReadonlyArray<ReceivedWebhook>, change: (ws: ReadonlyArray<ReceivedWebhook>) => ReadonlyArray<ReceivedWebhook> = (ws) => ws) => ({
  url: RECEIVER,
  collect: () => Promise.resolve(change(received))
})

describe('webhooks at a receiver: at least once, any order', () => {
  it('every request subscribes this run’s urls under the receiver; duplicates and any order pass', async () => {
    const service = liveService()
    const twiceReversed = (ws: ReadonlyArray<ReceivedWebhook>): ReadonlyArray<ReceivedWebhook> => [...ws, ...ws].reverse()
    const report = await checkService({ send: service.send, webhookReceiver: receiverOf(service.received, twiceReversed), numRuns: 40, seed: 2, runId: 'hooks' })
    if (!report.ok) console.log(report.counterexample)
    expect(report).toMatchObject({ ok: true })
    const customerOf = (r: ServiceRequest): unknown => (typeof r.body === 'object' && r.body !== null ? (r.body as { customerExternalID?: unknown }).customerExternalID : undefined)
    const creates = service.sent.filter((r) => r.path === '/payments' && String(customerOf(r)).startsWith('k2-hooks-'))
    expect(creates.length).toBeGreaterThan(0)
    for (const c of creates) {
      const subs = (c.body as { webhookSubscriptions: ReadonlyArray<{ url: string; eventType: string }> }).webhookSubscriptions
      // every event type to <receiver>/<run prefix>all, and the generated ones to …a or …b
      expect(subs.filter((s) => /^http:\/\/receiver\.test\/k2-hooks-r\d+-all$/.test(s.url)).map((s) => s.eventType)).toEqual(['Initiated', 'Reserved', 'Charged', 'Cancelled', 'Refunded', 'PartiallyRefunded', 'InvoiceAdjusted'])
      expect(subs.every((s) => /^http:\/\/receiver\.test\/k2-hooks-r\d+-(all|a|b)$/.test(s.url))).toBe(true)
    }
    expect(service.received.length).toBeGreaterThan(0)
  })

  const failsWith = async (change: (ws: ReadonlyArray<ReceivedWebhook>) => ReadonlyArray<ReceivedWebhook>, message: RegExp): Promise<void> => {
    const service = liveService()
    const report = await checkService({ send: service.send, webhookReceiver: receiverOf(service.received, change), numRuns: 40, seed: 2, kinds: ['card'] })
    expect(report.ok).toBe(false)
    expect(report.ok ? '' : report.counterexample).toMatch(message)
  }

  it('a missing webhook fails, named', async () => {
    await failsWith((ws) => ws.filter((w) => (w.body as { eventType: string }).eventType !== 'Cancelled'), /missing \(not received within the grace period\): Cancelled <payment 1>:2 → <receiver>\/all/)
  })
  it('a webhook-id header that is not the eventID fails', async () => {
    await failsWith((ws) => ws.map((w) => ({ ...w, headers: { 'webhook-id': 'msg_1' } })), /webhook-id header "msg_1" is not the eventID: Initiated <payment 1>:1/)
  })
  it('an invalid signature fails; an unchecked one passes', async () => {
    await failsWith((ws) => ws.map((w) => ({ ...w, signature: 'invalid' as const })), /signature not valid \(Standard Webhooks\): Initiated <payment 1>:1/)
    const service = liveService()
    const unchecked = (ws: ReadonlyArray<ReceivedWebhook>): ReadonlyArray<ReceivedWebhook> => ws.map((w) => ({ ...w, signature: 'unchecked' as const }))
    expect((await checkService({ send: service.send, webhookReceiver: receiverOf(service.received, unchecked), numRuns: 10, seed: 2 })).ok).toBe(true)
  })
  it('a webhook the model did not send, at this run’s url, fails; one at another run’s url is not this run’s business', async () => {
    const stray = (ws: ReadonlyArray<ReceivedWebhook>): ReadonlyArray<ReceivedWebhook> => ws.flatMap((w) => [w, { ...w, body: { ...(w.body as object), eventID: `${(w.body as { eventID: string }).eventID}0` } }])
    await failsWith(stray, /not sent by the model: Initiated <payment 1>:10 → <receiver>\/all/)
    const service = liveService()
    const elsewhere = (ws: ReadonlyArray<ReceivedWebhook>): ReadonlyArray<ReceivedWebhook> => [...ws, { url: `${RECEIVER}/k9-other-r1-all`, body: { eventID: 'x:1' } }]
    expect((await checkService({ send: service.send, webhookReceiver: receiverOf(service.received, elsewhere), numRuns: 10, seed: 2 })).ok).toBe(true)
  })
  it('a changed payload fails at the field', async () => {
    await failsWith(
      (ws) => ws.map((w) => ({ ...w, body: { ...(w.body as object), objectName: 'charge' } })),
      /payload differs: Initiated <payment 1>:1 → <receiver>\/all\n\s+at objectName: expected "payment", received "charge"/
    )
  })
})

describe('races', () => {
  it('a service that runs two requests at once one after the other passes; the steps of a failure mark the second as sent at the same time', async () => {
    const service = liveService()
    const fine = await checkService({ send: service.send, races: true, numRuns: 60, seed: 4 })
    if (!fine.ok) console.log(fine.counterexample)
    expect(fine).toMatchObject({ ok: true })
    // a service that answers a cancel sent while the same cancel is in flight with the first one's
    // answer (both read the same state: a lost update)
    const lossy = liveService()
    const pending = new Map<string, Promise<ServiceResponse>>()
    const send = (r: ServiceRequest): Promise<ServiceResponse> => {
      if (!r.path.endsWith('/cancel')) return lossy.send(r)
      const same = pending.get(r.path)
      if (same !== undefined) return same
      const answer = new Promise((resolve) => setTimeout(resolve, 1)).then(() => lossy.send(r))
      pending.set(r.path, answer)
      void answer.finally(() => pending.delete(r.path))
      return answer
    }
    const report = await checkService({ send, races: true, numRuns: 100, seed: 4, kinds: ['card'] })
    expect(report.ok).toBe(false)
    if (report.ok) return
    expect(report.counterexample).toMatch(/⇉ twice at once: POST \/payments\/<payment 1>\/cancel\n {2}← 200 .*\n {2}← 200 .*\n✗ the two answers fit neither order of the model/)
    expect(report.steps.at(-1)).toMatchObject({ kind: 'request', method: 'POST', concurrent: true, status: 200 })
  })
})
