/**
 * Prompts an agent's user can pick (MCP prompts), each built from the API's data with the caller's
 * key in one call, and no model on our side: the prompt is the data and the task, worded for the
 * agent's own model. Triage new ideas, summarise a survey's responses (its summary: counts and
 * scores, never what a respondent wrote), draft a help article from an idea.
 */
import { fromJsonSchema, type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ApiAnswer, ApiCalls } from './api-calls.ts';
import { argumentsCheckedByTheApi, refusalOfAnswer } from './tool-calls.ts';

type Arguments = Record<string, string | undefined>;

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
  /** The one API request the prompt is built from. */
  request: (args: Arguments) => string;
  /** The prompt's text from the API's answer. */
  text: (body: any, args: Arguments) => string;
}

const IDEAS_TO_TRIAGE = 25;

/** Whole numbers of 1-100, as the API's lists take them; the default otherwise. */
function pageSize(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : fallback;
}

const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'triage_new_ideas',
    title: 'Triage new ideas',
    description:
      'The newest ideas of the workspace with the statuses and modules it uses, and the task: propose a status and module for each new one.',
    arguments: [
      { name: 'limit', description: `How many of the newest ideas to look at, 1-100 (default ${IDEAS_TO_TRIAGE})`, required: false },
    ],
    request: (args) => `/ideas?limit=${pageSize(args.limit, IDEAS_TO_TRIAGE)}`,
    text: (body) => {
      // Not triaged yet: no status, or the conventional first one.
      const ideas = (body.data as { status: string | null }[]).filter((idea) => idea.status === null || idea.status === 'new');
      return [
        `Triage these ${ideas.length} ideas not triaged yet, without a status or of status "new" (the newest first, from the Customer Experience Portal).`,
        'For each: a one-line restatement, likely duplicates among them, the module it belongs to, and a proposed status ' +
          '(one the workspace uses: read them with the get_idea_labels tool). Then list the changes to make; make them with ' +
          'update_idea (its ifMatch is the etag of your latest read) only once the user agrees.',
        json(ideas),
      ].join('\n\n');
    },
  },
  {
    name: 'summarise_survey_responses',
    title: "Summarise a survey's responses",
    description:
      "A survey's summary (counts, completion, per-question answers and scores; no respondent's own words) and the task: summarise it for a person.",
    arguments: [
      { name: 'surveyId', description: "The survey's id (list_surveys lists them)", required: true },
      { name: 'from', description: 'First day counted, YYYY-MM-DD (default: the survey’s first)', required: false },
      { name: 'to', description: 'Last day counted, YYYY-MM-DD (default: today)', required: false },
    ],
    request: (args) => {
      const range = new URLSearchParams(Object.entries({ from: args.from, to: args.to }).filter((e): e is [string, string] => !!e[1]));
      return `/surveys/${encodeURIComponent(args.surveyId!)}/summary${range.size > 0 ? `?${range}` : ''}`;
    },
    text: (body) =>
      [
        "Summarise this survey's responses for a customer-experience team: how many started and finished, where people " +
          'stopped, the scores (NPS, CSAT, CES with their margins of error) and what stands out per question. Say which numbers ' +
          'are too small to conclude from. Quote only numbers present below.',
        json(body.summary),
      ].join('\n\n'),
  },
  {
    name: 'draft_help_article_from_idea',
    title: 'Draft a help article from an idea',
    description:
      'An idea and the task: draft a knowledge-bank article (English and Arabic) that explains it, ready for create_knowledge_bank_article.',
    arguments: [{ name: 'ideaId', description: "The idea's id (list_ideas lists them)", required: true }],
    request: (args) => `/ideas/${encodeURIComponent(args.ideaId!)}`,
    text: (body) =>
      [
        'Draft a help-centre article from this idea: a title, a one-sentence summary and a few blocks (paragraphs, a numbered ' +
          'list of steps where there are steps), in English and in Arabic (`text: {en: [{text}], ar: [{text}]}` per block). ' +
          'Show the draft to the user; create it with create_knowledge_bank_article (a draft, unpublished) only once they agree, ' +
          'in a category they choose (list_knowledge_bank_categories).',
        json(body.data),
      ].join('\n\n'),
  },
];

function refused(answer: ApiAnswer, name: string): ProtocolError {
  const { error, message } = refusalOfAnswer(answer);
  const code = answer.status < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, `${error}: ${message}`, { prompt: name, error });
}

export function registerPrompts(server: McpServer, api: ApiCalls): void {
  for (const prompt of PROMPTS) {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(prompt.arguments.map((a) => [a.name, { type: 'string', description: a.description }])),
      required: prompt.arguments.filter((a) => a.required).map((a) => a.name),
    };
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: fromJsonSchema<Arguments>(schema, argumentsCheckedByTheApi) },
      async (args: Arguments) => {
        const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
        if (missing.length > 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Missing argument ${missing.join(', ')}`);
        const answer = await api.send({ method: 'GET', path: prompt.request(args) });
        if (answer.status !== 200) throw refused(answer, prompt.name);
        return {
          description: prompt.description,
          messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(answer.body, args) } }],
        };
      },
    );
  }
}
