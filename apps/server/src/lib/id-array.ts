/** A PostgreSQL array literal of ids (uuids: no quoting needed), bound as one parameter. */
export const idArray = (ids: readonly string[]) => `{${ids.join(',')}}`;
