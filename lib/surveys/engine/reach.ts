/**
 * Which questions and endings some respondent can reach. The definition is walked once, front to
 * back, carrying the situations ("worlds": what is known about earlier answers) that can arrive at
 * each question. A question is shown in a world where its `visibleIf` can hold; each route splits
 * the worlds into those that take it and those that fall through. Too many worlds are merged into
 * what they have in common, which only ever adds situations: a question reported unreachable is
 * unreachable, while some reported reachable may need answers no one can give (no false warnings).
 */
import { type Compiled, compareLeaf, joinTerms, type Leaf, presenceLeaf, type Term, toTerms } from './conditions.ts';
import type { CompiledQuestion, SurveyModel } from './model.ts';

interface QuestionReach {
  /** Some path arrives at its position (not jumped over on every path). */
  arrives: boolean;
  /** Some path shows it. */
  shown: boolean;
  /** Some path arrives with its `visibleIf` false. */
  hiddenByVisibility: boolean;
  /** Some path arrives with it visible but its option filter leaving no options. */
  emptiedByFilter: boolean;
}

export interface Reachability {
  questions: QuestionReach[];
  endings: Set<string>;
}

const MAX_WORLDS = 16;

export function analyseReach(model: SurveyModel): Reachability {
  const { questions, fits, referenced } = model;
  const count = questions.length;
  const incoming: Term[][] = Array.from({ length: count + 1 }, () => []);
  incoming[0]?.push([]);
  const reach: QuestionReach[] = questions.map(() => ({ arrives: false, shown: false, hiddenByVisibility: false, emptiedByFilter: false }));
  const endings = new Set<string>();
  const termsCache = new Map<Compiled, { holds: Term[]; fails: Term[] }>();
  const termsOf = (condition: Compiled) => {
    let cached = termsCache.get(condition);
    if (!cached) {
      cached = { holds: toTerms(condition, false, fits), fails: toTerms(condition, true, fits) };
      termsCache.set(condition, cached);
    }
    return cached;
  };
  // One term per subject and presence, made once: marking is the most frequent join.
  const presence = {
    answered: questions.map((_, subject): Term => [presenceLeaf(subject, 'answered')]),
    skipped: questions.map((_, subject): Term => [presenceLeaf(subject, 'skipped')]),
  };
  const mark = (world: Term, subject: number, test: 'answered' | 'skipped'): Term | undefined =>
    referenced.has(subject) ? joinTerms(world, presence[test][subject] as Term, fits) : world;
  const jumpOver = (world: Term, from: number, to: number): Term | undefined => {
    let result: Term | undefined = world;
    for (let i = from; i < to && result; i++) result = mark(result, i, 'skipped');
    return result;
  };

  const lastRead = lastReadBy(model);
  for (let index = 0; index < count; index++) {
    const worlds = narrow(forget(incoming[index] ?? [], lastRead, index));
    incoming[index] = [];
    if (worlds.length === 0) continue;
    const state = reach[index] as QuestionReach;
    state.arrives = true;
    const compiled = questions[index] as CompiledQuestion;
    const visibility = termsOf(compiled.visibleIf);
    const next = incoming[index + 1] as Term[];

    for (const world of worlds) {
      for (const term of visibility.fails) {
        const hidden = joinTerms(world, term, fits);
        if (!hidden) continue;
        state.hiddenByVisibility = true;
        const after = mark(hidden, index, 'skipped');
        if (after) next.push(after);
      }
      for (const term of visibility.holds) {
        const visible = joinTerms(world, term, fits);
        if (!visible) continue;
        for (const emptied of filterEmptiedWorlds(model, compiled, visible)) {
          state.emptiedByFilter = true;
          const after = mark(emptied, index, 'skipped');
          if (after) next.push(after);
        }
        const answers = compiled.question.type === 'statement' ? 'skipped' : compiled.question.required ? 'answered' : undefined;
        const shown = answers ? mark(visible, index, answers) : visible;
        if (!shown) continue;
        state.shown = true;

        let fallThrough: Term[] = [shown];
        for (const route of compiled.routes) {
          const when = termsOf(route.when);
          const remaining: Term[] = [];
          for (const current of fallThrough) {
            for (const term of when.holds) {
              const taken = joinTerms(current, term, fits);
              if (!taken) continue;
              if ('ending' in route.target) endings.add(route.target.ending);
              else {
                const landed = jumpOver(taken, index + 1, route.target.question);
                if (landed) incoming[route.target.question]?.push(landed);
              }
            }
            for (const term of when.fails) {
              const passed = joinTerms(current, term, fits);
              if (passed) remaining.push(passed);
            }
          }
          fallThrough = narrow(remaining);
          if (fallThrough.length === 0) break;
        }
        next.push(...fallThrough);
      }
    }
  }
  const first = model.endingIds[0];
  if ((incoming[count]?.length ?? 0) > 0 && first !== undefined) endings.add(first);
  return { questions: reach, endings };
}

/** Worlds (refinements of `visible`) in which the question's option filter leaves it no options. */
function filterEmptiedWorlds(model: SurveyModel, compiled: CompiledQuestion, visible: Term): Term[] {
  const filter = compiled.filter;
  if (!filter) return [];
  const { fits } = model;
  const source = filter.source;
  const sourceFit = fits[source];
  if (!sourceFit || (sourceFit.kind !== 'single' && sourceFit.kind !== 'multi')) return [];
  const targetIds = compiled.optionIds;
  const sourceOptions = sourceFit.options;
  const worlds: (Term | undefined)[] = [];
  if (filter.mode === 'selected') {
    // Nothing chosen in the source, or only options this question does not have.
    worlds.push(joinTerms(visible, [presenceLeaf(source, 'skipped')], fits));
    if (sourceFit.kind === 'single') {
      for (const option of sourceOptions) {
        if (!targetIds.includes(option)) worlds.push(joinTerms(visible, [compareLeaf(source, 'equals', option)], fits));
      }
    } else {
      const shared = targetIds.filter((id) => sourceOptions.includes(id));
      worlds.push(joinTerms(visible, [presenceLeaf(source, 'answered'), compareLeaf(source, 'excludesAll', shared)], fits));
    }
  } else if (targetIds.length > 0 && targetIds.every((id) => sourceOptions.includes(id))) {
    // Every option of this question was chosen in the source.
    if (sourceFit.kind === 'multi') worlds.push(joinTerms(visible, [compareLeaf(source, 'includesAll', targetIds)], fits));
    else if (targetIds.length === 1) worlds.push(joinTerms(visible, [compareLeaf(source, 'equals', targetIds[0] as string)], fits));
  }
  return worlds.filter((world): world is Term => world !== undefined);
}

/** Position of the last question whose conditions or option filter read each question. */
function lastReadBy(model: SurveyModel): number[] {
  const lastRead = model.questions.map(() => -1);
  const visit = (condition: Compiled, at: number): void => {
    if (condition.kind === 'leaf') lastRead[condition.leaf.subject] = Math.max(lastRead[condition.leaf.subject] ?? -1, at);
    else if (condition.kind === 'all' || condition.kind === 'any') for (const child of condition.children) visit(child, at);
  };
  model.questions.forEach((compiled, at) => {
    visit(compiled.visibleIf, at);
    for (const route of compiled.routes) visit(route.when, at);
    if (compiled.filter) lastRead[compiled.filter.source] = Math.max(lastRead[compiled.filter.source] ?? -1, at);
  });
  return lastRead;
}

/**
 * Drops what worlds know about questions nothing from `index` on reads: fewer facts (still a
 * sound over-approximation) and far fewer distinct worlds to carry.
 */
function forget(worlds: Term[], lastRead: readonly number[], index: number): Term[] {
  return worlds.map((world) =>
    world.some((leaf) => (lastRead[leaf.subject] ?? -1) < index) ? world.filter((leaf) => (lastRead[leaf.subject] ?? -1) >= index) : world,
  );
}

/** Worlds are sorted by leaf key (see joinTerms), so equal worlds have equal leaves in order. */
function sameWorld(a: Term, b: Term): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if ((a[i] as Leaf).key !== (b[i] as Leaf).key) return false;
  return true;
}

/**
 * Removes repeated worlds (compared in place: there are few, and this runs for every question);
 * beyond MAX_WORLDS, merges them into the facts all of them share.
 */
function narrow(worlds: Term[]): Term[] {
  if (worlds.length <= 1) return worlds;
  const unique: Term[] = [];
  for (const world of worlds) if (!unique.some((known) => sameWorld(known, world))) unique.push(world);
  if (unique.length <= MAX_WORLDS) return unique;
  const shared = unique
    .slice(1)
    .reduce((common, world) => common.filter((leaf) => world.some((other) => other.key === leaf.key)), unique[0] as Term);
  return [shared];
}
