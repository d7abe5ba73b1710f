/** The baseline service of `npm run bench:service` (./service-baseline.ts), run from the environment like main.ts. */
import { runFromEnvironment } from '../docs/examples/service/run.js'
import { baselineRules } from './service-baseline.js'

await runFromEnvironment(baselineRules)
