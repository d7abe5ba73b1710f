/**
 * `paysplit-check` on a first run, as an integrator meets it (docs/testing.md, "The command
 * line"): replay lines that work for every seed (negative ones too); a closed port reported as
 * "cannot reach <url>" (exit 2), not as a difference; a missing or wrong API key reported as
 * refused (exit 2), not as a difference; a time budget and progress while shrinking;
 * a closing coverage line that warns when charges, refunds or invoice payments were never
 * exercised, and form and bank options that exercise them; form and bank paths that refuse the
 * check skipped with a note; `--junit`; and the docs' first commands run as written against the
 * reference service (docs/examples/service on PGlite).
 *
 * The small services here (test/support/cli.fixtures.ts) are `handle` of paysplit/http behind node:http
 * on 127.0.0.1, with a form and a bank route of their own and, for some tests, one planted bug.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, type CliIO } from '../../src/cli/paysplitCheck.js'
import { devApiKey } from '../../docs/examples/service/config.js'
import { shellWords, tiny, type Response } from '../support/cli.fixtures.js'
import { startService, testDb } from '../support/reference-service.fixtures.js'

const scratch = mkdtempSync(join(tmpdir(), 'paysplit-first-run-'))
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

let clock = Date.UTC(2026, 10, 26, 12, 0, 0)

/** Runs the command in process, collecting what it prints; the clock moves `tick` ms per reading. */
const cli = async (args: ReadonlyArray<string>, tick = 1000): Promise<{ code: number; out: string; err: string }> => {
  let out = ''
  let err = ''
  const io: CliIO = { out: (t) => (out += t), err: (t) => (err += t), isTTY: false, now: () => (clock += tick) }
  const code = await runCli(args, io)
  return { code, out, err }
}

/** The planted bug: a refused charge answers 400 instead of 409. */
const chargeAnswers400 = (method: string, path: string, r: Response): Response => (method === 'POST' && path.endsWith('/charge') && r.status === 409 ? { ...r, status: 400 } : r)

/** The replay line a report printed, as arguments after `npx paysplit-check`. */
const replayOf = (out: string): string[] => {
  const line = /Replay exactly this sequence \(against this service or a fresh one\):\n {2}(.*)/.exec(out)?.[1]
  expect(line).toBeDefined()
  return shellWords(line ?? '').slice(2)
}

describe('replay lines work for every seed', () => {
  it('a failure found under a negative seed replays from its printed line (--seed=-n), on a fresh service, in one run', async () => {
    const seed = '-1549942974'
    const first = await tiny(chargeAnswers400)
    let out: string
    try {
      // a clock that stands still: shrinking runs to its end (a cut one would go on shrinking on replay)
      const run = await cli([first.base, '--runs', '300', '--seed', seed, '--kinds', 'card'], 0)
      out = run.out
      expect(run.code).toBe(1)
      expect(out).toContain(`--seed=${seed} --path '`)
      expect(out).toMatch(/expected \(model\): 409/)
    } finally {
      await first.close()
    }
    const counterexample = /Counterexample \(shrunk\):\n([\s\S]*?)\nReplay with/.exec(out)?.[1]
    const fresh = await tiny(chargeAnswers400)
    try {
      const args = replayOf(out).map((a) => (a.startsWith('http://') ? fresh.base : a))
      const again = await cli(args, 0)
      expect(again.code).toBe(1)
      expect(again.out).toContain("The service differs from paysplit's model after 1 run(s).")
      expect(/Counterexample \(shrunk\):\n([\s\S]*?)\nReplay with/.exec(again.out)?.[1]).toBe(counterexample)
    } finally {
      await fresh.close()
    }
  })

  it('--seed -5 (a space before a negative seed) is read as the seed, as --seed=-5 is', async () => {
    const svc = await tiny()
    try {
      const a = await cli([svc.base, '--runs', '3', '--seed', '-5', '--no-races'])
      const b = await cli([svc.base, '--runs', '3', '--seed=-5', '--no-races'])
      expect([a.code, b.code]).toEqual([0, 0])
      expect(a.out).toMatch(/seed -5, references prefixed kn5-/)
      expect(b.out).toMatch(/seed -5, references prefixed kn5-/)
    } finally {
      await svc.close()
    }
  })
})

describe('a service that cannot be reached', () => {
  it('a closed loopback port: "cannot reach <url>", exit 2, no run, no replay line', async () => {
    const svc = await tiny()
    const base = svc.base
    await svc.close()
    const run = await cli([base, '--runs', '5', '--seed', '1'])
    expect(run.code).toBe(2)
    expect(run.err).toBe(`cannot reach ${base} (ECONNREFUSED)\n`)
    expect(run.out).toBe('')
  })

  it('a service that goes away during the run: "cannot reach <url> … during the run", exit 2, no replay line', async () => {
    const svc = await tiny(undefined, 40)
    try {
      const run = await cli([svc.base, '--runs', '50', '--seed', '1'])
      expect(run.code).toBe(2)
      expect(run.err).toMatch(new RegExp(`cannot reach ${svc.base.replaceAll('.', '\\.')} \\([^)]+\\) during the run\n$`))
      expect(run.out).toBe('')
    } finally {
      await svc.close()
    }
  })
})

describe('a service that refuses the API key', () => {
  it('no --api-key, or a wrong one: "refused", exit 2, no run, no replay line; the right key runs', async () => {
    const svc = await tiny(undefined, Infinity, 'the-key')
    try {
      const none = await cli([svc.base, '--runs', '5', '--seed', '1'])
      expect(none.code).toBe(2)
      expect(none.err).toBe(`${svc.base} refused a request without an API key (POST /payments answered 401 Unauthorized): give the service's key with --api-key or --api-key-env\n`)
      expect(none.out).toBe('')
      const wrong = await cli([svc.base, '--runs', '5', '--seed', '1', '--api-key', 'another-key'])
      expect(wrong.code).toBe(2)
      expect(wrong.err).toBe(`${svc.base} refused the API key given with --api-key (POST /payments answered 401 Unauthorized)\n`)
      expect(wrong.out).toBe('')
      const right = await cli([svc.base, '--runs', '5', '--seed', '1', '--api-key', 'the-key'])
      expect(right.out).toContain('PASSED: 5 run(s)')
      expect(right.code).toBe(0)
    } finally {
      await svc.close()
    }
  })
})

describe('shrinking: a time budget and progress', () => {
  it('--max-shrink-seconds 0 reports the first failure unshrunk, says so, and shows progress while shrinking', async () => {
    const svc = await tiny(chargeAnswers400)
    try {
      const unbounded = await cli([svc.base, '--runs', '300', '--seed', '1', '--kinds', 'card', '--no-races'], 0)
      const cut = await cli([svc.base, '--runs', '300', '--seed', '1', '--kinds', 'card', '--no-races', '--max-shrink-seconds', '0'], 0)
      expect([unbounded.code, cut.code]).toEqual([1, 1])
      expect(unbounded.out).not.toContain('Shrinking stopped')
      expect(cut.out).toContain('Note: Shrinking stopped when its time budget (0 ms) was spent')
      const steps = (out: string): number => (/Requests of the counterexample, as sent[^\n]*\n((?: {2}\d+\..*\n?)*)/.exec(out)?.[1] ?? '').split('\n').filter((l) => l.trim() !== '').length
      expect(steps(cut.out)).toBeGreaterThan(steps(unbounded.out))
      // progress on stderr: the failure, then each shorter counterexample
      expect(unbounded.err).toMatch(/run \d+ failed \(\d+ steps\); shrinking it \(at most 120 s\)…/)
      expect(unbounded.err).toMatch(/shrinking the failure of run \d+: \d+ tries, shortest counterexample \d+ steps \(0 s of at most 120 s\)/)
    } finally {
      await svc.close()
    }
  })

  it('progress while shrinking: a line for each shorter counterexample and every 25 tries, not one per try of the same length', async () => {
    // a create answers 400: every run fails at its first step, and shrinking then shrinks values only
    const svc = await tiny((method, path, r) => (method === 'POST' && path === '/payments' && r.status === 201 ? { ...r, status: 400 } : r))
    try {
      const run = await cli([svc.base, '--runs', '50', '--seed', '1', '--kinds', 'card', '--no-races'], 0)
      expect(run.code).toBe(1)
      const lines = [...run.err.matchAll(/shrinking the failure of run \d+: (\d+) tries, shortest counterexample (\d+) steps/g)].map((m) => [Number(m[1]), Number(m[2])] as const)
      const first = Number(/run \d+ failed \((\d+) steps\)/.exec(run.err)?.[1])
      let shortest = first
      for (const [tries, steps] of lines) {
        expect(tries % 25 === 0 || steps < shortest, `a line at ${String(tries)} tries, ${String(steps)} steps (shortest before: ${String(shortest)})`).toBe(true)
        shortest = Math.min(shortest, steps)
      }
    } finally {
      await svc.close()
    }
  })

  it('the budget counts on the clock: with a clock that moves 1 s per reading, 5 s end shrinking after a few tries', async () => {
    const svc = await tiny(chargeAnswers400)
    try {
      const run = await cli([svc.base, '--runs', '300', '--seed', '1', '--kinds', 'card', '--no-races', '--max-shrink-seconds', '5'], 1000)
      expect(run.code).toBe(1)
      expect(run.out).toContain('Note: Shrinking stopped when its time budget (5000 ms) was spent')
    } finally {
      await svc.close()
    }
  })
})

describe('coverage, and the form and bank options', () => {
  it('without the form and the bank: a closing coverage line that warns that charges, refunds and invoice payments were never exercised', async () => {
    const svc = await tiny()
    try {
      const run = await cli([svc.base, '--runs', '30', '--seed', '3'])
      expect(run.code).toBe(0)
      expect(run.out).toMatch(/^Coverage: \d+ \(request, status\) pairs on \d+ routes: .*POST \/payments [\d/]*201\/400.*POST \/payments\/\{id\}\/charge [\d/]*409.*; 0 webhooks checked\.$/m)
      expect(run.out).toContain('Warning: never exercised: charges, refunds, invoice payments.')
      expect(run.out).toContain('  charges: a card is charged only after the payment form: give the check a completeForm hook (paysplit-check: --form-complete-path).')
      expect(run.out).toContain('  invoice payments: an invoice is paid only by the bank: give the check a bank hook, receiveTransferByKid or receiveOcrGiro (paysplit-check: --bank-transfer-path, --bank-ocr-path).')
    } finally {
      await svc.close()
    }
  })

  it('with --form-complete-path and --bank-transfer-path: cards charged and refunded, invoices paid, no warning', async () => {
    const svc = await tiny()
    try {
      const run = await cli([svc.base, '--runs', '150', '--seed', '3', '--form-complete-path', '/test/form/{id}/complete', '--bank-transfer-path', '/test/bank', '--bank-key', 'k'])
      expect(run.code).toBe(0)
      expect(run.out).toMatch(/outside events: .*completeForm Charged.*transferByKid Charged/)
      expect(run.out).toMatch(/POST \/payments\/\{id\}\/refund\/partially [\d/]*200/)
      expect(run.out).not.toContain('Warning')
    } finally {
      await svc.close()
    }
  })

  it('a form path the service refuses (403, a token wanted) is skipped with a note, and the run still passes', async () => {
    const svc = await tiny()
    try {
      const run = await cli([svc.base, '--runs', '20', '--seed', '3', '--form-complete-path', '/locked/{id}/complete'])
      expect(run.code).toBe(0)
      expect(run.out).toMatch(/Note: The completeForm hook could not drive the service (\d+) time\(s\) of \1 \(POST \/locked\/\{id\}\/complete answered 403;/)
      // the hook was given: the warning does not ask for it, it says why it did not help
      expect(run.out).toContain('Warning: never exercised: charges')
      expect(run.out).toContain('  charges: the completeForm hook could not drive the service (see the notes).')
    } finally {
      await svc.close()
    }
  })

  it('form and bank options are checked: a path without {id}, a bank key without a bank path', async () => {
    expect((await cli(['http://127.0.0.1:1', '--form-complete-path', '/pay/complete'])).code).toBe(2)
    expect((await cli(['http://127.0.0.1:1', '--bank-key', 'k'])).code).toBe(2)
  })
})

describe('--junit', () => {
  it('writes one JUnit test case: passed, or failed with the report', async () => {
    const good = await tiny()
    const bad = await tiny(chargeAnswers400)
    try {
      const passed = join(scratch, 'passed.xml')
      const failed = join(scratch, 'failed.xml')
      expect((await cli([good.base, '--runs', '5', '--seed', '2', '--junit', passed])).code).toBe(0)
      expect((await cli([bad.base, '--runs', '300', '--seed', '1', '--kinds', 'card', '--junit', failed])).code).toBe(1)
      const p = readFileSync(passed, 'utf8')
      const f = readFileSync(failed, 'utf8')
      expect(p).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="paysplit-check" tests="1" failures="0" time="[\d.]+">/)
      expect(p).toContain(`<testcase classname="paysplit-check" name="${good.base} behaves like paysplit's model (5 runs, seed 2)"`)
      expect(p).not.toContain('<failure')
      expect(f).toContain('failures="1"')
      expect(f).toMatch(/<failure message="The service differs from paysplit's model" type="ConformanceFailure">The service differs/)
      expect(f).toContain('expected (model): 409')
      // every tag opened is closed, and no raw < or & inside text
      for (const doc of [p, f]) {
        const tags = [...doc.matchAll(/<(\/?)([a-z-]+)[^>]*?(\/?)>/g)].filter((m) => m[3] !== '/')
        const stack: string[] = []
        for (const [, close, name] of tags) {
          if (close === '/') expect(stack.pop()).toBe(name)
          else stack.push(name ?? '')
        }
        expect(stack).toEqual([])
        expect(doc.replace(/<[^>]*>/g, '')).not.toMatch(/[<]|&(?!(lt|gt|amp|quot);)/)
      }
    } finally {
      await good.close()
      await bad.close()
    }
  })
})

describe('the docs\u2019 commands, as written, against the reference service', () => {
  const docs = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8')
  const commands = docs.split('\n').filter((l) => l.startsWith('npx paysplit-check http://127.0.0.1:8080'))

  it('docs/testing.md starts with `npm run serve` and the command for it', () => {
    expect(docs).toMatch(/```sh\nnpm run serve[^\n]*\nnpx paysplit-check http:\/\/127\.0\.0\.1:8080 --api-key dev-api-key/)
    expect(commands.length).toBeGreaterThanOrEqual(2)
  })

  it('each command passes against the reference service with its development keys; the second covers the whole life', async () => {
    const database = await testDb()
    const { service, base } = await startService(database.db)
    try {
      const outs: string[] = []
      for (const command of commands) {
        const args = shellWords(command).slice(2).map((a) => (a === 'http://127.0.0.1:8080' ? base : a))
        const run = await cli([...args, '--seed', '5'])
        outs.push(run.out)
        expect({ command, code: run.code, out: run.out }).toMatchObject({ command, code: 0 })
      }
      expect(outs[0]).not.toContain('has no read routes')
      expect(outs[0]).toContain('Warning: never exercised: charges, refunds, invoice payments.')
      // the whole life: invoices paid by the bank route; cards charged and refunded through the
      // form, its token read from the form page (--form-page-path) as a browser would
      const whole = outs[1] ?? ''
      expect(whole).toMatch(/outside events: .*transferByKid Charged/)
      expect(whole).toMatch(/outside events: .*completeForm Charged/)
      // and by OCR giro files (--bank-ocr-path), one sent twice counting once
      expect(whole).toMatch(/outside events: .*ocr matched/)
      expect(whole).not.toContain('could not drive the service')
      expect(whole).not.toContain('Warning')
      // without --environments test, a live payment's form offers no Pay (no live gateway): the
      // hook's failure, with the option that fixes it, not a difference blamed on the service
      const live = shellWords(commands[1] ?? '').slice(2).map((a) => (a === 'http://127.0.0.1:8080' ? base : a)).filter((a, i, all) => a !== '--environments' && all[i - 1] !== '--environments')
      const blamed = await cli([...live, '--seed', '5', '--max-shrink-seconds', '0'])
      expect(blamed.code).toBe(1)
      expect(blamed.out).toMatch(/^The completeForm hook failed after \d+ run\(s\): the hook did not drive the service \(not necessarily the service's fault\)\.$/m)
      expect(blamed.out).toMatch(/✗ the completeForm hook failed: the page GET \/pay\/\S+ offers no form posting to \/pay\/\S+\/complete, where the model accepts the completed form of <payment \d+> \((Reserved|Charged)\)\n.*--environments test/)
      expect(devApiKey).toBe('dev-api-key')
    } finally {
      await service.close()
      await database.close().catch(() => undefined)
    }
  }, 120_000)
})
