/** The sandbox's buckets in fauxqs's S3: local/knowledge-bank.ts and local/survey-exports.ts create them, cxctl finds them. */
export const SANDBOX_BUCKETS = { searchIndex: 'knowledge-bank-search', surveyExports: 'survey-exports' } as const;
