/**
 * A fixed bilingual corpus for search tests: real help-centre phrases in English and Arabic (the
 * Arabic written with its diacritics, as careful authors write it), shaped as the article create
 * body of the API so unit tests index it directly and integration tests publish it.
 */
export interface CorpusArticle {
  key: string;
  sourceLanguage: 'en' | 'ar';
  titleEn?: string;
  titleAr?: string;
  summaryEn?: string;
  summaryAr?: string;
  tags: string[];
  visibility: 'public' | 'internal';
  blocks: Array<{ type: 'paragraph'; text: { en?: Array<{ text: string }>; ar?: Array<{ text: string }> } }>;
}

const paragraph = (en?: string, ar?: string) => ({
  type: 'paragraph' as const,
  text: { ...(en ? { en: [{ text: en }] } : {}), ...(ar ? { ar: [{ text: ar }] } : {}) },
});

export const SEARCH_CORPUS: CorpusArticle[] = [
  {
    key: 'reset-password',
    sourceLanguage: 'en',
    titleEn: 'Reset your password',
    titleAr: 'إِعَادَةُ تَعْيِينِ كَلِمَةِ المُرُورِ',
    summaryEn: 'Get back into your account when you forget your password.',
    summaryAr: 'اسْتَعِدْ حِسَابَكَ عِنْدَمَا تَنْسَى كَلِمَةَ المُرُورِ.',
    tags: ['account', 'security'],
    visibility: 'public',
    blocks: [
      paragraph(
        'Open the sign-in page and choose "Forgot password". We email you a link that is valid for 30 minutes.',
        'افْتَحْ صَفْحَةَ تَسْجِيلِ الدُّخُولِ وَاخْتَرْ "نَسِيتُ كَلِمَةَ المُرُورِ". نُرْسِلُ إِلَيْكَ رَابِطًا صَالِحًا لِمُدَّةِ ٣٠ دَقِيقَةً.',
      ),
    ],
  },
  {
    key: 'billing-invoices',
    sourceLanguage: 'en',
    titleEn: 'Download your invoices',
    titleAr: 'تَنْزِيلُ الفَوَاتِيرِ',
    summaryEn: 'Every invoice of your subscription, as PDF.',
    summaryAr: 'كُلُّ فَاتُورَةٍ لِاشْتِرَاكِكَ بِصِيغَةِ PDF.',
    tags: ['billing'],
    visibility: 'public',
    blocks: [
      paragraph(
        'Invoices are issued on the first day of each month. Billing administrators can download them from Settings.',
        'تَصْدُرُ الفَوَاتِيرُ فِي اليَوْمِ الأَوَّلِ مِنْ كُلِّ شَهْرٍ. يُمْكِنُ لِمَسْؤُولِي الفَوْتَرَةِ تَنْزِيلُهَا مِنَ الإِعْدَادَاتِ.',
      ),
    ],
  },
  {
    key: 'password-policy',
    sourceLanguage: 'en',
    titleEn: 'Security policy for administrators',
    summaryEn: 'Rules every administrator follows.',
    tags: ['security', 'internal-only'],
    visibility: 'internal',
    blocks: [paragraph('A password must be at least 12 characters long and is changed every 90 days.')],
  },
  {
    key: 'password-faq',
    sourceLanguage: 'en',
    titleEn: 'Account questions',
    summaryEn: 'Common questions about your account.',
    tags: ['password'],
    visibility: 'public',
    blocks: [paragraph('You can change the email address of your account in your profile.')],
  },
  {
    key: 'shipping-ar',
    sourceLanguage: 'ar',
    titleAr: 'سِيَاسَةُ الشَّحْنِ وَالتَّوْصِيلِ',
    summaryAr: 'مَوَاعِيدُ التَّوْصِيلِ وَتَكْلِفَةُ الشَّحْنِ إِلَى المَنَاطِقِ.',
    tags: ['shipping'],
    visibility: 'public',
    blocks: [paragraph(undefined, 'يَصِلُ الطَّلَبُ خِلَالَ ٣ إِلَى ٥ أَيَّامِ عَمَلٍ، وَالشَّحْنُ مَجَّانِيٌّ لِلطَّلَبَاتِ فَوْقَ ٢٠٠ رِيَالٍ.')],
  },
];
