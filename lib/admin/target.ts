/**
 * Where an operator command acts. Three kinds:
 *   - the sandbox (the default): DynamoDB Local and fauxqs's S3 on 127.0.0.1, fixed dummy credentials;
 *   - a table (`--table NAME`): a deployed table with the normal AWS credentials and region, and no
 *     buckets (commands that need them say so);
 *   - a stack (`--stack NAME`): the table, buckets and secret a deployed stack names in its outputs.
 * The areas' own modules (the search builder, the summary aggregator) read their table, buckets and
 * endpoints from the environment when loaded, as in Lambda: `areaEnvironment` is what to set first.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { SANDBOX_BUCKETS } from './sandbox-buckets.ts';
import { IDENTITY_OBJECT, type SandboxIdentity, type SandboxNeed, sandboxVariables } from './sandbox-identity.ts';
import { AdminError, createTableClient, type TableClient } from './table-client.ts';

const SANDBOX_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** What every AWS client of a command is made with. */
interface ClientSettings {
  region: string;
  endpoint?: string;
  profile?: string;
  credentials?: typeof SANDBOX_CREDENTIALS;
}

export interface Target {
  kind: 'sandbox' | 'table' | 'stack';
  /** Where it acts, for the first line a command prints. */
  label: string;
  store: TableClient;
  settings: ClientSettings;
  /** The search index and export buckets, and their S3 endpoint in the sandbox. */
  buckets?: { searchIndex: string; surveyExports: string; s3Endpoint?: string };
  /** The stack's outputs (`TableName`, `TableStreamArn`, `SigningSecretArn`, …). */
  stack?: { name: string; outputs: Record<string, string> };
  /** The sandbox: where its endpoints came from. */
  sandbox?: SandboxPlace;
}

/** Where cxctl found the sandbox's endpoints (cli/target.ts), and what it found. */
export interface SandboxPlace {
  from: 'variables' | '--endpoint' | 'DATA_DIR' | 'defaults';
  dynamodbEndpoint: string;
  /** Unset when the variables leave it out (SQS_PORT): a command that needs it refuses. */
  s3Endpoint?: string;
  apiUrl?: string;
  tableName: string;
  /** Absolute. */
  dataDir: string;
  /** The sandbox DATA_DIR/sandbox.json describes, when the endpoints came from there. */
  running: SandboxIdentity | null;
}

export function sandboxTarget(place: SandboxPlace, region: string): Target {
  const settings = { region, credentials: SANDBOX_CREDENTIALS };
  return {
    kind: 'sandbox',
    label: `the sandbox (DynamoDB ${place.dynamodbEndpoint}, table ${place.tableName})`,
    store: createTableClient(place.tableName, { ...settings, endpoint: place.dynamodbEndpoint }),
    settings: { ...settings, endpoint: place.dynamodbEndpoint },
    ...(place.s3Endpoint ? { buckets: { ...SANDBOX_BUCKETS, s3Endpoint: place.s3Endpoint } } : {}),
    sandbox: place,
  };
}

/**
 * The variables a printed command needs to reach the target's sandbox on `table` (sandboxVariables):
 * those npm start was given, from the running sandbox's file, else cxctl's own.
 */
export function sandboxVariablesOf(target: Target, table: string, needs: SandboxNeed[]): string {
  const place = target.sandbox;
  if (!place) return '';
  return sandboxVariables(
    place.running ?? {
      dataDir: place.dataDir,
      tableName: place.tableName,
      dynamodbEndpoint: place.dynamodbEndpoint,
      ...(place.s3Endpoint ? { sqsEndpoint: place.s3Endpoint } : {}),
      ...(place.apiUrl ? { apiUrl: place.apiUrl } : {}),
    },
    needs,
    table,
  );
}

/** The sandbox that owns an object store, as it wrote itself there (local/sandbox.ts); null if none did. */
async function objectStoreOwner(target: Target): Promise<SandboxIdentity | null> {
  const s3 = await s3ClientOf(target);
  try {
    const { GetObjectCommand } = await import('@aws-sdk/client-s3');
    const object = await s3.send(new GetObjectCommand({ Bucket: IDENTITY_OBJECT.bucket, Key: IDENTITY_OBJECT.key }));
    return JSON.parse(await object.Body!.transformToString()) as SandboxIdentity;
  } catch (error) {
    if (['NoSuchKey', 'NoSuchBucket', 'NotFound'].includes((error as { name?: string }).name ?? '')) return null;
    throw error;
  } finally {
    s3.destroy();
  }
}

const sameService = (a: string, b: string) => new URL(a).port === new URL(b).port;

/**
 * The buckets a command writes, once it is sure they belong to the sandbox whose table it uses: the
 * object store's sandbox must serve that table, on that DynamoDB. Otherwise it refuses, naming both.
 */
export async function checkedBucketsOf(target: Target, command: string): Promise<NonNullable<Target['buckets']>> {
  const buckets = bucketsOf(target, command);
  const place = target.sandbox;
  if (!place || place.from === '--endpoint') return buckets;
  const owner = await objectStoreOwner(target);
  const table = `table ${place.tableName} on DynamoDB ${place.dynamodbEndpoint}`;
  if (!owner) {
    throw new AdminError(
      `${command}: the object store at ${buckets.s3Endpoint} is no running sandbox's (it does not say whose it is), so cxctl cannot ` +
        `tell it goes with ${table}. Start the sandbox with npm start, and give cxctl the variables its banner prints`,
    );
  }
  if (!sameService(owner.dynamodbEndpoint, place.dynamodbEndpoint) || owner.tableName !== place.tableName) {
    throw new AdminError(
      `${command}: the object store at ${buckets.s3Endpoint} belongs to the sandbox serving table ${owner.tableName} on DynamoDB ` +
        `${owner.dynamodbEndpoint}, not to ${table}: writing there would mix two sandboxes. Give cxctl the variables ` +
        `of one sandbox together (${sandboxVariables(owner, ['table', 'objects']) || 'none: the defaults'}), as its banner prints them`,
    );
  }
  return buckets;
}

/**
 * The region the SDK would use (`--region`, AWS_REGION, or the profile's), or an operator's error
 * saying how to give one: without it every call fails with the SDK's bare "Region is missing".
 */
async function resolveRegion(region: string | undefined, profile: string | undefined): Promise<string> {
  const probe = new DynamoDBClient({ region, profile });
  try {
    return await probe.config.region();
  } catch {
    throw new AdminError(
      `No AWS region${profile ? ` in profile "${profile}"` : ''}: pass --region (e.g. --region eu-west-1), set AWS_REGION, ` +
        'or use a profile that names one (--profile NAME or AWS_PROFILE; `aws configure get region` shows it)',
    );
  } finally {
    probe.destroy();
  }
}

/** The outputs of a deployed stack, by key. */
async function stackOutputs(name: string, settings: ClientSettings): Promise<Record<string, string>> {
  // Loaded only for --stack: the sandbox's commands start without it.
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient({ region: settings.region, profile: settings.profile });
  try {
    const { Stacks = [] } = await client.send(new DescribeStacksCommand({ StackName: name }));
    return Object.fromEntries(
      (Stacks[0]?.Outputs ?? []).flatMap((o) => (o.OutputKey && o.OutputValue ? [[o.OutputKey, o.OutputValue]] : [])),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'ValidationError') throw new AdminError(`No stack "${name}" in ${settings.region}`);
    throw error;
  } finally {
    client.destroy();
  }
}

export async function awsTarget(options: {
  table?: string;
  stack?: string;
  endpoint?: string;
  region?: string;
  profile?: string;
}): Promise<Target> {
  const region = await resolveRegion(options.region, options.profile);
  const settings: ClientSettings = { region, profile: options.profile, ...(options.endpoint ? { endpoint: options.endpoint } : {}) };
  if (!options.stack) {
    const table = options.table as string;
    return { kind: 'table', label: `table ${table} in ${region}`, store: createTableClient(table, settings), settings };
  }
  return stackTarget(options.stack, await stackOutputs(options.stack, settings), settings, options.table);
}

/** The target a stack's outputs describe (`--table`, if given too, must be its table). */
export function stackTarget(name: string, outputs: Record<string, string>, settings: ClientSettings, table?: string): Target {
  const tableName = outputs.TableName;
  if (!tableName) throw new AdminError(`Stack "${name}" has no output TableName: is it this service's stack?`);
  if (table && table !== tableName) throw new AdminError(`--table ${table} is not the table of stack ${name} (${tableName})`);
  // A stack deployed before the bucket outputs existed still serves the commands that need only the table.
  const buckets =
    outputs.SearchIndexBucketName && outputs.SurveyExportBucketName
      ? { searchIndex: outputs.SearchIndexBucketName, surveyExports: outputs.SurveyExportBucketName }
      : undefined;
  return {
    kind: 'stack',
    label: `stack ${name} in ${settings.region} (table ${tableName})`,
    store: createTableClient(tableName, settings),
    settings,
    ...(buckets ? { buckets } : {}),
    stack: { name, outputs },
  };
}

/**
 * The sandbox's API for `cxctl demo`, once it is sure that API serves the table cxctl writes the
 * workspace and key into (else the demo's first request answers 401): refused otherwise, naming both.
 */
export async function sandboxApiOf(target: Target): Promise<string> {
  const place = target.sandbox;
  if (!place?.apiUrl) {
    throw new AdminError('demo also calls the sandbox API: give PORT with DYNAMODB_PORT, as npm start was given them, or --api URL');
  }
  const owner = place.running ?? (place.from === 'variables' && place.s3Endpoint ? await objectStoreOwner(target) : null);
  const table = `table ${place.tableName} on DynamoDB ${place.dynamodbEndpoint}`;
  if (owner && (!sameService(owner.apiUrl, place.apiUrl) || !sameService(owner.dynamodbEndpoint, place.dynamodbEndpoint))) {
    throw new AdminError(
      `demo: the API at ${place.apiUrl} is not the sandbox of ${table} (that one serves ${owner.apiUrl}): give cxctl the variables ` +
        `of one sandbox together (${sandboxVariables(owner, ['api', 'table'])}), as its banner prints them`,
    );
  }
  if (owner && owner.tableName !== place.tableName) {
    throw new AdminError(
      `demo: the sandbox at ${place.apiUrl} serves table ${owner.tableName}, not ${place.tableName}: the key cxctl would make there ` +
        `would answer 401. Run it as ${sandboxVariables(owner, ['api', 'table']) || 'plain '}npx cxctl demo …, or start the sandbox on ` +
        `${place.tableName} (TABLE_NAME=${place.tableName} npm start)`,
    );
  }
  return place.apiUrl;
}

/** The buckets, or an operator's error naming the command that needs them. */
export function bucketsOf(target: Target, command: string): NonNullable<Target['buckets']> {
  if (!target.buckets && target.sandbox) {
    throw new AdminError(
      `${command} also writes the sandbox's object store: give SQS_PORT with DYNAMODB_PORT, as npm start was given them, ` +
        'rather than reach the object store on the default port, which may be another sandbox',
    );
  }
  if (!target.buckets) {
    throw new AdminError(
      `${command} also works on the stack's buckets: name the stack with --stack NAME, deployed from this version (its outputs name them)`,
    );
  }
  return target.buckets;
}

export async function s3ClientOf(target: Target): Promise<S3Client> {
  const buckets = bucketsOf(target, 'This command');
  const { S3Client } = await import('@aws-sdk/client-s3');
  return new S3Client({
    region: target.settings.region,
    profile: target.settings.profile,
    credentials: target.settings.credentials,
    ...(buckets.s3Endpoint ? { endpoint: buckets.s3Endpoint, forcePathStyle: true } : {}),
  });
}

/**
 * The environment the areas' modules read when they load (lib/platform/config.ts and the SDK's own
 * variables), pointing them where this command acts. Set it before importing them.
 */
export function areaEnvironment(target: Target): Record<string, string> {
  const environment: Record<string, string> = { TABLE_NAME: target.store.table, AWS_REGION: target.settings.region };
  if (target.settings.profile) environment.AWS_PROFILE = target.settings.profile;
  if (target.settings.endpoint) environment.AWS_ENDPOINT_URL_DYNAMODB = target.settings.endpoint;
  if (target.settings.credentials) {
    environment.AWS_ACCESS_KEY_ID = target.settings.credentials.accessKeyId;
    environment.AWS_SECRET_ACCESS_KEY = target.settings.credentials.secretAccessKey;
  }
  if (target.buckets) {
    environment.KB_SEARCH_BUCKET = target.buckets.searchIndex;
    environment.SURVEY_EXPORT_BUCKET = target.buckets.surveyExports;
    if (target.buckets.s3Endpoint) environment.AWS_ENDPOINT_URL_S3 = target.buckets.s3Endpoint;
  }
  return environment;
}
