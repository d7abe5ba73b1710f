/**
 * `npm run checkout`: bundles the checkout page's script with esbuild (paysplit/codecs, fp-ts and
 * io-ts included, as a front-end bundler would) and serves the page on http://127.0.0.1:4173/
 * (`PORT` to change it). The browser test (test/browser/checkout.browser.ts) serves it the same way.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = new URL('.', import.meta.url)

/** The page and its script, bundled for the browser (minified, as shipped). */
export const bundleCheckout = async (): Promise<{ readonly html: string; readonly script: string }> => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('checkout.ts', here))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    // the repository's source; an application imports the installed package instead
    alias: { 'paysplit/codecs': fileURLToPath(new URL('../../../src/codecs.ts', here)) },
    logLevel: 'error'
  })
  const script = (result.outputFiles[0] as { readonly text: string }).text
  return { html: readFileSync(new URL('index.html', here), 'utf8'), script }
}

/** Serves the page on 127.0.0.1 (`port` 0: any free port); resolves to the server and its url. */
export const serveCheckout = async (port = 0): Promise<{ readonly server: Server; readonly url: string }> => {
  const { html, script } = await bundleCheckout()
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/checkout.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script)
    } else if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
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
  console.log(`checkout page on ${url}`)
}
