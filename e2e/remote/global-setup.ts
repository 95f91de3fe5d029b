// Starts the remote run's world: the libSQL test server over a fresh file, the schema, seed
// and credentials written through its URL (as an operator would: `npm run db:migrate` etc.
// with DATABASE_URL=libsql://…), and two `next start` instances of the one build on it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startLibsqlTestServer } from '../support/libsql-server';
import { killInstance, startInstance } from '../support/instances';

export default async function globalSetup() {
  const ports = JSON.parse(process.env.E2E_REMOTE_PORTS!) as { a: number; b: number; database: number };
  const data = process.env.E2E_DATA_DIR!;
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const server = await startLibsqlTestServer({ path: join(data, 'remote.db'), port: ports.database });
  const env = { DATABASE_URL: server.url, NODE_ENV: 'production' as const };

  // Not spawnSync: the database server answers from this very process.
  const fixture = await new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn('npx', ['tsx', '--conditions=react-server', 'scripts/e2e-fixture.ts', join(data, 'credentials.json')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (status) => resolve({ status, output }));
  });
  if (fixture.status !== 0) throw new Error(`e2e fixture through ${server.url} failed:\n${fixture.output}`);

  const dist = process.env.NEXT_DIST_DIR || '.next';
  if (!existsSync(join(dist, 'BUILD_ID'))) {
    const build = spawnSync('npx', ['next', 'build'], { stdio: 'inherit', env: process.env });
    if (build.status !== 0) throw new Error('next build failed');
  }

  const { storefront } = JSON.parse(readFileSync(join(data, 'credentials.json'), 'utf8')) as { storefront: string };
  const instanceEnv = () => ({
    ...env,
    SITE_API_CREDENTIAL: storefront,
    // No SITE_API_BASE_URL: the shop calls its API in-process, as on a serverless platform.
    // As on the file-backed e2e server: specs change the catalog all the time.
    PAGE_RENDER_AHEAD: 'off',
    // No file beside the database here: the mails go to the run's folder.
    MAIL_EML_DIR: join(data, 'outbox'),
  });
  const instances = await Promise.all([
    startInstance(server.url, instanceEnv(), 120_000, ports.a),
    startInstance(server.url, instanceEnv(), 120_000, ports.b),
  ]);
  console.log(`remote run: ${server.url} (libSQL test server), next start on :${ports.a} and :${ports.b}`);

  return async () => {
    await Promise.all(instances.map(killInstance));
    console.log(`remote run: the database server answered ${server.requests()} requests`);
    await server.close();
  };
}
