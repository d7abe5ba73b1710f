/**
 * Issue messages from catalogs (docs/rules.md C12; docs/decisions.md "Issues: reasons, catalogs and
 * caps"): {@link formatIssue} fills the template of an issue's reason, {@link flattenIssues} gives
 * the `{ [path]: messages[] }` shape form libraries show.
 *
 * @module messages/format
 */
import { own } from '../internal/own.js'
import type { Issue, IssueParams, IssueReason, Messages } from './issues.js'

/**
 * The message of `issue` in a catalog worded as {@link en} is: `{name}` placeholders, no words
 * for param values, and the singular (`<reason>_one`) where the issue's count (its first param:
 * a reason that counts has no other) is 1 or −1, which is exactly where the English plural rules (`Intl.PluralRules('en')`)
 * say `one`. Each `{name}` is replaced by `params[name]` (a list joined with `, `; a name
 * `params` lacks stays as written); a reason the catalog lacks gives the reason itself. For
 * `en` it gives what {@link formatIssue} gives, with less code: every issue's English `message`
 * is built by it, so a bundle that only decodes (`decodePaymentIntentRequest` alone) ships
 * neither `Intl.PluralRules` nor the words.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { en } from './en.js'
 * import { plainMessage } from './format.js'
 * assert.strictEqual(plainMessage({ reason: 'too_long', params: { max: 255 } }, en), 'Must be at most 255 characters.')
 * assert.strictEqual(plainMessage({ reason: 'too_long', params: { max: 1 } }, en), 'Must be at most 1 character.')
 */
export const plainMessage = (
  issue: { readonly reason: IssueReason; readonly params?: IssueParams },
  messages: Messages
): string => {
  const params = (own(issue, 'params') as IssueParams | undefined) ?? {}
  const names = Object.keys(params)
  // the count: the first param (a reason that counts has no other)
  const count = params[names[0] as string]
  const template = (count === 1 || count === -1 ? own(messages, `${issue.reason}_one`) : undefined) ?? messages[issue.reason]
  if (typeof template !== 'string') return issue.reason
  // params are the rule's (never input; names of word characters, values without braces), so
  // plain reads are safe. Each placeholder replaced as a plain string, not through a regular
  // expression: an invalid request formats one message an issue (docs/performance.md).
  let message = template
  for (const name of names) {
    const v = params[name]
    const text = Array.isArray(v) ? v.join(', ') : String(v)
    // a function, so that a `$` in the text is text, not a replacement pattern
    message = message.replaceAll(`{${name}}`, () => text)
  }
  return message
}

/**
 * The message of `issue` in the catalog `messages`: the template of `issue.reason` with each
 * `{name}` replaced by `params[name]` (a list joined with `, `; a name `params` lacks stays as
 * written). A reason the catalog lacks gives the reason itself. Every issue's `message` is
 * `formatIssue(issue, en)`.
 *
 * A catalog stays a plain object of strings that a front-end copies and extends
 * (docs/forms.md, "Catalogs"); besides a template per reason it may hold:
 *
 * - plural forms, `<reason>_<category>`: the template for the count of the issue (its number
 *   param, `min`, `max` or `more`) when its plural category, by `Intl.PluralRules` of the
 *   catalog's `locale` (`en` when it has none), is `category` (`too_few_one`, as i18next names
 *   them); else the template of the reason;
 * - words for param values, `<name>.<value>`: what `{name}` becomes when `params[name]` is
 *   `value` (`format.email`, `expected.number`); else the value itself.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { en, formatIssue, nb } from 'paysplit/codecs'
 * const issue = { reason: 'not_one_of', params: { allowed: ['test', 'production'] } } as const
 * assert.strictEqual(formatIssue(issue, en), 'Must be one of: test, production.')
 * assert.strictEqual(formatIssue(issue, nb), 'Må være en av disse: test, production.')
 * assert.strictEqual(formatIssue({ reason: 'too_few', params: { min: 1 } }, nb), 'Må ha minst 1 oppføring.')
 * assert.strictEqual(formatIssue({ reason: 'too_few', params: { min: 2 } }, nb), 'Må ha minst 2 oppføringer.')
 * assert.strictEqual(formatIssue({ reason: 'format', params: { format: 'email' } }, nb), 'Må være en gyldig e-postadresse.')
 * const nn = { ...nb, locale: 'nn', required: 'Må fyllast ut.', too_few: 'Må ha minst {min} oppføringar.' }
 * assert.strictEqual(formatIssue({ reason: 'too_few', params: { min: 2 } }, nn), 'Må ha minst 2 oppføringar.')
 */
export const formatIssue = (
  issue: { readonly reason: IssueReason; readonly params?: IssueParams },
  messages: Messages
): string => {
  const reason = issue.reason
  const params = (own(issue, 'params') as IssueParams | undefined) ?? {}
  const words: Record<string, string> = {}
  let count: number | undefined
  for (const name of Object.keys(params)) {
    const v = params[name]
    if (typeof v === 'number') count ??= v
    const word = own(messages, `${name}.${String(v)}`)
    if (typeof word === 'string') words[name] = word
  }
  let category = 'other'
  try {
    if (count !== undefined) category = new Intl.PluralRules((own(messages, 'locale') as string | undefined) ?? 'en').select(count)
  } catch {
    // a locale that is no BCP 47 tag: the reason's own template
  }
  const template = own(messages, `${reason}_${category}`) ?? own(messages, reason)
  return plainMessage({ reason, params: { ...params, ...words } }, { [reason]: template } as Record<IssueReason, string>)
}

/**
 * The issues by path, as form libraries show them: `{ [path]: messages[] }`, each message from
 * the catalog `messages` when one is given, else the issue's own (English) `message`; paths and
 * messages in the order of the issues.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { decodeMoneySplitPatch, flattenIssues, nb } from 'paysplit/codecs'
 * const r = decodeMoneySplitPatch({ moneySplitPatch: [{ splitID: 0, updateType: 'DoNothing' }] })
 * assert.ok(E.isLeft(r))
 * assert.deepStrictEqual(flattenIssues(r.left.issues ?? [], nb), {
 *   'moneySplitPatch.0.splitID': ['Må være minst 1.'],
 *   newGrossAmount: ['Må fylles ut.']
 * })
 */
export const flattenIssues = (
  issues: ReadonlyArray<Issue>,
  messages?: Messages
): Record<string, string[]> => {
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>
  for (const issue of issues) {
    const message = messages === undefined ? issue.message : formatIssue(issue, messages)
    const list = out[issue.path]
    if (list === undefined) out[issue.path] = [message]
    else list.push(message)
  }
  return { ...out }
}
