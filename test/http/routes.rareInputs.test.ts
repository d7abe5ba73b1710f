/**
 * Branches of src/http/routes.ts that the other tests reached only through generated requests
 * (measured with `npm run test:coverage` at one run per property): the fragment of a request
 * target.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { matchRoute } from '../../src/http/routes.js'

describe('routes: the remaining branches', () => {
  it('matchRoute ignores a fragment, and a fragment after a query string', () => {
    expect(matchRoute('POST', '/payments#top')).toEqual(E.right({ name: 'createPayment' }))
    expect(matchRoute('POST', '/payments?x=1#top')).toEqual(E.right({ name: 'createPayment' }))
    expect(matchRoute('POST', '/payments#top?x=1')).toEqual(E.right({ name: 'createPayment' }))
  })
})
