/**
 * The issues of `paysplit/codecs` (docs/rules.md C3, bounded errors and own properties; C12, the
 * front-end contract): the closed list of reasons, the catalogs, `formatIssue` and
 * `flattenIssues`, the bounds on every error, reads of own properties only, and the Standard
 * Schema v1 face of the codecs, taken by a real consumer (React Hook Form's resolver).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { build } from 'esbuild'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import {
  Customer,
  decodeMoneySplitPatch,
  decodePaymentIntentRequest,
  en,
  flattenIssues,
  formatIssue,
  type Issue,
  issueReasons,
  type IssueParams,
  type IssueReason,
  type Messages,
  MoneySplitPatch,
  MoneySplitRequest,
  nb,
  PaymentIntentRequest,
  type PaymentIntentRequestInput,
  WebhookSubscription
} from '../../src/codecs.js'
import { plainMessage } from '../../src/messages/format.js'
import { validateState } from '../../src/state/storedState.js'
import { transition } from '../../src/decider.js'
import { cardRequest, complete, create, FEE_ACCOUNT, PARTNER, paymentAfter, SELLER } from '../support/builders.js'
import { cardPayment, charge as chargePayment, invoicePayment } from '../support/fixtures.js'

const srcDir = fileURLToPath(new URL('../../src', import.meta.url))

const left = <A>(r: E.Either<{ readonly issues?: ReadonlyArray<Issue> }, A>): ReadonlyArray<Issue> => {
  if (E.isRight(r)) throw new Error('expected Left')
  return r.left.issues ?? []
}

/** The params each reason's message may name (docs/rules.md C12). */
const paramsOf: Readonly<Record<IssueReason, ReadonlyArray<string>>> = {
  required: [],
  type: ['expected'],
  too_short: ['min'],
  too_long: ['max'],
  too_small: ['min'],
  too_big: ['max'],
  not_integer: [],
  too_few: ['min'],
  too_many: ['max'],
  format: ['format'],
  not_one_of: ['allowed'],
  unknown_currency: [],
  currency_minor_unit: [],
  fee_account_differs: [],
  sum_mismatch: [],
  too_many_issues: ['more']
}

/** Every value paysplit puts in the params a catalog must word (docs/rules.md C12, the reason table). */
const paramValues = {
  expected: ['string', 'number', 'boolean', 'object', 'array'],
  format: ['uuid', 'email', 'url', 'mobile', 'mobilePrefix', 'kid', 'timestamp', 'text']
} as const

/** The params of every issue a reason can have, sampled: each worded value, counts 1 and 2. */
const samples = (reason: IssueReason): ReadonlyArray<IssueParams> => {
  const names = paramsOf[reason]
  if (names.length === 0) return [{}]
  const n = names[0] as string
  if (n === 'expected' || n === 'format') return paramValues[n].map((v) => ({ [n]: v }))
  if (n === 'allowed') return [{ allowed: ['test', 'production'] }]
  return [1, 2, 7, 255].map((v) => ({ [n]: v }))
}

/**
 * What is wrong with a catalog (the words of a form): a reason without its template; a message
 * left with braces, a `#` or a param's name; a message the same as the other catalog's (not
 * translated); a format or type value without words of its own (it falls to `other`, or the
 * English identifier shows in another language); a count that is not in the message, or the same words for 1 and 2
 * where the other catalog's plural forms differ; a locale that is no BCP 47 tag.
 */
const catalogProblems = (catalog: Messages, other: Messages, language: string): ReadonlyArray<string> => {
  const problems: string[] = []
  // its plural rules are those of its language: a catalog for another language names it
  if ((catalog.locale ?? 'en').split('-')[0] !== language) problems.push(`locale: not ${language}`)
  const english = language === 'en'
  if (catalog.locale !== undefined) {
    try {
      new Intl.PluralRules(catalog.locale)
    } catch {
      problems.push('locale: not a BCP 47 tag')
    }
  }
  for (const reason of issueReasons) {
    if (!Object.hasOwn(catalog, reason) || typeof catalog[reason] !== 'string') {
      problems.push(`${reason}: no template`)
      continue
    }
    for (const params of samples(reason)) {
      const at = `${reason} ${JSON.stringify(params)}`
      const message = formatIssue({ reason, params }, catalog)
      if (/[{}#]/.test(message) || message.trim().length < 4) problems.push(`${at}: not filled (${message})`)
      if (message === formatIssue({ reason, params }, other)) problems.push(`${at}: as in the other catalog`)
      for (const [name, value] of Object.entries(params)) {
        if (typeof value === 'number' && !message.includes(String(value))) problems.push(`${at}: the count is missing`)
        if (name === 'expected' || name === 'format') {
          const unknown = formatIssue({ reason, params: { [name]: 'zzz' } }, catalog)
          // a catalog for another language than English words each value (English names them by
          // the identifiers of the reason table, as `params` does): not the identifier, not `other`
          if (!english && (message === unknown.replaceAll('zzz', String(value)) || message.includes(String(value)))) {
            problems.push(`${at}: the value is not worded`)
          }
        }
      }
    }
    // a count of entries (and in English of characters) reads differently for 1 and 2 in a
    // language whose plural rules say so (Norwegian "tegn" is one word for both)
    if (reason === 'too_few' || reason === 'too_many' || (english && (reason === 'too_short' || reason === 'too_long'))) {
      const name = paramsOf[reason][0] as string
      const at = (n: number): string => formatIssue({ reason, params: { [name]: n } }, catalog).replace(String(n), 'N')
      let distinct = false
      try {
        const rules = new Intl.PluralRules(language)
        distinct = rules.select(1) !== rules.select(2)
      } catch {
        // reported above
      }
      if (distinct && at(1) === at(2)) problems.push(`${reason}: one plural form for 1 and 2`)
    }
  }
  return problems
}

// -------------------------------------------------------------------------------------
// C12: reasons and catalogs
// -------------------------------------------------------------------------------------

describe('C12 the reasons are a closed list, and every reason has a message in every catalog', () => {
  it('issueReasons is the list of docs/rules.md C12, each once', () => {
    expect([...issueReasons].sort()).toEqual(Object.keys(paramsOf).sort())
    expect(new Set(issueReasons).size).toBe(issueReasons.length)
  })

  for (const [name, catalog] of [['en', en], ['nb', nb]] as const) {
    it(`${name}: a template for every reason, every param value worded, plural forms by its locale`, () => {
      // the type says it too: a catalog is a Record<IssueReason, string> (and an optional locale)
      const typed: Record<IssueReason, string> = catalog
      // besides the reasons: the locale, plural forms (too_few_one) and words (format.email)
      for (const key of Object.keys(typed)) {
        const known =
          key === 'locale' ||
          issueReasons.includes(key as IssueReason) ||
          issueReasons.some((r) => key.startsWith(`${r}_`) && ['zero', 'one', 'two', 'few', 'many', 'other'].includes(key.slice(r.length + 1))) ||
          Object.entries(paramValues).some(([name, values]) => (values as ReadonlyArray<string>).some((v) => key === `${name}.${v}`))
        expect(known, `${name}: ${key}`).toBe(true)
      }
      for (const reason of issueReasons) expect(typeof typed[reason], reason).toBe('string')
      expect(catalogProblems(catalog, name === 'en' ? nb : en, name)).toEqual([])
    })
  }

  it('the values that params hold are the ones paysplit gives (every format and type the source names)', () => {
    const source = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(srcDir, f), 'utf8'))
      .join('\n')
    const formats = new Set([...source.matchAll(/\bformat\(\w+, '(\w+)'|: Broken = \['format', \{ format: '(\w+)' \}\]/g)].map((m) => m[1] ?? m[2]))
    const types = new Set([...source.matchAll(/\bexpected: '(\w+)'/g)].map((m) => m[1]))
    expect([...formats].sort()).toEqual([...paramValues.format].sort())
    expect([...types].sort()).toEqual([...paramValues.expected].sort())
  })

  it('the check fails a catalog that lacks a reason, a word for a format or a type, or a plural form', () => {
    const without = (reason: IssueReason): Messages => {
      const c: Partial<Record<IssueReason, string>> = { ...nb }
      Reflect.deleteProperty(c, reason)
      return c as Messages
    }
    expect(catalogProblems(without('sum_mismatch'), en, 'nb')).toContain('sum_mismatch: no template')
    const lacking = (key: string): Messages => {
      const c: Record<string, string | undefined> = { ...nb }
      Reflect.deleteProperty(c, key)
      return c as Messages
    }
    expect(catalogProblems(lacking('format.email'), en, 'nb')).toContain('format {"format":"email"}: the value is not worded')
    expect(catalogProblems(lacking('expected.number'), en, 'nb')).toContain('type {"expected":"number"}: the value is not worded')
    expect(catalogProblems(lacking('too_few_one'), en, 'nb')).toContain('too_few: one plural form for 1 and 2')
    expect(catalogProblems({ ...nb, sum_mismatch: en.sum_mismatch }, en, 'nb')).toContain('sum_mismatch {}: as in the other catalog')
    expect(catalogProblems({ ...nb, locale: 'no such locale!' }, en, 'nb')).toContain('locale: not a BCP 47 tag')
    expect(catalogProblems(lacking('locale'), en, 'nb')).toContain('locale: not nb')
  })

  it('nb says it in Norwegian: plural forms, formats and types (the words a form shows)', () => {
    const say = (reason: IssueReason, params?: IssueParams): string => formatIssue(params === undefined ? { reason } : { reason, params }, nb)
    expect(say('too_few', { min: 1 })).toBe('Må ha minst 1 oppføring.')
    expect(say('too_few', { min: 2 })).toBe('Må ha minst 2 oppføringer.')
    expect(say('too_many', { max: 1 })).toBe('Kan ha høyst 1 oppføring.')
    expect(say('too_many', { max: 20 })).toBe('Kan ha høyst 20 oppføringer.')
    expect(say('too_short', { min: 1 })).toBe('Må være minst 1 tegn.')
    expect(say('format', { format: 'uuid' })).toBe('Må være en gyldig UUID.')
    expect(say('format', { format: 'email' })).toBe('Må være en gyldig e-postadresse.')
    expect(say('format', { format: 'url' })).toBe('Må være en gyldig nettadresse.')
    expect(say('type', { expected: 'number' })).toBe('Må være et tall.')
    expect(say('type', { expected: 'string' })).toBe('Må være tekst.')
    expect(say('format', { format: 'text' })).toBe('Må være tekst uten ugyldige tegn.')
  })

  it('C12 English plural forms by Intl.PluralRules as nb has them: no "Must be at most 1 characters."', () => {
    const say = (reason: IssueReason, params: IssueParams): string => formatIssue({ reason, params }, en)
    expect(say('too_long', { max: 1 })).toBe('Must be at most 1 character.')
    expect(say('too_long', { max: 255 })).toBe('Must be at most 255 characters.')
    expect(say('too_short', { min: 1 })).toBe('Must be at least 1 character.')
    expect(say('too_few', { min: 1 })).toBe('Must have at least 1 entry.')
    expect(say('too_few', { min: 2 })).toBe('Must have at least 2 entries.')
    expect(say('too_many', { max: 1 })).toBe('Must have at most 1 entry.')
    expect(say('too_many', { max: 500 })).toBe('Must have at most 500 entries.')
    expect(say('too_many_issues', { more: 1 })).toBe('1 more not shown.')
    // the message of an issue (built without Intl.PluralRules) says the same
    expect(left(decodePaymentIntentRequest({ ...cardRequest(), externalPaymentReferenceID: '' }))[0]?.message).toBe('Must be at least 1 character.')
    expect(left(decodePaymentIntentRequest({ ...cardRequest(), moneySplitList: [] })).find((i) => i.path === 'moneySplitList')?.message).toBe(
      'Must have at least 1 entry.'
    )
  })

  it('plural forms by the locale of the catalog, words for param values; a catalog stays a plain object a front-end extends', () => {
    const pl: Messages = {
      ...en,
      locale: 'pl',
      too_few: 'Co najmniej {min} wpisu.',
      too_few_one: 'Co najmniej {min} wpis.',
      too_few_few: 'Co najmniej {min} wpisy.',
      too_few_many: 'Co najmniej {min} wpisów.',
      format: 'Zły format: {format}.',
      'format.email': 'e-mail'
    }
    const few = (min: number): string => formatIssue({ reason: 'too_few', params: { min } }, pl)
    expect([1, 2, 5, 22].map(few)).toEqual(['Co najmniej 1 wpis.', 'Co najmniej 2 wpisy.', 'Co najmniej 5 wpisów.', 'Co najmniej 22 wpisy.'])
    expect(formatIssue({ reason: 'format', params: { format: 'email' } }, pl)).toBe('Zły format: e-mail.')
    expect(formatIssue({ reason: 'format', params: { format: 'kid' } }, pl)).toBe('Zły format: kid.')
    // a locale that is no tag: the reason's own template, nothing thrown
    expect(formatIssue({ reason: 'too_few', params: { min: 1 } }, { ...pl, locale: '!!' })).toBe('Co najmniej 1 wpisu.')
    // words are looked up as own properties only
    const polluted = Object.prototype as Record<string, unknown>
    polluted['format.kid'] = 'x'
    try {
      expect(formatIssue({ reason: 'format', params: { format: 'kid' } }, pl)).toBe('Zły format: kid.')
    } finally {
      Reflect.deleteProperty(polluted, 'format.kid')
    }
  })

  it('en holds a template per reason and singular forms, no words: every message plainMessage builds is formatIssue(issue, en)', () => {
    const singular = ['too_short_one', 'too_long_one', 'too_few_one', 'too_many_one']
    expect(Object.keys(en).sort()).toEqual([...issueReasons, ...singular].sort())
    for (const reason of issueReasons) for (const params of samples(reason)) expect(plainMessage({ reason, params }, en)).toBe(formatIssue({ reason, params }, en))
    // any count: the English plural rules' `one` is exactly ±1
    const count = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1, -1, 0, -0, 1.5))
    fc.assert(
      fc.property(fc.constantFrom(...issueReasons), fc.constantFrom('min', 'max', 'more'), count, (reason, name, n) => {
        expect(plainMessage({ reason, params: { [name]: n } }, en)).toBe(formatIssue({ reason, params: { [name]: n } }, en))
      })
    )
  })

  it('a catalog that lacks a reason fails this check (and formatIssue falls back to the reason)', () => {
    const partial: Partial<Record<IssueReason, string>> = { ...en }
    Reflect.deleteProperty(partial, 'currency_minor_unit')
    expect(Object.keys(partial).sort()).not.toEqual([...issueReasons].sort())
    expect(formatIssue({ reason: 'currency_minor_unit' }, partial as Messages)).toBe('currency_minor_unit')
  })
})

describe('C12 formatIssue fills the template of the reason from params', () => {
  it('each {name} from params, lists joined with ", ", a name params lack left as written', () => {
    expect(formatIssue({ reason: 'too_long', params: { max: 255 } }, en)).toBe('Must be at most 255 characters.')
    expect(formatIssue({ reason: 'not_one_of', params: { allowed: ['a', 'b', 'c'] } }, en)).toBe('Must be one of: a, b, c.')
    expect(formatIssue({ reason: 'not_one_of' }, en)).toBe('Must be one of: {allowed}.')
    expect(formatIssue({ reason: 'too_many_issues', params: { more: 7 } }, nb)).toBe('7 feil til er ikke vist.')
    const own: Messages = { ...en, required: 'Fill in {what}.' }
    expect(formatIssue({ reason: 'required', params: { what: 'this' } }, own)).toBe('Fill in this.')
  })

  it('fills a template as replacing each /\\{(\\w+)\\}/ by its param would, on any template a catalog may hold and any params paysplit gives', () => {
    const names = ['min', 'max', 'allowed', 'more', 'what']
    const piece = fc.oneof(
      fc.constantFrom('{', '}', '{}', ' ', 'x', '{min}', '{max}', '{allowed}', '{more}', '{what}', '{ min }', '{{min}}', '{x-y}'),
      fc.string({ maxLength: 4 })
    )
    // what paysplit's params hold: word-character names, values without braces
    const text = fc.string({ maxLength: 3 }).filter((t) => !t.includes('{') && !t.includes('}'))
    const params = fc.dictionary(fc.constantFrom(...names), fc.oneof(fc.integer(), text, fc.constant('$&$1$$'), fc.array(text, { maxLength: 3 })))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }).map((p) => p.join('')), params, (template, ps) => {
        const expected = template.replace(/\{(\w+)\}/g, (whole, name: string) => {
          const v = Object.hasOwn(ps, name) ? ps[name] : whole
          return Array.isArray(v) ? v.join(', ') : String(v)
        })
        expect(formatIssue({ reason: 'required', params: ps }, { ...en, required: template })).toBe(expected)
      })
    )
  })

  it("every issue's message is formatIssue(issue, en) and holds neither its path nor the input", () => {
    const secret = 'sk_live_do_not_echo_me'
    const request = {
      ...cardRequest(),
      currency: secret,
      environment: secret,
      externalPaymentReferenceID: secret.repeat(20),
      moneySplitList: [{ connectedAccountID: secret, amount: secret, isFee: secret }],
      customer: { email: secret, mobile: secret },
      webhookSubscriptions: [{ eventType: secret, url: secret }],
      metaData: { [secret]: { a: 1 } }
    }
    const issues = left(decodePaymentIntentRequest(request))
    expect(issues.length).toBeGreaterThan(8)
    for (const i of issues) {
      expect(i.message).toBe(formatIssue(i, en))
      expect(i.message).not.toContain(secret)
      // no message starts with its path, nor holds a path of several segments
      if (i.path !== '') expect(i.message.startsWith(i.path)).toBe(false)
      if (i.path.includes('.')) expect(i.message).not.toContain(i.path)
      expect(JSON.stringify(i.params ?? {})).not.toContain(secret)
    }
    const e = decodePaymentIntentRequest(request)
    expect(E.isLeft(e) && e.left.message).toBe(`The input is not valid: ${issues.length} problems (see issues).`)
  })
})

describe('C12 flattenIssues gives { [path]: messages[] }, in a catalog when given', () => {
  it('groups the messages by path, in order', () => {
    const issues = left(
      decodePaymentIntentRequest({
        ...cardRequest(),
        grossAmount: 0,
        metaData: { ['k'.repeat(41)]: 'x'.repeat(501) }
      })
    )
    const key = `metaData.${'k'.repeat(41)}`
    expect(flattenIssues(issues)).toEqual({
      grossAmount: ['Must be at least 1.'],
      [key]: ['Must be at most 40 characters.', 'Must be at most 500 characters.']
    })
    expect(flattenIssues(issues, nb)).toEqual({
      grossAmount: ['Må være minst 1.'],
      [key]: ['Kan ikke være lengre enn 40 tegn.', 'Kan ikke være lengre enn 500 tegn.']
    })
    expect(Object.getPrototypeOf(flattenIssues([]))).toBe(Object.prototype)
  })
})

describe('C12 a catalog is imported only when used: nb is shaken out of a bundle that does not import it', () => {
  const bundle = async (contents: string): Promise<string> => {
    const r = await build({
      stdin: { contents, resolveDir: new URL('../..', import.meta.url).pathname, sourcefile: 'entry.ts', loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      charset: 'utf8',
      logLevel: 'error'
    })
    return new TextDecoder().decode((r.outputFiles[0] as { readonly contents: Uint8Array }).contents)
  }
  it('decodePaymentIntentRequest ships en (its messages) and not nb; importing nb ships it', async () => {
    const decodeOnly = await bundle("export { decodePaymentIntentRequest } from './src/codecs.ts'")
    expect(decodeOnly).toContain(en.fee_account_differs)
    expect(decodeOnly).not.toContain(nb.fee_account_differs)
    const withNb = await bundle("export { decodePaymentIntentRequest, nb } from './src/codecs.ts'")
    expect(withNb).toContain(nb.fee_account_differs)
  }, 60_000)
})

// -------------------------------------------------------------------------------------
// C3: bounded errors
// -------------------------------------------------------------------------------------

describe('C3 bounded errors: at most 100 issues, then one too_many_issues; no input copied; keys cut at 64', () => {
  it('a create request with one 1 MB metaData key gives an error whose JSON is under 64,000 bytes', () => {
    const key = 'k'.repeat(1_000_000)
    const r = decodePaymentIntentRequest({ ...cardRequest(), metaData: { [key]: 'v' } })
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    const json = JSON.stringify(r.left)
    expect(json.length).toBeLessThan(64_000)
    expect(r.left.issues).toEqual([
      { path: `metaData.${'k'.repeat(64)}…`, code: 'ValidationFailed', reason: 'too_long', params: { max: 40 }, message: 'Must be at most 40 characters.' }
    ])
    // transition too, with the request in a command
    const t = transition({ status: 'NoPayment' }, { ...create(), request: { ...cardRequest(), metaData: { [key]: 1 } } } as never)
    expect(E.isLeft(t) && JSON.stringify(t.left).length).toBeLessThan(64_000)
  })

  it('a key of exactly 64 units stays whole; 65 is cut to 64 and …', () => {
    const at = (key: string): string | undefined => left(decodePaymentIntentRequest({ ...cardRequest(), metaData: { [key]: 1 } }))[0]?.path
    expect(at('a'.repeat(64))).toBe(`metaData.${'a'.repeat(64)}`)
    expect(at('a'.repeat(65))).toBe(`metaData.${'a'.repeat(64)}…`)
  })

  const hugePatch = (): { readonly moneySplitPatch: unknown[]; readonly newGrossAmount: number } => {
    // 1 MiB of `{},` entries: 349 525 entries, two issues each (splitID and updateType required)
    const n = Math.floor((1024 * 1024) / 3)
    return { moneySplitPatch: JSON.parse(`[${new Array<string>(n).fill('{}').join(',')}]`) as unknown[], newGrossAmount: 0 }
  }

  it('a patch of 1 MiB of {} entries: 100 issues and one that counts the rest, JSON under 64 kB', () => {
    const patch = hugePatch()
    const n = patch.moneySplitPatch.length
    const issues = left(decodeMoneySplitPatch(patch))
    expect(issues).toHaveLength(101)
    expect(issues[0]).toMatchObject({ path: 'moneySplitPatch.0.splitID', reason: 'required' })
    expect(issues[99]).toMatchObject({ path: 'moneySplitPatch.49.updateType', reason: 'required' })
    expect(issues[100]).toEqual({ path: '', code: 'ValidationFailed', reason: 'too_many_issues', params: { more: 2 * n - 100 }, message: `${2 * n - 100} more not shown.` })
    const e = decodeMoneySplitPatch(patch)
    expect(E.isLeft(e) && JSON.stringify(e.left).length).toBeLessThan(64_000)
  })

  it('the same patch sent to RefundPartially and AdjustInvoice: a bounded error', () => {
    const patch = hugePatch()
    const charged = paymentAfter(create(cardRequest({ chargeImmediately: true })), complete())
    // longer than twice the payment's splits plus 100: refused before an entry is read (docs/decisions.md, "Lists bounded")
    const refund = transition(charged, { type: 'RefundPartially', at: '2026-11-21T10:00:03.000Z', patch } as never)
    expect(E.isLeft(refund) && refund.left.issues?.map((i) => [i.path, i.reason])).toEqual([['moneySplitPatch', 'too_many']])
    expect(E.isLeft(refund) && JSON.stringify(refund.left).length).toBeLessThan(64_000)
    const invoice = invoicePayment()
    const adjust = transition(invoice, { type: 'AdjustInvoice', at: '2026-11-21T10:00:03.000Z', patch } as never)
    expect(E.isLeft(adjust) && adjust.left.issues?.at(-1)?.reason).toBe('too_many')
    expect(E.isLeft(adjust) && JSON.stringify(adjust.left).length).toBeLessThan(64_000)
  })

  it('the code is the first in precedence even when its issue is past the first 100', () => {
    // 500 splits with 3 issues each fill the list long before customerExternalID is checked
    const splits = Array.from({ length: 500 }, () => ({}))
    const e = decodePaymentIntentRequest({ ...cardRequest(), moneySplitList: splits, customerExternalID: null })
    expect(E.isLeft(e) && e.left.code).toBe('MissingCustomerExternalID')
    expect(E.isLeft(e) && e.left.issues?.length).toBe(101)
    expect(E.isLeft(e) && e.left.issues?.[100]?.params).toEqual({ more: 1501 - 100 })
  })

  it('a stored state with a huge bad list stops at 100 and counts what it found past them', () => {
    const r = validateState({ ...cardPayment(), moneySplits: new Array(100_000).fill(7) })
    const issues = E.isLeft(r) ? (r.left.issues ?? []) : []
    expect(issues.length).toBeLessThanOrEqual(101)
    expect(E.isLeft(r) && JSON.stringify(r.left).length).toBeLessThan(64_000)
  })
})

// -------------------------------------------------------------------------------------
// C3: own properties only
// -------------------------------------------------------------------------------------

/** Runs `f` with every key of `values` set on Object.prototype (and removed after). */
const polluted = <A>(values: Readonly<Record<string, unknown>>, f: () => A): A => {
  const keys = Object.keys(values)
  for (const k of keys) Object.defineProperty(Object.prototype, k, { value: values[k], configurable: true, writable: true, enumerable: false })
  try {
    return f()
  } finally {
    for (const k of keys) Reflect.deleteProperty(Object.prototype, k)
  }
}

const requestFields = {
  externalPaymentReferenceID: 'inherited',
  environment: 'test',
  paymentGateway: 'creditcard',
  chargeImmediately: true,
  sellerConnectedAccountID: SELLER,
  externalObjectIdTag: 'inherited-tag',
  description: 'inherited description',
  grossAmount: 100,
  currency: 'NOK',
  moneySplitList: [{ connectedAccountID: SELLER, amount: 100, isFee: false }],
  customerExternalID: 'inherited-customer',
  customer: { name: 'Inherited' },
  webhookSubscriptions: [{ eventType: 'Charged', url: 'https://inherited.example/h' }],
  successUrl: 'https://inherited.example/ok',
  failedUrl: 'https://inherited.example/failed',
  metaData: { inherited: true },
  // a split's, a customer's, a subscription's and a patch entry's own fields
  connectedAccountID: PARTNER,
  amount: 5,
  isFee: true,
  externalID: 'inherited-ext',
  name: 'Inherited',
  email: 'inherited@example.no',
  mobilePrefix: '+47',
  mobile: '91234567',
  customerType: 'Individual',
  eventType: 'Charged',
  url: 'https://inherited.example/h',
  splitID: 1,
  updateType: 'DoNothing',
  newAmount: 0,
  doDelete: true,
  newGrossAmount: 0,
  moneySplitPatch: [],
  // list indexes: a hole must not read an inherited entry
  0: { connectedAccountID: SELLER, amount: 1, isFee: false },
  1: { eventType: 'Charged', url: 'https://inherited.example/h' }
}

describe('C3 own properties only: a polluted Object.prototype adds nothing to what the codecs decode', () => {
  const inputs: ReadonlyArray<readonly [string, () => unknown]> = [
    ['a valid card request', () => cardRequest()],
    ['a request missing every optional field', () => {
      const r: Record<string, unknown> = { ...cardRequest() }
      for (const k of ['externalObjectIdTag', 'description', 'customer', 'webhookSubscriptions', 'metaData']) Reflect.deleteProperty(r, k)
      return r
    }],
    ['an empty object', () => ({})],
    ['a request with holes in its lists', () => {
      const splits: unknown[] = [{ connectedAccountID: SELLER, amount: 10000, isFee: false }]
      splits.length = 2
      const subs: unknown[] = []
      subs.length = 2
      return { ...cardRequest(), moneySplitList: splits, webhookSubscriptions: subs }
    }],
    ['splits, customer and subscription with no fields', () => ({ ...cardRequest(), moneySplitList: [{}], customer: {}, webhookSubscriptions: [{}] })],
    ['a JSON request with __proto__ keys', () => JSON.parse(JSON.stringify(cardRequest()).replace('{', '{"__proto__":{"grossAmount":1},').replace('"metaData":{', '"metaData":{"__proto__":"x",')) as unknown]
  ]
  for (const [name, input] of inputs) {
    it(`decodePaymentIntentRequest, ${name}`, () => {
      // the input is built before polluting (a test builder may read inherited fields itself)
      const given = input()
      const clean = JSON.stringify(decodePaymentIntentRequest(given))
      expect(polluted(requestFields, () => JSON.stringify(decodePaymentIntentRequest(given)))).toBe(clean)
    })
  }

  it('decodeMoneySplitPatch and the part codecs', () => {
    const cases: ReadonlyArray<readonly [(u: unknown) => unknown, unknown]> = [
      [decodeMoneySplitPatch, { moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 1 }, {}], newGrossAmount: 1 }],
      [decodeMoneySplitPatch, {}],
      [decodeMoneySplitPatch, { moneySplitPatch: [{ updateType: 'DoDeleteSplitEntry' }, { splitID: 2, updateType: 'UpdateAmount' }] }],
      [(u) => Customer.decode(u), {}],
      [(u) => MoneySplitRequest.decode(u), {}],
      [(u) => WebhookSubscription.decode(u), {}],
      [(u) => PaymentIntentRequest['~standard'].validate(u), {}]
    ]
    for (const [decode, input] of cases) {
      const clean = JSON.stringify(decode(input))
      expect(polluted(requestFields, () => JSON.stringify(decode(input)))).toBe(clean)
    }
  })
})

describe('C3 own properties only: validateState reads only own properties of a stored state', () => {
  const paymentFields = {
    ...requestFields,
    kid: '12345674',
    customer: { name: 'Inherited' },
    allocation: [],
    formAttempts: [{ at: '2026-11-21T10:00:00.000Z' }],
    paidAmount: 3,
    chargedAmount: 3,
    version: 9,
    status: 'Charged',
    reason: 'inherited reason',
    insertTime: '2026-11-21T10:00:00.000Z',
    paymentReferenceID: SELLER
  }
  const states: ReadonlyArray<readonly [string, () => unknown]> = [
    ['a card payment', () => JSON.parse(JSON.stringify(cardPayment())) as unknown],
    ['a charged card payment', () => JSON.parse(JSON.stringify(chargePayment(cardPayment()))) as unknown],
    ['an invoice', () => JSON.parse(JSON.stringify(invoicePayment())) as unknown],
    ['a card payment without its optional fields', () => {
      const p: Record<string, unknown> = JSON.parse(JSON.stringify(cardPayment())) as Record<string, unknown>
      for (const k of ['description', 'externalObjectIdTag', 'customer']) Reflect.deleteProperty(p, k)
      return p
    }],
    ['a state with holes in its lists', () => {
      const p = JSON.parse(JSON.stringify(cardPayment())) as Record<string, unknown>
      ;(p['moneySplits'] as unknown[]).length += 1
      return p
    }],
    ['an empty object', () => ({})]
  ]
  for (const [name, state] of states) {
    it(name, () => {
      const given = state()
      const clean = JSON.stringify(validateState(given))
      expect(polluted(paymentFields, () => JSON.stringify(validateState(given)))).toBe(clean)
    })
  }
})

// -------------------------------------------------------------------------------------
// C12: Standard Schema v1
// -------------------------------------------------------------------------------------

describe('C12 Standard Schema v1: every codec a form uses carries ~standard (vendor paysplit, synchronous validate)', () => {
  it('PaymentIntentRequest, MoneySplitPatch, MoneySplitRequest, Customer, WebhookSubscription', () => {
    for (const codec of [PaymentIntentRequest, MoneySplitPatch, MoneySplitRequest, Customer, WebhookSubscription]) {
      const s = codec['~standard']
      expect([s.version, s.vendor, typeof s.validate]).toEqual([1, 'paysplit', 'function'])
      const r = s.validate(null)
      expect(r).not.toBeInstanceOf(Promise)
      expect('issues' in r && r.issues).toEqual([expect.objectContaining({ message: 'Must be of type object.', reason: 'type', path: [] })])
    }
  })

  it('a valid value gives { value } (the decoded one), an invalid one every issue with its path as keys', () => {
    const ok = PaymentIntentRequest['~standard'].validate(cardRequest({ webhookSubscriptions: [{ eventType: 'ChargedPayment', url: 'https://a.example/h' }] }))
    expect(ok.issues === undefined && ok.value.webhookSubscriptions[0]?.eventType).toBe('Charged')
    const bad = PaymentIntentRequest['~standard'].validate({
      ...cardRequest(),
      moneySplitList: [
        { connectedAccountID: SELLER, amount: 9000, isFee: false },
        { connectedAccountID: FEE_ACCOUNT, amount: -1, isFee: true }
      ],
      metaData: { 'a.1': {} }
    })
    expect('issues' in bad && bad.issues?.map((i) => i.path)).toEqual([['moneySplitList', 1, 'amount'], ['metaData', 'a.1']])
  })

  it("React Hook Form's standardSchemaResolver, called as a form calls it, gets every field error at its path", async () => {
    const resolver = standardSchemaResolver(PaymentIntentRequest)
    const values: PaymentIntentRequestInput = {
      ...cardRequest(),
      grossAmount: '100',
      currency: 'JPY',
      moneySplitList: [
        { connectedAccountID: SELLER, amount: 90, isFee: false },
        { connectedAccountID: 'not-a-uuid', amount: -1, isFee: true }
      ],
      customerExternalID: null,
      customer: { email: 'kari@localhost' }
    }
    const r = await resolver(values, undefined, { fields: {}, shouldUseNativeValidation: false, criteriaMode: 'all' } as never)
    expect(r.values).toEqual({})
    const errors = r.errors as Record<string, unknown>
    const at = (path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], errors)
    expect(at('grossAmount')).toMatchObject({ message: 'Must be of type number.' })
    expect(at('currency')).toMatchObject({ message: en.currency_minor_unit })
    expect(at('moneySplitList.1.amount')).toMatchObject({ message: 'Must be at least 0.' })
    expect(at('moneySplitList.1.connectedAccountID')).toMatchObject({ message: 'Must be a valid uuid.' })
    expect(at('customerExternalID')).toMatchObject({ message: 'Required.' })
    expect(at('customer.email')).toMatchObject({ message: 'Must be a valid email.' })
    const good = await resolver(cardRequest(), undefined, { fields: {}, shouldUseNativeValidation: false })
    expect(good.errors).toEqual({})
    expect((good.values as { readonly grossAmount: number }).grossAmount).toBe(10000)
  })

  it('MoneySplitPatch through the resolver: entry errors at moneySplitPatch.<i>.<field>', async () => {
    const resolver = standardSchemaResolver(MoneySplitPatch)
    const r = await resolver({ moneySplitPatch: [{ splitID: 1, updateType: 'DoNothing' }, { splitID: 0, updateType: 'UpdateAmount' }] }, undefined, { fields: {}, shouldUseNativeValidation: false })
    const errors = r.errors as { moneySplitPatch?: Array<Record<string, { message?: string }> | undefined>; newGrossAmount?: { message?: string } }
    expect(errors.moneySplitPatch?.[1]?.['splitID']?.message).toBe('Must be at least 1.')
    expect(errors.moneySplitPatch?.[1]?.['newAmount']?.message).toBe('Required.')
    expect(errors.newGrossAmount?.message).toBe('Required.')
  })
})
