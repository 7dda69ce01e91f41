/**
 * Each function's IAM policy as CloudFormation would create it: the statements of every
 * `AWS::IAM::Policy` attached to the function's role (and the role's inline policies), read from
 * the synthesized parent and nested templates, with the intrinsic functions resolved for the
 * sandbox (the table's ARN is the sandbox table's). Functions are found by the source entry CDK
 * bundled (`cx:entry`, cdk/constructs/api-function.ts), which is the handler file the manifest and
 * the event-source definitions name: nothing here knows a route.
 */
import type { CloudAssembly, Template } from './cloud-assembly.ts';

interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface FunctionPolicy {
  /** The function's construct path, e.g. `CxPortalApi/IdeasRoutes/listIdeas`: what an error names. */
  functionPath: string;
  roleArn: string;
  statements: PolicyStatement[];
}

export interface SandboxAccount {
  region: string;
  accountId: string;
  tableName: string;
}

const tableArn = (account: SandboxAccount) => `arn:aws:dynamodb:${account.region}:${account.accountId}:table/${account.tableName}`;

interface Scope {
  template: Template;
  /** The values the parent passes into this stack's parameters, already resolved. */
  parameters: Record<string, unknown>;
  account: SandboxAccount;
}

/** What a resource's attribute becomes in the sandbox: the one table is the sandbox's table; anything else a stand-in ARN. */
function attribute(scope: Scope, logicalId: string, name: string): string {
  const resource = scope.template.Resources[logicalId];
  if (resource?.Type === 'AWS::DynamoDB::Table') {
    if (name === 'Arn') return tableArn(scope.account);
    if (name === 'StreamArn') return `${tableArn(scope.account)}/stream/sandbox`;
  }
  return `arn:aws:cloudformation:${scope.account.region}:${scope.account.accountId}:sandbox/${logicalId}/${name}`;
}

function reference(scope: Scope, name: string): unknown {
  const pseudo: Record<string, string> = {
    'AWS::Region': scope.account.region,
    'AWS::AccountId': scope.account.accountId,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
  };
  if (name in pseudo) return pseudo[name];
  if (name in scope.parameters) return scope.parameters[name];
  if (scope.template.Resources[name]?.Type === 'AWS::DynamoDB::Table') return scope.account.tableName;
  return `sandbox-${name}`;
}

/** Resolve the intrinsic functions CDK writes into policies: Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::Split, Fn::Sub. */
function resolveValue(scope: Scope, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveValue(scope, v));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [fn, arg] = entries[0]!;
    const resolved = () => resolveValue(scope, arg);
    switch (fn) {
      case 'Ref':
        return reference(scope, arg as string);
      case 'Fn::GetAtt': {
        const [logicalId, name] = Array.isArray(arg) ? (arg as string[]) : (arg as string).split(/\.(.*)/);
        return attribute(scope, logicalId!, name!);
      }
      case 'Fn::Join': {
        const [separator, parts] = resolved() as [string, unknown[]];
        return parts.map(String).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = resolved() as [number, unknown[]];
        return list[Number(index)];
      }
      case 'Fn::Split': {
        const [separator, text] = resolved() as [string, string];
        return String(text).split(separator);
      }
      case 'Fn::Sub': {
        const [text, variables] = (Array.isArray(arg) ? resolved() : [arg, {}]) as [string, Record<string, unknown>];
        return text.replace(/\$\{([^}!][^}]*)\}/g, (_, name: string) => {
          if (name in variables) return String(variables[name]);
          const [id, attr] = name.split(/\.(.*)/);
          return String(attr ? attribute(scope, id!, attr) : reference(scope, id!));
        });
      }
    }
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, resolveValue(scope, v)]));
}

function roleOf(fn: { Properties?: Record<string, unknown> }): string | undefined {
  const role = fn.Properties?.Role as { 'Fn::GetAtt'?: [string, string] } | undefined;
  return role?.['Fn::GetAtt']?.[0];
}

/** The policies of every function in one stack, then in the stacks nested in it. */
function collect(assembly: CloudAssembly, file: string, scope: Scope, into: Map<string, FunctionPolicy>): void {
  const { Resources } = scope.template;
  for (const [logicalId, resource] of Object.entries(Resources)) {
    if (resource.Type === 'AWS::Lambda::Function') {
      const entry = resource.Metadata?.['cx:entry'] as string | undefined;
      const role = roleOf(resource);
      if (!entry || !role) continue;
      const documents = [
        ...Object.values(Resources)
          .filter(
            (r) =>
              r.Type === 'AWS::IAM::Policy' &&
              ((r.Properties?.Roles as { Ref?: string }[] | undefined) ?? []).some((ref) => ref.Ref === role),
          )
          .map((r) => r.Properties?.PolicyDocument),
        ...((Resources[role]?.Properties?.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map((p) => p.PolicyDocument),
      ];
      if (Resources[role]?.Properties?.ManagedPolicyArns) {
        throw new Error(`${logicalId} (${file}): a managed policy cannot be evaluated in the sandbox; grant with statements`);
      }
      const statements = documents.flatMap((d) => (resolveValue(scope, d) as { Statement: PolicyStatement[] }).Statement);
      const path = String(resource.Metadata?.['aws:cdk:path'] ?? logicalId).replace(/\/Resource$/, '');
      into.set(entry, { functionPath: path, roleArn: `arn:aws:iam::${scope.account.accountId}:role/${role}`, statements });
    }
    if (resource.Type === 'AWS::CloudFormation::Stack') {
      const nestedFile = resource.Metadata?.['aws:asset:path'] as string | undefined;
      const nested = nestedFile ? assembly.templates.get(nestedFile) : undefined;
      if (!nestedFile || !nested) throw new Error(`${logicalId} (${file}): no nested template in the assembly`);
      const parameters = resolveValue(scope, resource.Properties?.Parameters ?? {}) as Record<string, unknown>;
      collect(assembly, nestedFile, { template: nested, parameters, account: scope.account }, into);
    }
  }
}

/** Every function's policy, by the handler file it runs (e.g. `functions/ideas/list-ideas.ts`). */
export function functionPolicies(assembly: CloudAssembly, account: SandboxAccount): Map<string, FunctionPolicy> {
  const root = assembly.templates.get(assembly.root)!;
  const tables = Object.values(root.Resources).filter((r) => r.Type === 'AWS::DynamoDB::Table');
  if (tables.length !== 1) throw new Error(`The sandbox emulates one table; the stack has ${tables.length}`);
  const policies = new Map<string, FunctionPolicy>();
  collect(assembly, assembly.root, { template: root, parameters: {}, account }, policies);
  return policies;
}
