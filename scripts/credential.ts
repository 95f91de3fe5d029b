// npm run -s credential -- create --site <handle> --scope core|extended [--label <text>]
// npm run -s credential -- revoke <credential-or-id>
// npm run -s credential -- list [--site <handle>]
import { parseArgs } from 'node:util';
import { db } from '@/lib/db';
import { migrateDatabase } from '@/db/migrate';
import { createCredential, listCredentials, revokeCredential } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';

const USAGE = `usage:
  credential create --site <handle> --scope core|extended [--label <text>]
  credential revoke <credential-or-id>
  credential list [--site <handle>]`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { site: { type: 'string' }, scope: { type: 'string' }, label: { type: 'string' } },
    allowPositionals: true,
  });
  const database = db();
  await migrateDatabase(database);

  if (command === 'create') {
    if (!values.site || (values.scope !== 'core' && values.scope !== 'extended')) {
      console.error(USAGE);
      return 2;
    }
    const made = await createCredential(database, { siteHandle: values.site, scope: values.scope, label: values.label });
    console.error(`Created ${values.scope} credential ${made.id} for Site "${values.site}". It is shown once; store it on your server.`);
    console.log(made.token);
    return 0;
  }
  if (command === 'revoke') {
    const target = positionals[0];
    if (!target) {
      console.error(USAGE);
      return 2;
    }
    const revoked = await revokeCredential(database, target);
    console.log(revoked ? 'revoked' : 'no live credential matched');
    return revoked ? 0 : 1;
  }
  if (command === 'list') {
    for (const c of await listCredentials(database, values.site)) {
      const state = c.revokedAt ? `revoked ${new Date(c.revokedAt).toISOString()}` : 'live';
      console.log(`${c.id}\t${c.site}\t${c.scope}\t${c.prefix}…\t${state}`);
    }
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof DomainError ? error.detail : error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
