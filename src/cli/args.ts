/**
 * The command line of `paysplit-check` and `paysplit-check mock`: parsing with node:util's
 * `parseArgs`, negative numbers as values, a suggestion for a misspelt option, integers, path
 * templates, and secrets given by the name of their environment variable.
 *
 * @module cli/args
 */
import { parseArgs } from 'node:util'

/** A command line the command cannot run: exit 2, with the usage. */
export class UsageError extends Error {}

/** The options of a command, as `parseArgs` takes them. */
export type OptionTable = Readonly<Record<string, { readonly type: 'string' | 'boolean' }>>

/** The parsed values: each a string, `true` for a flag, or absent. */
export type Values = Readonly<Record<string, string | boolean | undefined>>

/** The edit distance of two short texts (insertions, deletions, substitutions). */
const distance = (a: string, b: string): number => {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length] ?? 0
}

/**
 * The option a misspelt one most likely meant: the nearest by edit distance (at most a third of
 * its length, and at least 2), or the only one it is the start of; undefined when none is near.
 */
export const suggestion = (given: string, table: OptionTable): string | undefined => {
  const name = given.replace(/^-+/, '').split('=')[0] ?? ''
  const names = Object.keys(table)
  const starting = names.filter((n) => n.startsWith(name) && name.length >= 3)
  if (starting.length === 1) return `--${starting[0] ?? ''}`
  let best: string | undefined
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1
  for (const n of names) {
    const d = distance(name, n)
    if (d < bestDistance) {
      best = n
      bestDistance = d
    }
  }
  return best === undefined ? undefined : `--${best}`
}

/**
 * `--seed -5` as `--seed=-5`: a value that starts with `-` after a string option is a negative
 * number here, which `parseArgs` would otherwise refuse as ambiguous.
 */
const joinNegative = (args: ReadonlyArray<string>, table: OptionTable): string[] => {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ''
    const next = args[i + 1]
    const name = a.startsWith('--') ? a.slice(2) : ''
    if (table[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`)
      i++
    } else out.push(a)
  }
  return out
}

/**
 * Parses `args` by `table`; an unknown option is a {@link UsageError} naming the option it most
 * likely meant ("Unknown option --webhook. Did you mean --webhooks?").
 */
export const parse = (args: ReadonlyArray<string>, table: OptionTable): { readonly values: Values; readonly positionals: ReadonlyArray<string> } => {
  try {
    const { values, positionals } = parseArgs({ args: joinNegative(args, table), allowPositionals: true, options: table })
    return { values: values, positionals }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    const unknown = /Unknown option '([^']+)'/.exec(message)?.[1]
    if (unknown !== undefined) {
      const near = suggestion(unknown, table)
      throw new UsageError(`Unknown option ${unknown}.${near === undefined ? '' : ` Did you mean ${near}?`}`)
    }
    throw new UsageError(message)
  }
}

/** A string value, or undefined. */
export const str = (values: Values, name: string): string | undefined => {
  const v = values[name]
  return typeof v === 'string' ? v : undefined
}

/** An integer option, at least `min`. */
export const int = (values: Values, name: string, min: number): number | undefined => {
  const raw = str(values, name)
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${String(min)}, got "${raw}".`)
  return n
}

/** A path template given on the command line: absolute, and `{id}` where the form needs the payment's id. */
export const template = (values: Values, name: string, needsId: boolean): string | undefined => {
  const raw = str(values, name)
  if (raw === undefined) return undefined
  if (!raw.startsWith('/') || (needsId && !raw.includes('{id}'))) throw new UsageError(`--${name} must be a path starting with /${needsId ? ' holding {id}' : ''}, got "${raw}".`)
  return raw
}

/** A secret as given: its value, and how the replay line names it (the variable it came from, or one to set). */
export interface Secret {
  readonly value: string
  /** The environment variable the replay line names: the one given with `--<name>-env`, else the default one. */
  readonly variable: string
  /** Given on the command line itself (the replay line then asks for the variable to be set). */
  readonly literal: boolean
}

/**
 * A secret given as `--<name> VALUE` or `--<name>-env VARIABLE` (the variable's value): never
 * both; a variable that is not set, or set empty, is a {@link UsageError} saying so.
 */
export const secret = (values: Values, env: Readonly<Record<string, string | undefined>>, name: string, fallbackVariable: string): Secret | undefined => {
  const literal = str(values, name)
  const variable = str(values, `${name}-env`)
  if (literal !== undefined && variable !== undefined) throw new UsageError(`Give --${name} or --${name}-env, not both.`)
  if (variable !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new UsageError(`--${name}-env takes the name of an environment variable, got "${variable}".`)
    const value = env[variable]
    if (value === undefined || value === '') throw new UsageError(`--${name}-env names ${variable}, which is not set: export ${variable}=… first (or give --${name}).`)
    return { value, variable, literal: false }
  }
  return literal === undefined ? undefined : { value: literal, variable: fallbackVariable, literal: true }
}
