/**
 * The service's limits and bad input (docs/service.md, "Limits"): a cap on open connections
 * (`MAX_CONNECTIONS`, the rest dropped at once and counted); an endless chunked `POST /bank/ocr`
 * answered 413 at its limit; and a lone UTF-16 surrogate never reaching PostgreSQL (which refuses
 * it: a 500) by any way the service writes text — path ids, a customer path, a query, headers, the
 * form's reason, a card gateway's decline, bank bodies — each a 400, a 404 or stored as U+FFFD.
 */
import { connect, type Socket } from 'node:net'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devBankKey } from '../../docs/examples/service/config.js'
import type { CardGateway } from '../../docs/examples/service/routes/gateway.js'
import { storableText } from '../../docs/examples/service/text.js'
import { cardRequest } from '../support/http.fixtures.js'
import { bank, call, postForm, startService, testDb, type Running, type TestDb } from '../support/reference-service.fixtures.js'

let database: TestDb
let running: Running

beforeAll(async () => {
  database = await testDb()
  running = await startService(database.db)
})

afterAll(async () => {
  await running.service.close()
  await database.close()
})

const sample = async (base: string, series: string): Promise<number> => {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer dev-metrics-key' } })).text()
  return Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.slice(series.length + 1) ?? NaN)
}

describe('MAX_CONNECTIONS', () => {
  it('past the cap a new connection is closed at once (counted); once one closes, the next is served', async () => {
    const s = await startService(database.db, { MAX_CONNECTIONS: '3' })
    const { hostname, port } = new URL(s.base)
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          resolve(socket)
        })
        socket.once('error', reject)
      })
    try {
      const idle = [await open(), await open(), await open()]
      await new Promise((resolve) => setTimeout(resolve, 50))
      const fourth = await open()
      const ended = await new Promise<string>((resolve) => {
        fourth.on('data', () => {
          resolve('answered')
        })
        fourth.once('close', () => {
          resolve('closed')
        })
        fourth.once('error', () => undefined)
        fourth.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
      })
      expect(ended).toBe('closed')
      idle[0]?.destroy()
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(await sample(s.base, 'paysplit_http_connections_dropped_total')).toBe(1)
      for (const socket of idle) socket.destroy()
    } finally {
      await s.service.close()
    }
  })
})

describe('POST /bank/ocr with an endless chunked body', () => {
  it('413 at OCR_MAX_BYTES, while the client is still sending; then the connection is cut', async () => {
    const limit = 1024 * 1024
    const s = await startService(database.db, { OCR_MAX_BYTES: String(limit) })
    const { hostname, port } = new URL(s.base)
    try {
      const outcome = await new Promise<{ status: number; sentBefore: number }>((resolve, reject) => {
        let sent = 0
        let answered = false
        const req = request({ host: hostname, port, method: 'POST', path: '/bank/ocr', headers: { authorization: `Bearer ${devBankKey}`, 'content-type': 'text/plain', 'transfer-encoding': 'chunked' } }, (res) => {
          answered = true
          resolve({ status: res.statusCode ?? 0, sentBefore: sent })
          res.resume()
        })
        req.on('error', (e) => {
          if (!answered) reject(e)
        })
        const line = Buffer.alloc(64 * 1024, '0')
        const pump = (): void => {
          while (!answered && !req.destroyed) {
            sent += line.length
            if (!req.write(line)) {
              req.once('drain', pump)
              return
            }
          }
        }
        pump()
      })
      expect(outcome.status).toBe(413)
      // answered at the limit, not after reading 16 times it (the socket buffers hold the rest sent)
      expect(outcome.sentBefore).toBeLessThan(16 * limit)
      console.info(`413 after ${(outcome.sentBefore / limit).toFixed(1)} × the limit sent (socket buffers included)`)
    } finally {
      await s.service.close()
    }
  })
})

describe('a lone surrogate never reaches PostgreSQL', () => {
  it('storableText: lone surrogates become U+FFFD, a cut never splits a pair', () => {
    expect(storableText('a\uD800b\uDC00c', 10)).toBe('a\uFFFDb\uFFFDc')
    expect(storableText('😀', 10)).toBe('😀')
    expect(storableText(`${'x'.repeat(199)}😀`, 200)).toBe('x'.repeat(199))
    expect(storableText('abc', 2)).toBe('ab')
  })

  const surrogate = '%ED%A0%80' // U+D800 as UTF-8 would write it, which UTF-8 forbids
  it.each([
    ['a payment id in the path', 'POST', `/payments/${surrogate}/cancel`, [404]],
    ['a payment id read', 'GET', `/payments/${surrogate}`, [404]],
    ['a customer path', 'GET', `/customers/${surrogate}`, [404]],
    ['a customer path, encoded as UTF-16', 'GET', '/customers/%uD800', [404]],
    ['a query value', 'GET', `/payments?externalPaymentReferenceID=order-${surrogate}`, [404]],
    ['the form page id', 'GET', `/pay/${surrogate}`, [404]],
    ['the event feed cursor', 'GET', `/events?after=${surrogate}`, [400]]
  ])('%s: %s %s → a 4xx, not a 500', async (_what, method, path, statuses) => {
    const r = await call(running.base, method, path)
    expect(statuses).toContain(r.status)
  })

  it('bank transfers: a KID with a lone surrogate is 400 and nothing is parked', async () => {
    const r = await bank(running.base, { kid: 'kid-\uD800', amount: 100 })
    expect(r.status).toBe(400)
    expect((await database.db.query("SELECT 1 FROM unmatched_transfers WHERE kid LIKE 'kid-%'")).rows).toHaveLength(0)
  })

  it('headers: an Idempotency-Key or x-request-id of bytes that are not ASCII is refused or replaced, never stored as it came', async () => {
    const { hostname, port } = new URL(running.base)
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify(cardRequest({ externalPaymentReferenceID: 'header-bytes' }))
      const req = request(
        { host: hostname, port, method: 'POST', path: '/payments', headers: { authorization: 'Bearer dev-api-key', 'content-type': 'application/json', 'idempotency-key': '\u00ed\u00a0\u0080', 'x-request-id': '\u00ed\u00a0\u0080' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        }
      )
      req.on('error', reject)
      req.end(body)
    })
    expect(status).toBe(400)
    expect((await database.db.query("SELECT 1 FROM payments WHERE external_payment_reference_id = 'header-bytes'")).rows).toHaveLength(0)
  })

  it("the form's reason cut at 200 characters in the middle of a pair: stored whole characters, 303", async () => {
    const created = await call(running.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'reason-cut' }))
    const id = created.body.paymentIntent.paymentCreated.paymentReferenceID as string
    const r = await postForm(running.base, id, 'fail', { reason: `${'x'.repeat(199)}😀` })
    expect(r.status).toBe(303)
    const event = await database.db.query<{ body: { reason?: string } }>("SELECT body FROM payment_events WHERE payment_reference_id = $1 AND type = 'PaymentFormFailed'", [id])
    expect(event.rows[0]?.body.reason).toBe('x'.repeat(199))
  })

  it("a live card gateway's decline reason with a lone surrogate: stored with U+FFFD, 303", async () => {
    const gateway: CardGateway = { name: 'odd', pay: () => Promise.resolve({ approved: false, reason: 'refus\uD800' }) }
    const s = await startService(database.db, {}, undefined, { liveCardGateway: gateway })
    try {
      const created = await call(s.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'gateway-odd', environment: 'production' }))
      const id = created.body.paymentIntent.paymentCreated.paymentReferenceID as string
      const r = await postForm(s.base, id, 'complete')
      expect(r.status).toBe(303)
      const event = await database.db.query<{ body: { reason?: string } }>("SELECT body FROM payment_events WHERE payment_reference_id = $1 AND type = 'PaymentFormFailed'", [id])
      expect(event.rows[0]?.body.reason).toBe('card declined: refus\uFFFD')
    } finally {
      await s.service.close()
    }
  })

  // The request strings a client sends are paysplit's to judge (its codecs refuse a lone surrogate:
  // 400 at the field, docs/rules.md C12); the service adds no way around it.
  it('a create with "order-\\ud800": 400 at externalPaymentReferenceID, nothing in the database', async () => {
    const r = await call(running.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'order-\uD800' }))
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ error: { code: 'ValidationFailed', issues: [{ path: 'externalPaymentReferenceID' }] } })
    expect((await database.db.query("SELECT 1 FROM payments WHERE external_payment_reference_id LIKE 'order-%'")).rows).toHaveLength(0)
  })
})
