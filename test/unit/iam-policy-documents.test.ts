/**
 * cdk/iam/operator-policy.json, the policy docs/deploying.md gives whoever runs `cxctl --stack`:
 * it allows every AWS call cxctl's code makes (read from the sources: each `new …Command` and the
 * package it comes from) and the calls of the stream consumers' code the rebuilds run (their declared
 * table actions, the search builder's objects). A new call without a grant fails here, not on an
 * operator's first run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchIndexBuilder } from '../../lib/knowledge-bank/search/pipeline.ts';
import { ideaAndResponseChanges } from '../../lib/webhooks/pipeline.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** Calls made only against the sandbox's DynamoDB Local (its copy of a table). */
const SANDBOX_ONLY = new Set(['dynamodb:CreateTable', 'dynamodb:ListTables']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The IAM actions a command of an SDK package needs (transactions are authorised item by item). */
function actionsOf(pkg: string, command: string): string[] {
  if (pkg === '@aws-sdk/lib-dynamodb') {
    const names: Record<string, string[]> = {
      Get: ['GetItem'],
      Put: ['PutItem'],
      Update: ['UpdateItem'],
      Delete: ['DeleteItem'],
      Query: ['Query'],
      Scan: ['Scan'],
      BatchGet: ['BatchGetItem'],
      BatchWrite: ['BatchWriteItem'],
      TransactWrite: ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
    };
    return (names[command] ?? [command]).map((a) => `dynamodb:${a}`);
  }
  if (pkg === '@aws-sdk/client-dynamodb') return [`dynamodb:${command}`];
  if (pkg === '@aws-sdk/client-s3') return [`s3:${{ ListObjectsV2: 'ListBucket', DeleteObjects: 'DeleteObject' }[command] ?? command}`];
  if (pkg === '@aws-sdk/client-cloudformation') return [`cloudformation:${command}`];
  if (pkg === '@aws-sdk/client-secrets-manager') return [`secretsmanager:${command}`];
  throw new Error(`No IAM mapping for ${pkg} ${command}`);
}

function callsOf(files: string[]): Set<string> {
  const actions = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const packageOf = new Map<string, string>();
    for (const [, names, pkg] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(@aws-sdk\/[\w-]+)'/g))
      for (const name of names!.split(',').map((n) => n.replace(/^\s*type\s+/, '').trim())) if (name) packageOf.set(name, pkg!);
    for (const [, command] of text.matchAll(/new (\w+)Command\(/g)) {
      const pkg = packageOf.get(`${command}Command`);
      if (pkg) for (const action of actionsOf(pkg, command!)) actions.add(action);
    }
  }
  return actions;
}

const policy = JSON.parse(readFileSync(join(ROOT, 'cdk/iam/operator-policy.json'), 'utf8')) as {
  Statement: { Effect: string; Action: string | string[] }[];
};
const allowed = new Set(policy.Statement.filter((s) => s.Effect === 'Allow').flatMap((s) => [s.Action].flat()));

describe('the operator policy', () => {
  it("allows every call of cxctl's own code", () => {
    const calls = callsOf([...sources(join(ROOT, 'lib/admin')), ...sources(join(ROOT, 'cli'))]);
    expect(calls.size).toBeGreaterThan(15);
    expect([...calls].filter((a) => !allowed.has(a) && !SANDBOX_ONLY.has(a)).sort()).toEqual([]);
  });

  it('allows what the rebuilds run of the stream consumers: their table actions and the index objects', () => {
    const consumers = [...searchIndexBuilder.table, ...ideaAndResponseChanges.table].map((a) => `dynamodb:${a}`);
    const objects = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:ListBucket'];
    expect([...consumers, ...objects].filter((a) => !allowed.has(a))).toEqual([]);
  });
});
