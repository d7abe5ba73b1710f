/**
 * English messages of the issue reasons (docs/rules.md C12): one template per reason, `{name}`
 * standing for `params[name]`. Every issue's `message` is `formatIssue(issue, en)`. A message never
 * quotes the input nor names the path: a form shows it beside the field the issue's `path` names.
 *
 * @module messages/en
 */
import type { Messages } from '../../messages/issues.js'

/**
 * The English catalog, reason → template. Copy it to word messages your own way.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { en, formatIssue } from 'paysplit/codecs'
 * assert.strictEqual(formatIssue({ reason: 'too_long', params: { max: 255 } }, en), 'Must be at most 255 characters.')
 */
export const en: Messages = {
  required: 'Required.',
  type: 'Must be of type {expected}.',
  too_short: 'Must be at least {min} characters.',
  too_long: 'Must be at most {max} characters.',
  too_small: 'Must be at least {min}.',
  too_big: 'Must be at most {max}.',
  not_integer: 'Must be a whole number.',
  too_few: 'Must have at least {min} entries.',
  too_many: 'Must have at most {max} entries.',
  format: 'Must be a valid {format}.',
  not_one_of: 'Must be one of: {allowed}.',
  unknown_currency: 'Unknown currency code.',
  currency_minor_unit: 'Currency without hundredths: not supported.',
  fee_account_differs: 'Fee splits must all name one account.',
  sum_mismatch: 'Must be the sum of the split amounts.',
  too_many_issues: '{more} more problems.'
}
