#!/usr/bin/env bash
# npm test: lint, types, unit/integration (vitest), then the Playwright API and storefront
# projects against a fresh production build on a fresh seeded database, then the same build
# on a remote database (a libSQL test server over HTTP, two instances: playwright.remote.config.ts).
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
export NEXT_DIST_DIR="${NEXT_DIST_DIR:-.next-test}"
export E2E_PORT="${E2E_PORT:-3100}"
rm -rf test-reports && mkdir -p test-reports

echo "== lint"; npx eslint .; npx prettier --check . >/dev/null || { npx prettier --list-different .; echo "not formatted: npm run format"; exit 1; }
echo "== typecheck"; npx next typegen >/dev/null; npx tsc --noEmit
echo "== openapi lint"; npx tsx scripts/lint-openapi.ts
echo "== vitest"; npx vitest run --reporter=default --reporter=json --outputFile.json=test-reports/vitest.json
echo "== build ($NEXT_DIST_DIR)"; rm -rf "$NEXT_DIST_DIR"; npx next build 2>&1 | tee test-reports/build.log
# A warning in our code's build (say, a Node API where Next also builds for the Edge runtime)
# is printed to everyone who runs `npm start`: fail on it here instead.
if grep -q 'build encountered' test-reports/build.log; then echo "the build reported warnings (above)"; exit 1; fi
# Both runs go ahead whatever the first says; the summary counts both and fails for either.
echo "== playwright"; npx playwright test || true
echo "== playwright, remote database"; npx playwright test -c playwright.remote.config.ts || true
node scripts/test-summary.mjs
