/**
 * The reference service in action (`npm run demo`): a webhook receiver that verifies every
 * message with the standardwebhooks package, the service on an in-memory PGlite (ephemeral
 * ports on 127.0.0.1), and a scripted session over real HTTP: a card payment through the hosted
 * form, charge, partial and full refund; an invoice paid by two bank transfers by KID; a transfer
 * nobody's KID matches, parked. Prints each request, answer and webhook, then the tables.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { devApiKey, devBankKey, loadConfig } from './config.js'
import { createService } from './server.js'

const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const VENUE = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'
const PLATFORM_FEES = '11111111-2222-4333-8444-555555555555'

const print = (line: string): void => {
  console.log(line)
}
const indent = (s: string): string => s.replace(/^/gm, '    ')

const config = loadConfig({ DEV_MODE: '1', PORT: '0', WEBHOOK_POLL_MS: '50' })
const verifier = new Webhook(config.webhookSecrets[0] ?? '')
const receiver = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8')
    let verified = 'signature verified'
    try {
      verifier.verify(raw, req.headers as Record<string, string>)
    } catch {
      verified = 'SIGNATURE REFUSED'
    }
    const hook = JSON.parse(raw) as { eventType: string; payload: { payment: { paymentCreated: { status: string; grossAmount: number } } } }
    const p = hook.payload.payment.paymentCreated
    print(`  webhook → ${req.url ?? ''}: ${hook.eventType} webhook-id ${String(req.headers['webhook-id'])} (status ${p.status}, gross ${String(p.grossAmount)}; ${verified})`)
    res.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const hooks = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`

const service = await createService({ ...config, catchAllUrl: `${hooks}/all` })
const base = await service.listen()
print(`payments service on ${base} (PGlite in memory), webhooks to ${hooks}/all`)

/** Waits until the outbox has nothing pending, so the webhooks print beside their request. */
const settle = async (): Promise<void> => {
  for (;;) {
    const r = await service.db.query<{ n: string }>("SELECT count(*)::text AS n FROM outbox WHERE status = 'pending'")
    if (r.rows[0]?.n === '0') return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const send = async (method: string, path: string, body?: unknown, key: string = devApiKey, form?: string): Promise<{ status: number; body: unknown; text: string }> => {
  print('')
  print(`> ${method} ${path}`)
  if (body !== undefined) print(indent(JSON.stringify(body)))
  if (form !== undefined) print(indent(form.replace(/token=[^&]*/, 'token=…')))
  const res = await fetch(base + path, {
    method,
    redirect: 'manual',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(form === undefined ? {} : { body: form })
  })
  const text = await res.text()
  const location = res.headers.get('location')
  print(`< ${String(res.status)}${location !== null ? ` Location: ${location}` : ''}`)
  let parsed: unknown = undefined
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
    if (parsed !== undefined) print(indent(JSON.stringify(parsed)))
  } catch {
    print(indent(`(${String(text.length)} characters of HTML)`))
  }
  await settle()
  return { status: res.status, body: parsed, text }
}

try {
  const request = {
    externalPaymentReferenceID: 'order-1001',
    environment: 'test',
    paymentGateway: 'creditcard',
    chargeImmediately: false,
    sellerConnectedAccountID: SELLER,
    grossAmount: 50000,
    currency: 'NOK',
    description: 'Concert tickets',
    moneySplitList: [
      { connectedAccountID: SELLER, amount: 40000, description: 'Concert tickets', isFee: false },
      { connectedAccountID: VENUE, amount: 7500, description: 'Venue share', isFee: false },
      { connectedAccountID: PLATFORM_FEES, amount: 2500, description: 'Platform fee', isFee: true }
    ],
    customerExternalID: 'customer-42',
    customer: { name: 'Kari Nordmann', email: 'kari@example.no', customerType: 'Individual' },
    webhookSubscriptions: [{ eventType: 'ChargedPayment', url: `${hooks}/charged` }],
    successUrl: 'https://shop.example/ok',
    failedUrl: 'https://shop.example/failed'
  }
  const created = await send('POST', '/payments', request)
  const id = (created.body as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated.paymentReferenceID
  await send('POST', '/payments', request) // an identical repeat: 200, the same payment, no webhook
  await send('POST', '/payments', request, 'wrong-key') // 401

  print('')
  print(`(the customer opens ${base}/pay/${id} and presses Pay)`)
  const page = await send('GET', `/pay/${id}`)
  // the Pay button's form carries the token the page was issued with
  const token = /action="\/pay\/[^/"]+\/complete"><input type="hidden" name="token" value="([^"]+)"/.exec(page.text)?.[1] ?? ''
  await send('POST', `/pay/${id}/complete`, undefined, devApiKey, new URLSearchParams({ token }).toString())
  await send('POST', `/payments/${id}/charge`)
  await send('POST', `/payments/${id}/refund/partially`, {
    moneySplitPatch: [
      { splitID: 1, updateType: 'UpdateAmount', newAmount: 30000 },
      { splitID: 2, updateType: 'DoNothing' },
      { splitID: 3, updateType: 'DoNothing' }
    ],
    newGrossAmount: 40000
  })
  await send('POST', `/payments/${id}/cancel`) // 409: a charged payment cannot be cancelled
  await send('POST', `/payments/${id}/refund`)

  const invoice = await send('POST', '/payments', { ...request, externalPaymentReferenceID: 'invoice-2001', paymentGateway: 'invoice', chargeImmediately: undefined, webhookSubscriptions: [] })
  const invoiceId = (invoice.body as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent.paymentCreated.paymentReferenceID
  const kid = (await service.db.query<{ kid: string }>('SELECT kid FROM payments WHERE payment_reference_id = $1', [invoiceId])).rows[0]?.kid ?? ''
  print('')
  print(`(the bank reports two transfers with the invoice's KID ${kid}, then one with a KID nobody holds)`)
  await send('POST', '/bank/transfers', { kid, amount: 20000 }, devBankKey)
  await send('POST', '/bank/transfers', { kid, amount: 30000 }, devBankKey)
  await send('POST', '/bank/transfers', { kid: '12345678903', amount: 5000 }, devBankKey)

  print('')
  for (const [title, sql] of [
    ['payments', 'SELECT external_payment_reference_id AS ref, kind, status, version FROM payments ORDER BY created_at'],
    ['payment_events', 'SELECT left(payment_reference_id::text, 8) AS payment, version, type FROM payment_events ORDER BY at, version'],
    ['outbox', "SELECT left(webhook_id, 8) || '…:' || event_version AS webhook_id, regexp_replace(url, '^.*/', '/') AS url, event_type, status, attempts FROM outbox ORDER BY id"],
    ['unmatched_transfers', 'SELECT kid, amount::text AS amount FROM unmatched_transfers']
  ] as const) {
    print(`${title}:`)
    for (const row of (await service.db.query(sql)).rows) print(`  ${JSON.stringify(row)}`)
  }
} finally {
  await service.close()
  await new Promise<void>((resolve) => {
    receiver.close(() => {
      resolve()
    })
    receiver.closeAllConnections()
  })
}
