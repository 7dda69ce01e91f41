/**
 * The sandbox checks every port it will listen on before it starts anything: a port already taken
 * is most often an earlier sandbox still running, and using it would mean talking to a service
 * this sandbox did not start (its DynamoDB Local, its queues, its stream).
 */
import { createServer } from 'node:net';

/** Ports other processes hold; the message is one line naming each and the variable that moves it. */
class PortInUseError extends Error {
  constructor(readonly taken: readonly { variable: string; port: number }[]) {
    const ports = taken.map(({ port, variable }) => `${port} (${variable})`);
    const variables = taken.map(({ variable }) => variable);
    const list = (items: string[]) => (items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
    super(
      taken.length === 1
        ? `Port ${ports[0]} is already in use, probably by another sandbox: stop it, or set ${variables[0]} to a free port.`
        : `Ports ${list(ports)} are already in use, probably by another sandbox: stop it, or set ${list(variables)} to free ports.`,
    );
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

/** Throws PortInUseError naming every taken port (0 means "any free one" and is never checked). */
export async function assertPortsFree(ports: readonly { variable: string; port: number }[]): Promise<void> {
  const seen = new Map<number, string>();
  const taken: { variable: string; port: number }[] = [];
  for (const { variable, port } of ports) {
    if (port === 0) continue;
    const other = seen.get(port);
    if (other) throw new Error(`${variable} and ${other} are both ${port}: give each its own port.`);
    seen.set(port, variable);
    if (!(await isFree(port))) taken.push({ variable, port });
  }
  if (taken.length > 0) throw new PortInUseError(taken);
}
