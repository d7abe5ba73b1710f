/**
 * Typed clients generated from docs/openapi.json as client teams make them: openapi-typescript
 * (+ openapi-fetch), @hey-api/openapi-ts and orval (its fetch client and its zod schemas), each
 * into a scratch folder, then a program that sends a create with only its required fields, a
 * partial refund and an invoice adjustment, type-checked with the TypeScript compiler (strict).
 * Each generator keeps the rules the document says with a discriminated union (no generator keeps
 * an if/then): a card create without `chargeImmediately` does not compile with any of the four, an
 * invoice without it does; the patch entry keeps `newAmount` and `doDelete`, an entry missing the
 * field its update type needs does not compile; the `idempotency-key` header is typed, and @hey-api
 * writes one function per operation, none for a 405. Offline: the generators read the file only.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient as heyApi } from '@hey-api/openapi-ts'
import { generate as orval } from 'orval'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const document = join(root, 'docs', 'openapi.json')
let scratch = ''

const PROGRAM = `
import createClient from 'openapi-fetch'
import type { components, paths } from './openapi-typescript/schema.js'
import { createClient as createHeyClient, createConfig } from './hey-api/client/index.js'
import { adjustInvoice, createPayment, refundPartially } from './hey-api/sdk.gen.js'
import type { MoneySplitPatch, PatchEntry, PaymentIntentRequest as HeyRequest } from './hey-api/types.gen.js'
import type { PaymentIntentRequest as OrvalRequest } from './orval/client.js'
import { CreatePaymentBody } from './orval/zod.js'
import type { z } from 'zod'

const baseUrl = 'http://127.0.0.1:8080'
const id = '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c'
const refund = {
  moneySplitPatch: [
    { splitID: 1, updateType: 'UpdateAmount', newAmount: 500 },
    { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: true },
    { splitID: 3, updateType: 'DoNothing' }
  ],
  newGrossAmount: 500
} as const

// openapi-typescript + openapi-fetch
const client = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer dev-api-key' } })
export const partialRefund = async (): Promise<number | undefined> => {
  const { data, error } = await client.POST('/payments/{paymentReferenceID}/refund/partially', {
    params: { path: { paymentReferenceID: id }, header: { 'idempotency-key': 'refund-1' } },
    body: { moneySplitPatch: [...refund.moneySplitPatch], newGrossAmount: refund.newGrossAmount }
  })
  if (error !== undefined) return error.success ? 0 : -1
  return data.refundedSplit[0]?.refundAmount
}
export const adjust = async (): Promise<string | undefined> => {
  const { data } = await client.POST('/payments/{paymentReferenceID}/adjust', {
    params: { path: { paymentReferenceID: id } },
    body: { moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 100 }], newGrossAmount: 100 }
  })
  return data?.status
}
// a create with only the required fields: webhookSubscriptions and metaData may be left out
export const create = async (): Promise<string | undefined> => {
  const { data } = await client.POST('/payments', {
    body: {
      externalPaymentReferenceID: 'order-1',
      environment: 'test',
      paymentGateway: 'invoice',
      sellerConnectedAccountID: id,
      grossAmount: 100,
      currency: 'NOK',
      moneySplitList: [{ connectedAccountID: id, amount: 100, isFee: false }],
      customerExternalID: 'customer-1',
      successUrl: 'https://shop.example/ok',
      failedUrl: 'https://shop.example/failed'
    }
  })
  return data?.paymentIntent.paymentCreated.status
}
export const read = async (): Promise<string | undefined> => {
  const { data } = await client.GET('/payments/{paymentReferenceID}', { params: { path: { paymentReferenceID: id } } })
  return data?.payment.paymentCreated.status
}
// @ts-expect-error UpdateAmount needs newAmount
export const missingAmount: components['schemas']['PatchEntry'] = { splitID: 1, updateType: 'UpdateAmount' }
// @ts-expect-error DoDeleteSplitEntry needs doDelete
export const missingDelete: components['schemas']['PatchEntry'] = { splitID: 1, updateType: 'DoDeleteSplitEntry' }

// a create request of each gateway, as a client team writes one
const seller = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const common = {
  externalPaymentReferenceID: 'order-3',
  environment: 'test' as const,
  sellerConnectedAccountID: seller,
  grossAmount: 100,
  currency: 'NOK' as const,
  moneySplitList: [{ connectedAccountID: seller, amount: 100, isFee: false }],
  customerExternalID: 'customer-1',
  successUrl: 'https://shop.example/ok',
  failedUrl: 'https://shop.example/failed'
}
const card = { ...common, paymentGateway: 'creditcard' as const, chargeImmediately: true }
const cardWithout = { ...common, paymentGateway: 'creditcard' as const }
const invoice = { ...common, paymentGateway: 'invoice' as const }

// openapi-typescript: a card needs chargeImmediately, an invoice does not
export const otCard: components['schemas']['PaymentIntentRequest'] = card
export const otInvoice: components['schemas']['PaymentIntentRequest'] = invoice
// @ts-expect-error a card create needs chargeImmediately
export const otCardWithout: components['schemas']['PaymentIntentRequest'] = cardWithout

// @hey-api/openapi-ts
export const heyCard: HeyRequest = card
export const heyInvoice: HeyRequest = invoice
// @ts-expect-error a card create needs chargeImmediately
export const heyCardWithout: HeyRequest = cardWithout

// orval: its fetch client's type, and its zod schema's
export const orvalCard: OrvalRequest = card
export const orvalInvoice: OrvalRequest = invoice
// @ts-expect-error a card create needs chargeImmediately
export const orvalCardWithout: OrvalRequest = cardWithout
type ZodRequest = z.input<typeof CreatePaymentBody>
export const zodCard: ZodRequest = card
export const zodInvoice: ZodRequest = invoice
// @ts-expect-error a card create needs chargeImmediately
export const zodCardWithout: ZodRequest = cardWithout

// @hey-api/openapi-ts
const hey = createHeyClient(createConfig({ baseUrl, auth: 'dev-api-key' }))
export const heyPartialRefund = async (): Promise<number | undefined> => {
  const body: MoneySplitPatch = { moneySplitPatch: [...refund.moneySplitPatch], newGrossAmount: refund.newGrossAmount }
  const { data } = await refundPartially({ client: hey, path: { paymentReferenceID: id }, headers: { 'idempotency-key': 'refund-2' }, body })
  return data?.refundedSplit[0]?.refundAmount
}
export const heyCreate = async (): Promise<string | undefined> => {
  const { data } = await createPayment({
    client: hey,
    body: {
      externalPaymentReferenceID: 'order-2',
      environment: 'test',
      paymentGateway: 'invoice',
      sellerConnectedAccountID: id,
      grossAmount: 100,
      currency: 'NOK',
      moneySplitList: [{ connectedAccountID: id, amount: 100, isFee: false }],
      customerExternalID: 'customer-1',
      successUrl: 'https://shop.example/ok',
      failedUrl: 'https://shop.example/failed'
    }
  })
  return data?.paymentIntent.paymentCreated.status
}
export const heyAdjust = async (): Promise<number | undefined> => {
  const entry: PatchEntry = { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: true }
  const { data } = await adjustInvoice({ client: hey, path: { paymentReferenceID: id }, body: { moneySplitPatch: [entry], newGrossAmount: 0 } })
  return data?.excessRefundedAmount
}
// @ts-expect-error UpdateAmount needs newAmount
export const heyMissingAmount: PatchEntry = { splitID: 1, updateType: 'UpdateAmount' }
`

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'paysplit-clients-'))
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir')
  const ast = await openapiTS(new URL(`file://${document}`))
  mkdirSync(join(scratch, 'openapi-typescript'))
  writeFileSync(join(scratch, 'openapi-typescript', 'schema.d.ts'), astToString(ast))
  await heyApi({ input: document, output: join(scratch, 'hey-api'), logs: { level: 'silent' } })
  for (const client of ['fetch', 'zod'] as const) {
    await orval({ input: { target: document }, output: { target: join(scratch, 'orval', `${client === 'fetch' ? 'client' : 'zod'}.ts`), client, mode: 'single' } })
  }
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }))
  writeFileSync(join(scratch, 'program.ts'), PROGRAM)
}, 60_000)

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
})

describe('clients generated from docs/openapi.json', () => {
  it('a create with only its required fields, a partial refund and an adjustment type-check through openapi-fetch and through @hey-api (strict); a card create without chargeImmediately does not, with openapi-typescript, @hey-api, orval and orval\'s zod', () => {
    const program = ts.createProgram([join(scratch, 'program.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      // as a front-end builds (Vite, webpack): @hey-api writes imports without extensions
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      skipLibCheck: true,
      exactOptionalPropertyTypes: false
    })
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file === undefined ? '' : `${d.file.fileName.replace(scratch, '')}:${String(d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1)} `
      return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
    })
    expect(diagnostics).toEqual([])
  })

  it('@hey-api writes one function per operation and none for a 405', () => {
    const sdk = readFileSync(join(scratch, 'hey-api', 'sdk.gen.ts'), 'utf8')
    const functions = [...sdk.matchAll(/^export const (\w+) =/gm)].map((m) => m[1])
    expect(functions).toEqual(['findPaymentByExternalReference', 'createPayment', 'getPayment', 'cancelPayment', 'chargePayment', 'refundPayment', 'refundPartially', 'adjustInvoice', 'getCustomer'])
  })

  it('openapi-typescript keeps newAmount and doDelete in the patch entry', () => {
    const schema = readFileSync(join(scratch, 'openapi-typescript', 'schema.d.ts'), 'utf8')
    expect(schema).toMatch(/PatchEntryUpdateAmount: \{\n(?: {12}.*\n)*? {12}newAmount: components\["schemas"\]\["Amount"\];/)
    expect(schema).toMatch(/PatchEntryDoDeleteSplitEntry: \{\n(?: {12}.*\n)*? {12}doDelete: boolean;/)
  })
})
