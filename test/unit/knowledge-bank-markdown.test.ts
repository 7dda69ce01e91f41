/** A knowledge-bank article as Markdown (lib/knowledge-bank/markdown.ts), what an MCP resource read answers. */
import { describe, expect, it } from 'vitest';
import type { BlockInput } from '../../lib/knowledge-bank/blocks.ts';
import { articleMarkdown } from '../../lib/knowledge-bank/markdown.ts';

const article = (blocks: BlockInput[]) => ({
  id: 'a',
  titleEn: 'Reset *your* password',
  titleAr: 'إعادة تعيين كلمة المرور',
  summaryEn: null,
  summaryAr: 'ملخص',
  blocks,
});
const t = (en?: string, ar?: string) => ({ ...(en ? { en: [{ text: en }] } : {}), ...(ar ? { ar: [{ text: ar }] } : {}) });

describe('articleMarkdown', () => {
  it('renders each block type in the language asked, escaping Markdown in text', () => {
    const markdown = articleMarkdown(
      article([
        { type: 'heading', level: 3, text: t('Steps') },
        { type: 'paragraph', text: { en: [{ text: 'Open ' }, { text: 'Settings', marks: ['bold'], link: { articleId: 'b1' } }] } },
        { type: 'list', ordered: false, items: [t('one'), t('two')] },
        {
          type: 'table',
          rows: [
            [t('a'), t('b')],
            [t('1'), t('2')],
          ],
        },
        { type: 'faq', question: t('Why?'), answer: t('Because.') },
        { type: 'code', language: 'sh', code: 'echo `hi`' },
        { type: 'callout', tone: 'warning', text: t('Careful') },
        { type: 'divider' },
        { type: 'image', url: 'https://example.com/a.png', alt: { en: 'Screen' } },
      ]),
      'en',
    );
    expect(markdown).toBe(
      `${[
        '# Reset \\*your\\* password',
        'ملخص',
        '### Steps',
        'Open [**Settings**](kb://articles/b1)',
        '- one\n- two',
        '| a | b |\n| --- | --- |\n| 1 | 2 |',
        '**Why?**\n\nBecause.',
        '```sh\necho `hi`\n```',
        '> **warning**: Careful',
        '---',
        '![Screen](https://example.com/a.png)',
      ].join('\n\n')}\n`,
    );
  });

  it('falls back to the other language where a block or title has none in the one asked', () => {
    const markdown = articleMarkdown(article([{ type: 'paragraph', text: t('English only') }]), 'ar');
    expect(markdown).toBe('# إعادة تعيين كلمة المرور\n\nملخص\n\nEnglish only\n');
  });
});
