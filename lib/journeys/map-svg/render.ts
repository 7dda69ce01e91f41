/**
 * The journey map as a picture (GET …/map.svg): a pure function from a version's content to SVG.
 * Stages are columns, rows are lanes with their titles on the reading side; the emotion row is a
 * curve, metric cells are badges coloured by their target. Arabic mirrors the columns (the first
 * stage on the right) and uses the Arabic texts, falling back to English.
 *
 * Large maps WRAP rather than scale: columns keep a fixed width and 12px text, long text is broken
 * into lines and cut with an ellipsis after a few, and the picture grows (a 40-stage map is about
 * 8,200px wide). A viewer zooms out; nothing is ever drawn too small to read.
 */
import type { JourneyCell, JourneyContent } from '../content.ts';
import { type MetricBadge, meetsTarget, metricBadgeOf } from './metric-badge.ts';
import { charactersPerLine, escapeXml, wrapText } from './text.ts';

type MapLocale = 'en' | 'ar';

export interface MapPicture {
  content: JourneyContent;
  label: string;
  publishedAt: string | null;
  locale: MapLocale;
  /** Computed readings of bound metric cells, by cell key (cells without one show what they hold). */
  readings?: ReadonlyMap<string, { value: number | null; n: number }>;
  /** The days the readings cover, shown in the header. */
  range?: { from: string; to: string };
}

const LAYOUT = {
  margin: 16,
  header: 64,
  laneTitleWidth: 168,
  columnWidth: 200,
  padding: 8,
  fontSize: 12,
  line: 16,
  stageTitleLines: 3,
  cellLines: 6,
  itemLines: 3,
  emotionBand: 72,
  badgeHeight: 46,
} as const;

const WORDS = {
  en: { published: 'Published', draft: 'Draft, not published', metrics: 'Metrics', target: 'target', noData: 'no responses' },
  ar: { published: 'نُشرت في', draft: 'مسودة غير منشورة', metrics: 'المقاييس', target: 'الهدف', noData: 'لا توجد ردود' },
} as const;

const CHANNEL_NAMES: Record<string, { en: string; ar: string }> = {
  web: { en: 'Web', ar: 'الويب' },
  mobile_app: { en: 'Mobile app', ar: 'تطبيق الجوال' },
  email: { en: 'Email', ar: 'البريد الإلكتروني' },
  phone: { en: 'Phone', ar: 'الهاتف' },
  sms: { en: 'SMS', ar: 'رسائل نصية' },
  whatsapp: { en: 'WhatsApp', ar: 'واتساب' },
  chat: { en: 'Chat', ar: 'المحادثة' },
  social: { en: 'Social media', ar: 'وسائل التواصل' },
  branch: { en: 'Branch', ar: 'الفرع' },
  kiosk: { en: 'Kiosk', ar: 'الكشك' },
  mail: { en: 'Post', ar: 'البريد' },
  other: { en: 'Other', ar: 'أخرى' },
};

const COLOURS = {
  grid: '#d0d7de',
  laneTitle: '#f6f8fa',
  stageTitle: '#0b3d91',
  text: '#1f2328',
  muted: '#59636e',
  met: { fill: '#dafbe1', stroke: '#1a7f37' },
  missed: { fill: '#ffebe9', stroke: '#cf222e' },
  neutral: { fill: '#f6f8fa', stroke: '#8c959f' },
  curve: '#8250df',
} as const;

type Texts = { en?: string | undefined; ar?: string | undefined };

/** The text in the locale, else in the other language (Arabic falls back to English and back). */
function pick(locale: MapLocale, texts: Texts): string | undefined {
  const first = locale === 'ar' ? texts.ar : texts.en;
  const second = locale === 'ar' ? texts.en : texts.ar;
  return first?.trim() ? first : second?.trim() ? second : undefined;
}

const perLine = charactersPerLine(LAYOUT.columnWidth - 2 * LAYOUT.padding, LAYOUT.fontSize);
const lanePerLine = charactersPerLine(LAYOUT.laneTitleWidth - 2 * LAYOUT.padding, LAYOUT.fontSize);

/** The lines a non-emotion, non-metric cell shows. */
function cellLines(cell: JourneyCell, locale: MapLocale): string[] {
  if ('channels' in cell) {
    return wrapText(cell.channels.map((channel) => CHANNEL_NAMES[channel]?.[locale] ?? channel).join(' · '), perLine, LAYOUT.cellLines);
  }
  if ('items' in cell) {
    const lines = cell.items.flatMap((item) =>
      wrapText(`• ${pick(locale, { en: item.textEn, ar: item.textAr }) ?? item.id}`, perLine, LAYOUT.itemLines),
    );
    return lines.length > LAYOUT.cellLines ? [...lines.slice(0, LAYOUT.cellLines - 1), '…'] : lines;
  }
  if ('refs' in cell) return wrapText(cell.refs.map((ref) => `${ref.kind}: ${ref.id}`).join('\n'), perLine, LAYOUT.cellLines);
  if ('textEn' in cell || 'textAr' in cell) {
    const text = pick(locale, { en: (cell as Texts & { textEn?: string }).textEn, ar: (cell as { textAr?: string }).textAr });
    return text ? wrapText(text, perLine, LAYOUT.cellLines) : [];
  }
  return [];
}

function emotionNote(cell: JourneyCell | undefined, locale: MapLocale): string[] {
  if (!cell || !('score' in cell)) return [];
  const note = pick(locale, { en: cell.noteEn, ar: cell.noteAr });
  return note ? wrapText(note, perLine, 2) : [];
}

/**
 * Numbers and dates inside a left-to-right isolate (U+2066 … U+2069): in Arabic text, −12 would
 * otherwise read "12-" and 2026-11-24 "24-11-2026".
 */
function isolated(text: string, rtl: boolean): string {
  return rtl ? `\u2066${text}\u2069` : text;
}

function formatNumber(value: number, rtl: boolean): string {
  return isolated(Number.isInteger(value) ? String(value) : value.toFixed(1), rtl);
}

export function renderJourneyMap(picture: MapPicture): string {
  const { content, locale } = picture;
  const words = WORDS[locale];
  const rtl = locale === 'ar';
  const stages = content.stages;
  const columns = Math.max(stages.length, 1);
  const gridWidth = LAYOUT.laneTitleWidth + columns * LAYOUT.columnWidth;
  const width = gridWidth + 2 * LAYOUT.margin;

  /** Left edge of stage `index`'s column: mirrored in Arabic, where lane titles sit on the right. */
  const columnX = (index: number) =>
    rtl ? LAYOUT.margin + (columns - 1 - index) * LAYOUT.columnWidth : LAYOUT.margin + LAYOUT.laneTitleWidth + index * LAYOUT.columnWidth;
  const laneTitleX = rtl ? LAYOUT.margin + columns * LAYOUT.columnWidth : LAYOUT.margin;
  /** A text line's anchor inside a box starting at x with this width, on the reading side. */
  const textAt = (x: number, boxWidth: number) => (rtl ? x + boxWidth - LAYOUT.padding : x + LAYOUT.padding);
  const textAttributes = rtl ? 'direction="rtl" text-anchor="start"' : 'text-anchor="start"';

  const parts: string[] = [];
  const lines = (x: number, y: number, boxWidth: number, texts: readonly string[], extra = '') => {
    if (texts.length === 0) return;
    const anchor = textAt(x, boxWidth);
    parts.push(
      `<text x="${anchor}" y="${y}" ${textAttributes}${extra}>${texts
        .map((text, i) => `<tspan x="${anchor}" dy="${i === 0 ? 0 : LAYOUT.line}">${escapeXml(text)}</tspan>`)
        .join('')}</text>`,
    );
  };

  // Header: the version's label, its publish date, and the days any metric covers.
  const headline = [
    picture.publishedAt ? `${words.published} ${isolated(picture.publishedAt.slice(0, 10), rtl)}` : words.draft,
    picture.range ? `${words.metrics} ${isolated(`${picture.range.from} – ${picture.range.to}`, rtl)}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  lines(LAYOUT.margin, LAYOUT.margin + 20, gridWidth, [picture.label], ' font-size="20" font-weight="bold"');
  lines(LAYOUT.margin, LAYOUT.margin + 44, gridWidth, [headline], ` fill="${COLOURS.muted}"`);

  let y = LAYOUT.margin + LAYOUT.header;
  const stageTitles = stages.map((stage) =>
    wrapText(pick(locale, { en: stage.titleEn, ar: stage.titleAr }) ?? stage.id, perLine, LAYOUT.stageTitleLines),
  );
  const stageHeight = Math.max(1, ...stageTitles.map((titles) => titles.length)) * LAYOUT.line + 2 * LAYOUT.padding;
  stages.forEach((_, index) => {
    const x = columnX(index);
    parts.push(`<rect x="${x}" y="${y}" width="${LAYOUT.columnWidth}" height="${stageHeight}" fill="#e7eefb" stroke="${COLOURS.grid}"/>`);
    lines(
      x,
      y + LAYOUT.padding + LAYOUT.fontSize,
      LAYOUT.columnWidth,
      stageTitles[index] ?? [],
      ` font-weight="bold" fill="${COLOURS.stageTitle}"`,
    );
  });
  y += stageHeight;

  for (const row of content.rows) {
    const cellOf = (stageId: string) => content.cells[`${row.id}:${stageId}`];
    const title = wrapText(pick(locale, { en: row.titleEn, ar: row.titleAr }) ?? row.id, lanePerLine, LAYOUT.cellLines);
    let body: number;
    if (row.type === 'emotion') {
      const notes = Math.max(0, ...stages.map((stage) => emotionNote(cellOf(stage.id), locale).length));
      body = LAYOUT.emotionBand + (notes > 0 ? LAYOUT.padding + notes * LAYOUT.line : 0);
    } else if (row.type === 'metric') {
      body = LAYOUT.badgeHeight;
    } else {
      body =
        Math.max(
          1,
          ...stages.map((stage) => {
            const cell = cellOf(stage.id);
            return cell ? cellLines(cell, locale).length : 0;
          }),
        ) * LAYOUT.line;
    }
    const height = Math.max(body, title.length * LAYOUT.line) + 2 * LAYOUT.padding;

    parts.push(
      `<rect x="${laneTitleX}" y="${y}" width="${LAYOUT.laneTitleWidth}" height="${height}" fill="${COLOURS.laneTitle}" stroke="${COLOURS.grid}"/>`,
    );
    lines(laneTitleX, y + LAYOUT.padding + LAYOUT.fontSize, LAYOUT.laneTitleWidth, title, ' font-weight="bold"');
    stages.forEach((_, index) => {
      parts.push(
        `<rect x="${columnX(index)}" y="${y}" width="${LAYOUT.columnWidth}" height="${height}" fill="#ffffff" stroke="${COLOURS.grid}"/>`,
      );
    });

    if (row.type === 'emotion')
      drawEmotion(
        parts,
        stages.map((stage) => cellOf(stage.id)),
        y,
        columnX,
        locale,
        lines,
      );
    else if (row.type === 'metric') {
      stages.forEach((stage, index) => {
        const key = `${row.id}:${stage.id}`;
        const cell = content.cells[key];
        const badge = cell ? metricBadgeOf(cell, picture.readings?.get(key)) : undefined;
        if (badge) drawBadge(parts, badge, columnX(index), y + LAYOUT.padding, locale, lines);
      });
    } else {
      stages.forEach((stage, index) => {
        const cell = cellOf(stage.id);
        if (cell) lines(columnX(index), y + LAYOUT.padding + LAYOUT.fontSize, LAYOUT.columnWidth, cellLines(cell, locale));
      });
    }
    y += height;
  }

  const height = y + LAYOUT.margin;
  const name = escapeXml(picture.label);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${name}"` +
    ` font-family="'Noto Sans', 'Noto Sans Arabic', 'DejaVu Sans', Arial, sans-serif" font-size="${LAYOUT.fontSize}" fill="${COLOURS.text}"${rtl ? ' xml:lang="ar"' : ' xml:lang="en"'}>` +
    `<title>${name}</title><rect width="100%" height="100%" fill="#ffffff"/>${parts.join('')}</svg>\n`
  );
}

type Lines = (x: number, y: number, boxWidth: number, texts: readonly string[], extra?: string) => void;

/** Scores −2…2 as points on a curve through the stages that have one, notes beneath. */
function drawEmotion(
  parts: string[],
  cells: readonly (JourneyCell | undefined)[],
  top: number,
  columnX: (index: number) => number,
  locale: MapLocale,
  lines: Lines,
) {
  const band = LAYOUT.emotionBand - 2 * LAYOUT.padding;
  const points = cells.flatMap((cell, index) =>
    cell && 'score' in cell
      ? [
          {
            index,
            score: cell.score,
            x: columnX(index) + LAYOUT.columnWidth / 2,
            y: top + LAYOUT.padding * 2 + ((2 - cell.score) / 4) * band,
          },
        ]
      : [],
  );
  const middle = top + LAYOUT.padding * 2 + band / 2;
  parts.push(
    `<line x1="${Math.min(...cells.map((_, i) => columnX(i)))}" y1="${middle}" x2="${Math.max(...cells.map((_, i) => columnX(i))) + LAYOUT.columnWidth}" y2="${middle}" stroke="${COLOURS.grid}" stroke-dasharray="4 4"/>`,
  );
  const ordered = [...points].sort((a, b) => a.x - b.x);
  if (ordered.length > 1) {
    const path = ordered
      .map((point, i) => {
        if (i === 0) return `M${point.x} ${point.y}`;
        const previous = ordered[i - 1] as (typeof ordered)[number];
        const bend = (point.x - previous.x) / 2;
        return `C${previous.x + bend} ${previous.y} ${point.x - bend} ${point.y} ${point.x} ${point.y}`;
      })
      .join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="${COLOURS.curve}" stroke-width="3"/>`);
  }
  for (const point of points) {
    const colour = point.score > 0 ? COLOURS.met.stroke : point.score < 0 ? COLOURS.missed.stroke : COLOURS.muted;
    parts.push(
      `<circle cx="${point.x}" cy="${point.y}" r="6" fill="${colour}" stroke="#ffffff" stroke-width="2"><title>${point.score}</title></circle>`,
    );
    const note = emotionNote(cells[point.index], locale);
    lines(
      columnX(point.index),
      top + LAYOUT.emotionBand + LAYOUT.padding + LAYOUT.fontSize,
      LAYOUT.columnWidth,
      note,
      ` fill="${COLOURS.muted}"`,
    );
  }
}

function drawBadge(parts: string[], badge: MetricBadge, x: number, y: number, locale: MapLocale, lines: Lines) {
  const words = WORDS[locale];
  const rtl = locale === 'ar';
  const met = meetsTarget(badge);
  const colour = met === null ? COLOURS.neutral : met ? COLOURS.met : COLOURS.missed;
  const boxX = x + LAYOUT.padding;
  const boxWidth = LAYOUT.columnWidth - 2 * LAYOUT.padding;
  parts.push(
    `<rect x="${boxX}" y="${y}" width="${boxWidth}" height="${LAYOUT.badgeHeight}" rx="8" fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="1.5"/>`,
  );
  const unit = badge.unit ? ` ${badge.unit}` : '';
  const value = badge.value === null ? `— ${words.noData}` : `${formatNumber(badge.value, rtl)}${unit}`;
  const measure = badge.measure ? `${badge.measure.toUpperCase()} ` : '';
  const details = [
    badge.target !== undefined ? `${words.target} ${formatNumber(badge.target, rtl)}${unit}` : undefined,
    badge.n !== undefined ? `n=${isolated(String(badge.n), rtl)}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  lines(boxX, y + 18, boxWidth, [`${measure}${value}`], ` font-size="15" font-weight="bold" fill="${colour.stroke}"`);
  lines(boxX, y + 36, boxWidth, details ? [details] : [], ` fill="${COLOURS.muted}"`);
}
