/**
 * The vocabulary of issues, beneath `errors.ts` and the catalogs: what one problem of a validation
 * says (its path, code, reason and params) and what a catalog is. The catalogs (`./en.ts`,
 * `./nb.ts`) and `formatIssue` (`./format.ts`) build on it, `errors.ts` on them; paysplit and
 * `paysplit/codecs` export these types (docs/decisions.md, "The house").
 *
 * @module messages/issues
 */

/** The codes an {@link Issue} of a validation error can carry, in order of precedence. */
export type IssueCode = 'MissingCustomerExternalID' | 'ValidationFailed' | 'GrossAmountMismatch'

/** One reason of `issueReasons` (paysplit), the closed list of docs/rules.md C12. */
export type IssueReason =
  | 'required'
  | 'type'
  | 'too_short'
  | 'too_long'
  | 'too_small'
  | 'too_big'
  | 'not_integer'
  | 'too_few'
  | 'too_many'
  | 'format'
  | 'not_one_of'
  | 'unknown_currency'
  | 'currency_minor_unit'
  | 'fee_account_differs'
  | 'sum_mismatch'
  | 'too_many_issues'

/**
 * What a message needs besides the reason (`{ max: 255 }`, `{ allowed: ['test', 'production'] }`):
 * limits, formats and allowed values of the rule, never a value of the input.
 */
export type IssueParams = Readonly<Record<string, string | number | boolean | ReadonlyArray<string | number | boolean>>>

/**
 * A message catalog: a template for every {@link IssueReason} (`{name}` stands for `params[name]`);
 * optionally the `locale` (a BCP 47 tag, `en` when absent) whose plural rules choose among plural
 * forms (`too_few_one`), and words for param values (`format.email`), as `formatIssue` reads them.
 */
export type Messages = Readonly<Record<IssueReason, string>> & {
  readonly locale?: string
  readonly [form: string]: string | undefined
}

/**
 * One problem found while validating input. `path` is relative to the validated value, with
 * array indexes as segments: `moneySplitList.1.amount`; the empty string is the value itself. An
 * object key longer than 64 UTF-16 units is cut to its first 64 and `…`. `reason` and `params`
 * say what is wrong for a program; `message` is `formatIssue(issue, en)`, which quotes neither the
 * input nor the path.
 */
export interface Issue {
  readonly path: string
  readonly code: IssueCode
  readonly reason: IssueReason
  readonly params?: IssueParams
  readonly message: string
}
