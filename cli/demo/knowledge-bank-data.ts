/**
 * The demo's knowledge bank: a help centre in English and Arabic. It holds the articles the README's
 * search examples query ("Reset your password", "كلمه المرور") and the external links its link-check
 * example reads, one of them gone (https://example.com/gone answers 404). Categories and articles are
 * found again by their slug.
 */

type Span = { text: string; link?: { href: string } | { articleSlug: string } };
type Text = { en?: Span[]; ar?: Span[] };
export type DemoBlock =
  | { id: string; type: 'paragraph'; text: Text }
  | { id: string; type: 'heading'; level: 2 | 3; text: Text }
  | { id: string; type: 'callout'; tone: 'info' | 'warning'; text: Text }
  | { id: string; type: 'list'; ordered: boolean; items: Text[] };

export interface DemoCategory {
  slug: string;
  nameEn: string;
  nameAr: string;
  descriptionEn: string;
  descriptionAr: string;
  parentSlug?: string;
}

export interface DemoArticle {
  slug: string;
  categorySlug: string;
  sourceLanguage: 'en' | 'ar';
  titleEn: string;
  titleAr: string;
  summaryEn: string;
  summaryAr: string;
  tags: string[];
  blocks: DemoBlock[];
}

const both = (en: string, ar: string): Text => ({ en: [{ text: en }], ar: [{ text: ar }] });
/** Text in both languages with one link in it, to the same target: each language's text before the link, its label, after it. */
const linked = (link: NonNullable<Span['link']>, en: [string, string, string], ar: [string, string, string]): Text => {
  const spans = ([before, label, after]: [string, string, string]): Span[] => [{ text: before }, { text: label, link }, { text: after }];
  return { en: spans(en), ar: spans(ar) };
};

export const CATEGORIES: DemoCategory[] = [
  {
    slug: 'account',
    nameEn: 'Your account',
    nameAr: 'حسابك',
    descriptionEn: 'Signing in, passwords and profile settings',
    descriptionAr: 'تسجيل الدخول وكلمات المرور وإعدادات الملف الشخصي',
  },
  {
    slug: 'sign-in',
    parentSlug: 'account',
    nameEn: 'Signing in',
    nameAr: 'تسجيل الدخول',
    descriptionEn: 'When you cannot get into your account',
    descriptionAr: 'عندما لا تستطيع الدخول إلى حسابك',
  },
  {
    slug: 'billing',
    nameEn: 'Billing',
    nameAr: 'الفواتير',
    descriptionEn: 'Invoices, refunds and payment methods',
    descriptionAr: 'الفواتير والمبالغ المستردة وطرق الدفع',
  },
];

export const ARTICLES: DemoArticle[] = [
  {
    slug: 'reset-your-password',
    categorySlug: 'sign-in',
    sourceLanguage: 'en',
    titleEn: 'Reset your password',
    titleAr: 'إعادة تعيين كلمة المرور',
    summaryEn: 'Get back into your account when you forget your password.',
    summaryAr: 'استعد الوصول إلى حسابك عندما تنسى كلمة المرور.',
    tags: ['password', 'sign-in'],
    blocks: [
      {
        id: 'steps',
        type: 'paragraph',
        text: both(
          'Open the sign-in page and choose "Forgot password". We email you a link that is valid for 30 minutes.',
          'افتح صفحة تسجيل الدخول واختر "نسيت كلمة المرور". سنرسل إليك رابطًا صالحًا لمدة 30 دقيقة.',
        ),
      },
      {
        id: 'rules',
        type: 'list',
        ordered: false,
        items: [
          both('Use at least 12 characters.', 'استخدم 12 حرفًا على الأقل.'),
          both('Do not reuse an old password.', 'لا تُعِد استخدام كلمة مرور قديمة.'),
        ],
      },
      {
        id: 'old-guide',
        type: 'callout',
        tone: 'info',
        text: linked(
          { href: 'https://example.com/gone' },
          ['Still stuck? Read the ', 'old sign-in guide', '.'],
          ['ما زلت تواجه مشكلة؟ اقرأ ', 'دليل تسجيل الدخول القديم', '.'],
        ),
      },
    ],
  },
  {
    slug: 'two-step-verification',
    categorySlug: 'sign-in',
    sourceLanguage: 'en',
    titleEn: 'Turn on two-step verification',
    titleAr: 'تفعيل التحقق بخطوتين',
    summaryEn: 'A code from your phone keeps your account safe even if someone learns your password.',
    summaryAr: 'رمز من هاتفك يحمي حسابك حتى لو عرف أحدهم كلمة المرور.',
    tags: ['security'],
    blocks: [
      {
        id: 'how',
        type: 'paragraph',
        text: both(
          'Open Settings, then Security, and scan the code with an authenticator app.',
          'افتح الإعدادات ثم الأمان، وامسح الرمز بتطبيق المصادقة.',
        ),
      },
      {
        id: 'lost-phone',
        type: 'paragraph',
        text: linked(
          { articleSlug: 'reset-your-password' },
          ['Lost your phone? ', 'Reset your password', ' first.'],
          ['فقدت هاتفك؟ ', 'أعد تعيين كلمة المرور', ' أولًا.'],
        ),
      },
      {
        id: 'apps',
        type: 'callout',
        tone: 'info',
        text: linked(
          { href: 'https://www.rfc-editor.org/rfc/rfc6238' },
          ['Any app that follows ', 'RFC 6238', ' works.'],
          ['يعمل أي تطبيق يتبع ', 'المعيار RFC 6238', '.'],
        ),
      },
    ],
  },
  {
    slug: 'request-a-refund',
    categorySlug: 'billing',
    sourceLanguage: 'en',
    titleEn: 'Request a refund',
    titleAr: 'طلب استرداد',
    summaryEn: 'Refunds are possible within 14 days of payment.',
    summaryAr: 'يمكن الاسترداد خلال 14 يومًا من الدفع.',
    tags: ['refunds', 'invoices'],
    blocks: [
      { id: 'when', type: 'paragraph', text: both('Refunds are possible within 14 days.', 'يمكن الاسترداد خلال 14 يومًا.') },
      { id: 'how', type: 'callout', tone: 'info', text: both('Open Billing, then Refunds.', 'افتح الفواتير ثم المبالغ المستردة.') },
    ],
  },
  {
    // Written in Arabic first: its English is the translation.
    slug: 'pay-an-invoice',
    categorySlug: 'billing',
    sourceLanguage: 'ar',
    titleEn: 'Pay an invoice',
    titleAr: 'دفع فاتورة',
    summaryEn: 'Pay by card, bank transfer or SADAD.',
    summaryAr: 'ادفع بالبطاقة أو بالتحويل البنكي أو عبر سداد.',
    tags: ['invoices', 'payment'],
    blocks: [
      { id: 'heading', type: 'heading', level: 2, text: both('Ways to pay', 'طرق الدفع') },
      {
        id: 'ways',
        type: 'list',
        ordered: true,
        items: [
          both('Card: open the invoice and choose Pay now.', 'البطاقة: افتح الفاتورة واختر ادفع الآن.'),
          both('Bank transfer: quote the invoice number as the reference.', 'التحويل البنكي: اكتب رقم الفاتورة في خانة المرجع.'),
          both('SADAD: use the biller number on the invoice.', 'سداد: استخدم رقم المفوتر المذكور في الفاتورة.'),
        ],
      },
      {
        id: 'late',
        type: 'callout',
        tone: 'warning',
        text: both('Invoices unpaid after 30 days pause your service.', 'الفواتير غير المدفوعة بعد 30 يومًا توقف الخدمة مؤقتًا.'),
      },
    ],
  },
];
