/**
 * `paysplit/conformance` — checks a running payments service against paysplit's reference model:
 * `checkService` sends random command sequences to the service and to `handle` of `paysplit/http`
 * and compares every answer and webhook, shrinks a difference to a short counterexample and says
 * how to replay it; `httpService`, `formDriver` and `startWebhookReceiver` reach a service over
 * HTTP as the `paysplit-check` command does (its form driven through the page, as a browser
 * drives it; its webhooks received on 127.0.0.1). Needs `fast-check` (a peer dependency) and
 * Node; checking webhook signatures needs the `standardwebhooks` package.
 *
 * @packageDocumentation
 */

// the runner
export { assertConforms, checkService } from './conformance/runner.js'
export { normalise } from './conformance/normalise.js'
export { describeCoverage, describeReport } from './conformance/report.js'
export type {
  CheckServiceOptions,
  ConformanceReport,
  Coverage,
  CoverageCell,
  HookName,
  HookUse,
  ReceivedWebhook,
  RefusedHook,
  ReportedStep,
  ServiceRequest,
  ServiceResponse,
  ServiceUnderTest,
  SkippedHook,
  WebhookReceiver
} from './conformance/types.js'

// a service over HTTP, its payment form and its webhooks
export { formDriver, httpService } from './cli/httpService.js'
export type { FormDriverOptions, HttpServiceOptions } from './cli/httpService.js'
export { startWebhookReceiver } from './cli/receiver.js'
export type { RunningWebhookReceiver, WebhookReceiverOptions } from './cli/receiver.js'
