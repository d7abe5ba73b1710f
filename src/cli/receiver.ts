/**
 * A webhook receiver for the conformance runner (the adapter side of `paysplit-check --webhooks`,
 * exported by `paysplit/conformance`): a node:http server on 127.0.0.1 that answers every POST
 * with 200, keeps each webhook with its headers, and checks its Standard Webhooks signature with
 * the `standardwebhooks` package when given the secret. It is the runner's `WebhookReceiver`:
 * `collect` waits for what the runner expects, or for the grace period.
 *
 * @module cli/receiver
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ReceivedWebhook, WebhookReceiver } from '../conformance/types.js'
import { webhookClass } from './standardWebhooks.js'

/** Where {@link startWebhookReceiver} listens, how long it waits, and the secret it checks signatures with. */
export interface WebhookReceiverOptions {
  /** Port to listen on. Default: an ephemeral one. */
  readonly port?: number
  /** Host to listen on. Default 127.0.0.1. */
  readonly host?: string
  /** The url the service reaches the receiver at, when not `http://<host>:<port>` (a tunnel, a container). */
  readonly publicUrl?: string
  /** How long `collect` waits for missing webhooks, in ms. Default 3000. */
  readonly graceMs?: number
  /** A Standard Webhooks secret (`whsec_…`): each webhook's signature is checked with it. */
  readonly secret?: string
}

/** A receiver that listens: the runner's `WebhookReceiver`, what it received, and how to stop it. */
export interface RunningWebhookReceiver extends WebhookReceiver {
  /** Every webhook received, in order of arrival. */
  readonly received: ReadonlyArray<ReceivedWebhook>
  /** Where it listens, `http://<host>:<port>` (its `url` is `publicUrl` when one was given). */
  readonly listening: string
  readonly close: () => Promise<void>
}

type Verify = (payload: string, headers: Record<string, string>) => boolean

/** The signature checker of the `standardwebhooks` package, loaded only when a secret is given. */
const verifierOf = async (secret: string): Promise<Verify> => {
  const webhook = new (await webhookClass())(secret)
  return (payload, headers) => {
    try {
      webhook.verify(payload, headers)
      return true
    } catch {
      return false
    }
  }
}

const headersOf = (raw: Record<string, string | ReadonlyArray<string> | undefined>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = typeof v === 'string' ? v : v.join(', ')
  return out
}

/**
 * Starts a webhook receiver (on 127.0.0.1 and a free port unless told otherwise) and resolves once
 * it listens. Give it to `checkService` as `webhookReceiver`: the runner subscribes every payment
 * it creates to `<url>/<run prefix>…` and, at the end of each run, `collect` waits until what the
 * model sent has arrived, or for `graceMs`. With `secret`, each webhook's Standard Webhooks
 * signature is checked (the `standardwebhooks` package must be installed beside paysplit).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { startWebhookReceiver } from 'paysplit/conformance'
 * const receiver = await startWebhookReceiver({ graceMs: 50 })
 * await fetch(`${receiver.url}/k1-r1-all`, { method: 'POST', body: JSON.stringify({ eventID: 'x:1' }) })
 * const got = await receiver.collect((received) => received.length === 1)
 * assert.deepStrictEqual(got.map((w) => [w.url, w.body]), [[`${receiver.url}/k1-r1-all`, { eventID: 'x:1' }]])
 * await receiver.close()
 */
export const startWebhookReceiver = async (options: WebhookReceiverOptions = {}): Promise<RunningWebhookReceiver> => {
  const verify = options.secret === undefined ? undefined : await verifierOf(options.secret)
  const graceMs = options.graceMs ?? 3000
  const received: ReceivedWebhook[] = []
  const waiters = new Set<() => void>()
  let base = ''
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // kept as text: the runner reports a payload that is not JSON as different
      }
      const headers = headersOf(req.headers)
      received.push({ url: base + (req.url ?? '/'), body, headers, signature: verify === undefined ? 'unchecked' : verify(text, headers) ? 'valid' : 'invalid' })
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      for (const wake of [...waiters]) wake()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const listening = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${String(address.port)}`
  base = (options.publicUrl ?? listening).replace(/\/+$/, '')
  return {
    url: base,
    listening,
    graceMs,
    received,
    collect: (until) =>
      new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer)
          waiters.delete(check)
          resolve([...received])
        }
        const check = (): void => {
          if (until(received)) done()
        }
        const timer = setTimeout(done, graceMs)
        waiters.add(check)
        check()
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve()
        })
        server.closeAllConnections()
      })
  }
}
