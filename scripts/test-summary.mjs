// Prints one closing line for the whole of `npm test`: vitest and Playwright counted together.
import { readFileSync } from 'node:fs';

const vitest = JSON.parse(readFileSync('test-reports/vitest.json', 'utf8'));
// The file-backed run and the remote-database run, counted as one; a run that wrote no report failed.
const runs = ['test-reports/playwright.json', 'test-reports/playwright-remote.json'].map((file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).stats;
  } catch {
    console.log(`no report: ${file}`);
    return { expected: 0, unexpected: 1, skipped: 0, flaky: 0 };
  }
});
const playwright = {
  stats: Object.fromEntries(['expected', 'unexpected', 'skipped', 'flaky'].map((k) => [k, runs.reduce((n, r) => n + r[k], 0)])),
};
const passed = vitest.numPassedTests + playwright.stats.expected;
const failed = vitest.numFailedTests + playwright.stats.unexpected;
const skipped = vitest.numPendingTests + vitest.numTodoTests + playwright.stats.skipped;
const flaky = playwright.stats.flaky;
console.log(
  `vitest ${vitest.numPassedTests}/${vitest.numTotalTests}, playwright ${playwright.stats.expected} expected, ${playwright.stats.unexpected} unexpected, ${flaky} flaky`,
);
console.log(`tests: ${passed} passed, ${failed + flaky} failed, ${skipped} skipped`);
process.exit(failed + flaky > 0 || passed === 0 ? 1 : 0);
