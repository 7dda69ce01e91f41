/** The catalog targeting rules are checked against (GetItem). */
export { listAudienceAttributes } from '../store/audience.ts';
