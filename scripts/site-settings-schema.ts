// npm run -s site:schema: writes docs/site-settings.schema.json from the zod schema of the
// settings document (lib/contract/site-settings-document.ts). A test fails when they differ.
import { writeFileSync } from 'node:fs';
import { settingsJsonSchemaText } from '@/lib/contract/site-settings-document';

const target = new URL('../docs/site-settings.schema.json', import.meta.url);
writeFileSync(target, settingsJsonSchemaText());
console.log(`wrote ${target.pathname}`);
