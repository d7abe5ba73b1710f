/**
 * The migration runner: the `.sql` files of ./migrations, applied in the order of their names,
 * each once, recorded in `schema_migrations`. Plain SQL files and these few lines instead of a
 * migration library: docs/decisions.md, "The reference service".
 *
 * All pending files run in one transaction behind an advisory lock, so several instances starting
 * at once on one database apply each file exactly once, and a failing file leaves nothing behind.
 */
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Db } from './db.js'

const folder = fileURLToPath(new URL('./migrations/', import.meta.url))

/** An arbitrary constant: the advisory lock that serialises migration runs. */
const LOCK = 715_2026

/** Applies the pending migrations; returns the names applied now. */
export const migrate = async (db: Db, dir: string = folder): Promise<ReadonlyArray<string>> => {
  const files = (await readdir(dir)).filter((f) => /^\d+_[\w-]+\.sql$/.test(f)).sort()
  const texts = await Promise.all(files.map(async (f) => [f, await readFile(dir + f, 'utf8')] as const))
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK])
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())'
    )
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name))
    const applied: Array<string> = []
    for (const [name, sql] of texts) {
      if (done.has(name)) continue
      await tx.exec(sql)
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name])
      applied.push(name)
    }
    return applied
  })
}
