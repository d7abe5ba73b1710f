/**
 * What the conformance runner is given and what it reports.
 *
 * @module conformance/types
 */
import type { PaymentKind } from '../payment.js'

/** A request to the service under test; `body` is a JSON value (absent: no body). */
export interface ServiceRequest {
  readonly method: string
  /** Path relative to the service's base url, e.g. `/payments/{id}/cancel`. */
  readonly path: string
  readonly body?: unknown
  /**
   * Request headers to send, lower-case names: the runner's retry mode (`retries`) puts an
   * `idempotency-key` on every `POST`. A `send` passes them on as they are.
   */
  readonly headers?: Readonly<Record<string, string>>
}

/** The service's answer: the status code and the body parsed from JSON (`undefined` if empty). */
export interface ServiceResponse {
  readonly status: number
  readonly body: unknown
}

/**
 * A webhook the service sent: the url it was POSTed to and the body parsed from JSON. A receiver
 * may add the request's headers (lower-case names) and the outcome of checking its Standard
 * Webhooks signature; the runner fails a run on an `invalid` signature and on a `webhook-id`
 * header that is not the body's `eventID`.
 */
export interface ReceivedWebhook {
  readonly url: string
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
  readonly signature?: 'valid' | 'invalid' | 'unchecked'
}

/**
 * A webhook receiver the runner subscribes to (docs/testing.md, "Webhooks"): every create request
 * it sends carries `webhookSubscriptions` to urls under `url`, one per run, so webhooks arrive
 * at least once, in any order, whenever the service sends them.
 */
export interface WebhookReceiver {
  /** Base url the service can reach, without a trailing slash, e.g. `http://127.0.0.1:4100`. */
  readonly url: string
  /**
   * Resolves with every webhook received so far once `until` holds for them, or once the
   * receiver's grace period has passed without it (the runner then reports what is missing).
   */
  readonly collect: (until: (received: ReadonlyArray<ReceivedWebhook>) => boolean) => Promise<ReadonlyArray<ReceivedWebhook>>
  /**
   * How long `collect` waits for what `until` asks, in ms. Without it, a report of missing
   * webhooks asks whether `collect` waits at all (one that resolves at once makes every webhook
   * still in flight look missing).
   */
  readonly graceMs?: number
}

/**
 * The service under test, as the runner drives it. Only `send` is required; each other member
 * switches on a part of the check.
 */
export interface ServiceUnderTest {
  /** Sends one request and resolves with the response. */
  readonly send: (request: ServiceRequest) => Promise<ServiceResponse>
  /**
   * Every webhook received so far, in order of arrival. It must resolve only once the webhooks
   * of the requests sent so far have arrived (wait for the service's outbox to drain). Without
   * it, webhooks are not compared step by step.
   */
  readonly receivedWebhooks?: () => Promise<ReadonlyArray<ReceivedWebhook>>
  /** A receiver to subscribe to: webhooks are then checked at the end of each run, at least once and in any order. */
  readonly webhookReceiver?: WebhookReceiver
  /** The catch-all webhook url the service is configured with (it receives every webhook). */
  readonly catchAllUrl?: string
  /**
   * The payment form reports success for this payment (not part of the caller's API). What this
   * and the other form and bank hooks resolve with is read (docs/testing.md, "Hooks"): nothing
   * (or any other value) when the hook drove the service; `{ refused: why }`, an HTTP answer of
   * 4xx or 5xx (a `fetch` `Response`, a {@link ServiceResponse}) or an fp-ts `Left` when the
   * service refused the event: that fails the run as the hook's failure where the model accepts
   * the event; a {@link SkippedHook} when the hook cannot drive the service this time (the model
   * is left as it was, the event is not counted, and the notes say how often and why). A hook that
   * rejects fails the run as the hook's failure.
   */
  readonly completeForm?: (paymentReferenceID: string) => Promise<unknown>
  /** The payment form reports a failed attempt. */
  readonly failForm?: (paymentReferenceID: string, reason?: string) => Promise<unknown>
  /** The bank reports a KID transfer to an invoice. */
  readonly receiveTransfer?: (paymentReferenceID: string, amount: number, kid: string) => Promise<unknown>
  /**
   * The bank reports a transfer as a bank does: a KID and an amount, which the service matches to
   * the open invoice holding that KID (or parks). Used instead of `receiveTransfer` when given.
   */
  readonly receiveTransferByKid?: (kid: string, amount: number) => Promise<unknown>
  /**
   * The bank sends an OCR giro file (docs/rules.md C14): the runner writes one with `ocrGiroText`
   * (transfers by KID to the run's invoices, a wrong KID now and then, a file sent twice) and the
   * model applies it with `receiveOcrGiro`. Each run's files have transmission numbers of their
   * own, so a long-lived service never takes one for a duplicate of another run's.
   */
  readonly receiveOcrGiro?: (text: string) => Promise<unknown>
  /** Called before each run, e.g. to empty the service's storage. Optional: each run has its own references. */
  readonly reset?: () => Promise<void>
}

/** What a form or bank hook resolves with when it cannot drive the service this time: `skipped` says why. */
export interface SkippedHook {
  readonly skipped: string
}

/** What a form or bank hook resolves with when the service refused the event: `refused` says how. */
export interface RefusedHook {
  readonly refused: string
}

/** What to check and how hard. */
export interface CheckServiceOptions extends ServiceUnderTest {
  /**
   * Command sequences to run. Default: fast-check's global `numRuns` (100 unless configured), a
   * quick check; bugs that need a long life (a refund after a partial refund) want about 1000
   * (docs/testing.md, "How many runs").
   */
  readonly numRuns?: number
  /** The seed of the random sequences. Default: fast-check's own choice (or its global `seed`). */
  readonly seed?: number
  /** Replay a failure: its report's `path`, with its `seed`. */
  readonly path?: string
  /**
   * Names this call's runs on a long-lived service: every reference and customer id the runner
   * makes starts with `k<seed>-<runId>-` (letters, digits, `_` and `-`; others dropped; at most 32).
   * Default: with `now`, its reading in base 36 (as the command line does), so that a fixed seed
   * run twice on one service never meets its own references; without `now`, none: calls of one
   * seed then make the same references, and a second one on a service that keeps them meets the
   * first one's (the failure says so). The report's `prefix` gives it.
   */
  readonly runId?: string
  /** Longest command sequence. Default 12. */
  readonly maxCommands?: number
  /** Payment kinds to create. Default both. */
  readonly kinds?: ReadonlyArray<PaymentKind>
  /**
   * Environments of the payments to create. Default both. `['test']` for a service whose form
   * completes test payments only (the reference service without a live card gateway).
   */
  readonly environments?: ReadonlyArray<'test' | 'production'>
  /**
   * The urls a generated request may subscribe webhooks to; they must reach your receiver.
   * Default none (only the catch-all url receives webhooks).
   */
  readonly webhookUrls?: ReadonlyArray<string>
  /** Compare human-readable texts (`message`, and the string `response`/`error` of cancel, charge, refund) too. Default false. */
  readonly compareMessages?: boolean
  /**
   * Also send the same request twice at once (two refunds, two charges, …) and accept the
   * answers of either order. Default false. Finds lost updates (docs/testing.md, "Races").
   */
  readonly races?: boolean
  /**
   * Safe retries (docs/testing.md, "Retries"): send every `POST` with an `idempotency-key` of its
   * own, then send it again this many times with the same key, and fail the run when a resend's
   * answer (status and body) is not exactly the first one. Anything applied twice shows in the
   * answers and webhooks compared afterwards. Default 0: no keys, no resends.
   */
  readonly retries?: number
  /**
   * Called after each run (a command sequence), shrinking runs included, with whether it passed
   * and how many steps (requests and outside events) it sent.
   */
  readonly onRun?: (run: number, passed: boolean, steps: number) => void
  /**
   * A time budget for shrinking a failure, in ms (with `now`): once it is spent, the smallest
   * counterexample found so far is reported, with a note. Default: no budget.
   */
  readonly maxShrinkMs?: number
  /** A clock in ms for `maxShrinkMs` (e.g. `Date.now`); the kit reads no clock of its own. */
  readonly now?: () => number
}

/** How often the model accepted and refused a command sent to a payment in one state. */
export interface CoverageCell {
  readonly accepted: number
  readonly refused: number
}

/** The hooks of a check (the form, the bank, the webhook receiver) as the coverage names them. */
export type HookName = 'completeForm' | 'failForm' | 'receiveTransfer' | 'receiveTransferByKid' | 'receiveOcrGiro'

/** How often a hook was called, and how often it said it could not drive the service (`{ skipped }`). */
export interface HookUse {
  readonly sent: number
  readonly skipped: number
}

/**
 * What a call exercised, over all its runs: each request as `<METHOD> <route> <status>` (ids
 * as `{id}`) with how often it was sent, each outside event as `<event> <model outcome>`, how
 * many webhooks were compared with the model's, and whether any payment of the model was ever
 * charged, refunded, or (an invoice) paid by the bank. `describeCoverage` writes it as text.
 */
export interface Coverage {
  readonly requests: Readonly<Record<string, number>>
  readonly events: Readonly<Record<string, number>>
  /**
   * State × command: each command sent to a payment of a run, by the payment's kind and status
   * in the model before it (`card Reserved`, `invoice Initiated`; `no such payment` for an id no
   * payment has) and the command (`cancel`, `charge`, `refund`, `refundPartially`, `adjust`,
   * `completeForm`, `failForm`, `transfer`, `ocr`), with how often the model accepted and refused it.
   */
  readonly states?: Readonly<Record<string, Readonly<Record<string, CoverageCell>>>>
  readonly webhooksChecked: number
  /** Webhooks the model sent to the receiver that had not arrived when the runner looked (after the grace period). */
  readonly webhooksMissing?: number
  readonly charged: boolean
  readonly refunded: boolean
  readonly invoicePaid: boolean
  /** The payment kinds the check created. */
  readonly kinds?: ReadonlyArray<PaymentKind>
  /** The hooks the check was given (absent ones were not), each with how often it was used and skipped. */
  readonly hooks?: Readonly<Partial<Record<HookName, HookUse>>>
  /** Whether a webhook receiver (or `receivedWebhooks`) was given. */
  readonly webhooks?: boolean
}

/** One step of a failing run, as sent: a request, or an event from outside the API. */
export type ReportedStep =
  | {
      readonly kind: 'request'
      readonly method: string
      readonly path: string
      readonly body?: unknown
      /** The headers the runner added (`idempotency-key` in the retry mode), lower-case names. */
      readonly headers?: Readonly<Record<string, string>>
      /** The status the service answered (absent when it did not answer). */
      readonly status?: number
      /** Sent at the same time as the step before it. */
      readonly concurrent?: boolean
    }
  | {
      readonly kind: 'event'
      readonly event: 'completeForm' | 'failForm' | 'transfer' | 'transferByKid' | 'ocr'
      /** The payment it is for (by KID: the one the model matched, or `(no open invoice)`). */
      readonly paymentReferenceID: string
      readonly amount?: number
      readonly kid?: string
      /** The failed form's reason. */
      readonly reason?: string
      /** The OCR giro file sent (`ocr`). */
      readonly text?: string
    }

/** The outcome of `checkService`. */
export type ConformanceReport =
  | {
      readonly ok: true
      readonly numRuns: number
      readonly seed: number
      /** The prefix of this call's references and customer ids (each run adds `r<n>-`). */
      readonly prefix: string
      /** What was not checked, and why (e.g. a service without the read routes). */
      readonly notes: ReadonlyArray<string>
      /** What the runs exercised. */
      readonly coverage?: Coverage
    }
  | {
      readonly ok: false
      readonly numRuns: number
      readonly seed: number
      readonly prefix: string
      readonly notes: ReadonlyArray<string>
      readonly coverage?: Coverage
      /**
       * With `seed`, replays the shrunk counterexample alone: `checkService({ ...options, seed, path })`.
       * Written `<fast-check path>|<command replay path>`: a command sequence needs both to replay.
       */
      readonly path: string
      /** The shrunk counterexample as a request log, ending with the first difference. */
      readonly counterexample: string
      /** The shrunk counterexample's steps as sent, ids and bodies as the service saw them. */
      readonly steps: ReadonlyArray<ReportedStep>
      /**
       * The arguments that replay it, for the command line: `--seed=<seed> --path '<path>'` (the
       * `=` form, so that a negative seed is not read as an option).
       */
      readonly replay: string
      /** fast-check's own report (the command sequence). */
      readonly details: string
      /**
       * The hook whose answer failed the run, when one did (it rejected, or it refused an event
       * the model accepts): the failure is the hook's (its token, its session, its key), not
       * necessarily the service's.
       */
      readonly hook?: HookName
    }
