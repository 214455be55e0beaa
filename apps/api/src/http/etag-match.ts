/**
 * Whether an `If-None-Match` header names `etag` (one of a comma-separated list): the client's copy is current,
 * answer 304.
 *
 * @example
 * if (etagMatches(req.headers['if-none-match'], stat.etag)) return reply.status(304).send();
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  return (
    ifNoneMatch !== undefined &&
    ifNoneMatch
      .split(',')
      .map((s) => s.trim())
      .includes(etag)
  );
}
