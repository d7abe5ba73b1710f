/**
 * A webhook receiver for the conformance runner (the adapter side of `paysplit-check --webhooks`):
 * a node:http server on 127.0.0.1 that answers every POST with 200, keeps each webhook with its
 * headers, and checks its Standard Webhooks signature with the `standardwebhooks` package when
 * given the secret. It implements `WebhookReceiver` of paysplit/testing: `collect` waits for what
 * the runner expects, or for the grace period.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ReceivedWebhook, WebhookReceiver } from '../testing.js'

export interface ReceiverOptions {
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

export interface RunningReceiver extends WebhookReceiver {
  /** Every webhook received, in order of arrival. */
  readonly received: ReadonlyArray<ReceivedWebhook>
  readonly close: () => Promise<void>
}

type Verify = (payload: string, headers: Record<string, string>) => boolean

/**
 * The signature checker of the `standardwebhooks` package, loaded only when a secret is given (it
 * is not a dependency of paysplit: install it beside it to check signatures).
 */
const verifierOf = async (secret: string): Promise<Verify> => {
  type WebhookClass = new (secret: string) => { verify: (payload: string, headers: Record<string, string>) => unknown }
  let mod: { Webhook?: WebhookClass; default?: { Webhook?: WebhookClass } }
  try {
    mod = await import('standardwebhooks')
  } catch {
    throw new Error('Checking webhook signatures needs the standardwebhooks package: npm install --save-dev standardwebhooks')
  }
  // a CommonJS package: its exports are the module's own under tsx, under `default` in Node's ESM
  const Webhook = mod.Webhook ?? mod.default?.Webhook
  if (Webhook === undefined) throw new Error('The standardwebhooks package has no Webhook class: install version 1.')
  const webhook = new Webhook(secret)
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

/** Starts a receiver and resolves once it listens. */
export const startReceiver = async (options: ReceiverOptions = {}): Promise<RunningReceiver> => {
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
  base = (options.publicUrl ?? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${String(address.port)}`).replace(/\/+$/, '')
  return {
    url: base,
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
