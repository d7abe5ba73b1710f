/**
 * The state of one conformance run on both sides — the reference model's world and what is known
 * of the service — and the exchange of one request with both, compared.
 *
 * @module conformance/model
 */
import type { handle } from '../http/handle.js'
import type { Payment } from '../payment.js'
import type { WebhookDelivery } from '../service/webhooks.js'
import type { World } from '../service/world.js'
import { deepEqual } from '../testing/harness.js'
import { brief, differences, field, jsonCopy, normalise, replaceAll } from './normalise.js'
import type { CheckServiceOptions, HookName, ReceivedWebhook, ReportedStep, ServiceRequest, ServiceResponse } from './types.js'

/** A payment created in this run: its label in reports, its id in the model and in the service. */
export interface Known {
  readonly label: string
  readonly modelId: string
  readonly realId: string
}

export interface Model {
  world: World
  readonly known: Known[]
  readonly creates: unknown[]
  readonly log: string[]
  readonly steps: ReportedStep[]
  /** This run's prefix of references, customer ids and webhook urls. */
  readonly prefix: string
  /** Where this run's subscriptions point (`<receiver>/<prefix>`), with a receiver. */
  readonly hookBase: string | undefined
  /** The model's deliveries so far, with a receiver (checked at the end of the run). */
  readonly expected: WebhookDelivery[]
  tick: number
  /** The OCR giro files this run wrote, and the last one sent (sent again to check duplicates). */
  ocrFiles: number
  lastOcr?: string
}

/** What a call exercised so far, shared by its runs (the report's `coverage`). */
export interface Tally {
  readonly requests: Record<string, number>
  readonly events: Record<string, number>
  /** State × command: `<kind> <status>` (or `no such payment`) → command → counts. */
  readonly states: Record<string, Record<string, { accepted: number; refused: number }>>
  webhooksChecked: number
  webhooksMissing: number
  charged: boolean
  refunded: boolean
  invoicePaid: boolean
  /** Each hook called: how often, and how often it skipped, with each reason it gave and how often. */
  readonly hooks: Map<HookName, { sent: number; skipped: number; reasons: Map<string, number> }>
}

export const emptyTally = (): Tally => ({
  requests: {},
  events: {},
  states: {},
  webhooksChecked: 0,
  webhooksMissing: 0,
  charged: false,
  refunded: false,
  invoicePaid: false,
  hooks: new Map()
})

/** The row of the coverage's state × command table for a payment of the model (or none). */
export const stateRow = (p: Payment | undefined): string => (p === undefined ? 'no such payment' : `${p.kind} ${p.status}`)

/** Counts a command sent to a payment in the state `row`, accepted or refused by the model. */
export const countState = (r: Real, row: string, command: string, accepted: boolean): void => {
  const cells = (r.tally.states[row] ??= {})
  const cell = (cells[command] ??= { accepted: 0, refused: 0 })
  if (accepted) cell.accepted += 1
  else cell.refused += 1
}

export interface Real {
  readonly sut: CheckServiceOptions
  /** Whether the service has the read routes (probed once per call). */
  readonly reads: boolean
  seen: number
  readonly tally: Tally
  /** The retry mode's keys given so far in this run (each `POST` gets `<run prefix>retry-<n>`). */
  keys: number
}

/** A request's route for the coverage: ids as `{id}`, query values left out. */
export const routeOf = (path: string): string => {
  const [p = '', q] = path.split('?')
  const segments = p.split('/')
  if ((segments[1] === 'payments' || segments[1] === 'customers') && segments.length > 2) segments[2] = '{id}'
  const query = q === undefined ? '' : `?${q.split('&').map((kv) => `${kv.split('=')[0] ?? ''}=…`).join('&')}`
  return segments.join('/') + query
}

const count = (table: Record<string, number>, key: string): void => {
  table[key] = (table[key] ?? 0) + 1
}

/** Counts an outside event and its outcome in the model. */
export const countEvent = (r: Real, key: string): void => {
  count(r.tally.events, key)
}

export const UNKNOWN_ID = 'ffffffff-ffff-4fff-bfff-ffffffffffff'
export const FALLBACK_KID = '12345674'

export const modelIdOf = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
export const clockOf = (tick: number): string => new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + tick * 1000).toISOString()

export const realIds = (m: Model): ReadonlyArray<readonly [string, string]> => m.known.map((k) => [k.realId, k.label] as const)
export const modelIds = (m: Model): ReadonlyArray<readonly [string, string]> => m.known.map((k) => [k.modelId, k.label] as const)

/** The ids for the request log: the service's by label, and this run's prefix dropped (the log reads `order-0`). */
export const logIds = (m: Model): ReadonlyArray<readonly [string, string]> => [...realIds(m), [m.prefix, '']]

/** A normalised value as a message shows it: this run's prefix dropped, as in the log. */
export const shown = (m: Model, v: unknown): unknown => normalise(v, [[m.prefix, '']], true)

/** Thrown inside a run when the service and the model differ; caught by the runner. */
export class Mismatch extends Error {}

/** A webhook's `eventType` or `eventID` for the log: as sent, or `(no eventType)` when the body lacks it. */
export const named = (body: unknown, key: string): string => {
  const v = field(body, key)
  return typeof v === 'string' ? v : v === undefined ? `(no ${key})` : brief(v, 60)
}

export const hooksOf = (r: Real): { catchAllUrl?: string } => (r.sut.catchAllUrl === undefined ? {} : { catchAllUrl: r.sut.catchAllUrl })

/** Records the model's deliveries for the end-of-run check, when a receiver is given. */
export const expect = (m: Model, deliveries: ReadonlyArray<WebhookDelivery>): void => {
  if (m.hookBase !== undefined) m.expected.push(...deliveries)
}

/**
 * Compares the webhooks the service sent since the last step with the model's deliveries, when
 * the service reports them step by step; in the order sent per url, or as a multiset (`anyOrder`)
 * after requests sent at once.
 */
export const compareWebhooks = async (m: Model, r: Real, expected: ReadonlyArray<WebhookDelivery>, anyOrder = false): Promise<void> => {
  expect(m, expected)
  const read = r.sut.receivedWebhooks
  if (read === undefined) return
  const all = await read()
  const fresh = all.slice(r.seen)
  r.seen = all.length
  r.tally.webhooksChecked += fresh.length
  const byUrl = (ws: ReadonlyArray<ReceivedWebhook>, ids: ReadonlyArray<readonly [string, string]>): Record<string, unknown[]> => {
    const out: Record<string, unknown[]> = {}
    for (const w of ws) (out[w.url] ??= []).push(normalise(w.body, ids, r.sut.compareMessages))
    if (anyOrder) for (const list of Object.values(out)) list.sort((a, b) => brief(a, 1e6).localeCompare(brief(b, 1e6)))
    return out
  }
  const want = byUrl(
    expected.map((d) => ({ url: d.url, body: jsonCopy(d.payload) })),
    modelIds(m)
  )
  const got = byUrl(fresh, realIds(m))
  if (deepEqual(want, got)) return
  const line = (ws: Record<string, unknown[]>): string =>
    Object.entries(ws)
      .flatMap(([url, bodies]) => bodies.map((b) => `    ${named(b, 'eventType')} ${named(b, 'eventID')} → ${url}`))
      .join('\n') || '    (none)'
  let detail = ''
  for (const url of new Set([...Object.keys(want), ...Object.keys(got)])) {
    const a = want[url] ?? []
    const b = got[url] ?? []
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (!deepEqual(a[i], b[i])) {
        detail = `  delivery ${String(i + 1)} to ${url} differs at:\n${differences(a[i], b[i]).map((d) => `    ${d}`).join('\n')}`
        break
      }
    }
    if (detail !== '') break
  }
  throw new Mismatch(`webhooks differ\n  expected (model):\n${line(want)}\n  received (service):\n${line(got)}\n${detail}`)
}

/** A request as the log shows it: ids by label, the body in brief. */
export const logRequest = (m: Model, real: ServiceRequest, prefix = ''): void => {
  m.log.push(`${prefix}${real.method} ${normalise(real.path, logIds(m)) as string}${real.body === undefined ? '' : ' ' + brief(normalise(real.body, logIds(m), true))}`)
}

/** Sends a request to the service, records it, and resolves with the answer. */
export const sendLogged = async (m: Model, r: Real, request: ServiceRequest, concurrent = false): Promise<ServiceResponse> => {
  const index = m.steps.length
  // the retry mode's key, given here so that the step shows it (src/conformance/retries.ts resends with it)
  const keyed = (r.sut.retries ?? 0) > 0 && request.method === 'POST'
  const real: ServiceRequest = keyed ? { ...request, headers: { ...request.headers, 'idempotency-key': `${m.prefix}retry-${String((r.keys += 1))}` } } : request
  m.steps.push({
    kind: 'request',
    method: real.method,
    path: real.path,
    ...(real.body === undefined ? {} : { body: real.body }),
    ...(real.headers === undefined ? {} : { headers: real.headers }),
    ...(concurrent ? { concurrent } : {})
  })
  const response = await r.sut.send(real)
  count(r.tally.requests, `${real.method} ${routeOf(real.path)} ${String(response.status)}`)
  m.steps[index] = { ...(m.steps[index] as ReportedStep & { kind: 'request' }), status: response.status }
  return response
}

/** The difference of a response from the model's, as a message; `undefined` when they agree. */
export const responseDifference = (m: Model, r: Real, expected: ServiceResponse, response: ServiceResponse): string | undefined => {
  const want = normalise(jsonCopy(expected.body), modelIds(m), r.sut.compareMessages)
  const got = normalise(response.body, realIds(m), r.sut.compareMessages)
  if (response.status === expected.status && deepEqual(want, got)) return undefined
  return difference(m, expected.status, want, response.status, got)
}

const difference = (m: Model, wantStatus: number, want: unknown, gotStatus: number, got: unknown): string => {
  const at = differences({ status: wantStatus, body: want }, { status: gotStatus, body: got }).map((d) => `  at ${replaceAll(d, m.prefix, '')}`)
  return [
    'response differs',
    `  expected (model): ${String(wantStatus)} ${brief(shown(m, want), 600)}`,
    `  received (service): ${String(gotStatus)} ${brief(shown(m, got), 600)}`,
    ...at
  ].join('\n')
}

/** Sends a request to both sides and compares the responses and webhooks. */
export const exchange = async (
  m: Model,
  r: Real,
  real: ServiceRequest,
  model: (world: World, response: ServiceResponse) => ReturnType<typeof handle>,
  learn?: (response: ServiceResponse, expectedStatus: number) => void
): Promise<void> => {
  m.tick += 1
  const response = await sendLogged(m, r, real)
  const { world, response: expected, deliveries } = model(m.world, response)
  m.world = world
  learn?.(response, expected.status)
  logRequest(m, real)
  m.log.push(`  ← ${String(response.status)} ${brief(normalise(response.body, logIds(m), r.sut.compareMessages))}`)
  const difference = responseDifference(m, r, expected, response)
  if (difference !== undefined) throw new Mismatch(difference)
  await compareWebhooks(m, r, deliveries)
}
