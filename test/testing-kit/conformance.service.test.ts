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
import { shellWords } from '../support/cli.fixtures.js'
import { startService, testDb, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
beforeAll(async () => {
  database = await testDb()
})
afterAll(async () => {
  await database.close()
})

let clock = Date.UTC(2026, 10, 25, 14, 0, 0)

/** The secrets as a user exports them, by the variables the replay line names them by. */
const env = { PAYSPLIT_API_KEY: devApiKey, PAYSPLIT_WEBHOOK_SECRET: devWebhookSecret }

const cli = async (args: ReadonlyArray<string>): Promise<{ code: number; out: string }> => {
  let out = ''
  // the clock moves 1 ms a reading, so the shrink budget never cuts a shrink short here: a replay
  // must reproduce the very counterexample the first run printed
  const io: CliIO = { out: (t) => (out += t), err: () => undefined, isTTY: false, now: () => (clock += 1), env }
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
    const payload = { ...delivery.payload, payload: { payment: payment as unknown as typeof delivery.payload.payload.payment } }
    // the body is what is signed and sent: changed with the payload
    return paysplitRules.webhookMessage({ ...delivery, payload, body: JSON.stringify(payload) }, timestamp)
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
      // the printed line alone, its secrets by the variables it names (exported as a user would)
      const line = /Replay exactly this sequence \(against this service or a fresh one\):\n {2}(.*)\n/.exec(found.out)?.[1] ?? ''
      expect(line).toContain('--runs 200 --webhooks --webhook-secret-env PAYSPLIT_WEBHOOK_SECRET --grace 1500 --api-key-env PAYSPLIT_API_KEY --seed=1 --path ')
      expect(found.out).toContain('(with PAYSPLIT_API_KEY (the value given with --api-key) and PAYSPLIT_WEBHOOK_SECRET (the value given with --webhook-secret) set in the environment)')
      await database.db.exec('TRUNCATE payments, payment_events, customers, outbox, unmatched_transfers')
      const again = await withService(rules, (base) => cli(shellWords(line).slice(2).map((a) => (a.startsWith('http://127.0.0.1:') ? base : a))))
      expect(again.code).toBe(1)
      expect(again.out).toMatch(/^REPRODUCED: the sequence of --seed=1 --path '[^']+' failed again/m)
      expect(counterexample(again.out)).toBe(counterexample(found.out))
    })
  }
})
