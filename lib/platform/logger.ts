import { Logger } from '@aws-lambda-powertools/logger';

/** One structured logger per instance. Never log request bodies: they may hold personal data. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'cx-portal-api' });
