/**
 * The DynamoDB client, created once per Lambda instance. Its endpoint comes from the standard SDK
 * configuration (AWS_ENDPOINT_URL_DYNAMODB in the sandbox or LocalStack, the regional endpoint
 * in AWS), so handlers never know where they run.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = config.tableName();
