/**
 * Fixtures of the socket tests: a webhook receiver (a second node:http server on loopback) and a
 * JSON client.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  /** The body as sent, for a signature check. */
  readonly raw: string
  readonly body: {
    eventID: string
    eventType: string
    createTime: string
    objectName: string
    payload: { payment: { paymentCreated: { paymentReferenceID: string; status: string } } & Record<string, unknown> }
  }
}

/**
 * A webhook receiver on 127.0.0.1, ephemeral port. Paths decide how it answers:
 * `/flaky…` 500 for the first two attempts of each eventID then 200, `/down…` always 503,
 * `/gone…` 410, `/endless…` 200 with a body that never ends, anything else 200.
 */
export class Receiver {
  readonly received: Array<Received> = []
  private readonly server: Server
  private readonly flakyHits = new Map<string, number>()
  /** Bytes the `/endless…` paths have written so far (the socket accepted them). */
  endlessBytes = 0
  base = ''

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const path = req.url ?? '/'
        const raw = Buffer.concat(chunks).toString('utf8')
        const body = JSON.parse(raw) as Received['body']
        this.received.push({ path, headers: req.headers, body, raw })
        let status = 200
        if (path.startsWith('/flaky')) {
          const key = `${path} ${body.eventID}`
          const hits = (this.flakyHits.get(key) ?? 0) + 1
          this.flakyHits.set(key, hits)
          status = hits <= 2 ? 500 : 200
        } else if (path.startsWith('/down')) status = 503
        else if (path.startsWith('/gone')) status = 410
        else if (path.startsWith('/endless')) {
          // 200, then a body that never ends: the sender must not wait for it (nor keep it)
          res.writeHead(200, { 'content-type': 'application/octet-stream' })
          const chunk = Buffer.alloc(64 * 1024, 120)
          const pump = (): void => {
            let more = true
            while (more && !res.destroyed) {
              this.endlessBytes += chunk.length
              more = res.write(chunk)
            }
          }
          res.on('drain', pump)
          pump()
          return
        }
        res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status))
      })
    })
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.base = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`
    return this.base
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve()
      })
      this.server.closeAllConnections()
    })
  }

  /** What a path received for one payment, in order of arrival. */
  for(path: string, paymentReferenceID: string): ReadonlyArray<Received> {
    return this.received.filter(
      (r) => r.path === path && r.body.payload.payment.paymentCreated.paymentReferenceID === paymentReferenceID
    )
  }
}

export interface Reply {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

/** Sends a request; `body` is JSON-encoded unless `raw` gives the bytes. */
export const call = async (
  base: string,
  method: string,
  path: string,
  body?: unknown,
  raw?: string
): Promise<Reply> => {
  const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body))
  const res = await fetch(base + path, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { body: payload })
  })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: res.headers }
}
