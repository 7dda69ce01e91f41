/**
 * Ideas, SOPs and the webhook of the demo, through the API. Each item is looked up by its natural
 * key first (title, name), so a second run finds everything and writes nothing, and compares what it
 * finds with what it would write (compare.ts); an item a failed run left half-way (an SOP still in
 * review, its content the demo's) is taken the rest of the way.
 */
import { importDirectory, parseDirectoryImport } from '../../lib/admin/directory.ts';
import type { TableClient } from '../../lib/admin/table-client.ts';
import type { DemoApi, Tally } from './api.ts';
import { differencesFrom } from './compare.ts';
import { COMMENTS, type DemoIdea, type DemoSop, type DemoVote, DIRECTORY, DUPLICATE_IDEA, IDEAS, SOPS, VOTES, WEBHOOK } from './data.ts';

interface IdeaRecord {
  id: string;
  title: string;
  version: number;
  mergedInto: string | null;
}

/**
 * The ideas, then what customers did with them: votes, comments and a duplicate merged in. Votes,
 * comments and the merge are written for the ideas this run created; an idea found again keeps its
 * votes and comments as they are (the demo never writes to what it finds), and its duplicate is
 * compared: one someone unmerged is named, not merged again.
 */
export async function seedIdeas(api: DemoApi, tally: Tally): Promise<void> {
  // Merged ones too: the demo's duplicate leaves the default list once merged.
  const found = new Map<string, IdeaRecord>();
  for (const idea of await api.listAll<IdeaRecord>('/ideas?includeMerged=true', 'data'))
    if (!found.has(idea.title)) found.set(idea.title, idea);
  const made = new Map<string, IdeaRecord>();
  for (const [i, idea] of IDEAS.entries()) {
    const existing = found.get(idea.title);
    if (existing) tally.compare(`idea "${idea.title}"`, idea, existing);
    else made.set(idea.title, await createIdea(api, idea, i + 1));
  }
  tally.note('ideas', made.size, IDEAS.length - made.size, 'with statuses and modules');
  const isNew = (title: string) => made.has(title);
  const ideaId = (title: string) => (made.get(title) ?? found.get(title))!.id;

  const votes = VOTES.filter((vote) => isNew(vote.idea));
  for (const vote of votes) await castVote(api, ideaId(vote.idea), vote, `vote-${VOTES.indexOf(vote) + 1}`);
  tally.note('idea votes', votes.length, VOTES.length - votes.length, 'cast for customers by their CRM ids');

  const comments = COMMENTS.filter((comment) => isNew(comment.idea));
  for (const { idea, ...comment } of comments)
    await api.post(`/ideas/${ideaId(idea)}/comments`, comment, `comment-${COMMENTS.findIndex((c) => c.body === comment.body) + 1}`);
  tally.note('idea comments', comments.length, COMMENTS.length - comments.length, "an agent's internal note, a customer's public one");

  const { idea, voter, into } = DUPLICATE_IDEA;
  const duplicate = found.get(idea.title);
  if (duplicate) {
    tally.compare(`idea "${idea.title}"`, { ...idea, mergedInto: ideaId(into) }, duplicate);
    tally.note('merged ideas', 0, 1);
    return;
  }
  const created = await createIdea(api, idea, IDEAS.length + 1);
  await castVote(api, created.id, { voter, importance: 'important' }, 'vote-duplicate');
  await api.send('POST', `/ideas/${created.id}/merge`, { body: { into: ideaId(into) }, ifMatch: `"${created.version}"` });
  tally.note('merged ideas', 1, 0, `"${idea.title}" into "${into}", with its voter`);
}

async function createIdea(api: DemoApi, idea: DemoIdea, n: number): Promise<IdeaRecord> {
  const body = { ...idea, submitter: { name: 'Demo customer', externalId: `demo-idea-${n}` } };
  return (await api.post<{ data: IdeaRecord }>('/ideas', body, `idea-${n}`)).body.data;
}

function castVote(api: DemoApi, ideaId: string, vote: Pick<DemoVote, 'voter' | 'importance' | 'note'>, idempotencyKey: string) {
  const body = { voter: { externalId: vote.voter }, importance: vote.importance, ...(vote.note ? { note: vote.note } : {}) };
  return api.post(`/ideas/${ideaId}/votes`, body, idempotencyKey);
}

interface Directory {
  people: { id: string; name: string; email: string; active: boolean }[];
  teams: { id: string; name: string; active: boolean }[];
}

/**
 * The SOP directory, imported (as `cxctl directory import` does) only into a workspace that has
 * none: an import marks everyone it does not list inactive, which would undo someone's real one.
 * A directory the demo imported is compared with the data set; one of the workspace's own, holding
 * none of the demo's people and teams, is not the demo's to judge.
 */
async function directoryFor(api: DemoApi, store: TableClient, tally: Tally): Promise<Directory> {
  const current = (await api.get<Directory>('/sops/directory')).body;
  if (current.people.length > 0 || current.teams.length > 0) {
    const people = DIRECTORY.people.map((entry) => ({ entry, found: current.people.find((p) => p.email === entry.email) }));
    const teams = DIRECTORY.teams.map((entry) => ({ entry, found: current.teams.find((t) => t.name === entry.name) }));
    if ([...people, ...teams].some(({ found }) => found)) {
      for (const { entry, found } of [...people, ...teams]) tally.compare(`SOP directory: ${entry.name}`, entry, found);
    }
    return current;
  }
  await importDirectory(store, api.workspace, parseDirectoryImport(DIRECTORY));
  tally.changed++;
  return (await api.get<Directory>('/sops/directory')).body;
}

/**
 * The body the demo writes for an SOP. To create one it references only active entries (an inactive
 * one is refused); to compare, the entries it referenced, active or not any more.
 */
function sopBody(sop: DemoSop, directory: Directory, withFeedbackStep: boolean, activeOnly = true) {
  const usable = (entry: { active: boolean }) => entry.active || !activeOnly;
  const team = directory.teams.find((t) => usable(t) && t.name === sop.team);
  const person = directory.people.find((p) => usable(p) && p.name === sop.escalateTo);
  const steps = withFeedbackStep && sop.sendBack ? [...sop.steps, sop.sendBack.stepAfterFeedback] : sop.steps;
  return {
    titleEn: sop.titleEn,
    titleAr: sop.titleAr,
    type: sop.type,
    descriptionEn: sop.descriptionEn,
    descriptionAr: sop.descriptionAr,
    steps,
    ...(team ? { departmentId: team.id } : {}),
    // A workspace whose own directory lacks the demo's people gets a legacy role reference instead.
    ...(sop.escalateTo ? { escalationLevel1: person ? person.id : `role:${sop.escalateTo}` } : {}),
  };
}

interface SopRecord {
  id: string;
  status: 'draft' | 'under_review' | 'published';
  titleEn: string | null;
  steps: { titleEn: string | null }[];
}

/** Draft → review (→ sent back with feedback → edited → review again) → published. */
async function publishSop(api: DemoApi, sop: DemoSop, record: SopRecord, directory: Directory): Promise<void> {
  let status = record.status;
  const hasFeedbackStep = (r: SopRecord) => r.steps.some((s) => s.titleEn === sop.sendBack?.stepAfterFeedback.titleEn);
  if (status === 'draft' && sop.sendBack && !hasFeedbackStep(record)) {
    await api.post(`/sops/${record.id}/submit`);
    await api.post(`/sops/${record.id}/send-back`, { feedback: sop.sendBack.feedback });
    await api.send('PUT', `/sops/${record.id}`, { body: sopBody(sop, directory, true) });
  }
  if (status === 'draft') {
    await api.post(`/sops/${record.id}/submit`);
    status = 'under_review';
  }
  if (status === 'under_review') await api.post(`/sops/${record.id}/approve`);
}

export async function seedSops(api: DemoApi, store: TableClient, tally: Tally): Promise<void> {
  const directory = await directoryFor(api, store, tally);
  const sops = (await api.get<{ sops: SopRecord[] }>('/sops')).body.sops;
  let created = 0;
  for (const sop of SOPS) {
    const record = sops.find((s) => s.titleEn === sop.titleEn);
    if (!record) {
      await publishSop(api, sop, (await api.post<{ sop: SopRecord }>('/sops', sopBody(sop, directory, false))).body.sop, directory);
      created++;
      continue;
    }
    // One a run that stopped half-way left in draft or review is taken on while its content is the demo's own.
    const halfWay =
      record.status !== 'published' &&
      [false, true].some((withFeedbackStep) => differencesFrom(sopBody(sop, directory, withFeedbackStep, false), record).length === 0);
    if (!halfWay) {
      tally.compare(`SOP "${sop.titleEn}"`, { ...sopBody(sop, directory, true, false), status: 'published' }, record);
      continue;
    }
    await publishSop(api, sop, record, directory);
    tally.changed++;
  }
  tally.note('SOPs', created, SOPS.length - created, 'published after review, one sent back once');
}

/** The webhook, disabled until its receiver runs (enabling sends a verification first). Its secret, when new. */
export async function seedWebhook(api: DemoApi, tally: Tally): Promise<{ id: string; secret: string | null }> {
  const webhooks = (await api.get<{ webhooks: { id: string; name: string; url: string; events: string[] }[] }>('/webhooks')).body.webhooks;
  const found = webhooks.find((w) => w.name === WEBHOOK.name);
  if (found) {
    // Enabled or not is the receiver's business: the demo makes it disabled and says how to enable it.
    tally.compare(`webhook "${WEBHOOK.name}"`, { url: WEBHOOK.url, events: WEBHOOK.events }, found);
    tally.note('webhook', 0, 1, WEBHOOK.url);
    return { id: found.id, secret: null };
  }
  const { webhook } = (await api.post<{ webhook: { id: string; secret: string } }>('/webhooks', WEBHOOK, 'webhook')).body;
  tally.note('webhook', 1, 0, `${WEBHOOK.url}, disabled until the receiver runs`);
  return { id: webhook.id, secret: webhook.secret };
}
