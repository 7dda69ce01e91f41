/** Journey content for pictures: a bilingual sample with every row type, and a large generated map. */
import type { JourneyContent } from '../../lib/journeys/content.ts';

export function sampleJourneyContent(): JourneyContent {
  const stages = [
    { id: 'discover', titleEn: 'Discover', titleAr: 'الاكتشاف' },
    { id: 'apply', titleEn: 'Apply online', titleAr: 'التقديم عبر الإنترنت' },
    { id: 'verify', titleEn: 'Verify identity', titleAr: 'التحقق من الهوية' },
    { id: 'use', titleEn: 'First use', titleAr: 'الاستخدام الأول' },
  ].map((stage) => ({ ...stage, microJourneyPairs: [] }));
  return {
    schema: 1,
    stages,
    rows: [
      { id: 'doing', type: 'text', titleEn: 'Customer does', titleAr: 'ما يفعله العميل' },
      { id: 'feeling', type: 'emotion', titleEn: 'Feeling', titleAr: 'الشعور' },
      { id: 'channels', type: 'channels', titleEn: 'Channels', titleAr: 'القنوات' },
      { id: 'pains', type: 'items', kind: 'pain', titleEn: 'Pain points', titleAr: 'نقاط الألم' },
      { id: 'nps', type: 'metric', titleEn: 'NPS', titleAr: 'صافي نقاط الترويج' },
    ],
    cells: {
      'doing:discover': { textEn: 'Sees an advert and compares offers', textAr: 'يرى إعلانًا ويقارن العروض' },
      'doing:apply': { textEn: 'Fills in the form on the website', textAr: 'يملأ النموذج على الموقع' },
      'doing:verify': { textEn: 'Uploads an ID and waits for a call', textAr: 'يرفع الهوية وينتظر الاتصال' },
      'doing:use': { textEn: 'Logs in for the first time', textAr: 'يسجل الدخول لأول مرة' },
      'feeling:discover': { score: 1, noteEn: 'Curious', noteAr: 'فضول' },
      'feeling:apply': { score: 0 },
      'feeling:verify': { score: -2, noteEn: 'Waiting too long', noteAr: 'انتظار طويل' },
      'feeling:use': { score: 2, noteEn: 'Relieved', noteAr: 'ارتياح' },
      'channels:discover': { channels: ['social', 'web'] },
      'channels:apply': { channels: ['web', 'mobile_app'] },
      'channels:verify': { channels: ['phone', 'branch'] },
      'channels:use': { channels: ['mobile_app'] },
      'pains:verify': { items: [{ id: 'wait', textEn: 'Three days without news', textAr: 'ثلاثة أيام بلا أخبار' }] },
      'nps:apply': { value: 41, target: 30 },
      'nps:verify': { value: -12, target: 20 },
      'nps:use': { value: 55, target: 40 },
    },
  };
}

/** `stages` × `rows` of every row type in turn, with long texts: what "readable at size" is tested on. */
export function largeJourneyContent(stageCount: number, rowCount: number): JourneyContent {
  const types = ['text', 'emotion', 'channels', 'items', 'metric', 'text'] as const;
  const stages = Array.from({ length: stageCount }, (_, i) => ({
    id: `s${i + 1}`,
    titleEn: `Stage ${i + 1}: a fairly long stage title that has to wrap`,
    titleAr: `المرحلة ${i + 1}`,
    microJourneyPairs: [],
  }));
  const rows = Array.from({ length: rowCount }, (_, i) => {
    const type = types[i % types.length] ?? 'text';
    const titles = { id: `r${i + 1}`, titleEn: `Lane ${i + 1} (${type})`, titleAr: `المسار ${i + 1}` };
    return type === 'items' ? { ...titles, type, kind: 'pain' as const } : { ...titles, type };
  });
  const cells: JourneyContent['cells'] = {};
  const words = 'the customer waits for a reply while the branch checks the documents again and again'.split(' ');
  stages.forEach((stage, s) => {
    rows.forEach((row, r) => {
      const key = `${row.id}:${stage.id}`;
      const text = Array.from({ length: 10 + ((s * 7 + r) % 40) }, (_, w) => words[(w + s) % words.length]).join(' ');
      if (row.type === 'text') cells[key] = { textEn: text, textAr: text };
      else if (row.type === 'emotion') cells[key] = { score: ((s + r) % 5) - 2 };
      else if (row.type === 'channels') cells[key] = { channels: ['web', 'phone', 'branch'] };
      else if (row.type === 'items')
        cells[key] = {
          items: [
            { id: 'a', textEn: text },
            { id: 'b', textEn: 'short' },
          ],
        };
      else if (row.type === 'metric') cells[key] = { value: (s * 13) % 100, target: 50 };
    });
  });
  return { schema: 1, stages, rows, cells };
}
