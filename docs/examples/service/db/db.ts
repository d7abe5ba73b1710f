/**
 * The one query interface the service uses, over both drivers: PGlite (PostgreSQL in-process,
 * the default) and `pg` (a PostgreSQL server, when DATABASE_URL is set). Same SQL for both.
 *
 * PGlite is a single connection: its transactions are serialised here (one at a time, the others
 * wait their turn), and a query outside a transaction waits for the running one too. `pg` runs
 * each transaction on its own pooled connection.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
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

/**
 * A new database (always, in memory) is made by initdb, a second WebAssembly instance of about
 * 300 MB that PGlite drops once it has started; the process would keep that memory until a full
 * garbage collection, which an idle service may not run for hours. One is run here, a turn of the
 * event loop after the start (when PGlite has let go of it). node runs without `--expose-gc`, so
 * the collector is reached as jest's leak detector reaches it: the flag set, then `gc` read from a
 * new context (the main context gains no `gc`).
 */
const releaseInitdb = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 0))
  try {
    setFlagsFromString('--expose-gc')
    const gc: unknown = runInNewContext('gc')
    if (typeof gc === 'function') (gc as () => void)()
  } catch {
    // an engine without it: the memory goes at the next full collection
  }
}

/** Resolves after the event loop's next I/O phase. */
const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * PGlite's buffer pool when none is given: 16 MB rather than PostgreSQL's 128 MB. PGlite keeps
 * it in the process's own memory (WebAssembly), touched as pages are read, so a busy service grew
 * by most of the 128 MB; an embedded database of a few thousand payments fits in 16 MB (docs/service.md,
 * "Memory of the embedded database").
 */
export const PGLITE_SHARED_BUFFERS = '16MB'

/**
 * Opens PGlite: in memory, or in `dir` (created if missing). `sharedBuffers`: PostgreSQL's
 * `shared_buffers` (e.g. `16MB`, the default here; `128MB` is PostgreSQL's own).
 */
export const openPglite = async (dir?: string, sharedBuffers: string = PGLITE_SHARED_BUFFERS): Promise<Db> => {
  const options = { postgresqlconf: [`shared_buffers=${sharedBuffers}`] }
  const db = dir === undefined ? await PGlite.create(options) : await PGlite.create(dir, options)
  await releaseInitdb()
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
export const openDb = (c: {
  readonly databaseUrl: string | undefined
  readonly pgliteDir: string | undefined
  readonly poolSize: number
  readonly pgliteSharedBuffers?: string
}): Promise<Db> => (c.databaseUrl !== undefined ? Promise.resolve(openPg(c.databaseUrl, c.poolSize)) : openPglite(c.pgliteDir, c.pgliteSharedBuffers))
