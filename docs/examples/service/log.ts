/** JSON logs, one object a line on stdout, each with a time and a level; requests add their id. */
export interface Logger {
  info(msg: string, fields?: Readonly<Record<string, unknown>>): void
  warn(msg: string, fields?: Readonly<Record<string, unknown>>): void
  error(msg: string, fields?: Readonly<Record<string, unknown>>): void
}

/** Writes JSON lines to `write` (default: stdout). */
export const jsonLogger = (write: (line: string) => void = (line) => process.stdout.write(line + '\n')): Logger => {
  const at =
    (level: string) =>
    (msg: string, fields: Readonly<Record<string, unknown>> = {}): void => {
      write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }))
    }
  return { info: at('info'), warn: at('warn'), error: at('error') }
}

/** Writes nothing (tests). */
export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined }
