/**
 * Fixtures of the bank-file tests (OCR giro, camt.054): KIDs, a world of open invoices holding
 * them, what an invoice was paid, and which leaves of a read value an edit changed.
 */
import * as E from 'fp-ts/lib/Either.js'
import { kid as kidNumber } from '../../src/index.js'
import { getPayment, type World } from '../../src/http.js'
import { Session, invoiceRequest } from './http.fixtures.js'

/** The KID of invoice `n` (MOD10 for even `n`, MOD11 for odd). */
export const kidOf = (n: number): string => {
  const made = kidNumber.create(String(7000 + n), n % 2 === 0 ? 'mod10' : 'mod11')
  if (E.isLeft(made)) throw new Error('kid')
  return made.right
}

/** A session with open invoices of 10000 øre, KIDs kidOf(1..n), and their ids; kidOf(n+1..) are held by none. */
export const withInvoices = (n: number): { s: Session; ids: string[] } => {
  const s = new Session()
  const ids = Array.from({ length: n }, (_, i) => s.create(invoiceRequest({ externalPaymentReferenceID: `invoice-${i + 1}` }), { kid: kidOf(i + 1) }))
  return { s, ids }
}

/** The world of {@link withInvoices}. */
export const worldWith = (n: number): World => withInvoices(n).s.world

/** An invoice's status and paid amount in a world, `undefined` when there is no such payment. */
export const paidOf = (world: World, id: string): unknown => {
  const p = getPayment(world, id)
  return p._tag === 'Some' ? [p.value.status, p.value.paidAmount] : undefined
}

/** Every leaf of a value by its path (absent fields are absent). */
const leaves = (v: unknown, path: string, out: Map<string, unknown>): Map<string, unknown> => {
  if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) leaves(x, path === '' ? k : `${path}.${k}`, out)
  } else out.set(path, v)
  return out
}

/** The paths (`a.0.b`) whose leaf differs between two values, sorted; a field absent on one side is one change. */
export const changedPaths = (a: unknown, b: unknown): string[] => {
  const la = leaves(a, '', new Map())
  const lb = leaves(b, '', new Map())
  return [...new Set([...la.keys(), ...lb.keys()])].filter((p) => !Object.is(la.get(p), lb.get(p))).sort()
}
