/**
 * An article as Markdown in one language: what an agent reads when it opens a knowledge-bank article
 * as an MCP resource (lib/mcp/resources.ts). Pure: the article as the API answers it in, text out.
 * A block without text in the language asked falls back to the other language, as the help centre
 * shows an untranslated block; structured links become their `kb://` or record form, so an agent can
 * follow them through the same server.
 */
import type { BlockInput, Language, RichText, Span } from './blocks.ts';

/** The members of an article this needs (the API's `Article`, or its summary and blocks). */
export interface MarkdownArticle {
  id: string;
  titleEn: string | null;
  titleAr: string | null;
  summaryEn: string | null;
  summaryAr: string | null;
  blocks: readonly BlockInput[];
}

/** Markdown's own characters in text, escaped, so a title or span reads as the text it is. */
function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]#<>|])/g, '\\$1');
}

function hrefOf(link: NonNullable<Span['link']>): string {
  if ('href' in link) return link.href;
  if ('articleId' in link) return `kb://articles/${link.articleId}${link.anchor ? `#${link.anchor}` : ''}`;
  if ('categoryId' in link) return `kb://categories/${link.categoryId}`;
  return `cx://${link.record.kind}s/${encodeURIComponent(link.record.id)}`;
}

function spanText(span: Span): string {
  let text = escapeMarkdown(span.text);
  for (const mark of span.marks ?? []) {
    if (mark === 'bold') text = `**${text}**`;
    else if (mark === 'italic') text = `*${text}*`;
    else text = `\`${span.text.replaceAll('`', "'")}\``;
  }
  return span.link ? `[${text}](${hrefOf(span.link)})` : text;
}

function textIn(rich: RichText | undefined, language: Language): string {
  const spans = rich?.[language]?.length ? rich[language] : rich?.[language === 'en' ? 'ar' : 'en'];
  return (spans ?? []).map(spanText).join('').replace(/\n/g, ' ');
}

function blockMarkdown(block: BlockInput, language: Language): string {
  switch (block.type) {
    case 'paragraph':
      return textIn(block.text, language);
    case 'heading':
      return `${'#'.repeat(block.level)} ${textIn(block.text, language)}`;
    case 'callout':
      return `> **${block.tone}**: ${textIn(block.text, language)}`;
    case 'quote':
      return `> ${textIn(block.text, language)}`;
    case 'list':
      return block.items.map((item, i) => `${block.ordered ? `${i + 1}.` : '-'} ${textIn(item, language)}`).join('\n');
    case 'table': {
      const [head, ...rows] = block.rows.map((row) => `| ${row.map((cell) => textIn(cell, language)).join(' | ')} |`);
      if (!head) return '';
      const columns = block.rows[0]!.length;
      return [head, `|${' --- |'.repeat(columns)}`, ...rows].join('\n');
    }
    case 'faq':
      return `**${textIn(block.question, language)}**\n\n${textIn(block.answer, language)}`;
    case 'image': {
      const alt = block.alt?.[language] ?? block.alt?.[language === 'en' ? 'ar' : 'en'] ?? '';
      const caption = block.caption ? `\n\n${textIn(block.caption, language)}` : '';
      return `![${escapeMarkdown(alt)}](${block.url})${caption}`;
    }
    case 'code': {
      const fence = block.code.includes('```') ? '~~~~' : '```';
      return `${fence}${block.language ?? ''}\n${block.code}\n${fence}`;
    }
    case 'embed':
      return `<${block.url}>`;
    case 'divider':
      return '---';
  }
}

/** The article in `language`: its title as the first heading, its summary, then its blocks. */
export function articleMarkdown(article: MarkdownArticle, language: Language): string {
  const other = language === 'en' ? 'Ar' : 'En';
  const own = language === 'en' ? 'En' : 'Ar';
  const title = article[`title${own}`] ?? article[`title${other}`] ?? article.id;
  const summary = article[`summary${own}`] ?? article[`summary${other}`];
  const parts = [
    `# ${escapeMarkdown(title)}`,
    ...(summary ? [escapeMarkdown(summary)] : []),
    ...article.blocks.map((b) => blockMarkdown(b, language)),
  ];
  return `${parts.filter((part) => part !== '').join('\n\n')}\n`;
}
