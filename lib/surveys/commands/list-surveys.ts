/** A page of listed surveys (archived never), newest first, in one Query (store/surveys.ts). */
export { listSurveys } from '../store/surveys.ts';
