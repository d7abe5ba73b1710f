/**
 * Payment rows admitted once (docs/service.md, "Rows checked once"): paysplit checks a stored state
 * in full before anything runs on it (`validateState`, through `Rules.storedPayment`), and what it
 * returns is trusted (deep-frozen), so `worldOf` and the operations take it as it is. A row that
 * has not changed need not be checked again: this cache keeps the checked payment by the row's id
 * and version, and gives it back only for the very stored text it was checked from (a row edited by
 * hand without a new version is checked again). Bounded: the least recently used row goes first.
 * The rows this process writes go in too, as paysplit returned them (trusted already).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Payment, PaymentError } from 'paysplit'

interface Entry {
  readonly text: string
  readonly payment: Payment
}

/** The default number of rows kept: a few MB for payments of a few splits. */
export const ADMITTED_ROWS = 2000

export class AdmittedRows {
  private readonly entries = new Map<string, Entry>()

  constructor(private readonly capacity: number = ADMITTED_ROWS) {}

  /**
   * The payment of the stored row (`id` lower-cased, `version`, `text`: the state's JSON text as
   * the database gives it back): the one checked before from this very text, else `check` of the
   * parsed text, kept when it is valid.
   */
  admit(id: string, version: number, text: string, check: (state: unknown) => E.Either<PaymentError, Payment>): E.Either<PaymentError, Payment> {
    const key = `${id}:${String(version)}`
    const hit = this.entries.get(key)
    if (hit !== undefined && hit.text === text) {
      // most recently used: to the end of the insertion order
      this.entries.delete(key)
      this.entries.set(key, hit)
      return E.right(hit.payment)
    }
    const checked = check(JSON.parse(text) as unknown)
    if (E.isRight(checked)) this.keep(key, text, checked.right)
    return checked
  }

  /** A row this process wrote: the payment paysplit returned (trusted), under the text written. */
  wrote(id: string, version: number, text: string, payment: Payment): void {
    this.keep(`${id}:${String(version)}`, text, payment)
  }

  get size(): number {
    return this.entries.size
  }

  private keep(key: string, text: string, payment: Payment): void {
    if (this.capacity <= 0) return
    this.entries.delete(key)
    this.entries.set(key, { text, payment })
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next()
      if (oldest.done !== true) this.entries.delete(oldest.value)
    }
  }
}
