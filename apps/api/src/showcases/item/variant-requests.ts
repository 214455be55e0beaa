import { randomId, type StoredVariant } from '@app/persistence';
import { UserError } from '@app/pipeline';
import { parseInput, z } from '@app/schema';
import { parseItemEdit, renditionKey } from './item-edit.schema';
import {
  ItemVariantBody,
  VARIANT_BUILD_FIELDS,
  VARIANT_LOOK_FIELDS,
  variantsField,
  VariantUpdateBody,
  variantUpdatesField,
} from './variants.schema';

/** A variant request resolved into what the item stores: its build spec over the item's, its fields as sent, its commerce fields. */

/** A list field (variants, variant_updates) validated on its own; errors name `param`. */
function listAt(field: typeof variantsField, raw: unknown, param: string): unknown[] | null | undefined {
  const dot = param.lastIndexOf('.');
  const [prefix, key] = dot < 0 ? ['', param] : [param.slice(0, dot + 1), param.slice(dot + 1)];
  return parseInput(z.object({ [key]: field }), { [key]: raw }, { prefix })[key] as unknown[] | null | undefined;
}

const hasOwn = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Job input fields of a picture's size and look (no banner, no source): what a variant's files are built from. */
export function buildSpec(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['width_inches', 'height_inches', 'fit', ...VARIANT_LOOK_FIELDS]) if (input[k] != null) out[k] = input[k];
  return out;
}

/**
 * The job input of an item with variants: the item's own fields (banner, source...) with the size and look of
 * its main variant (the default), whose files the item's job makes as its main files.
 */
export function mainVariantInput<T extends Record<string, unknown>>(itemInput: T, variants: readonly StoredVariant[]): T {
  const main = variants.find((v) => v.main) ?? variants[0];
  const out: Record<string, unknown> = { ...itemInput };
  for (const k of ['width_inches', 'height_inches', 'fit', ...VARIANT_LOOK_FIELDS]) delete out[k];
  return { ...out, ...main.spec } as T;
}

/** Whether two specs build the same files. */
export const sameBuild = (a: Record<string, unknown>, b: Record<string, unknown>): boolean => renditionKey(a) === renditionKey(b);

/**
 * One variant entry validated and resolved over `base` (the job input fields it differs from: the item's on
 * create, its current spec when edited): its build spec, the fields as sent, and its commerce fields.
 */
function resolveEntry(
  entry: unknown,
  prefix: string,
  base: Record<string, unknown>,
  schema: typeof ItemVariantBody,
  current?: StoredVariant,
  /** A new variant's price, link and call to action when it gives none: the item's own. */
  inherited: Record<string, unknown> = {},
): StoredVariant {
  const v = parseInput(schema, entry, { prefix }) as Record<string, unknown>;
  const sent = entry as Record<string, unknown>;
  const has = (k: string) => hasOwn(sent, k);
  const look: Record<string, unknown> = {};
  for (const k of VARIANT_BUILD_FIELDS) if (has(k)) look[k] = sent[k];
  // The size and look are an edit of the base: the same merge and checks as a PATCH of the item.
  const edit = Object.keys(look).length
    ? parseItemEdit(look, { label: {}, banner: {}, latestInput: base }, prefix).presentation
    : undefined;
  const spec = buildSpec(edit ?? base);
  const take = <T>(k: string, parsed: T, fallback: T): T => (has(k) ? parsed : fallback);
  const own = (k: 'price' | 'link_url' | 'call_to_action') => take(k, text(v[k]), current ? current[k] : text(inherited[k]));
  const link = own('link_url');
  return {
    id: current?.id ?? randomId('var'),
    sku: v.sku as string,
    name: take('name', text(v.name), current?.name ?? '') ?? '',
    default: v.default === true,
    price: own('price'),
    link_url: link,
    // A call to action leads to a link: none without one.
    call_to_action: link === null ? null : own('call_to_action'),
    availability: take(
      'availability',
      (v.availability as StoredVariant['availability'] | null) ?? 'available',
      current?.availability ?? 'available',
    ),
    sent: { ...(current?.sent ?? {}), ...Object.fromEntries(Object.entries(look).filter(([, x]) => x != null)) },
    spec,
    built: current?.built ?? null,
    main: current?.main ?? false,
    pending_job_id: current?.pending_job_id ?? null,
    error: current?.error ?? null,
  };
}

/** Exactly one default (the one marked, else the first), SKUs unique; errors name `param[i]`. */
function settleDefaults(list: StoredVariant[], param: string): StoredVariant[] {
  const seen = new Map<string, number>();
  list.forEach((v, i) => {
    const first = seen.get(v.sku);
    if (first !== undefined)
      throw new UserError('parameter_invalid', `${param}[${i}].sku: ${v.sku} is also ${param}[${first}]'s`, {
        param: `${param}[${i}].sku`,
      });
    seen.set(v.sku, i);
  });
  const marked = list.filter((v) => v.default);
  if (marked.length > 1) {
    const i = list.indexOf(marked[1]);
    throw new UserError('parameter_invalid', `${param}[${i}].default: only one variant can be the default`, {
      param: `${param}[${i}].default`,
    });
  }
  const d = marked[0] ?? list[0];
  return list.map((v) => ({ ...v, default: v === d }));
}

/**
 * The variants of a new item: each entry over the item's own job input fields (`itemInput`: its size and look
 * over the showcase's defaults). The default one is built as the item's main files (`main`).
 *
 * @example
 * parseNewVariants([{ sku: 'A3', width_cm: 29.7, height_cm: 42 }, { sku: 'B2-OAK', width_cm: 50, height_cm: 70, frame: 'classic' }], input, 'items[0].variants')
 */
export function parseNewVariants(raw: unknown, itemInput: Record<string, unknown>, param: string): StoredVariant[] | undefined {
  const list = listAt(variantsField, raw, param);
  if (!list?.length) return undefined;
  const out = settleDefaults(
    list.map((e, i) => resolveEntry(e, `${param}[${i}]`, itemInput, ItemVariantBody, undefined, itemInput)),
    param,
  );
  return out.map((v) => ({ ...v, main: v.default }));
}

/**
 * A PATCH's variants over the item's: `variants` replaces the list (an entry whose SKU the item has is merged
 * over that variant, a new one over the default variant, one left out is removed); `variant_updates` edits
 * some by SKU (an unknown SKU is a 400). `base`: the job input the item's files were made from (the base of
 * the first variants of an item that had none).
 */
export function parseVariantEdit(
  body: { variants?: unknown; variant_updates?: unknown },
  current: StoredVariant[] | null,
  base: Record<string, unknown>,
  prefix = '',
): StoredVariant[] | null | undefined {
  const have = current ?? [];
  const bySku = new Map(have.map((v) => [v.sku, v]));
  const def = have.find((v) => v.default);
  let next: StoredVariant[] | null | undefined;
  if (hasOwn(body, 'variants')) {
    const list = listAt(variantsField, body.variants, `${prefix}variants`);
    if (!list?.length) next = null;
    else {
      const entries = list.map((e, i) => {
        const sku = (e as { sku?: unknown } | null)?.sku;
        const cur = typeof sku === 'string' ? bySku.get(sku.trim()) : undefined;
        return resolveEntry(e, `${prefix}variants[${i}]`, cur?.spec ?? def?.spec ?? buildSpec(base), ItemVariantBody, cur, base);
      });
      // No default marked: the one that was stays, if kept.
      if (!entries.some((v) => v.default) && def) for (const v of entries) v.default = v.id === def.id;
      next = settleDefaults(entries, `${prefix}variants`);
    }
  }
  if (hasOwn(body, 'variant_updates')) {
    const updates = listAt(variantUpdatesField, body.variant_updates, `${prefix}variant_updates`) ?? [];
    let list = next === undefined ? have.map((v) => ({ ...v })) : [...(next ?? [])];
    updates.forEach((e, i) => {
      const entryAt = `${prefix}variant_updates[${i}]`;
      const sku = (e as { sku?: unknown } | null)?.sku;
      const at = list.findIndex((v) => typeof sku === 'string' && v.sku === sku.trim());
      if (at < 0) {
        parseInput(VariantUpdateBody, e, { prefix: entryAt });
        throw new UserError('parameter_invalid', `${entryAt}.sku: the item has no variant ${String(sku).slice(0, 64)}`, {
          param: `${entryAt}.sku`,
        });
      }
      const updated = resolveEntry(e, entryAt, list[at].spec, VariantUpdateBody, list[at]);
      if (!hasOwn(e as Record<string, unknown>, 'default')) updated.default = list[at].default;
      else if (updated.default) list = list.map((v) => ({ ...v, default: false }));
      list[at] = updated;
    });
    next = settleDefaults(list, `${prefix}variant_updates`);
  }
  return next;
}

/** The variants of `next` whose files must be built: new ones, and those whose size or look changed. */
export function variantsToBuild(next: readonly StoredVariant[], current: readonly StoredVariant[] | null): StoredVariant[] {
  const was = new Map((current ?? []).map((v) => [v.id, v]));
  return next.filter((v) => {
    const old = was.get(v.id);
    if (!old || old.error) return true;
    // A pending build of the same spec is kept; one of another spec is superseded.
    return !sameBuild(old.spec, v.spec);
  });
}
