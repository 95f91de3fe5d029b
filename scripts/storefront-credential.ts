import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Database } from '@/db/client';
import { createCredential, isLiveCredential } from '@/lib/platform/auth/credentials';

const ENV_FILE = '.env.local';
const KEY = 'SITE_API_CREDENTIAL';

/**
 * Makes sure the reference storefront has a live credential: the one in the environment
 * (only warned about when dead: it is not ours to change) or the one in .env.local, which
 * is re-issued when missing or dead.
 */
export async function ensureStorefrontCredential(database: Database, fromEnvironment: string | undefined): Promise<void> {
  if (fromEnvironment) {
    if (!(await isLiveCredential(database, fromEnvironment))) {
      console.warn(`${KEY} is set but is not a live credential of this database; the storefront will get 401s.`);
    }
    return;
  }
  const lines = existsSync(ENV_FILE) ? readFileSync(ENV_FILE, 'utf8').split('\n') : [];
  const current = lines
    .find((l) => l.startsWith(`${KEY}=`))
    ?.slice(KEY.length + 1)
    .trim();
  if (!current || !(await isLiveCredential(database, current))) {
    const made = await createCredential(database, { siteHandle: 'demo', scope: 'extended', label: 'reference storefront' });
    const kept = lines.filter((l) => !l.startsWith(`${KEY}=`) && l.trim() !== '');
    writeFileSync(ENV_FILE, [...kept, `${KEY}=${made.token}`, ''].join('\n'), { mode: 0o600 });
    console.log(`made a storefront credential (${made.id}) and stored it in ${ENV_FILE}`);
  }
}
