import { z } from 'zod';

/** An id as the database makes them: a UUID (8-4-4-4-12 hex digits, any version). */
export const ZId = z.guid();

/** Whether a value from a body or a list (not a path, which ZIdParam checks) can be an id at all. */
export const isId = (value: unknown): value is string => ZId.safeParse(value).success;

/**
 * A path parameter that names one thing by its id, validated once here. A malformed id names
 * nothing, so the API answers it like an unknown one: 404 with `notFoundMessage` (the errors
 * plugin turns an id-format failure in the path into NOT_FOUND), never a 400.
 */
export const ZIdParam = <K extends string = 'id'>(notFoundMessage: string, key: K = 'id' as K) =>
  z.object({ [key]: z.guid({ error: notFoundMessage }) } as { [P in K]: z.ZodGUID });
