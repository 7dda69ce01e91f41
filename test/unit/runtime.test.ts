import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';

describe('local runtime', () => {
  it('runs on the same Node major as the Lambda runtime the stack deploys', () => {
    const lambdaMajor = /^nodejs(\d+)\.x$/.exec(Runtime.NODEJS_24_X.name)![1];
    expect(process.versions.node.split('.')[0]).toBe(lambdaMajor);
  });
});
