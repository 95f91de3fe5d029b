#!/usr/bin/env bash
# Starts the production build on a fresh, seeded database for the Playwright suites.
# Writes the test credentials to $E2E_DATA_DIR/credentials.json (never committed).
set -euo pipefail
PORT="${E2E_PORT:-3100}"
DATA="${E2E_DATA_DIR:-$PWD/.e2e-data/$PORT}"
rm -rf "$DATA" && mkdir -p "$DATA"
export DATABASE_URL="file:$DATA/site.db"
export NODE_ENV=production
npx tsx --conditions=react-server scripts/e2e-fixture.ts "$DATA/credentials.json"
DIST="${NEXT_DIST_DIR:-.next}"
if [ ! -f "$DIST/BUILD_ID" ]; then npx next build; fi
SITE_API_CREDENTIAL="$(node -e 'process.stdout.write(require(process.argv[1]).storefront)' "$DATA/credentials.json")"
export SITE_API_CREDENTIAL
# No SITE_API_BASE_URL: the shop calls its own API in-process, as a deployment does.
# Specs on this shared server change the catalog all the time; rendering every page ahead
# after each change would only load it. e2e/storefront/page-cache.spec.ts runs it on its own instances.
export PAGE_RENDER_AHEAD=off
# As on Vercel: a first visit's market may come from this header (e2e/storefront/polish.spec.ts sends it).
export TRUST_COUNTRY_HEADER=x-vercel-ip-country
exec npx next start -p "$PORT" -H 127.0.0.1
