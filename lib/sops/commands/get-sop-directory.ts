/** GET /sops/directory: the people and teams an SOP can reference, inactive ones included, in one Query. */
import { type DirectoryPerson, type DirectoryTeam, listDirectory } from '../store/directory.ts';

export function getSopDirectory(workspace: string): Promise<{ people: DirectoryPerson[]; teams: DirectoryTeam[] }> {
  return listDirectory(workspace);
}
