import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from './load-config';

/** What the admin CLI needs: where the API is and the owner key. */
export interface CliConfig {
  apiUrl: string;
  ownerKey: string;
}

/**
 * The admin CLI's configuration: `--url` / `ADMIN_API_URL` (default http://localhost:$PORT), `--key` /
 * `OWNER_API_KEY`, else the key the embedded mode generated under DATA_DIR.
 */
export function loadCliConfig(
  env: Record<string, string | undefined>,
  flags: { url?: string; key?: string },
  cwd = process.cwd(),
): CliConfig {
  const apiUrl = (flags.url ?? env.ADMIN_API_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/+$/, '');
  if (!URL.canParse(apiUrl) || !/^https?:$/.test(new URL(apiUrl).protocol))
    throw new ConfigError(`admin: API URL "${apiUrl}" is not an http(s) URL`);
  let ownerKey = flags.key ?? env.OWNER_API_KEY;
  if (!ownerKey) {
    const dataDir = env.DATA_DIR ?? './data';
    const file = join(isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir), 'owner-api-key');
    if (existsSync(file)) ownerKey = readFileSync(file, 'utf8').trim();
  }
  if (!ownerKey) throw new ConfigError('admin: no owner key: pass --key, set OWNER_API_KEY, or run where DATA_DIR holds owner-api-key');
  return { apiUrl, ownerKey };
}

/** The one place the CLI reads `process.env`. */
export const loadCliConfigFromProcess = (flags: { url?: string; key?: string }): CliConfig => loadCliConfig(process.env, flags);
