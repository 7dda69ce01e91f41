/**
 * Every feature flag of the installed aws-cdk-lib is decided in cdk.json, so `cdk synth` has none
 * "not configured" to warn about and an upgrade that adds flags fails here until each is decided.
 * Each is at its recommended value: with all of them, every template the app synthesizes (default
 * settings, and a custom domain, alarm topic and tracing) was byte for byte the one without, so none
 * replaces or changes a deployed resource (docs/deploying.md, "Feature flags", says how that was
 * checked). A flag that would has to be kept at its old value, on purpose, and listed here.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { FLAGS } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const { context } = JSON.parse(readFileSync(resolve(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
/** Flags kept at another value than the recommended one, each with why (none today). */
const KEPT: Record<string, string> = {};

describe("cdk.json's feature flags", () => {
  it('decides every flag aws-cdk-lib v2 has, at its recommended value unless kept on purpose', () => {
    const flags = Object.entries(FLAGS).filter(([, flag]) => flag.introducedIn.v2 !== undefined && flag.recommendedValue !== undefined);
    expect(flags.length).toBeGreaterThan(90);
    const undecided = flags.filter(([name]) => !(name in context)).map(([name]) => name);
    expect(undecided, 'decide each in cdk.json (see the header of this test)').toEqual([]);
    const off = flags
      .filter(([name, flag]) => !isDeepStrictEqual(context[name], flag.recommendedValue) && !(name in KEPT))
      .map(([name]) => name);
    expect(off).toEqual([]);
  });
});
