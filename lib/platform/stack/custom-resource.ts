/**
 * The CloudFormation custom-resource protocol, for the stack's own helpers (bucket emptying): the
 * event CloudFormation invokes the function with, and the one answer it waits for, a PUT of the
 * outcome to the presigned `ResponseURL`. Without that answer CloudFormation waits an hour, so the
 * helper answers FAILED (with the reason) rather than throwing
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/crpg-ref-responses.html).
 */

export interface CustomResourceEvent {
  RequestType: 'Create' | 'Update' | 'Delete';
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceProperties: Record<string, unknown>;
}

/** Runs `work` and reports its outcome to CloudFormation; `physicalId` names the resource. */
export async function answerCloudFormation(event: CustomResourceEvent, physicalId: string, work: () => Promise<void>): Promise<void> {
  let outcome: { Status: 'SUCCESS' | 'FAILED'; Reason?: string } = { Status: 'SUCCESS' };
  try {
    await work();
  } catch (error) {
    outcome = { Status: 'FAILED', Reason: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 1000) };
  }
  const body = JSON.stringify({
    ...outcome,
    PhysicalResourceId: physicalId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  // The URL is presigned without a content type: sending one would break its signature.
  const response = await fetch(event.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
  if (!response.ok) throw new Error(`CloudFormation refused the answer: ${response.status}`);
}
