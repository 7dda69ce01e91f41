/**
 * `npm run docs:screenshot`: renders the reference page and photographs its Ideas section in
 * headless Chromium (Debian's `chromium` package: `apt-get install -y chromium`), writing
 * docs/api-reference.png, so a change to the page can be seen, not just tested.
 *
 * Chromium's own --screenshot fires at the load event, before Redoc has hydrated and routed to the
 * section; so the picture is taken over the DevTools protocol (Node's WebSocket), once the section's
 * heading is on screen.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { renderApiReference } from '../lib/admin/api-reference.ts';

const target = resolve(process.argv[2] ?? 'docs/api-reference.png');
const SECTION = '#/ideas/listideas';
const HEADING = 'List ideas';

async function until<T>(what: string, attempt: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(250);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'docs-screenshot-'));
let chromium: ChildProcess | undefined;
try {
  const page = join(dir, 'api-reference.html');
  await renderApiReference(page);
  const profile = join(dir, 'profile');
  chromium = spawn(
    process.env.CHROMIUM ?? 'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      '--hide-scrollbars',
      '--window-size=1400,1400',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const portFile = join(profile, 'DevToolsActivePort');
  const port = await until('Chromium to start', () => (existsSync(portFile) ? readFileSync(portFile, 'utf8').split('\n')[0] : undefined));
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets.find((t) => t.type === 'page')!.webSocketDebuggerUrl);
  await new Promise((ready) => socket.addEventListener('open', ready, { once: true }));
  let nextId = 0;
  /** The parts of DevTools protocol results this script reads. */
  type CdpResult = { result?: { value?: number }; data?: string };
  const pending = new Map<number, (result: CdpResult) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    pending.get(message.id)?.(message.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<CdpResult>((done) => {
      const id = ++nextId;
      pending.set(id, done);
      socket.send(JSON.stringify({ id, method, params }));
    });

  await send('Page.navigate', { url: `file://${page}${SECTION}` });
  // Redoc has hydrated and scrolled when the section's heading sits near the top of the viewport.
  const headingTop = `(() => { const h = [...document.querySelectorAll('h1,h2')].find((e) => e.textContent.trim() === ${JSON.stringify(HEADING)});
    if (!h) return -1; const top = h.getBoundingClientRect().top; return top >= 0 && top < 300 ? top : -1; })()`;
  await until('the Ideas section', async () => {
    const { result } = await send('Runtime.evaluate', { expression: headingTop, returnByValue: true });
    return (result?.value ?? -1) >= 0 ? true : undefined;
  });
  await sleep(1000); // let fonts and the samples panel settle
  const { data } = await send('Page.captureScreenshot', { format: 'png' });
  writeFileSync(target, Buffer.from(data ?? '', 'base64'));
  socket.close();
  console.log(`Wrote ${target}`);
} finally {
  chromium?.kill();
  await sleep(500);
  rmSync(dir, { recursive: true, force: true });
}
