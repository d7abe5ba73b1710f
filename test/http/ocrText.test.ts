/**
 * The OCR giro writer of `paysplit/http` (`ocrGiroText`, docs/rules.md C14): the case its
 * arbitrary never makes — a terminal's transaction (types 20 and 21) without free text is written
 * with a blank item 3, which reads back as empty free text.
 */
import { describe, expect, it } from 'vitest'
import { ocrGiroText, parseOcrGiro } from '../../src/http.js'
import { transmissionOf } from '../support/ocr.fixtures.js'

describe('ocrGiroText', () => {
  it('a type-21 transaction without freeText: item 3 written blank, read back as empty free text', () => {
    const given = transmissionOf([{ kid: '12345674', amount: 500, type: 21 }])
    const [t] = given.assignments[0]?.transactions ?? []
    const { freeText, ...withoutText } = t ?? { freeText: undefined }
    expect(freeText).toBe('terminal')
    const text = ocrGiroText({ ...given, assignments: [{ ...(given.assignments[0] as NonNullable<(typeof given.assignments)[0]>), transactions: [withoutText as NonNullable<typeof t>] }] })
    expect(text.split('\n')[4]).toBe(`NY0921320000001${' '.repeat(40)}${'0'.repeat(25)}`)
    const read = parseOcrGiro(text)
    expect(read._tag === 'Right' ? read.right.assignments[0]?.transactions[0]?.freeText : read.left.message).toBe('')
  })
})
