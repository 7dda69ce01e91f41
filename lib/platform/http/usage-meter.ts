/**
 * Usage per workspace, for every API request (issue 41): the request runs with a tally of what AWS
 * bills it (lib/platform/tenants/meter.ts), and once it answered, its counters go to the instance's
 * buffer under its workspace and hour: its operation and status class, the DynamoDB units its calls
 * consumed, its duration × the function's memory (GB-seconds), the bytes it answered, its SQS
 * requests. Attributed only once authentication verified the key (ApiContext.meteredWorkspace): a
 * forged or unknown key's request is not the workspace's to pay for.
 *
 * No round trip is added to any request: the usage an instance buffered is written beside a later
 * request's own work (its write starts with the request and ends long before it), at most once every
 * USAGE_FLUSH_SECONDS (lib/platform/data/usage-writes.ts).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { config } from '../config.ts';
import { flushUsage } from '../data/usage-writes.ts';
import { newTally, runMetered } from '../tenants/meter.ts';
import { countersOfRequest } from '../tenants/usage.ts';
import { recordUsage } from '../tenants/usage-buffer.ts';
import type { ApiContext } from './context.ts';

type Invocation = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** The function's memory in GB: what Lambda bills a millisecond of (it sets the variable; 512 MB is the stack's). */
const memoryGb = () => config.integer('AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 512, 128) / 1024;

function bytesOf(response: APIGatewayProxyStructuredResultV2): number {
  const body = response.body ?? '';
  const headers = Object.entries(response.headers ?? {}).reduce((sum, [name, value]) => sum + name.length + String(value).length + 4, 0);
  return (response.isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body)) + headers;
}

export function metered(operationId: string, invocation: Invocation): Invocation {
  return async (event, context) => {
    const writing = flushUsage();
    const tally = newTally();
    const started = performance.now();
    const response = await runMetered(tally, () => invocation(event, context));
    const workspace = (context as ApiContext).meteredWorkspace;
    if (workspace) {
      recordUsage(
        workspace,
        Date.now(),
        countersOfRequest({
          operationId,
          status: response.statusCode ?? 200,
          readUnits: tally.readUnits,
          writeUnits: tally.writeUnits,
          gbSeconds: (Math.ceil(performance.now() - started) / 1000) * memoryGb(),
          bytesOut: bytesOf(response),
          sqsRequests: tally.sqsRequests,
        }),
      );
    }
    await writing;
    return response;
  };
}
