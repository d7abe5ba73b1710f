/**
 * Standard Schema v1 (standardschema.dev) on the codecs of `paysplit/codecs` (docs/rules.md C12):
 * form libraries and frameworks that accept any Standard Schema (React Hook Form's
 * `standardSchemaResolver`, TanStack Form…) take them directly.
 *
 * The interface is written out here, the shape of `@standard-schema/spec` v1 (which the spec asks
 * libraries to copy rather than depend on), so that the published types need no other package.
 *
 * @module standardSchema
 */
import { validationError, type Issue } from '../errors.js'
import type { JsonSchemaConverter } from './jsonSchema.js'
import type { Validated } from './requestChecks.js'

/**
 * The Standard Schema v1 interface (`@standard-schema/spec`), as paysplit's codecs implement it:
 * `vendor` `paysplit`, a synchronous `validate`.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>
}

// eslint-disable-next-line @typescript-eslint/no-namespace -- the shape of @standard-schema/spec
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties. */
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown, options?: Options) => Result<Output> | Promise<Result<Output>>
    readonly types?: Types<Input, Output> | undefined
  }
  /** What `validate` returns. */
  export type Result<Output> = SuccessResult<Output> | FailureResult
  /** A valid value. */
  export interface SuccessResult<Output> {
    readonly value: Output
    readonly issues?: undefined
  }
  /** Options of `validate` (paysplit takes none). */
  export interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined
  }
  /** Every problem found. */
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>
  }
  /** One problem. */
  export interface Issue {
    readonly message: string
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined
  }
  /** A path segment as an object. */
  export interface PathSegment {
    readonly key: PropertyKey
  }
  /** The input and output types. */
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input
    readonly output: Output
  }
}

/**
 * A paysplit issue as a Standard Schema issue: its fields (`code`, `reason`, `params`, `message`)
 * with `path` as an array of keys, list indexes as numbers.
 */
export type StandardIssue = Omit<Issue, 'path'> & { readonly path: ReadonlyArray<string | number> }

/**
 * What `validate` of a paysplit schema gives, synchronously: the decoded value, or every issue as
 * a {@link StandardIssue} (its `reason` and `params` typed, for a form that words its own messages).
 */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> }

/**
 * A Standard Schema v1 of paysplit (`~standard`, vendor `paysplit`): `validate` is synchronous and
 * its issues are paysplit issues, typed ({@link StandardResult}), so a form library or a program
 * reads `reason` and `params` without a cast. Every codec of `paysplit/codecs` is one, and so is
 * what `withMessages` and `forForm` return.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { PaymentIntentRequest, type Schema } from 'paysplit/codecs'
 * const schema: Schema<unknown, unknown> = PaymentIntentRequest
 * const r = schema['~standard'].validate({ grossAmount: null })
 * assert.ok(r.issues?.some((i) => i.path[0] === 'grossAmount' && i.reason === 'required'))
 */
export interface Schema<Input, Output> extends StandardSchemaV1<Input, Output> {
  readonly '~standard': Omit<StandardSchemaV1.Props<Input, Output>, 'validate'> & {
    readonly validate: (value: unknown, options?: StandardSchemaV1.Options) => StandardResult<Output>
    /**
     * Standard JSON Schema v1: the JSON Schema of the input and of the output (every codec has
     * it, and `withMessages` keeps it; `forForm` has none: its input is a form's, not a body).
     */
    readonly jsonSchema?: JsonSchemaConverter
  }
}

/**
 * The path `moneySplitList.1.amount` as keys `['moneySplitList', 1, 'amount']`: list indexes as
 * numbers; a metaData key (which may hold dots or digits) stays one string key.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { pathKeys } from './standardSchema.js'
 * assert.deepStrictEqual(pathKeys('moneySplitList.1.amount'), ['moneySplitList', 1, 'amount'])
 * assert.deepStrictEqual(pathKeys('metaData.a.1'), ['metaData', 'a.1'])
 * assert.deepStrictEqual(pathKeys(''), [])
 */
export const pathKeys = (path: string): Array<string | number> =>
  path === ''
    ? []
    : path.startsWith('metaData.')
      ? ['metaData', path.slice(9)]
      : path.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k))

/**
 * The issues of a failed collection as its error gives them: at most 100, then one
 * `too_many_issues` that counts the rest.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { issuesOf } from './standardSchema.js'
 * assert.deepStrictEqual(issuesOf([]), [])
 */
export const issuesOf = (issues: Parameters<typeof validationError>[0]): ReadonlyArray<Issue> =>
  // a validation error always has its issues
  validationError(issues).issues as ReadonlyArray<Issue>

/**
 * The `~standard` property of the codec of a collector: `validate` runs it synchronously and gives
 * `{ value }` or `{ issues }` (at most 100 and a `too_many_issues` one, as the codecs' errors).
 *
 * @internal
 */
export const standard = <Input, Output>(
  collector: (u: unknown) => Validated<Output>
): Schema<Input, Output>['~standard'] => ({
  version: 1,
  vendor: 'paysplit',
  validate: (u) => {
    const r = collector(u)
    return r.value !== undefined
      ? { value: r.value }
      : { issues: issuesOf(r.issues).map((i) => ({ ...i, path: pathKeys(i.path) })) }
  }
})
