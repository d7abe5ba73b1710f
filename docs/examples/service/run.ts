/**
 * Runs the service from the environment: configuration printed, migrations applied, listening,
 * stopped gracefully on SIGTERM/SIGINT (no new connections, requests in flight finish, the relay
 * stops, the database closes). With PAYSPLIT_PROFILE=1, SIGUSR2 logs the time spent in paysplit
 * and the process's CPU time so far (the benchmark reads them).
 */
import { describeConfig, loadConfig } from './config.js'
import { jsonLogger } from './log.js'
import type { Rules } from './paysplit.js'
import { createService } from './server.js'

export const runFromEnvironment = async (rules?: Rules): Promise<void> => {
  const log = jsonLogger()
  const config = loadConfig()
  log.info('configuration', describeConfig(config))
  const profile = process.env['PAYSPLIT_PROFILE'] === '1' ? { ms: 0, byRule: {}, requestMs: 0 } : undefined
  const service = await createService(config, { log, ...(rules !== undefined ? { rules } : {}), ...(profile !== undefined ? { profile } : {}) })
  const base = await service.listen()
  log.info('listening', { url: base, database: service.db.driver })

  if (profile !== undefined) {
    process.on('SIGUSR2', () => {
      const cpu = process.cpuUsage()
      log.info('profile', { paysplitMs: profile.ms, byRule: profile.byRule, requestMs: profile.requestMs, cpuMs: (cpu.user + cpu.system) / 1000 })
    })
  }
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
}
