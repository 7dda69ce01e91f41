/** One response, where it is stored (404 when nowhere). */
export { getResponse } from '../responses/store/responses.ts';
