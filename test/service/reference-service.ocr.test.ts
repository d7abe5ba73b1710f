/**
 * The reference service's `POST /bank/ocr` (docs/service.md): an OCR giro file applied in one
 * transaction — matched transfers written, unmatched ones parked, the transmission stored once —
 * on PGlite, and on a real PostgreSQL server under `npm run test:postgres`.
 */
import { describe, expect, it } from 'vitest'
import { ocrGiroText } from '../../src/http.js'
import { devApiKey, devBankKey } from '../../docs/examples/service/config.js'
import { invoiceRequest } from '../support/http.fixtures.js'
import { transmissionOf, type OcrRow } from '../support/ocr.fixtures.js'
import { call, eventually, outboxSettled, serviceUnderTest, startService } from '../support/reference-service.fixtures.js'

const t = serviceUnderTest()
const { ref, create, stored, count } = t

const ocr = (text: string, options: { readonly key?: string | null; readonly at?: string } = {}): ReturnType<typeof call> =>
  call(options.at ?? t.base, 'POST', '/bank/ocr', undefined, { key: options.key === undefined ? devBankKey : options.key, raw: text, contentType: 'text/plain' })

/** A transmission of these transfers (type 10 unless said), one assignment, as its file. */
const file = (number: string, rows: ReadonlyArray<OcrRow>): string => ocrGiroText(transmissionOf(rows, number))

describe('POST /bank/ocr: a file applied once, a report row per transaction', () => {
  it('matched, unmatched (parked), refused, a settled invoice\'s second transfer unmatched; the same file again: duplicate, nothing changed', async () => {
    const first = await create(invoiceRequest({ externalPaymentReferenceID: ref('ocr') }))
    const second = await create(invoiceRequest({ externalPaymentReferenceID: ref('ocr') }))
    const kid1 = (await stored(first)).kid ?? ''
    const kid2 = (await stored(second)).kid ?? ''
    const text = file('0000101', [
      { kid: kid1, amount: 10000 },
      { kid: '12345674', amount: 500 },
      { kid: kid2, amount: 4000 },
      { kid: kid1, amount: 100 },
      { kid: kid2, amount: 300, type: 18 },
      { kid: kid2, amount: 0 }
    ])
    const parkedBefore = await count('unmatched_transfers')
    const r = await ocr(text)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ transmissionNumber: '0000101', dataSender: '00008080', duplicate: false })
    const report = r.body.report as Array<Record<string, unknown>>
    expect(report.map((x) => [x['transactionNumber'], x['outcome']])).toStrictEqual([
      [1, 'matched'],
      [2, 'unmatched'],
      [3, 'matched'],
      [4, 'unmatched'],
      [5, 'refused'],
      [6, 'refused']
    ])
    expect(report[0]).toStrictEqual({ transactionNumber: 1, kid: kid1, amount: 10000, outcome: 'matched', paymentReferenceID: first })
    expect(report[5]).toMatchObject({ error: { code: 'ValidationFailed', issues: [{ path: 'amount', reason: 'too_small' }] } })
    // the two unmatched transfers parked, each with its file and transaction
    const parked = await t.db.query<{ id: string; kid: string; amount: string; n: number; sender: string; tn: string }>(
      `SELECT id::text, kid, amount::text AS amount, ocr_transaction_number AS n, ocr_data_sender AS sender, ocr_transmission_number AS tn
         FROM unmatched_transfers WHERE ocr_transmission_number = '0000101' ORDER BY ocr_transaction_number`
    )
    expect(parked.rows.map((p) => [p.kid, p.amount, p.n, p.sender])).toStrictEqual([
      ['12345674', '500', 2, '00008080'],
      [kid1, '100', 4, '00008080']
    ])
    expect([report[1]?.['unmatchedTransferID'], report[3]?.['unmatchedTransferID']]).toStrictEqual(parked.rows.map((p) => p.id))
    expect(await count('unmatched_transfers')).toBe(parkedBefore + 2)
    expect(await stored(first)).toMatchObject({ status: 'Charged', paidAmount: 10000 })
    expect(await stored(second)).toMatchObject({ status: 'Initiated', paidAmount: 4000 })
    // the webhooks through the outbox
    await eventually(() => outboxSettled(t.db))
    expect(t.receiver.for('/all', first).map((x): unknown => x.body.eventType)).toStrictEqual(['Initiated', 'Charged'])
    // the transmission stored with its report
    const row = (await t.db.query<{ transactions: number; total: string; report: unknown }>(
      "SELECT transactions, total_amount::text AS total, report FROM ocr_transmissions WHERE data_sender = '00008080' AND transmission_number = '0000101'"
    )).rows[0]
    expect(row).toMatchObject({ transactions: 6, total: String(10000 + 500 + 4000 + 100 + 300) })
    expect(row?.report).toStrictEqual(report)

    // the same file again: nothing applied, every row duplicate
    const again = await ocr(text)
    expect(again.status).toBe(200)
    expect(again.body.duplicate).toBe(true)
    expect((again.body.report as Array<Record<string, unknown>>).map((x) => x['outcome'])).toStrictEqual(Array(6).fill('duplicate'))
    expect(await count('unmatched_transfers')).toBe(parkedBefore + 2)
    expect(await stored(second)).toMatchObject({ status: 'Initiated', paidAmount: 4000, version: 2 })
  })

  it('the same new file sent twice at once: applied once', async () => {
    const id = await create(invoiceRequest({ externalPaymentReferenceID: ref('ocr-race') }))
    const kid = (await stored(id)).kid ?? ''
    const text = file('0000102', [{ kid, amount: 2500 }])
    const [a, b] = await Promise.all([ocr(text), ocr(text)])
    expect([a.status, b.status]).toStrictEqual([200, 200])
    expect([a.body.duplicate, b.body.duplicate].sort()).toStrictEqual([false, true])
    expect(await stored(id)).toMatchObject({ paidAmount: 2500 })
  })

  it('a broken file → 400 ValidationFailed naming the line and the rule; nothing applied, nothing stored', async () => {
    const id = await create(invoiceRequest({ externalPaymentReferenceID: ref('ocr-broken') }))
    const kid = (await stored(id)).kid ?? ''
    const lines = file('0000103', [{ kid, amount: 10000 }]).split('\n')
    const truncated = lines.slice(0, -2).join('\n') + '\n'
    const r = await ocr(truncated)
    expect(r.status).toBe(400)
    expect(r.body).toStrictEqual({
      success: false,
      error: {
        code: 'ValidationFailed',
        message: 'The input is not valid: 1 problem (see issues).',
        issues: [{ path: 'line.6', code: 'ValidationFailed', reason: 'format', params: { format: 'OCR giro record', rule: 'truncated' }, message: 'Must be a valid OCR giro record.' }]
      }
    })
    expect(await count("ocr_transmissions WHERE transmission_number = '0000103'")).toBe(0)
    expect(await stored(id)).toMatchObject({ status: 'Initiated', paidAmount: 0 })
    // not text at all
    expect((await ocr('{"kid":"12345674","amount":100}')).body.error.issues[0]).toMatchObject({ path: 'line.1', params: { rule: 'line-length' } })
  })

  it('a file in ISO 8859-1, as Nets writes it: a Latin-1 letter of a free text read as U+FFFD, the file applied', async () => {
    const lines = file('0000105', [{ kid: '12345674', amount: 700, type: 21 }]).split('\n')
    // amount item 3's free text, with an Ø in Latin-1 (one byte, 0xD8)
    const text = lines.map((l) => (l.slice(6, 8) === '32' ? l.slice(0, 15) + 'Bod\u00d8' + l.slice(19) : l)).join('\n')
    const res = await fetch(`${t.base}/bank/ocr`, {
      method: 'POST',
      headers: { authorization: `Bearer ${devBankKey}`, 'content-type': 'text/plain; charset=iso-8859-1' },
      body: Buffer.from(text, 'latin1')
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { duplicate: boolean; report: Array<{ outcome: string }> }
    expect([body.duplicate, body.report.map((r) => r.outcome)]).toStrictEqual([false, ['unmatched']])
  })

  it('the bank key only; POST only; a file past OCR_MAX_BYTES → 413', async () => {
    const text = file('0000104', [{ kid: '12345674', amount: 1 }])
    expect((await ocr(text, { key: null })).status).toBe(401)
    expect((await ocr(text, { key: devApiKey })).status).toBe(401)
    const get = await call(t.base, 'GET', '/bank/ocr', undefined, { key: devBankKey })
    expect([get.status, get.headers.get('allow')]).toStrictEqual([405, 'POST'])
    const small = await startService(t.db, { OCR_MAX_BYTES: '200' })
    try {
      expect((await ocr(text, { at: small.base })).status).toBe(413)
    } finally {
      await small.service.close()
    }
    expect(await count("ocr_transmissions WHERE transmission_number = '0000104'")).toBe(0)
  })
})
