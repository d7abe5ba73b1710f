/**
 * What the request being answered learned on its way, for its log line and its metrics: who the
 * caller is (server.ts, from the key) and whether the answer is an idempotent replay
 * (db/idempotency.ts, from the key's stored record). Kept in an AsyncLocalStorage that server.ts
 * opens around each request, so the routes between them carry nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { StoredResponse } from 'paysplit/http'

export interface RequestMarks {
  /** The id of the caller whose key the request carried (config.ts, `API_KEYS`). */
  caller?: string
  /** The stored answer of the request's Idempotency-Key, when the database had one and it was not replaced. */
  stored?: StoredResponse
}

const storage = new AsyncLocalStorage<RequestMarks>()

/** Runs `fn` with fresh marks for one request; `marks` is what the request's code filled in. */
export const withMarks = <T>(marks: RequestMarks, fn: () => Promise<T>): Promise<T> => storage.run(marks, fn)

/** The marks of the request being answered, or undefined outside one. */
export const currentMarks = (): RequestMarks | undefined => storage.getStore()

/**
 * Whether `status` and `body` are the stored answer of the request's key: the same key and
 * request answered again from the database (a replay), not a new answer.
 */
export const isReplay = (marks: RequestMarks, status: number, body: unknown): boolean =>
  marks.stored !== undefined && marks.stored.status === status && JSON.stringify(marks.stored.body) === JSON.stringify(body)
