/**
 * `npm run serve`: the reference payments service, configured from the environment (defaults
 * printed at start; docs/service.md has the table). SIGTERM or SIGINT stops it gracefully.
 */
import { describeConfig, loadConfig } from './config.js'
import { jsonLogger } from './log.js'
import { createService } from './server.js'

const log = jsonLogger()
const config = loadConfig()
log.info('configuration', describeConfig(config))
const service = await createService(config, { log })
const base = await service.listen()
log.info('listening', { url: base, database: service.db.driver })

let stopping = false
const stop = (signal: string): void => {
  if (stopping) return
  stopping = true
  log.info('stopping', { signal })
  service
    .close()
    .then(() => {
      log.info('stopped')
      process.exit(0)
    })
    .catch((e: unknown) => {
      log.error('stop failed', { error: e instanceof Error ? e.message : String(e) })
      process.exit(1)
    })
}
process.on('SIGTERM', () => {
  stop('SIGTERM')
})
process.on('SIGINT', () => {
  stop('SIGINT')
})
