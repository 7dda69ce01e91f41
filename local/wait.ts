import { createServer } from 'node:net';

/** Poll `check` until it returns true; throws what it throws, or a timeout naming `what`. */
export async function waitFor(check: () => Promise<boolean>, options: { timeoutMs: number; what: string }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${options.what}`);
}

/** A TCP port free on 127.0.0.1 right now (for services that cannot bind port 0 themselves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
