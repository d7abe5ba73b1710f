/**
 * One delivery attempt: POST a signed message and read the receiver's answer, bounded in time
 * and in memory. node:http rather than fetch, so that the socket is ours to cut: after
 * `maxResponseBytes` of the answer (a receiver may stream forever) and at the time limit (a
 * receiver may never answer), and so that it connects only where the guard allows (guard.ts).
 *
 * The order, so that nothing is dialled before it is judged: the URL (scheme, a literal address)
 * is checked first; a name is then resolved and every address it gives is checked; only then is
 * the request made, with a `lookup` that answers exactly the checked addresses (no second
 * resolution between the check and the connection, so a name cannot change its answer in
 * between). Redirects are not followed (node:http never does): a 3xx is an answer that is not 2xx.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { literalAddress, resolvedRefusal, urlRefusal, type Guard } from './guard.js'

/**
 * How an attempt ended: the receiver's status, why there was none, or why the guard refused to
 * connect at all (`refused`: the message is dead at once, nothing was sent).
 */
export type AttemptResult =
  | { readonly status: number; readonly retryAfterMs?: number }
  | { readonly error: string }
  | { readonly refused: string }

/**
 * A `Retry-After` header's delay (RFC 9110: delay-seconds or an HTTP-date) from `nowMs`, in ms;
 * undefined when absent or not one of those forms. A date in the past is 0.
 */
export const retryAfterMs = (header: string | undefined, nowMs: number): number | undefined => {
  const value = header?.trim()
  if (value === undefined || value === '') return undefined
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000
  const at = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value) ? Date.parse(value) : Number.NaN
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

/** A name's addresses, as `dns.lookup(name, { all: true })` gives them. */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>

/** The system resolver (what node:http would use). */
export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

export interface SendOptions {
  readonly timeoutMs: number
  readonly maxResponseBytes: number
  /** Where the relay may connect. */
  readonly guard: Guard
  /** The resolver of names; the system's by default (tests give a stub). */
  readonly resolve?: Resolve
}

/**
 * A `lookup` for node:net that answers the checked addresses and nothing else, in the shape the
 * caller asked for (one address, or all of them for happy eyeballs).
 */
const pinned = (addresses: ReadonlyArray<{ readonly address: string; readonly family: number }>): LookupFunction =>
  ((_hostname: string, options: { readonly all?: boolean }, callback: (...args: Array<unknown>) => void) => {
    const first = addresses[0]
    if (options.all === true) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })))
    else if (first !== undefined) callback(null, first.address, first.family)
    else callback(new Error('no address'))
  }) as LookupFunction

/** The checked addresses to connect to, or why not. Never connects. */
export const resolveTarget = async (
  target: URL,
  guard: Guard,
  resolve: Resolve
): Promise<{ readonly refused: string } | { readonly error: string } | { readonly addresses: ReadonlyArray<{ readonly address: string; readonly family: number }> }> => {
  const early = urlRefusal(target, guard)
  if (early !== undefined) return { refused: early }
  const literal = literalAddress(target)
  if (literal !== undefined) return { addresses: [{ address: literal, family: literal.includes(':') ? 6 : 4 }] }
  let addresses: ReadonlyArray<{ readonly address: string; readonly family: number }>
  try {
    addresses = await resolve(target.hostname)
  } catch (e) {
    // not found, or the resolver failed: retried like a refused connection (DNS may recover)
    return { error: `cannot resolve ${target.hostname}: ${e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.message) : String(e)}` }
  }
  const refused = resolvedRefusal(target, addresses.map((a) => a.address), guard)
  return refused !== undefined ? { refused } : { addresses }
}

/** POSTs `body` to `url` if the guard allows its address; never rejects. */
export const post = async (
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: SendOptions
): Promise<AttemptResult> => {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return { refused: 'not a url' }
  }
  const started = Date.now()
  // the resolution counts against the attempt's time limit too (a resolver may hang)
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<{ readonly error: string }>((resolve) => {
    timer = setTimeout(() => {
      resolve({ error: `timed out after ${String(options.timeoutMs)} ms` })
    }, options.timeoutMs)
  })
  const checked = await Promise.race([resolveTarget(target, options.guard, options.resolve ?? systemResolve), late])
  clearTimeout(timer)
  if (!('addresses' in checked)) return checked
  return connect(target, checked.addresses, headers, body, options, Math.max(1, options.timeoutMs - (Date.now() - started)))
}

const connect = (
  target: URL,
  addresses: ReadonlyArray<{ readonly address: string; readonly family: number }>,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: SendOptions,
  remainingMs: number
): Promise<AttemptResult> =>
  new Promise((resolve) => {
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
      agent: false,
      // Only the addresses the guard checked (a literal address skips lookup: it was checked above).
      lookup: pinned(addresses)
    })
    const timer = setTimeout(() => {
      req.destroy()
      finish({ error: `timed out after ${String(options.timeoutMs)} ms` })
    }, remainingMs)
    req.on('error', (e) => {
      finish({ error: e.message })
    })
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0
      const wait = retryAfterMs(res.headers['retry-after'], Date.now())
      const answered: AttemptResult = wait === undefined ? { status } : { status, retryAfterMs: wait }
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        // The answer is not ours to keep: past the limit, drop the connection.
        if (read > options.maxResponseBytes) {
          res.destroy()
          finish(answered)
        }
      })
      res.on('end', () => {
        finish(answered)
      })
      res.on('error', () => {
        finish(answered)
      })
      res.on('close', () => {
        finish(answered)
      })
    })
    req.end(payload)
  })
