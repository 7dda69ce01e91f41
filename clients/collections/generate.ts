/**
 * `npm run collections`: writes the Postman collection (clients/postman) and the `.http` file
 * (clients/http) from the OpenAPI document. test/unit/collections.test.ts generates them again and
 * fails when the committed files differ, as for the typed client.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { httpFile } from './http.ts';
import { postmanCollection } from './postman.ts';

export const POSTMAN_FILE = resolve(import.meta.dirname, '../postman/portal-api.postman_collection.json');
/** The `.http` file of each dialect (clients/collections/http.ts). */
export const HTTP_FILES = {
  'rest-client': resolve(import.meta.dirname, '../http/portal-api.http'),
  jetbrains: resolve(import.meta.dirname, '../http/portal-api.jetbrains.http'),
} as const;

export { httpFile };

export async function postmanCollectionText(): Promise<string> {
  return `${JSON.stringify(await postmanCollection(), null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(POSTMAN_FILE, await postmanCollectionText());
  for (const [dialect, file] of Object.entries(HTTP_FILES)) writeFileSync(file, httpFile(dialect as keyof typeof HTTP_FILES));
  console.log(`Wrote ${POSTMAN_FILE} and ${Object.values(HTTP_FILES).join(', ')}`);
}
