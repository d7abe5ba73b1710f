/**
 * Every planted bug of the conformance kit (test/support/conformance.planted.ts) is caught under every
 * seed, not by the luck of one: each bug's aimed check runs under consecutive seeds from the run's
 * seed (test/support/setup.ts: fixed in `npm test`, random in `npm run test:long`), 10 of them in
 * `npm test` and 200 at PAYSPLIT_NUM_RUNS_FACTOR ≥ 100. Shrinking is switched off here
 * (`endOnFailure`): a sweep asks only whether the bug is found; the shrunk counterexamples are
 * pinned by test/testing-kit/conformance.inProcess.test.ts and test/testing-kit/conformance.brokenServices.test.ts.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkService } from '../../src/conformance.js'
import { plantedBugs, plantedCheck, runsFor } from '../support/conformance.planted.js'

const factor = Number(process.env['PAYSPLIT_NUM_RUNS_FACTOR'] ?? '1')
const SEEDS = Number.isFinite(factor) && factor >= 100 ? 200 : 10

let saved: fc.GlobalParameters = {}
beforeAll(() => {
  saved = fc.readConfigureGlobal()
  fc.configureGlobal({ ...saved, endOnFailure: true })
})
afterAll(() => {
  fc.configureGlobal(saved)
})

describe(`checkService catches each planted bug under each of ${String(SEEDS)} seeds`, () => {
  for (const bug of plantedBugs) {
    it(bug.name, async () => {
      const first = fc.readConfigureGlobal().seed ?? 0
      const missed: number[] = []
      for (let i = 0; i < SEEDS; i++) {
        const seed = (first + i) | 0
        const report = await checkService(plantedCheck(bug, { seed }))
        if (report.ok) missed.push(seed)
      }
      expect(missed, `seeds under which ${String(runsFor(bug.share))} runs missed the bug`).toEqual([])
    })
  }

  it('the conforming model passes every aimed check (each bug is the only difference)', async () => {
    for (const bug of plantedBugs) {
      const report = await checkService(plantedCheck({ ...bug, plant: () => ({}) }, { numRuns: 10 }))
      expect(report, bug.name).toMatchObject({ ok: true })
    }
  })
})
