/** The request context the sandbox gives IAM for each DynamoDB request (local/iam/dynamodb-request-context.ts). */
import { describe, expect, it } from 'vitest';
import { dynamoDbAuthorizations, expressionAttributeNames } from '../../local/iam/dynamodb-request-context.ts';

const schema = { partitionKey: 'pk', indexPartitionKeys: { gsi1: 'gsi1pk' } };

describe('expressionAttributeNames', () => {
  it('names top-level attributes: placeholders resolved, paths cut to their first element, functions and keywords skipped', () => {
    expect(
      expressionAttributeNames(
        'attribute_exists(pk) AND #s = :s AND size(tags) > :n AND meta.owner.name = :o AND list[2].x BETWEEN :a AND :b',
        {
          '#s': 'status',
        },
      ),
    ).toEqual(['pk', 'status', 'tags', 'meta', 'list']);
    expect(
      expressionAttributeNames('SET a = if_not_exists(a, :z) + :one, #b.c = list_append(d, :l) REMOVE e ADD f :n DELETE g :set', {
        '#b': 'b',
      }),
    ).toEqual(['a', 'a', 'b', 'd', 'e', 'f', 'g']);
    expect(expressionAttributeNames('NOT contains(#t, :x) OR begins_with(sk, :p)', { '#t': 'title' })).toEqual(['title', 'sk']);
  });

  it('refuses a placeholder the request does not define, as DynamoDB does', () => {
    expect(() => expressionAttributeNames('#missing = :v', {})).toThrow(/#missing/);
  });
});

describe('dynamoDbAuthorizations', () => {
  it('gives an UpdateItem every name it specifies, its leading key and its ReturnValues', () => {
    const [update] = dynamoDbAuthorizations(
      'UpdateCommand',
      {
        TableName: 't',
        Key: { pk: 'WS#acme', sk: 'KEY#1' },
        UpdateExpression: 'SET rlCount = rlCount + :one',
        ConditionExpression: 'secretHash = :h',
        ReturnValues: 'ALL_NEW',
      },
      schema,
    );
    expect(update).toEqual({
      action: 'dynamodb:UpdateItem',
      table: 't',
      context: {
        'dynamodb:LeadingKeys': ['WS#acme'],
        'dynamodb:Attributes': ['pk', 'sk', 'secretHash', 'rlCount'],
        'dynamodb:ReturnValues': 'ALL_NEW',
      },
    });
  });

  it("takes a Query's leading key from its key condition, of the index it reads, and its Select", () => {
    const [query] = dynamoDbAuthorizations(
      'QueryCommand',
      {
        TableName: 't',
        IndexName: 'gsi1',
        KeyConditionExpression: '#pk = :pk AND begins_with(gsi1sk, :p)',
        ExpressionAttributeNames: { '#pk': 'gsi1pk' },
        ExpressionAttributeValues: { ':pk': { S: 'WS#acme#SOPS' }, ':p': { S: 'published#' } },
        ProjectionExpression: 'id, titleEn',
        Select: 'SPECIFIC_ATTRIBUTES',
      },
      schema,
    );
    expect(query).toEqual({
      action: 'dynamodb:Query',
      table: 't',
      index: 'gsi1',
      context: {
        'dynamodb:LeadingKeys': ['WS#acme#SOPS'],
        'dynamodb:Attributes': ['gsi1pk', 'gsi1sk', 'id', 'titleEn'],
        'dynamodb:Select': 'SPECIFIC_ATTRIBUTES',
      },
    });
  });

  it('authorizes each transaction part as its own action, and a batch once per table over all its items', () => {
    const parts = dynamoDbAuthorizations(
      'TransactWriteItemsCommand',
      {
        TransactItems: [
          { ConditionCheck: { TableName: 't', Key: { pk: { S: 'WS#a' }, sk: { S: 'X' } }, ConditionExpression: 'attribute_exists(pk)' } },
          { Put: { TableName: 't', Item: { pk: { S: 'WS#a' }, sk: { S: 'Y' }, title: { S: 'x' } } } },
        ],
      },
      schema,
    );
    expect(parts.map((p) => [p.action, p.context['dynamodb:Attributes']])).toEqual([
      ['dynamodb:ConditionCheckItem', ['pk', 'sk']],
      ['dynamodb:PutItem', ['pk', 'sk', 'title']],
    ]);
    const [batch] = dynamoDbAuthorizations(
      'BatchGetCommand',
      {
        RequestItems: {
          t: {
            Keys: [
              { pk: 'WS#a', sk: 'WORKSPACE' },
              { pk: 'WS#b', sk: 'KEY#1' },
            ],
            ConsistentRead: true,
          },
        },
      },
      schema,
    );
    expect(batch).toEqual({
      action: 'dynamodb:BatchGetItem',
      table: 't',
      context: { 'dynamodb:LeadingKeys': ['WS#a', 'WS#b'], 'dynamodb:Attributes': ['pk', 'sk'] },
    });
  });
});
