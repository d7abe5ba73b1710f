/**
 * C15 for camt.054 on a real database: paysplit/schema.sql (PGlite, in-process) keeps a
 * notification's rows in `camt054_messages` and `camt054_transactions`, and `paysplit.load` reads
 * back exactly the rows `camt054Keys` names: a store that writes `changes` and loads by key
 * applies a notification once, each transaction once, and forgets after 400 days.
 */
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  camt054Keys,
  emptyWorld,
  handle,
  receiveCamt054,
  worldOf,
  type Camt054Notification,
  type Camt054Received,
  type Changes,
  type RowKeys,
  type World,
  type WorldRows
} from '../../src/http.js'
import { camt054Xml, parseCamt054, type Camt054DraftEntry } from '../../src/camt054.js'
import { kidOf } from '../support/bank.fixtures.js'
import { atOf, idOf, invoiceRequest } from '../support/http.fixtures.js'

let db: PGlite

beforeAll(async () => {
  db = await PGlite.create()
  await db.exec(readFileSync(new URL('../../docs/schema.sql', import.meta.url), 'utf8'))
})
afterAll(async () => {
  await db.close()
})

/** The rows `keys` name, as `paysplit.load` gives them, and the world `worldOf` builds from them. */
const load = async (keys: RowKeys): Promise<readonly [WorldRows, World]> => {
  const result = await db.query<{ rows: WorldRows }>('SELECT paysplit.load($1) AS rows', [JSON.stringify(keys)])
  const rows = result.rows[0]?.rows ?? {}
  const world = worldOf(rows)
  if (E.isLeft(world)) throw new Error(world.left.message)
  return [rows, world.right]
}

/** `changes` written as a store writes them: payments at their version; a camt.054 row replaced only when it was loaded (an expired one). */
const write = async (changes: Changes, loaded: World): Promise<void> => {
  const insert = (table: string, row: unknown, replace = false): Promise<unknown> =>
    db.query(`INSERT INTO paysplit.${table} (data) VALUES ($1) ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data WHERE $2::boolean`, [JSON.stringify(row), replace])
  for (const p of changes.payments) {
    const written = await db.query(
      'INSERT INTO paysplit.payments (data) VALUES ($1) ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data WHERE payments.version = $2::integer RETURNING 1',
      [JSON.stringify(p.state), p.fromVersion]
    )
    expect(written.rows).toHaveLength(1)
    for (const e of p.events) await insert('events', e)
  }
  for (const c of changes.customers) await insert('customers', c)
  for (const r of changes.references) await insert('payment_references', r)
  for (const m of changes.camt054Messages ?? []) await insert('camt054_messages', m, loaded.camt054Messages?.has(m.messageId))
  for (const t of changes.camt054Transactions ?? []) await insert('camt054_transactions', t, loaded.camt054Transactions?.has(t.transactionKey))
}

const notification = (messageId: string, entries: ReadonlyArray<Camt054DraftEntry>): Camt054Notification => {
  const read = parseCamt054(camt054Xml({ version: 'camt.054.001.08', messageId, createdAt: '2026-11-21T10:00:00', notifications: [{ account: 'NO9386011117947', entries }] }))
  if (E.isLeft(read)) throw new Error(read.left.message)
  return read.right
}

const credit = (ref: string, amount: string, bookingDate = '2026-11-21'): Camt054DraftEntry => ({
  accountServicerReference: ref,
  currency: 'NOK',
  creditDebit: 'CRDT',
  bookingDate,
  details: [{ amount, transactionReference: `${ref}-T`, creditorReferences: [kidOf(1)] }]
})

/** One operation as a store runs it: load by keys, the operation, its changes written. */
const receive = async (n: Camt054Notification, at: string): Promise<Camt054Received> => {
  const [, world] = await load(camt054Keys(n))
  const done = receiveCamt054(world, n, { at })
  await write(done.changes, world)
  return done
}

const count = async (table: string): Promise<number> => Number((await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM paysplit.${table}`)).rows[0]?.n)

describe('C15: camt.054 rows in paysplit/schema.sql', () => {
  it('paysplit.load reads the rows camt054Keys names; a notification applies once, a transaction resent is duplicate, 400 days on both are forgotten and replaced', async () => {
    const created = handle(emptyWorld, { method: 'POST', path: '/payments', body: invoiceRequest() }, { at: atOf(1), paymentReferenceID: idOf(1), kid: kidOf(1) })
    await write(created.changes, emptyWorld)

    const first = notification('MSG-1', [credit('E-1', '40.00')])
    const [before] = await load(camt054Keys(first))
    expect([before.payments?.length, before.camt054Messages, before.camt054Transactions]).toStrictEqual([1, [], []])
    const applied = await receive(first, atOf(2))
    expect(applied.report.map((r) => r.outcome)).toStrictEqual(['matched'])
    expect([await count('camt054_messages'), await count('camt054_transactions')]).toStrictEqual([1, 1])

    // what load gives back is what the changes wrote, by key: the same rows worldOf takes
    const [rows] = await load(camt054Keys(first))
    expect([rows.camt054Messages, rows.camt054Transactions]).toStrictEqual([applied.changes.camt054Messages, applied.changes.camt054Transactions])
    // a key it does not name is not loaded
    const [other] = await load(camt054Keys(notification('MSG-9', [credit('E-9', '1.00')])))
    expect([other.camt054Messages, other.camt054Transactions]).toStrictEqual([[], []])

    // again: every row duplicate, nothing written; its transaction in another notification: duplicate
    expect((await receive(first, atOf(3))).report.map((r) => r.outcome)).toStrictEqual(['duplicate'])
    const resent = await receive(notification('MSG-2', [credit('E-1', '40.00'), credit('E-2', '60.00')]), atOf(4))
    expect(resent.report.map((r) => r.outcome)).toStrictEqual(['duplicate', 'matched'])
    expect([await count('camt054_messages'), await count('camt054_transactions')]).toStrictEqual([2, 2])

    // 401 days on, the rows still stored are read as forgotten: the message is applied again (its
    // old transaction refused as too old), and the store replaces the expired message row it loaded
    const later = new Date(Date.parse(atOf(4)) + 401 * 86_400_000).toISOString()
    const again = await receive(notification('MSG-1', [credit('E-1', '40.00'), credit('E-3', '5.00', later.slice(0, 10))]), later)
    expect(again.report.map((r) => (r.outcome === 'refused' ? r.error.issues?.[0]?.params?.['rule'] : r.outcome))).toStrictEqual(['too-old', 'unmatched'])
    const [now] = await load(camt054Keys(notification('MSG-1', [])))
    expect(now.camt054Messages).toStrictEqual([{ messageId: 'MSG-1', at: later }])
    // a store deletes what is older than 400 days at its own pace, by the indexed columns
    const cutoff = new Date(Date.parse(later) - 400 * 86_400_000).toISOString()
    await db.query('DELETE FROM paysplit.camt054_messages WHERE at < $1', [cutoff])
    await db.query('DELETE FROM paysplit.camt054_transactions WHERE booking_date < $1', [cutoff.slice(0, 10)])
    expect([await count('camt054_messages'), await count('camt054_transactions')]).toStrictEqual([1, 1])
  })
})
