/**
 * Global setup of `npm run test:postgres`: a real PostgreSQL 17 server from npm for the run
 * (docs/examples/service/db/embedded.ts); its URL goes to the test files in
 * PAYSPLIT_TEST_DATABASE_URL.
 */
import { startEmbeddedPostgres } from '../../docs/examples/service/db/embedded.js'

export default async function setup(): Promise<() => Promise<void>> {
  const server = await startEmbeddedPostgres()
  process.env['PAYSPLIT_TEST_DATABASE_URL'] = server.url
  return () => server.stop()
}
