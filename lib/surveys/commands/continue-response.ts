/**
 * A continuation of a partial response. Its read, rules and retries stay in
 * responses/response-store.ts (`continueResponse`) until the chain checks the route's declared
 * If-Match: the store's hand-written "If-Match required" answer is the chain's to remove.
 */
export { continueResponse } from '../responses/store/response-store.ts';
