/**
 * C15, the laws of the store contract, over random lives of a world driven through every operation
 * (every route of `handle`, repeats and used references, keyed retries and reused keys in two
 * scopes, sent bare and as structured-field strings, many keys that expire at once, KIDs that
 * collide, the form, transfers by id and by KID, OCR files and camt.054 notifications sent once
 * and again — a notification resent, its transactions resent in another, booked too long ago,
 * forgotten after 400 days), each step checked twice:
 *
 * - the slice law: the operation on the slice its keys name (`requestKeys`, `transferKeys`,
 *   `ocrKeys`, `camt054Keys`, `formKeys` for the form; with every payment's customer and reference and every
 *   reference's payment, built by `worldOf`) gives the same response, result or report,
 *   deliveries, events and changes as on the whole world;
 * - what to write: `changes` applied to the rows of the world given give the rows of the world
 *   returned (expired idempotency keys and camt.054 rows aside), and are all empty exactly when the world did not
 *   change.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { kid as kidNumber } from '../../src/index.js'
import {
  completeForm,
  camt054Keys,
  failForm,
  formKeys,
  handle,
  ocrKeys,
  receiveCamt054,
  receiveOcrGiro,
  receiveTransfer,
  receiveTransferByKid,
  requestKeys,
  transferKeys,
  worldOf,
  type BankRowKeys,
  type Camt054RowKeys,
  type HandleContext,
  type HttpRequest,
  type Outcome,
  type RowKeys,
  type World
} from '../../src/http.js'
import { camt054Xml, parseCamt054, type Camt054DraftEntry, type Camt054Version } from '../../src/camt054.js'
import { opArb, patchOf, type Op } from '../../src/testing/arbitraries.js'
import { CATCH_ALL, cardRequest, idOf, invoiceRequest } from '../support/http.fixtures.js'
import { transmissionOf } from '../support/ocr.fixtures.js'
import { applyChanges, noRows, rowsOf, sliceOf, withoutExpired } from '../support/rows.js'

// -------------------------------------------------------------------------------------
// the steps of a life
// -------------------------------------------------------------------------------------

const kidOf = (n: number): string => {
  const made = kidNumber.create(String(7300 + n), 'mod10')
  if (E.isLeft(made)) throw new Error('kid')
  return made.right
}

const IDS = 4
const id = fc.nat({ max: IDS - 1 })
const kidIx = fc.nat({ max: 1 })
/** Keys: a few used again and again (retries, reuses), many used once (to expire many at once); sent bare or as a structured-field string. */
const keyed = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record({
      key: fc.oneof({ weight: 2, arbitrary: fc.constantFrom('k-0', 'k-1', 'k-2', 'k"3', 'k\\4') }, { weight: 1, arbitrary: fc.nat({ max: 40 }).map((n) => `once-${String(n)}`) }),
      quoted: fc.boolean(),
      scope: fc.constantFrom(undefined, 'api-a')
    })
  }
)

type Keyed = { readonly key: string; readonly quoted: boolean; readonly scope: string | undefined } | undefined

type Step = { readonly later: number; readonly badAt: boolean } & (
  | { readonly t: 'create'; readonly id: number; readonly upper: boolean; readonly ref: number; readonly kind: 'card' | 'now' | 'invoice'; readonly customer: number; readonly path: string; readonly kid: number; readonly keyed: Keyed }
  | { readonly t: 'action'; readonly id: number; readonly upper: boolean; readonly action: 'cancel' | 'charge' | 'refund'; readonly keyed: Keyed }
  | { readonly t: 'patch'; readonly id: number; readonly action: 'refund/partially' | 'adjust'; readonly ops: ReadonlyArray<Op>; readonly reversed: boolean; readonly keyed: Keyed }
  | { readonly t: 'read'; readonly what: number; readonly n: number; readonly upper: boolean }
  | { readonly t: 'form'; readonly id: number; readonly upper: boolean; readonly complete: boolean }
  | { readonly t: 'transfer'; readonly id: number; readonly kid: number; readonly own: boolean; readonly permille: number }
  | { readonly t: 'byKid'; readonly kid: number; readonly permille: number }
  | { readonly t: 'ocr'; readonly number: number; readonly rows: ReadonlyArray<{ readonly kid: number; readonly permille: number; readonly type: number }> }
  | { readonly t: 'camt'; readonly message: number; readonly version: Camt054Version; readonly rows: ReadonlyArray<CamtRow> }
)

/** A camt.054 entry of one transaction; -1: no KID, no entry reference, no transaction reference. */
interface CamtRow {
  readonly kid: number
  readonly permille: number
  readonly entry: number
  readonly ref: number
  readonly reversal: boolean
  readonly daysBack: number
}

const DAY_S = 86_400
// now and then 25 hours (idempotency keys expire) or 250 days (camt.054 rows expire after two)
const timing = { later: fc.oneof({ weight: 24, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.constant(25 * 3600) }, { weight: 3, arbitrary: fc.constant(250 * DAY_S) }), badAt: fc.oneof({ weight: 15, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      ...timing,
      t: fc.constant('create' as const),
      id: fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: id }),
      upper: fc.boolean(),
      ref: fc.nat({ max: IDS - 1 }),
      kind: fc.constantFrom('card' as const, 'now' as const, 'invoice' as const, 'invoice' as const),
      customer: fc.nat({ max: 3 }),
      path: fc.constantFrom('/payments', '/payments#x', '/payments?x=1'),
      kid: kidIx,
      keyed
    })
  },
  { weight: 3, arbitrary: fc.record({ ...timing, t: fc.constant('action' as const), id, upper: fc.boolean(), action: fc.constantFrom('cancel' as const, 'charge' as const, 'refund' as const), keyed }) },
  { weight: 2, arbitrary: fc.record({ ...timing, t: fc.constant('patch' as const), id, action: fc.constantFrom('refund/partially' as const, 'adjust' as const), ops: fc.array(opArb, { minLength: 1, maxLength: 3 }), reversed: fc.boolean(), keyed }) },
  { weight: 2, arbitrary: fc.record({ ...timing, t: fc.constant('read' as const), what: fc.nat({ max: 5 }), n: fc.nat({ max: 3 }), upper: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ ...timing, t: fc.constant('form' as const), id, upper: fc.boolean(), complete: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ ...timing, t: fc.constant('transfer' as const), id, kid: kidIx, own: fc.boolean(), permille: fc.integer({ min: 1, max: 1500 }) }) },
  { weight: 2, arbitrary: fc.record({ ...timing, t: fc.constant('byKid' as const), kid: kidIx, permille: fc.integer({ min: 1, max: 1500 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      ...timing,
      t: fc.constant('ocr' as const),
      number: fc.nat({ max: 2 }),
      rows: fc.array(fc.record({ kid: kidIx, permille: fc.integer({ min: -100, max: 1200 }), type: fc.constantFrom(10, 10, 10, 10, 18) }), { maxLength: 4 })
    })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      ...timing,
      t: fc.constant('camt' as const),
      // few message ids and references: notifications and their transactions are sent again
      message: fc.nat({ max: 3 }),
      version: fc.constantFrom('camt.054.001.02' as const, 'camt.054.001.04' as const, 'camt.054.001.08' as const),
      rows: fc.array(
        fc.record({
          kid: fc.oneof({ weight: 8, arbitrary: kidIx }, { weight: 1, arbitrary: fc.constant(-1) }),
          permille: fc.integer({ min: 1, max: 1200 }),
          entry: fc.oneof({ weight: 12, arbitrary: fc.nat({ max: 2 }) }, { weight: 1, arbitrary: fc.constant(-1) }),
          ref: fc.integer({ min: -1, max: 1 }),
          reversal: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          daysBack: fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.constant(3) }, { weight: 2, arbitrary: fc.constant(450) })
        }),
        { maxLength: 4 }
      )
    })
  }
)

const customers = [undefined, { name: 'Kari' }, { email: 'kari@example.no' }, { name: 'Ola', mobilePrefix: '+47', mobile: '41234567' }] as const

const bodyOf = (s: Extract<Step, { t: 'create' }>): Record<string, unknown> => {
  const customer = customers[s.customer]
  const common = {
    externalPaymentReferenceID: `order-${String(s.ref)}`,
    customerExternalID: `customer-${String(s.customer % 2)}`,
    ...(customer === undefined ? {} : { customer }),
    webhookSubscriptions: [{ eventType: 'Charged', url: 'https://hooks.example/charged' }]
  }
  return s.kind === 'invoice' ? invoiceRequest(common) : cardRequest({ ...common, chargeImmediately: s.kind === 'now' })
}

const withCase = (u: string, upper: boolean): string => (upper ? u.toUpperCase() : u)

/** The amount a transfer pays: a share of what the payment still owes (at least 1). */
const amountOf = (world: World, id: string | undefined, permille: number): number => {
  const p = id === undefined ? undefined : world.payments.get(id)
  return Math.max(1, Math.floor((((p?.grossAmount ?? 10000) - (p?.paidAmount ?? 0)) * permille) / 1000))
}

const openWith = (world: World, kid: string): string | undefined =>
  [...world.payments.values()].find((p) => p.kind === 'invoice' && p.status === 'Initiated' && p.kid === kid)?.paymentReferenceID.toLowerCase()

/** An amount in øre as camt.054 writes it: `150.00`. */
const decimalOf = (ore: number): string => `${String(Math.floor(ore / 100))}.${String(ore % 100).padStart(2, '0')}`

/** The day `days` before `at`, `YYYY-MM-DD`. */
const dayBefore = (at: string, days: number): string => new Date(Date.parse(at) - days * DAY_S * 1000).toISOString().slice(0, 10)

/** One operation, as a function of the world it runs on, and the rows a store loads for it. */
interface Op2 {
  readonly run: (world: World) => Outcome
  readonly keys: RowKeys | BankRowKeys | Camt054RowKeys
  /** A transfer by id reads the payment it is given. */
  readonly payment?: string
}

const httpOp = (request: HttpRequest, ctx: HandleContext): Op2 => ({ run: (w) => handle(w, request, ctx), keys: requestKeys(request, ctx) })

/** The header of a key: bare, or as a structured-field string (`"…"`, `"` and `\\` escaped): one key either way. */
const headersOf = (k: Keyed): { headers?: Record<string, string> } =>
  k === undefined ? {} : { headers: { 'idempotency-key': k.quoted ? `"${k.key.replace(/[\\"]/g, (c) => `\\${c}`)}"` : k.key } }
const scopeOf = (k: Keyed): { idempotencyScope?: string } => (k?.scope === undefined ? {} : { idempotencyScope: k.scope })

const opOf = (world: World, step: Step, at: string): Op2 => {
  const base = { at: step.badAt ? 'yesterday' : at, catchAllUrl: CATCH_ALL }
  switch (step.t) {
    case 'create': {
      const request = { method: 'POST', path: step.path, body: bodyOf(step), ...headersOf(step.keyed) }
      // mostly the id of its reference (a repeat, or a new payment), sometimes another's (PaymentAlreadyExists)
      const target = step.id < 0 ? step.ref : step.id
      return httpOp(request, { ...base, paymentReferenceID: withCase(idOf(target + 1), step.upper), kid: kidOf(step.kid), ...scopeOf(step.keyed) })
    }
    case 'action': {
      const request = { method: 'POST', path: `/payments/${withCase(idOf(step.id + 1), step.upper)}/${step.action}`, ...headersOf(step.keyed) }
      return httpOp(request, { ...base, paymentReferenceID: idOf(99), ...scopeOf(step.keyed) })
    }
    case 'patch': {
      const p = world.payments.get(idOf(step.id + 1))
      const body = p === undefined ? { moneySplitPatch: [], newGrossAmount: 0 } : (patchOf(p, step.ops, step.reversed) ?? { moneySplitPatch: [], newGrossAmount: 0 })
      const request = { method: 'POST', path: `/payments/${idOf(step.id + 1)}/${step.action}`, body, ...headersOf(step.keyed) }
      return httpOp(request, { ...base, paymentReferenceID: idOf(99), ...scopeOf(step.keyed) })
    }
    case 'read': {
      const paths = [
        `/payments/${withCase(idOf(step.n + 1), step.upper)}`,
        `/payments?externalPaymentReferenceID=order-${String(step.n)}`,
        `/payments?externalPaymentReferenceID=order-${String(step.n)}&x=1`,
        `/customers/customer-${String(step.n % 2)}`,
        '/customers/%E0%A4%A',
        '/nowhere'
      ]
      const method = step.what === 5 && step.upper ? 'DELETE' : 'GET'
      return httpOp({ method, path: paths[step.what] ?? '/nowhere' }, { ...base, paymentReferenceID: idOf(99) })
    }
    case 'form': {
      const target = withCase(idOf(step.id + 1), step.upper)
      return {
        run: (w) => (step.complete ? completeForm(w, target, base) : failForm(w, target, { ...base, reason: 'card declined' })),
        keys: formKeys(target)
      }
    }
    case 'transfer': {
      const target = idOf(step.id + 1)
      const kid = step.own ? (world.payments.get(target)?.kid ?? kidOf(step.kid)) : kidOf(step.kid)
      const transfer = { kid, amount: amountOf(world, target, step.permille) }
      return {
        run: (w) => receiveTransfer(w, target, transfer, base),
        keys: { paymentReferenceIDs: [], externalPaymentReferenceIDs: [], customerExternalIDs: [], openInvoiceKids: [] },
        payment: target
      }
    }
    case 'byKid': {
      const kid = kidOf(step.kid)
      const transfer = { kid, amount: amountOf(world, openWith(world, kid), step.permille) }
      return { run: (w) => receiveTransferByKid(w, transfer, base), keys: transferKeys(transfer) }
    }
    case 'ocr': {
      const rows = step.rows.map((r) => {
        const kid = kidOf(r.kid)
        const owed = amountOf(world, openWith(world, kid), Math.abs(r.permille))
        return { kid, amount: r.permille <= 0 ? -owed * Math.sign(-r.permille) : owed, type: r.type }
      })
      const transmission = transmissionOf(rows, `000000${String(step.number + 1)}`)
      return { run: (w) => receiveOcrGiro(w, transmission, base), keys: ocrKeys(transmission) }
    }
    case 'camt': {
      const entries = step.rows.map((r): Camt054DraftEntry => {
        const kid = r.kid < 0 ? undefined : kidOf(r.kid)
        const amount = amountOf(world, kid === undefined ? undefined : openWith(world, kid), r.permille)
        return {
          ...(r.entry < 0 ? {} : { accountServicerReference: `E-${String(r.entry)}` }),
          currency: 'NOK',
          creditDebit: 'CRDT',
          ...(r.reversal ? { reversal: true } : {}),
          bookingDate: dayBefore(at, r.daysBack),
          details: [{ amount: decimalOf(amount), ...(r.ref < 0 ? {} : { transactionReference: `T-${String(r.ref)}` }), ...(kid === undefined ? {} : { creditorReferences: [kid] }) }]
        }
      })
      const xml = camt054Xml({ version: step.version, messageId: `MSG-${String(step.message)}`, createdAt: `${dayBefore(at, 0)}T10:00:00`, notifications: [{ account: 'NO9386011117947', entries }] })
      const read = parseCamt054(xml)
      if (E.isLeft(read)) throw new Error(`the writer wrote a notification paysplit refuses: ${read.left.message}`)
      return { run: (w) => receiveCamt054(w, read.right, base), keys: camt054Keys(read.right) }
    }
  }
}

/**
 * A world that kept `n` answers before the life starts, first used over the last 24 hours, the
 * oldest two seconds apart from just before now: they expire one every other step, or all at once
 * when a day passes. Their keys include those of the life's (a retry may meet one).
 */
const keptKeys = (n: number, now: number): World => {
  const rows = Array.from({ length: n }, (_, i) => ({
    ...(i % 3 === 0 ? { scope: 'api-a' } : {}),
    key: i < 5 ? `k-${String(i)}` : `kept-${String(i)}`,
    at: new Date(now - 24 * 3600 * 1000 + (i + 1) * 2000).toISOString(),
    request: { method: 'POST', path: `/payments/${idOf((i % IDS) + 1)}/cancel` },
    response: { status: 404, body: { response: null, success: false, error: 'No payment has this paymentReferenceID.' } }
  }))
  const built = worldOf({ idempotencyKeys: rows })
  if (E.isLeft(built)) throw new Error(built.left.message)
  return built.right
}

/** An outcome without its world: what the slice law compares. */
const decided = (o: Outcome): Readonly<Record<string, unknown>> => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'world'))

/** What an outcome was, to check that the lives reach every kind of answer. */
const tagOf = (step: Step, outcome: Outcome): string => {
  const o = outcome as unknown as Readonly<Record<string, unknown>>
  const response = o['response'] as { readonly status: number; readonly body: { readonly error?: unknown } } | undefined
  if (response !== undefined) {
    const error = response.body.error
    const code = typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code) : ''
    return `${step.t} ${String(response.status)}${code === '' ? '' : ` ${code}`}`
  }
  const result = o['result'] as E.Either<{ readonly code: string }, unknown> | undefined
  if (result !== undefined) return `${step.t} ${E.isRight(result) ? 'ok' : result.left.code}`
  const report = o['report'] as ReadonlyArray<{ readonly outcome: string }>
  return `${step.t} ${[...new Set(report.map((r) => r.outcome))].sort().join('+')}`
}

/** Answers every run of the property reaches under its seed (a life that never gets there tests less). */
const COVERED = [
  'create 201',
  'create 200',
  'create 409 DuplicateExternalPaymentReference',
  'create 409 DuplicateKid',
  'create 409 PaymentAlreadyExists',
  'create 422 IdempotencyKeyReused',
  'create 500 InvalidContext',
  'action 200',
  'patch 200',
  'read 200',
  'read 400 ValidationFailed',
  'read 404 CustomerNotFound',
  'form ok',
  'transfer ok',
  'byKid ok',
  'byKid UnmatchedTransfer',
  'ocr matched',
  'ocr duplicate',
  'camt matched',
  'camt duplicate',
  'camt refused'
]

// -------------------------------------------------------------------------------------
// the laws
// -------------------------------------------------------------------------------------

describe('C15: the laws of the store contract', () => {
  it('the slice law, and what to write: on the slice its keys name an operation decides as on the whole world; its changes, applied to the rows of the world given, give the rows of the world returned; all empty exactly when the world did not change', () => {
    const seen = new Set<string>()
    const stats = { changed: 0, unchanged: 0, keyedRetries: 0, expired: 0, quoted: 0, forgotten: 0, mostAtOnce: 0, camtForgotten: 0, camtTooOld: 0, camtResent: 0 }
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 10, maxLength: 40 }), fc.nat({ max: 60 }), (steps, kept) => {
        let clock = Date.UTC(2026, 10, 21, 10, 0, 0)
        let world = keptKeys(kept, clock)
        for (const step of steps) {
          clock += step.later * 1000
          const at = new Date(clock).toISOString()
          const op = opOf(world, step, at)
          const whole = op.run(world)
          // the slice law
          const slice = sliceOf(world, op.keys, op.payment === undefined ? [] : [op.payment])
          const onSlice = op.run(slice)
          expect(decided(onSlice)).toStrictEqual(decided(whole))
          // what to write
          const given = rowsOf(world)
          expect(withoutExpired(applyChanges(given, whole.changes), at)).toStrictEqual(withoutExpired(rowsOf(whole.world), at))
          expect(noRows(whole.changes)).toBe(whole.world === world)
          // the events are those the changes number: each payment's, in the order applied
          expect(whole.changes.payments.reduce((n, c) => n + c.events.length, 0)).toBe(whole.events.length)
          for (const c of whole.changes.payments) {
            const own = whole.events.filter((e) => e.paymentReferenceID.toLowerCase() === c.paymentReferenceID.toLowerCase())
            expect(c.events.map((e) => e.event)).toStrictEqual(own)
          }
          if (whole.world === world) stats.unchanged++
          else stats.changed++
          if (step.later > 1) stats.expired++
          if ('keyed' in step && step.keyed !== undefined && whole.world === world) stats.keyedRetries++
          if (step.t === 'camt') {
            const report = (whole as unknown as { readonly report: ReadonlyArray<{ readonly outcome: string; readonly error?: { readonly issues?: ReadonlyArray<{ readonly params?: Readonly<Record<string, unknown>> }> } }> }).report
            if (withoutExpired(given, at).camt054Transactions.size < given.camt054Transactions.size) stats.camtForgotten++
            if (report.some((r) => r.error?.issues?.[0]?.params?.['rule'] === 'too-old')) stats.camtTooOld++
            if (whole.world !== world && report.some((r) => r.outcome === 'duplicate')) stats.camtResent++
          }
          if ('keyed' in step && step.keyed?.quoted === true) stats.quoted++
          // keys forgotten by this step: those the world held, less those it holds (beside the one it added)
          const forgotten = (world.idempotencyKeys?.size ?? 0) + whole.changes.idempotencyKeys.length - (whole.world.idempotencyKeys?.size ?? 0)
          stats.forgotten += Math.max(0, forgotten)
          stats.mostAtOnce = Math.max(stats.mostAtOnce, forgotten)
          world = whole.world
          seen.add(tagOf(step, whole))
        }
      })
    )
    // the lives are not trivial: worlds change and stay, keys are answered again, time passes, and
    // every kind of answer comes (checked at the usual number of runs or more)
    if ((fc.readConfigureGlobal().numRuns ?? 100) >= 100) {
      expect(stats.changed).toBeGreaterThan(200)
      expect(stats.unchanged).toBeGreaterThan(200)
      expect(stats.keyedRetries).toBeGreaterThan(20)
      expect(stats.expired).toBeGreaterThan(20)
      expect(stats.quoted).toBeGreaterThan(100)
      expect(stats.forgotten).toBeGreaterThan(1000)
      expect(stats.mostAtOnce).toBeGreaterThanOrEqual(30)
      // camt.054: transactions resent in another notification, booked too long ago, forgotten
      expect(stats.camtResent).toBeGreaterThan(20)
      expect(stats.camtTooOld).toBeGreaterThan(10)
      expect(stats.camtForgotten).toBeGreaterThan(5)
      for (const tag of COVERED) expect(seen).toContain(tag)
    }
  })
})
