/**
 * Bank notifications (docs/rules.md C17): what a camt.054 notification holds once read — its
 * transactions, the versions read, the rules a document is checked by. No XML here: the parser
 * (`camt054.ts`, the only module that imports the XML package), the writer and the kit share it.
 *
 * @module camt054Model
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The versions of camt.054 `parseCamt054` reads (docs/decisions.md "camt.054 notifications"). */
export type Camt054Version = 'camt.054.001.02' | 'camt.054.001.04' | 'camt.054.001.08'

/**
 * Why a transaction of a notification cannot be applied as it is, found while reading it
 * (docs/rules.md C17); `receiveCamt054` reports it `refused` with this rule:
 * `currency` (not NOK), `decimals` (more than two decimals: not rounded), `amount-range` (more
 * than 2^53 − 1 øre), `creditor-references` (several different structured creditor references:
 * which invoice is paid is not known), `batch-without-details` (a batch entry that lists none of
 * its transactions).
 */
export type Camt054Refusal = 'currency' | 'decimals' | 'amount-range' | 'creditor-references' | 'batch-without-details'

/**
 * One transaction of a camt.054 notification: a transaction detail (`TxDtls`) of a booked credit
 * entry, or of a booked reversal, or the entry itself when it lists no details. Strings are as
 * in the document (trimmed); the KID is the structured creditor reference of type `SCOR`.
 */
export interface Camt054Transaction {
  /** Its position among the notification's transactions, counted from 1 (the report's `transactionNumber`). */
  readonly transactionNumber: number
  /** The account the notification reports (`Acct/Id/IBAN`, else `Acct/Id/Othr/Id`). */
  readonly account: string
  /** The entry's reference: `Ntry/AcctSvcrRef`, else `Ntry/NtryRef`; `''` when it has neither. */
  readonly entryReference: string
  /** The transaction's reference: `TxDtls/Refs/AcctSvcrRef`, when given. */
  readonly transactionReference?: string
  /** Its position among its entry's transaction details, counted from 1; `0` for an entry that lists none. */
  readonly detailNumber: number
  /** The KID: the one structured creditor reference of type `SCOR` (`RmtInf/Strd/CdtrRefInf/Ref`); absent when there is none, or several different ones. */
  readonly kid?: string
  /** Every structured creditor reference of type `SCOR`, in document order. */
  readonly creditorReferences: ReadonlyArray<string>
  /** In øre, converted exactly: negative for money out (a debit); `0` when it has no exact value in øre (see `refusal`). */
  readonly amount: number
  /** The currency of the amount (its `Ccy`). */
  readonly currency: string
  /** The amount as written (`Amt`, or `AmtDtls/TxAmt/Amt`, or the entry's `Amt`), without sign. */
  readonly decimalAmount: string
  /** The entry's booking date (`BookgDt/Dt`, or the date of `BookgDt/DtTm`), `YYYY-MM-DD`. */
  readonly bookingDate: string
  /** The entry is a reversal (`RvslInd` true). */
  readonly reversal: boolean
  /** Why it cannot be applied as it is, when it cannot. */
  readonly refusal?: Camt054Refusal
  /** The element it was read from, e.g. `/Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[2]/NtryDtls[1]/TxDtls[3]`. */
  readonly path: string
}

/** A camt.054 document as `parseCamt054` reads it. */
export interface Camt054Notification {
  /** `GrpHdr/MsgId`: a notification is applied once by it. */
  readonly messageId: string
  /** `GrpHdr/CreDtTm`, as written. */
  readonly createdAt: string
  readonly version: Camt054Version
  /** The transactions of its booked credit entries and booked reversals, in document order. */
  readonly transactions: ReadonlyArray<Camt054Transaction>
}

/**
 * The rules a camt.054 document is checked by, each named in `params.rule` of the issue that
 * reports it (docs/rules.md C17).
 */
export type Camt054Rule =
  | 'size'
  | 'well-formed'
  | 'doctype'
  | 'depth'
  | 'message'
  | 'version'
  | 'required'
  | 'repeated'
  | 'length'
  | 'amount'
  | 'currency'
  | 'code'
  | 'date'
  | 'count'
  | 'transaction-amount'
  | 'entry-sum'
  | 'batch-count'
  | 'batch-sum'
  | 'summary-count'
  | 'summary-sum'

/**
 * The versions of camt.054 read, in order; a document of another version is refused naming it.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { CAMT054_VERSIONS, parseCamt054 } from 'paysplit/camt054'
 * assert.deepStrictEqual(CAMT054_VERSIONS, ['camt.054.001.02', 'camt.054.001.04', 'camt.054.001.08'])
 * const read = parseCamt054('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.13"/>')
 * assert.ok(E.isLeft(read))
 * assert.deepStrictEqual(read.left.issues?.[0]?.params, { format: 'camt.054 document', rule: 'version', found: 'camt.054.001.13', allowed: CAMT054_VERSIONS })
 */
export const CAMT054_VERSIONS: ReadonlyArray<Camt054Version> = ['camt.054.001.02', 'camt.054.001.04', 'camt.054.001.08']
