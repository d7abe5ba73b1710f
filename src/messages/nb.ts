/**
 * Norwegian Bokmål messages of the issue reasons (docs/rules.md C12), the same templates as
 * {@link en}'s, reason for reason, with Norwegian plural forms (`locale: 'nb'`, one and other:
 * `too_few_one`) and Norwegian words for the formats and types (`format.email`, `expected.number`). Imported only by the forms that use it: a bundle that
 * does not import `nb` does not ship it.
 *
 * @module messages/nb
 */
import type { Messages } from './issues.js'

/**
 * The Norwegian Bokmål catalog, reason → template.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { formatIssue, nb } from 'paysplit/codecs'
 * assert.strictEqual(formatIssue({ reason: 'required' }, nb), 'Må fylles ut.')
 * assert.strictEqual(formatIssue({ reason: 'too_many', params: { max: 20 } }, nb), 'Kan ha høyst 20 oppføringer.')
 * assert.strictEqual(formatIssue({ reason: 'too_few', params: { min: 1 } }, nb), 'Må ha minst 1 oppføring.')
 * assert.strictEqual(formatIssue({ reason: 'type', params: { expected: 'number' } }, nb), 'Må være et tall.')
 */
export const nb: Messages = {
  locale: 'nb',
  required: 'Må fylles ut.',
  type: 'Må være {expected}.',
  'expected.string': 'tekst',
  'expected.number': 'et tall',
  'expected.boolean': 'ja eller nei',
  'expected.object': 'et objekt',
  'expected.array': 'en liste',
  too_short: 'Må være minst {min} tegn.',
  too_long: 'Kan ikke være lengre enn {max} tegn.',
  too_small: 'Må være minst {min}.',
  too_big: 'Kan ikke være større enn {max}.',
  not_integer: 'Må være et heltall.',
  too_few: 'Må ha minst {min} oppføringer.',
  too_few_one: 'Må ha minst {min} oppføring.',
  too_many: 'Kan ha høyst {max} oppføringer.',
  too_many_one: 'Kan ha høyst {max} oppføring.',
  format: 'Må være {format}.',
  'format.uuid': 'en gyldig UUID',
  'format.email': 'en gyldig e-postadresse',
  'format.url': 'en gyldig nettadresse',
  'format.mobile': 'et gyldig mobilnummer',
  'format.mobilePrefix': 'en gyldig landskode',
  'format.kid': 'et gyldig KID-nummer',
  'format.timestamp': 'et gyldig tidspunkt',
  'format.text': 'tekst uten ugyldige tegn',
  not_one_of: 'Må være en av disse: {allowed}.',
  unknown_currency: 'Ukjent valutakode.',
  currency_minor_unit: 'Valutaen støttes ikke: den deles ikke i hundredeler.',
  fee_account_differs: 'Alle gebyrlinjer må gå til samme konto.',
  sum_mismatch: 'Må være lik summen av beløpene i fordelingen.',
  too_many_issues: '{more} feil til er ikke vist.'
}
