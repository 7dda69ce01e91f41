/** What changed from `against` to a version, as lists of ids: both versions in one BatchGetItem, then the pure diff. */
import { decodeJson } from '../codec.ts';
import type { JourneyContent } from '../content.ts';
import { diffContent, type JourneyDiff } from '../diff.ts';
import { versionNotFound } from '../errors.ts';
import { readVersionPair } from '../store/versions.ts';

export async function diffJourneyVersions(
  workspace: string,
  journeyId: string,
  versionId: string,
  againstId: string,
): Promise<JourneyDiff> {
  const [current, against] = await readVersionPair(workspace, journeyId, versionId, againstId);
  if (!current || !against) throw versionNotFound();
  return diffContent(
    decodeJson(current.content as Uint8Array) as JourneyContent,
    decodeJson(against.content as Uint8Array) as JourneyContent,
  );
}
