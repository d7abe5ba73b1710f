/**
 * The checkout page of docs/examples/checkout in a real browser: bundled by esbuild (paysplit/codecs,
 * fp-ts and io-ts included, as a front-end bundles them), served from 127.0.0.1 on an ephemeral
 * port and driven in headless Chromium (Debian's `/usr/bin/chromium`, through playwright-core).
 * The user types a bad amount: the message beside the field must be the one the codec gives in
 * Node for the request the page built, in English and in Norwegian; fixing it makes the form
 * valid. Rows are added and removed, a fee box ticked; a form wrong almost everywhere shows every
 * issue beside its field. A screenshot is saved as docs/checkout.png (the README shows it).
 * The same checkout with React Hook Form (docs/examples/checkout/react-hook-form.tsx, React bundled
 * in) shows every error beside its field in Norwegian through `withMessages(forForm(…), nb)`, sends
 * no empty optional field, and is saved as docs/forms-nb.png (docs/forms.md shows it).
 *
 * When Chromium is missing this test FAILS (it never skips): CI installs it first (`.ci/run`).
 * Run by `npm run test:browser` (.config/vitest.browser.config.ts).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveCheckout } from '../../docs/examples/checkout/serve.js'
import { decodePaymentIntentRequest, en, flattenIssues, formatIssue, nb, type Messages } from '../../src/codecs.js'

const screenshotPath = fileURLToPath(new URL('../../docs/checkout.png', import.meta.url))
const formsScreenshotPath = fileURLToPath(new URL('../../docs/forms-nb.png', import.meta.url))

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
  '--disable-sync',
  '--font-render-hinting=none'
]

interface Shown {
  readonly valid: boolean
  readonly status: string
  readonly request: unknown
  /** The text beside each field that shows a message, by path. */
  readonly fields: Readonly<Record<string, string>>
  /** Messages with no field of their own. */
  readonly others: ReadonlyArray<string>
}

const read = (page: Page): Promise<Shown> =>
  page.evaluate(() => ({
    valid: document.getElementById('status')?.dataset['valid'] === 'true',
    status: document.getElementById('status')?.textContent ?? '',
    request: JSON.parse(document.getElementById('request')?.textContent ?? 'null') as unknown,
    fields: Object.fromEntries(
      Array.from(document.querySelectorAll<HTMLElement>('[data-error-for]'))
        .filter((el) => (el.textContent ?? '') !== '')
        .map((el) => [el.dataset['errorFor'] ?? '', el.textContent ?? ''])
    ),
    others: Array.from(document.querySelectorAll('#other-errors li')).map((li) => li.textContent ?? '')
  }))

/** What the page must show for the request it built: the codec's messages in Node, by path. */
const expected = (request: unknown, messages: Messages): Record<string, string> => {
  const r = decodePaymentIntentRequest(request)
  const issues = r._tag === 'Left' ? (r.left.issues ?? []) : []
  return Object.fromEntries(Object.entries(flattenIssues(issues, messages)).map(([path, list]) => [path, list.join(' ')]))
}

describe('the checkout page in headless Chromium', () => {
  let server: Server | undefined
  let context: BrowserContext | undefined
  let page: Page
  let url = ''
  let userDataDir: string | undefined
  const pageErrors: string[] = []
  let setupError: Error | undefined

  /** The page, or the set-up error thrown: a missing Chromium fails each test, it never skips one. */
  const ready = (): Page => {
    if (setupError !== undefined) throw setupError
    return page
  }

  beforeAll(async () => {
    try {
      const executablePath = chromiumPath()
      if (!existsSync(executablePath)) {
        throw new Error(
          `Chromium not found (${executablePath}): the browser test needs it and does not skip. ` +
            'Install it with `apt-get update && apt-get install -y chromium` (.ci/run does), or set CHROMIUM_PATH.'
        )
      }
      ;({ server, url } = await serveCheckout(0))
      userDataDir = mkdtempSync(join(tmpdir(), 'paysplit-chromium-'))
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath,
        headless: true,
        args: ARGS,
        viewport: { width: 960, height: 1000 },
        deviceScaleFactor: 1
      })
      page = context.pages()[0] ?? (await context.newPage())
      page.on('pageerror', (e) => pageErrors.push(e.message))
    } catch (e) {
      setupError = e instanceof Error ? e : new Error(String(e))
    }
  })

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

  const open = async (): Promise<Page> => {
    const p = ready()
    await p.goto(url)
    await p.waitForSelector('body[data-ready="true"]')
    return p
  }

  it('opens valid, shows a bad amount beside its field in English and Norwegian, and is valid again once fixed', async () => {
    const p = await open()
    expect((await read(p)).valid).toBe(true)
    expect((await read(p)).status).toBe('Ready to pay.')

    // the user types a bad amount into the first split: -50, character by character
    await p.fill('input[name="moneySplitList.0.amount"]', '')
    await p.locator('input[name="moneySplitList.0.amount"]').pressSequentially('-50')
    let shown = await read(p)
    expect(shown.valid).toBe(false)
    expect(shown.fields).toStrictEqual(expected(shown.request, en))
    expect(shown.fields['moneySplitList.0.amount']).toBe(formatIssue({ reason: 'too_small', params: { min: 0 } }, en))
    expect(shown.fields['moneySplitList.0.amount']).toBe('Must be at least 0.')
    expect(await p.getAttribute('input[name="moneySplitList.0.amount"]', 'aria-invalid')).toBe('true')
    expect(shown.status).toBe('Problems to fix: 1.')
    expect(await p.isDisabled('#pay')).toBe(true)

    await p.click('button[data-lang="en"]')
    await p.screenshot({ path: screenshotPath, fullPage: true })

    // the same messages in Norwegian
    await p.click('button[data-lang="nb"]')
    shown = await read(p)
    expect(shown.fields).toStrictEqual(expected(shown.request, nb))
    expect(shown.fields['moneySplitList.0.amount']).toBe('Må være minst 0.')
    expect(shown.status).toBe('Feil å rette: 1.')
    expect(await p.textContent('[data-i18n="amount"]')).toBe('Beløp')

    // a decimal amount, then one that breaks the sum, then the right one
    await p.fill('input[name="moneySplitList.0.amount"]', '900.5')
    shown = await read(p)
    expect(shown.fields).toStrictEqual({ 'moneySplitList.0.amount': formatIssue({ reason: 'not_integer' }, nb) })
    await p.fill('input[name="moneySplitList.0.amount"]', '80000')
    shown = await read(p)
    expect(shown.fields).toStrictEqual({ grossAmount: formatIssue({ reason: 'sum_mismatch' }, nb) })
    await p.fill('input[name="moneySplitList.0.amount"]', '90000')
    shown = await read(p)
    expect(shown.fields).toStrictEqual({})
    expect(shown.valid).toBe(true)
    expect(shown.status).toBe('Klar til betaling.')
    expect(await p.isDisabled('#pay')).toBe(false)
    expect(decodePaymentIntentRequest(shown.request)._tag).toBe('Right')

    await p.click('button[data-lang="en"]')
    expect((await read(p)).status).toBe('Ready to pay.')
    expect(pageErrors).toStrictEqual([])
  })

  it('adds and removes split rows; a second fee split must name the same fee account', async () => {
    const p = await open()
    await p.click('#add-split')
    let shown = await read(p)
    // the new, empty row: its account and amount are required
    expect(shown.fields).toStrictEqual(expected(shown.request, en))
    expect(shown.fields['moneySplitList.2.connectedAccountID']).toBe('Required.')
    expect(shown.fields['moneySplitList.2.amount']).toBe('Required.')

    await p.fill('input[name="moneySplitList.2.connectedAccountID"]', '22222222-3333-4444-8555-666666666666')
    await p.fill('input[name="moneySplitList.2.amount"]', '0')
    await p.check('input[name="moneySplitList.2.isFee"]')
    shown = await read(p)
    expect(shown.fields).toStrictEqual({
      'moneySplitList.2.connectedAccountID': formatIssue({ reason: 'fee_account_differs' }, en)
    })

    // removing the first row renumbers the others: the sum no longer matches
    await p.click('#splits tr:first-child button.remove')
    shown = await read(p)
    expect((shown.request as { moneySplitList: unknown[] }).moneySplitList).toHaveLength(2)
    expect(shown.fields).toStrictEqual(expected(shown.request, en))
    expect(Object.keys(shown.fields).sort()).toStrictEqual(['grossAmount', 'moneySplitList.1.connectedAccountID'])
    expect(pageErrors).toStrictEqual([])
  })

  it('shows every issue of a form wrong almost everywhere beside its field, exactly as the codec in Node, in both languages', async () => {
    const p = await open()
    const bad: Readonly<Record<string, string>> = {
      externalPaymentReferenceID: '',
      sellerConnectedAccountID: 'seller-1',
      grossAmount: '100.5',
      'moneySplitList.0.amount': '-5',
      'moneySplitList.1.connectedAccountID': 'xyz',
      customerExternalID: '',
      'customer.email': 'kari@localhost',
      'customer.mobilePrefix': '47',
      'customer.mobile': '12',
      successUrl: 'ftp://shop.example/ok'
    }
    for (const [name, value] of Object.entries(bad)) await p.fill(`input[name="${name}"]`, value)
    for (const language of ['en', 'nb'] as const) {
      await p.click(`button[data-lang="${language}"]`)
      const shown = await read(p)
      expect(shown.fields).toStrictEqual(expected(shown.request, language === 'en' ? en : nb))
      expect(Object.keys(shown.fields).sort()).toStrictEqual(
        [
          'customer.email',
          'customer.mobile',
          'customer.mobilePrefix',
          'customerExternalID',
          'externalPaymentReferenceID',
          'grossAmount',
          'moneySplitList.0.amount',
          'moneySplitList.1.connectedAccountID',
          'sellerConnectedAccountID',
          'successUrl'
        ].sort()
      )
      expect(shown.others).toStrictEqual([])
    }
    expect(pageErrors).toStrictEqual([])
  })

  describe('the same checkout with React Hook Form, in Norwegian (withMessages(forForm(PaymentIntentRequest), nb))', () => {
    /** The message beside each field that shows one, by path. */
    const shownErrors = (p: Page): Promise<Record<string, string>> =>
      p.evaluate(() =>
        Object.fromEntries(
          Array.from(document.querySelectorAll<HTMLElement>('[data-error-for]'))
            .filter((el) => (el.textContent ?? '') !== '')
            .map((el) => [el.dataset['errorFor'] ?? '', el.textContent ?? ''])
        )
      )
    const sent = async (p: Page): Promise<unknown> => {
      const text = (await p.textContent('#request')) ?? ''
      return text === '' ? undefined : (JSON.parse(text) as unknown)
    }
    const submit = async (p: Page, valid: boolean): Promise<void> => {
      await p.click('#pay')
      await p.waitForSelector(`#status[data-valid="${String(valid)}"]`)
    }

    it('an empty optional e-mail is left out, and what the form sends the strict codec accepts', async () => {
      const p = ready()
      await p.goto(`${url}react-hook-form`)
      await p.waitForSelector('form#checkout')
      await p.fill('input[name="customer.email"]', '')
      await submit(p, true)
      expect(await shownErrors(p)).toStrictEqual({})
      const request = (await sent(p)) as { customer?: Record<string, unknown>; description?: unknown; moneySplitList: Array<Record<string, unknown>> }
      expect(request.customer).toStrictEqual({ name: 'Kari Nordmann' })
      expect(Object.hasOwn(request, 'description')).toBe(false)
      expect(Object.hasOwn(request.moneySplitList[1] ?? {}, 'description')).toBe(false)
      expect(decodePaymentIntentRequest(request)._tag).toBe('Right')
      expect(await p.textContent('#status')).toBe('Klar til betaling.')
      expect(pageErrors).toStrictEqual([])
    })

    it('every error beside its field in Norwegian: a bad e-mail, an empty amount, a bad account, a too-long URL, no split at all', async () => {
      const p = ready()
      await p.goto(`${url}react-hook-form`)
      await p.waitForSelector('form#checkout')
      await p.fill('input[name="customer.email"]', 'kari@localhost')
      await p.fill('input[name="customer.mobile"]', '12')
      await p.fill('input[name="grossAmount"]', '')
      await p.fill('input[name="moneySplitList.0.connectedAccountID"]', 'konto-1')
      await p.fill('input[name="successUrl"]', `https://butikk.example.no/${'a'.repeat(2048)}`)
      await submit(p, false)
      expect(await shownErrors(p)).toStrictEqual({
        grossAmount: 'Må fylles ut.',
        'moneySplitList.0.connectedAccountID': 'Må være en gyldig UUID.',
        'customer.email': 'Må være en gyldig e-postadresse.',
        'customer.mobile': 'Må være et gyldig mobilnummer.',
        successUrl: formatIssue({ reason: 'too_long', params: { max: 2048 } }, nb)
      })
      expect(formatIssue({ reason: 'too_long', params: { max: 2048 } }, nb)).toBe('Kan ikke være lengre enn 2048 tegn.')
      expect(await sent(p)).toBeUndefined()
      await p.screenshot({ path: formsScreenshotPath, fullPage: true })

      // fixing a field clears its message as the user types (React Hook Form re-validates on change)
      await p.fill('input[name="customer.email"]', '')
      await p.fill('input[name="customer.mobile"]', '')
      await p.fill('input[name="grossAmount"]', '100000')
      await p.fill('input[name="moneySplitList.0.connectedAccountID"]', '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f')
      await p.fill('input[name="successUrl"]', 'https://butikk.example.no/betalt')
      await expect.poll(() => shownErrors(p)).toStrictEqual({})

      // no split at all: the list's own message, with its Norwegian plural form
      await p.click('.split:nth-of-type(2) button.remove')
      await p.click('.split button.remove')
      await submit(p, false)
      expect(await shownErrors(p)).toStrictEqual({ moneySplitList: 'Må ha minst 1 oppføring.' })
      expect(pageErrors).toStrictEqual([])
    })
  })
})
