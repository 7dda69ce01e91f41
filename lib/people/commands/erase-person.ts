/**
 * POST /people/erase: a person's data erased in every area that keeps any, by asking each area's own
 * command (its stores are its own): the survey responses (lib/surveys/commands/erase-respondent.ts, once
 * per identifier, as that operation takes one) and what ideas keep (votes, comments, submitted ideas:
 * lib/ideas/commands/erase-person-ideas.ts). Each part is bounded per call; `hasMore` is any part's.
 */
import { erasePersonIdeas } from '../../ideas/commands/erase-person-ideas.ts';
import type { PersonIdentity } from '../../ideas/people.ts';
import { eraseRespondent } from '../../surveys/commands/erase-respondent.ts';
import type { Erased, PersonIdentifiers } from '../schemas.ts';

/** Records of each kind erased per call at most (as the survey erasure's 1,000). */
const BUDGET = 1000;

export async function erasePerson(workspace: string, who: PersonIdentifiers): Promise<{ erased: Erased; hasMore: boolean }> {
  const identities: PersonIdentity[] = [
    ...(who.externalId === undefined ? [] : [{ externalId: who.externalId }]),
    ...(who.email === undefined ? [] : [{ email: who.email }]),
  ];
  const responses = await Promise.all(identities.map((identity) => eraseRespondent(workspace, identity)));
  const ideas = await erasePersonIdeas(workspace, identities, BUDGET);
  return {
    erased: {
      surveyResponses: responses.reduce((sum, part) => sum + part.erased, 0),
      ideaVotes: ideas.ideaVotes,
      ideaComments: ideas.ideaComments,
      ideas: ideas.ideas,
    },
    hasMore: ideas.hasMore || responses.some((part) => part.hasMore),
  };
}
