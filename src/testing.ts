/**
 * `paysplit/testing` — fast-check arbitraries mirroring the codecs and a given/when/then harness
 * for the decider, to write property tests of your own. Needs `fast-check` (a peer dependency).
 * Nothing in the domain imports this entry. The conformance runner has its own entry,
 * `paysplit/conformance`; its names stay here too, deprecated, for the code that imports them
 * from here.
 *
 * @packageDocumentation
 */

import * as runner from './conformance/runner.js'
import * as normaliseModule from './conformance/normalise.js'
import * as report from './conformance/report.js'
import type * as types from './conformance/types.js'
import * as http from './bankFiles/ocrText.js'

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
export { ocrGiroFileArb } from './testing/ocr.js'
export type { OcrGiroFile, OcrGiroFileOptions } from './testing/ocr.js'
export { camt054NotificationArb } from './testing/camt054.js'
export type { Camt054File, Camt054NotificationOptions } from './testing/camt054.js'
export { camt054Xml } from './bankFiles/camt054Writer.js'
export type { Camt054Draft, Camt054DraftDetail, Camt054DraftEntry, Camt054DraftNotification } from './bankFiles/camt054Writer.js'

// the decider harness
export { decideWith, deepEqual, given, show } from './testing/harness.js'
export type { DeciderGiven, DeciderSpecification, DeciderThen } from './testing/harness.js'

// deprecated here: the OCR writer is in `paysplit/http`, the conformance runner in `paysplit/conformance`

/** @deprecated Import it from `paysplit/http`, which needs no fast-check. */
export const ocrGiroText: typeof http.ocrGiroText = http.ocrGiroText
/** @deprecated Import it from `paysplit/http`. */
export type OcrTextOptions = http.OcrTextOptions

/** @deprecated Import it from `paysplit/conformance`. */
export const checkService: typeof runner.checkService = runner.checkService
/** @deprecated Import it from `paysplit/conformance`. */
export const assertConforms: typeof runner.assertConforms = runner.assertConforms
/** @deprecated Import it from `paysplit/conformance`. */
export const normalise: typeof normaliseModule.normalise = normaliseModule.normalise
/** @deprecated Import it from `paysplit/conformance`. */
export const describeReport: typeof report.describeReport = report.describeReport
/** @deprecated Import it from `paysplit/conformance`. */
export const describeCoverage: typeof report.describeCoverage = report.describeCoverage
/** @deprecated Import it from `paysplit/conformance`. */
export type CheckServiceOptions = types.CheckServiceOptions
/** @deprecated Import it from `paysplit/conformance`. */
export type ConformanceReport = types.ConformanceReport
/** @deprecated Import it from `paysplit/conformance`. */
export type Coverage = types.Coverage
/** @deprecated Import it from `paysplit/conformance`. */
export type ReceivedWebhook = types.ReceivedWebhook
/** @deprecated Import it from `paysplit/conformance`. */
export type ReportedStep = types.ReportedStep
/** @deprecated Import it from `paysplit/conformance`. */
export type ServiceRequest = types.ServiceRequest
/** @deprecated Import it from `paysplit/conformance`. */
export type ServiceResponse = types.ServiceResponse
/** @deprecated Import it from `paysplit/conformance`. */
export type ServiceUnderTest = types.ServiceUnderTest
/** @deprecated Import it from `paysplit/conformance`. */
export type SkippedHook = types.SkippedHook
/** @deprecated Import it from `paysplit/conformance`. */
export type WebhookReceiver = types.WebhookReceiver
