/**
 * What `paysplit-check` writes: its progress on stderr, the report as JUnit XML or JSON, and the
 * counterexample as curl commands.
 *
 * @module cli/output
 */
import type { ConformanceReport, ReportedStep } from '../conformance/types.js'

/** Where the command writes; a terminal gets a progress bar, anything else plain lines. */
export interface CliIO {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly isTTY: boolean
  /** Milliseconds since some fixed point (the run id and the run time). */
  readonly now: () => number
  /** The environment (secrets given by the name of their variable); default none. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Stops a command that runs until it is stopped (the mock), e.g. on SIGINT. */
  readonly signal?: AbortSignal
}

/**
 * A progress bar on a terminal; a line per tenth of the runs otherwise. While a failure is shrunk:
 * a line for each shorter counterexample and every 25 tries, with the time spent.
 */
export const progress = (io: Pick<CliIO, 'err' | 'isTTY' | 'now'>, total: number, maxShrinkSeconds: number, replaying = false): { readonly onRun: (run: number, passed: boolean, steps: number) => void; readonly end: () => void } => {
  let failedAt: number | undefined
  let shrinkStart = 0
  let shortest = 0
  let lastLine = -1
  const width = 30
  return {
    onRun: (run, passed, steps) => {
      // a replay runs one sequence, its outcome said in the summary
      if (replaying) return
      const first = !passed && failedAt === undefined
      if (first) {
        failedAt = run
        shrinkStart = io.now()
        shortest = steps
      }
      // strictly shorter: a failing try of the same length (a value shrunk) is no news
      const shorter = !passed && !first && steps < shortest
      if (shorter) shortest = steps
      if (failedAt !== undefined) {
        const tries = run - failedAt
        const spent = `${((io.now() - shrinkStart) / 1000).toFixed(0)} s of at most ${String(maxShrinkSeconds)} s`
        const line = `shrinking the failure of run ${String(failedAt)}: ${String(tries)} tries, shortest counterexample ${String(shortest)} steps (${spent})`
        if (io.isTTY) io.err(`\r\x1b[2K${line}`)
        else if (first) io.err(`run ${String(run)} failed (${String(steps)} steps); shrinking it (at most ${String(maxShrinkSeconds)} s)…\n`)
        else if (shorter || tries % 25 === 0) io.err(`${line}\n`)
        return
      }
      if (io.isTTY) {
        const done = Math.min(run, total)
        io.err(`\r\x1b[2K[${'#'.repeat(Math.round((done / total) * width)).padEnd(width, '-')}] ${String(done)}/${String(total)} runs`)
        return
      }
      const tenth = Math.floor((run * 10) / total)
      if (tenth !== lastLine) {
        lastLine = tenth
        if (run % Math.max(1, Math.floor(total / 10)) === 0 || run === total) io.err(`${String(run)}/${String(total)} runs passed\n`)
      }
    },
    end: () => {
      if (io.isTTY) io.err('\r\x1b[2K')
    }
  }
}

const xml = (s: string): string => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c).replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')

/** The report as JUnit XML: one test case, failed with the report's text when the service differs. */
export const junitReport = (report: ConformanceReport, base: string, ms: number, text: string, coverage: string): string => {
  const name = `${base} behaves like paysplit's model (${String(report.numRuns)} runs, seed ${String(report.seed)})`
  const seconds = (ms / 1000).toFixed(3)
  const failure = report.ok ? '' : `\n      <failure message="The service differs from paysplit's model" type="ConformanceFailure">${xml(text)}</failure>`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="paysplit-check" tests="1" failures="${report.ok ? '0' : '1'}" time="${seconds}">`,
    `  <testsuite name="paysplit-check" tests="1" failures="${report.ok ? '0' : '1'}" errors="0" skipped="0" time="${seconds}">`,
    `    <testcase classname="paysplit-check" name="${xml(name)}" time="${seconds}">${failure}`,
    `      <system-out>${xml([coverage, ...report.notes.map((n) => `Note: ${n}`)].join('\n'))}</system-out>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    ''
  ].join('\n')
}

/** The report as written with --json. */
export const jsonReport = (report: ConformanceReport, base: string, ms: number, replay: string): unknown => ({
  ok: report.ok,
  baseUrl: base,
  numRuns: report.numRuns,
  seed: report.seed,
  prefix: report.prefix,
  notes: report.notes,
  ...(report.coverage !== undefined ? { coverage: report.coverage } : {}),
  durationMs: ms,
  ...(report.ok ? {} : { failure: { path: report.path, counterexample: report.counterexample, steps: report.steps, replay } })
})

/** A text in single quotes for a POSIX shell. */
export const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`

/** How the curl commands reach the service: its url, the paths of its form and bank, and the variables that hold its keys. */
export interface CurlContext {
  readonly base: string
  readonly apiKeyVariable?: string
  readonly bankKeyVariable?: string
  readonly formCompletePath?: string
  readonly formFailPath?: string
  readonly formPagePath?: string
  readonly bankTransferPath?: string
  readonly bankOcrPath?: string
}

/**
 * The counterexample's steps as curl commands, one per request or event as it was sent (the
 * payment ids those of the failing run; the keys by the variables that hold them). A form behind
 * its page is shown as the page to open; an event the command did not send has no line.
 */
export const curlLines = (steps: ReadonlyArray<ReportedStep>, c: CurlContext): ReadonlyArray<string> => {
  const url = (path: string): string => shellQuote(`${c.base}${path}`)
  const bearer = (variable: string | undefined): string => (variable === undefined ? '' : ` -H "authorization: Bearer $${variable}"`)
  const at = (template: string, id: string): string => template.replaceAll('{id}', encodeURIComponent(id))
  return steps.flatMap((s): string[] => {
    if (s.kind === 'request') {
      const headers = Object.entries(s.headers ?? {}).map(([k, v]) => ` -H ${shellQuote(`${k}: ${v}`)}`).join('')
      const body = s.body === undefined ? '' : ` -H 'content-type: application/json' --data-raw ${shellQuote(JSON.stringify(s.body))}`
      return [`${s.concurrent === true ? '# at the same time as the one above:\n  ' : ''}curl -sS -X ${s.method} ${url(s.path)}${bearer(c.apiKeyVariable)}${headers}${body}`]
    }
    if (s.event === 'completeForm' || s.event === 'failForm') {
      const path = s.event === 'completeForm' ? c.formCompletePath : c.formFailPath
      if (path === undefined) return []
      if (c.formPagePath !== undefined) return [`# the payment form: open ${c.base}${at(c.formPagePath, s.paymentReferenceID)} and press its ${s.event === 'completeForm' ? 'pay' : 'cancel'} button`]
      return [`curl -sS -X POST ${url(at(path, s.paymentReferenceID))}${s.reason === undefined || s.event === 'completeForm' ? '' : ` --data-urlencode ${shellQuote(`reason=${s.reason}`)}`}`]
    }
    if (s.event === 'ocr') {
      if (c.bankOcrPath === undefined || s.text === undefined) return []
      return [`curl -sS -X POST ${url(c.bankOcrPath)}${bearer(c.bankKeyVariable)} -H 'content-type: text/plain' --data-binary @- <<'OCR'\n${s.text.trimEnd()}\nOCR`]
    }
    if (s.event === 'transferByKid' && c.bankTransferPath !== undefined) {
      return [`curl -sS -X POST ${url(c.bankTransferPath)}${bearer(c.bankKeyVariable)} -H 'content-type: application/json' --data-raw ${shellQuote(JSON.stringify({ kid: s.kid, amount: s.amount }))}`]
    }
    return []
  })
}
