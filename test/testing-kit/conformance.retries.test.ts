/**
 * The conformance runner's retry mode (docs/testing.md, "Retries"; docs/rules.md C13): with
 * `retries`, every POST is sent with an `idempotency-key` and then again with the same key. A
 * service that keeps its keys (paysplit's `handle`) passes; one that ignores them is caught. In process, like
 * conformance.inProcess.test.ts: `send` runs `handle` on a world kept in a closure.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { kid } from '../../src/index.js'
import { completeForm, emptyWorld, failForm, handle, receiveTransfer, type HandleContext, type HttpRequest, type WebhookDelivery, type World } from '../../src/http.js'
import { runCli } from '../../src/cli/paysplitCheck.js'
import { checkService, type CheckServiceOptions, type ReceivedWebhook } from '../../src/conformance.js'

const CATCH_ALL = 'https://hooks.example/all'
const json = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown))
const kidOf = (n: number): string => {
  const made = kid.create(String(1_000_000_000 + n), 'mod10')
  return E.isRight(made) ? made.right : 'unreachable'
}

/** How the service treats the header: keeps it (as `handle` does), or drops it. */
type Keys = 'kept' | 'ignored'

/** paysplit's service model as a service under test, a fresh time, id and KID per request. */
const service = (keys: Keys): CheckServiceOptions & { readonly sent: HttpRequest[] } => {
  let world: World = emptyWorld
  let n = 0
  const received: ReceivedWebhook[] = []
  const sent: HttpRequest[] = []
  const tick = (): string => new Date(Date.UTC(2027, 0, 1, 8, 0, 0) + ++n * 1000).toISOString()
  const deliver = (ds: ReadonlyArray<WebhookDelivery>): void => {
    received.push(...ds.map((d) => ({ url: d.url, body: json(d.payload) })))
  }
  const event = <T,>(operate: (at: string) => { readonly world: World; readonly result: T; readonly deliveries: ReadonlyArray<WebhookDelivery> }): Promise<T> => {
    const { world: next, result, deliveries } = operate(tick())
    world = next
    deliver(deliveries)
    return Promise.resolve(result)
  }
  return {
    sent,
    send: (request) => {
      const at = tick()
      const id = `6f1c3c52-3f51-4b8e-9a8e-${n.toString(16).padStart(12, '0')}`
      const ext: unknown = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>)['externalPaymentReferenceID'] : undefined
      const stored = typeof ext === 'string' ? world.references.get(ext) : undefined
      const ctx: HandleContext = { at, paymentReferenceID: id, kid: stored?.kid ?? kidOf(n), catchAllUrl: CATCH_ALL }
      const httpRequest: HttpRequest = {
        method: request.method,
        path: request.path,
        body: json(request.body),
        ...(keys === 'kept' && request.headers !== undefined ? { headers: request.headers } : {})
      }
      sent.push({ ...httpRequest, ...(request.headers !== undefined ? { headers: request.headers } : {}) })
      const { world: next, response, deliveries } = handle(world, httpRequest, ctx)
      world = next
      deliver(deliveries)
      const res = { status: response.status, body: json(response.body) }
      return Promise.resolve(res)
    },
    receivedWebhooks: () => Promise.resolve([...received]),
    catchAllUrl: CATCH_ALL,
    completeForm: (id) => event((at) => completeForm(world, id, { at, catchAllUrl: CATCH_ALL })),
    failForm: (id, reason) => event((at) => failForm(world, id, { at, catchAllUrl: CATCH_ALL, ...(reason === undefined ? {} : { reason }) })),
    receiveTransfer: (id, amount, k) => event((at) => receiveTransfer(world, id, { amount, kid: k }, { at, catchAllUrl: CATCH_ALL }))
  }
}

describe('checkService with retries', () => {
  it('passes a service that keeps its Idempotency-Keys (paysplit’s handle), resending every POST', async () => {
    const sut = service('kept')
    const report = await checkService({ ...sut, retries: 2, numRuns: 30, seed: 5, runId: 'retries' })
    expect(report.ok ? '' : report.counterexample).toBe('')
    const posts = sut.sent.filter((r) => r.method === 'POST')
    expect(posts.length).toBeGreaterThan(30)
    // every POST carries a key, each key is sent three times in a row, and no two requests share one
    const keys = posts.map((r) => r.headers?.['idempotency-key'])
    expect(keys.every((k) => typeof k === 'string' && k.startsWith(report.prefix))).toBe(true)
    const counts = new Map<unknown, number>()
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1)
    expect([...counts.values()].every((c) => c === 3 || c === 1)).toBe(true) // 1: a first answer of 5xx is not resent
    expect(sut.sent.filter((r) => r.method === 'GET').every((r) => r.headers === undefined)).toBe(true)
  })

  it('catches a service that ignores the key: the resend gets another answer', async () => {
    const report = await checkService({ ...service('ignored'), retries: 1, numRuns: 30, seed: 5, runId: 'ignored' })
    expect(report.ok).toBe(false)
    if (!report.ok) expect(report.counterexample).toMatch(/a retry with the same Idempotency-Key got another answer/)
  })

  it('without retries, no key is sent and a service that ignores keys conforms', async () => {
    const sut = service('ignored')
    const report = await checkService({ ...sut, numRuns: 10, seed: 5 })
    expect(report.ok).toBe(true)
    expect(sut.sent.every((r) => r.headers === undefined)).toBe(true)
  })
})

/** A node:http server on loopback around `handle`, passing the idempotency-key when `keys`. */
const serve = async (keys: boolean): Promise<{ server: Server; base: string }> => {
  let world: World = emptyWorld
  let n = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      n += 1
      const text = Buffer.concat(chunks).toString('utf8')
      const key = req.headers['idempotency-key']
      const request: HttpRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        ...(text === '' ? {} : { body: JSON.parse(text) as unknown }),
        ...(keys && typeof key === 'string' ? { headers: { 'idempotency-key': key } } : {})
      }
      const at = new Date(Date.UTC(2027, 0, 1, 8, 0, 0) + n * 1000).toISOString()
      const { world: next, response } = handle(world, request, { at, paymentReferenceID: `6f1c3c52-3f51-4b8e-9a8e-${n.toString(16).padStart(12, '0')}`, kid: kidOf(n) })
      world = next
      res.writeHead(response.status, { 'content-type': 'application/json', ...response.headers }).end(JSON.stringify(response.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, base: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}` }
}

describe('paysplit-check --retries', () => {
  const run = async (keys: boolean, args: ReadonlyArray<string>): Promise<{ code: number; out: string }> => {
    const { server, base } = await serve(keys)
    let out = ''
    try {
      const code = await runCli([base, '--runs', '10', '--seed', '3', '--kinds', 'card', '--run-id', 'cli', ...args], {
        out: (s: string) => {
          out += s
        },
        err: () => undefined,
        now: () => 0,
        isTTY: false
      })
      return { code, out }
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }

  it('passes a server that keeps keys, fails one that drops them, and names --retries in the replay line', async () => {
    expect((await run(true, ['--retries', '1'])).code).toBe(0)
    const failed = await run(false, ['--retries', '1'])
    expect(failed.code).toBe(1)
    expect(failed.out).toMatch(/Idempotency-Key/)
    expect(failed.out).toMatch(/--retries 1/)
  })

  it('refuses a --retries that is not a whole number ≥ 0', async () => {
    expect((await run(true, ['--retries', 'two'])).code).toBe(2)
  })
})
