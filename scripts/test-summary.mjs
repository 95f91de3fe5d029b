// Prints one closing line for the whole of `npm test`: vitest and Playwright counted together.
import { readFileSync } from 'node:fs';

const vitest = JSON.parse(readFileSync('test-reports/vitest.json', 'utf8'));
const playwright = JSON.parse(readFileSync('test-reports/playwright.json', 'utf8'));
const passed = vitest.numPassedTests + playwright.stats.expected;
const failed = vitest.numFailedTests + playwright.stats.unexpected;
const skipped = vitest.numPendingTests + vitest.numTodoTests + playwright.stats.skipped;
const flaky = playwright.stats.flaky;
console.log(`vitest ${vitest.numPassedTests}/${vitest.numTotalTests}, playwright ${playwright.stats.expected} expected, ${playwright.stats.unexpected} unexpected, ${flaky} flaky`);
console.log(`tests: ${passed} passed, ${failed + flaky} failed, ${skipped} skipped`);
process.exit(failed + flaky > 0 || passed === 0 ? 1 : 0);
