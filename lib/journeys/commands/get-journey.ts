/** GET a journey: one GetItem, strongly consistent; 404 when the workspace has no such journey. */
export { getJourney } from '../store/journeys.ts';
