/** A LIKE/ILIKE pattern that finds `text` anywhere, with `%`, `_` and `\` typed by a person matched as themselves. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
