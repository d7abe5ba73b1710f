/**
 * English messages of the issue reasons (docs/rules.md C12): one template per reason, `{name}`
 * standing for `params[name]`, with plural forms (`{min, plural, one {…} other {…}}`) and the
 * words for formats and types (`{format, select, uuid {…} …}`) as `formatIssue` reads them. Every
 * issue's `message` is `formatIssue(issue, en)`. A message never quotes the input nor names the
 * path: a form shows it beside the field the issue's `path` names.
 *
 * @module messages/en
 */
import type { Messages } from '../../errors.js'

/**
 * The English catalog, reason → template (no `locale`: English plural rules are the default).
 * Copy it to word messages your own way.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { en, formatIssue } from 'paysplit/codecs'
 * assert.strictEqual(formatIssue({ reason: 'too_long', params: { max: 255 } }, en), 'Must be at most 255 characters.')
 * assert.strictEqual(formatIssue({ reason: 'too_short', params: { min: 1 } }, en), 'Must be at least 1 character.')
 * assert.strictEqual(formatIssue({ reason: 'type', params: { expected: 'number' } }, en), 'Must be a number.')
 */
export const en: Messages = {
  required: 'Required.',
  type: 'Must be {expected, select, string {text} number {a number} boolean {true or false} object {an object} array {a list} other {of type {expected}}}.',
  too_short: 'Must be at least {min, plural, one {# character} other {# characters}}.',
  too_long: 'Must be at most {max, plural, one {# character} other {# characters}}.',
  too_small: 'Must be at least {min}.',
  too_big: 'Must be at most {max}.',
  not_integer: 'Must be a whole number.',
  too_few: 'Must have at least {min, plural, one {# entry} other {# entries}}.',
  too_many: 'Must have at most {max, plural, one {# entry} other {# entries}}.',
  format:
    'Must be {format, select, uuid {a UUID} email {an e-mail address} url {an absolute http(s) URL} mobile {a mobile number of 4 to 15 digits} mobilePrefix {a country code such as +47} kid {a valid KID} timestamp {a UTC timestamp (ISO 8601)} other {in the {format} format}}.',
  not_one_of: 'Must be one of: {allowed}.',
  unknown_currency: 'Unknown currency code.',
  currency_minor_unit: 'Currency without hundredths: not supported.',
  fee_account_differs: 'Fee splits must all name one account.',
  sum_mismatch: 'Must be the sum of the split amounts.',
  too_many_issues: '{more, plural, one {# more problem} other {# more problems}}.'
}
