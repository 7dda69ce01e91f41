/**
 * The demo data set (`cxctl demo`): a small support team's portal in English and Arabic. Every item
 * has a stable natural key (an idea's title, a survey's name, a slug…) by which a second run finds
 * it instead of creating it again. The knowledge bank lives in knowledge-bank-data.ts.
 */

export const IDEA_LABELS = {
  statuses: ['new', 'under_review', 'planned', 'in_progress', 'done', 'declined'],
  modules: ['general', 'billing', 'mobile-app', 'website'],
};

export interface DemoIdea {
  title: string;
  titleAr: string;
  description: string;
  status: string;
  module: string;
}

export const IDEAS: DemoIdea[] = [
  {
    title: 'Dark mode for the mobile app',
    titleAr: 'الوضع الداكن لتطبيق الجوال',
    description: 'Our agents work night shifts and the bright screen tires their eyes.',
    status: 'planned',
    module: 'mobile-app',
  },
  {
    title: 'Pay invoices with Apple Pay',
    titleAr: 'دفع الفواتير عبر Apple Pay',
    description: 'Customers ask for a one-tap payment on the invoice page.',
    status: 'under_review',
    module: 'billing',
  },
  {
    title: 'Arabic PDF invoices',
    titleAr: 'فواتير PDF باللغة العربية',
    description: 'Invoices should be issued in Arabic for customers who chose Arabic.',
    status: 'in_progress',
    module: 'billing',
  },
  {
    title: 'Track my refund',
    titleAr: 'تتبع طلب الاسترداد',
    description: 'Show where a refund is, so customers stop calling to ask.',
    status: 'new',
    module: 'website',
  },
  {
    title: 'Live chat on weekends',
    titleAr: 'المحادثة المباشرة في عطلة نهاية الأسبوع',
    description: 'Most complaints on Friday go unanswered until Sunday.',
    status: 'new',
    module: 'general',
  },
  {
    title: 'Remember the language I chose',
    titleAr: 'تذكّر اللغة التي اخترتها',
    description: 'The website switches back to English after every sign-in.',
    status: 'done',
    module: 'website',
  },
];

/** A customer's vote the demo casts on their behalf: `voter` is the customer's id in the team's CRM. */
export interface DemoVote {
  idea: string;
  voter: string;
  importance: 'nice' | 'important' | 'critical';
  note?: string;
}

export const VOTES: DemoVote[] = [
  { idea: 'Dark mode for the mobile app', voter: 'crm-1001', importance: 'critical', note: 'I check my orders late at night.' },
  { idea: 'Dark mode for the mobile app', voter: 'crm-1002', importance: 'important' },
  { idea: 'Pay invoices with Apple Pay', voter: 'crm-1001', importance: 'nice' },
  { idea: 'Arabic PDF invoices', voter: 'crm-1003', importance: 'critical', note: 'Our accountant needs them in Arabic.' },
  { idea: 'Track my refund', voter: 'crm-1002', importance: 'important' },
];

/** A comment on an idea: an agent's internal note or a customer's public word. */
export interface DemoComment {
  idea: string;
  body: string;
  bodyAr: string;
  author: { externalId: string; name: string };
  visibility: 'public' | 'internal';
}

export const COMMENTS: DemoComment[] = [
  {
    idea: 'Dark mode for the mobile app',
    body: 'The night shift asked for this twice this month.',
    bodyAr: 'طلب فريق المناوبة الليلية هذا مرتين هذا الشهر.',
    author: { externalId: 'agent-amal', name: 'Amal' },
    visibility: 'internal',
  },
  {
    idea: 'Arabic PDF invoices',
    body: 'Please show the VAT number in Arabic too.',
    bodyAr: 'يرجى إظهار الرقم الضريبي بالعربية أيضاً.',
    author: { externalId: 'crm-1003', name: 'Khalid' },
    visibility: 'public',
  },
];

/**
 * A customer's duplicate of a demo idea, with their vote, merged into it: the idea it went into
 * counts that voter too, and `POST /ideas/{id}/unmerge` gives both back as they were.
 */
export const DUPLICATE_IDEA = {
  idea: {
    title: 'Night theme for the app',
    titleAr: 'سمة ليلية للتطبيق',
    description: 'A darker look for the app after sunset.',
    status: 'new',
    module: 'mobile-app',
  } satisfies DemoIdea,
  voter: 'crm-1004',
  into: 'Dark mode for the mobile app',
};

const t = (en: string, ar: string) => ({ en, ar });

export const SURVEY = {
  name: 'Support experience',
  nameAr: 'تجربة الدعم',
  definition: {
    languages: ['en', 'ar'],
    questions: [
      {
        id: 'channel',
        type: 'singleChoice',
        headline: t('How did you contact us?', 'كيف تواصلت معنا؟'),
        required: true,
        options: [
          { id: 'chat', label: t('Live chat', 'المحادثة المباشرة') },
          { id: 'phone', label: t('Phone', 'الهاتف') },
          { id: 'branch', label: t('In a branch', 'في أحد الفروع') },
        ],
      },
      {
        id: 'resolved',
        type: 'singleChoice',
        headline: t('Was your issue resolved?', 'هل تم حل مشكلتك؟'),
        required: true,
        options: [
          { id: 'yes', label: t('Yes', 'نعم') },
          { id: 'no', label: t('No', 'لا') },
        ],
        // Unresolved issues skip the rating and go straight to the follow-up ending.
        routes: [{ when: { question: 'resolved', operator: 'equals', value: 'no' }, goTo: 'follow-up' }],
      },
      { id: 'score', type: 'nps', headline: t('How likely are you to recommend us?', 'ما مدى احتمال أن توصي بنا؟'), required: true },
      {
        id: 'improve',
        type: 'openText',
        headline: t('What should we improve?', 'ما الذي يجب أن نحسّنه؟'),
        required: false,
        visibleIf: { question: 'score', operator: 'atMost', value: 6 },
      },
    ],
    endings: [
      { id: 'thanks', headline: t('Thank you!', 'شكرًا لك!') },
      { id: 'follow-up', headline: t('Sorry about that: an agent will call you back.', 'نأسف لذلك: سيتصل بك أحد الموظفين.') },
    ],
  },
};

/** Twenty respondents: mostly resolved and happy, a few detractors, two unresolved. */
const SCORES = [10, 9, 9, 8, 10, 7, 9, 3, 10, 9, 6, 8, 9, 10, 5, 9];
const CHANNELS = ['chat', 'phone', 'branch', 'chat'] as const;
const IMPROVE = [
  ['The wait on the phone was too long.', 'كان الانتظار على الهاتف طويلًا جدًا.'],
  ['I had to explain my problem twice.', 'اضطررت إلى شرح مشكلتي مرتين.'],
  ['Refunds take too many days.', 'الاسترداد يستغرق أيامًا كثيرة.'],
];

export interface DemoResponse {
  externalId: string;
  language: 'en' | 'ar';
  answers: Record<string, string | number>;
}

export const RESPONSES: DemoResponse[] = Array.from({ length: 20 }, (_, i) => {
  const language = i % 3 === 0 ? 'ar' : 'en';
  const channel = CHANNELS[i % CHANNELS.length] as string;
  const externalId = `demo-customer-${String(i + 1).padStart(2, '0')}`;
  if (i % 7 === 6) return { externalId, language, answers: { channel, resolved: 'no' } };
  const score = SCORES[i % SCORES.length] as number;
  const answers: Record<string, string | number> = { channel, resolved: 'yes', score };
  const improve = IMPROVE[i % IMPROVE.length] as [string, string];
  if (score <= 6) answers.improve = language === 'ar' ? improve[1] : improve[0];
  return { externalId, language, answers };
});

export const MACRO_JOURNEY = { titleEn: 'Customer onboarding', titleAr: 'رحلة انضمام العملاء' };
export const MICRO_JOURNEY = { titleEn: 'Open an account online', titleAr: 'فتح حساب عبر الإنترنت', stageId: 'sign-up' };

/** The micro journey: the sign-up stage seen up close. */
export const MICRO_CONTENT = {
  schema: 1,
  stages: [
    { id: 'form', titleEn: 'Fill in the form', titleAr: 'تعبئة النموذج', microJourneyPairs: [] },
    { id: 'verify', titleEn: 'Verify identity', titleAr: 'التحقق من الهوية', microJourneyPairs: [] },
    { id: 'welcome', titleEn: 'Welcome email', titleAr: 'رسالة الترحيب', microJourneyPairs: [] },
  ],
  rows: [
    { id: 'feel', type: 'emotion', titleEn: 'Feeling', titleAr: 'الشعور' },
    { id: 'pain', type: 'text', titleEn: 'Pain points', titleAr: 'نقاط الألم' },
  ],
  cells: {
    'feel:form': { score: 1, noteEn: 'Quick to start', noteAr: 'بداية سريعة' },
    'feel:verify': { score: -1, noteEn: 'Unsure why the ID is needed', noteAr: 'غير متأكد من سبب طلب الهوية' },
    'feel:welcome': { score: 2, noteEn: 'Relieved', noteAr: 'مرتاح' },
    'pain:verify': { textEn: 'The photo of the ID is often rejected.', textAr: 'كثيرًا ما تُرفض صورة الهوية.' },
  },
};

/** The macro journey, its sign-up stage zoomed into by the micro journey and scored by the survey's NPS. */
export function macroContent(micro: { journeyId: string }, survey: { surveyId: string }) {
  return {
    schema: 1,
    stages: [
      { id: 'discover', titleEn: 'Discover', titleAr: 'الاكتشاف', microJourneyPairs: [] },
      { id: 'sign-up', titleEn: 'Sign up', titleAr: 'التسجيل', microJourneyPairs: [{ journeyId: micro.journeyId }] },
      { id: 'first-use', titleEn: 'First use', titleAr: 'الاستخدام الأول', microJourneyPairs: [] },
      { id: 'support', titleEn: 'Get help', titleAr: 'طلب المساعدة', microJourneyPairs: [] },
    ],
    rows: [
      { id: 'feel', type: 'emotion', titleEn: 'Feeling', titleAr: 'الشعور' },
      { id: 'via', type: 'channels', titleEn: 'Channels', titleAr: 'القنوات' },
      { id: 'nps', type: 'metric', titleEn: 'NPS', titleAr: 'صافي نقاط الترويج' },
    ],
    cells: {
      'feel:discover': { score: 1, noteEn: 'Curious', noteAr: 'فضولي' },
      'feel:sign-up': { score: 0, noteEn: 'Careful', noteAr: 'حذر' },
      'feel:first-use': { score: 2, noteEn: 'Pleased', noteAr: 'سعيد' },
      'feel:support': { score: -1, noteEn: 'Frustrated when waiting', noteAr: 'منزعج عند الانتظار' },
      'via:discover': { channels: ['web', 'social'] },
      'via:sign-up': { channels: ['web', 'mobile_app'] },
      'via:support': { channels: ['chat', 'phone', 'branch'] },
      'nps:support': { source: { surveyId: survey.surveyId, questionId: 'score', measure: 'nps' }, target: 30 },
    },
  };
}

/** Imported only into a workspace whose SOP directory is empty (an import deactivates whoever it does not list). */
export const DIRECTORY = {
  people: [
    { name: 'Amal Haddad', email: 'amal@example.com', active: true },
    { name: 'Omar Saleh', email: 'omar@example.com', active: true },
  ],
  teams: [
    { name: 'Customer Care', active: true },
    { name: 'Billing', active: true },
  ],
};

export interface DemoSop {
  titleEn: string;
  titleAr: string;
  type: 'inquiry' | 'complaint' | 'request';
  team: string;
  escalateTo?: string;
  descriptionEn: string;
  descriptionAr: string;
  steps: { titleEn: string; titleAr: string }[];
  /** The reviewer's feedback on the first submission; the author then adds `stepAfterFeedback`. */
  sendBack?: { feedback: string; stepAfterFeedback: { titleEn: string; titleAr: string } };
}

export const SOPS: DemoSop[] = [
  {
    titleEn: 'Refund a duplicate charge',
    titleAr: 'استرداد مبلغ مخصوم مرتين',
    type: 'complaint',
    team: 'Billing',
    escalateTo: 'Amal Haddad',
    descriptionEn: 'When a customer was charged twice for one order.',
    descriptionAr: 'عندما يُخصم من العميل مرتين لطلب واحد.',
    steps: [
      { titleEn: 'Confirm both charges in the billing console', titleAr: 'تأكد من الخصمين في لوحة الفواتير' },
      { titleEn: 'Refund the later charge', titleAr: 'استرد المبلغ الثاني' },
    ],
    sendBack: {
      feedback: 'Say who may approve refunds above 500 SAR.',
      stepAfterFeedback: { titleEn: 'Above 500 SAR, ask the team lead to approve', titleAr: 'فوق 500 ريال، اطلب موافقة قائد الفريق' },
    },
  },
  {
    titleEn: 'Answer a delivery question',
    titleAr: 'الرد على استفسار عن التوصيل',
    type: 'inquiry',
    team: 'Customer Care',
    descriptionEn: 'A customer asks where their order is.',
    descriptionAr: 'يسأل العميل عن مكان طلبه.',
    steps: [
      { titleEn: 'Look the order up by its number', titleAr: 'ابحث عن الطلب برقمه' },
      { titleEn: 'Share the tracking link', titleAr: 'أرسل رابط التتبع' },
    ],
  },
];

export const WEBHOOK = {
  name: 'Demo receiver (npm run webhook-receiver)',
  url: 'http://127.0.0.1:4000/hook',
  events: ['idea.submitted', 'idea.status_changed', 'idea.updated', 'idea.deleted', 'survey.response.finished'],
};
