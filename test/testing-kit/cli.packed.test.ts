/**
 * `npx paysplit-check` on a machine with nothing else installed: the package is packed with
 * `npm pack` from a copy of the repository whose dist/ is what `npm run serve` leaves (JavaScript
 * without type declarations), so `prepack` builds what it ships; the tarball is installed into an
 * empty folder without its peer dependencies (no fast-check, fp-ts or io-ts: the command carries
 * what it needs). There the command answers `--help`, says "cannot reach" for a closed port with
 * no stack trace, and passes a run against a small service on 127.0.0.1; `paysplit-check mock`
 * starts, signs its webhooks (the bundled standardwebhooks), reads camt.054 (the bundled saxes,
 * not installed), passes the kit with its form, bank and webhooks, and stops on SIGTERM.
 * Offline: npm reads nothing but the tarball.
 */
import { execFile, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MOCK_WEBHOOK_SECRET } from '../../src/cli/mock/server.js'
import { tiny } from '../support/cli.fixtures.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
let scratch = ''
let bin = ''

const run = (args: ReadonlyArray<string>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(bin, [...args], { cwd: join(scratch, 'app'), env: { PATH: process.env['PATH'] ?? '' } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr })
    })
  })

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'paysplit-packed-'))
  const pkg = join(scratch, 'pkg')
  mkdirSync(join(pkg, 'docs'), { recursive: true })
  for (const f of ['package.json', 'tsconfig.json', 'README.md', 'LICENSE', 'docs/openapi.json', 'docs/openapi.service.json', 'docs/testing.md', 'src']) {
    cpSync(join(root, f), join(pkg, f), { recursive: true })
  }
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir')
  // what `npm run serve` leaves (tsup --no-dts): JavaScript only; and a file no build makes
  mkdirSync(join(pkg, 'dist'))
  writeFileSync(join(pkg, 'dist', 'index.js'), 'export {}\n')
  writeFileSync(join(pkg, 'dist', 'stale.js'), 'export {}\n')
  // prepack builds (npm run build): the tarball holds that build
  execFileSync('npm', ['pack', '--pack-destination', scratch, '--silent'], { cwd: pkg, stdio: 'pipe' })
  const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz')) ?? ''
  mkdirSync(join(scratch, 'app'))
  writeFileSync(join(scratch, 'app', 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
  execFileSync('npm', ['install', '--offline', '--omit=peer', '--legacy-peer-deps', '--no-audit', '--no-fund', '--silent', join(scratch, tarball)], {
    cwd: join(scratch, 'app'),
    stdio: 'pipe'
  })
  bin = join(scratch, 'app', 'node_modules', '.bin', 'paysplit-check')
}, 180_000)

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
})

describe('a pack builds what it ships (prepack)', () => {
  it('a dist/ without type declarations (as npm run serve leaves it) is built again: every entry ships its .d.ts and .d.cts, the stale file is gone', () => {
    const dist = join(scratch, 'app', 'node_modules', 'paysplit', 'dist')
    for (const entry of ['index', 'codecs', 'http', 'testing']) {
      for (const file of [`${entry}.js`, `${entry}.cjs`, `${entry}.d.ts`, `${entry}.d.cts`]) expect(existsSync(join(dist, file)), file).toBe(true)
    }
    expect(existsSync(join(dist, 'cli.js'))).toBe(true)
    expect(existsSync(join(dist, 'stale.js'))).toBe(false)
    expect(existsSync(join(scratch, 'app', 'node_modules', 'paysplit', 'docs', 'openapi.service.json'))).toBe(true)
  })

  it('package.json: prepack runs the build with type declarations, which npm run serve does not', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; tsup: ReadonlyArray<{ dts: boolean }> }
    expect(pkg.scripts['prepack']).toBe('npm run build')
    expect(pkg.scripts['build']).toBe('tsup')
    expect(pkg.tsup[0]?.dts).toBe(true)
    expect(pkg.scripts['build:service']).toContain('--no-dts')
  })
})

describe('paysplit-check installed alone from the packed tarball', () => {
  it('nothing but paysplit is installed', () => {
    expect(readdirSync(join(scratch, 'app', 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['paysplit'])
    for (const peer of ['fast-check', 'fp-ts', 'io-ts', 'saxes']) expect(existsSync(join(scratch, 'app', 'node_modules', peer)), peer).toBe(false)
  })

  it('--help prints the usage and exits 0', async () => {
    const r = await run(['--help'])
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(r.stdout).toMatch(/^Usage: paysplit-check <base-url> \[options\]/)
  })

  it('a closed port: "cannot reach", exit 2, no stack trace', async () => {
    const svc = await tiny()
    const base = svc.base
    await svc.close()
    const r = await run([base, '--runs', '3'])
    expect(r).toEqual({ code: 2, stdout: '', stderr: `cannot reach ${base} (ECONNREFUSED)\n` })
  })

  it('a run against a service passes, with the coverage line', async () => {
    const svc = await tiny()
    try {
      const r = await run([svc.base, '--runs', '10', '--seed', '1', '--form-complete-path', '/test/form/{id}/complete'])
      expect(r.stderr).not.toMatch(/\n\s+at /)
      expect(r.stdout).toMatch(/^PASSED: 10 run\(s\) in [\d.]+ s, seed 1, references prefixed k1-/m)
      expect(r.stdout).toMatch(/^Coverage: /m)
      expect(r.code).toBe(0)
    } finally {
      await svc.close()
    }
  })

  it('paysplit-check mock: starts, the kit passes against it with signed webhooks, the form and the bank (camt.054 read with the bundled saxes), and it stops on SIGTERM (exit 0)', async () => {
    const mock = spawn(bin, ['mock', '--port', '0', '--quiet'], { cwd: join(scratch, 'app'), env: { PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => mock.once('exit', (code) => { resolve(code); }))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        mock.stdout.on('data', (c: Buffer) => {
          out += c.toString('utf8')
          const m = /^paysplit mock on (http:\/\/127\.0\.0\.1:\d+) /.exec(out)
          if (m?.[1] !== undefined) resolve(m[1])
        })
        mock.once('exit', () => { reject(new Error(`the mock exited: ${out}`)); })
      })
      const r = await run([url, '--runs', '20', '--seed', '1', '--webhooks', '--webhook-secret', MOCK_WEBHOOK_SECRET, '--form-complete-path', '/pay/{id}/complete', '--form-page-path', '/pay/{id}', '--bank-ocr-path', '/bank/ocr'])
      expect(r.stderr).not.toMatch(/\n\s+at /)
      expect(r.stdout).toMatch(/^PASSED: 20 run\(s\) in [\d.]+ s, [1-9]\d* webhook\(s\) received, seed 1/m)
      expect(r.code).toBe(0)
      // camt.054 notifications driven, not skipped (a mock without saxes answers 501, and the check notes the skips)
      const camt = await run([url, '--runs', '20', '--seed', '2', '--kinds', 'invoice', '--bank-camt054-path', '/bank/camt054'])
      expect(camt.stdout).not.toContain('Note:')
      expect(camt.stdout).toMatch(/outside events: [^;]*camt054 matched/)
      expect(camt.code).toBe(0)
    } finally {
      if (mock.pid !== undefined && mock.exitCode === null) process.kill(mock.pid, 'SIGTERM')
    }
    expect(await exited).toBe(0)
  })
})
