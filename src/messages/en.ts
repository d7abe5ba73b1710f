/**
 * English messages of the issue reasons (docs/rules.md C12): one template per reason, `{name}`
 * standing for `params[name]`, and the singular of the ones that count characters or entries
 * (`too_long_one`: "Must be at most 1 character."), chosen by the English plural rules
 * (`Intl.PluralRules('en')`), as `nb` has its own. Every issue's `message` is
 * `formatIssue(issue, en)`. A message never quotes the input nor names the path: a form shows it
 * beside the field the issue's `path` names.
 *
 * Formats and types are named by the identifiers of the reason table (`email`, `number`), as a
 * program reads them in `params`, so the catalog holds no words for param values (docs/decisions.md
 * "Forms: messages in the form's language").
 *
 * @module messages/en
 */
import type { Messages } from './issues.js'

/**
 * The English catalog, reason → template, with the singular forms (`<reason>_one`); no `locale`:
 * English plural rules are the default. Copy it to word messages your own way.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { en, formatIssue } from 'paysplit/codecs'
 * assert.strictEqual(formatIssue({ reason: 'too_long', params: { max: 255 } }, en), 'Must be at most 255 characters.')
 * assert.strictEqual(formatIssue({ reason: 'too_long', params: { max: 1 } }, en), 'Must be at most 1 character.')
 * assert.strictEqual(formatIssue({ reason: 'too_few', params: { min: 1 } }, en), 'Must have at least 1 entry.')
 */
export const en: Messages = {
  required: 'Required.',
  type: 'Must be of type {expected}.',
  too_short: 'Must be at least {min} characters.',
  too_short_one: 'Must be at least {min} character.',
  too_long: 'Must be at most {max} characters.',
  too_long_one: 'Must be at most {max} character.',
  too_small: 'Must be at least {min}.',
  too_big: 'Must be at most {max}.',
  not_integer: 'Must be a whole number.',
  too_few: 'Must have at least {min} entries.',
  too_few_one: 'Must have at least {min} entry.',
  too_many: 'Must have at most {max} entries.',
  too_many_one: 'Must have at most {max} entry.',
  format: 'Must be a valid {format}.',
  not_one_of: 'Must be one of: {allowed}.',
  unknown_currency: 'Unknown currency code.',
  currency_minor_unit: 'Currency without hundredths: not supported.',
  fee_account_differs: 'Fee splits must all name one account.',
  sum_mismatch: 'Must be the sum of the split amounts.',
  too_many_issues: '{more} more not shown.'
}
