/**
 * Branches of src/codecs/validators.ts that the other tests left uncovered (measured with
 * `npm run test:coverage`): the fraction digits of a timestamp, and the URL shapes the fast path
 * of `isHttpUrl` hands to the WHATWG parser.
 */
import { describe, expect, it } from 'vitest'
import { isHttpUrl } from '../../src/codecs.js'
import { isTimestamp } from '../../src/codecs/validators.js'

const parserSays = (s: string): boolean => {
  try {
    const u = new URL(s)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0
  } catch {
    return false
  }
}

describe('validators: the remaining branches', () => {
  it('isTimestamp rejects a non-digit among the fraction digits', () => {
    expect(isTimestamp('2026-11-21T10:00:00.0a0Z')).toBe(false)
    expect(isTimestamp('2026-11-21T10:00:00.000Z')).toBe(true)
  })

  it('isHttpUrl leaves a host with an xn-- label before the last to the URL parser', () => {
    const url = 'https://xn--bcher-kva.example.com/hooks'
    expect(isHttpUrl(url)).toBe(parserSays(url))
    expect(isHttpUrl(url)).toBe(true)
    expect(isHttpUrl('https://xn--.example.com/')).toBe(parserSays('https://xn--.example.com/'))
  })

  it('isHttpUrl leaves a port of more than five digits to the URL parser', () => {
    for (const url of ['https://example.com:000080/hooks', 'https://example.com:123456/', 'http://example.com:0000000001']) {
      expect(isHttpUrl(url)).toBe(parserSays(url))
    }
    expect(isHttpUrl('https://example.com:000080/hooks')).toBe(true)
    expect(isHttpUrl('https://example.com:123456/')).toBe(false)
  })

  it('isHttpUrl leaves a host with an empty label to the URL parser', () => {
    for (const url of ['https://shop..example/hooks', 'https://.shop.example/', 'http://a..b']) {
      expect(isHttpUrl(url)).toBe(parserSays(url))
    }
  })
})
