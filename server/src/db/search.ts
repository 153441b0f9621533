/** An ILIKE pattern for "contains", with LIKE wildcards escaped so a search for "50%" finds that text. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
