/**
 * The release gate (lib/platform/data/release-gate.ts), a custom resource every function of the stack
 * waits for: on Create and Update it fails the deploy, before any function changes, when the table has
 * not finished a migration this release requires, with the command that finishes it. Delete does nothing.
 */
import type { RequiredMigration } from '../../lib/platform/data/release-gate.ts';
import { checkReleaseGate } from '../../lib/platform/data/table-migrations.ts';
import { answerCloudFormation, type CustomResourceEvent } from '../../lib/platform/stack/custom-resource.ts';

export async function handler(event: CustomResourceEvent): Promise<void> {
  await answerCloudFormation(event, 'release-gate', async () => {
    if (event.RequestType === 'Delete') return;
    const required = event.ResourceProperties.RequiredMigrations as RequiredMigration[];
    await checkReleaseGate(required, String(event.ResourceProperties.MigrateCommand));
  });
}
