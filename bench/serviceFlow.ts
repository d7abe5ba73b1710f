/**
 * The bodies of one flow of `npm run bench:service` (create → form → partial refund), shared by the
 * benchmark over HTTP (bench/service.ts) and the per-call profile (bench/service-profile.ts), so
 * both measure the same requests.
 */
export const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
export const FEES = '11111111-2222-4333-8444-555555555555'

/** The create of a flow: a card of 10 000 charged at once, two splits (one a fee), one of 500 customers. */
export const createBody = (externalPaymentReferenceID: string, i: number): unknown => ({
  externalPaymentReferenceID,
  environment: 'test',
  paymentGateway: 'creditcard',
  chargeImmediately: true,
  sellerConnectedAccountID: SELLER,
  grossAmount: 10000,
  currency: 'NOK',
  description: 'Concert tickets',
  moneySplitList: [
    { connectedAccountID: SELLER, amount: 9000, isFee: false, description: 'Tickets' },
    { connectedAccountID: FEES, amount: 1000, isFee: true, description: 'Fee' }
  ],
  customerExternalID: `customer-${String(i % 500)}`,
  successUrl: 'https://shop.example/ok',
  failedUrl: 'https://shop.example/failed'
})

/** The partial refund of a flow: 1 000 of the seller's split back. */
export const refundPatch = {
  moneySplitPatch: [
    { splitID: 1, updateType: 'UpdateAmount', newAmount: 8000 },
    { splitID: 2, updateType: 'DoNothing' }
  ],
  newGrossAmount: 9000
}
