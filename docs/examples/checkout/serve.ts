/**
 * `npm run checkout`: bundles the checkout pages' scripts with esbuild (paysplit/codecs, fp-ts and
 * io-ts included, as a front-end bundler would) and serves them on http://127.0.0.1:4173/ (the page
 * without a form library) and http://127.0.0.1:4173/react-hook-form (React Hook Form, in
 * Norwegian); `PORT` to change it. The browser test (test/browser/checkout.browser.ts) serves them
 * the same way.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
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

/** Serves the page on 127.0.0.1 (`port` 0: any free port); resolves to the server and its url. */
export const serveCheckout = async (port = 0): Promise<{ readonly server: Server; readonly url: string }> => {
  const [{ html, script }, rhf] = await Promise.all([bundleCheckout(), bundleReactHookForm()])
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const js = { 'content-type': 'text/javascript; charset=utf-8' }
    const page = { 'content-type': 'text/html; charset=utf-8' }
    if (path === '/checkout.js') {
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
  console.log(`checkout page on ${url}, with React Hook Form on ${url}react-hook-form`)
}
