/**
 * Deletes one response (of an archived survey too): reads it where it is stored, then one transaction
 * conditional on it as read; continued (or moved by migration 002) in between, it is read again, a few times at most.
 */
import { TransactionCancelledError } from '../../platform/data/transact.ts';
import { deleteResponseItem, MOVE_ATTEMPTS, readResponseItem } from '../responses/store/response-store.ts';

export async function deleteResponse(workspace: string, surveyId: string, responseId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const item = await readResponseItem(workspace, surveyId, responseId);
    try {
      await deleteResponseItem(workspace, item);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCancelledError) || !error.failed('response') || attempt >= MOVE_ATTEMPTS) throw error;
    }
  }
}
