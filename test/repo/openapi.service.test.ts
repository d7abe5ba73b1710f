/**
 * Every answer of the reference service (docs/examples/service on PGlite, started as the other
 * service tests start it) is one its document (docs/openapi.service.json: paysplit's routes and
 * the service's bank routes) describes: a representative set of requests reaches every route and
 * the statuses a client can cause — created and repeated, invalid, unknown, refused by status, no
 * key, a body over the limit, another method, an unknown path, the bank's matched, parked and
 * refused transfers, the event feed's pages and refusals — and each answer's status is documented
 * for its route and its body passes the documented schema (ajv). The 404 of an unknown path and the 405 of another method are
 * checked against the responses the document describes once. The webhooks it sent on the way
 * (to its catch-all url) are each the document's `WebhookPayload`.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serviceDocument } from '../../.config/openapi.js'
import { call, eventually, outboxSettled, postForm, Receiver, startService, testDb, type Reply, type Running, type TestDb } from '../support/reference-service.fixtures.js'

type Doc = { paths: Record<string, any>; components: { schemas: Record<string, any>; responses: Record<string, any> } }

const doc = serviceDocument() as unknown as Doc
const forAjv = structuredClone(doc)
delete forAjv.components.schemas['PatchEntry'].discriminator.mapping
const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true })
addFormats(ajv)
ajv.addSchema(forAjv, 'service.json')

const compiled = new Map<string, ValidateFunction>()
const validatorOf = (schema: unknown): ValidateFunction => {
  const text = JSON.stringify(schema).replaceAll('"#/components/', '"service.json#/components/')
  let v = compiled.get(text)
  if (v === undefined) {
    v = ajv.compile(JSON.parse(text) as Record<string, unknown>)
    compiled.set(text, v)
  }
  return v
}

const resolved = (r: any): any => (typeof r?.$ref === 'string' ? doc.components.responses[r.$ref.split('/').pop()] : r)

const templateOf = (path: string): string | undefined =>
  Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path.split('?')[0] ?? ''))

let database: TestDb
let running: Running
const receiver = new Receiver()
const seen = new Set<string>()

beforeAll(async () => {
  database = await testDb()
  const hooks = await receiver.start()
  running = await startService(database.db, { MAX_BODY_BYTES: String(16 * 1024), CATCH_ALL_URL: `${hooks}/all` })
}, 60_000)

afterAll(async () => {
  await running.service.close()
  await receiver.stop()
  await database.close().catch(() => undefined)
})

/** Sends a request and checks its answer against the document; resolves with the answer. */
const check = async (method: string, path: string, body?: unknown, options: Parameters<typeof call>[4] = {}): Promise<Reply> => {
  const reply = await call(running.base, method, path, body, options)
  const template = templateOf(path)
  const op = template === undefined ? undefined : doc.paths[template][method.toLowerCase()]
  const what = `${method} ${template ?? path} → ${String(reply.status)}`
  let response: any
  if (template === undefined) response = doc.components.responses['RouteNotFound']
  else if (op === undefined) {
    response = doc.components.responses['MethodNotAllowed']
    expect(doc.paths[template].description, what).toContain('405')
  } else response = resolved(op.responses[String(reply.status)])
  expect(response, `${what} is documented`).toBeDefined()
  if (template === undefined) expect(reply.status, what).toBe(404)
  else if (op === undefined) expect(reply.status, what).toBe(405)
  const validate = validatorOf(response.content['application/json'].schema)
  expect(validate(reply.body), `${what}: ${JSON.stringify(validate.errors)}\n${reply.text.slice(0, 500)}`).toBe(true)
  seen.add(`${method} ${template ?? '(unknown path)'} ${String(reply.status)}`)
  return reply
}

const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const FEE = '11111111-2222-4333-8444-555555555555'
let n = 0
const request = (kind: 'card' | 'invoice', extra: Record<string, unknown> = {}): Record<string, unknown> => {
  n += 1
  return {
    externalPaymentReferenceID: `openapi-${kind}-${String(n)}`,
    environment: 'test',
    paymentGateway: kind === 'card' ? 'creditcard' : 'invoice',
    ...(kind === 'card' ? { chargeImmediately: true } : {}),
    sellerConnectedAccountID: SELLER,
    grossAmount: 10000,
    currency: 'NOK',
    moneySplitList: [
      { connectedAccountID: SELLER, amount: 9000, isFee: false, externalID: 'seller-line' },
      { connectedAccountID: FEE, amount: 1000, isFee: true }
    ],
    customerExternalID: `openapi-customer-${String(n)}`,
    customer: { name: 'Kari Nordmann', email: 'kari@example.no' },
    successUrl: 'https://shop.example/ok',
    failedUrl: 'https://shop.example/failed',
    ...extra
  }
}

const idOf = (reply: Reply): string => String(reply.body?.paymentIntent?.paymentCreated?.paymentReferenceID)
const kidOf = (reply: Reply): string => String(reply.body?.paymentIntent?.paymentCreated?.kid)
const UNKNOWN = 'ffffffff-ffff-4fff-bfff-ffffffffffff'
const patch = { moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 4000 }, { splitID: 2, updateType: 'DoNothing' }], newGrossAmount: 5000 }

describe('every answer of the reference service is described by docs/openapi.service.json', () => {
  it('creates, reads, refusals, the keys, the limits, another method, an unknown path', async () => {
    const card = request('card', { chargeImmediately: false })
    const created = await check('POST', '/payments', card)
    expect(created.status).toBe(201)
    expect((await check('POST', '/payments', card)).status).toBe(200)
    expect((await check('POST', '/payments', { ...card, grossAmount: 1 })).status).toBe(400)
    expect((await check('POST', '/payments', { ...card, description: 'another request, the same reference' })).status).toBe(409)
    expect((await check('POST', '/payments', request('card', { customerExternalID: '' }))).status).toBe(400)
    expect((await check('POST', '/payments', card, { key: null })).status).toBe(401)
    expect((await check('POST', '/payments', undefined, { raw: `{"x":"${'a'.repeat(20 * 1024)}"}` })).status).toBe(413)
    const id = idOf(created)
    expect((await check('GET', `/payments/${id}`)).status).toBe(200)
    expect((await check('GET', `/payments/${UNKNOWN}`)).status).toBe(404)
    expect((await check('GET', `/payments/${id}`, undefined, { key: 'wrong' })).status).toBe(401)
    expect((await check('GET', `/payments?externalPaymentReferenceID=${String(card['externalPaymentReferenceID'])}`)).status).toBe(200)
    expect((await check('GET', '/payments?externalPaymentReferenceID=nobody')).status).toBe(404)
    expect((await check('GET', '/payments')).status).toBe(400)
    expect((await check('GET', `/customers/${String(card['customerExternalID'])}`)).status).toBe(200)
    expect((await check('GET', '/customers/nobody')).status).toBe(404)
    expect((await check('POST', `/payments/${id}/charge`)).status).toBe(409)
    expect((await check('POST', `/payments/${UNKNOWN}/charge`)).status).toBe(404)
    expect((await check('POST', `/payments/${id}/refund`)).status).toBe(409)
    expect((await check('POST', `/payments/${id}/refund/partially`, patch)).status).toBe(409)
    expect((await check('POST', `/payments/${id}/adjust`, patch)).status).toBe(409)
    expect((await check('POST', `/payments/${UNKNOWN}/adjust`, patch)).status).toBe(404)
    expect((await check('POST', `/payments/${id}/cancel`)).status).toBe(200)
    expect((await check('POST', `/payments/${id}/cancel`)).status).toBe(409)
    expect((await check('POST', `/payments/not-a-uuid/cancel`)).status).toBe(404)
    expect((await check('DELETE', `/payments/${id}`)).status).toBe(405)
    expect((await check('GET', `/payments/${id}/cancel`)).status).toBe(405)
    expect((await check('PUT', '/payments')).status).toBe(405)
    expect((await check('GET', '/no/such/route')).status).toBe(404)
  })

  it('invoices through their life: adjusted, paid by the bank, refunded in part and in full; the bank\'s parked and refused transfers', async () => {
    const first = await check('POST', '/payments', request('invoice'))
    expect(first.status).toBe(201)
    const id = idOf(first)
    expect((await check('POST', `/payments/${id}/adjust`, patch)).status).toBe(200)
    expect((await check('POST', `/payments/${id}/adjust`, { ...patch, newGrossAmount: 1 })).status).toBe(400)
    const paid = await check('POST', '/bank/transfers', { kid: kidOf(first), amount: 5000 }, { key: 'dev-bank-key' })
    expect(paid.status).toBe(200)
    expect((await check('POST', '/bank/transfers', { kid: kidOf(first), amount: 5000 }, { key: 'dev-bank-key' })).status).toBe(202)
    expect((await check('POST', '/bank/transfers', { kid: 'not a kid', amount: 1 }, { key: 'dev-bank-key' })).status).toBe(400)
    expect((await check('POST', '/bank/transfers', { kid: kidOf(first), amount: 1 }, { key: null })).status).toBe(401)
    expect((await check('GET', '/bank/transfers', undefined, { key: 'dev-bank-key' })).status).toBe(405)
    const partial = { moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 3000 }, { splitID: 2, updateType: 'DoNothing' }], newGrossAmount: 4000 }
    expect((await check('POST', `/payments/${id}/refund/partially`, { moneySplitPatch: 1 })).status).toBe(400)
    expect((await check('POST', `/payments/${id}/refund/partially`, partial)).status).toBe(200)
    expect((await check('POST', `/payments/${id}/refund`)).status).toBe(200)
    expect((await check('POST', `/payments/${id}/refund`)).status).toBe(409)
    expect((await check('GET', `/payments/${id}`)).status).toBe(200)
  })

  it('a card through the payment form (its token, as the page gives it), then charged and refunded', async () => {
    const created = await check('POST', '/payments', request('card', { chargeImmediately: false }))
    const id = idOf(created)
    const form = await postForm(running.base, id, 'complete')
    expect(form.status).toBe(303)
    expect((await check('POST', `/payments/${id}/charge`)).status).toBe(200)
    expect((await check('POST', `/payments/${id}/charge`)).status).toBe(409)
    expect((await check('POST', `/payments/${id}/refund/partially`, patch)).status).toBe(200)
    expect((await check('POST', `/payments/${id}/refund`)).status).toBe(200)
  })

  it('the event feed: a page (its payloads the webhooks\'), paging to the end, a bad limit or cursor, no key', async () => {
    await eventually(() => outboxSettled(running.service.db), 15_000, 'the outbox to drain')
    const first = await check('GET', '/events?limit=3')
    expect(first.status).toBe(200)
    expect(first.body.data).toHaveLength(3)
    const rest = await check('GET', `/events?after=${String(first.body.next)}&limit=500`)
    expect(rest.status).toBe(200)
    expect((await check('GET', `/events?after=${String(rest.body.next)}`)).body.data).toStrictEqual([])
    expect((await check('GET', '/events?limit=0')).status).toBe(400)
    expect((await check('GET', '/events?after=nowhere')).status).toBe(400)
    expect((await check('GET', '/events', undefined, { key: null })).status).toBe(401)
    expect((await check('POST', '/events')).status).toBe(405)
  })

  it('every webhook the service sent is the document\'s WebhookPayload, validly signed', async () => {
    await eventually(() => outboxSettled(running.service.db), 15_000, 'the outbox to drain')
    const validate = validatorOf({ $ref: '#/components/schemas/WebhookPayload' })
    expect(receiver.received.length).toBeGreaterThan(10)
    for (const w of receiver.received) {
      expect(validate(w.body), `${String(w.body?.eventType)}: ${JSON.stringify(validate.errors)}`).toBe(true)
      expect(w.verified).toBe(true)
    }
    expect(new Set(receiver.received.map((w) => w.body.eventType as string)).size).toBeGreaterThan(3)
  })

  it('reached every route of the document, each with a success and a refusal', () => {
    console.info(`reference service: ${String(seen.size)} (method, route, status) seen\n  ${[...seen].sort().join('\n  ')}`)
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['get', 'post']) {
        if (item[method] === undefined || path === '/bank/ocr') continue
        const statuses = [...seen].filter((s) => s.startsWith(`${method.toUpperCase()} ${path} `)).map((s) => Number(s.split(' ').pop()))
        expect(statuses.some((s) => s < 300), `${method} ${path}`).toBe(true)
        expect(statuses.some((s) => s >= 400), `${method} ${path}`).toBe(true)
      }
    }
    expect(seen.size).toBeGreaterThan(35)
  })
})
