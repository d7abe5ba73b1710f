/**
 * Transport helpers of the service: reading a bounded body, answering JSON or HTML, and the
 * bearer-key check.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

/** What a route answers. */
export interface Reply {
  readonly status: number
  /** JSON-encoded, unless `html` or `text` is set. */
  readonly body?: unknown
  readonly html?: string
  /** Sent as it is (`text/plain`, unless the headers name another type). */
  readonly text?: string
  readonly headers?: Readonly<Record<string, string>>
}

export const json = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Reply => ({ status, body, headers })

export const send = (res: ServerResponse, reply: Reply, extra: Readonly<Record<string, string>> = {}): void => {
  const text = reply.html ?? reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body))
  res.writeHead(reply.status, {
    'content-type':
      reply.html !== undefined ? 'text/html; charset=utf-8' : reply.text !== undefined ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...extra,
    ...reply.headers
  })
  res.end(text)
}

export type BodyRead = { readonly kind: 'ok'; readonly text: string } | { readonly kind: 'tooLarge' } | { readonly kind: 'aborted' }

/** After a 413 answered while the body still comes: how long, and how many more bytes, are read and dropped before the connection is cut. */
const LINGER_MS = 1000

/**
 * Reads the body up to `limit` bytes; past it the body is `tooLarge`, and the 413 goes out:
 *
 * - a body that declares its length, at most twice the limit: once it is all read (and dropped),
 *   so the client, which sends it whole whatever the answer, reads the 413 rather than an error
 *   of its upload;
 * - a chunked body (no length, possibly endless) as soon as it passes the limit, and one that
 *   declares more than twice the limit at once: the rest is then read and dropped for a moment (at
 *   most a second, and at most `limit` more bytes) so that a client still sending can read the
 *   answer, and the connection is cut.
 */
export const readBody = (req: IncomingMessage, limit: number): Promise<BodyRead> =>
  new Promise((resolve) => {
    const length = req.headers['content-length']
    const declared = length === undefined ? undefined : Number(length)
    const chunks: Array<Buffer> = []
    let size = 0
    /** Past the limit: the body is dropped; `cut` when the answer went out before its end. */
    let over: { dropped: number; readonly cut: boolean } | undefined
    const answerNow = (): void => {
      over = { dropped: 0, cut: true }
      chunks.length = 0
      const timer = setTimeout(() => req.destroy(), LINGER_MS)
      timer.unref()
      req.once('close', () => {
        clearTimeout(timer)
      })
      resolve({ kind: 'tooLarge' })
    }
    if (declared !== undefined && Number.isFinite(declared) && declared > limit) {
      if (declared > 2 * limit) answerNow()
      else over = { dropped: 0, cut: false }
    }
    req.on('data', (chunk: Buffer) => {
      if (over !== undefined) {
        over.dropped += chunk.length
        if (over.cut && over.dropped > limit) req.destroy()
        return
      }
      size += chunk.length
      if (size > limit) answerNow()
      else chunks.push(chunk)
    })
    req.on('end', () => {
      resolve(over !== undefined ? { kind: 'tooLarge' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') })
    })
    req.on('error', () => {
      resolve({ kind: 'aborted' })
    })
    req.on('close', () => {
      resolve(over !== undefined ? { kind: 'tooLarge' } : { kind: 'aborted' })
    })
  })

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()

/**
 * The caller whose key is in `Authorization: Bearer <key>`, or undefined. Compared in constant
 * time: both sides hashed first, so the comparison neither stops at the first differing byte nor
 * reveals a key's length; every key is compared, so the time does not tell which one matched.
 */
export const callerOf = (header: string | undefined, keys: ReadonlyArray<{ readonly id: string; readonly key: string }>): string | undefined => {
  if (header === undefined || !header.startsWith('Bearer ')) return undefined
  const given = digest(header.slice('Bearer '.length).trim())
  let found: string | undefined
  for (const k of keys) if (timingSafeEqual(given, digest(k.key))) found ??= k.id
  return found
}

/** The path of a request target, without its query string. */
export const pathOf = (target: string): string => {
  const q = target.indexOf('?')
  return q < 0 ? target : target.slice(0, q)
}

/** JSON text to a value; `undefined` for an empty body; `Error` when it is not JSON. */
export const parseJson = (text: string): unknown => (text.trim() === '' ? undefined : JSON.parse(text))

export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
