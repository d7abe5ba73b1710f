/**
 * Service processes for the multi-process tests: `node --import tsx docs/examples/service/main.ts`
 * with the test's environment, the base url read from its "listening" log line.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { testEnv } from '../reference-service.fixtures.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

export class ServiceProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly base: string,
    readonly exited: Promise<number | null>
  ) {}

  /** Starts a process on the database at `url`; resolves once it listens. */
  static async start(url: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'docs/examples/service/main.ts'], {
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
    const base = await new Promise<string>((resolve, reject) => {
      let buffer = ''
      const onData = (c: Buffer): void => {
        buffer += c.toString('utf8')
        const lines = buffer.split('\n')
        buffer = lines.pop() ?? ''
        for (const line of lines) {
          if (!line.includes('"listening"')) continue
          const url = (JSON.parse(line) as { url: string }).url
          resolve(url)
        }
      }
      child.stdout?.on('data', onData)
      void exited.then((code) => {
        reject(new Error(`service exited (${String(code)}) before listening: ${stderr}`))
      })
    })
    return new ServiceProcess(child, base, exited)
  }

  get pid(): number {
    return this.child.pid ?? 0
  }

  /** Resident memory in kB (Linux /proc). */
  rssKb(): number {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${String(this.pid)}/status`, 'utf8'))
    return Number(m?.[1] ?? 0)
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
