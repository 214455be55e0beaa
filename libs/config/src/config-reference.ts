import { z } from 'zod';
import { envSchema } from './config.schema';

interface JsonProperty {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  format?: string;
  minLength?: number;
  description?: string;
}

/** What a variable accepts, from its schema: a range, a list of values, a URL, any text. */
function accepts(p: JsonProperty): string {
  if (p.enum) {
    const values = p.enum.join(', ');
    return p.enum.includes('true') ? 'true / false (also 1 / 0, yes / no)' : `one of ${values}`;
  }
  if (p.type === 'integer' || p.type === 'number') {
    const kind = p.type === 'integer' ? 'integer' : 'number';
    if (p.minimum !== undefined && p.maximum !== undefined) return `${kind} ${p.minimum}–${p.maximum}`;
    if (p.minimum !== undefined) return `${kind} ≥ ${p.minimum}`;
    return kind;
  }
  if (p.format === 'uri') return 'URL';
  if (p.minLength && p.minLength > 1) return `text, ≥ ${p.minLength} characters`;
  return 'text';
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * docs/configuration.md, written from the schema itself: each variable's default (what an empty
 * environment parses to), what it accepts (its checks) and its meaning (its `.describe()`), in the
 * schema's order. `npm run docs:config` writes it; a unit test fails when the file is stale.
 *
 * @example
 * ```ts
 * writeFileSync('docs/configuration.md', configReference());
 * ```
 */
export function configReference(): string {
  const json = z.toJSONSchema(envSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, JsonProperty> };
  const defaults = envSchema.parse({}) as Record<string, unknown>;
  const rows = Object.entries(json.properties).map(([name, p]) => {
    const d = defaults[name];
    const def = d === undefined ? '—' : `\`${String(d)}\``;
    return `| ${name} | ${def} | ${cell(accepts(p))} | ${cell(p.description ?? '')} |`;
  });
  return [
    '# Configuration reference',
    '',
    '<!-- Generated from libs/config/src/config.schema.ts by `npm run docs:config`; do not edit by hand. -->',
    '',
    'Environment variables, parsed once at start by `libs/config`, validated, typed and frozen: a bad value stops',
    'the start with a message naming every problem, and nothing else reads the environment. Plugins, pipeline',
    'routes, pricing, storage modules and hosted motion models are set in the JSON file named by `CONFIG_FILE`',
    '([plugins.md](plugins.md), [providers.md](providers.md)).',
    '',
    '| Variable | Default | Accepts | Meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
