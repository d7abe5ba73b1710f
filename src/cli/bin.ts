#!/usr/bin/env node
/**
 * The `paysplit-check` executable: runs the command with the process's arguments and exits with
 * its code (docs/testing.md, "The command line"); `paysplit-check mock` runs until SIGINT or SIGTERM.
 */
import { runCli } from './paysplitCheck.js'

const args = process.argv.slice(2)
const stop = new AbortController()
// the mock runs until stopped: a signal closes it (the check itself keeps Node's own handling)
if (args[0] === 'mock') for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { stop.abort(); })

void runCli(args, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stderr.isTTY,
  now: () => Date.now(),
  env: process.env,
  signal: stop.signal
}).then((code) => {
  process.exitCode = code
})
