/**
 * Service processes for the multi-process tests and the benchmark: `node --import tsx
 * docs/examples/service/main.ts` (or another entry) with the given environment, the base url read
 * from its "listening" log line. The request log is drained and dropped.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { testEnv } from '../support/reference-service.fixtures.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

type Line = Readonly<Record<string, unknown>>
/** Gets each awaited log line; true when it was the one it waited for. */
type Waiter = (line: Line) => boolean

export class ServiceProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly base: string,
    readonly exited: Promise<number | null>,
    private readonly waiters: Array<Waiter>
  ) {}

  /** Starts a process on the database at `url`; resolves once it listens. */
  static async start(url: string, env: Record<string, string> = {}, script = 'docs/examples/service/main.ts'): Promise<ServiceProcess> {
    // PAYSPLIT_BUILT=1 (the benchmark): paysplit from the built package, as a user runs it
    const built = env['PAYSPLIT_BUILT'] === '1' ? ['--import', './bench/built-paysplit.mjs'] : []
    const child = spawn(process.execPath, ['--import', 'tsx', ...built, script], {
      cwd: root,
      env: { ...process.env, ...testEnv(env), DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
      resolve(code)
    }))
    let stderr = ''
    child.stderr?.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-4000)
    })
    const waiters: Array<Waiter> = []
    let buffer = ''
    child.stdout?.on('data', (c: Buffer) => {
      buffer += c.toString('utf8')
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const text of lines) {
        if (waiters.length === 0 || !(text.includes('"listening"') || text.includes('"profile"'))) continue
        const line = JSON.parse(text) as Line
        for (let i = waiters.length - 1; i >= 0; i--) if (waiters[i]?.(line) === true) waiters.splice(i, 1)
      }
    })
    const base = await new Promise<string>((resolve, reject) => {
      waiters.push((line) => {
        if (line['msg'] !== 'listening') return false
        resolve(String(line['url']))
        return true
      })
      void exited.then((code) => {
        reject(new Error(`service exited (${String(code)}) before listening: ${stderr}`))
      })
    })
    return new ServiceProcess(child, base, exited, waiters)
  }

  get pid(): number {
    return this.child.pid ?? 0
  }

  /** Resident memory in kB (Linux /proc). */
  rssKb(): number {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${String(this.pid)}/status`, 'utf8'))
    return Number(m?.[1] ?? 0)
  }

  /** With PAYSPLIT_PROFILE=1: the ms spent in paysplit and the CPU ms of the process so far. */
  profile(): Promise<{ readonly paysplitMs: number; readonly cpuMs: number; readonly requestMs: number; readonly byRule: Readonly<Record<string, number>> }> {
    return new Promise((resolve) => {
      this.waiters.push((line) => {
        if (line['msg'] !== 'profile') return false
        resolve({ paysplitMs: Number(line['paysplitMs']), cpuMs: Number(line['cpuMs']), requestMs: Number(line['requestMs']), byRule: line['byRule'] as Record<string, number> })
        return true
      })
      this.child.kill('SIGUSR2')
    })
  }

  /** kill -9: no shutdown, no flush, in-flight work lost. */
  async kill9(): Promise<void> {
    this.child.kill('SIGKILL')
    await this.exited
  }

  /** SIGTERM: the graceful stop. Resolves to the exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode
    this.child.kill('SIGTERM')
    return this.exited
  }
}

/** The p-th percentile (0–100) of `xs`. */
export const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN
}
