/**
 * The reference payments service's entry point (`node dist/main.js`; `npm run serve` in
 * development mode): the configuration is read first, and a configuration the service refuses
 * ends the process with exit code 78 (EX_CONFIG) and a log line naming every problem, before
 * anything else is loaded. SIGTERM or SIGINT stops it gracefully. docs/service.md has the settings.
 */
import { configFromEnvironment } from './config.js'

const config = configFromEnvironment()
const { runService } = await import('./run.js')
await runService(config)
