/**
 * Fixtures of the tests that run the kit against the mock (`paysplit-check mock`,
 * src/cli/mock/): a proxy in front of it that plants a bug on the way (a header dropped, an
 * answer changed, two requests at once both answered as if each were alone), a relay that
 * delivers webhooks late, and the command run in process with what it prints collected.
 * Everything listens on 127.0.0.1, on ports the system picks.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runCli, type CliIO } from '../../src/cli/paysplitCheck.js'

/** A request as the proxy forwards it: its method, path (with the query) and headers (lower case). */
export interface ProxiedRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** An answer as the proxy returns it. */
export interface ProxiedResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** A bug planted in front of the mock: a change to each request on its way in, and to each answer on its way out. */
export interface Plant {
  readonly request?: (request: ProxiedRequest) => ProxiedRequest
  /** `ask` sends a request of its own to the mock (a read, to decide on the answer). */
  readonly respond?: (request: ProxiedRequest, response: ProxiedResponse, ask: (path: string) => Promise<unknown>) => Promise<ProxiedResponse> | ProxiedResponse
  /**
   * A service that does not put the requests to one payment in a row (no version check, no row
   * lock): each request `when` holds waits `holdMs` before it goes on, and an identical request
   * (method, path, body) that comes meanwhile, or while the first is in flight, gets the first
   * one's answer, so two at once both succeed as if each were alone. Requests sent one after the
   * other never meet.
   */
  readonly join?: { readonly when: (request: ProxiedRequest) => boolean; readonly holdMs: number }
}

const read = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    req.on('error', reject)
  })

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
}

const closer = (server: Server) => (): Promise<void> =>
  new Promise<void>((resolve) => {
    server.close(() => {
      resolve()
    })
    server.closeAllConnections()
  })

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A proxy to `target` with `plant` planted; resolves with its url. */
export const plantedProxy = async (target: string, plant: Plant): Promise<{ readonly base: string; readonly close: () => Promise<void> }> => {
  const ask = async (path: string): Promise<unknown> => (await fetch(target + path)).json() as Promise<unknown>
  const forward = async (request: ProxiedRequest): Promise<ProxiedResponse> => {
    const answer = await fetch(target + request.path, {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      ...(request.method === 'GET' ? {} : { body: request.body })
    })
    const answerHeaders: Record<string, string> = {}
    answer.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') answerHeaders[k] = v
    })
    return { status: answer.status, headers: answerHeaders, body: await answer.text() }
  }
  /** The requests held or in flight that a `join` plant lets others share, by method, path and body. */
  const joined = new Map<string, Promise<ProxiedResponse>>()
  const joining = (request: ProxiedRequest): Promise<ProxiedResponse> => {
    const join = plant.join
    if (join === undefined || !join.when(request)) return forward(request)
    const key = JSON.stringify([request.method, request.path, request.body])
    const first = joined.get(key)
    if (first !== undefined) return first
    const answer = sleep(join.holdMs).then(() => forward(request))
    joined.set(key, answer)
    void answer.finally(() => joined.delete(key)).catch(() => undefined)
    return answer
  }
  const server = createServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v
      const incoming: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body: await read(req) }
      const request = plant.request?.(incoming) ?? incoming
      const got = await joining(request)
      const out = (await plant.respond?.(request, got, ask)) ?? got
      res.writeHead(out.status, out.headers).end(out.body)
    })().catch(() => {
      res.destroy()
    })
  })
  return { base: await listen(server), close: closer(server) }
}

/**
 * A webhook relay that delivers late: each POST it gets is answered 200 at once and sent on to
 * `target()` + its path after `delayMs` (a busy outbox); what cannot be sent on is dropped.
 */
export const lateRelay = async (delayMs: number, target: () => string | undefined): Promise<{ readonly base: string; readonly close: () => Promise<void> }> => {
  const timers = new Set<NodeJS.Timeout>()
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      res.writeHead(200).end('ok')
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k.startsWith('webhook-')) headers[k] = v
      const timer = setTimeout(() => {
        timers.delete(timer)
        const to = target()
        if (to !== undefined) void fetch(to + (req.url ?? '/'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }).then((r) => r.body?.cancel(), () => undefined)
      }, delayMs)
      timers.add(timer)
    })
  })
  const base = await listen(server)
  const close = closer(server)
  return {
    base,
    close: async () => {
      for (const t of timers) clearTimeout(t)
      await close()
    }
  }
}

/** What a run of the command printed. */
export interface Ran {
  readonly code: number
  readonly out: string
  readonly err: string
}

let clock = Date.UTC(2026, 10, 27, 9, 0, 0)

/**
 * Runs the command in process (real sockets), collecting what it prints. Its clock moves a
 * millisecond a reading (each call its own run id, and a shrink budget that counts readings), or
 * is the wall clock with `wallClock` (a shrink budget in real time); `onErr` sees each line of
 * stderr as it is written.
 */
export const cli = async (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string>; readonly wallClock?: boolean; readonly onErr?: (text: string) => void } = {}): Promise<Ran> => {
  let out = ''
  let err = ''
  const io: CliIO = {
    out: (t) => (out += t),
    err: (t) => {
      err += t
      options.onErr?.(t)
    },
    isTTY: false,
    now: options.wallClock === true ? Date.now : () => (clock += 1),
    env: options.env ?? {}
  }
  const code = await runCli(args, io)
  return { code, out, err }
}

/** The replay line a failing run printed (the line after "Replay exactly this sequence …:"). */
export const replayLineOf = (out: string): string => /Replay exactly this sequence \(against this service or a fresh one\):\n {2}(.*)\n/.exec(out)?.[1] ?? ''
