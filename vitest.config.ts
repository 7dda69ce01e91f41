import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          env: {
            TABLE_NAME: 'unit-test-table',
            AWS_REGION: 'us-east-1',
            POWERTOOLS_LOG_LEVEL: 'SILENT',
            CURSOR_SIGNING_KEY: 'unit-test-cursor-key',
          },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // One sandbox (DynamoDB Local, fauxqs, the HTTP API) for the whole run; each test file
          // makes its own workspaces, so files run in parallel without seeing each other's data.
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'cdk',
          include: ['test/cdk/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
