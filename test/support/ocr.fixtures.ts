/**
 * OCR giro transmissions for the tests: one assignment of the given transfers (transaction type
 * 10 unless a row says otherwise), every other field as the specification's sample has it.
 */
import type { OcrTransmission } from '../../src/http.js'

/** A transfer of a test file: its KID, its amount in øre, its transaction type (10 when absent). */
export interface OcrRow {
  readonly kid: string
  readonly amount: number
  readonly type?: number
}

/** The transmission `number` of these transfers, each on the lines a written file puts it (3, 5, …). */
export const transmissionOf = (rows: ReadonlyArray<OcrRow>, number = '0000001'): OcrTransmission => ({
  transmissionNumber: number,
  dataSender: '00008080',
  dataRecipient: '00010200',
  netsDate: '2026-11-21',
  assignments: [
    {
      assignmentNumber: '0000001',
      agreementId: '001008566',
      account: '99991042764',
      netsDate: '2026-11-21',
      transactions: rows.map((r, i) => ({
        transactionNumber: i + 1,
        transactionType: r.type ?? 10,
        kid: r.kid,
        amount: r.amount,
        netsDate: '2026-11-21',
        centreId: '13',
        dayCode: 21,
        partialSettlementNumber: 1,
        partialSettlementSerialNumber: '01464',
        cardDrawer: '00',
        formNumber: '0000000000',
        archiveReference: '000000000',
        reserved: '0000000',
        debitAccount: '00000000000',
        ...(r.type === 20 || r.type === 21 ? { freeText: 'terminal' } : {}),
        line: 3 + 2 * i
      }))
    }
  ]
})
