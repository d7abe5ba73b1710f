/**
 * Standard JSON Schema v1 on every codec (docs/rules.md C12): `~standard.jsonSchema.input` and
 * `output` for the targets `draft-2020-12`, `draft-07` and `openapi-3.0`. Each emitted schema is
 * valid for its target (the draft's meta-schema, or an OpenAPI 3.0 document), and ajv with it
 * agrees with the codec on 10 000 generated values per codec, valid and invalid (the kit's
 * arbitraries, and mutations of them), where JSON Schema can say the rule: a value the codec refuses
 * only for a rule named in docs/decisions.md "JSON Schema and OpenAPI" (the sum, one fee account, a
 * safe sum, the WHATWG URL parser, lengths in UTF-16 units; and, in OpenAPI 3.0, which has no
 * `propertyNames`, a metaData key's own rules) may pass ajv. Fixed seeds; about two seconds.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import Ajv, { type ValidateFunction } from 'ajv'
import type { StandardJSONSchemaV1 } from '@standard-schema/spec'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  Customer,
  type Issue,
  MoneySplitPatch,
  MoneySplitRequest,
  PaymentIntentRequest,
  WebhookSubscription
} from '../../src/codecs.js'
import { META_KEY } from '../../src/codecs/requestChecks.js'
import { transition } from '../../src/decider.js'
import { initialState, type Payment } from '../../src/payment.js'
import { invalidPaymentIntentRequestArb, patchArb, paymentIntentRequestArb } from '../../src/testing.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
const targets = ['draft-2020-12', 'draft-07', 'openapi-3.0'] as const
type Target = (typeof targets)[number]
const codecs = { PaymentIntentRequest, MoneySplitPatch, MoneySplitRequest, Customer, WebhookSubscription }
type Name = keyof typeof codecs

// -------------------------------------------------------------------------------------
// the validators, one per codec, side and target
// -------------------------------------------------------------------------------------

const ajvOf: Record<Target, { compile: (s: object) => ValidateFunction; validateSchema: (s: object) => unknown; errors?: unknown }> = {
  'draft-2020-12': new Ajv2020({ strict: true, strictTypes: false, strictRequired: false }),
  'draft-07': new Ajv({ strict: true, strictTypes: false, strictRequired: false }),
  // OpenAPI 3.0: a draft-04-like dialect with `nullable`, which ajv knows
  'openapi-3.0': new Ajv({ strict: true, strictTypes: false, strictRequired: false })
}

const schemaOf = (name: Name, side: 'input' | 'output', target: Target): Record<string, unknown> =>
  codecs[name]['~standard'].jsonSchema[side]({ target })

const validators = Object.fromEntries(
  (Object.keys(codecs) as Name[]).flatMap((name) =>
    (['input', 'output'] as const).flatMap((side) => targets.map((target) => [`${name} ${side} ${target}`, ajvOf[target].compile(schemaOf(name, side, target))]))
  )
) as Record<string, ValidateFunction>

// -------------------------------------------------------------------------------------
// values: the kit's, and mutations of them
// -------------------------------------------------------------------------------------

const interesting: ReadonlyArray<Json> = [
  null, true, 0, -1, 1, 1.5, 2 ** 53, 1e20, -1e20, [], {}, [1], { a: 1 }, '', ' ', 'x', 'x'.repeat(41), 'x'.repeat(256), 'x'.repeat(1001),
  '\ud800', 'a\udc00', '😀'.repeat(128), '😀', 'k\ud800ey', '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', '6F1C2D3E-4A5B-4C6D-8E7F-9A0B1C2D3E4F',
  'https://shop.example/ok', 'https://shop.example/\ud800', 'http:', 'https://%zz/', 'ftp://a.example/', 'kari@example.no', 'kari@localhost',
  'k\ud800@example.no', '+47', '47', '91234567', '1234', 'NOK', 'nok', 'JPY', 'XYZ', 'test', 'creditcard', 'invoice', 'Charged', 'ChargedPayment',
  'UpdateAmount', 'DoDeleteSplitEntry', 'DoNothing', 'Individual', '__proto__'
]

const pathsOf = (v: Json, base: string[] = [], out: string[][] = []): string[][] => {
  out.push(base)
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...base, String(i)], out))
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) pathsOf(x, [...base, k], out)
  return out
}

/** One change: a node replaced by an interesting value, a property deleted, or one added (an interesting key among them). */
const mutate = (body: Json, [kind, pick, value]: readonly [number, number, Json]): Json => {
  const out = structuredClone(body)
  const paths = pathsOf(out)
  const path = paths[pick % paths.length] as string[]
  if (path.length === 0) return kind === 0 ? value : out
  const parent = path.slice(0, -1).reduce<any>((o: Record<string, unknown>, k) => o[k], out) as Record<string, Json> & Json[]
  const key = path.at(-1) as string
  if (kind === 0) parent[key] = value
  else if (kind === 1) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1)
    else Reflect.deleteProperty(parent, key)
  } else if (typeof parent === 'object' && parent !== null && !Array.isArray(parent)) {
    const keys = ['', 'k'.repeat(41), 'k\ud800', '__proto__', 'extra', 'newAmount', 'doDelete', 'chargeImmediately']
    Object.defineProperty(parent, keys[pick % keys.length] as string, { value, enumerable: true, writable: true, configurable: true })
  }
  return out
}

const mutationArb = fc.tuple(fc.nat({ max: 2 }), fc.nat(), fc.constantFrom(...interesting))

/** `valid` as JSON bodies (as a body arrives), each with up to two mutations (none half the time). */
const bodies = (valid: ReadonlyArray<unknown>, seed: number): Json[] => {
  const steps = fc.sample(fc.oneof(fc.constant([]), fc.array(mutationArb, { minLength: 1, maxLength: 2 })), { numRuns: valid.length, seed })
  return valid.map((v, i) => (steps[i] ?? []).reduce<Json>(mutate, JSON.parse(JSON.stringify(v ?? {}))))
}

const N = 10_000

/** A charged card payment of the request, for the kit's patchArb. */
const chargedPayment = (request: unknown): Payment | undefined => {
  const at = '2026-11-21T10:00:00.000Z'
  const r = transition(initialState, { type: 'CreatePayment', at, paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c', request } as never)
  if (E.isLeft(r)) return undefined
  const c = transition(r.right[0], { type: 'CompletePaymentForm', at: '2026-11-21T10:00:01.000Z' })
  return E.isRight(c) ? (c.right[0] as Payment) : undefined
}

// One pool of the kit's valid requests (cards and invoices, with a customer) gives every codec its
// values: the requests, their first split, customer and subscription; a fifth of the requests are
// the kit's invalid ones; the patches are the kit's for 200 of them, charged. Then mutations.
const pool = fc.sample(paymentIntentRequestArb({ splits: { max: 4 }, customer: true, maxSubscriptions: 2 }), { numRuns: N, seed: 1 })
const invalid = fc.sample(invalidPaymentIntentRequestArb({ splits: { max: 3 } }), { numRuns: N / 5, seed: 2 }).map((i) => i.input)
const values: Record<Name, () => Json[]> = {
  PaymentIntentRequest: () => bodies([...pool.slice(0, N - invalid.length), ...invalid], 3),
  MoneySplitRequest: () => bodies(pool.map((r) => r.moneySplitList[0]), 4),
  Customer: () => bodies(pool.map((r) => r.customer), 5),
  WebhookSubscription: () =>
    bodies(
      pool.map((r, i) => {
        const sub = r.webhookSubscriptions[0] ?? { eventType: 'Charged', url: 'https://shop.example/hooks' }
        return i % 2 === 0 ? sub : { ...sub, eventType: `${sub.eventType}Payment` }
      }),
      6
    ),
  MoneySplitPatch: () => {
    const payments = pool.slice(0, 200).flatMap((r) => chargedPayment({ ...r, paymentGateway: 'creditcard', chargeImmediately: true }) ?? [])
    const patches = payments.flatMap((p, i) => {
      const arb = patchArb(p)
      return arb._tag === 'Some' ? fc.sample(arb.value, { numRuns: Math.ceil(N / payments.length), seed: 7 + i }) : []
    })
    return bodies(patches.slice(0, N), 8)
  }
}

// -------------------------------------------------------------------------------------
// what JSON Schema cannot say
// -------------------------------------------------------------------------------------

const ASTRAL = /[\ud800-\udbff][\udc00-\udfff]/g

/** A key as an issue's path writes it: cut at 64 units, each lone surrogate as U+FFFD. */
const segment = (k: string): string => (((k.length > 64 ? `${k.slice(0, 64)}…` : k) as unknown) as { toWellFormed: () => string }).toWellFormed()

const at = (v: Json, path: string): Json | undefined => {
  if (path === '') return v
  const meta = path.startsWith('metaData.') ? ['metaData', path.slice(9)] : path.split('.')
  return meta.reduce<Json | undefined>((o, k) => (typeof o === 'object' && o !== null ? (o as Record<string, Json>)[k] : undefined), v)
}

/** True when JSON Schema (for `target`) cannot say the rule `issue` is about. */
const unexpressed = (issue: Issue, v: Json, name: Name, target: Target): boolean => {
  if (issue.reason === 'sum_mismatch' || issue.reason === 'fee_account_differs') return true
  if (issue.path === 'moneySplitList' && issue.reason === 'too_big') return true
  if (target === 'openapi-3.0' && issue.path.startsWith('metaData.')) {
    const meta = (v as Record<string, Json>)['metaData'] as Record<string, Json>
    // a key whose own rule breaks (its value may be fine): OpenAPI 3.0 has no propertyNames
    if (Object.keys(meta).some((k) => `metaData.${segment(k)}` === issue.path && META_KEY(k) !== undefined)) return true
  }
  const value = at(v, issue.path)
  if (typeof value !== 'string') return false
  if (issue.params?.['format'] === 'url') return true // the WHATWG URL parser (the pattern checks the scheme and the characters)
  // lengths in UTF-16 units: the same string with each pair counted once passes
  if (value.replace(ASTRAL, '') !== value) {
    const again = codecs[name]['~standard'].validate(JSON.parse(JSON.stringify(v).replaceAll(JSON.stringify(value).slice(1, -1), JSON.stringify(value.replace(ASTRAL, 'x')).slice(1, -1))))
    return again.issues === undefined || !again.issues.some((i) => i.path.join('.') === issue.path.split('.').join('.'))
  }
  return false
}

// -------------------------------------------------------------------------------------
// the tests
// -------------------------------------------------------------------------------------

describe('C12 Standard JSON Schema: every codec gives the JSON Schema of its input and of its output', () => {
  it('a type test: the codecs are accepted where a StandardJSONSchemaV1 is expected', () => {
    const schemas: ReadonlyArray<StandardJSONSchemaV1> = [PaymentIntentRequest, MoneySplitPatch, MoneySplitRequest, Customer, WebhookSubscription]
    const typed: StandardJSONSchemaV1<unknown, unknown> = PaymentIntentRequest
    expect(schemas.every((s) => typeof s['~standard'].jsonSchema.input === 'function')).toBe(true)
    expect(typed['~standard'].vendor).toBe('paysplit')
  })

  it('each emitted schema is valid for its target: the draft meta-schemas, and an OpenAPI 3.0 document', async () => {
    const schemas: Record<string, unknown> = {}
    for (const name of Object.keys(codecs) as Name[]) {
      for (const side of ['input', 'output'] as const) {
        for (const target of ['draft-2020-12', 'draft-07'] as const) expect(ajvOf[target].validateSchema(schemaOf(name, side, target)), `${name} ${side} ${target}`).toBe(true)
        schemas[`${name}${side}`] = schemaOf(name, side, 'openapi-3.0')
      }
    }
    const document = { openapi: '3.0.3', info: { title: 'paysplit codecs', version: '1' }, paths: {}, components: { schemas } }
    const result = await new Validator().validate(document)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })

  it('another target throws (the Standard asks it), and each call gives a fresh schema', () => {
    expect(() => PaymentIntentRequest['~standard'].jsonSchema.input({ target: 'draft-04' })).toThrow(TypeError)
    const a = Customer['~standard'].jsonSchema.output({ target: 'draft-07' })
    expect(a).not.toBe(Customer['~standard'].jsonSchema.output({ target: 'draft-07' }))
    expect(a).toStrictEqual(Customer['~standard'].jsonSchema.output({ target: 'draft-07' }))
  })

  it('input and output differ where decoding changes the value: long event types in, defaults out', () => {
    const input = validators['WebhookSubscription input draft-2020-12'] as ValidateFunction
    const output = validators['WebhookSubscription output draft-2020-12'] as ValidateFunction
    expect([input({ eventType: 'ChargedPayment', url: 'https://a.example/h' }), output({ eventType: 'ChargedPayment', url: 'https://a.example/h' })]).toStrictEqual([true, false])
    const request = schemaOf('PaymentIntentRequest', 'output', 'draft-07') as { required: string[] }
    expect(request.required).toEqual(expect.arrayContaining(['webhookSubscriptions', 'metaData']))
    expect((schemaOf('PaymentIntentRequest', 'input', 'draft-07') as { required: string[] }).required).not.toContain('metaData')
  })

  for (const name of Object.keys(codecs) as Name[]) {
    it(`${name}: ajv on each schema (input and output, each target) agrees with the codec on 10 000 values, valid and invalid`, () => {
      const codec = codecs[name]
      const tally = { accepted: 0, refused: 0, unexpressed: 0 }
      for (const v of values[name]()) {
        const r = codec['~standard'].validate(v)
        const issues = (r.issues ?? []).map((i) => ({ ...i, path: i.path.map(String).join('.') }))
        const accepted = r.issues === undefined
        // the value as the codec decodes it is what the output schema describes
        const decoded = accepted && codec.is(v)
        if (accepted) tally.accepted++
        else tally.refused++
        const value = accepted ? (JSON.parse(JSON.stringify(r.value)) as Json) : null
        for (const target of targets) {
          const input = validators[`${name} input ${target}`] as ValidateFunction
          const output = validators[`${name} output ${target}`] as ValidateFunction
          // built only for a disagreement (a body's JSON costs more than the check)
          const agree = (got: boolean, expected: boolean): void => {
            if (got !== expected) expect.fail(`${target}: ${JSON.stringify(v)} → ${String(expected)}; ${JSON.stringify(issues.map((i) => [i.path, i.reason]))}`)
          }
          if (accepted) {
            agree(input(v), true)
            agree(output(value), true)
            agree(output(v), decoded)
          } else if (issues.every((i) => unexpressed(i, v, name, target))) tally.unexpressed++
          else {
            agree(input(v), false)
            agree(output(v), false)
          }
        }
      }
      console.info(`${name}: ${JSON.stringify(tally)}`)
      expect(tally.accepted + tally.refused).toBe(N)
      expect(tally.accepted).toBeGreaterThan(N / 10)
      expect(tally.refused).toBeGreaterThan(N / 10)
    })
  }
})
