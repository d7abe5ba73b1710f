/**
 * Runs the service: configuration printed (secrets masked; a banner in development mode), the port
 * bound (a port it cannot have ends the process with exit code 78 and one log line naming it,
 * before the database is opened or migrated), migrations applied, answering, and stopped by
 * SIGTERM/SIGINT with a drain (`/readyz` 503 at once, answers with `Connection: close` for
 * `DRAIN_PERIOD_MS`, then the listener closes, requests in flight finish, the relay stops, the
 * database closes, exit 0; a second signal ends the drain early). With PAYSPLIT_PROFILE=1, SIGUSR2
 * logs the time spent in paysplit and the process's CPU time so far (the benchmark reads them).
 */
import { createServer } from 'node:http'
import { configFromEnvironment, describeConfig, EXIT_CONFIG, secretsOf, type Config } from './config.js'
import { jsonLogger } from './log.js'
import type { Rules } from './paysplit.js'
import { createService, listenOn, PortUnavailable, startingHandler, type Service } from './server.js'

const banner = (config: Config): string => {
  const database = config.databaseUrl !== undefined ? 'PostgreSQL' : config.pgliteDir !== undefined ? 'PGlite in a folder' : 'in memory (lost at exit)'
  const lines = [
    'DEVELOPMENT MODE: the development API, bank and metrics keys and',
    `webhook secret are live; the database is ${database}.`,
    'Loopback only. Never run it so for real: docs/service.md,',
    '"Running in production".'
  ]
  const width = Math.max(...lines.map((l) => l.length))
  const rule = '─'.repeat(width + 2)
  return ['', `  ┌${rule}┐`, ...lines.map((l) => `  │ ${l.padEnd(width)} │`), `  └${rule}┘`, ''].join('\n')
}

/** Runs the service with `config` until SIGTERM/SIGINT. */
export const runService = async (config: Config, rules?: Rules): Promise<void> => {
  const log = jsonLogger(undefined, secretsOf(config))
  // The signals are handled from the first moment: a SIGTERM sent as soon as "listening" is read
  // (the line is written before the code after it runs) must not find node's default action,
  // which ends the process at once. One during the start stops the service once it is built.
  const started: { service?: Service } = {}
  let stopping = false
  const finish = (s: Service): void => {
    s.close()
      .then(() => {
        log.info('stopped')
        process.exit(0)
      })
      .catch((e: unknown) => {
        log.error('stop failed', { error: e instanceof Error ? e.message : String(e) })
        process.exit(1)
      })
  }
  const stop = (signal: string): void => {
    if (stopping) {
      log.info('drain ended early', { signal })
      started.service?.endDrain()
      return
    }
    stopping = true
    log.info('stopping', { signal })
    if (started.service !== undefined) finish(started.service)
  }
  process.on('SIGTERM', () => {
    stop('SIGTERM')
  })
  process.on('SIGINT', () => {
    stop('SIGINT')
  })

  if (config.mode === 'development') process.stderr.write(banner(config) + '\n')
  log.info('configuration', describeConfig(config))
  if (config.mode === 'development') log.warn('development mode', { reason: 'DEV_MODE=1 without NODE_ENV=production' })
  // The port first: a port another process holds stops the service before any migration runs.
  const server = createServer(startingHandler)
  try {
    await listenOn(server, config.host, config.port)
  } catch (e) {
    if (!(e instanceof PortUnavailable)) throw e
    log.error('port unavailable', { host: e.host, port: e.port, code: e.code, problem: e.message })
    process.stderr.write(`The service cannot start: ${e.message}\n`)
    process.exit(EXIT_CONFIG)
  }
  const profile = process.env['PAYSPLIT_PROFILE'] === '1' ? { ms: 0, byRule: {}, requestMs: 0 } : undefined
  if (profile !== undefined) {
    process.on('SIGUSR2', () => {
      const cpu = process.cpuUsage()
      log.info('profile', { paysplitMs: profile.ms, byRule: profile.byRule, requestMs: profile.requestMs, cpuMs: (cpu.user + cpu.system) / 1000 })
    })
  }
  const built = await createService(config, { log, server, ...(rules !== undefined ? { rules } : {}), ...(profile !== undefined ? { profile } : {}) })
  started.service = built
  const base = await built.listen()
  log.info('listening', { url: base, database: built.db.driver })
  if (stopping) finish(built)
}

/** `runService` on the configuration of `process.env` (refused: exit 78); the benchmark's baseline runs it with other rules. */
export const runFromEnvironment = async (rules?: Rules): Promise<void> => {
  await runService(configFromEnvironment(), rules)
}
