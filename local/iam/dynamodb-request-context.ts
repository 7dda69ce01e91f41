/**
 * What IAM sees of one DynamoDB request: the action it authorizes, the table or index ARN, and
 * the DynamoDB condition keys AWS fills in from the request, so a function's policy can be
 * evaluated as AWS would evaluate it. Sources:
 * - Fine-grained access control, "Using IAM policy conditions":
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html
 * - Service Authorization Reference, "Condition keys for Amazon DynamoDB":
 *   https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html#amazondynamodb-policy-keys
 */

/** One IAM authorization a request needs: a transaction needs one per part, a batch one per table. */
export interface DynamoDbAuthorization {
  /** e.g. `dynamodb:UpdateItem`. */
  action: string;
  /** The table name, and the index name when the request reads an index. */
  table: string;
  index?: string;
  context: Record<string, string | string[]>;
}

type AttributeValue = string | number | boolean | null | Record<string, unknown> | unknown[];
type Key = Record<string, AttributeValue>;

interface ItemRequest {
  TableName?: string;
  IndexName?: string;
  Key?: Key;
  Item?: Key;
  ConditionExpression?: string;
  FilterExpression?: string;
  KeyConditionExpression?: string;
  UpdateExpression?: string;
  ProjectionExpression?: string;
  AttributesToGet?: string[];
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, AttributeValue>;
  ReturnValues?: string;
  Select?: string;
}

/** The partition key attribute of the table and of each index (lib/platform/data/table.ts). */
export interface KeySchema {
  partitionKey: string;
  indexPartitionKeys: Record<string, string>;
}

/**
 * Each transaction part is authorized as the single-item action it performs (PutItem, UpdateItem,
 * DeleteItem, ConditionCheckItem, GetItem), with that part's own condition keys:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html
 */
const TRANSACTION_PART_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

const FUNCTIONS = new Set([
  'attribute_exists',
  'attribute_not_exists',
  'attribute_type',
  'begins_with',
  'contains',
  'size',
  'if_not_exists',
  'list_append',
]);
const KEYWORDS = new Set(['and', 'or', 'not', 'between', 'in', 'set', 'remove', 'add', 'delete']);
const TOKEN = /#[A-Za-z0-9_]+|:[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*|\[\s*\d+\s*\]|\S/g;

/**
 * The top-level attribute names an expression names: placeholders (`#n`) resolved through
 * ExpressionAttributeNames, and a nested path (`a.b[0].c`) counting as its first element, which is
 * what `dynamodb:Attributes` holds ("a list of the top-level attribute names accessed by a request").
 */
export function expressionAttributeNames(expression: string | undefined, names: Record<string, string> = {}): string[] {
  if (!expression) return [];
  const found: string[] = [];
  const tokens = expression.match(TOKEN) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const previous = tokens[i - 1];
    // A member of a path (`.b` of `a.b`) is not a top-level name.
    if (previous === '.') continue;
    if (token.startsWith('#')) {
      const name = names[token];
      if (name === undefined) throw new Error(`Expression ${JSON.stringify(expression)} uses ${token}, not in ExpressionAttributeNames`);
      found.push(name);
    } else if (/^[A-Za-z_]/.test(token)) {
      const isFunction = tokens[i + 1] === '(' && FUNCTIONS.has(token);
      if (!isFunction && !KEYWORDS.has(token.toLowerCase())) found.push(token);
    }
  }
  return found;
}

/** A key's partition value as a string, whether the document client (plain) or the low-level one ({S: …}) sent it. */
function scalar(value: AttributeValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const typed = value as { S?: string; N?: string; B?: unknown };
    return typed.S ?? typed.N ?? (typed.B === undefined ? undefined : String(typed.B));
  }
  return String(value);
}

/** The value a Query's key condition requires of `attribute` (`pk = :pk`, either way round). */
function keyConditionValue(request: ItemRequest, attribute: string): string | undefined {
  const expression = request.KeyConditionExpression ?? '';
  const names = request.ExpressionAttributeNames ?? {};
  for (const clause of expression.split(/\s+AND\s+/i)) {
    const match = /^\(?\s*([#:]?[A-Za-z0-9_]+)\s*=\s*([#:]?[A-Za-z0-9_]+)\s*\)?$/.exec(clause.trim());
    if (!match) continue;
    const [left, right] = [match[1]!, match[2]!];
    const nameOf = (token: string) => (token.startsWith('#') ? names[token] : token);
    const [nameSide, valueSide] = right.startsWith(':') ? [left, right] : [right, left];
    if (nameOf(nameSide) === attribute && valueSide.startsWith(':')) return scalar(request.ExpressionAttributeValues?.[valueSide]);
  }
  return undefined;
}

/** Every top-level attribute name one single-item request or query specifies. */
function attributesOf(request: ItemRequest): string[] {
  const names = request.ExpressionAttributeNames;
  return [
    ...Object.keys(request.Key ?? {}),
    ...Object.keys(request.Item ?? {}),
    ...(request.AttributesToGet ?? []),
    ...expressionAttributeNames(request.KeyConditionExpression, names),
    ...expressionAttributeNames(request.ConditionExpression, names),
    ...expressionAttributeNames(request.FilterExpression, names),
    ...expressionAttributeNames(request.UpdateExpression, names),
    ...expressionAttributeNames(request.ProjectionExpression, names),
  ];
}

/**
 * The condition keys of one request on one table or index:
 * - `dynamodb:LeadingKeys`: the partition key values the request touches; for a Query, the value
 *   its key condition gives the partition key (of the index it reads, for an index Query); for a
 *   Scan there is none.
 * - `dynamodb:Attributes`: the top-level attribute names the request specifies (key, item, every
 *   expression and AttributesToGet), deduplicated; a nested path counts as its top-level name.
 * - `dynamodb:ReturnValues`, `dynamodb:Select`: the request's parameters, present only when it sets
 *   them, so a policy must use the `…IfExists` operators to accept the default, as AWS's own
 *   examples do ("StringEqualsIfExists": {"dynamodb:Select": "SPECIFIC_ATTRIBUTES"}).
 */
function contextOf(request: ItemRequest, leadingKeys: string[], schema: KeySchema): Record<string, string | string[]> {
  const context: Record<string, string | string[]> = {};
  const partitionKey = request.IndexName ? schema.indexPartitionKeys[request.IndexName] : schema.partitionKey;
  const leading = leadingKeys.length > 0 ? leadingKeys : [keyConditionValue(request, partitionKey ?? '')].filter((v) => v !== undefined);
  if (leading.length > 0) context['dynamodb:LeadingKeys'] = [...new Set(leading)];
  context['dynamodb:Attributes'] = [...new Set(attributesOf(request))];
  if (request.ReturnValues) context['dynamodb:ReturnValues'] = request.ReturnValues;
  if (request.Select) context['dynamodb:Select'] = request.Select;
  return context;
}

function single(action: string, request: ItemRequest, schema: KeySchema): DynamoDbAuthorization {
  const partition = scalar((request.Key ?? request.Item)?.[schema.partitionKey]);
  return {
    action: `dynamodb:${action}`,
    table: request.TableName ?? '',
    ...(request.IndexName ? { index: request.IndexName } : {}),
    context: contextOf(request, partition === undefined ? [] : [partition], schema),
  };
}

interface BatchInput {
  RequestItems?: Record<
    string,
    | { Keys?: Key[]; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }
    | { PutRequest?: { Item: Key }; DeleteRequest?: { Key: Key } }[]
  >;
}

/**
 * A batch is one authorization of its own action (BatchGetItem, BatchWriteItem) per table, its
 * LeadingKeys and Attributes the union over every item it names: a ForAllValues condition must
 * then hold for every item, as it must for each item of the batch in AWS.
 */
function batch(action: string, input: BatchInput, schema: KeySchema): DynamoDbAuthorization[] {
  return Object.entries(input.RequestItems ?? {}).map(([table, request]) => {
    const items: ItemRequest[] = Array.isArray(request)
      ? request.map((write) => (write.PutRequest ? { Item: write.PutRequest.Item } : { Key: write.DeleteRequest?.Key }))
      : (request.Keys ?? []).map((Key) => ({
          Key,
          ProjectionExpression: request.ProjectionExpression,
          ExpressionAttributeNames: request.ExpressionAttributeNames,
        }));
    const leading = items.map((item) => scalar((item.Key ?? item.Item)?.[schema.partitionKey])).filter((v) => v !== undefined);
    return {
      action: `dynamodb:${action}`,
      table,
      context: {
        ...(leading.length > 0 ? { 'dynamodb:LeadingKeys': [...new Set(leading)] } : {}),
        'dynamodb:Attributes': [...new Set(items.flatMap(attributesOf))],
      },
    };
  });
}

/** The authorizations one SDK command needs, by command name (`UpdateItemCommand` or the document client's `UpdateCommand`). */
export function dynamoDbAuthorizations(commandName: string, input: unknown, schema: KeySchema): DynamoDbAuthorization[] {
  const name = commandName.replace(/Command$/, '');
  const request = (input ?? {}) as ItemRequest & BatchInput & { TransactItems?: Record<string, ItemRequest>[] };
  switch (name) {
    case 'TransactWrite':
    case 'TransactWriteItems':
    case 'TransactGet':
    case 'TransactGetItems':
      return (request.TransactItems ?? []).map((part) => {
        const [kind, partRequest] = Object.entries(part)[0] ?? ['', {}];
        return single(TRANSACTION_PART_ACTIONS[kind] ?? kind, partRequest, schema);
      });
    case 'BatchGet':
    case 'BatchGetItem':
      return batch('BatchGetItem', request, schema);
    case 'BatchWrite':
    case 'BatchWriteItem':
      return batch('BatchWriteItem', request, schema);
    case 'Get':
      return [single('GetItem', request, schema)];
    case 'Put':
      return [single('PutItem', request, schema)];
    case 'Update':
      return [single('UpdateItem', request, schema)];
    case 'Delete':
      return [single('DeleteItem', request, schema)];
    default:
      return [single(name, request, schema)];
  }
}
