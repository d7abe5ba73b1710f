/**
 * `npm run checkout`: bundles the checkout pages' scripts with esbuild (paysplit/codecs, fp-ts and
 * io-ts included, as a front-end bundler would) and serves them on http://127.0.0.1:4173/ (the page
 * without a form library) and http://127.0.0.1:4173/react-hook-form (React Hook Form, in
 * Norwegian); `PORT` to change it. The browser test (test/browser/checkout.browser.ts) serves them
 * the same way.
 *
 * It is the shop's back end too, as small as one can be: Pay posts the request to
 * `POST /api/payments`, which sends it on to the payments service at `PAYMENTS_URL` (default
 * http://127.0.0.1:4010, where `npx paysplit-check mock` listens) with `PAYMENTS_API_KEY` as its
 * bearer key when set (a key stays on the server), and answers with the service's answer and the
 * url of its hosted payment form; `/paid` and `/failed` are the pages the form sends the customer
 * back to.
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = new URL('.', import.meta.url)

/** A page's script, bundled for the browser (minified, as shipped). */
const bundle = async (entry: string): Promise<string> => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, here))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    // the repository's source; an application imports the installed package instead
    alias: { 'paysplit/codecs': fileURLToPath(new URL('../../../src/codecs.ts', here)) },
    // React's automatic runtime, in its production build
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error'
  })
  return (result.outputFiles[0] as { readonly text: string }).text
}

/** The page and its script, bundled for the browser (minified, as shipped). */
export const bundleCheckout = async (): Promise<{ readonly html: string; readonly script: string }> => ({
  html: readFileSync(new URL('index.html', here), 'utf8'),
  script: await bundle('checkout.ts')
})

/** The React Hook Form page (react-hook-form.html) and its script, React included. */
export const bundleReactHookForm = async (): Promise<{ readonly html: string; readonly script: string }> => ({
  html: readFileSync(new URL('react-hook-form.html', here), 'utf8'),
  script: await bundle('react-hook-form.tsx')
})

/** Where the shop's back end sends payments, and its key there. */
export interface PaymentsService {
  /** The payments service's base url (default `PAYMENTS_URL`, else http://127.0.0.1:4010: the mock). */
  readonly url?: string
  /** Its bearer key (default `PAYMENTS_API_KEY`, else none: the mock checks none). */
  readonly apiKey?: string
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    req.on('error', reject)
  })

/**
 * `POST /api/payments`: the request on to the payments service, its answer back, with
 * `formUrl`, the service's hosted form for the payment created (`/pay/{id}`, as the reference
 * service and the mock serve it). 502 when the service does not answer.
 */
const createPayment = async (req: IncomingMessage, res: ServerResponse, payments: Required<PaymentsService>): Promise<void> => {
  const body = await readBody(req)
  let answer: Response
  try {
    answer = await fetch(`${payments.url}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(payments.apiKey === '' ? {} : { authorization: `Bearer ${payments.apiKey}` }) },
      body,
      signal: AbortSignal.timeout(10_000)
    })
  } catch {
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `The payments service at ${payments.url} did not answer.` }))
    return
  }
  const parsed = (await answer.json().catch(() => undefined)) as { paymentIntent?: { paymentCreated?: { paymentReferenceID?: unknown } } } | undefined
  const id = parsed?.paymentIntent?.paymentCreated?.paymentReferenceID
  const formUrl = typeof id === 'string' ? `${payments.url}/pay/${encodeURIComponent(id)}` : undefined
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ ...(parsed ?? {}), ...(formUrl === undefined ? {} : { formUrl }) }))
}

/** The page the hosted form sends the customer back to. */
const returnPage = (paid: boolean): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${paid ? 'Paid' : 'Not paid'}</title></head><body><h1>${paid ? 'Thank you: the payment went through.' : 'The payment did not go through.'}</h1><p><a href="/">Back to the checkout</a></p></body></html>`

/** Serves the page on 127.0.0.1 (`port` 0: any free port); resolves to the server and its url. */
export const serveCheckout = async (port = 0, service: PaymentsService = {}): Promise<{ readonly server: Server; readonly url: string }> => {
  const [{ html, script }, rhf] = await Promise.all([bundleCheckout(), bundleReactHookForm()])
  const payments = {
    url: (service.url ?? process.env['PAYMENTS_URL'] ?? 'http://127.0.0.1:4010').replace(/\/+$/, ''),
    apiKey: service.apiKey ?? process.env['PAYMENTS_API_KEY'] ?? ''
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const js = { 'content-type': 'text/javascript; charset=utf-8' }
    const page = { 'content-type': 'text/html; charset=utf-8' }
    if (path === '/api/payments' && req.method === 'POST') {
      void createPayment(req, res, payments)
    } else if (path === '/paid' || path === '/failed') {
      res.writeHead(200, page).end(returnPage(path === '/paid'))
    } else if (path === '/checkout.js') {
      res.writeHead(200, js).end(script)
    } else if (path === '/' || path === '/index.html') {
      res.writeHead(200, page).end(html)
    } else if (path === '/react-hook-form.js') {
      res.writeHead(200, js).end(rhf.script)
    } else if (path === '/react-hook-form') {
      res.writeHead(200, page).end(rhf.html)
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: bound } = server.address() as AddressInfo
  return { server, url: `http://127.0.0.1:${String(bound)}/` }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { url } = await serveCheckout(Number(process.env['PORT'] ?? '4173'))
  console.log(`checkout page on ${url}, with React Hook Form on ${url}react-hook-form; Pay creates the payment at ${process.env['PAYMENTS_URL'] ?? 'http://127.0.0.1:4010'} (npx paysplit-check mock)`)
}
