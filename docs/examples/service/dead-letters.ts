/**
 * The dead-letter command (docs/service.md, "Dead letters", "Replay"): lists the webhook messages
 * the relay gave up on and sends them again, enables urls a 410 disabled, and replays every
 * message of a time range.
 *
 *   dead-letters list [--json] [--limit N]
 *   dead-letters retry <id>...
 *   dead-letters retry --all
 *   dead-letters disabled [--json]
 *   dead-letters enable <id>... | --all
 *   dead-letters replay --from <time> --to <time> [--url <url>]
 *
 * On the database of DATABASE_URL (a PostgreSQL server, while the service runs) or PGLITE_DIR (a
 * PGlite folder: one process at a time, so with the service stopped).
 */
import { openDb } from './db/db.js'
import { runDeadLetters, usage } from './outbox/deadLetters.js'

const databaseUrl = process.env['DATABASE_URL'] ?? ''
const pgliteDir = process.env['PGLITE_DIR'] ?? ''
if (databaseUrl === '' && pgliteDir === '') {
  process.stderr.write(`Set DATABASE_URL or PGLITE_DIR: an in-memory database lives only inside its service.\n${usage}\n`)
  process.exit(2)
}
const db = await openDb({ databaseUrl: databaseUrl === '' ? undefined : databaseUrl, pgliteDir: pgliteDir === '' ? undefined : pgliteDir, poolSize: 1 })
try {
  const { out, code } = await runDeadLetters(db, process.argv.slice(2))
  ;(code === 0 ? process.stdout : process.stderr).write(`${out}\n`)
  process.exitCode = code
} finally {
  await db.close()
}
