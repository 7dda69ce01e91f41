/**
 * The sandbox checks every port it will listen on before it starts anything: a port already taken
 * is most often an earlier sandbox still running, and using it would mean talking to a service
 * this sandbox did not start (its DynamoDB Local, its queues, its stream).
 */
import { createServer } from 'node:net';

/** A port another process holds; the message is one line, naming the variable that moves it. */
class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: string,
  ) {
    super(`Port ${port} (${variable}) is already in use, probably by another sandbox: stop it, or set ${variable} to a free port.`);
    this.name = 'PortInUseError';
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    // The address every sandbox service binds; a listener on 0.0.0.0 or :: also makes this fail.
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Throws PortInUseError for the first taken port (0 means "any free one" and is never checked). */
export async function assertPortsFree(ports: readonly { variable: string; port: number }[]): Promise<void> {
  const seen = new Map<number, string>();
  for (const { variable, port } of ports) {
    if (port === 0) continue;
    const other = seen.get(port);
    if (other) throw new Error(`${variable} and ${other} are both ${port}: give each its own port.`);
    seen.set(port, variable);
    if (!(await isFree(port))) throw new PortInUseError(port, variable);
  }
}
