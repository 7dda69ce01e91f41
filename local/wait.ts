import { createServer, type Server } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for services that cannot bind port 0 themselves). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * `count` distinct TCP ports free on 127.0.0.1 right now. Each is held until all are found: a port
 * closed at once may be handed out again by the next ask (a sandbox once got the same one for its
 * DynamoDB Local and its SQS emulator).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
