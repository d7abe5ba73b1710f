/**
 * Norwegian Bokmål messages of the issue reasons (docs/rules.md C12), the same templates as
 * {@link en}'s, reason for reason. Imported only by the forms that use it: a bundle that does not
 * import `nb` does not ship it.
 *
 * @module messages/nb
 */
import type { Messages } from '../../messages/issues.js'

/**
 * The Norwegian Bokmål catalog, reason → template.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { formatIssue, nb } from 'paysplit/codecs'
 * assert.strictEqual(formatIssue({ reason: 'required' }, nb), 'Må fylles ut.')
 * assert.strictEqual(formatIssue({ reason: 'too_many', params: { max: 20 } }, nb), 'Kan ha høyst 20 oppføringer.')
 */
export const nb: Messages = {
  required: 'Må fylles ut.',
  type: 'Må være av typen {expected}.',
  too_short: 'Må være minst {min} tegn.',
  too_long: 'Kan ikke være lengre enn {max} tegn.',
  too_small: 'Må være minst {min}.',
  too_big: 'Kan ikke være større enn {max}.',
  not_integer: 'Må være et heltall.',
  too_few: 'Må ha minst {min} oppføringer.',
  too_many: 'Kan ha høyst {max} oppføringer.',
  format: 'Har ikke gyldig format ({format}).',
  not_one_of: 'Må være en av disse: {allowed}.',
  unknown_currency: 'Må være en gyldig valutakode etter ISO 4217, med store bokstaver, for eksempel NOK.',
  currency_minor_unit: 'Valutaen støttes ikke: beløp oppgis i hundredeler, og denne valutaens minste enhet er ikke en hundredel.',
  fee_account_differs: 'Alle gebyrlinjer må gå til samme konto som den første gebyrlinjen.',
  sum_mismatch: 'Må være lik summen av beløpene i fordelingen.',
  too_many_issues: '{more} feil til er ikke vist.'
}
