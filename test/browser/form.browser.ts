/**
 * paysplit/codecs in a real browser: the form of `page.ts`, bundled by esbuild from src (as a
 * front-end bundles `paysplit/codecs`, fp-ts and io-ts included), served from 127.0.0.1 on an
 * ephemeral port and loaded in headless Chromium (Debian's `/usr/bin/chromium`, driven by
 * playwright-core). The form is filled with invalid values and submitted; every field error is
 * read back from the DOM and must be exactly what `decodePaymentIntentRequest` says in Node for
 * the request the page built. When Chromium is missing this test FAILS (it never skips): CI
 * installs it first (`.ci/run`).
 *
 * Run by `npm run test:browser` (its own vitest config, .config/vitest.browser.config.ts), not by
 * `npm test`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodePaymentIntentRequest } from '../../src/codecs.js'
import type { Issue } from '../../src/errors.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const codecsSource = fileURLToPath(new URL('../../src/codecs.ts', import.meta.url))

/** `$CHROMIUM_PATH`, else `chromium` on the PATH, else Debian's path. */
const chromiumPath = (): string => {
  const fromEnv = process.env['CHROMIUM_PATH']
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim()
    if (found !== '') return found
  } catch {
    // not on the PATH
  }
  return '/usr/bin/chromium'
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]

const field = (label: string, name: string, type = 'text'): string =>
  `<label>${label} <input type="${type}" name="${name}"></label> <span class="error" data-error-for="${name}"></span><br>`

const split = (i: number): string =>
  `<fieldset><legend>split ${String(i + 1)}</legend>` +
  field('connected account', `moneySplitList.${String(i)}.connectedAccountID`) +
  field('amount', `moneySplitList.${String(i)}.amount`) +
  field('description', `moneySplitList.${String(i)}.description`) +
  field('platform fee', `moneySplitList.${String(i)}.isFee`, 'checkbox') +
  '</fieldset>'

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>paysplit form</title></head>
<body>
<form novalidate>
${field('order reference', 'externalPaymentReferenceID')}
${field('environment', 'environment')}
${field('gateway', 'paymentGateway')}
${field('charge at once', 'chargeImmediately', 'checkbox')}
${field('seller account', 'sellerConnectedAccountID')}
${field('description', 'description')}
${field('gross amount', 'grossAmount')}
${field('currency', 'currency')}
<span class="error" data-error-for="moneySplitList"></span>
${split(0)}
${split(1)}
${field('customer ID', 'customerExternalID')}
${field('name', 'customer.name')}
${field('e-mail', 'customer.email')}
${field('mobile prefix', 'customer.mobilePrefix')}
${field('mobile', 'customer.mobile')}
${field('success URL', 'successUrl')}
${field('failure URL', 'failedUrl')}
<button type="submit">Pay</button>
</form>
<p id="summary"></p>
<ul id="errors"></ul>
<pre id="request"></pre>
<script src="/page.js"></script>
</body></html>`

const SELLER = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const FEE = '11111111-2222-4333-8444-555555555555'

/** A filled-in form with a problem in almost every field. */
const invalidValues: Readonly<Record<string, string>> = {
  externalPaymentReferenceID: '', // left empty: required
  environment: 'staging',
  paymentGateway: 'creditcard',
  sellerConnectedAccountID: 'seller-1',
  description: 'Two concert tickets',
  grossAmount: '100.5',
  currency: 'nok',
  'moneySplitList.0.connectedAccountID': SELLER,
  'moneySplitList.0.amount': '-5',
  'moneySplitList.1.connectedAccountID': 'xyz',
  'moneySplitList.1.amount': '50',
  customerExternalID: '', // left empty: MissingCustomerExternalID
  'customer.name': 'Kari Nordmann',
  'customer.email': 'kari@localhost',
  'customer.mobilePrefix': '47',
  'customer.mobile': '12',
  successUrl: 'ftp://shop.example/ok',
  failedUrl: 'https://shop.example/failed'
}

const validValues: Readonly<Record<string, string>> = {
  ...invalidValues,
  externalPaymentReferenceID: 'order-1001',
  environment: 'test',
  sellerConnectedAccountID: SELLER,
  grossAmount: '10000',
  currency: 'NOK',
  'moneySplitList.0.amount': '9000',
  'moneySplitList.1.connectedAccountID': FEE,
  'moneySplitList.1.amount': '1000',
  customerExternalID: 'customer-42',
  'customer.email': 'kari.nordmann@example.no',
  'customer.mobilePrefix': '+47',
  'customer.mobile': '91234567',
  successUrl: 'https://shop.example/ok'
}

interface Shown {
  readonly summary: string
  readonly request: unknown
  readonly issues: ReadonlyArray<Pick<Issue, 'path' | 'code' | 'message'>>
  /** The text next to each field that shows an error. */
  readonly fieldErrors: Readonly<Record<string, string>>
}

const submit = async (page: Page, values: Readonly<Record<string, string>>, fees: ReadonlyArray<number>): Promise<Shown> => {
  await page.reload()
  await page.waitForSelector('body[data-ready="true"]')
  for (const [name, value] of Object.entries(values)) await page.fill(`input[name="${name}"]`, value)
  for (const i of fees) await page.check(`input[name="moneySplitList.${String(i)}.isFee"]`)
  await page.click('button[type="submit"]')
  await page.waitForFunction(() => (document.getElementById('summary')?.textContent ?? '') !== '')
  return page.evaluate(() => ({
    summary: document.getElementById('summary')?.textContent ?? '',
    request: JSON.parse(document.getElementById('request')?.textContent ?? 'null') as unknown,
    issues: Array.from(document.querySelectorAll<HTMLLIElement>('#errors li')).map((li) => ({
      path: li.dataset['path'] ?? '',
      code: li.dataset['code'] as Issue['code'],
      message: li.textContent ?? ''
    })),
    fieldErrors: Object.fromEntries(
      Array.from(document.querySelectorAll<HTMLElement>('[data-error-for]'))
        .filter((el) => (el.textContent ?? '') !== '')
        .map((el) => [el.dataset['errorFor'] ?? '', el.textContent ?? ''])
    )
  }))
}

describe('paysplit/codecs in headless Chromium', () => {
  let server: Server | undefined
  let context: BrowserContext | undefined
  let page: Page
  let userDataDir: string | undefined
  const pageErrors: string[] = []
  /** Why the browser could not be set up; every test then fails with it (none is skipped). */
  let setupError: Error | undefined

  /** The page, or the set-up error thrown: a missing Chromium fails each test, it never skips one. */
  const ready = (): Page => {
    if (setupError !== undefined) throw setupError
    return page
  }

  beforeAll(async () => {
    try {
      await setUp()
    } catch (e) {
      setupError = e instanceof Error ? e : new Error(String(e))
    }
  })

  const setUp = async (): Promise<void> => {
    const executablePath = chromiumPath()
    if (!existsSync(executablePath)) {
      throw new Error(
        `Chromium not found (${executablePath}): the browser test needs it and does not skip. ` +
          'Install it with `apt-get update && apt-get install -y chromium` (.ci/run does), or set CHROMIUM_PATH.'
      )
    }
    const bundle = await build({
      entryPoints: [join(here, 'page.ts')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      write: false,
      alias: { 'paysplit/codecs': codecsSource },
      logLevel: 'error'
    })
    const script = (bundle.outputFiles[0] as { readonly text: string }).text
    server = createServer((req, res) => {
      if (req.url === '/page.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script)
      } else if (req.url === '/' || req.url === '/index.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
      } else {
        res.writeHead(404).end()
      }
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    userDataDir = mkdtempSync(join(tmpdir(), 'paysplit-chromium-'))
    context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: ARGS })
    page = context.pages()[0] ?? (await context.newPage())
    page.on('pageerror', (e) => pageErrors.push(e.message))
    await page.goto(`http://127.0.0.1:${String(port)}/`)
  }

  afterAll(async () => {
    await context?.close()
    await new Promise<void>((resolve) => {
      if (server === undefined) resolve()
      else server.close(() => {
        resolve()
      })
    })
    if (userDataDir !== undefined) rmSync(userDataDir, { recursive: true, force: true })
  })

  it('shows every field error of an invalid form, exactly as the codec in Node reports them', async () => {
    const shown = await submit(ready(), invalidValues, [1])
    expect(pageErrors).toStrictEqual([])

    // the same request decoded in Node gives the same error, issue for issue
    const inNode = decodePaymentIntentRequest(shown.request)
    if (inNode._tag !== 'Left') throw new Error('the request should be invalid')
    expect(shown.summary).toBe(inNode.left.code)
    expect(shown.summary).toBe('MissingCustomerExternalID')
    expect(shown.issues).toStrictEqual(inNode.left.issues)

    // one error per wrong field, each next to its field
    expect(shown.issues.map((i) => i.path)).toStrictEqual([
      'externalPaymentReferenceID',
      'environment',
      'sellerConnectedAccountID',
      'grossAmount',
      'currency',
      'moneySplitList.0.amount',
      'moneySplitList.1.connectedAccountID',
      'customerExternalID',
      'customer.email',
      'customer.mobilePrefix',
      'customer.mobile',
      'successUrl'
    ])
    for (const issue of shown.issues) expect(shown.fieldErrors[issue.path]).toBe(issue.message)
    expect(Object.keys(shown.fieldErrors).sort()).toStrictEqual(shown.issues.map((i) => i.path).sort())
    expect(shown.issues.find((i) => i.path === 'customerExternalID')?.code).toBe('MissingCustomerExternalID')
  })

  it('accepts the same form filled in correctly', async () => {
    const shown = await submit(ready(), validValues, [1])
    expect(pageErrors).toStrictEqual([])
    expect(shown.issues).toStrictEqual([])
    expect(shown.summary).toBe('valid')
    expect(decodePaymentIntentRequest(shown.request)._tag).toBe('Right')
  })

  it('reports the gross amount that differs from the splits (a rule across fields)', async () => {
    const shown = await submit(ready(), { ...validValues, grossAmount: '9999' }, [1])
    expect(shown.summary).toBe('GrossAmountMismatch')
    expect(shown.issues.map((i) => [i.path, i.code])).toStrictEqual([['grossAmount', 'GrossAmountMismatch']])
    expect(shown.fieldErrors['grossAmount']).toBe('Must be the sum of the split amounts.')
  })
})
