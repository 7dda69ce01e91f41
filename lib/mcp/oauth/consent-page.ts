/**
 * The consent page an OAuth client sends a person to, in English or Arabic (right to left): first it
 * asks for a Developer key the person holds (a password field: the page never echoes it, and nothing
 * stores it), then it lists the permissions the client asked for that the key holds (checked; the
 * person may uncheck any), how long the agent stays connected, and Allow / Deny. Plain HTML forms,
 * no script at all (it works without JavaScript, and its Content-Security-Policy allows none), every
 * text escaped. Pure: the page from what the command decided.
 */
import type { Permission } from '../../platform/permissions.ts';
import { LIFETIME_DAYS } from './metadata.ts';

export type PageLanguage = 'en' | 'ar';

const TEXT = {
  en: {
    title: 'Connect an agent',
    asks: (client: string) => `${client} asks to use the Customer Experience Portal on your behalf, through its MCP server.`,
    keyLabel: 'Your Developer key',
    keyHint: 'The agent gets a narrower, expiring key made from it. Your key itself is neither stored nor shown again.',
    next: 'Continue',
    permissions: 'It may',
    permissionsHint: 'Only the permissions it asked for that your key holds. Uncheck what it should not do.',
    lifetime: 'Stay connected for',
    days: (n: number) => (n === 1 ? '1 day' : `${n} days`),
    allow: 'Allow',
    deny: 'Deny',
    none: 'Your key holds none of the permissions this agent asked for.',
    switch: 'العربية',
    redirect: (to: string) => `After your answer you go back to ${to}.`,
  },
  ar: {
    title: 'ربط وكيل',
    asks: (client: string) => `يطلب ${client} استخدام بوابة تجربة العملاء نيابةً عنك عبر خادم MCP.`,
    keyLabel: 'مفتاح المطوّر الخاص بك',
    keyHint: 'يحصل الوكيل على مفتاح أضيق ومحدود المدة مشتق منه. لا يُخزَّن مفتاحك ولا يُعرض مرة أخرى.',
    next: 'متابعة',
    permissions: 'يمكنه',
    permissionsHint: 'الصلاحيات التي طلبها ويملكها مفتاحك فقط. ألغِ تحديد ما لا ينبغي له فعله.',
    lifetime: 'البقاء متصلاً لمدة',
    days: (n: number) => (n === 1 ? 'يوم واحد' : n === 7 ? '7 أيام' : `${n} يومًا`),
    allow: 'سماح',
    deny: 'رفض',
    none: 'لا يملك مفتاحك أيًا من الصلاحيات التي طلبها هذا الوكيل.',
    switch: 'English',
    redirect: (to: string) => `بعد إجابتك تعود إلى ${to}.`,
  },
} as const;

/** Escapes text for HTML content and attribute values. */
function h(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .3rem;font-weight:600}input[type=password]{width:100%;padding:.5rem;font:inherit}
fieldset{border:1px solid #ccd;border-radius:6px;margin:1rem 0}.hint{color:#556;font-size:.9rem}.error{color:#a00;font-weight:600}
.perm{font-weight:400;font-family:ui-monospace,monospace}button{font:inherit;padding:.5rem 1.2rem;margin-inline-end:.6rem}
nav{text-align:end}`;

function page(language: PageLanguage, body: string, switchHref?: string, title: string = TEXT[language].title): string {
  const t = TEXT[language];
  const other = switchHref ? `<nav><a href="${h(switchHref)}" lang="${language === 'en' ? 'ar' : 'en'}">${t.switch}</a></nav>` : '';
  return `<!doctype html>
<html lang="${language}" dir="${language === 'ar' ? 'rtl' : 'ltr'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${title}</title><style>${STYLE}</style></head>
<body>${other}<h1>${title}</h1>${body}</body>
</html>
`;
}

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${h(name)}" value="${h(value)}">`)
    .join('');
}

export interface KeyStep {
  language: PageLanguage;
  clientName: string;
  /** Where the person goes back to (the redirect URI's host). */
  returnsTo: string;
  /** The authorization request's parameters and the form's CSRF token, sent back with the key. */
  fields: Record<string, string>;
  /** The same request in the other language. */
  switchHref: string;
  error?: string;
}

/** Step one: the client named, the key asked for. */
export function keyStepPage(step: KeyStep): string {
  const t = TEXT[step.language];
  return page(
    step.language,
    `<p>${h(t.asks(step.clientName))}</p>${step.error ? `<p class="error" role="alert">${h(step.error)}</p>` : ''}
<form method="post" action="authorize">${hidden({ ...step.fields, step: 'key', lang: step.language })}
<label for="key">${t.keyLabel}</label><input id="key" name="key" type="password" autocomplete="off" required spellcheck="false">
<p class="hint">${t.keyHint}</p>
<button type="submit">${t.next}</button></form><p class="hint">${h(t.redirect(step.returnsTo))}</p>`,
    step.switchHref,
  );
}

export interface ConsentStep {
  language: PageLanguage;
  clientName: string;
  returnsTo: string;
  /** The consent request and its CSRF token. */
  fields: { request: string; csrf: string };
  permissions: readonly Permission[];
}

/** Step two: what the key may let the client do, for how long; Allow or Deny. */
export function consentStepPage(step: ConsentStep): string {
  const t = TEXT[step.language];
  const boxes = step.permissions
    .map(
      (permission) =>
        `<label class="perm"><input type="checkbox" name="permission" value="${h(permission)}" checked> ${h(permission)}</label>`,
    )
    .join('');
  const lifetimes = LIFETIME_DAYS.map((days) => `<option value="${days}"${days === 7 ? ' selected' : ''}>${h(t.days(days))}</option>`).join(
    '',
  );
  return page(
    step.language,
    `<p>${h(t.asks(step.clientName))}</p>
<form method="post" action="authorize">${hidden({ ...step.fields, step: 'consent', lang: step.language })}
<fieldset><legend>${t.permissions}</legend>${boxes || `<p>${t.none}</p>`}<p class="hint">${t.permissionsHint}</p></fieldset>
<label for="lifetime">${t.lifetime}</label><select id="lifetime" name="lifetime">${lifetimes}</select>
<p><button type="submit" name="decision" value="allow"${boxes ? '' : ' disabled'}>${t.allow}</button>
<button type="submit" name="decision" value="deny">${t.deny}</button></p></form><p class="hint">${h(t.redirect(step.returnsTo))}</p>`,
  );
}

/**
 * What a person reads when the request cannot go on and cannot go back to the client (RFC 6749
 * §4.1.2.1: an unknown client or a redirect URI nobody vouched for is never redirected to), or the
 * form failed: what happened in their language, what to do, and the API's code and message for
 * whoever they ask for help (the message is the API's, in English, marked as such).
 */
const ERROR_TEXT = {
  en: {
    title: 'This connection cannot be made',
    generic: 'The app’s request could not be completed. Go back to the app and connect again.',
    invalid_client: 'This app is not known to this workspace. Go back to the app and connect again, or ask its maker.',
    invalid_client_metadata: 'The app’s description could not be read or is not valid. Ask its maker.',
    invalid_request: 'The request is not valid, or this page is out of date. Go back to the app and connect again.',
    rate_limited: 'Too many attempts from your network. Wait a while, then try again.',
    detail: 'Details for support',
  },
  ar: {
    title: 'تعذّر إتمام هذا الربط',
    generic: 'تعذّر إكمال طلب التطبيق. ارجع إلى التطبيق وحاول الربط مرة أخرى.',
    invalid_client: 'هذا التطبيق غير معروف لمساحة العمل هذه. ارجع إلى التطبيق وحاول الربط مرة أخرى، أو اسأل الجهة المطوّرة له.',
    invalid_client_metadata: 'تعذّرت قراءة وصف التطبيق أو أنه غير صالح. اسأل الجهة المطوّرة له.',
    invalid_request: 'الطلب غير صالح أو أن هذه الصفحة قديمة. ارجع إلى التطبيق وحاول الربط مرة أخرى.',
    rate_limited: 'محاولات كثيرة جدًا من شبكتك. انتظر قليلًا ثم حاول مرة أخرى.',
    detail: 'تفاصيل للدعم',
  },
} as const;

type ExplainedCode = Exclude<keyof (typeof ERROR_TEXT)['en'], 'title' | 'generic' | 'detail'>;

/** The error page: what went wrong in the person's language, and the API's code and message. */
export function errorPage(language: PageLanguage, code: string, message: string): string {
  const t = ERROR_TEXT[language];
  const explained = Object.hasOwn(t, code) && !['title', 'generic', 'detail'].includes(code) ? t[code as ExplainedCode] : t.generic;
  return page(
    language,
    `<p class="error" role="alert">${h(explained)}</p>
<p class="hint">${t.detail}: <code>${h(code)}</code></p><p class="hint" lang="en" dir="ltr">${h(message)}</p>`,
    undefined,
    t.title,
  );
}

/** The page's own headers: no script, no frame, no referrer, no cache; forms post here or to the client's redirect (none on an error page). */
export function consentPageHeaders(redirectOrigin?: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${redirectOrigin ? ` ${redirectOrigin}` : ''}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

/** The page's language: `lang=ar|en` when given (the switch), else the first of Accept-Language that it speaks. */
export function pageLanguageOf(lang: string | undefined, acceptLanguage: string | undefined): PageLanguage {
  if (lang === 'ar' || lang === 'en') return lang;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=');
      return { tag: (tag ?? '').toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('ar')) return 'ar';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}
