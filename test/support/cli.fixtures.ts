/**
 * Fixtures of the command-line tests: a small service (`handle` of paysplit/http behind node:http
 * on 127.0.0.1, with a form and a bank route of its own, optionally one planted bug) and a
 * POSIX-like splitter of printed command lines.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { completeForm, emptyWorld, handle, receiveTransferByKid, type World } from '../../src/http.js'
import { kid as kids } from '../../src/index.js'

export type Response = { status: number; body?: unknown; headers?: Record<string, string> }

export interface Tiny {
  readonly base: string
  readonly close: () => Promise<void>
}

const read = (req: NodeJS.ReadableStream): Promise<string> =>
  new Promise((resolve) => {
    let text = ''
    req.on('data', (c: Buffer) => (text += c.toString('utf8')))
    req.on('end', () => { resolve(text); })
  })

/**
 * `handle` on 127.0.0.1 (gone after `dieAfter` requests; behind `apiKey` when given) with a form (`POST /test/form/{id}/complete`), a bank
 * (`POST /test/bank` `{ kid, amount }`) and a form that wants a token (`POST /locked/{id}/complete`
 * answers 403). `plant` may change an answer of the API.
 */
export const tiny = async (plant?: (method: string, path: string, response: Response) => Response, dieAfter = Infinity, apiKey?: string): Promise<Tiny> => {
  let world: World = emptyWorld
  let n = 0
  const server: Server = createServer((req, res) => {
    void read(req).then((text) => {
      n += 1
      // gone, as a crashed service is: the connection cut without an answer, and no new ones
      if (n > dieAfter) {
        server.close()
        req.socket.destroy()
        return
      }
      const at = new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + n * 1000).toISOString()
      const method = req.method ?? 'GET'
      const path = req.url ?? '/'
      const send = (r: Response): void => {
        res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) }).end(r.body === undefined ? '' : JSON.stringify(r.body))
      }
      const form = /^\/test\/form\/([^/]+)\/complete$/.exec(path)
      if (method === 'POST' && form !== null) {
        ;({ world } = completeForm(world, decodeURIComponent(form[1] ?? ''), { at }))
        send({ status: 204 })
        return
      }
      if (method === 'POST' && /^\/locked\//.test(path)) {
        send({ status: 403, body: { error: 'a form token is needed' } })
        return
      }
      // with an API key, the API answers 401 to a request without `Authorization: Bearer <key>`
      if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) {
        send({ status: 401, body: { success: false, error: { code: 'Unauthorized', message: 'A valid API key is needed.' } } })
        return
      }
      const body: unknown = text === '' ? undefined : JSON.parse(text)
      if (method === 'POST' && path === '/test/bank') {
        ;({ world } = receiveTransferByKid(world, body as { kid: string; amount: number }, { at }))
        send({ status: 200, body: {} })
        return
      }
      const made = kids.create(String(1000 + n), 'mod10')
      const id = `6f1c3c52-3f51-4b8e-9a8e-${String(n).padStart(12, '0')}`
      const { world: next, response } = handle(world, { method, path, ...(body === undefined ? {} : { body }) }, { at, paymentReferenceID: id, kid: made._tag === 'Right' ? made.right : '' })
      world = next
      const r: Response = { status: response.status, body: response.body, ...(response.headers !== undefined ? { headers: response.headers } : {}) }
      send(plant === undefined ? r : plant(method, path, r))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${String(port)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => { resolve(); })
        server.closeAllConnections()
      })
  }
}

export /** A command line split as a POSIX shell splits it (single and double quotes, `$NAME` from `env`). */
const shellWords = (line: string, env: Record<string, string> = {}): string[] => {
  const words: string[] = []
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g
  let current = ''
  let last = -1
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    const piece = (m[1] ?? m[2] ?? m[3] ?? '').replace(/\$([A-Z_]+)/g, (_, name: string) => (m[1] === undefined ? (env[name] ?? '') : `$${name}`))
    if (m.index === last) current += piece
    else {
      if (last >= 0) words.push(current)
      current = piece
    }
    last = m.index + m[0].length
  }
  if (last >= 0) words.push(current)
  return words
}

