/**
 * Where cxctl acts, from its options: `--table NAME` for a deployed table, `--stack NAME` for a
 * deployed stack's table and buckets (lib/admin/target.ts), else the sandbox, whose every endpoint
 * comes from one place:
 *   - the variables `npm start` was given (DYNAMODB_PORT for the table, SQS_PORT for the object
 *     store, PORT for the API), when any is set: a command refuses to run without each one it uses,
 *     rather than reach the service on its default port, which may be another sandbox's;
 *   - otherwise what `npm start` wrote into DATA_DIR (default `.data`) while it runs: sandbox.json;
 *   - otherwise the defaults (8000, 4566, 3000).
 * `--endpoint URL` (LocalStack) names the DynamoDB endpoint; AWS_ENDPOINT_URL_S3 the object store.
 * The table is TABLE_NAME, else the one the sandbox serves (sandbox.json), else cx-portal.
 */
import { resolve } from 'node:path';
import { readSandboxFile, SANDBOX_DEFAULTS, type SandboxIdentity } from '../lib/admin/sandbox-identity.ts';
import { AdminError } from '../lib/admin/table-client.ts';
import { awsTarget, type SandboxPlace, sandboxTarget, type Target } from '../lib/admin/target.ts';
import { config } from '../lib/platform/config.ts';

export interface TargetOptions {
  table?: string;
  stack?: string;
  endpoint?: string;
  region?: string;
  profile?: string;
}

const PORT_VARIABLES = ['DYNAMODB_PORT', 'SQS_PORT', 'PORT'] as const;
const local = (variable: (typeof PORT_VARIABLES)[number]) => `http://127.0.0.1:${config.integer(variable, SANDBOX_DEFAULTS[variable], 1)}`;

/** The sandbox's endpoints, each from the one place cxctl takes them (see above). */
function sandboxPlace(options: Pick<TargetOptions, 'endpoint'>): SandboxPlace {
  const dataDir = resolve(process.env.DATA_DIR || SANDBOX_DEFAULTS.DATA_DIR);
  const given = PORT_VARIABLES.filter((name) => process.env[name]);
  const s3 = process.env.AWS_ENDPOINT_URL_S3;
  if (options.endpoint || given.length > 0 || s3) {
    if (!options.endpoint && !process.env.DYNAMODB_PORT) {
      throw new AdminError(
        `${[...given, ...(s3 ? ['AWS_ENDPOINT_URL_S3'] : [])].join(' and ')} given without DYNAMODB_PORT: cxctl would reach the table ` +
          `of the sandbox on port ${SANDBOX_DEFAULTS.DYNAMODB_PORT}, which may not be the one you mean. Give DYNAMODB_PORT too, as npm start ` +
          'was given it (its banner prints every variable a command needs), or none of them and DATA_DIR',
      );
    }
    return {
      from: options.endpoint ? '--endpoint' : 'variables',
      dynamodbEndpoint: options.endpoint ?? local('DYNAMODB_PORT'),
      s3Endpoint: s3 ?? (process.env.SQS_PORT ? local('SQS_PORT') : undefined),
      apiUrl: process.env.PORT ? `${local('PORT')}/api/v1` : undefined,
      tableName: process.env.TABLE_NAME || SANDBOX_DEFAULTS.TABLE_NAME,
      dataDir,
      running: null,
    };
  }
  const running: SandboxIdentity | null = readSandboxFile(dataDir);
  return {
    from: running ? 'DATA_DIR' : 'defaults',
    dynamodbEndpoint: running?.dynamodbEndpoint ?? local('DYNAMODB_PORT'),
    s3Endpoint: running?.sqsEndpoint ?? local('SQS_PORT'),
    apiUrl: running ? running.apiUrl : `${local('PORT')}/api/v1`,
    tableName: process.env.TABLE_NAME || running?.tableName || SANDBOX_DEFAULTS.TABLE_NAME,
    dataDir,
    running,
  };
}

export function targetFromOptions(options: TargetOptions): Promise<Target> {
  if (options.table || options.stack) return awsTarget(options);
  return Promise.resolve(sandboxTarget(sandboxPlace(options), options.region ?? process.env.AWS_REGION ?? 'us-east-1'));
}
