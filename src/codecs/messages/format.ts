/**
 * Issue messages from catalogs (docs/rules.md C12; docs/decisions.md "Issues: reasons, catalogs and
 * caps"): {@link formatIssue} fills the template of an issue's reason, {@link flattenIssues} gives
 * the `{ [path]: messages[] }` shape form libraries show.
 *
 * @module messages/format
 */
import { hasOwn, own } from '../../internal/own.js'
import type { Issue, IssueParams, IssueReason, Messages } from '../../errors.js'

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
  return fill(template, (own(issue, 'params') as IssueParams | undefined) ?? {})
}

/**
 * `template` with each `{name}` that `params` has replaced by its value (a list joined with `, `);
 * a name they lack stays as written. The params are the rule's (never input), so plain reads are
 * safe. Written with `indexOf` rather than a replace callback: an invalid request formats one
 * message an issue (docs/performance.md).
 */
const fill = (template: string, params: IssueParams): string => {
  const close = template.indexOf('}')
  if (close < 0) return template
  const open = template.lastIndexOf('{', close)
  const name = template.slice(open + 1, close)
  const rest = fill(template.slice(close + 1), params)
  if (open < 0 || !hasOwn(params, name)) return template.slice(0, close + 1) + rest
  const v = params[name]
  return template.slice(0, open) + (Array.isArray(v) ? v.join(', ') : String(v)) + rest
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
