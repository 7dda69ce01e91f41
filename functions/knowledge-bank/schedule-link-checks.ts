/**
 * The daily link check (an EventBridge rule; CDK context `linkCheckSchedule` sets how often):
 * queues one check per workspace that has published articles.
 */
import { scheduleLinkChecks } from '../../lib/knowledge-bank/commands/schedule-link-checks.ts';

export const handler = scheduleLinkChecks;
