/**
 * The end-of-run check of webhooks sent to a receiver the runner subscribed to: at least once, in
 * any order, each equal to the model's, signed validly when the receiver checked signatures.
 *
 * @module conformance/webhookCheck
 */
import type { WebhookDelivery } from '../service/webhooks.js'
import { deepEqual } from '../testing/harness.js'
import { differences, field, jsonCopy, normalise, replaceAll } from './normalise.js'
import { Mismatch, modelIds, named, realIds, type Model, type Real } from './model.js'
import type { ReceivedWebhook } from './types.js'

interface Wanted {
  readonly url: string
  /** The eventID the service must use: the model's with the service's payment id. */
  readonly eventID: string
  readonly delivery: WebhookDelivery
}

const lower = (s: unknown): string => (typeof s === 'string' ? s.toLowerCase() : '')

/** The model's deliveries with the service's ids. */
const wantedOf = (m: Model): ReadonlyArray<Wanted> =>
  m.expected.map((d) => {
    const [id = '', n = ''] = d.payload.eventID.split(':')
    const realId = m.known.find((k) => k.modelId === id)?.realId ?? id
    return { url: d.url, eventID: `${realId}:${n}`, delivery: d }
  })

/** Whether a received webhook is this run's: sent to one of its urls, or about one of its payments at a url the model sends to. */
const isMine = (m: Model, urls: ReadonlySet<string>, w: ReceivedWebhook): boolean => {
  if (m.hookBase !== undefined && w.url.startsWith(m.hookBase)) return true
  if (!urls.has(w.url)) return false
  const id = lower(field(w.body, 'eventID')).split(':')[0] ?? ''
  return m.known.some((k) => k.realId.toLowerCase() === id)
}

/**
 * Waits (up to the receiver's grace period) for every webhook the model sent in this run, then
 * checks what arrived: each expected one at least once, every copy equal to the model's
 * payload, its `webhook-id` header (when given) its `eventID`, its signature not invalid, and
 * nothing at this run's urls that the model did not send.
 */
export const checkReceived = async (m: Model, r: Real): Promise<void> => {
  const receiver = r.sut.webhookReceiver
  if (receiver === undefined || m.hookBase === undefined) return
  const wanted = wantedOf(m)
  const urls = new Set(wanted.map((w) => w.url))
  const key = (url: string, eventID: unknown): string => `${url} ${lower(eventID)}`
  const wantedKeys = new Set(wanted.map((w) => key(w.url, w.eventID)))
  const until = (received: ReadonlyArray<ReceivedWebhook>): boolean => {
    const got = new Set(received.map((w) => key(w.url, field(w.body, 'eventID'))))
    return [...wantedKeys].every((k) => got.has(k))
  }
  const all = await receiver.collect(until)
  const mine = all.filter((w) => isMine(m, urls, w))
  r.tally.webhooksChecked += mine.length
  // the receiver's url as <receiver> in the report: it changes from one run of the command to the next
  const at = (url: string): string => replaceAll(url, receiver.url, '<receiver>')
  const problems: string[] = []
  let missing = 0
  const compare = r.sut.compareMessages
  for (const w of wanted) {
    const copies = mine.filter((x) => key(x.url, field(x.body, 'eventID')) === key(w.url, w.eventID))
    const label = `${w.delivery.eventType} ${normalise(w.eventID, realIds(m)) as string} → ${at(w.url)}`
    if (copies.length === 0) {
      missing += 1
      r.tally.webhooksMissing += 1
      problems.push(`missing (not received within the grace period): ${label}`)
      continue
    }
    const want = normalise(jsonCopy(w.delivery.payload), modelIds(m), compare)
    for (const c of copies) {
      const got = normalise(c.body, realIds(m), compare)
      if (!deepEqual(want, got)) problems.push(`payload differs: ${label}\n${differences(want, got).map((d) => `    at ${d}`).join('\n')}`)
      if (c.signature === 'invalid') problems.push(`signature not valid (Standard Webhooks): ${label}`)
      const id = c.headers?.['webhook-id']
      if (id !== undefined && lower(id) !== lower(field(c.body, 'eventID'))) problems.push(`webhook-id header ${JSON.stringify(normalise(id, realIds(m)))} is not the eventID: ${label}`)
    }
  }
  for (const x of mine) {
    if (!wantedKeys.has(key(x.url, field(x.body, 'eventID')))) {
      problems.push(`not sent by the model: ${named(normalise(x.body, realIds(m)), 'eventType')} ${named(normalise(x.body, realIds(m)), 'eventID')} → ${at(x.url)}`)
    }
  }
  if (problems.length > 0) {
    const unique = [...new Set(problems)]
    // a collect that does not wait for `until` makes every late webhook look missing: say so
    const early = missing > 0 && receiver.graceMs === undefined && !until(all) ? '\n  (does the receiver\'s collect wait until `until(received)` holds, or a grace period has passed? startWebhookReceiver\'s does)' : ''
    throw new Mismatch(`webhooks at the receiver differ from the model's (${String(unique.length)} problem(s))\n  ${unique.slice(0, 6).join('\n  ')}${early}`)
  }
}
