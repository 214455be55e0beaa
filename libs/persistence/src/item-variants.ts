import type { Availability } from './item-catalogue';

/**
 * The files and measures one build made for a variant: the engine's `VariantBuild` record (libs/plugins) as
 * a job result holds it, with the job that holds the files. Stored keys, never URLs.
 */
export interface VariantFiles {
  job_id: string;
  files: Record<'glb' | 'usdz' | 'poster', { key: string; bytes: number; content_type: string }>;
  dimensions: Record<string, unknown>;
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  fit?: Record<string, unknown>;
  placement?: unknown;
  allow_scaling?: unknown;
  finish?: unknown;
  frame?: unknown;
  mat?: unknown;
}

/** A failed build of one variant (its previous files, if any, keep serving). */
export interface VariantError {
  code: string;
  message: string;
  job_id: string;
  at: string;
}

/**
 * One size/frame an item is sold in, as the item row keeps it (the `variants` jsonb array). `spec` is what its
 * files are built from (a picture job input's size and look fields, in inches); `sent` echoes the request's
 * own fields (e.g. width_cm) for the API. `built` is set once a variant build job made its files; until then
 * a variant built with the item reads them from the item job's result (the default: its main files).
 */
export interface StoredVariant {
  id: string;
  sku: string;
  name: string;
  default: boolean;
  price: string | null;
  link_url: string | null;
  call_to_action: string | null;
  availability: Availability;
  sent: Record<string, unknown>;
  spec: Record<string, unknown>;
  built: VariantFiles | null;
  /** Built with the item as its main files (the item job's own `files`), not as one of its `result.variants`. */
  main: boolean;
  pending_job_id: string | null;
  error: VariantError | null;
}

/** A variant as the item shows it: its stored fields and the files that serve it now (null: none yet). */
export interface ItemVariant extends Omit<StoredVariant, 'built'> {
  build: VariantFiles | null;
}

/** The fields of a picture result a variant's build replaces on the item (the default variant's). */
const PICTURE_FIELDS = ['files', 'dimensions', 'outer_dimensions', 'fit', 'placement', 'allow_scaling', 'finish', 'frame', 'mat'] as const;

/**
 * Each stored variant with the files that serve it: its own build, else (built with the item) the item job's
 * result — the default variant's are the main files, the others `result.variants[]` by id.
 *
 * @example
 * resolveVariants(stored, itemJob.result, itemJob.id)[0].build?.files.glb.key // 'models/v2_.../model.glb'
 */
export function resolveVariants(stored: StoredVariant[], result: Record<string, unknown> | null, itemJobId: string): ItemVariant[] {
  const built = Array.isArray(result?.variants) ? (result.variants as Record<string, unknown>[]) : [];
  return stored.map(({ built: own, ...v }) => {
    let build: VariantFiles | null = own;
    if (!build && result) {
      const r = v.main ? result : built.find((b) => b.id === v.id);
      if (r?.files) build = pick(r, itemJobId);
    }
    return { ...v, build };
  });
}

function pick(r: Record<string, unknown>, jobId: string): VariantFiles {
  const out: Record<string, unknown> = { job_id: jobId };
  for (const k of PICTURE_FIELDS) if (r[k] !== undefined) out[k] = r[k];
  return out as unknown as VariantFiles;
}

/** The variant shown first: the one marked default, else the first. */
export function defaultVariant<T extends Pick<StoredVariant, 'default'>>(variants: readonly T[]): T | undefined {
  return variants.find((v) => v.default) ?? variants[0];
}

/**
 * The item's result as its pages show it when it has variants: the default variant's files, size and look, and
 * its price, link and call to action in the banner. Unchanged without variants or while the default has no files.
 */
export function withDefaultVariant(result: Record<string, unknown> | null, variants: ItemVariant[] | null): Record<string, unknown> | null {
  const d = variants?.length ? defaultVariant(variants) : undefined;
  if (!result || !d) return result;
  const out: Record<string, unknown> = { ...result };
  if (d.build) for (const k of PICTURE_FIELDS) if (d.build[k] !== undefined) out[k] = d.build[k];
  const banner = { ...((result.banner as Record<string, unknown> | null | undefined) ?? {}) };
  if (d.price !== null) banner.price = d.price;
  if (d.link_url !== null) banner.link_url = d.link_url;
  if (d.call_to_action !== null) banner.call_to_action = d.call_to_action;
  out.banner = banner;
  return out;
}

/** Jobs whose files serve some variant (or are being built for one), besides the item's own job. */
export function variantJobIds(stored: readonly StoredVariant[] | null, itemJobId: string): string[] {
  const ids = new Set<string>();
  for (const v of stored ?? []) {
    if (v.built && v.built.job_id !== itemJobId) ids.add(v.built.job_id);
    if (v.pending_job_id) ids.add(v.pending_job_id);
  }
  return [...ids];
}
