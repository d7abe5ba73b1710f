/**
 * The reference service's `POST /bank/camt054` (docs/service.md): an ISO 20022 camt.054 credit
 * notification applied in one transaction through paysplit's store contract (`camt054Keys`,
 * `receiveCamt054`, its `changes`) — matched transfers written, unmatched ones parked, the
 * notification and its transactions remembered — on PGlite, and on a real PostgreSQL server under
 * `npm run test:postgres`.
 */
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { camt054Xml, type Camt054DraftDetail } from '../../src/camt054.js'
import { devApiKey, devBankKey } from '../../docs/examples/service/config.js'
import { invoiceRequest } from '../support/http.fixtures.js'
import { call, serviceUnderTest, startService } from '../support/reference-service.fixtures.js'

const t = serviceUnderTest()
const { ref, create, stored, count } = t

/** A notification of one booked credit entry (`entry`) holding these transaction details. */
const notification = (messageId: string, entry: string, details: ReadonlyArray<Camt054DraftDetail>): string =>
  camt054Xml({
    version: 'camt.054.001.08',
    messageId,
    createdAt: '2026-11-21T10:00:00',
    notifications: [{ account: 'NO9386011117947', entries: [{ accountServicerReference: entry, currency: 'NOK', creditDebit: 'CRDT', bookingDate: '2026-11-21', details }] }]
  })

const camt054 = (xml: string, options: { readonly key?: string | null; readonly at?: string } = {}): ReturnType<typeof call> =>
  call(options.at ?? t.base, 'POST', '/bank/camt054', undefined, { key: options.key === undefined ? devBankKey : options.key, raw: xml, contentType: 'application/xml' })

describe('POST /bank/camt054: a notification applied once, a report row per transaction', () => {
  it('matched and unmatched (parked); the same notification again: duplicate, nothing written; a transaction resent in another notification: duplicate', async () => {
    const first = await create(invoiceRequest({ externalPaymentReferenceID: ref('camt') }))
    const second = await create(invoiceRequest({ externalPaymentReferenceID: ref('camt') }))
    const kid1 = (await stored(first)).kid ?? ''
    const kid2 = (await stored(second)).kid ?? ''
    const xml = notification('MSG-svc-1', 'E-1', [
      { amount: '100.00', transactionReference: 'T-1', creditorReferences: [kid1] },
      { amount: '5.00', transactionReference: 'T-2', creditorReferences: ['12345674'] }
    ])
    const parkedBefore = await count('unmatched_transfers')
    const outboxBefore = await count('outbox')
    const r = await camt054(xml)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ messageId: 'MSG-svc-1', duplicate: false })
    const report = r.body.report as Array<Record<string, unknown>>
    expect(report[0]).toStrictEqual({ transactionNumber: 1, kid: kid1, amount: 10000, outcome: 'matched', paymentReferenceID: first })
    expect(report[1]).toMatchObject({ transactionNumber: 2, kid: '12345674', amount: 500, outcome: 'unmatched' })
    expect(await stored(first)).toMatchObject({ status: 'Charged', paidAmount: 10000, version: 3 })
    // the invoice's webhooks in the outbox, the unmatched transfer parked with its notification
    expect(await count('outbox')).toBeGreaterThan(outboxBefore)
    const parked = await t.db.query<{ id: string; kid: string; amount: string; n: number }>(
      "SELECT id::text, kid, amount::text, camt054_transaction_number AS n FROM unmatched_transfers WHERE camt054_message_id = 'MSG-svc-1'"
    )
    expect(parked.rows).toStrictEqual([{ id: report[1]?.['unmatchedTransferID'], kid: '12345674', amount: '500', n: 2 }])
    // the notification remembered with its answer, and each of its transactions
    const message = (await t.db.query<{ report: unknown; at: string }>("SELECT report, at FROM camt054_messages WHERE message_id = 'MSG-svc-1'")).rows[0]
    expect(message?.report).toStrictEqual(report)
    expect(await count('camt054_transactions')).toBe(2)

    // the same notification again: every row duplicate, nothing written
    const again = await camt054(xml)
    expect(again.status).toBe(200)
    expect(again.body.duplicate).toBe(true)
    expect((again.body.report as Array<Record<string, unknown>>).map((x) => x['outcome'])).toStrictEqual(['duplicate', 'duplicate'])
    expect(await count('unmatched_transfers')).toBe(parkedBefore + 1)
    expect(await stored(first)).toMatchObject({ version: 3 })

    // T-1 sent again in another notification beside a new transaction: the first duplicate, the second applied
    const other = await camt054(
      notification('MSG-svc-2', 'E-1', [
        { amount: '100.00', transactionReference: 'T-1', creditorReferences: [kid1] },
        { amount: '40.00', transactionReference: 'T-3', creditorReferences: [kid2] }
      ])
    )
    expect(other.status).toBe(200)
    expect(other.body.duplicate).toBe(false)
    expect((other.body.report as Array<Record<string, unknown>>).map((x) => x['outcome'])).toStrictEqual(['duplicate', 'matched'])
    expect(await stored(first)).toMatchObject({ version: 3 })
    expect(await stored(second)).toMatchObject({ status: 'Initiated', paidAmount: 4000, version: 2 })
  })

  it('a refused document → 400 naming the element path and the rule; nothing applied, nothing stored', async () => {
    const id = await create(invoiceRequest({ externalPaymentReferenceID: ref('camt-refused') }))
    const kid = (await stored(id)).kid ?? ''
    const xml = notification('MSG-svc-refused', 'E-9', [{ amount: '100.00', transactionReference: 'T-9', creditorReferences: [kid] }])
    // the entry's amount no longer the sum of its transaction
    const r = await camt054(xml.replace('<Amt Ccy="NOK">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>', '<Amt Ccy="NOK">100.01</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>'))
    expect(r.status).toBe(400)
    expect(r.body.success).toBe(false)
    expect(r.body.error.code).toBe('ValidationFailed')
    expect(r.body.error.issues).toMatchObject([{ path: '/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]/Amt', params: { rule: 'entry-sum' } }])
    expect(await count("camt054_messages WHERE message_id = 'MSG-svc-refused'")).toBe(0)
    expect(await stored(id)).toMatchObject({ status: 'Initiated', paidAmount: 0, version: 1 })
    // not XML at all
    const garbage = await camt054('{"kid":"12345674","amount":100}')
    expect([garbage.status, garbage.body.error.code]).toStrictEqual([400, 'ValidationFailed'])
  })

  it('rows paysplit has forgotten (a message or a booking day more than 400 days old) are deleted after a notification; newer ones stay', async () => {
    await t.db.query("INSERT INTO camt054_messages (message_id, at) VALUES ('MSG-old', '2020-01-01T00:00:00.000Z'), ('MSG-kept', '2099-01-01T00:00:00.000Z')")
    await t.db.query("INSERT INTO camt054_transactions (transaction_key, booking_date) VALUES ('[\"old\"]', '2020-01-01'), ('[\"kept\"]', '2099-01-01')")
    const r = await camt054(notification('MSG-svc-clean', 'E-7', [{ amount: '1.00', transactionReference: 'T-7', creditorReferences: ['12345674'] }]))
    expect(r.status).toBe(200)
    expect(await count("camt054_messages WHERE message_id IN ('MSG-old', 'MSG-kept', 'MSG-svc-clean')")).toBe(2)
    expect(await count("camt054_messages WHERE message_id = 'MSG-old'")).toBe(0)
    expect(await count('camt054_transactions WHERE booking_date = \'2020-01-01\'')).toBe(0)
    expect(await count('camt054_transactions WHERE booking_date = \'2099-01-01\'')).toBe(1)
  })

  it('the bank key only; POST only; a notification past CAMT054_MAX_BYTES → 413, also sent chunked', async () => {
    const xml = notification('MSG-svc-big', 'E-8', [{ amount: '1.00', transactionReference: 'T-8', creditorReferences: ['12345674'] }])
    expect((await camt054(xml, { key: null })).status).toBe(401)
    expect((await camt054(xml, { key: devApiKey })).status).toBe(401)
    const get = await call(t.base, 'GET', '/bank/camt054', undefined, { key: devBankKey })
    expect([get.status, get.headers.get('allow')]).toStrictEqual([405, 'POST'])
    const small = await startService(t.db, { CAMT054_MAX_BYTES: '200' })
    try {
      expect((await camt054(xml, { at: small.base })).status).toBe(413)
      // no content-length: the limit holds while the body is read
      const { hostname, port } = new URL(small.base)
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: hostname, port, method: 'POST', path: '/bank/camt054', headers: { authorization: `Bearer ${devBankKey}`, 'content-type': 'application/xml', 'transfer-encoding': 'chunked' } },
          (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
          }
        )
        req.on('error', reject)
        for (let i = 0; i < xml.length; i += 100) req.write(xml.slice(i, i + 100))
        req.end()
      })
      expect(status).toBe(413)
    } finally {
      await small.service.close()
    }
    expect(await count("camt054_messages WHERE message_id = 'MSG-svc-big'")).toBe(0)
  })
})
