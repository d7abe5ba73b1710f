import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { edges, guards } from '../../src/transitions.js'

const doc = readFileSync(new URL('../../docs/state-machine.md', import.meta.url), 'utf8')

const diagramLines = (): ReadonlyArray<string> => {
  const block = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? ''
  return block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes('-->') && !l.endsWith('--> [*]'))
}

const drawn = (e: (typeof edges)[number]): string =>
  `${e.from === 'NoPayment' ? '[*]' : e.from} --> ${e.to} : ${e.command} [${e.kind}]${e.when === undefined ? '' : ` (${e.when})`}`

describe('docs/state-machine.md', () => {
  it('draws exactly the edges of the transition table in src/transitions.ts', () => {
    expect([...diagramLines()].sort()).toEqual(edges.map(drawn).sort())
  })

  it('lists the guards of every command in the order the code checks them', () => {
    for (const [command, gs] of Object.entries(guards)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| ${command} |`))
      expect(row, `a row for ${command}`).toBeDefined()
      const named = [...(row ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1])
      expect(named.slice(0, gs.length)).toEqual(gs.map((g) => g.code))
    }
  })

  it('C9: the diagram shows where the payment form hands the customer back (successUrl, failedUrl)', () => {
    const block = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? ''
    expect(block).toMatch(/note left of Reserved : CompletePaymentForm .*successUrl/)
    expect(block).toMatch(/note right of Initiated : FailPaymentForm.*failedUrl/)
  })

  it('draws an exit from the terminal states and no other edge out of them', () => {
    expect(edges.filter((e) => e.from === 'Cancelled' || e.from === 'Refunded')).toEqual([])
    expect(doc).toContain('Cancelled --> [*]')
    expect(doc).toContain('Refunded --> [*]')
  })
})
