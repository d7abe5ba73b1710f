/**
 * The reference server in action: starts a webhook receiver and the payments server on loopback
 * (ephemeral ports), drives a short scripted session over real HTTP, and prints each request,
 * response and webhook received. Run: `npx tsx docs/examples/server-demo.ts`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { createPaymentsServer } from './server.js'

const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const VENUE = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'
const PLATFORM_FEES = '11111111-2222-4333-8444-555555555555'

const indent = (s: string): string => s.replace(/^/gm, '    ')

/** Runs the session; `print` receives each line. */
export const runServerDemo = async (print: (line: string) => void = console.log): Promise<void> => {
  // a webhook receiver: the shop's endpoint
  const received: Array<string> = []
  const receiver = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const hook = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        eventID: string
        eventType: string
        payload: { payment: { paymentCreated: { status: string; grossAmount: number } } }
      }
      const line = `webhook → ${req.url ?? ''}: ${hook.eventType} ${hook.eventID} (status ${hook.payload.payment.paymentCreated.status}, gross ${String(hook.payload.payment.paymentCreated.grossAmount)})`
      received.push(line)
      print(`  ${line}`)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const hooks = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`

  const payments = createPaymentsServer({ catchAllUrl: `${hooks}/all`, webhooks: { baseDelayMs: 10 } })
  const base = await payments.listen()
  print(`payments server on ${base}, webhooks to ${hooks}/all`)

  const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    print('')
    print(`> ${method} ${path}`)
    if (body !== undefined) print(indent(JSON.stringify(body)))
    const res = await fetch(base + path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
    })
    const text = await res.text()
    const parsed: unknown = text === '' ? undefined : JSON.parse(text)
    print(`< ${String(res.status)}`)
    print(indent(JSON.stringify(parsed)))
    await payments.idle()
    return { status: res.status, body: parsed }
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
    const id = (created.body as { paymentIntent: { paymentCreated: { paymentReferenceID: string } } }).paymentIntent
      .paymentCreated.paymentReferenceID
    await send('POST', '/payments', request) // idempotent repeat: 200, no webhook

    print('')
    print('(the customer completes the payment form)')
    await payments.completeForm(id)
    await payments.idle()

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
    await send('GET', '/payments') // 405

    const deliveries = await payments.deliveries()
    print('')
    print(`${String(deliveries.length)} webhook deliveries: ${deliveries.map((d) => `${d.eventType}→${d.state}`).join(', ')}`)
  } finally {
    await payments.close()
    await new Promise<void>((resolve) => {
      receiver.close(() => {
        resolve()
      })
      receiver.closeAllConnections()
    })
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runServerDemo()
}
