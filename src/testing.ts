/**
 * `paysplit/testing` — the testing kit for teams that build or integrate a payments service:
 * fast-check arbitraries mirroring the codecs, a given/when/then harness for the decider, and a
 * model-based conformance runner that checks any HTTP service against paysplit's reference
 * model (also as the `paysplit-check` command). Needs `fast-check` (a peer dependency). Nothing
 * in the domain imports this entry.
 *
 * @packageDocumentation
 */

// arbitraries
export {
  commandArb,
  invalidPaymentIntentRequestArb,
  kidArb,
  patchArb,
  paymentIntentRequestArb,
  scenarioArb,
  uuidArb
} from './testing/arbitraries.js'
export type { InvalidRequest, RequestOptions, Scenario, ScenarioOptions } from './testing/arbitraries.js'
export { ocrGiroFileArb, ocrGiroText } from './testing/ocr.js'
export type { OcrGiroFile, OcrGiroFileOptions, OcrTextOptions } from './testing/ocr.js'
export { camt054NotificationArb } from './testing/camt054.js'
export type { Camt054File, Camt054NotificationOptions } from './testing/camt054.js'
export { camt054Xml } from './bankFiles/camt054Writer.js'
export type { Camt054Draft, Camt054DraftDetail, Camt054DraftEntry, Camt054DraftNotification } from './bankFiles/camt054Writer.js'

// the decider harness
export { decideWith, deepEqual, given, show } from './testing/harness.js'
export type { DeciderGiven, DeciderSpecification, DeciderThen } from './testing/harness.js'

// the conformance runner
export { assertConforms, checkService } from './testing/conformance.js'
export { normalise } from './testing/normalise.js'
export { describeCoverage, describeReport } from './testing/report.js'
export type {
  CheckServiceOptions,
  ConformanceReport,
  Coverage,
  ReceivedWebhook,
  ReportedStep,
  ServiceRequest,
  ServiceResponse,
  ServiceUnderTest,
  SkippedHook,
  WebhookReceiver
} from './testing/types.js'
