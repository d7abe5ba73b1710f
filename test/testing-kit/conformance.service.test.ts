/**
 * `paysplit-check` against the PostgreSQL reference service (docs/examples/service, PGlite in
 * process; docs/testing.md, "From the command line"): twice in a row on one instance with signed
 * webhooks, passing under two prefixes; and against the service running a broken rule (its
 * `Rules` swapped), each caught with a replay line that gives the same counterexample on a fresh
 * instance: a refused charge answered 400, and webhook payloads without `metaData`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devApiKey, devWebhookSecret } from '../../docs/examples/service/config.js'
import { paysplitRules, type Rules } from '../../docs/examples/service/paysplit.js'
import { runCli, type CliIO } from '../../src/cli/paysplitCheck.js'
import { startService, testDb, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
beforeAll(async () => {
  database = await testDb()
})
afterAll(async () => {
  await database.close()
})

let clock = Date.UTC(2026, 10, 25, 14, 0, 0)

const cli = async (args: ReadonlyArray<string>): Promise<{ code: number; out: string }> => {
  let out = ''
  // the clock moves 1 ms a reading, so the shrink budget never cuts a shrink short here: a replay
  // must reproduce the very counterexample the first run printed
  const io: CliIO = { out: (t) => (out += t), err: () => undefined, isTTY: false, now: () => (clock += 1) }
  return { code: await runCli(args, io), out }
}

const withService = async <A,>(rules: Rules | undefined, f: (base: string) => Promise<A>): Promise<A> => {
  const { service, base } = await startService(database.db, { WEBHOOK_POLL_MS: '10' }, rules)
  try {
    return await f(base)
  } finally {
    await service.close()
  }
}

const auth = ['--api-key', devApiKey, '--webhooks', '--webhook-secret', devWebhookSecret, '--grace', '1500']

const wrongStatus: Rules = {
  ...paysplitRules,
  handle: (world, request, ctx) => {
    const out = paysplitRules.handle(world, request, ctx)
    return request.path.endsWith('/charge') && out.response.status === 409 ? { ...out, response: { ...out.response, status: 400 } } : out
  }
}
const noMetaData: Rules = {
  ...paysplitRules,
  webhookMessage: (delivery, timestamp) => {
    const payment: Record<string, unknown> = { ...delivery.payload.payload.payment }
    delete payment['metaData']
    return paysplitRules.webhookMessage({ ...delivery, payload: { ...delivery.payload, payload: { payment: payment as unknown as typeof delivery.payload.payload.payment } } }, timestamp)
  }
}

describe('paysplit-check against the PostgreSQL reference service', () => {
  it('passes twice in a row on one instance, webhooks signed and checked', async () => {
    await withService(undefined, async (base) => {
      const a = await cli([base, '--runs', '100', '--seed', '5', ...auth])
      const b = await cli([base, '--runs', '100', '--seed', '5', ...auth])
      console.log(a.out + b.out)
      expect([a.code, b.code]).toEqual([0, 0])
      expect(a.out).toMatch(/^PASSED: 100 run\(s\) in [\d.]+ s, [1-9]\d* webhook\(s\) received, seed 5/m)
      expect(a.out).not.toMatch(/Note:/) // the service has the read routes: they were checked
    })
  })

  for (const [name, rules, expected] of [
    ['a refused charge answers 400', wrongStatus, /at status: expected 409, received 400/],
    ['webhook payloads without metaData', noMetaData, /payload differs: Initiated <payment 1>:1 → <receiver>\/all\n\s+at payload\.payment\.metaData: expected \{\}, received undefined/]
  ] as const) {
    it(`catches the service with a broken rule, ${name}, and its replay line reproduces it on a fresh instance`, async () => {
      const found = await withService(rules, (base) => cli([base, '--runs', '200', '--seed', '1', ...auth]))
      console.log(found.out)
      expect(found.code).toBe(1)
      const counterexample = (out: string): string => out.slice(out.indexOf('Counterexample (shrunk):'), out.indexOf('Replay with'))
      expect(counterexample(found.out)).toMatch(expected)
      const line = /Replay exactly this sequence against a fresh service:\n {2}npx paysplit-check \S+ (.*)\n/.exec(found.out)?.[1] ?? ''
      const args = line.split(/ (?=--)/).flatMap((a) => {
        const [flag = '', ...rest] = a.split(' ')
        const value = rest.join(' ').replace(/^'(.*)'$/, '$1').replace(/^"\$API_KEY"$/, devApiKey)
        return value === '' ? [flag] : [flag, value]
      })
      await database.db.exec('TRUNCATE payments, payment_events, customers, outbox, unmatched_transfers')
      const again = await withService(rules, (base) => cli([base, ...args, '--webhook-secret', devWebhookSecret, '--grace', '1500']))
      expect(again.code).toBe(1)
      expect(counterexample(again.out)).toBe(counterexample(found.out))
    })
  }
})
