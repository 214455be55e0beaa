/**
 * User agents that are not people: crawlers, link previewers, monitors, headless browsers and HTTP libraries.
 * Matched case-insensitively anywhere in the user agent; a missing one counts as a bot too.
 */
const BOT =
  /bot\b|bot\/|crawl|spider|slurp|scrape|preview|facebookexternalhit|embedly|headless|phantomjs|puppeteer|playwright|selenium|webdriver|lighthouse|pagespeed|pingdom|uptime|monitor|curl\/|wget\/|python-|go-http|java\/|okhttp|axios|node-fetch|undici|libwww|httpclient|postman|insomnia/i;

/**
 * Whether a user agent is a bot or an automated browser (not counted).
 *
 * @example
 * isBotUserAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)') // true
 * isBotUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36') // true
 * isBotUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1') // false
 */
export function isBotUserAgent(ua: string | undefined): boolean {
  return !ua || ua.length < 10 || BOT.test(ua);
}

/**
 * Whether the visitor asked not to be tracked: `DNT: 1` or Global Privacy Control (`Sec-GPC: 1`).
 *
 * @example
 * optedOut({ dnt: '1' }) // true
 */
export function optedOut(headers: Record<string, string | string[] | undefined>): boolean {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() === '1';
  return one(headers.dnt) || one(headers['sec-gpc']);
}
