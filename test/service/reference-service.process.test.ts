/**
 * The reference service as an operator runs it: built (`npm run build -w paysplit-service`, tsup
 * to dist/), laid out as a production install (the service's package.json and dist/ beside a
 * node_modules holding paysplit's runtime build and the dependencies), and started with `node`
 * (no tsx): a configuration it refuses ends it with exit code 78 and a message naming each problem,
 * and so does a port another process holds, before any migration; a production configuration
 * starts it on a durable PGlite folder; SIGTERM under load drains (`/readyz` 503 at once, answers
 * with `Connection: close`, then the listener closes and nothing sent before is reset); and SIGTERM
 * sent to `npm start` (what a process manager sends) reaches node and stops the whole process tree
 * gracefully.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openPglite } from '../../docs/examples/service/db/db.js'
import { cardRequest } from '../support/http.fixtures.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const serviceDir = join(root, 'docs/examples/service')
let scratch = ''
let app = ''

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'paysplit-deploy-'))
  app = join(scratch, 'service')
  // the service's own build, as its package.json defines it
  execFileSync(process.execPath, [join(root, 'node_modules/tsup/dist/cli-default.js')], { cwd: serviceDir, stdio: 'pipe' })
  mkdirSync(app)
  cpSync(join(serviceDir, 'package.json'), join(app, 'package.json'))
  cpSync(join(serviceDir, 'dist'), join(app, 'dist'), { recursive: true })
  // paysplit as installed: its package.json and a runtime build of its entries (types are not needed to run)
  const paysplit = join(scratch, 'node_modules/paysplit')
  mkdirSync(paysplit, { recursive: true })
  cpSync(join(root, 'package.json'), join(paysplit, 'package.json'))
  await build({
    entryPoints: Object.fromEntries(['index', 'codecs', 'http', 'testing'].map((e) => [e, join(root, `src/${e}.ts`)])),
    outdir: join(paysplit, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent'
  })
  // every other dependency from the repository's install
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name === 'paysplit' || name === 'paysplit-service' || name.startsWith('.')) continue
    symlinkSync(join(root, 'node_modules', name), join(scratch, 'node_modules', name), 'dir')
  }
}, 120_000)

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
})

const key = (): string => randomBytes(24).toString('base64url')
const production = (dir: string): Record<string, string> => ({
  NODE_ENV: 'production',
  API_KEYS: key(),
  BANK_API_KEYS: key(),
  WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
  FORM_SECRET: randomBytes(32).toString('base64url'),
  PGLITE_DIR: dir,
  PORT: '0',
  DRAIN_PERIOD_MS: '200'
})

/** The environment of a started process: nothing of this test process's but PATH and HOME. */
const envOf = (env: Record<string, string>): Record<string, string> => ({ PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...env })

interface Exit {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the built service to its exit (a refusal); bounded by `ms`. */
const runToExit = (env: Record<string, string>, ms = 30_000): Promise<Exit> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/main.js'], { cwd: app, env: envOf(env), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`still running after ${String(ms)} ms: ${stdout}`))
    }, ms)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

interface Started {
  readonly child: ChildProcess
  readonly base: string
  readonly lines: Array<Record<string, unknown>>
  readonly exited: Promise<number | null>
  /** Resolves when every process holding the log's pipe has closed it (the service included). */
  readonly drained: Promise<void>
  readonly stderr: () => string
}

/** Starts `command args` in the deployed service folder; resolves once a "listening" line is logged. */
const start = (command: string, args: ReadonlyArray<string>, env: Record<string, string>): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: app, env: envOf(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    started.push(child.pid ?? 0)
    const lines: Array<Record<string, unknown>> = []
    let stderr = ''
    let buffer = ''
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => {
      r(code)
    }))
    void exited.then((code) => {
      reject(new Error(`exited (${String(code)}) before listening: ${stderr}`))
    })
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    const drained = new Promise<void>((r) => child.stdout.once('close', () => {
      r()
    }))
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString('utf8')
      const parts = buffer.split('\n')
      buffer = parts.pop() ?? ''
      for (const text of parts) {
        if (!text.startsWith('{')) continue
        const line = JSON.parse(text) as Record<string, unknown>
        lines.push(line)
        if (line['msg'] === 'listening') resolve({ child, base: String(line['url']), lines, exited, drained, stderr: () => stderr })
      }
    })
  })

/** Process groups this file started (each process leads its own), killed after each test whatever it asserted: a failing test leaves nothing behind. */
const started: Array<number> = []
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // the group is gone already
    }
  }
})

/** Whether `pid` still runs: a zombie (exited, not yet reaped by whoever adopted it) does not. */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S …", the state after the last ')'
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

describe('refused configurations: exit 78 and every problem named, before anything listens', () => {
  it('no settings at all (not development mode): names the keys, the secret and the durable database', async () => {
    const r = await runToExit({})
    expect(r.code).toBe(78)
    expect(r.stderr).toMatch(/refuses to start/)
    expect(r.stderr).toMatch(/Missing API_KEYS, BANK_API_KEYS, WEBHOOK_SECRET, FORM_SECRET, DATABASE_URL or PGLITE_DIR/)
    const line = JSON.parse(r.stdout.trim().split('\n')[0] ?? '{}') as { msg?: string; problems?: ReadonlyArray<string> }
    expect(line.msg).toBe('configuration refused')
    expect(line.problems).toHaveLength(1)
  })

  it('NODE_ENV=production with DEV_MODE=1: not development mode, refused', async () => {
    const r = await runToExit({ NODE_ENV: 'production', DEV_MODE: '1' })
    expect(r.code).toBe(78)
    expect(r.stderr).toMatch(/NODE_ENV=production turns DEV_MODE off/)
  })

  it('the development values set explicitly in production, and a weak secret: refused, the values not echoed', async () => {
    const r = await runToExit({ ...production(join(scratch, 'unused')), API_KEYS: 'dev-api-key', BANK_API_KEYS: 'dev-bank-key', WEBHOOK_SECRET: 'whsec_c2hvcnQtc2VjcmV0' })
    expect(r.code).toBe(78)
    expect(r.stderr).toMatch(/API_KEYS holds a development value/)
    expect(r.stderr).toMatch(/BANK_API_KEYS holds a development value/)
    expect(r.stderr).toMatch(/WEBHOOK_SECRET must hold 24 to 64 random bytes/)
    expect(r.stdout + r.stderr).not.toContain('c2hvcnQtc2VjcmV0')
    expect(existsSync(join(scratch, 'unused'))).toBe(false)
  })

  const each: ReadonlyArray<readonly [string, Record<string, string>, RegExp]> = [
    ['no API_KEYS', { API_KEYS: '' }, /Missing API_KEYS:/],
    ['no BANK_API_KEYS', { BANK_API_KEYS: '' }, /Missing BANK_API_KEYS:/],
    ['no WEBHOOK_SECRET', { WEBHOOK_SECRET: '' }, /Missing WEBHOOK_SECRET:/],
    ['no durable database', { PGLITE_DIR: '' }, /Missing DATABASE_URL or PGLITE_DIR \(a durable database\)/],
    ['the development webhook secret', { WEBHOOK_SECRET: 'whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWRvLW5vdC11c2U=' }, /WEBHOOK_SECRET is the development value/],
    ['a short API key', { API_KEYS: 'short-key-1234567' }, /API_KEYS: every key needs at least 32 characters/],
    ['a secret that is not whsec_', { WEBHOOK_SECRET: randomBytes(32).toString('base64') }, /WEBHOOK_SECRET must be whsec_ followed by base64/],
    ['one key for the API and the bank', { BANK_API_KEYS: 'same-key-for-both-0123456789abcdefgh', API_KEYS: 'same-key-for-both-0123456789abcdefgh' }, /both API_KEYS and BANK_API_KEYS/],
    ['a headers limit above the request limit', { HEADERS_TIMEOUT_MS: '90000', REQUEST_TIMEOUT_MS: '60000' }, /HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/]
  ]
  it.each(each)('%s: exit 78, named', async (_what, env, message) => {
    const r = await runToExit({ ...production(join(scratch, 'unused')), ...env })
    expect(r.code).toBe(78)
    expect(r.stderr).toMatch(message)
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ level: 'error', msg: 'configuration refused', problems: [expect.stringMatching(message)] })
  })

  it('development mode on HOST=0.0.0.0: refused (development keys never leave loopback)', async () => {
    const r = await runToExit({ DEV_MODE: '1', HOST: '0.0.0.0', PORT: '0' })
    expect(r.code).toBe(78)
    expect(r.stderr).toMatch(/loopback address only/)
  })

  it('a port another process holds: one JSON line naming it, exit 78, before the database is opened or migrated', async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const port = (holder.address() as AddressInfo).port
    const dir = join(scratch, 'never-opened')
    try {
      const r = await runToExit({ ...production(dir), PORT: String(port) })
      expect(r.code).toBe(78)
      const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(lines.filter((l) => l['level'] === 'error')).toStrictEqual([
        expect.objectContaining({ msg: 'port unavailable', host: '127.0.0.1', port, code: 'EADDRINUSE', problem: `Cannot listen on 127.0.0.1:${String(port)}: the port is taken by another process.` })
      ])
      expect(lines.map((l) => l['msg'])).not.toContain('migrations applied')
      expect(r.stderr).toContain(`127.0.0.1:${String(port)}`)
      expect(existsSync(dir)).toBe(false)
    } finally {
      holder.close()
    }
  })
})

describe('started with node, as in production', () => {
  it('a production configuration starts on a PGlite folder; a payment survives a SIGTERM and a restart', async () => {
    const env = production(join(scratch, 'data'))
    const apiKey = env['API_KEYS'] ?? ''
    const first = await start(process.execPath, ['dist/main.js'], env)
    expect(first.lines.find((l) => l['msg'] === 'configuration')).toMatchObject({ mode: 'production', metrics: 'off (no METRICS_KEYS)' })
    expect(first.stderr()).not.toMatch(/DEVELOPMENT MODE/)
    expect(JSON.stringify(first.lines)).not.toContain(apiKey)
    expect((await fetch(`${first.base}/readyz`)).status).toBe(200)
    const dev = await fetch(`${first.base}/payments`, { method: 'POST', headers: { authorization: 'Bearer dev-api-key' }, body: '{}' })
    expect(dev.status).toBe(401)
    const created = await fetch(`${first.base}/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(cardRequest({ externalPaymentReferenceID: 'durable-1' }))
    })
    expect(created.status).toBe(201)
    const id = ((await created.json()) as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated.paymentReferenceID
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)

    const second = await start(process.execPath, ['dist/main.js'], env)
    try {
      expect((await fetch(`${second.base}/payments/${id}`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200)
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }
  })

  it('SIGTERM under load: /readyz 503 at once, answers with Connection: close during the drain, no request sent before the listener closed is reset, exit 0', async () => {
    const dir = join(scratch, 'drain')
    // a drain of 4 s: twenty probes of the balancer, time enough on a loaded machine for it to see the 503
    const env: Record<string, string> = { ...production(dir), DRAIN_PERIOD_MS: '4000', RATE_LIMIT_PER_KEY: '0' }
    const apiKey = env['API_KEYS'] ?? ''
    const service = await start(process.execPath, ['dist/main.js'], env)
    const { hostname, port } = new URL(service.base)
    interface Sent {
      readonly id: string
      readonly at: number
      status?: number
      connection?: string | undefined
      error?: string
    }
    const sent: Array<Sent> = []
    let n = 0
    /** One request on `agent`, recorded with the time it was sent and how it ended. */
    const post = (agent: Agent): Promise<Sent> =>
      new Promise((resolve) => {
        const id = `drain-${String((n += 1))}`
        const body = JSON.stringify(cardRequest({ externalPaymentReferenceID: id }))
        const one: Sent = { id, at: Date.now() }
        sent.push(one)
        const req = request({ host: hostname, port, method: 'POST', path: '/payments', agent, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': id } }, (res) => {
          res.resume()
          res.on('end', () => {
            one.status = res.statusCode ?? 0
            one.connection = res.headers.connection
            resolve(one)
          })
        })
        req.on('error', (e: NodeJS.ErrnoException) => {
          one.error = e.code ?? e.message
          resolve(one)
        })
        req.end(body)
      })
    // A load balancer's view: /readyz probed every 200 ms (one failure takes the instance out).
    let inRotation = true
    const probing = (async () => {
      while (inRotation) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        const probe = await fetch(`${service.base}/readyz`).catch(() => undefined)
        if (probe?.status !== 200) inRotation = false
      }
    })()
    // 60 clients, each on its own kept-alive connection, sending while the balancer routes to the service
    const agents = Array.from({ length: 60 }, () => new Agent({ keepAlive: true, maxSockets: 1 }))
    const clients = agents.map(async (agent) => {
      while (inRotation) await post(agent)
    })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const signalled = Date.now()
    service.child.kill('SIGTERM')
    // a new client asks whether to send here: not any more
    await new Promise((resolve) => setTimeout(resolve, 100))
    const ready = await fetch(`${service.base}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ status: 'stopping' })
    expect(ready.headers.get('connection')).toBe('close')
    // a request sent now, on a new connection, is still answered
    const late = await fetch(`${service.base}/payments`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(cardRequest({ externalPaymentReferenceID: 'drain-late' })) })
    expect(late.status).toBe(201)
    expect(late.headers.get('connection')).toBe('close')
    await Promise.all([probing, ...clients])
    for (const a of agents) a.destroy()
    expect(await service.exited).toBe(0)
    await service.drained
    const at = (msg: string): number => Date.parse(String(service.lines.find((l) => l['msg'] === msg)?.['time']))
    const closedAt = at('listener closed')
    expect(at('draining')).toBeGreaterThanOrEqual(signalled - 1000)
    expect(closedAt - at('draining')).toBeGreaterThanOrEqual(4000)
    expect(service.lines.map((l) => l['msg'])).toEqual(expect.arrayContaining(['stopping', 'draining', 'listener closed', 'stopped']))
    expect(service.lines.filter((l) => l['level'] === 'error')).toStrictEqual([])
    const before = sent.filter((s) => s.at < closedAt)
    const resets = before.filter((s) => s.error !== undefined)
    const answered = sent.filter((s) => s.status !== undefined)
    // answered during the drain: their request lines come after the 'draining' line (the log's order is the service's)
    const drainingLine = service.lines.findIndex((l) => l['msg'] === 'draining')
    const answeredInDrain = new Set(service.lines.slice(drainingLine).filter((l) => l['msg'] === 'request').map((l) => String(l['requestId'])))
    const duringDrain = answered.filter((s) => answeredInDrain.has(s.id))
    console.info(
      `drain: ${String(sent.length)} requests, ${String(answered.length)} answered (${String(duringDrain.length)} during the drain, ` +
        `the last ${String(closedAt - Math.max(...sent.map((s) => s.at)))} ms before the listener closed), ${String(resets.length)} reset`
    )
    expect(resets).toStrictEqual([])
    expect(answered.every((s) => s.status === 201)).toBe(true)
    expect(duringDrain.every((s) => s.connection === 'close')).toBe(true)
    // what was answered 201 is stored
    const db = await openPglite(dir)
    try {
      expect(Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM payments')).rows[0]?.n)).toBe(answered.length + 1)
    } finally {
      await db.close()
    }
  })

  it('SIGTERM to `npm start` reaches node: npm and the service exit, nothing is left running', async () => {
    const npm = await start('npm', ['start', '--silent'], { DEV_MODE: '1', PORT: '0', npm_config_update_notifier: 'false' })
    expect(npm.stderr()).toMatch(/DEVELOPMENT MODE/)
    const npmPid = npm.child.pid ?? 0
    const children = readFileSync(`/proc/${String(npmPid)}/task/${String(npmPid)}/children`, 'utf8').trim().split(/\s+/).map(Number)
    expect(children).toHaveLength(1)
    const nodePid = children[0] ?? 0
    // npm's child is node itself (exec), not a shell that would keep the signal to itself
    expect(readFileSync(`/proc/${String(nodePid)}/cmdline`, 'utf8').split('\0')[1]).toBe('dist/main.js')
    npm.child.kill('SIGTERM')
    await npm.exited
    // a graceful stop closes the database: give a loaded machine up to 20 s
    for (let i = 0; i < 200 && alive(nodePid); i++) await new Promise((r) => setTimeout(r, 100))
    expect(alive(nodePid)).toBe(false)
    await npm.drained
    expect(npm.lines.map((l) => l['msg'])).toEqual(expect.arrayContaining(['stopping', 'stopped']))
  })
})
