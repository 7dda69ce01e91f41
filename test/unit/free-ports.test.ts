/** freePorts (local/wait.ts): the ports a sandbox is started on are free and never the same twice. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from '../../local/wait.ts';

describe('freePorts', () => {
  it('gives distinct ports, each free once given', async () => {
    for (let round = 0; round < 20; round++) {
      const ports = await freePorts(3);
      // A sandbox once got one port for both its DynamoDB Local and its SQS emulator from three asks in a row.
      expect(new Set(ports).size).toBe(3);
      for (const port of ports) {
        const server = createServer();
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});
