/** What every cxctl command module is handed by cli/cxctl.ts. */
import type { Target } from '../../lib/admin/target.ts';
import { areaEnvironment } from '../../lib/admin/target.ts';

export interface CommandContext {
  target: Target;
  /** The parsed options (cli/cxctl.ts lists them). */
  options: Record<string, string | boolean | undefined>;
  /** The result: `json` with --json, `human` otherwise. */
  print(json: unknown, human: string): void;
  /** A progress line, on stderr: stdout holds the result alone. */
  log(line: string): void;
}

/**
 * Points the areas' modules at the target (they read their table, buckets and endpoints when
 * loaded, as in Lambda): call before importing one.
 */
export function useAreaEnvironment(target: Target): void {
  Object.assign(process.env, areaEnvironment(target));
}

export function stringOption(context: CommandContext, name: string): string | undefined {
  const value = context.options[name];
  return typeof value === 'string' ? value : undefined;
}
