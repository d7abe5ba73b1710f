/**
 * Issue messages from catalogs (docs/rules.md C12; docs/decisions.md "Issues: reasons, catalogs and
 * caps"): {@link formatIssue} fills the template of an issue's reason, {@link flattenIssues} gives
 * the `{ [path]: messages[] }` shape form libraries show.
 *
 * @module messages/format
 */
import { own } from '../../internal/own.js'
import type { Issue, IssueParams, IssueReason, Messages } from '../../messages/issues.js'

/**
 * The message of `issue` in the catalog `messages`: the template of `issue.reason`, each `{name}`
 * replaced by `params[name]` (a list joined with `, `; a name `params` lacks stays as written).
 * A reason the catalog lacks gives the reason itself. Every issue's `message` is
 * `formatIssue(issue, en)`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { en, formatIssue, nb } from 'paysplit/codecs'
 * const issue = { reason: 'not_one_of', params: { allowed: ['test', 'production'] } } as const
 * assert.strictEqual(formatIssue(issue, en), 'Must be one of: test, production.')
 * assert.strictEqual(formatIssue(issue, nb), 'Må være en av disse: test, production.')
 */
export const formatIssue = (
  issue: { readonly reason: IssueReason; readonly params?: IssueParams },
  messages: Messages
): string => {
  const template = messages[issue.reason]
  if (typeof template !== 'string') return issue.reason
  const params = (own(issue, 'params') as IssueParams | undefined) ?? {}
  // params are the rule's (never input; names of word characters, values without braces), so
  // plain reads are safe; a name they lack stays as written. Each placeholder replaced as a plain
  // string, not through a regular expression: an invalid request formats one message an issue
  // (docs/performance.md).
  let message = template
  for (const name of Object.keys(params)) {
    const v = params[name]
    const text = Array.isArray(v) ? v.join(', ') : String(v)
    // a function, so that a `$` in the text is text, not a replacement pattern
    message = message.replaceAll(`{${name}}`, () => text)
  }
  return message
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
