/**
 * cxctl: the operator CLI. Manages workspaces, Developer keys, idea labels and the SOP directory,
 * lists the permissions a key can hold, and runs the operator's lifecycle (backup, restore,
 * rebuilds, a tenant's export and deletion: each in its own module under cli/commands/).
 * By default it talks to the running sandbox (every endpoint from one place: cli/target.ts);
 * `--stack NAME` targets a deployed stack, `--table NAME` a deployed table, with the normal AWS
 * credentials, profile and region (cli/target.ts), and `--endpoint URL` adds a custom endpoint
 * (LocalStack). Every input is checked before anything is written; a failure prints one line to
 * stderr and exits 1 (2 for usage errors).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseAudienceFile, setAudienceAttributes } from '../lib/admin/audience.ts';
import {
  createDeveloperKey,
  listDeveloperKeys,
  parseDuration,
  parsePermissions,
  revokeDeveloperKey,
  rotateDeveloperKey,
} from '../lib/admin/developer-keys.ts';
import { importDirectory, parseDirectoryImport } from '../lib/admin/directory.ts';
import { addIdeaLabels } from '../lib/admin/idea-labels.ts';
import { SANDBOX_DEFAULTS } from '../lib/admin/sandbox-identity.ts';
import { AdminError } from '../lib/admin/table-client.ts';
import { sandboxApiOf, sandboxVariablesOf, type Target } from '../lib/admin/target.ts';
import {
  changeModules,
  createWorkspace,
  listWorkspaces,
  parseLabels,
  parseModules,
  setIdeaLabels,
  setWorkspaceStatus,
} from '../lib/admin/workspaces.ts';
import { config } from '../lib/platform/config.ts';
import { workspaceHostOf } from '../lib/platform/http/workspace-host.ts';
import { moduleOfPermission, PERMISSIONS } from '../lib/platform/permissions.ts';
import type { CommandContext } from './commands/context.ts';
import { limitText, setLimitCommand, usageCommand } from './commands/tenants.ts';
import { nextSteps, runDemo } from './demo/run.ts';
import { targetFromOptions } from './target.ts';

/** Lines of at most 100 characters, each starting with the indent. */
function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= 100) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`${indent}${word}`);
  }
  return lines.join('\n');
}

const USAGE = `Usage: cxctl <command> [options]

Workspaces
  workspace create <slug> [--name NAME]             create a workspace; prints its host
  workspace list                                    every workspace: slug, status, disabled modules, request limit, host
  workspace set-limit <slug> --requests-per-second N [--burst M] | --default
                                                    its request budget across all its keys (burst: 2 × N unless given)
  workspace suspend <slug> | resume <slug>          every request gets 403 while suspended
  workspace modules <slug> [--disable a,b] [--enable c,d]
                                                    modules: ideas, journeys, surveys, sops, webhooks, knowledge-bank
  workspace export <slug> --out FILE                every record, as NDJSON (docs/operating.md: the format); no secrets
  workspace delete <slug> --confirm <slug> [--settle SECONDS]
                                                    a suspended workspace's items, objects and webhooks, for good;
                                                    resumable; the slug can be created again afterwards
Developer keys (the secret is printed once)
  permissions                                       every permission a key can hold, with its module:
${wrap(PERMISSIONS.join(', '), '                                                    ')}
  key create --workspace <slug> [--scopes a,b | --all] [--expires-in 30s|15m|12h|90d]
             [--rate-limit N] [--name NAME]         default scopes: every *:read; rate limit: requests per minute
  key list --workspace <slug>
  key revoke <id>                                   the next request with it gets 401
  key rotate <id>                                   new secret; the old one stops working at once
Usage (docs/operating.md, "Tenants")
  usage <slug> [--from ISO] [--to ISO] [--granularity hour|day] [--csv]
                                                    requests, DynamoDB units, deliveries, searches, export bytes, cost
  usage --all [--from ISO] [--to ISO] [--csv]       every workspace, the costliest first
Ideas and SOPs
  labels set <slug> [--statuses a,b] [--modules x,y]   replace the idea statuses and/or modules
  labels add <slug> [--statuses a,b] [--modules x,y]   add the missing ones, keeping the workspace's own
  directory import <slug> --file directory.json     {people:[{name,email,active,sourceUserId?}], teams:[{name,active,sourceDepartmentId?}]}
Demo data
  demo <slug> [--api URL] [--key cxk_…]           fill a workspace (created if missing) with bilingual demo data through
                                                    the API at --api (default http://127.0.0.1:$PORT/api/v1); running it
                                                    again changes nothing. Without --key it makes a key (printed once)
Surveys
  audience set <slug> --file audience.json          {attributes:[{key, type: string|number|date|boolean, values?}]}: what targeting may use
Table layout (after a deploy or a pull that changes it; see docs/cxctl.md)
  migrate [--dry-run] [--rate N]                    run the layout migrations this table has not finished, resumably,
                                                    at most N item writes a second (default 200); --dry-run only counts
  migrate status                                    which migrations this table has had, when, and how far
Backup, restore, rebuild (docs/operating.md)
  backup verify                                     point-in-time recovery, deletion protection, stream, TTL; what the
                                                    stack keeps of the table, secret and buckets when deleted
  backup restore --to TABLE [--time ISO]            the table as it was into a new one (the sandbox: a copy of it now),
                                                    then what to deploy and rebuild; refuses a table it did not make
                 [--resume TABLE_ID]                AWS: go on with a restore this command started but could not mark
  rebuild search --workspace <slug> | --all [--restart]
                                                    search indexes built again from the live articles
  rebuild summaries --workspace <slug> [--survey ID] | --all [--restart]
                                                    survey summaries made to match the stored responses

The sandbox (the default target): cxctl takes every endpoint from one place, never some from each
  DATA_DIR=DIR        what npm start wrote into DIR/sandbox.json while it runs (default .data): its
                      ports and the table it serves; used when none of the port variables below is set
  DYNAMODB_PORT=N     or the variables npm start was given, together: DYNAMODB_PORT for the table (every
  SQS_PORT=N          command), SQS_PORT for its object store (rebuild search, workspace delete), PORT for
  PORT=N              its API (demo); a command refuses to run without one it uses
  TABLE_NAME=NAME     the table (default: the one the sandbox serves, else cx-portal), e.g. a restored copy
  npm start prints each command with the variables it needs; a command that writes objects (or demo)
  refuses when the object store (or API) belongs to a sandbox serving another table.

Target elsewhere
  --stack NAME        a deployed stack: its table and buckets, from its outputs
  --table NAME        a deployed table (AWS credentials and region from the environment)
  --region REGION     the AWS region (else AWS_REGION, or the profile's)
  --profile NAME      an AWS profile (else AWS_PROFILE)
  --endpoint URL      a custom DynamoDB endpoint, e.g. LocalStack's http://localhost:4566
  --json              machine-readable output`;

class UsageError extends Error {}

const { values: options, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        workspace: { type: 'string' },
        scopes: { type: 'string' },
        all: { type: 'boolean' },
        'expires-in': { type: 'string' },
        'rate-limit': { type: 'string' },
        disable: { type: 'string' },
        enable: { type: 'string' },
        statuses: { type: 'string' },
        modules: { type: 'string' },
        file: { type: 'string' },
        table: { type: 'string' },
        endpoint: { type: 'string' },
        json: { type: 'boolean' },
        api: { type: 'string' },
        key: { type: 'string' },
        'dry-run': { type: 'boolean' },
        rate: { type: 'string' },
        stack: { type: 'string' },
        region: { type: 'string' },
        profile: { type: 'string' },
        out: { type: 'string' },
        confirm: { type: 'string' },
        settle: { type: 'string' },
        survey: { type: 'string' },
        to: { type: 'string' },
        time: { type: 'string' },
        resume: { type: 'string' },
        restart: { type: 'boolean' },
        'requests-per-second': { type: 'string' },
        burst: { type: 'string' },
        default: { type: 'boolean' },
        from: { type: 'string' },
        granularity: { type: 'string' },
        csv: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    console.error(`cxctl: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
})();

/** Why nothing answered, by where cxctl looked: a sandbox on other ports is the usual reason. */
function unreachableHint(where: Target | undefined): string {
  if ((options.table || options.stack) && !options.endpoint) return '';
  if (options.endpoint) return ` (nothing answers at --endpoint ${options.endpoint})`;
  const place = where?.sandbox;
  if (!place) return '';
  const found =
    place.from === 'variables'
      ? `DYNAMODB_PORT=${process.env.DYNAMODB_PORT}`
      : place.from === 'DATA_DIR'
        ? `from ${place.dataDir}/sandbox.json`
        : `DYNAMODB_PORT default ${SANDBOX_DEFAULTS.DYNAMODB_PORT}: no sandbox running on DATA_DIR ${place.dataDir}`;
  return (
    ` (nothing answers at ${place.dynamodbEndpoint} (${found}): is the sandbox running? Start it with: npm start. ` +
    'If it runs on other ports or another DATA_DIR, give cxctl the variables its banner prints with each command, ' +
    'e.g. DATA_DIR=… or DYNAMODB_PORT=… SQS_PORT=… PORT=… TABLE_NAME=…)'
  );
}

/** The SDK found no AWS credentials (its CredentialsProviderError): what to give it. */
function credentialsHint(message: string): string {
  const profile = options.profile ?? process.env.AWS_PROFILE;
  const where = profile
    ? `Profile "${profile}" gave none: is it one \`aws configure list-profiles\` lists? For an SSO profile, \`aws sso login --profile ${profile}\` when its session has expired`
    : 'Name a profile with --profile NAME or AWS_PROFILE=NAME (one `aws configure` or `aws configure sso` made), ' +
      'or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
  return `No AWS credentials (the SDK says: ${message}). ${where}. The permissions cxctl needs: cdk/iam/operator-policy.json (docs/deploying.md)`;
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

/** The `--file` given, read as JSON. */
function jsonFile(): unknown {
  const file = need(options.file, '--file <path>');
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AdminError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  }
}

/** The idea labels `--statuses` and `--modules` list (at least one of them). */
function labelOptions(): { statuses: string[] | undefined; modules: string[] | undefined } {
  const statuses = parseLabels(options.statuses, 'status');
  const modules = parseLabels(options.modules, 'module');
  if (!statuses && !modules) throw new UsageError('give --statuses and/or --modules');
  return { statuses, modules };
}

const labelsText = (labels: { statuses: readonly string[]; modules: readonly string[] }) =>
  `Idea statuses: ${labels.statuses.join(', ') || 'none'}\nIdea modules: ${labels.modules.join(', ') || 'none'}`;

function print(json: unknown, human: string): void {
  console.log(options.json ? JSON.stringify(json, null, 2) : human);
}

async function run(where: Target): Promise<void> {
  const { store } = where;
  const [area, action, target] = positionals;
  const context: CommandContext = {
    target: where,
    options,
    print,
    // Progress goes to stderr, so stdout holds the result alone (for a pipe, or --json).
    log: (line) => console.error(line),
  };
  if (area === 'demo') {
    const apiUrl =
      options.api ?? (where.sandbox ? await sandboxApiOf(where) : `http://127.0.0.1:${config.integer('PORT', 3000, 1)}/api/v1`);
    const log = options.json ? () => {} : (line: string) => console.log(line);
    const result = await runDemo(store, { workspace: need(action, '<slug>'), apiUrl, key: options.key, log });
    return print(result, nextSteps(result, apiUrl, sandboxVariablesOf(where, store.table, ['table'])));
  }
  if (area === 'usage') return usageCommand(context, action);
  if (area === 'migrate') {
    const local = !(options.table || options.stack) || options.endpoint !== undefined;
    // Loaded only for this command: every other command starts without the migrations' modules.
    const { runMigrate } = await import('./migrate.ts');
    return runMigrate(store, { action, dryRun: options['dry-run'] === true, rate: options.rate, local, json: options.json === true });
  }
  const command = `${area ?? ''} ${action ?? ''}`.trim();
  switch (command) {
    case 'workspace create': {
      const ws = await createWorkspace(store, need(target, '<slug>'), options.name);
      return print(ws, `Created workspace ${ws.slug}. Send X-Service-Workspace-Host: ${ws.host}`);
    }
    case 'workspace list': {
      const list = await listWorkspaces(store);
      return print(
        list.map((ws) => ({ ...ws, host: workspaceHostOf(ws.slug) })),
        list.length === 0
          ? 'No workspaces'
          : list
              .map(
                (ws) =>
                  `${ws.slug}  ${ws.status.padEnd(9)}  disabled: ${ws.disabledModules.join(',') || 'none'}  limit: ${limitText(ws)}  ${workspaceHostOf(ws.slug)}`,
              )
              .join('\n'),
      );
    }
    case 'workspace set-limit':
      return setLimitCommand(context, need(target, '<slug>'));
    case 'workspace suspend':
    case 'workspace resume': {
      const ws = await setWorkspaceStatus(store, need(target, '<slug>'), action === 'suspend' ? 'suspended' : 'active');
      return print(ws, `Workspace ${ws.slug} is ${ws.status}`);
    }
    case 'workspace modules': {
      if (!options.disable && !options.enable) throw new UsageError('give --disable and/or --enable');
      const ws = await changeModules(store, need(target, '<slug>'), {
        disable: options.disable ? parseModules(options.disable) : [],
        enable: options.enable ? parseModules(options.enable) : [],
      });
      return print(ws, `Workspace ${ws.slug}: disabled modules: ${ws.disabledModules.join(', ') || 'none'}`);
    }
    case 'key create': {
      if (options.all && options.scopes) throw new UsageError('give --scopes or --all, not both');
      const rateLimit = options['rate-limit'];
      if (rateLimit !== undefined && !/^\d+$/.test(rateLimit)) throw new AdminError(`Invalid --rate-limit "${rateLimit}": a whole number`);
      const key = await createDeveloperKey(store, {
        workspace: need(options.workspace, '--workspace <slug>'),
        name: options.name,
        permissions: options.all ? [...PERMISSIONS] : options.scopes !== undefined ? parsePermissions(options.scopes) : undefined,
        expiresInSeconds: options['expires-in'] ? parseDuration(options['expires-in']) : undefined,
        rateLimitPerMinute: rateLimit !== undefined ? Number(rateLimit) : config.defaultRateLimitPerMinute(),
      });
      return print(
        {
          id: key.id,
          key: key.key,
          workspace: key.workspace,
          scopes: key.permissions,
          expiresAt: key.expiresAt,
          rateLimitPerMinute: key.rateLimitPerMinute,
        },
        `Key ${key.id} for ${key.workspace} (shown only now, store it safely):\n\n  ${key.key}\n\n` +
          `Scopes: ${key.permissions.join(', ')}\nExpires: ${key.expiresAt ?? 'never'}\nRate limit: ${key.rateLimitPerMinute}/min\n` +
          `Use: -H 'X-Service-Workspace-Host: ${workspaceHostOf(key.workspace)}' -H 'Authorization: Bearer ${key.key}'`,
      );
    }
    case 'key list': {
      const list = await listDeveloperKeys(store, need(options.workspace, '--workspace <slug>'));
      const state = (k: (typeof list)[number]) =>
        k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active';
      return print(
        list.map((k) => ({ ...k, scopes: k.permissions, state: state(k) })),
        list.length === 0
          ? 'No keys'
          : list
              .map(
                (k) =>
                  `${k.id}  ${state(k).padEnd(7)}  ${k.tokenHint}  ${k.name}  [${k.permissions.join(' ')}]  last used ${k.lastUsedAt ?? 'never'}` +
                  (k.derivedKeys ?? [])
                    .map(
                      (d) =>
                        `\n  └ ${d.id}  ${d.revokedAt ? 'revoked' : Date.parse(d.refreshExpiresAt) <= Date.now() ? 'expired' : 'active '}  ` +
                        `OAuth: ${d.clientName}  [${d.permissions.join(' ')}]  until ${d.refreshExpiresAt}`,
                    )
                    .join(''),
              )
              .join('\n'),
      );
    }
    case 'key revoke': {
      const key = await revokeDeveloperKey(store, need(target, '<id>'));
      return print({ id: key.id, revokedAt: key.revokedAt }, `Key ${key.id} revoked at ${key.revokedAt}`);
    }
    case 'key rotate': {
      const key = await rotateDeveloperKey(store, need(target, '<id>'));
      return print({ id: key.id, key: key.key }, `New secret for key ${key.id} (the old one no longer works):\n\n  ${key.key}\n`);
    }
    case 'labels set': {
      const asked = labelOptions();
      const ws = await setIdeaLabels(store, need(target, '<slug>'), asked);
      return print(ws.ideaLabels, labelsText(ws.ideaLabels));
    }
    case 'labels add': {
      const asked = labelOptions();
      const { labels, added } = await addIdeaLabels(store, need(target, '<slug>'), asked);
      const addedAll = [...added.statuses, ...added.modules];
      return print(
        { ...labels, added },
        `${addedAll.length > 0 ? `Added ${addedAll.join(', ')}` : 'Nothing to add'}\n${labelsText(labels)}`,
      );
    }
    case 'directory import': {
      const json = jsonFile();
      const result = await importDirectory(store, need(target, '<slug>'), parseDirectoryImport(json));
      return print(
        result,
        `Imported ${result.people} people and ${result.teams} teams; ${result.deactivated} entries no longer listed were marked inactive`,
      );
    }
    // Loaded when asked for: every other command starts without their SDK clients.
    case 'workspace export':
      return (await import('./commands/workspace-offboarding.ts')).exportWorkspaceCommand(context, need(target, '<slug>'));
    case 'workspace delete':
      return (await import('./commands/workspace-offboarding.ts')).deleteWorkspaceCommand(context, need(target, '<slug>'));
    case 'backup verify':
      return (await import('./commands/backup.ts')).backupVerifyCommand(context);
    case 'backup restore':
      return (await import('./commands/backup.ts')).backupRestoreCommand(context);
    case 'rebuild search':
      return (await import('./commands/rebuild.ts')).rebuildSearchCommand(context);
    case 'rebuild summaries':
      return (await import('./commands/rebuild.ts')).rebuildSummariesCommand(context);
    case 'audience set': {
      const json = jsonFile();
      const result = await setAudienceAttributes(store, need(target, '<slug>'), parseAudienceFile(json));
      return print(result, `Audience attributes set: ${result.attributes}`);
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

/** Needs no table, so it answers without the sandbox running. */
function printPermissions(): void {
  const width = Math.max(...PERMISSIONS.map((p) => p.length));
  print(
    PERMISSIONS.map((permission) => ({ permission, module: moduleOfPermission(permission) })),
    PERMISSIONS.map(
      (permission) =>
        `${permission.padEnd(width)}  ${moduleOfPermission(permission) ? `module ${moduleOfPermission(permission)}` : 'no module'}`,
    ).join('\n'),
  );
}

if (options.help) {
  console.log(USAGE);
} else if (positionals.length === 1 && positionals[0] === 'permissions') {
  printPermissions();
} else {
  let where: Target | undefined;
  try {
    where = await targetFromOptions(options);
    await run(where);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`cxctl: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof AdminError) {
      console.error(`cxctl: ${error.message}`);
      process.exitCode = 1;
    } else if ((error as { name?: string }).name === 'CredentialsProviderError') {
      console.error(`cxctl: ${credentialsHint((error as Error).message)}`);
      process.exitCode = 1;
    } else {
      const e = error as Error & { name?: string };
      const hint =
        e.name === 'ResourceNotFoundException'
          ? ' (does the table exist? Is the sandbox running: npm start?)'
          : /ECONNREFUSED|fetch failed/.test(`${e.message} ${(e as { code?: string }).code ?? ''}`)
            ? unreachableHint(where)
            : '';
      console.error(`cxctl: ${e.name ?? 'Error'}: ${e.message}${hint}`);
      process.exitCode = 1;
    }
  } finally {
    where?.store.db.destroy();
  }
}
