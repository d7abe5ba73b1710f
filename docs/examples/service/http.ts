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

/**
 * Reads the body up to `limit` bytes. Past the limit the rest is read and dropped (so the client
 * sees the 413), up to 16× the limit, beyond which the connection is cut.
 */
export const readBody = (req: IncomingMessage, limit: number): Promise<BodyRead> =>
  new Promise((resolve) => {
    const declared = Number(req.headers['content-length'] ?? '0')
    const chunks: Array<Buffer> = []
    let size = 0
    let tooLarge = Number.isFinite(declared) && declared > limit
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) tooLarge = true
      if (size > limit * 16) {
        req.destroy()
        return
      }
      if (!tooLarge) chunks.push(chunk)
    })
    req.on('end', () => {
      resolve(tooLarge ? { kind: 'tooLarge' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') })
    })
    req.on('error', () => {
      resolve({ kind: 'aborted' })
    })
    req.on('close', () => {
      resolve(tooLarge ? { kind: 'tooLarge' } : { kind: 'aborted' })
    })
  })

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()

/**
 * Checks `Authorization: Bearer <key>` against `keys` in constant time: both sides hashed first, so
 * the comparison neither stops at the first differing byte nor reveals a key's length; every key
 * is compared, so the time does not tell which one matched either.
 */
export const authorised = (header: string | undefined, keys: ReadonlyArray<string>): boolean => {
  if (header === undefined || !header.startsWith('Bearer ')) return false
  const given = digest(header.slice('Bearer '.length).trim())
  let ok = false
  for (const key of keys) ok = timingSafeEqual(given, digest(key)) || ok
  return ok
}

/** The path of a request target, without its query string. */
export const pathOf = (target: string): string => {
  const q = target.indexOf('?')
  return q < 0 ? target : target.slice(0, q)
}

/** JSON text to a value; `undefined` for an empty body; `Error` when it is not JSON. */
export const parseJson = (text: string): unknown => (text.trim() === '' ? undefined : JSON.parse(text))

export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
