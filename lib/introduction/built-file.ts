/** Files the build writes beside a function, served as they are. */
import { readFile } from 'node:fs/promises';

/**
 * A reader of the file at `path()`: read once per cold start, on the first request; a failed read
 * is forgotten, so the next request tries again.
 */
export function builtFile(path: () => string): () => Promise<string> {
  let content: Promise<string> | undefined;
  return () =>
    (content ??= readFile(path(), 'utf8').catch((error: unknown) => {
      content = undefined;
      throw error;
    }));
}
