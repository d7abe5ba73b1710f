/**
 * The camt.054 reader, loaded when first needed: the mock reads the notifications posted to it
 * with `parseCamt054`, which needs the `saxes` package (an optional peer dependency of
 * `paysplit/camt054`). The command bundles saxes, so `npx paysplit-check mock` reads camt.054 with
 * nothing but paysplit installed; run from the sources without saxes, the mock serves everything
 * else and answers `POST /bank/camt054` with 501 saying how to install it (docs/decisions.md,
 * "camt.054 in the command"). The check itself never reads XML.
 *
 * @module cli/camt054Reader
 */
import type { PaymentError } from '../errors.js'
import type { Camt054Notification } from '../bankFiles/camt054Model.js'

/** `parseCamt054`, as the mock calls it. */
export type Camt054Reader = (xml: string) => { readonly _tag: 'Left'; readonly left: PaymentError } | { readonly _tag: 'Right'; readonly right: Camt054Notification }

/** What to say when saxes cannot be loaded. */
export const CAMT054_UNAVAILABLE = 'Reading camt.054 notifications needs the saxes package, which is not installed: npm install saxes'

/** `parseCamt054` of `paysplit/camt054`; rejects with {@link CAMT054_UNAVAILABLE} when saxes cannot be loaded. */
export const camt054Reader = async (): Promise<Camt054Reader> => {
  try {
    const { parseCamt054 } = await import('../bankFiles/camt054.js')
    return parseCamt054
  } catch (e) {
    throw new Error(`${CAMT054_UNAVAILABLE} (${e instanceof Error ? e.message.split('\n')[0] ?? '' : String(e)})`)
  }
}
