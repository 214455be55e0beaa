import { createHash, randomBytes } from 'node:crypto';

/**
 * A visitor's hash for one day and one site: SHA-256 of the day's salt, the IP, the user agent and the site,
 * 128 bits in base64url. The salt is random, kept only in memory (or Redis) and dropped when the day ends, so
 * nobody can recompute a hash from an IP afterwards, and the same person is a new visitor the next day.
 *
 * @example
 * visitorHash(salt, '203.0.113.9', 'Mozilla/5.0 …', 'shw_4kq9x0') // 'p0Vb9…' (22 characters)
 */
export function visitorHash(salt: string, ip: string, userAgent: string, site: string): string {
  return createHash('sha256').update(`${salt}\n${ip}\n${userAgent}\n${site}`).digest('base64url').slice(0, 22);
}

/** A new random salt (256 bits). */
export const newSalt = (): string => randomBytes(32).toString('base64url');

/** The UTC day of a time, `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The referring site's host, lower-cased, `www.` dropped; '' when there is none, it is not http(s), or it is
 * the service's own (`ownHost`: a visitor moving between our pages is not a referral).
 *
 * @example
 * referrerHost('https://www.gallery.example/shop?x=1', 'ar.example.com') // 'gallery.example'
 */
export function referrerHost(referrer: string | undefined, ownHost: string): string {
  if (!referrer || !URL.canParse(referrer)) return '';
  const u = new URL(referrer);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return '';
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  return host === ownHost.toLowerCase().replace(/^www\./, '') ? '' : host.slice(0, 255);
}
