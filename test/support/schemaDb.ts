/**
 * paysplit/schema.sql on a fresh PGlite (in-process), and the two calls a store makes on it, as
 * the embedding example makes them: `paysplit.load` (its text, kept for the write, and the world
 * of it) and `paysplit.store`.
 */
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import * as E from 'fp-ts/lib/Either.js'
import { worldOf, type Outcome, type RowKeys, type World, type WorldRows } from '../../src/http.js'

/** A fresh in-memory database with paysplit's tables and functions. */
export const schemaDb = async (): Promise<PGlite> => {
  const db = await PGlite.create()
  await db.exec(readFileSync(new URL('../../docs/schema.sql', import.meta.url), 'utf8'))
  return db
}

/** The rows `keys` name as `paysplit.load` returns them (text), and the world `worldOf` builds from them. */
export const loadRows = async (db: PGlite, keys: RowKeys): Promise<readonly [string, World]> => {
  const rows = (await db.query<{ rows: string }>('SELECT paysplit.load($1)::text AS rows', [JSON.stringify(keys)])).rows[0]?.rows ?? '{}'
  const world = worldOf(JSON.parse(rows) as WorldRows)
  if (E.isLeft(world)) throw new Error(world.left.message)
  return [rows, world.right]
}

/** An operation's changes, deliveries and transfers to park written by `paysplit.store`, against the rows loaded. */
export const storeOutcome = (db: PGlite, o: Outcome, loaded: string, parked: ReadonlyArray<unknown> = []): Promise<unknown> =>
  db.query('SELECT paysplit.store($1, $2, $3, $4)', [JSON.stringify(o.changes), loaded, JSON.stringify(o.deliveries), JSON.stringify(parked)])
