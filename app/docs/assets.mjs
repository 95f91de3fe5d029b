// The API reference's renderer (swagger-ui-dist) ships two files the browser loads. They are
// copied into public/ when the app is built, so a deployment serves them as static files
// (a serverless function has no node_modules to read them from at run time), under names
// carrying the renderer's version, so browsers may keep them for good.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'docs', 'assets');
const FILES = ['swagger-ui.css', 'swagger-ui-bundle.js'];

/** `swagger-ui.css` → `swagger-ui-5.35.0.css`: the name the reference page links. */
export function versionedName(file, version) {
  const dot = file.lastIndexOf('.');
  return `${file.slice(0, dot)}-${version}${file.slice(dot)}`;
}

/** Copies this version's files into public/docs/assets and removes any other version's. */
export function copyDocsAssets() {
  const packageDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  rmSync(PUBLIC_DIR, { recursive: true, force: true });
  mkdirSync(PUBLIC_DIR, { recursive: true });
  for (const file of FILES) copyFileSync(join(packageDir, file), join(PUBLIC_DIR, versionedName(file, version)));
  return readdirSync(PUBLIC_DIR);
}
