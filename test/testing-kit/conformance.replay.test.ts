/**
 * Replays that reproduce (docs/testing.md, "A first bug hunt"): four bugs planted in front of the
 * mock (src/cli/mock/) by a proxy or a relay (test/support/mock.fixtures.ts) — the three of the
 * tutorial (a dropped Idempotency-Key, webhooks later than the grace period, a refused charge
 * answered 400) and an over-refund answered 200 — each caught by `paysplit-check`, and the replay
 * line it printed, run as printed (its secrets by their variables, its webhook port and url, its
 * form and bank paths, its grace and retries), reproducing the very counterexample 10 times in 10,
 * each saying REPRODUCED. The planted service stays up between the runs, as a developer's does: a
 * replay needs no fresh instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMock, type RunningMock } from '../../src/cli/mock/server.js'
import { cli, lateRelay, plantedProxy, replayLineOf, type Plant, type Ran } from '../support/mock.fixtures.js'
import { shellWords } from '../support/cli.fixtures.js'

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ webhookRetryDelaysMs: [] })
})
afterAll(async () => {
  await mock.close()
})

/** The counterexample a run printed: from its heading to the replay hint. */
const counterexampleOf = (out: string): string => out.slice(out.indexOf('Counterexample (shrunk):'), out.indexOf('Replay with'))

/** The key the replay line names its API key by, exported as a user would. */
const env = { SHOP_API_KEY: 'a-key-the-mock-ignores' }

interface Bug {
  readonly name: string
  /** The command line after the base url (the proxy's, or the mock's). */
  readonly args: ReadonlyArray<string>
  readonly expected: RegExp
  /** What the replay line must carry. */
  readonly carries: ReadonlyArray<string>
  readonly plant?: Plant
  /** Webhooks delivered this late (through a relay at --webhook-url). */
  readonly lateMs?: number
}

const bugs: ReadonlyArray<Bug> = [
  {
    name: 'a dropped Idempotency-Key (the proxy loses the header)',
    plant: {
      request: (r) => ({ ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'idempotency-key')) })
    },
    args: ['--runs', '50', '--seed', '1', '--retries', '1', '--api-key-env', 'SHOP_API_KEY'],
    expected: /✗ a retry with the same Idempotency-Key got another answer \(resend 1 of POST \/payments/,
    carries: ['--runs 50', '--retries 1', '--api-key-env SHOP_API_KEY']
  },
  {
    name: 'webhooks later than the grace period (a slow outbox)',
    lateMs: 1200,
    args: ['--runs', '30', '--seed', '1', '--kinds', 'card', '--max-commands', '4', '--webhooks', '--webhook-port', '0', '--grace', '250', '--max-shrink-seconds', '4'],
    expected: /missing \(not received within the grace period\): Initiated <payment 1>:1 → <receiver>\/all/,
    carries: ['--webhooks', '--webhook-port 0', '--webhook-url http://127.0.0.1:', '--grace 250', '--kinds card', '--max-commands 4']
  },
  {
    name: 'a refused charge answered 400 instead of 409',
    plant: { respond: (q, r) => (q.path.endsWith('/charge') && r.status === 409 ? { ...r, status: 400 } : r) },
    args: ['--runs', '300', '--seed', '5', '--kinds', 'card', '--no-races'],
    expected: /at status: expected 409, received 400/,
    carries: ['--kinds card', '--no-races']
  },
  {
    name: 'an over-refund answered 200: a full refund of a refunded payment succeeds',
    plant: {
      respond: async (q, r, ask) => {
        const id = /^\/payments\/([^/]+)\/refund$/.exec(q.path)?.[1]
        if (id === undefined || r.status !== 409) return r
        const read = (await ask(`/payments/${id}`)) as { payment?: { paymentCreated?: { status?: string } } }
        if (read.payment?.paymentCreated?.status !== 'Refunded') return r
        return { ...r, status: 200, body: JSON.stringify({ response: 'The payment was refunded.', success: true, error: null }) }
      }
    },
    args: ['--runs', '300', '--seed', '6', '--kinds', 'card', '--form-complete-path', '/pay/{id}/complete', '--form-page-path', '/pay/{id}', '--max-shrink-seconds', '3'],
    expected: /expected \(model\): 409 .*\n {2}received \(service\): 200 /,
    carries: ["--form-complete-path '/pay/{id}/complete'", "--form-page-path '/pay/{id}'", '--kinds card']
  }
]

describe('four planted bugs: each caught, and its printed replay line reproduces it 10 times in 10', () => {
  for (const bug of bugs) {
    it(bug.name, async () => {
      const t0 = performance.now()
      const proxy = bug.plant === undefined ? undefined : await plantedProxy(mock.url, bug.plant)
      // the receiver of each run listens on a port of its own; the relay learns it from what the command prints
      let receiver: string | undefined
      const onErr = (t: string): void => {
        receiver = /the receiver listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(t)?.[1] ?? receiver
      }
      const relay = bug.lateMs === undefined ? undefined : await lateRelay(bug.lateMs, () => receiver)
      const base = proxy?.base ?? mock.url
      try {
        // the wall clock: a shrink budget in real seconds (the slow outbox makes each failing try wait its grace)
        const found = await cli([base, ...bug.args, ...(relay === undefined ? [] : ['--webhook-url', relay.base])], { env, onErr, wallClock: true })
        expect(found.code, found.out).toBe(1)
        const counterexample = counterexampleOf(found.out)
        expect(counterexample).toMatch(bug.expected)
        const line = replayLineOf(found.out)
        expect(line.startsWith(`npx paysplit-check ${base} `)).toBe(true)
        for (const c of bug.carries) expect(line).toContain(c)
        expect(line).toMatch(/ --seed=\d+ --path '[^']+'$/)
        // a run that failed on webhooks counts those checked and those missing
        if (bug.lateMs !== undefined) expect(found.out).toMatch(/; \d+ webhooks checked, [1-9]\d* missing\.\n/)
        // the curl reproducer of each failure
        expect(found.out).toMatch(/The counterexample with curl \(the ids those your service answered in this run\):\n {2}curl -sS -X POST '[^']+\/payments'/)
        const found1 = performance.now()
        const replays: Ran[] = []
        for (let i = 0; i < 10; i++) replays.push(await cli(shellWords(line).slice(2), { env, onErr }))
        const summary = replays.map((r) => [r.code, /^(REPRODUCED|NOT REPRODUCED):/m.exec(r.out)?.[1], counterexampleOf(r.out) === counterexample])
        expect(summary).toEqual(Array.from({ length: 10 }, () => [1, 'REPRODUCED', true]))
        console.log(`${bug.name}: found in ${((found1 - t0) / 1000).toFixed(1)} s, 10 replays in ${((performance.now() - found1) / 1000).toFixed(1)} s`)
      } finally {
        await proxy?.close()
        await relay?.close()
      }
    })
  }

  it('a replay that no longer fails says so plainly, in one run: NOT REPRODUCED, exit 0', async () => {
    const proxy = await plantedProxy(mock.url, bugs[2]?.plant ?? {})
    let line: string
    try {
      const found = await cli([proxy.base, ...(bugs[2]?.args ?? [])], { env })
      line = replayLineOf(found.out)
    } finally {
      await proxy.close()
    }
    // the bug fixed: the same line against the mock itself
    const args = shellWords(line).slice(2).map((a) => (a === proxy.base ? mock.url : a))
    const fixed = await cli(args, { env })
    expect(fixed.code).toBe(0)
    expect(fixed.out).toMatch(/^NOT REPRODUCED: the sequence of --seed=5 --path '[^']+' passed in [\d.]+ s: the service answers it as the model does now \(fixed\?\), or the failure depends on timing/m)
    expect(fixed.out).not.toMatch(/PASSED|\d+\/\d+ runs passed/)
    expect(fixed.err).toContain('replaying one failure')
    expect(fixed.err).not.toMatch(/\d+\/\d+ runs passed/)
  })
})
