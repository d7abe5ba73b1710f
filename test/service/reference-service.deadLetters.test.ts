/**
 * The dead-letter command of the reference service (docs/service.md, "Dead letters"): dead webhook
 * messages listed (id, url without its query string, reason, attempts, last error) and sent again,
 * on the service's own database; the command itself run as a process on a PGlite folder.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite } from '../../docs/examples/service/db/db.js'
import { listDeadLetters, retryDeadLetters, runDeadLetters } from '../../docs/examples/service/outbox/deadLetters.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, eventually, outboxSettled, Receiver, startService, testDb, type TestDb } from '../support/reference-service.fixtures.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
let database: TestDb
let receiver: Receiver
let hooks = ''

beforeAll(async () => {
  receiver = new Receiver()
  hooks = await receiver.start()
  database = await testDb()
})

afterAll(async () => {
  await database.close()
  await receiver.stop()
})

/** A loopback port nothing listens on (a receiver started and stopped). */
const closedPort = async (): Promise<number> => {
  const r = new Receiver()
  const base = await r.start()
  await r.stop()
  return Number(new URL(base).port)
}

describe('dead letters', () => {
  it('list shows each dead message with its reason and the url without its query; retry <id> sends one again, retry --all the rest', async () => {
    const port = await closedPort()
    const { service, base } = await startService(database.db, { CATCH_ALL_URL: `http://127.0.0.1:${String(port)}/later?token=s3cret`, WEBHOOK_MAX_ATTEMPTS: '2' })
    let id = ''
    try {
      const subscriptions = [
        { eventType: 'Initiated', url: `${hooks}/gone` },
        { eventType: 'Initiated', url: 'http://10.0.0.1/hook?key=k3y' }
      ]
      const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'dead-1', webhookSubscriptions: subscriptions }))
      expect(r.status).toBe(201)
      id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
      await eventually(() => outboxSettled(database.db))

      const letters = await listDeadLetters(database.db)
      const byUrl = new Map(letters.map((l) => [l.url, l]))
      expect(letters).toHaveLength(3)
      expect(byUrl.get(`http://127.0.0.1:${String(port)}/later?…`)).toMatchObject({ webhookId: `${id}:1`, eventType: 'Initiated', reason: 'attempts', attempts: 2, lastStatus: null, replays: 0 })
      expect(byUrl.get(`${hooks}/gone`)).toMatchObject({ reason: 'gone', attempts: 1, lastStatus: 410, lastError: 'HTTP 410' })
      expect(byUrl.get('http://10.0.0.1/hook?…')).toMatchObject({ reason: 'refused', attempts: 1, lastError: 'refused: address 10.0.0.1 is not public (private)' })
      expect(letters.every((l) => l.deadAt !== null && !Number.isNaN(Date.parse(l.deadAt)))).toBe(true)

      const listed = await runDeadLetters(database.db, ['list'])
      expect(listed.code).toBe(0)
      expect(listed.out.split('\n')[0]).toMatch(/^id\s+dead at\s+reason\s+attempts\s+last status\s+event\s+url\s+last error$/)
      expect(listed.out.split('\n')).toHaveLength(4)
      expect(listed.out).not.toMatch(/s3cret|k3y/)
      const json = await runDeadLetters(database.db, ['list', '--json', '--limit', '2'])
      expect(json.out.split('\n').map((l) => JSON.parse(l) as unknown)).toStrictEqual(letters.slice(0, 2))

      // the receiver comes up: one message sent again by id, delivered with its webhook-id
      const later = new Receiver()
      await later.start(port)
      try {
        const target = byUrl.get(`http://127.0.0.1:${String(port)}/later?…`)?.id ?? ''
        const retried = await runDeadLetters(database.db, ['retry', target, '999999'])
        expect(retried).toStrictEqual({ out: `1 message(s) sent again: ${target}. Not dead (or unknown): 999999.`, code: 1 })
        await eventually(() => outboxSettled(database.db))
        expect(later.received.map((m) => [m.path, m.headers['webhook-id'], m.verified])).toStrictEqual([['/later?token=s3cret', `${id}:1`, true]])
        const row = await database.db.query<{ status: string; attempts: number; replays: number; dead_reason: string | null }>(
          'SELECT status, attempts, replays, dead_reason FROM outbox WHERE id = $1',
          [target]
        )
        expect(row.rows).toStrictEqual([{ status: 'delivered', attempts: 1, replays: 1, dead_reason: null }])
        // a message that is not dead is left alone
        expect(await retryDeadLetters(database.db, [target])).toStrictEqual([])
      } finally {
        await later.stop()
      }

      // --all: the other two go back, and die again for the same reasons (410, the guard)
      const all = await runDeadLetters(database.db, ['retry', '--all'])
      expect(all.out).toMatch(/^2 message\(s\) sent again: \d+, \d+\.$/)
      await eventually(() => outboxSettled(database.db))
      expect((await listDeadLetters(database.db)).map((l) => [l.reason, l.replays]).sort()).toStrictEqual([
        ['gone', 1],
        ['refused', 1]
      ])
    } finally {
      await service.close()
    }
  })

  it('wrong command lines are refused with the usage', async () => {
    expect((await runDeadLetters(database.db, [])).code).toBe(2)
    expect((await runDeadLetters(database.db, ['retry'])).code).toBe(2)
    expect((await runDeadLetters(database.db, ['retry', '1; DROP TABLE outbox'])).code).toBe(2)
    expect((await runDeadLetters(database.db, ['list', '--limit', '0'])).code).toBe(2)
  })

  it('the command as a process, on a PGlite folder the service left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysplit-dead-'))
    try {
      const db = await openPglite(dir)
      const { service, base } = await startService(db, { CATCH_ALL_URL: `${hooks}/gone` })
      try {
        expect((await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'dead-cli' }))).status).toBe(201)
        await eventually(() => outboxSettled(db))
      } finally {
        await service.close()
        await db.close()
      }
      const run = promisify(execFile)
      const env = { ...process.env, PGLITE_DIR: dir, DATABASE_URL: '' }
      const listed = await run(process.execPath, ['--import', 'tsx', 'docs/examples/service/dead-letters.ts', 'list'], { cwd: root, env })
      expect(listed.stdout).toMatch(new RegExp(`^1\\s+\\S+\\s+gone\\s+1\\s+410\\s+Initiated \\S+:1\\s+${hooks}/gone\\s+HTTP 410$`, 'm'))
      const missing = await run(process.execPath, ['--import', 'tsx', 'docs/examples/service/dead-letters.ts', 'list'], {
        cwd: root,
        env: { ...process.env, PGLITE_DIR: '', DATABASE_URL: '' }
      }).catch((e: unknown) => e as { code: number; stderr: string })
      expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('Set DATABASE_URL or PGLITE_DIR') })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
