/**
 * The hosted payment form in a real browser (`npm run test:postgres`; headless Chromium driven by
 * playwright-core, Debian's /usr/bin/chromium, which CI installs first): open `/pay/{id}`, click
 * Pay (the page's token, under its CSP), land on the shop's successUrl; a signed `Charged` webhook
 * arrives; a live payment's page without a live card gateway offers no Pay. With
 * UPDATE_SCREENSHOT=1 the form page is saved to docs/service-form.png (the picture in the docs).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardRequest, FEE_ACCOUNT, SELLER } from '../support/http.fixtures.js'
import { call, eventually, Receiver, startService, testDb, type Running, type TestDb } from '../support/reference-service.fixtures.js'

const screenshot = fileURLToPath(new URL('../../docs/service-form.png', import.meta.url))

let database: TestDb
let running: Running
let receiver: Receiver
let shop: Server
let shopBase = ''
let browser: Browser

beforeAll(async () => {
  receiver = new Receiver()
  const hooks = await receiver.start()
  shop = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Thank you (${req.url ?? ''})</h1>`)
  })
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
  shopBase = `http://127.0.0.1:${String((shop.address() as AddressInfo).port)}`
  database = await testDb()
  running = await startService(database.db, { CATCH_ALL_URL: `${hooks}/all` })
  browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
  })
})

afterAll(async () => {
  await browser.close()
  await running.service.close()
  await database.close()
  await receiver.stop()
  await new Promise<void>((resolve) => shop.close(() => {
    resolve()
  }))
})

describe('the hosted payment form in Chromium', () => {
  it('open /pay/{id}, click Pay: the browser lands on successUrl and a signed Charged webhook arrives', async () => {
    const r = await call(
      running.base,
      'POST',
      '/payments',
      cardRequest({
        externalPaymentReferenceID: 'browser-1',
        chargeImmediately: true,
        description: 'Concert tickets, Oslo Spektrum',
        grossAmount: 125000,
        moneySplitList: [
          { connectedAccountID: SELLER, amount: 110000, isFee: false, description: '2 × standing ticket' },
          { connectedAccountID: SELLER, amount: 7500, isFee: false, description: 'Ticket insurance' },
          { connectedAccountID: FEE_ACCOUNT, amount: 7500, isFee: true, description: 'Service fee' }
        ],
        successUrl: `${shopBase}/ok`,
        failedUrl: `${shopBase}/failed`
      })
    )
    expect(r.status).toBe(201)
    const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
    const page = await browser.newPage({ viewport: { width: 640, height: 560 } })
    const violations: Array<string> = []
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) violations.push(m.text())
    })
    await page.goto(`${running.base}/pay/${id}`)
    // the inline style is allowed by its hash: the page is styled, and nothing was blocked
    expect(await page.locator('.amount').evaluate((e) => getComputedStyle(e).fontWeight)).toBe('700')
    expect(await page.locator('.amount').innerText()).toBe('1 250.00 NOK'.replace(' ', '\u202f'))
    expect(await page.locator('tbody tr').count()).toBe(3)
    await expect(page.getByRole('button', { name: 'Cancel' }).isVisible()).resolves.toBe(true)
    if (process.env['UPDATE_SCREENSHOT'] === '1') await page.screenshot({ path: screenshot })
    await Promise.all([page.waitForURL(`${shopBase}/ok`), page.getByRole('button', { name: /^Pay / }).click()])
    expect(page.url()).toBe(`${shopBase}/ok`)
    await eventually(() => receiver.for('/all', id).some((m) => m.body.eventType === 'Charged'))
    const charged = receiver.for('/all', id).find((m) => m.body.eventType === 'Charged')
    expect(charged?.verified).toBe(true)
    expect(charged?.headers['webhook-id']).toBe(`${id}:2`)
    expect(violations).toStrictEqual([])
    await page.close()
  })

  it('a live payment without a live card gateway: the page says so and offers no Pay', async () => {
    const r = await call(running.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'browser-live', environment: 'production', successUrl: `${shopBase}/ok`, failedUrl: `${shopBase}/failed` }))
    expect(r.status).toBe(201)
    const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
    const page = await browser.newPage()
    await page.goto(`${running.base}/pay/${id}`)
    expect(await page.locator('.notice').innerText()).toContain('no live card gateway configured')
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    await Promise.all([page.waitForURL(`${shopBase}/failed`), page.getByRole('button', { name: 'Cancel' }).click()])
    await page.close()
  })
})
