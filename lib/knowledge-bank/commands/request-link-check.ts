/** POST a link check: one SQS message asking the link checker to check this workspace's external links. */
import { linkCheckQueueUrl, requestLinkCheck as sendRequest } from '../link-check/queue.ts';

// Read at cold start, so a missing queue URL fails loudly before any request.
const queueUrl = linkCheckQueueUrl();

export async function requestLinkCheck(workspace: string): Promise<void> {
  await sendRequest(queueUrl, workspace);
}
