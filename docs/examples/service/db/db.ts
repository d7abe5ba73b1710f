/**
 * The one query interface the service uses, over both drivers: PGlite (PostgreSQL in-process,
 * the default) and `pg` (a PostgreSQL server, when DATABASE_URL is set). Same SQL for both.
 *
 * PGlite is a single connection: its transactions are serialised here (one at a time, the others
 * wait their turn), and a query outside a transaction waits for the running one too. `pg` runs
 * each transaction on its own pooled connection.
 */
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

export interface QueryResult<R> {
  readonly rows: ReadonlyArray<R>
  readonly rowCount: number
}

/** Something that runs SQL: the database, or one transaction of it. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: ReadonlyArray<unknown>): Promise<QueryResult<R>>
  /** Runs a script of several statements, without parameters (the migrations). */
  exec(sql: string): Promise<void>
}

export interface Db extends Queryable {
  /** Which driver: for the logs and the health check. */
  readonly driver: 'pglite' | 'pg'
  /** Runs `fn` in one transaction (READ COMMITTED): committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** A PostgreSQL error, as both drivers report it. */
export interface SqlError {
  readonly code: string
  readonly constraint?: string
}

export const isSqlError = (e: unknown): e is SqlError =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'

/** SQLSTATEs after which the transaction is run again: serialization failure, deadlock. */
export const retryableStates: ReadonlySet<string> = new Set(['40001', '40P01'])
export const UNIQUE_VIOLATION = '23505'

// -------------------------------------------------------------------------------------
// PGlite
// -------------------------------------------------------------------------------------

/** Resolves after the event loop's next I/O phase. */
const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Opens PGlite: in memory, or in `dir` (created if missing). */
export const openPglite = async (dir?: string): Promise<Db> => {
  const db = dir === undefined ? await PGlite.create() : await PGlite.create(dir)
  let turn: Promise<unknown> = Promise.resolve()
  /**
   * Runs `job` after every job queued before it: one user of the connection at a time. Each job
   * waits a turn of the event loop first: PGlite computes in this thread, and jobs that follow one
   * another in promise callbacks alone would keep the process from its sockets (new connections,
   * health checks) for as long as the queue lasts.
   */
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const run = turn.then(yieldToIo, yieldToIo).then(job)
    turn = run.catch(() => undefined)
    return run
  }
  const on = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: (async (sql: string, params: ReadonlyArray<unknown> = []) => {
      const r = await q.query(sql, [...params])
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length }
    }) as Queryable['query'],
    exec: async (sql) => {
      await q.exec(sql)
    }
  })
  return {
    driver: 'pglite',
    query: (sql, params) => serial(() => on(db).query(sql, params)),
    exec: (sql) => serial(() => on(db).exec(sql)),
    transaction: (fn) => serial(() => db.transaction((tx) => fn(on(tx)))),
    close: () => serial(() => db.close())
  }
}

// -------------------------------------------------------------------------------------
// pg (node-postgres)
// -------------------------------------------------------------------------------------

/** Opens a pool of `size` connections to the server at `url`. */
export const openPg = (url: string, size: number): Db => {
  const pool = new pg.Pool({ connectionString: url, max: size })
  // An idle connection that the server drops must not crash the process.
  pool.on('error', () => undefined)
  const on = (c: pg.Pool | pg.PoolClient): Queryable => ({
    // pg types rows as any[]: each caller names the row type it selected
    query: async (sql: string, params: ReadonlyArray<unknown> = []) => {
      const r = await c.query(sql, [...params])
      return { rows: r.rows, rowCount: r.rowCount ?? 0 }
    },
    // No parameters: the simple query protocol, which takes several statements.
    exec: async (sql) => {
      await c.query(sql)
    }
  })
  return {
    driver: 'pg',
    query: (sql, params) => on(pool).query(sql, params),
    exec: (sql) => on(pool).exec(sql),
    transaction: async (fn) => {
      const client = await pool.connect()
      let broken = false
      try {
        await client.query('BEGIN')
        const result = await fn(on(client))
        await client.query('COMMIT')
        return result
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {
          broken = true
        })
        throw e
      } finally {
        client.release(broken)
      }
    },
    close: () => pool.end()
  }
}

/** The database the configuration names: a server when `databaseUrl` is set, else PGlite. */
export const openDb = (c: { readonly databaseUrl: string | undefined; readonly pgliteDir: string | undefined; readonly poolSize: number }): Promise<Db> =>
  c.databaseUrl !== undefined ? Promise.resolve(openPg(c.databaseUrl, c.poolSize)) : openPglite(c.pgliteDir)
