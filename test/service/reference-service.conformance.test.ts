/**
 * paysplit's conformance runner (`checkService` of paysplit/testing) against the reference
 * service on a real database (PGlite in `npm test`, PostgreSQL 17 in `npm run test:postgres`):
 * model-based command sequences over HTTP, the hosted form's buttons and the bank route, every
 * webhook compared. It passes against the service, and fails, with the shortest counterexample,
 * against the service running a broken rule.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devApiKey, devBankKey } from '../../docs/examples/service/config.js'
import { paysplitRules, type Rules } from '../../docs/examples/service/paysplit.js'
import { checkService, type CheckServiceOptions, type ConformanceReport } from '../../src/conformance.js'
import { cancelInvoice } from '../support/conformance.fixtures.js'
import type { CardGateway } from '../../docs/examples/service/routes/gateway.js'
import { eventually, formTokenFor, outboxSettled, Receiver, startService, testDb, type TestDb } from '../support/reference-service.fixtures.js'

/** A live card gateway that approves every card: the runner makes production payments too, and paysplit's model completes them. */
const approvingGateway: CardGateway = { name: 'approves-all', pay: (r) => Promise.resolve({ approved: true, reference: `live-${r.idempotencyKey}` }) }

let database: TestDb
let receiver: Receiver

beforeAll(async () => {
  receiver = new Receiver()
  await receiver.start()
  database = await testDb()
})

afterAll(async () => {
  await database.close()
  await receiver.stop()
})

const post = async (url: string, body: unknown, key: string | undefined, form = false): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}),
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json'
    },
    body: form ? (body as string) : JSON.stringify(body)
  })

/** Starts the service with `rules` on the shared database, runs the check, stops it. */
const check = async (rules: Rules | undefined, extra: Partial<CheckServiceOptions> = {}): Promise<ConformanceReport> => {
  const catchAllUrl = `${receiver.base}/hooks`
  const { service, base } = await startService(database.db, { CATCH_ALL_URL: catchAllUrl, WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_POLL_MS: '10' }, rules, { liveCardGateway: approvingGateway })
  // each check starts on empty tables: the runner's references repeat from one check to the next
  await database.db.exec('TRUNCATE payments, payment_events, customers, outbox, unmatched_transfers')
  const start = receiver.received.length
  try {
    return await checkService({
      send: async ({ method, path, body }) => {
        const res = await fetch(base + path, {
          method,
          headers: { authorization: `Bearer ${devApiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        const text = await res.text()
        return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) }
      },
      receivedWebhooks: async () => {
        await eventually(() => outboxSettled(database.db))
        return receiver.received.slice(start).map((w) => ({ url: receiver.base + w.path, body: w.body as unknown }))
      },
      catchAllUrl,
      webhookUrls: [`${receiver.base}/sub-a`, `${receiver.base}/sub-b`],
      // the form's posts carry the token its page would have given
      completeForm: (id) => post(`${base}/pay/${id}/complete`, new URLSearchParams({ token: formTokenFor(id, 'complete') }).toString(), undefined, true),
      failForm: (id, reason) =>
        post(`${base}/pay/${id}/fail`, new URLSearchParams({ token: formTokenFor(id, 'fail'), ...(reason === undefined ? {} : { reason }) }).toString(), undefined, true),
      // the bank reports transfers by KID: one that names no open invoice is parked and changes nothing
      receiveTransfer: (_id, amount, kid) => post(`${base}/bank/transfers`, { kid, amount }, devBankKey),
      ...extra
    })
  } finally {
    await service.close()
  }
}

describe('checkService against the reference service', () => {
  it('passes: the service on its database conforms to the reference model', async () => {
    const report = await check(undefined, { numRuns: fc.readConfigureGlobal().numRuns ?? 100 })
    if (!report.ok) console.log(report.counterexample)
    expect(report.ok).toBe(true)
  })

  it('fails against the service running a broken rule (cancel allowed on an invoice), with create invoice → cancel', async () => {
    const broken: Rules = { ...paysplitRules, handle: cancelInvoice }
    const report = await check(broken, { numRuns: 200, kinds: ['invoice'] })
    expect(report.ok).toBe(false)
    if (report.ok) return
    const steps = report.counterexample.split('\n').filter((l) => !l.startsWith(' ') && !l.startsWith('✗'))
    expect(steps).toHaveLength(2)
    expect(steps[1]).toBe('POST /payments/<payment 1>/cancel')
  })
})
