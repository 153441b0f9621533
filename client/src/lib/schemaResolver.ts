import { zod4Resolver } from 'mantine-form-zod-resolver';

/**
 * A form validator from a protocol schema, so forms show the server's messages. The first failed
 * rule names the problem: an empty title fails both "required" and "at least 5", and the user
 * should read "Title is required" (the resolver's default would show the last).
 */
export const schemaResolver = (schema: Parameters<typeof zod4Resolver>[0]) => zod4Resolver(schema, { errorPriority: 'first' });
