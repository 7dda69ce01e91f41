/**
 * Deletes one response (of an archived survey too): reads it where it is stored, then one transaction
 * conditional on it as read; continued (or moved by migration 002) in between, it is read again, a few times at most.
 */
import { deleteResponseItem, MOVE_ATTEMPTS, readResponseItem } from '../responses/store/responses.ts';

export async function deleteResponse(workspace: string, surveyId: string, responseId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const item = await readResponseItem(workspace, surveyId, responseId);
    if (await deleteResponseItem(workspace, item)) return;
    if (attempt >= MOVE_ATTEMPTS) throw new Error(`The response changed under its delete ${attempt} times`);
  }
}
