/** Helpers for the OAuth tests: the sandbox's workspace host, the consent form read as a browser would submit it. */
import { sandbox } from './fixtures.ts';
import { workspaceHostFetch } from './workspace-host-fetch.ts';

/** `http://<slug>.localhost:<port>`: the workspace's own host in the sandbox. */
export function workspaceOrigin(slug: string): string {
  return `http://${slug}.localhost:${new URL(sandbox.apiUrl).port}`;
}

/** The hidden fields of the page's form, as its HTML sends them (values unescaped as a browser would). */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[name!] = value!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  }
  return fields;
}

/** POSTs a form to the consent page's action, as its own host; redirects are not followed. */
function submitForm(origin: string, form: URLSearchParams): Promise<Response> {
  return workspaceHostFetch(`${origin}/api/v1/oauth/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
}

/** A person's answer to the consent page without a browser: the key, then Allow with the permissions given; the client's callback URL. */
export async function consentWithoutBrowser(authorizationUrl: URL, key: string, permissions?: string[]): Promise<URL> {
  const origin = authorizationUrl.origin;
  const page = await workspaceHostFetch(authorizationUrl.href);
  if (page.status !== 200) throw new Error(`The consent page answered ${page.status}: ${await page.text()}`);
  const keyStep = await submitForm(origin, new URLSearchParams({ ...hiddenFields(await page.text()), key }));
  const consentHtml = await keyStep.text();
  if (keyStep.status !== 200) throw new Error(`The key step answered ${keyStep.status}: ${consentHtml.slice(0, 300)}`);
  const offered = [...consentHtml.matchAll(/name="permission" value="([^"]+)" checked/g)].map(([, p]) => p!);
  const allow = new URLSearchParams({ ...hiddenFields(consentHtml), decision: 'allow', lifetime: '7' });
  for (const permission of permissions ?? offered) allow.append('permission', permission);
  const back = await submitForm(origin, allow);
  if (back.status !== 303) throw new Error(`Allow answered ${back.status}: ${await back.text()}`);
  return new URL(back.headers.get('location')!);
}
