/**
 * English messages of the issue reasons (docs/rules.md C12): one template per reason, `{name}`
 * standing for `params[name]`. Every issue's `message` is `formatIssue(issue, en)`. A message
 * never quotes the input nor names the path: a form shows it beside the field the issue's `path`
 * names.
 *
 * Its templates hold only `{name}` placeholders, no plural nor select forms (docs/decisions.md
 * "Forms: messages in the form's language"): the words read right for every count paysplit gives
 * (`1 or more entries`), and formats and types are named by the identifiers of the reason table
 * (`email`, `number`), as a program reads them in `params`. So a bundle that only decodes ships
 * the plain filler and not the plural rules.
 *
 * @module messages/en
 */
import type { Messages } from './issues.js'

/**
 * The English catalog, reason → template (no `locale`: English plural rules are the default).
 * Copy it to word messages your own way.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { en, formatIssue } from 'paysplit/codecs'
 * assert.strictEqual(formatIssue({ reason: 'too_long', params: { max: 255 } }, en), 'Must be at most 255 characters.')
 * assert.strictEqual(formatIssue({ reason: 'too_few', params: { min: 1 } }, en), 'Must have 1 or more entries.')
 */
export const en: Messages = {
  required: 'Required.',
  type: 'Must be of type {expected}.',
  too_short: 'Must be {min} or more characters.',
  too_long: 'Must be at most {max} characters.',
  too_small: 'Must be at least {min}.',
  too_big: 'Must be at most {max}.',
  not_integer: 'Must be a whole number.',
  too_few: 'Must have {min} or more entries.',
  too_many: 'Must have {max} or fewer entries.',
  format: 'Must be a valid {format}.',
  not_one_of: 'Must be one of: {allowed}.',
  unknown_currency: 'Unknown currency code.',
  currency_minor_unit: 'Currency without hundredths: not supported.',
  fee_account_differs: 'Fee splits must all name one account.',
  sum_mismatch: 'Must be the sum of the split amounts.',
  too_many_issues: '{more} more not shown.'
}
