/** A Lambda handler for event-source-mapping tests: it does whatever the running test put on globalThis. */
export const handler = async (event: unknown) =>
  (globalThis as unknown as { eventSourceProbe: (event: unknown) => Promise<unknown> }).eventSourceProbe(event);
