/**
 * The `standardwebhooks` package, loaded when first needed: the receiver checks signatures with
 * it, the mock signs with it. It is no dependency of paysplit (the command bundles it; a test
 * runner that checks signatures installs it beside paysplit).
 *
 * @module cli/standardWebhooks
 */

/** The package's `Webhook` class, as much of it as paysplit uses. */
export type WebhookClass = new (secret: string) => {
  readonly verify: (payload: string, headers: Record<string, string>) => unknown
  readonly sign: (msgId: string, timestamp: Date, payload: string) => string
}

/** The `Webhook` class of the `standardwebhooks` package; rejects, saying how to install it, when it is missing. */
export const webhookClass = async (): Promise<WebhookClass> => {
  let mod: { Webhook?: WebhookClass; default?: { Webhook?: WebhookClass } }
  try {
    mod = (await import('standardwebhooks'))
  } catch {
    throw new Error('Webhook signatures need the standardwebhooks package: npm install --save-dev standardwebhooks')
  }
  // a CommonJS package: its exports are the module's own under tsx, under `default` in Node's ESM
  const Webhook = mod.Webhook ?? mod.default?.Webhook
  if (Webhook === undefined) throw new Error('The standardwebhooks package has no Webhook class: install version 1.')
  return Webhook
}
