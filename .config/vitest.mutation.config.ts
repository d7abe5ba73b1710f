import { configDefaults, defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

/**
 * The vitest config of mutation runs only (`.config/stryker.config.json` → `vitest.configFile`);
 * `npm test` keeps `.config/vitest.config.ts`. Same tests, less of what cannot kill a mutant of
 * the domain modules (docs/testing.md, "Mutation testing"):
 *
 * - `test/repo/package.test.ts` builds `dist/` with tsup and runs it in child processes, which never
 *   activate a mutant (Stryker switches mutants through a global of the test process);
 *   `test/service/reference-service.process.test.ts` does the same with the reference service's build;
 * - `test/testing-kit/testing.long.test.ts` is skipped below factor 100 anyway;
 * - `test/http/decodeOnce.test.ts` and `test/state/validateOnce.test.ts` count the decoder's and the stored-state
 *   validator's calls through `vi.mock`, which a shared module graph cannot honour (the module is
 *   loaded before the mock), and kill no mutant of a rule.
 *
 * Test files share one module graph (`isolate: false`): a mutant may run the covering tests of up
 * to 17 files, each of which would re-import `src/`, fp-ts, io-ts and fast-check (the whole suite:
 * 17 s isolated, 5 s shared). No other test mocks modules or stubs globals, and every test passes this way.
 *
 * Properties run at a tenth of their runs (`PAYSPLIT_NUM_RUNS_FACTOR=0.1`, at least 1 run each):
 * branch coverage of `src/` stays 100 % even at 0.01. A property that kills a mutant only by the
 * luck of its random inputs may then miss it; such mutants want a deterministic test instead.
 *
 * Measured on src/kid.ts (docs/testing.md): the dry run went from 43 s to 3 s with the same kills,
 * but no speed-up per mutant could be shown on the loaded machine.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        ...configDefaults.exclude,
        'test/repo/package.test.ts',
        'test/service/reference-service.process.test.ts',
        'test/testing-kit/testing.long.test.ts',
        'test/http/decodeOnce.test.ts',
        'test/state/validateOnce.test.ts'
      ],
      env: { PAYSPLIT_NUM_RUNS_FACTOR: '0.1' },
      isolate: false
    }
  })
)
