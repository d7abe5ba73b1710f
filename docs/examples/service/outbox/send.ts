/**
 * One delivery attempt: POST a signed message and read the receiver's answer, bounded in time
 * and in memory. node:http rather than fetch, so that the socket is ours to cut: after
 * `maxResponseBytes` of the answer (a receiver may stream forever) and at the time limit (a
 * receiver may never answer).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

/** How an attempt ended: the receiver's status, or why there was none. */
export type AttemptResult = { readonly status: number } | { readonly error: string }

export interface SendOptions {
  readonly timeoutMs: number
  readonly maxResponseBytes: number
}

/** POSTs `body` to `url`; never rejects. */
export const post = (
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: SendOptions
): Promise<AttemptResult> =>
  new Promise((resolve) => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      resolve({ error: 'invalid url' })
      return
    }
    let settled = false
    const finish = (result: AttemptResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(result)
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const payload = Buffer.from(body, 'utf8')
    const req = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(payload.length), 'user-agent': 'paysplit-reference-service' },
      // A fresh connection per attempt: nothing of a misbehaving receiver outlives its attempt.
      agent: false
    })
    const timer = setTimeout(() => {
      req.destroy()
      finish({ error: `timed out after ${String(options.timeoutMs)} ms` })
    }, options.timeoutMs)
    req.on('error', (e) => {
      finish({ error: e.message })
    })
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        // The answer is not ours to keep: past the limit, drop the connection.
        if (read > options.maxResponseBytes) {
          res.destroy()
          finish({ status })
        }
      })
      res.on('end', () => {
        finish({ status })
      })
      res.on('error', () => {
        finish({ status })
      })
      res.on('close', () => {
        finish({ status })
      })
    })
    req.end(payload)
  })
