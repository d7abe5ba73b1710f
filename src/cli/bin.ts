#!/usr/bin/env node
/**
 * The `paysplit-check` executable: runs the command with the process's arguments and exits with
 * its code (docs/testing.md, "From the command line").
 */
import { runCli } from './paysplitCheck.js'

void runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stderr.isTTY,
  now: () => Date.now()
}).then((code) => {
  process.exitCode = code
})
