/** What every route needs: the database, the configuration, the clock and identifiers, the relay's bell. */
import { createHash, randomInt, randomUUID } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { kid } from 'paysplit'
import type { Config } from '../config.js'
import type { AdmittedRows } from '../db/admitted.js'
import type { Db } from '../db/db.js'
import type { Logger } from '../log.js'
import type { Rules } from '../paysplit.js'
import type { TransactionOptions } from '../transaction.js'
import type { CardGateway } from './gateway.js'

export interface Deps {
  readonly db: Db
  readonly config: Config
  readonly log: Logger
  /** paysplit's rules (or a variant: tests, the benchmark's baseline). */
  readonly rules: Rules
  /** Payment rows checked once per id, version and stored text (db/admitted.ts). */
  readonly admitted: AdmittedRows
  /** Called after a commit that wrote outbox rows. */
  readonly outboxWritten: () => void
  /** The clock: an ISO 8601 UTC timestamp with milliseconds. */
  readonly now: () => string
  readonly newPaymentId: () => string
  /** The card gateway of live (production) payments; none: the form refuses them (./gateway.ts). */
  readonly liveCardGateway?: CardGateway
}

/** The options of every transaction of the service (../transaction.ts). */
export const transactionOptions = (deps: Deps, retryDuplicateKid = false): TransactionOptions => ({
  attempts: deps.config.maxTransactionAttempts,
  retryDuplicateKid,
  rules: deps.rules,
  admitted: deps.admitted,
  idempotencyWaitMs: deps.config.idempotencyWaitMs
})

/** The context of an operation the bank or the form starts: the clock, and the catch-all url when configured. */
export const eventContext = (deps: Deps): { readonly at: string; readonly catchAllUrl?: string } =>
  deps.config.catchAllUrl !== undefined ? { at: deps.now(), catchAllUrl: deps.config.catchAllUrl } : { at: deps.now() }

export const defaultNow = (): string => new Date().toISOString()
export const defaultPaymentId = (): string => randomUUID()

const mod10 = (base: string): string => {
  const made = kid.create(base, 'mod10')
  /* v8 ignore next -- the bases below are 1–24 digits, which kid.create always accepts */
  if (E.isLeft(made)) throw new Error(made.left.message)
  return made.right
}

/** A random KID: 10 digits (no leading 0) and a MOD10 check digit. */
export const randomKid = (): string => {
  let base = String(randomInt(1, 10))
  for (let i = 0; i < 9; i++) base += String(randomInt(0, 10))
  return mod10(base)
}

/**
 * The customer's KID (`KID_SCHEME=customer`): the customer number itself when it is 1–24 digits,
 * else 12 digits of its SHA-256; a MOD10 check digit after. One KID per customer, so a customer
 * holds at most one open invoice (a second is 409 DuplicateKid).
 */
export const customerKid = (customerExternalID: string): string => {
  if (/^\d{1,24}$/.test(customerExternalID)) return mod10(customerExternalID)
  const hex = createHash('sha256').update(customerExternalID, 'utf8').digest('hex').slice(0, 12)
  return mod10(String(BigInt(`0x${hex}`) % 10n ** 12n).padStart(12, '1'))
}
