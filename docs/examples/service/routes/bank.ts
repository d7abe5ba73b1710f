/**
 * `POST /bank/transfers` `{ kid, amount }`: the bank reports money received with a KID. Applied
 * to the open invoice holding that KID, in one transaction; when none does, the transfer is
 * parked in `unmatched_transfers` (same transaction) for manual matching and answered as such,
 * never dropped.
 */
import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { IncomingMessage } from 'node:http'
import type { Payment, PaymentError } from 'paysplit'
import { errorResponse, httpStatusOf } from 'paysplit/http'
import { noKeys } from '../db/store.js'
import { json, parseJson, readBody, type Reply } from '../http.js'
import { runTransaction } from '../transaction.js'
import type { Deps } from './context.js'

const field = (body: unknown, key: string): unknown =>
  typeof body === 'object' && body !== null && Object.prototype.hasOwnProperty.call(body, key)
    ? (body as Record<string, unknown>)[key]
    : undefined

export const bankTransfer = async (deps: Deps, req: IncomingMessage, requestId: string): Promise<Reply> => {
  const read = await readBody(req, 16 * 1024)
  if (read.kind === 'tooLarge') return json(413, { success: false, error: { code: 'PayloadTooLarge', message: 'The request body is too large.' } })
  if (read.kind === 'aborted') return json(400, undefined)
  let body: unknown
  try {
    body = parseJson(read.text)
  } catch {
    return json(400, errorResponse(undefined, { code: 'ValidationFailed', message: 'The request body is not valid JSON.' }).body)
  }
  const kid = field(body, 'kid')
  const amount = field(body, 'amount')
  const transfer = { kid: kid as string, amount: amount as number }
  const unmatchedId = randomUUID()
  const catchAll = deps.config.catchAllUrl !== undefined ? { catchAllUrl: deps.config.catchAllUrl } : {}
  const outcome = await runTransaction<E.Either<PaymentError, Payment>>(
    deps.db,
    {
      keys: { ...noKeys, openKids: typeof kid === 'string' ? [kid] : [] },
      lock: true,
      lockCustomers: false,
      run: (world) => {
        const at = deps.now()
        const { world: after, result, deliveries, events } = deps.rules.transferByKid(world, transfer, { at, ...catchAll })
        const unmatched = E.isLeft(result) && result.left.code === 'UnmatchedTransfer'
        return {
          world: after,
          result,
          deliveries,
          events,
          ...(unmatched
            ? {
                extra: async (tx) => {
                  await tx.query('INSERT INTO unmatched_transfers (id, kid, amount, request_id) VALUES ($1, $2, $3, $4)', [
                    unmatchedId,
                    transfer.kid,
                    transfer.amount,
                    requestId
                  ])
                }
              }
            : {})
        }
      }
    },
    { attempts: deps.config.maxTransactionAttempts, retryDuplicateKid: false, rules: deps.rules }
  )
  if (outcome.kind !== 'done') return json(409, { success: false, error: { code: 'ConcurrentModification', message: 'The invoice kept changing; try again.' } })
  if (outcome.deliveries > 0) deps.outboxWritten()
  const result = outcome.result
  if (E.isRight(result)) {
    const p = result.right
    return json(200, { success: true, matched: true, paymentReferenceID: p.paymentReferenceID, status: p.status, paidAmount: p.paidAmount })
  }
  if (result.left.code === 'UnmatchedTransfer') {
    return json(202, { success: true, matched: false, unmatchedTransferID: unmatchedId, error: { code: result.left.code, message: result.left.message } })
  }
  return json(httpStatusOf(result.left), { success: false, error: { code: result.left.code, message: result.left.message, ...(result.left.issues !== undefined ? { issues: result.left.issues } : {}) } })
}
