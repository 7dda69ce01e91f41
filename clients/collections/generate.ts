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
export const HTTP_FILE = resolve(import.meta.dirname, '../http/portal-api.http');

export { httpFile };

export async function postmanCollectionText(): Promise<string> {
  return `${JSON.stringify(await postmanCollection(), null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(POSTMAN_FILE, await postmanCollectionText());
  writeFileSync(HTTP_FILE, httpFile());
  console.log(`Wrote ${POSTMAN_FILE} and ${HTTP_FILE}`);
}
