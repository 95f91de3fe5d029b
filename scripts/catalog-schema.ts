// npm run -s catalog:schema: writes docs/catalog.schema.json from the zod schema of the
// catalog document (lib/contract/catalog-document.ts). A test fails when they differ.
import { writeFileSync } from 'node:fs';
import { catalogJsonSchemaText } from '@/lib/contract/catalog-document';

const target = new URL('../docs/catalog.schema.json', import.meta.url);
writeFileSync(target, catalogJsonSchemaText());
console.log(`wrote ${target.pathname}`);
