/**
 * `npm run serve`: the reference payments service, configured from the environment (defaults
 * printed at start; docs/service.md has the table). SIGTERM or SIGINT stops it gracefully.
 */
import { runFromEnvironment } from './run.js'

await runFromEnvironment()
