/**
 * Text the service itself puts into a request to paysplit (the form's reason, a card gateway's
 * decline), made storable: PostgreSQL keeps UTF-8, and a lone UTF-16 surrogate has no UTF-8 form
 * (`jsonb` refuses its `\ud800` escape, 500). Request strings a client sends are judged by
 * paysplit's codecs (400 at the field); these are the service's own.
 */

/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * `text` with each lone surrogate replaced by U+FFFD (as a UTF-8 decoder does), cut to at most
 * `max` UTF-16 code units without splitting a surrogate pair.
 */
export const storableText = (text: string, max: number): string => {
  const whole = text.replace(LONE, '\uFFFD')
  if (whole.length <= max) return whole
  const cut = whole.slice(0, max)
  // a pair cut in two: drop its first half
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}
