/**
 * Recovery after kill -9 faster than an attempt's time limit (`npm run test:postgres`): the relay
 * renews the leases of the messages it holds every second (heartbeat), so a live process keeps
 * its slow attempts to itself however long they take, and a killed one's messages are sent again
 * by another instance once its last lease runs out (WEBHOOK_LEASE_MS, 4 s by default), not after
 * the attempt's time limit. Prints the time from the kill to each message's second arrival.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPg, type Db } from '../../docs/examples/service/db/db.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, createDatabase, eventually, outboxSettled, serverUrl } from '../support/reference-service.fixtures.js'
import { percentile, ServiceProcess } from './processes.js'

const MESSAGES = 24
// An attempt's time limit far above the lease: only the lease can free the killed process's messages.
const TIMEOUT_MS = 60_000
const LEASE_MS = 4000

let db: Db
let url = ''
let receiver: Server
let hooks = ''
const sockets = new Set<Socket>()
/** Arrivals per webhook-id (ms timestamps); the first of each is held unanswered, later ones get 204. */
const arrivals = new Map<string, Array<number>>()
const processes: Array<ServiceProcess> = []

beforeAll(async () => {
  const admin = serverUrl()
  if (admin === undefined) throw new Error('PAYSPLIT_TEST_DATABASE_URL is not set: run npm run test:postgres')
  url = await createDatabase(admin)
  db = openPg(url, 4)
  receiver = createServer((req, res) => {
    req.resume()
    const id = String(req.headers['webhook-id'])
    const seen = arrivals.get(id) ?? []
    seen.push(Date.now())
    arrivals.set(id, seen)
    // the first attempt of each message never ends: its sender holds it until it dies
    if (seen.length > 1) res.writeHead(204).end()
  })
  receiver.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hooks = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`
})

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()))
  for (const s of sockets) s.destroy()
  await new Promise<void>((resolve) => receiver.close(() => {
    resolve()
  }))
  await db.close()
})

describe('kill -9 with messages in flight', () => {
  it('a live process keeps its slow attempts past several leases; after kill -9 another instance sends each again within seconds, once', async () => {
    const env = { CATCH_ALL_URL: `${hooks}/hold`, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_LEASE_MS: String(LEASE_MS), WEBHOOK_CONCURRENCY: '64' }
    const victim = await ServiceProcess.start(url, env)
    processes.push(victim)
    for (let i = 0; i < MESSAGES; i++) {
      const r = await call(victim.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: `lease-${String(i)}` }))
      expect(r.status).toBe(201)
    }
    await eventually(() => arrivals.size === MESSAGES, 30_000, 'every message in flight at the victim')
    const other = await ServiceProcess.start(url, env)
    processes.push(other)

    // Alive, the victim renews its leases: three leases pass and no message is sent a second time.
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS))
    expect([...arrivals.values()].every((a) => a.length === 1)).toBe(true)

    const killedAt = Date.now()
    await victim.kill9()
    await eventually(() => [...arrivals.values()].every((a) => a.length >= 2), TIMEOUT_MS, 'every message sent again')
    await eventually(() => outboxSettled(db), 30_000, 'the outbox to drain')

    const after = [...arrivals.values()].map((a) => (a[1] ?? 0) - killedAt)
    // each message sent exactly twice: once by the victim (held), once by the survivor
    expect([...arrivals.values()].map((a) => a.length)).toStrictEqual(Array.from({ length: MESSAGES }, () => 2))
    // freed by the lease, not by the attempt's time limit
    expect(Math.max(...after)).toBeLessThan(TIMEOUT_MS / 2)
    const delivered = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM outbox WHERE status = 'delivered' AND attempts = 2")
    expect(delivered.rows[0]?.n).toBe(String(MESSAGES))
    console.log(
      `redelivery after kill -9 (lease ${String(LEASE_MS)} ms, heartbeat 1000 ms): ${String(MESSAGES)} messages in flight, ` +
        `sent again after min ${String(Math.min(...after))} ms, median ${String(percentile(after, 50))} ms, max ${String(Math.max(...after))} ms; ` +
        `duplicates ${String(MESSAGES)} (each in-flight message once), none while the victim lived (${String(3 * LEASE_MS)} ms watched)`
    )
  })
})
