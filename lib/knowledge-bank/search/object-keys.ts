/** Where a workspace's index lives in the index bucket: everything under its own prefix (store/segments.ts writes there). */
export const SEARCH_INDEX_PREFIX = 'search-index/';

/** Every object of one workspace's index starts with this (cxctl workspace delete removes them). */
export const searchIndexPrefixOf = (workspace: string) => `${SEARCH_INDEX_PREFIX}${workspace}/`;
