/** Deletes up to 1,000 responses of one respondent across the workspace's surveys (responses/respondent-erasure.ts). */
export { eraseRespondent } from '../responses/respondent-erasure.ts';
