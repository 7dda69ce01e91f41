/**
 * Headless Chromium (Debian's `chromium` package) for looking at pictures the way a person does.
 * `CHROMIUM` names another binary. Each call gets a fresh profile, removed afterwards.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BINARY = process.env.CHROMIUM ?? 'chromium';

export function chromiumAvailable(): boolean {
  try {
    execFileSync(BINARY, ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

async function withProfile<T>(action: (flags: string[]) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  try {
    return await action([
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--hide-scrollbars',
      `--user-data-dir=${profile}`,
    ]);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Renders a file (an SVG) to a PNG at the given window size. */
export async function screenshot(file: string, png: string, width: number, height: number): Promise<void> {
  await withProfile((flags) =>
    run(BINARY, [...flags, `--window-size=${width},${height}`, `--screenshot=${png}`, `file://${file}`], { timeout: 60_000 }),
  );
}

/** The document as Chromium parsed it, serialised again: what it understood, not what was sent. */
export async function dumpDom(file: string): Promise<string> {
  return withProfile(
    async (flags) =>
      (await run(BINARY, [...flags, '--dump-dom', `file://${file}`], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 })).stdout,
  );
}

/**
 * Opens a page in headless Chromium over the DevTools protocol and answers what it fetched while it
 * loaded and ran until it showed what `shows` looks for (or `timeoutMs` passed), and the page's visible text: to prove a page works offline.
 */
export async function pageVisit(
  file: string,
  shows: (text: string) => boolean,
  timeoutMs = 90_000,
): Promise<{ requests: string[]; text: string }> {
  return withProfile(async (flags) => {
    const browser = spawn(
      BINARY,
      [...flags, '--window-size=1400,1400', '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', 'about:blank'],
      {
        stdio: 'ignore',
      },
    );
    try {
      const portFile = join(flags.find((f) => f.startsWith('--user-data-dir='))!.slice('--user-data-dir='.length), 'DevToolsActivePort');
      const deadline = Date.now() + 30_000;
      while (!existsSync(portFile)) {
        if (Date.now() > deadline) throw new Error('Chromium did not start');
        await sleep(100);
      }
      const port = readFileSync(portFile, 'utf8').split('\n')[0];
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
        type: string;
        webSocketDebuggerUrl: string;
      }[];
      const socket = new WebSocket(targets.find((t) => t.type === 'page')!.webSocketDebuggerUrl);
      await new Promise((ready) => socket.addEventListener('open', ready, { once: true }));
      const requests: string[] = [];
      const pending = new Map<number, (result: { result?: { value?: string } }) => void>();
      socket.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data));
        if (message.method === 'Network.requestWillBeSent') requests.push(message.params.request.url);
        pending.get(message.id)?.(message.result);
      });
      let nextId = 0;
      const send = (method: string, params: Record<string, unknown> = {}) =>
        new Promise<{ result?: { value?: string } }>((done) => {
          const id = ++nextId;
          pending.set(id, done);
          socket.send(JSON.stringify({ id, method, params }));
        });
      await send('Network.enable');
      await send('Page.navigate', { url: `file://${file}` });
      // The page renders its document after loading (a large one takes seconds on a busy machine):
      // read its text until it shows what the caller came for, and give it back as it is at the end.
      const givenUp = Date.now() + timeoutMs;
      let text = '';
      do {
        await sleep(250);
        const { result } = await send('Runtime.evaluate', { expression: 'document.body.innerText', returnByValue: true });
        text = result?.value ?? '';
      } while (!shows(text) && Date.now() < givenUp);
      socket.close();
      return { requests, text };
    } finally {
      // Chromium writes into its profile until it exits: wait for that before the profile is removed.
      const exited = new Promise((done) => browser.once('exit', done));
      browser.kill();
      await Promise.race([exited, sleep(10_000)]);
    }
  });
}
