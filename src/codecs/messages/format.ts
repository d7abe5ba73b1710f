/**
 * Issue messages from catalogs (docs/rules.md C12; docs/decisions.md "Issues: reasons, catalogs and
 * caps"): {@link formatIssue} fills the template of an issue's reason, {@link flattenIssues} gives
 * the `{ [path]: messages[] }` shape form libraries show.
 *
 * @module messages/format
 */
import { hasOwn, own } from '../../internal/own.js'
import type { Issue, IssueParams, IssueReason, Messages } from '../../errors.js'

/** The plural rules of the last locale asked for (messages of one catalog come in a row). */
let rules: { readonly locale: string; readonly select: (n: number) => string } | undefined

/**
 * The plural category of `n` (`one`, `other`…) by the rules of `locale` (`Intl.PluralRules`);
 * `other` when the locale is not a valid tag.
 */
const category = (locale: string, n: number): string => {
  if (rules?.locale !== locale) {
    let plural: Intl.PluralRules | undefined
    try {
      plural = new Intl.PluralRules(locale)
    } catch {
      // a catalog's locale that is no BCP 47 tag: no plural rules, every number `other`
    }
    rules = { locale, select: (k) => plural?.select(k) ?? 'other' }
  }
  return rules.select(n)
}

/** The index of the `}` that closes the `{` at `open` in `t`; -1 when none does. */
const closing = (t: string, open: number): number => {
  let depth = 0
  for (let i = open; i < t.length; i++) {
    if (t[i] === '{') depth++
    else if (t[i] === '}' && --depth === 0) return i
  }
  return -1
}

/** A param as text: a list joined with `, `. */
const show = (v: IssueParams[string]): string => (Array.isArray(v) ? v.join(', ') : String(v))

/**
 * `t` with its placeholders filled (the syntax of {@link formatIssue}); `n` is the number that
 * `#` stands for inside a plural branch.
 */
const fill = (t: string, params: IssueParams, locale: string, n?: number): string => {
  let out = ''
  for (let i = 0; i < t.length; i++) {
    const c = t[i] as string
    const end = c === '{' ? closing(t, i) : -1
    if (end < 0) {
      out += c === '#' && n !== undefined ? String(n) : c
      continue
    }
    const body = t.slice(i + 1, end)
    const comma = body.indexOf(',')
    const name = (comma < 0 ? body : body.slice(0, comma)).trim()
    // params are the rule's (never input), read as own properties only
    const v = own(params, name) as IssueParams[string] | undefined
    if (v === undefined) out += t.slice(i, end + 1)
    else if (comma < 0) out += show(v)
    else {
      // `{name, plural|select, key {text} key {text} …}`: the branches by key
      const second = body.indexOf(',', comma + 1)
      const plural = body.slice(comma + 1, second).trim() === 'plural'
      const branches = Object.create(null) as Record<string, string>
      for (let j = second + 1; j < body.length; ) {
        const open = body.indexOf('{', j)
        const close = open < 0 ? -1 : closing(body, open)
        if (close < 0) break
        branches[body.slice(j, open).trim()] = body.slice(open + 1, close)
        j = close + 1
      }
      const k = Number(v)
      const key = plural ? (hasOwn(branches, `=${String(k)}`) ? `=${String(k)}` : category(locale, k)) : show(v)
      const branch = hasOwn(branches, key) ? branches[key] : branches['other']
      out += branch === undefined ? '' : fill(branch, params, locale, plural ? k : n)
    }
    i = end
  }
  return out
}

/**
 * The message of `issue` in the catalog `messages`: the template of `issue.reason` with its
 * placeholders filled from `issue.params`. A reason the catalog lacks gives the reason itself.
 * Every issue's `message` is `formatIssue(issue, en)`.
 *
 * Templates use a small subset of ICU MessageFormat, so a catalog stays a plain object of strings
 * that a front-end copies and extends (docs/forms.md, "Catalogs"):
 *
 * - `{name}`: `params[name]`, a list joined with `, ` (a name `params` lacks stays as written);
 * - `{name, plural, one {# entry} other {# entries}}`: the branch of the plural category of
 *   `params[name]` (`Intl.PluralRules` of the catalog's `locale`, `en` when it has none; an exact
 *   `=0 {…}` branch first), `#` standing for the number;
 * - `{name, select, uuid {a UUID} email {an e-mail address} other {…}}`: the branch named by the
 *   value of `params[name]`, else `other`.
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
 * const nn = { ...nb, locale: 'nn', required: 'Må fyllast ut.' }
 * assert.strictEqual(formatIssue({ reason: 'required' }, nn), 'Må fyllast ut.')
 */
export const formatIssue = (
  issue: { readonly reason: IssueReason; readonly params?: IssueParams },
  messages: Messages
): string => {
  const template = own(messages, issue.reason)
  if (typeof template !== 'string') return issue.reason
  const locale = own(messages, 'locale')
  return fill(template, (own(issue, 'params') as IssueParams | undefined) ?? {}, typeof locale === 'string' ? locale : 'en')
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
