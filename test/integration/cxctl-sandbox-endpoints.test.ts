/**
 * cxctl never writes one sandbox's table and another's objects, nor makes a demo key in a table the
 * API it calls does not serve (cli/target.ts, lib/admin/target.ts): the object store says whose it is
 * (local/sandbox.ts writes it there), and a command that would mix two sandboxes, or two tables of
 * one, is refused before it writes anything, naming both and the variables to give. When it cannot
 * tell beforehand (`--api` given), the demo's 401 says why and what to do.
 */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableInput } from '../../lib/admin/table-layout.ts';
import { startDynamoDbLocal } from '../../local/dynamodb-local.ts';
import { freePort } from '../../local/wait.ts';
import { sandbox, uniqueSlug } from '../support/fixtures.ts';
import { cxctl, operatorEnvironment } from '../support/operator.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const OTHER_TABLE = `cx-portal-other-${uniqueSlug('t')}`;
let otherDynamoDb: Awaited<ReturnType<typeof startDynamoDbLocal>>;

beforeAll(async () => {
  const dynamodb = new DynamoDBClient({ endpoint: sandbox.dynamodbEndpoint, region: 'us-east-1', credentials });
  await dynamodb.send(new CreateTableCommand(createTableInput(OTHER_TABLE)));
  dynamodb.destroy();
  // Another sandbox's DynamoDB Local, holding a table of the test sandbox's name.
  otherDynamoDb = await startDynamoDbLocal({ port: await freePort() });
  const other = new DynamoDBClient({ endpoint: otherDynamoDb.endpoint, region: 'us-east-1', credentials });
  await other.send(new CreateTableCommand(createTableInput(sandbox.tableName)));
  other.destroy();
}, 120_000);

afterAll(async () => {
  await otherDynamoDb?.stop();
});

const served = `the sandbox serving table ${sandbox.tableName} on DynamoDB ${sandbox.dynamodbEndpoint}`;

describe('cxctl on the sandbox', () => {
  it('refuses to write the object store of the sandbox serving another table, before it writes anything', async () => {
    const { code, stdout, stderr } = await cxctl(['rebuild', 'search', '--all'], operatorEnvironment(OTHER_TABLE));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      `cxctl: rebuild search: the object store at ${sandbox.sqsEndpoint} belongs to ${served}, not to table ${OTHER_TABLE} on ` +
        `DynamoDB ${sandbox.dynamodbEndpoint}: writing there would mix two sandboxes. Give cxctl the variables of one sandbox together ` +
        `(DYNAMODB_PORT=${new URL(sandbox.dynamodbEndpoint).port} SQS_PORT=${new URL(sandbox.sqsEndpoint).port} TABLE_NAME=${sandbox.tableName} ), as its banner prints them`,
    );
  });

  it("refuses a table of one sandbox with another's object store (DYNAMODB_PORT of one, SQS_PORT of the other)", async () => {
    const { code, stderr } = await cxctl(['workspace', 'delete', 'nobody', '--confirm', 'nobody'], {
      ...operatorEnvironment(),
      DYNAMODB_PORT: new URL(otherDynamoDb.endpoint).port,
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`cxctl: workspace delete: the object store at ${sandbox.sqsEndpoint} belongs to ${served}, not to table`);
  });

  it('refuses a demo whose API serves another table than the one cxctl would make the key in', async () => {
    const { code, stderr } = await cxctl(['demo', uniqueSlug('demo')], {
      ...operatorEnvironment(OTHER_TABLE),
      PORT: new URL(sandbox.apiUrl).port,
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `cxctl: demo: the sandbox at ${sandbox.apiUrl} serves table ${sandbox.tableName}, not ${OTHER_TABLE}: the key cxctl would make there would answer 401.`,
    );
  });

  it('says why a demo key answered 401 and what to do, when it could not tell beforehand (--api)', async () => {
    const { code, stderr } = await cxctl(['demo', uniqueSlug('demo'), '--api', sandbox.apiUrl], operatorEnvironment(OTHER_TABLE));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^cxctl: GET \/me answered 401 invalid_key: /);
    expect(stderr).toContain(`the API at ${sandbox.apiUrl} does not know the key cxctl just made in table ${OTHER_TABLE}`);
    expect(stderr).toContain(
      'Run cxctl demo with the variables the sandbox banner prints for it (PORT, DYNAMODB_PORT, TABLE_NAME, DATA_DIR',
    );
  });
});
