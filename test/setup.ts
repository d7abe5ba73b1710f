import fc from 'fast-check'

/**
 * Property run counts: `npm test` runs each property at its default count; `npm run test:long`
 * sets PAYSPLIT_NUM_RUNS_FACTOR=100 to run every property 100× as often.
 */
const factor = Number(process.env['PAYSPLIT_NUM_RUNS_FACTOR'] ?? '1')
fc.configureGlobal({ numRuns: Math.max(1, Math.round(100 * (Number.isFinite(factor) ? factor : 1))) })
