const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in tracing paths are UUIDs; anything else names nothing (404, never 422). */
export const isUuid = (value: string) => UUID.test(value);
