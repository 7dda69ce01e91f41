import type { Sandbox } from '../local/sandbox.ts';
import { benchWorkspace, type BenchContext as Context, type Scenario, send } from './harness.ts';

const journeyWorkspace = (sandbox: Sandbox) => benchWorkspace(sandbox, 'journeys');

/** Content of about `bytes` of JSON that compresses like real text: varied words and numbers, both languages. */
function benchContent(bytes: number) {
  const words = ['arrive', 'queue', 'wait', 'call', 'agent', 'form', 'sign', 'pay', 'confirm', 'leave', 'وصول', 'انتظار', 'دفع', 'تأكيد'];
  const cells: Record<string, { textEn: string; textAr: string }> = {};
  let seed = 11;
  const sentence = () => {
    let text = '';
    while (text.length < 600) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += `${words[seed % words.length]} ${seed % 1000} `;
    }
    return text;
  };
  for (let i = 0; JSON.stringify(cells).length < bytes; i++)
    cells[`row${i % 20}:stage${Math.floor(i / 20)}`] = { textEn: sentence(), textAr: sentence() };
  const stages = Math.ceil(Object.keys(cells).length / 20);
  return {
    schema: 1,
    stages: Array.from({ length: stages }, (_, i) => ({
      id: `stage${i}`,
      titleEn: `Stage ${i}`,
      titleAr: `مرحلة ${i}`,
      microJourneyPairs: [],
    })),
    rows: Array.from({ length: 20 }, (_, i) => ({ id: `row${i}`, type: 'text', titleEn: `Row ${i}`, titleAr: `صف ${i}` })),
    cells,
  };
}

/** A journey whose first version holds `bytes` of content; `data.journeyId`, `data.versionId`. */
async function withJourney(sandbox: Sandbox, bytes: number, extraVersions = 0): Promise<Context> {
  const context = await journeyWorkspace(sandbox);
  const created = (await (await send(context, 'POST', '/journeys', { titleEn: 'Bench', titleAr: 'قياس' })).json()) as {
    journeyId: string;
    version: { id: string };
  };
  context.data.journeyId = created.journeyId;
  context.data.versionId = created.version.id;
  const saved = await send(
    context,
    'PUT',
    `/journeys/${created.journeyId}/versions/${created.version.id}/content`,
    { content: benchContent(bytes) },
    { 'If-Match': '"1"' },
  );
  if (saved.status !== 200) throw new Error(`bench save failed: ${saved.status} ${await saved.text()}`);
  for (let i = 0; i < extraVersions; i++)
    await send(context, 'POST', `/journeys/${created.journeyId}/versions`, { fromVersionId: created.version.id });
  return context;
}

/** A journey pairing a micro journey that pairs another (two levels), both published. */
async function withPairedLevels(sandbox: Sandbox): Promise<Context> {
  const context = await withJourney(sandbox, 2_000);
  let parent = context.data.journeyId!;
  const chain: string[] = [];
  for (let level = 0; level < 2; level++) {
    const micro = (await (await send(context, 'POST', `/journeys/${parent}/micro-journeys`, { titleEn: `Level ${level}` })).json()) as {
      journeyId: string;
      version: { id: string };
    };
    chain.push(micro.journeyId);
    parent = micro.journeyId;
    context.data[`micro${level}`] = `${micro.journeyId}/${micro.version.id}`;
  }
  // Publish the deepest first, pairing each level to the next.
  for (let level = 1; level >= 0; level--) {
    const [journeyId, versionId] = context.data[`micro${level}`]!.split('/');
    const next = chain[level + 1];
    const content = {
      schema: 1,
      stages: [{ id: 's', titleEn: 'S', titleAr: 'س', microJourneyPairs: next ? [{ journeyId: next }] : [] }],
      rows: [],
      cells: {},
    };
    await send(context, 'PUT', `/journeys/${journeyId}/versions/${versionId}/content`, { content }, { 'If-Match': '"1"' });
    await send(context, 'POST', `/journeys/${journeyId}/versions/${versionId}/publish`, undefined, { 'If-Match': '"2"' });
  }
  context.data.pairedContent = JSON.stringify({
    schema: 1,
    stages: [{ id: 's', titleEn: 'S', titleAr: 'س', microJourneyPairs: [{ journeyId: chain[0] }] }],
    rows: [],
    cells: {},
  });
  return context;
}

const versionPath = (c: Context) => `/journeys/${c.data.journeyId}/versions/${c.data.versionId}`;

export const journeyScenarios: Scenario[] = [
  { name: 'POST /journeys', setup: journeyWorkspace, request: (c) => send(c, 'POST', '/journeys', { titleEn: 'A journey' }) },
  { name: 'GET /journeys/{id}', setup: (s) => withJourney(s, 2_000), request: (c) => send(c, 'GET', `/journeys/${c.data.journeyId}`) },
  { name: 'GET /journeys (first page)', setup: (s) => withJourney(s, 2_000), request: (c) => send(c, 'GET', '/journeys') },
  { name: 'GET journey version (300 KB content)', setup: (s) => withJourney(s, 300_000), request: (c) => send(c, 'GET', versionPath(c)) },
  {
    name: 'GET journey versions (4 × 300 KB content)',
    setup: (s) => withJourney(s, 300_000, 3),
    request: (c) => send(c, 'GET', `/journeys/${c.data.journeyId}/versions`),
  },
  {
    name: 'PUT journey content (300 KB, no pairs)',
    setup: async (s) => {
      const context = await withJourney(s, 300_000);
      context.data.content = JSON.stringify({ content: benchContent(300_000) });
      return context;
    },
    request: (c) =>
      fetch(`${c.api}${versionPath(c)}/content`, {
        method: 'PUT',
        headers: {
          'X-Service-Workspace-Host': c.host,
          Authorization: `Bearer ${c.key}`,
          'Content-Type': 'application/json',
          'If-Match': '*',
        },
        body: c.data.content,
      }),
  },
  {
    name: 'PUT journey content (pairs two levels deep)',
    setup: withPairedLevels,
    request: (c) => send(c, 'PUT', `${versionPath(c)}/content`, { content: JSON.parse(c.data.pairedContent!) }, { 'If-Match': '*' }),
  },
  {
    name: 'GET journey diff (300 KB versions)',
    setup: (s) => withJourney(s, 300_000, 1),
    request: (c) => send(c, 'GET', `${versionPath(c)}/diff?against=${c.data.versionId}`),
  },
];

interface CapacityClient {
  middlewareStack: {
    add: (mw: never, options: { step: 'initialize'; name: string }) => void;
    remove: (name: string) => boolean;
  };
}

/**
 * Saves a 300 KB journey through the API while the handlers' client asks DynamoDB for the
 * consumed capacity of every transaction, and prints the write units next to the raw and
 * compressed sizes (and what the same save would cost uncompressed).
 */
export async function reportJourneyWriteUnits(sandbox: Sandbox): Promise<void> {
  const { dynamo } = await import('../lib/platform/data/client.ts');
  const { encodeContent } = await import('../lib/journeys/codec.ts');
  const client = dynamo as unknown as CapacityClient;
  const writeUnits: number[] = [];
  const measure =
    (
      next: (args: {
        input: Record<string, unknown>;
      }) => Promise<{ output: { ConsumedCapacity?: { CapacityUnits?: number; WriteCapacityUnits?: number }[] } }>,
      context: { commandName?: string },
    ) =>
    async (args: { input: Record<string, unknown> }) => {
      if (context.commandName !== 'TransactWriteItemsCommand' && context.commandName !== 'TransactWriteCommand') return next(args);
      args.input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      writeUnits.push((result.output.ConsumedCapacity ?? []).reduce((sum, c) => sum + (c.WriteCapacityUnits ?? c.CapacityUnits ?? 0), 0));
      return result;
    };
  client.middlewareStack.add(measure as never, { step: 'initialize', name: 'benchJourneyWriteUnits' });
  try {
    console.log('\n## Journeys: write units per content save (ReturnConsumedCapacity)\n');
    console.log('| content | JSON | stored (brotli) | write units per save | uncompressed would be |\n|---|---:|---:|---:|---:|');
    for (const bytes of [30_000, 300_000, 800_000]) {
      const context = await withJourney(sandbox, 2_000);
      const content = benchContent(bytes);
      const encoded = encodeContent(content);
      if (!encoded.ok) throw new Error(`bench content of ${bytes} bytes does not fit`);
      writeUnits.length = 0;
      const res = await send(context, 'PUT', `${versionPath(context)}/content`, { content }, { 'If-Match': '*' });
      if (res.status !== 200) throw new Error(`save failed: ${res.status} ${await res.text()}`);
      // A transactional write costs 2 units per 1 KB of each item written; uncompressed, the version item alone would be the JSON.
      const uncompressed = Math.ceil(encoded.rawBytes / 1024) * 2 + 2;
      const units = writeUnits.at(-1) ?? Number.NaN;
      console.log(
        `| ${Math.round(bytes / 1000)} KB | ${(encoded.rawBytes / 1024).toFixed(0)} KB | ${(encoded.compressed.byteLength / 1024).toFixed(0)} KB | ${units} | ${encoded.rawBytes > 400 * 1024 ? 'does not fit an item' : uncompressed} |`,
      );
    }
  } finally {
    client.middlewareStack.remove('benchJourneyWriteUnits');
  }
}
