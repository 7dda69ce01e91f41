/**
 * Deletes one response (of an archived survey too): reads it, then one transaction conditional on it
 * as read; continued in between, it is read again, a few times at most.
 */
import { deleteResponseItem, readResponseItem } from '../responses/store/responses.ts';

/** Tries of a delete that keeps meeting continuations of its response. */
const DELETE_ATTEMPTS = 3;

export async function deleteResponse(workspace: string, surveyId: string, responseId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const item = await readResponseItem(workspace, surveyId, responseId);
    if (await deleteResponseItem(workspace, item)) return;
    if (attempt >= DELETE_ATTEMPTS) throw new Error(`The response changed under its delete ${attempt} times`);
  }
}
