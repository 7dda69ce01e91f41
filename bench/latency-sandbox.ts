/**
 * One sandbox of the latency bench (bench/latency.ts), in a process of its own: `tsx
 * bench/latency-sandbox.ts <tree> <median ms>` starts the sandbox of the source tree `<tree>` (this
 * repository, or a temporary worktree of the commit to compare with) in memory, delays every
 * DynamoDB call its handlers send by a round trip around `<median ms>` (the same
 * local/dynamodb-latency.ts for every tree, applied from here, so a commit made before
 * SANDBOX_DYNAMODB_LATENCY_MS existed is measured alike), prints one JSON line
 * `{apiUrl, dynamodbEndpoint, tableName}` and runs until its stdin closes.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { delayDynamoDbCalls } from '../local/dynamodb-latency.ts';

const [tree, medianMs] = process.argv.slice(2);
if (!tree || !medianMs) throw new Error('Usage: tsx bench/latency-sandbox.ts <tree> <median ms>');
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const module = (path: string) => import(pathToFileURL(join(tree, path)).href);

const { startSandbox } = await module('local/sandbox.ts');
const sandbox = await startSandbox({ port: 0, tableName: 'cx-portal-latency' });
// The handlers' client, as the tree's sandbox loaded it: the same module, so the same client.
const { dynamo } = await module('lib/platform/data/client.ts');
delayDynamoDbCalls(dynamo, Number(medianMs));
process.stdout.write(
  `${JSON.stringify({ apiUrl: sandbox.apiUrl, dynamodbEndpoint: sandbox.dynamodbEndpoint, tableName: sandbox.tableName })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  await sandbox.stop();
  process.exit(0);
});
