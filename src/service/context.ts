/**
 * The context of an operation (docs/rules.md C6): the service's, not the client's. Its clock
 * (`at`), the id a create gives its payment, the catch-all webhook url, read once each, own
 * properties only; a context that lacks what the operation needs is the service's own fault.
 *
 * @module context
 */
import * as E from '../internal/either.js'
import type { Issue, PaymentError } from '../errors.js'
import { invalid, issue } from '../errors.js'
import { isHttpUrl, isTimestamp, isUuid } from '../codecs/validators.js'
import { own } from '../internal/own.js'
import { isRecord } from '../codecs/fields.js'

// -------------------------------------------------------------------------------------
// errors
// -------------------------------------------------------------------------------------


/** The world, the request or the context could not be read: give a World from paysplit and plain objects. @internal */
export const unreadable: PaymentError = invalid('', 'type', { expected: 'object' })

// -------------------------------------------------------------------------------------
// the context (docs/rules.md C6: the service's, not the client's)
// -------------------------------------------------------------------------------------

/** A context as checked: `at` a valid timestamp, `catchAllUrl` absent or an absolute http(s) URL. */
export interface Checked {
  readonly at: string
  readonly catchAllUrl: string | undefined
  /** Only when asked for: a UUID. */
  readonly paymentReferenceID: string
  /** As given, when asked for (checked by the create of an invoice only). */
  readonly kid: unknown
  /** As given, when asked for (a failed form's; the decider checks it). */
  readonly reason: unknown
}

const contextIssue = (path: string, format: string): Issue => issue(path, 'format', { format })

/** An error of the context, the service's own fault: 500 `InvalidContext`, nothing changed. */
export const invalidContext = (issues: ReadonlyArray<Issue>): PaymentError => ({
  code: 'InvalidContext',
  message: `The service gave an invalid context (the service's fault, not the request's): check ${issues.map((i) => i.path || 'the context').join(', ')}.`,
  issues
})

/** A context that is no plain object, or that cannot be read (a getter that throws, a revoked proxy). */
const notAContext: PaymentError = invalidContext([issue('', 'type', { expected: 'object' })])

/** An optional field of the context that only some operations read. */
export type ContextExtra = 'kid' | 'reason' | undefined

/**
 * Checks the fields of a context the operation uses (docs/rules.md C6): `at` always,
 * `paymentReferenceID` when `needsId`, `catchAllUrl` when given; `extra` is read as given. Only
 * own properties are read, each once, here and nowhere else; an own `catchAllUrl: undefined` is no
 * catch-all url. A context that cannot be read (a getter that throws, a revoked proxy) is
 * `InvalidContext` too: the context is the service's.
 */
export const checkContext = (ctx: unknown, needsId: boolean, extra?: ContextExtra): E.Either<PaymentError, Checked> => {
  let at: unknown, id: unknown, catchAllUrl: unknown, asked: unknown
  try {
    if (!isRecord(ctx)) return E.left(notAContext)
    at = own(ctx, 'at')
    id = needsId ? own(ctx, 'paymentReferenceID') : undefined
    catchAllUrl = own(ctx, 'catchAllUrl')
    asked = extra === undefined ? undefined : own(ctx, extra)
  } catch {
    // the context is the service's: one it cannot read is its fault as much as a wrong one
    return E.left(notAContext)
  }
  const issues: Array<Issue> = []
  if (!isTimestamp(at)) issues.push(contextIssue('at', 'timestamp'))
  if (needsId && (typeof id !== 'string' || !isUuid(id))) issues.push(contextIssue('paymentReferenceID', 'uuid'))
  if (catchAllUrl !== undefined && (typeof catchAllUrl !== 'string' || !isHttpUrl(catchAllUrl))) {
    issues.push(contextIssue('catchAllUrl', 'url'))
  }
  if (issues.length > 0) return E.left(invalidContext(issues))
  return E.right({
    at: at as string,
    catchAllUrl: catchAllUrl as string | undefined,
    paymentReferenceID: typeof id === 'string' ? id : '',
    kid: extra === 'kid' ? asked : undefined,
    reason: extra === 'reason' ? asked : undefined
  })
}

/** The issue of a create of an invoice whose context has no valid KID. */
export const kidIssue: Issue = contextIssue('kid', 'kid')
