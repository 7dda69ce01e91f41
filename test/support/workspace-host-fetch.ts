/**
 * `fetch` for a workspace's own host in the sandbox, `http://<slug>.localhost:<port>`: browsers and
 * curl resolve every `*.localhost` name to loopback (RFC 6761), Node's resolver (glibc) does not, so
 * this one connects to 127.0.0.1 and sends the name as the Host header, as a browser would. Other
 * names resolve as usual. Redirects are not followed (an OAuth client reads them).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:http';

type Lookup = (host: string, options: { all?: boolean }, done: (...args: any[]) => void) => void;

const loopbackForLocalhost: Lookup = (host, options, done) => {
  if (!host.endsWith('.localhost')) return dnsLookup(host, options, done as never);
  const address: LookupAddress = { address: '127.0.0.1', family: 4 };
  return options.all ? done(null, [address]) : done(null, address.address, address.family);
};

export const workspaceHostFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
  return new Promise<Response>((resolve, reject) => {
    const outgoing = request(
      req.url,
      { method: req.method, headers: Object.fromEntries(req.headers), lookup: loopbackForLocalhost as never },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of [value ?? []].flat()) headers.append(name, one);
          }
          const empty = status === 204 || status === 205 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
        });
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
};
