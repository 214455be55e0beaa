import type { EntityManager } from 'typeorm';

/**
 * The rows of a statement's RETURNING: TypeORM's Postgres driver answers an UPDATE or DELETE with
 * `[rows, affected]` and other statements with the rows; the PGlite adapter always with the rows.
 */
export function returnedRows(res: unknown): Record<string, any>[] {
  return Array.isArray(res) && Array.isArray(res[0]) ? res[0] : (res as Record<string, any>[]);
}

/** Runs a statement with RETURNING and answers its rows, whatever the driver. */
export async function queryReturning(q: Pick<EntityManager, 'query'>, sql: string, params: unknown[]): Promise<Record<string, any>[]> {
  return returnedRows(await q.query(sql, params));
}

/** A json/jsonb column's value: node-postgres parses it, the PGlite adapter may hand over the text. */
export const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
