/**
 * Norwegian Bokmål messages of the issue reasons (docs/rules.md C12), the same templates as
 * {@link en}'s, reason for reason, with Norwegian plural forms (`locale: 'nb'`: one/other) and
 * Norwegian words for formats and types. Imported only by the forms that use it: a bundle that
 * does not import `nb` does not ship it.
 *
 * @module messages/nb
 */
import type { Messages } from '../../errors.js'

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
  type: 'Må være {expected, select, string {tekst} number {et tall} boolean {sann eller usann} object {et objekt} array {en liste} other {av typen {expected}}}.',
  too_short: 'Må være minst {min} tegn.',
  too_long: 'Kan ikke være lengre enn {max} tegn.',
  too_small: 'Må være minst {min}.',
  too_big: 'Kan ikke være større enn {max}.',
  not_integer: 'Må være et heltall.',
  too_few: 'Må ha minst {min, plural, one {# oppføring} other {# oppføringer}}.',
  too_many: 'Kan ha høyst {max, plural, one {# oppføring} other {# oppføringer}}.',
  format:
    'Må være {format, select, uuid {en gyldig UUID} email {en gyldig e-postadresse} url {en fullstendig nettadresse (http eller https)} mobile {et mobilnummer på 4 til 15 sifre} mobilePrefix {en landskode som +47} kid {et gyldig KID-nummer} timestamp {et tidspunkt i UTC (ISO 8601)} other {i gyldig format}}.',
  not_one_of: 'Må være en av disse: {allowed}.',
  unknown_currency: 'Må være en gyldig valutakode etter ISO 4217, med store bokstaver, for eksempel NOK.',
  currency_minor_unit: 'Valutaen støttes ikke: beløp oppgis i hundredeler, og denne valutaens minste enhet er ikke en hundredel.',
  fee_account_differs: 'Alle gebyrlinjer må gå til samme konto som den første gebyrlinjen.',
  sum_mismatch: 'Må være lik summen av beløpene i fordelingen.',
  too_many_issues: '{more} feil til er ikke vist.'
}
