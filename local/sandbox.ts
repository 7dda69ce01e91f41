/**
 * The local sandbox: DynamoDB Local and the SQS emulator as real services, the single table, and
 * the API served over HTTP by the very handlers that run in Lambda. Handlers reach the services
 * only through the standard SDK endpoint variables, exactly as they would reach LocalStack.
 * Used by `npm start` (local/main.ts) and by the integration tests (test/support/global-setup.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { renderApiReference } from '../lib/admin/api-reference.ts';
import { recordNewTable } from '../lib/admin/migrations/index.ts';
import { readRecords } from '../lib/admin/migrations/records.ts';
import { pendingMigrations } from '../lib/admin/migrations/runner.ts';
import { IDENTITY_OBJECT, type SandboxIdentity, sandboxVariables, writeSandboxFile } from '../lib/admin/sandbox-identity.ts';
import { createLocalTableClient, type TableClient } from '../lib/admin/table-client.ts';
import { apiDocument } from '../lib/api-document.ts';
import { releaseGateRefusal, unfinishedMigrations } from '../lib/platform/data/release-gate.ts';
import {
  ideaAndResponseChanges,
  WEBHOOK_QUEUES,
  webhookDeadLetterQueue,
  webhookDelivery,
  webhookDeliveryQueue,
  webhookFanOutFailureQueue,
  webhookRecovery,
  webhookRecoveryQueue,
} from '../lib/webhooks/pipeline.ts';
import { putObject } from './buckets.ts';
import { costLogFile, measureConsumedCapacity } from './consumed-capacity.ts';
import { lockDataDir } from './data-lock.ts';
import { delayDynamoDbCalls, sandboxDynamoDbLatencyMs } from './dynamodb-latency.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import { sendToQueue, startQueueEventSource, startStreamEventSource } from './event-source-mappings.ts';
import { createApiServer } from './http-server.ts';
import { cloudAssembly } from './iam/cloud-assembly.ts';
import { functionPolicies } from './iam/function-policies.ts';
import { countDynamoDbCalls, invocationStats } from './instrumentation.ts';
import { startKnowledgeBank } from './knowledge-bank.ts';
import { sandboxFunctionTimeoutSeconds } from './lambda-runtime.ts';
import { installPartitionThrottle, partitionFloorFromEnvironment, partitionScaleFromEnvironment } from './partition-throttle.ts';
import { assertPortsFree } from './ports.ts';
import { ensureQueues } from './queues.ts';
import { startSqsEmulator } from './sqs-local.ts';
import { startSurveyExports } from './survey-exports.ts';
import { ensureTable } from './table.ts';
import { freePort } from './wait.ts';

export interface SandboxOptions {
  /** HTTP port of the API; 0 picks a free one. */
  port: number;
  dynamodbPort?: number;
  sqsPort?: number;
  /** Where DynamoDB Local and the queue keep their data; omitted = in memory. */
  dataDir?: string;
  tableName?: string;
  log?: (line: string) => void;
  /**
   * A service the sandbox cannot work without (DynamoDB Local) died: every request would fail from
   * now on. Default: say so on stderr.
   */
  onFatal?: (description: string) => void;
  /**
   * Leave the idea and survey-response stream consumer (the webhook fan-out and the summary) to the
   * caller: the capacity bench feeds it batches of the size AWS would deliver (bench/capacity-stream.ts).
   */
  holdStreamFanOut?: boolean;
  /**
   * Called with the sandbox's stop before it is ready, when its start may wait long (at the release
   * gate, for a migration): a signal then stops what has started.
   */
  onStarting?: (stop: () => Promise<void>) => void;
  /**
   * Throttle the handlers' DynamoDB requests where DynamoDB would, every item and every key range
   * written in order getting 1/N of a partition's units (local/partition-throttle.ts). Default:
   * SANDBOX_PARTITION_SCALE, else off.
   */
  partitionScale?: number;
}

export interface Sandbox {
  apiUrl: string;
  dynamodbEndpoint: string;
  /** The DynamoDB Local JVM's process id. */
  dynamodbPid: number;
  sqsEndpoint: string;
  tableName: string;
  tableCreated: boolean;
  /** URLs of the webhook pipeline's queues in the SQS emulator. */
  queues: { webhookDeliveries: string; webhookDeadLetters: string; webhookFanOutFailures: string; webhookRecoveries: string };
  /** Operator access to the same table (what cxctl uses). */
  store: TableClient;
  stop(): Promise<void>;
}

/**
 * The sandbox's key for signing list cursors (lib/platform/pagination.ts): generated once and kept
 * in DATA_DIR, so cursors survive a restart like the data they point into; in memory otherwise.
 */
function localCursorSigningKey(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(32).toString('hex');
  const file = `${dataDir}/cursor-signing-key`;
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/** Environment the handlers run with, unless the caller already set a value. */
function handlerEnvironment(sandbox: {
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queues: Sandbox['queues'];
  cursorSigningKey: string;
}): Record<string, string> {
  return {
    CURSOR_SIGNING_KEY: process.env.CURSOR_SIGNING_KEY ?? sandbox.cursorSigningKey,
    WEBHOOK_DELIVERY_QUEUE_URL: sandbox.queues.webhookDeliveries,
    WEBHOOK_DEAD_LETTER_QUEUE_URL: sandbox.queues.webhookDeadLetters,
    WEBHOOK_RECOVERY_QUEUE_URL: sandbox.queues.webhookRecoveries,
    WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP ?? 'true',
    TABLE_NAME: sandbox.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: sandbox.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: sandbox.sqsEndpoint,
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    WORKSPACE_DOMAIN: process.env.WORKSPACE_DOMAIN ?? 'localhost',
    // Receivers on 127.0.0.1 are the point of a local sandbox; the SSRF guard stays on in AWS.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    // Business metrics are EMF lines in the function's log, read by CloudWatch; locally they would only
    // flood the terminal. POWERTOOLS_METRICS_DISABLED=false shows them.
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
  };
}

/** Where this sandbox's table is, as cxctl needs it (lib/admin/sandbox-identity.ts). */
interface TablePlace {
  dynamodbEndpoint: string;
  dataDir: string | null;
}

/** `npx cxctl …` as it reaches this sandbox's table: every variable that differs from cxctl's defaults first. */
function cxctlCommand(place: TablePlace, tableName: string, args: string): string {
  return `${sandboxVariables({ ...place, tableName }, ['table'])}npx cxctl ${args}`;
}

/**
 * The release gate (lib/platform/data/release-gate.ts), as `cdk deploy` meets it: on a table that has
 * not finished a migration this release requires, the sandbox says so with the same message and starts
 * nothing else, only DynamoDB Local, which `cxctl migrate` needs; once the migration has finished, the
 * start goes on.
 */
async function passReleaseGate(store: TableClient, log: (line: string) => void, place: TablePlace): Promise<void> {
  const unfinished = async () => unfinishedMigrations([...(await readRecords(store)).values()]);
  let waiting = await unfinished();
  if (waiting.length === 0) return;
  const command = cxctlCommand(place, store.table, 'migrate');
  log(
    `✖ ${releaseGateRefusal(store.table, waiting, command, 'this sandbox starts by itself: only DynamoDB Local is up, for it (Ctrl-C stops)')}`,
  );
  while (waiting.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, GATE_POLL_MS));
    waiting = await unfinished();
  }
  log('✔ Every migration this release requires has finished: starting');
}

/** How often a sandbox held at the release gate looks at the migration records. */
const GATE_POLL_MS = 1000;

/** One line when the table predates a layout change this release does not require yet: how to migrate it. */
async function reportPendingMigrations(store: TableClient, log: (line: string) => void, place: TablePlace): Promise<void> {
  const pending = await pendingMigrations(store);
  if (pending.length === 0) return;
  log(
    `ℹ This table predates ${pending.length} layout change(s) (${pending.join(', ')}); it keeps working. ` +
      `Move its data with: ${cxctlCommand(place, store.table, 'migrate')} (with this sandbox running; docs/cxctl.md)`,
  );
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stoppers.reverse()) await s().catch(() => undefined);
  };
  // A mistyped setting fails before anything starts.
  const latencyMs = sandboxDynamoDbLatencyMs();
  const functionTimeoutSeconds = sandboxFunctionTimeoutSeconds();
  // Every port first, before anything starts: a taken one is a one-line error naming its variable.
  await assertPortsFree([
    { variable: 'PORT', port: options.port },
    { variable: 'DYNAMODB_PORT', port: options.dynamodbPort ?? 0 },
    { variable: 'SQS_PORT', port: options.sqsPort ?? 0 },
  ]);
  // Then the data folder, before DynamoDB Local opens it; released last, after every service stopped.
  if (options.dataDir) {
    const release = lockDataDir({ dataDir: options.dataDir, variable: 'DATA_DIR', log: options.log });
    stoppers.push(async () => release());
  }
  const onFatal = options.onFatal ?? ((description: string) => console.error(`\n${description}: the sandbox cannot work without it.`));
  try {
    // The reference page GET /docs serves, rendered while the services start (as CDK does at bundling).
    const pageDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'sandbox-')));
    if (!options.dataDir) stoppers.push(() => rm(pageDir, { recursive: true, force: true }));
    const apiReferenceFile = join(pageDir, 'api-reference.html');
    // The OpenAPI document GET /openapi.json serves, written as CDK writes it at bundling.
    const openApiDocumentFile = join(pageDir, 'openapi.json');
    // The templates CDK would deploy (cached; synthesized in a child process, beside the services
    // starting, when cdk/ or lib/ changed): every function's IAM policy comes from them.
    const assembly = cloudAssembly();
    assembly.catch(() => undefined);
    const [dynamodb, sqs] = await Promise.all([
      (async () =>
        startDynamoDbLocal({
          port: options.dynamodbPort ?? (await freePort()),
          dataDir: options.dataDir && `${options.dataDir}/dynamodb`,
          onUnexpectedExit: onFatal,
        }))(),
      startSqsEmulator({ port: options.sqsPort ?? 0, dataDir: options.dataDir && `${options.dataDir}/sqs` }),
      (async () => {
        if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
        await Promise.all([renderApiReference(apiReferenceFile), writeFile(openApiDocumentFile, JSON.stringify(apiDocument()))]);
      })(),
    ]);
    stoppers.push(dynamodb.stop, sqs.stop);

    const tableName = options.tableName ?? 'cx-portal';
    const region = process.env.AWS_REGION ?? 'us-east-1';
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

    const admin = new DynamoDBClient({ endpoint: dynamodb.endpoint, region, credentials });
    const { created, streamArn } = await ensureTable(admin, tableName);
    admin.destroy();
    const store = createLocalTableClient(tableName, dynamodb.endpoint);
    // A new table has the current layout; an older DATA_DIR's may still hold data to migrate (docs/cxctl.md).
    const log = options.log ?? console.log;
    if (created) await recordNewTable(store);
    else {
      const place = { dynamodbEndpoint: dynamodb.endpoint, dataDir: options.dataDir ? resolve(options.dataDir) : null };
      options.onStarting?.(stop);
      await passReleaseGate(store, log, place);
      await reportPendingMigrations(store, log, place);
    }

    const sqsAdmin = new SQSClient({ endpoint: sqs.endpoint, region, credentials });
    const localQueues = await ensureQueues(sqsAdmin, sqs.endpoint, WEBHOOK_QUEUES);
    const queueOf = (definition: (typeof WEBHOOK_QUEUES)[number]) => localQueues.get(definition)!;
    const queues = {
      webhookDeliveries: queueOf(webhookDeliveryQueue).url,
      webhookDeadLetters: queueOf(webhookDeadLetterQueue).url,
      webhookFanOutFailures: queueOf(webhookFanOutFailureQueue).url,
      webhookRecoveries: queueOf(webhookRecoveryQueue).url,
    };
    Object.assign(
      process.env,
      handlerEnvironment({
        tableName,
        dynamodbEndpoint: dynamodb.endpoint,
        sqsEndpoint: sqs.endpoint,
        queues,
        cursorSigningKey: localCursorSigningKey(options.dataDir),
      }),
      { API_REFERENCE_FILE: apiReferenceFile, OPENAPI_DOCUMENT_FILE: openApiDocumentFile },
    );

    // The handlers' shared client, counted per request (X-Sandbox-DynamoDB-Calls), each request
    // evaluated against the synthesized policy of the function sending it.
    const { dynamo } = await import('../lib/platform/data/client.ts');
    // The usage writes' own client (lib/platform/data/usage-writes.ts): checked the same, counted apart.
    const { usageDynamo } = await import('../lib/platform/data/usage-writes.ts');
    const account = { region, accountId: '000000000000', tableName };
    const iam = { policies: functionPolicies(await assembly, account), account };
    countDynamoDbCalls(dynamo, iam);
    countDynamoDbCalls(usageDynamo, iam, { apart: true });
    if (latencyMs > 0) {
      delayDynamoDbCalls(dynamo, latencyMs);
      delayDynamoDbCalls(usageDynamo, latencyMs);
      options.log?.(`DynamoDB calls delayed by about ${latencyMs} ms each, as in a region (SANDBOX_DYNAMODB_LATENCY_MS)`);
    }
    if (functionTimeoutSeconds !== undefined) {
      options.log?.(`Every function times out after at most ${functionTimeoutSeconds} s (SANDBOX_FUNCTION_TIMEOUT_SECONDS)`);
    }
    if (costLogFile()) measureConsumedCapacity(dynamo, () => invocationStats.getStore()?.capacity);
    const partitionScale = options.partitionScale ?? partitionScaleFromEnvironment();
    if (partitionScale) {
      // Its own client reads the images pricing needs: nothing counts, checks or throttles it.
      const images = new DynamoDBClient({ endpoint: dynamodb.endpoint, region, credentials });
      stoppers.push(async () => images.destroy());
      const throttle = installPartitionThrottle(dynamo, {
        scale: partitionScale,
        floorSeconds: partitionFloorFromEnvironment(),
        raw: images,
        tableName,
        region,
        accountId: account.accountId,
      });
      // The usage items are items of their own: their buckets apart from the operations' items.
      installPartitionThrottle(usageDynamo, { scale: partitionScale, raw: images, tableName, region, accountId: account.accountId });
      options.log?.(
        `DynamoDB throttles as in AWS at 1/${partitionScale} of a partition's units per item and ordered key range (SANDBOX_PARTITION_SCALE)`,
      );
      // What was throttled, once every few seconds: where the keys need to spread.
      const report = setInterval(() => {
        for (const [target, times] of throttle.takeThrottled()) options.log?.(`DynamoDB throttled ${times}× ${target}`);
      }, 5_000);
      report.unref();
      stoppers.push(async () => clearInterval(report));
    }

    const server = createApiServer({ log: options.log });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, '127.0.0.1', () => resolve());
    });
    stoppers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const { port } = server.address() as AddressInfo;
    const apiUrl = `http://127.0.0.1:${port}/api/v1`;
    // What the stack gives a function that calls the API (the MCP server): the API's own address,
    // known only now that it listens (PORT 0 picks one).
    process.env.API_BASE_URL = apiUrl;
    // Each workspace's own host, where OAuth for its MCP server lives (`<slug>.localhost` resolves to
    // loopback in browsers and curl, RFC 6761); the stack sets it from the custom domain.
    process.env.WORKSPACE_URL_TEMPLATE ??= `http://{workspace}.${process.env.WORKSPACE_DOMAIN ?? 'localhost'}:${port}`;

    // The webhook pipeline's event source mappings, on the very handlers Lambda runs.
    if (!streamArn) {
      throw new Error(
        `Table ${tableName} has no stream: a restore that stopped half-way? Finish it: npx cxctl backup restore --to ${tableName}`,
      );
    }
    const streams = new DynamoDBStreamsClient({ endpoint: dynamodb.endpoint, region, credentials });
    const fanOut = options.holdStreamFanOut
      ? { stop: async () => undefined }
      : startStreamEventSource({
          streams,
          streamArn,
          functionName: 'webhookEventsAndSurveySummaries',
          definition: ideaAndResponseChanges,
          onFailure: sendToQueue(sqsAdmin, queueOf(ideaAndResponseChanges.onFailure).url),
          checkpointFile: options.dataDir && `${options.dataDir}/stream-checkpoints.json`,
          log: options.log,
        });
    // A queue consumer of the pipeline on its local queue.
    const consume = (definition: typeof webhookDelivery, functionName: string) => {
      const { url: queueUrl, arn: queueArn } = queueOf(definition.queue);
      return startQueueEventSource({ sqs: sqsAdmin, queueUrl, queueArn, functionName, definition, log: options.log });
    };
    const delivery = consume(webhookDelivery, 'deliverWebhooks');
    const recovery = consume(webhookRecovery, 'runWebhookRecoveries');
    // Knowledge-bank search and link checking: S3 from fauxqs (the same endpoint as SQS).
    const knowledgeBank = await startKnowledgeBank({
      s3Endpoint: sqs.endpoint,
      sqs: sqsAdmin,
      sqsEndpoint: sqs.endpoint,
      streams,
      streamArn,
      region,
      dataDir: options.dataDir,
      log: options.log,
    });
    // Survey exports: the writer on its queue, files in fauxqs's S3.
    const surveyExports = await startSurveyExports({
      s3Endpoint: sqs.endpoint,
      sqs: sqsAdmin,
      sqsEndpoint: sqs.endpoint,
      region,
      log: options.log,
    });
    // Stopped first (the stoppers run in reverse), while the services they poll are still up.
    stoppers.push(async () => {
      await Promise.all([fanOut.stop(), delivery.stop(), recovery.stop(), knowledgeBank.stop(), surveyExports.stop()]);
      streams.destroy();
      sqsAdmin.destroy();
    });

    // Whose this sandbox is, where cxctl reads it: DATA_DIR/sandbox.json and its own object store.
    const identity: SandboxIdentity = {
      pid: process.pid,
      dataDir: options.dataDir ? resolve(options.dataDir) : null,
      apiUrl,
      dynamodbEndpoint: dynamodb.endpoint,
      sqsEndpoint: sqs.endpoint,
      tableName,
    };
    await putObject(sqs.endpoint, region, IDENTITY_OBJECT, JSON.stringify(identity));
    if (identity.dataDir) {
      const release = writeSandboxFile({ ...identity, dataDir: identity.dataDir });
      stoppers.push(async () => release());
    }

    return {
      apiUrl,
      dynamodbEndpoint: dynamodb.endpoint,
      dynamodbPid: dynamodb.pid,
      sqsEndpoint: sqs.endpoint,
      tableName,
      tableCreated: created,
      queues,
      store,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
