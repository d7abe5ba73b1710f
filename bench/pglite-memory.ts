/**
 * `npm run bench:memory`: the resident memory (RSS, from /proc) of the built reference service on
 * its embedded database, PGlite, as `npm run serve` runs it (in memory) and on a data folder, with
 * PGlite's own buffer pool (`PGLITE_SHARED_BUFFERS=128MB`, PostgreSQL's default) and the service's
 * (16MB), measured in the same run: at start (the "listening" line, then one second), and after a
 * load of flows (create → hosted form → partial refund, 16 clients) with the peak (VmHWM).
 *
 * BENCH_FLOWS (default 1500) sets the load.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { devApiKey } from '../docs/examples/service/config.js'
import { formTokenFor } from '../test/support/reference-service.fixtures.js'
import { createBody, refundPatch } from './serviceFlow.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const FLOWS = Number(process.env['BENCH_FLOWS'] ?? '1500')
const CLIENTS = 16

const status = (pid: number, field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'))?.[1] ?? NaN) / 1024

interface Measured {
  readonly start: number
  readonly loaded: number
  readonly peak: number
  readonly seconds: number
}

const measure = async (env: Record<string, string>): Promise<Measured> => {
  const child = spawn(process.execPath, ['docs/examples/service/dist/main.js'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', DEV_MODE: '1', PORT: '0', RATE_LIMIT_PER_KEY: '0', DRAIN_PERIOD_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'ignore']
  })
  const pid = child.pid ?? 0
  const base = await new Promise<string>((resolve, reject) => {
    let buffer = ''
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString('utf8')
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) if (line.includes('"listening"')) resolve(String((JSON.parse(line) as { url: string }).url))
    })
    child.once('exit', (code) => {
      reject(new Error(`exited ${String(code)}`))
    })
  })
  child.stdout.resume()
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const start = status(pid, 'VmRSS')
  const began = Date.now()
  const json = { authorization: `Bearer ${devApiKey}`, 'content-type': 'application/json' }
  let next = 0
  const client = async (): Promise<void> => {
    for (let i = next++; i < FLOWS; i = next++) {
      const created = await fetch(`${base}/payments`, { method: 'POST', headers: json, body: JSON.stringify(createBody(`mem-${String(i)}`, i)) })
      const id = ((await created.json()) as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated.paymentReferenceID
      const form = await fetch(`${base}/pay/${id}/complete`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: formTokenFor(id, 'complete') }).toString()
      })
      await form.text()
      const refund = await fetch(`${base}/payments/${id}/refund/partially`, { method: 'POST', headers: json, body: JSON.stringify(refundPatch) })
      if (refund.status !== 200) throw new Error(`refund ${String(refund.status)}`)
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, client))
  const seconds = (Date.now() - began) / 1000
  const loaded = status(pid, 'VmRSS')
  const peak = status(pid, 'VmHWM')
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  return { start, loaded, peak, seconds }
}

execFileSync('npm', ['run', 'build:service', '--silent'], { cwd: root, stdio: 'inherit' })
const rows: Array<readonly [string, Measured]> = []
for (const [where, folder] of [
  ['in memory', false],
  ['a data folder', true]
] as const) {
  for (const [pool, buffers] of [
    ["PostgreSQL's 128MB", '128MB'],
    ["the service's 16MB", '16MB']
  ] as const) {
    const dir = folder ? mkdtempSync(join(tmpdir(), 'paysplit-mem-')) : undefined
    try {
      rows.push([`${where}, shared_buffers ${pool}`, await measure({ PGLITE_SHARED_BUFFERS: buffers, ...(dir !== undefined ? { PGLITE_DIR: dir } : {}) })])
    } finally {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    }
  }
}
const mb = (n: number): string => `${n.toFixed(0)} MB`
console.log(`\nResident memory of the reference service on PGlite (${String(FLOWS)} flows, ${String(CLIENTS)} clients)\n`)
console.log('| PGlite | at start | after the load | peak | flows/s |')
console.log('|---|---:|---:|---:|---:|')
for (const [name, m] of rows) console.log(`| ${name} | ${mb(m.start)} | ${mb(m.loaded)} | ${mb(m.peak)} | ${(FLOWS / m.seconds).toFixed(0)} |`)
