import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { PricingPolicy } from '@app/billing';
import type { AppConfig } from '@app/config';
import {
  CatalogueImportRepository,
  type ImportCounts,
  ShopConnectionRepository,
  type ShopConnectionRow,
  ShowcaseItemRepository,
  type ShowcaseItemRow,
  ShowcaseRepository,
  type ShowcaseRow,
} from '@app/persistence';
import { APP_CONFIG, PRICING_POLICY, SERVICE_USER_ID, STORAGE } from '@app/runtime';
import {
  SecretBoxError,
  ShopApiError,
  type ShopifyAdminClient,
  shopifyGid,
  type ShopProduct,
  ShopUnauthorizedError,
  ShopUnavailableError,
  type WooCommerceClient,
  type WooModelMetaUpdate,
} from '@app/shops';
import type { StoragePort } from '@app/storage';
import { PublicUrls } from '@app/wire';
import { ApiError } from '../../http/api-error';
import type { Principal } from '../../http/principal';
import { RealIntake } from '../../imports/import-intake';
import { type CheckedRow, checkRow } from '../../imports/import-rows';
import { ImportRunner } from '../../imports/import-runner.service';
import { ImportSpool } from '../../imports/import-spool';
import { itemView } from '../../showcases/showcase-views';
import { ItemEdits } from '../../showcases/item-edits.service';
import { pictureCents, ShowcasesService } from '../../showcases/showcases.service';
import { type ConnectionClient, ConnectionVault } from '../connection-secrets';
import { hideRow, productExternalId, productRow } from './product-rows';
import { type ArMedia, asMedia, type ItemViewLike, mediaPlan, type MediaWrite, pushPlan, type PushTarget } from './push-plan';

/** What a sync covers: the whole catalogue, or one product (a webhook). */
export type SyncScope = { kind: 'full' } | { kind: 'product'; productId: string };

/** How often a finished import's conversions are looked at before writing back, and for how long at most. */
const SETTLE_POLL_MS = 1000;
const SETTLE_MAX_MS = 60 * 60 * 1000;
/** At shutdown, how long the syncs in flight may take to stop. */
const SHUTDOWN_WAIT_MS = 10_000;

/** An item that stepped aside for its product's new picture (see ConnectionSync.retire). */
interface Replacement {
  externalId: string;
  itemId: number;
}

/** Appended to the external id of an item whose product got a new picture, until the new item is made. */
const RETIRED = '~replaced';

interface RunningSync {
  importId: string;
  done: Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether two picture URLs are the same address (an item keeps its URL as the URL parser writes it). */
function samePicture(stored: string, next: string): boolean {
  try {
    return new URL(stored).href === new URL(next).href;
  } catch {
    return stored === next;
  }
}

/** A stored file's bytes (a GLB: a few megabytes at most). */
async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Syncs a shop connection (issue 41): pulls the shop's published products through the connection's client, maps
 * each to one catalogue-import row (product-rows.ts) and runs them as an import (ImportRunner: the same checks,
 * counts, per-row report, credits and idempotency by `external_id` as `POST /api/v2/showcases/{id}/imports`), hides
 * the items whose products are gone (`not_for_sale`), then, once the import's conversions are done, writes the
 * `image_ar` model back to the shop (only the values that differ from what the shop holds). The import exists
 * from the start, so `POST …/sync` answers its id at once; a sync that fails (shop refusing the key, down after
 * the retries) completes the import with the rows not reached reported skipped and the reason, marks a refused
 * key `unauthorized`, and records the outcome in the connection's `last_sync`.
 */
@Injectable()
export class ConnectionSync implements BeforeApplicationShutdown {
  private readonly log = new Logger('connection-sync');
  /** Full syncs running in this process, by connection id: a second request gets the running one's import. */
  private readonly running = new Map<number, RunningSync>();
  /** Full syncs being started (their import not made yet), by connection id. */
  private readonly starting = new Map<number, Promise<string>>();
  /** Every sync in flight (full and single-product), for tests and shutdown. */
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly connections: ShopConnectionRepository,
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly imports: CatalogueImportRepository,
    private readonly runner: ImportRunner,
    private readonly itemEdits: ItemEdits,
    private readonly showcaseService: ShowcasesService,
    private readonly vault: ConnectionVault,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // A pull stops between products, the wait for conversions at once; a shop request in flight is not waited out.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.whenIdle(), new Promise((r) => (timer = setTimeout(r, SHUTDOWN_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Every sync in flight, done (tests, shutdown). */
  whenIdle(): Promise<unknown> {
    return Promise.all([...this.inFlight].map((p) => p.catch(() => undefined)));
  }

  /** POST /api/v2/connections/{id}/sync: the import the sync runs (a sync already running: its import). */
  async syncNow(p: Principal, id: string): Promise<{ import_id: string }> {
    const c = await this.connections.find(p.userId, id);
    if (!c) throw ApiError.notFound(`connection ${id.slice(0, 40)}`);
    return { import_id: await this.start(c, { kind: 'full' }) };
  }

  /** Full syncs running in this process (the schedule starts more only while there is room). */
  runningCount(): number {
    return this.running.size;
  }

  /**
   * Starts a sync of `c` and answers its import's id once the import exists; the pull, the import and the write
   * back go on in the background. A full sync already running for the connection is answered instead.
   */
  async start(c: ShopConnectionRow, scope: SyncScope): Promise<string> {
    if (scope.kind !== 'full') return this.begin(c, scope);
    const already = this.running.get(c.id);
    if (already) return already.importId;
    // Two requests at once: the second waits for the first's import rather than starting another.
    const starting = this.starting.get(c.id);
    if (starting) return starting;
    const begun = this.begin(c, scope);
    this.starting.set(c.id, begun);
    try {
      return await begun;
    } finally {
      this.starting.delete(c.id);
    }
  }

  private async begin(c: ShopConnectionRow, scope: SyncScope): Promise<string> {
    // Checked before any import exists: credentials sealed with another key cannot sync at all.
    let client: ConnectionClient;
    try {
      client = this.vault.client(c);
    } catch (e) {
      if (e instanceof SecretBoxError)
        throw new ApiError(
          409,
          'conflict',
          'credentials_unreadable',
          `the credentials of connection ${c.publicId} cannot be read with this service's CONNECTIONS_SECRET_KEY; send them again (PATCH)`,
        );
      throw e;
    }
    const showcase = await this.showcases.findForOwner(c.showcaseId, c.ownerId);
    if (!showcase) throw ApiError.notFound(`showcase ${c.showcaseId}`);
    const intake = await RealIntake.open(showcase, c.ownerId, this.imports, this.config.dataDir);
    this.runner.track(intake.importId);
    const startedAt = new Date().toISOString();
    // The connection shows the sync running (and the schedule counts its interval from now).
    if (scope.kind === 'full')
      await this.connections.update(c.id, { lastSync: { at: startedAt, import_id: intake.importId, outcome: 'running' } });
    const done = this.run(c, client, showcase, intake, scope, startedAt).catch((e: unknown) =>
      this.log.error(`connection ${c.publicId}: sync ${intake.importId} failed: ${e instanceof Error ? e.stack : String(e)}`),
    );
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
    if (scope.kind === 'full') {
      this.running.set(c.id, { importId: intake.importId, done });
      void done.finally(() => this.running.delete(c.id));
    }
    this.log.log(
      `connection ${c.publicId}: ${scope.kind === 'full' ? 'sync' : `product ${scope.productId} sync`} started as import ${intake.importId}`,
    );
    return intake.importId;
  }

  private async run(
    c: ShopConnectionRow,
    client: ConnectionClient,
    showcase: ShowcaseRow,
    intake: RealIntake,
    scope: SyncScope,
    startedAt: string,
  ): Promise<void> {
    const importId = intake.importId;
    const targets: PushTarget[] = [];
    const replaced: Replacement[] = [];
    const hidden: string[] = [];
    let counts: ImportCounts;
    try {
      if (scope.kind === 'full' && client.platform === 'shopify') await this.subscribeWebhooks(c, client.client);
      await this.pull(c, client, showcase, intake, scope, targets, replaced, hidden);
      counts = await intake.finish();
      // The shop took the credentials again (the merchant restored the app's access): the connection works.
      if (c.status === 'unauthorized') await this.connections.update(c.id, { status: 'active' });
    } catch (e) {
      await this.fail(c, intake, e, scope, startedAt);
      await this.settleReplacements(c, showcase, replaced);
      return;
    }
    this.runner.start({
      importId,
      ownerId: c.ownerId,
      showcase,
      pictureCents: this.pictureCents(c),
      spoolPath: intake.spoolPath,
      uploads: new Map(),
      counts: { ...counts },
    });
    const settled = await this.settle(importId);
    await this.settleReplacements(c, showcase, replaced);
    let outcome = settled ? 'completed' : 'completed; conversions still running, nothing written back yet';
    if (settled && c.push !== 'none') {
      try {
        const pushed = await this.push(c, client, showcase, targets, hidden);
        if (pushed.failed) outcome = `completed; ${pushed.failed} of ${pushed.written + pushed.failed} write-backs refused by the shop`;
      } catch (e) {
        outcome = `completed; write-back failed: ${this.reason(c, e)}`;
        if (e instanceof ShopUnauthorizedError) await this.connections.markUnauthorized(c.id);
      }
    }
    if (scope.kind === 'full') await this.connections.update(c.id, { lastSync: { at: startedAt, import_id: importId, outcome } });
    this.log.log(`connection ${c.publicId}: sync ${importId} ${outcome}`);
  }

  /**
   * Reads the products (all published ones, or the one a webhook named) into the import: one row each, a problem
   * row for a product without a size (and for each variant left out for want of one), then, after a full pull, a
   * row hiding each item whose product is no longer published (its product id added to `hidden`).
   */
  private async pull(
    c: ShopConnectionRow,
    client: ConnectionClient,
    showcase: ShowcaseRow,
    intake: RealIntake,
    scope: SyncScope,
    targets: PushTarget[],
    replaced: Replacement[],
    hidden: string[],
  ): Promise<void> {
    let row = 0;
    const add = async (value: Record<string, unknown>) => {
      row++;
      await intake.add(checkRow(row, value, showcase.presentationDefaults as never, { files: false, csv: false }));
    };
    const problem = async (field: string, message: string) => {
      row++;
      const checked: CheckedRow = { row, externalId: null, problem: { field, message }, patch: {} };
      await intake.add(checked);
    };
    const settings = { units: c.units, frames: c.frames };
    const hiding = new Set<string>();
    const items = await this.showcaseItems.items(showcase.id);
    const prefix = `${c.platform}:`;
    const live = new Map(items.filter((i) => i.externalId?.startsWith(prefix)).map((i) => [i.externalId!, i]));
    const hide = async (externalId: string) => {
      // Only items still showing: an item already hidden stays as it is (no row every sync).
      const availability = live.get(externalId)?.availability;
      if (availability === undefined || availability === 'not_for_sale' || hiding.has(externalId)) return;
      hiding.add(externalId);
      hidden.push(externalId.slice(prefix.length));
      await add(hideRow(externalId));
    };

    const take = async (p: ShopProduct) => {
      const mapped = productRow(p, settings);
      if (mapped.item) {
        const before = live.get(mapped.externalId);
        if (before?.source === 'url' && before.sourceUrl && !samePicture(before.sourceUrl, String(mapped.item.image_url)))
          await this.retire(c, showcase, before, replaced);
        await add(mapped.item);
        const byId = new Map(p.variants.map((v) => [v.id, v]));
        targets.push({
          productId: p.id,
          current: p.arModel ?? null,
          media: p.arMedia ?? null,
          variants: mapped.variantSkus.map((v) => ({ ...v, current: byId.get(v.variantId)?.arModel ?? null })),
        });
        for (const s of mapped.skipped)
          await problem(
            'variants',
            `size_unknown: ${mapped.externalId} variant ${s.variantId} (${s.sku}) left out: no print size found (saw: ${s.seen.slice(0, 300)})`,
          );
      } else if (mapped.problem) await problem(mapped.problem.field, mapped.problem.message);
    };
    if (scope.kind === 'product') {
      const p = await (client.platform === 'shopify' ? client.client.product(scope.productId) : client.client.product(scope.productId));
      if (!p || p.status !== 'published') await hide(productExternalId(c.platform, scope.productId));
      else await take(p);
      return;
    }
    const seen = new Set<string>();
    const products: AsyncIterable<ShopProduct> = client.platform === 'shopify' ? client.client.products() : client.client.products();
    for await (const p of products) {
      if (this.stopping) throw new ShopApiError(c.platform, 'the service is shutting down; sync again');
      seen.add(productExternalId(c.platform, p.id));
      if (p.status === 'published') await take(p);
    }
    // Another connection of the same platform filling this showcase shares the external id space: its items are not
    // this shop's to hide.
    const siblings = (await this.connections.list(c.ownerId)).filter(
      (o) => o.id !== c.id && o.showcaseId === c.showcaseId && o.platform === c.platform,
    );
    if (siblings.length) return;
    for (const externalId of live.keys()) if (!seen.has(externalId)) await hide(externalId);
  }

  /**
   * A product whose picture changed (its item was made from another image URL): an item's picture cannot be
   * replaced, so the item steps aside (its external id renamed) and the product's row makes a new item, charged
   * as any new picture. Once the import is done the old item is deleted if the new one was made, else (no
   * credits, no room) it takes its external id back and stays as it was. An item that cannot step aside now
   * (converting) is updated as usual; the next sync tries again.
   */
  private async retire(c: ShopConnectionRow, showcase: ShowcaseRow, item: ShowcaseItemRow, replaced: Replacement[]): Promise<void> {
    const externalId = item.externalId!;
    try {
      await this.itemEdits.apply(c.ownerId, showcase, item, { external_id: `${externalId}${RETIRED}` });
      replaced.push({ externalId, itemId: item.id });
    } catch (e) {
      this.log.warn(`connection ${c.publicId}: ${externalId}: new picture left for the next sync: ${(e as Error).message}`);
    }
  }

  private async settleReplacements(c: ShopConnectionRow, showcase: ShowcaseRow, replaced: readonly Replacement[]): Promise<void> {
    if (!replaced.length) return;
    const now = await this.imports.itemIdsByExternalId(
      showcase.id,
      replaced.map((r) => r.externalId),
    );
    for (const r of replaced) {
      const fresh = now.get(r.externalId);
      try {
        if (fresh !== undefined && fresh !== r.itemId) {
          await this.showcaseService.removeItem(this.principal(c), String(showcase.id), String(r.itemId));
          this.log.log(`connection ${c.publicId}: ${r.externalId}: new picture; item ${r.itemId} replaced by ${fresh}`);
          continue;
        }
        const old = await this.showcaseItems.item(showcase.id, r.itemId);
        if (old) await this.itemEdits.apply(c.ownerId, showcase, old, { external_id: r.externalId });
      } catch (e) {
        this.log.warn(
          `connection ${c.publicId}: ${r.externalId}: the replaced item ${r.itemId} was left as it is: ${(e as Error).message}`,
        );
      }
    }
  }

  /**
   * Shopify lets the app subscribe its own product webhooks (signed with the app's secret, the connection's
   * `webhook_secret`): done at each full sync, since a subscription that exists counts as done. Only for an https
   * service address (Shopify delivers nowhere else); a refusal other than the credentials' is logged, not fatal.
   */
  private async subscribeWebhooks(c: ShopConnectionRow, client: ShopifyAdminClient): Promise<void> {
    const url = `${this.urls.base}/webhooks/shopify/${c.publicId}`;
    if (!url.startsWith('https://')) return;
    try {
      const subscribed = await client.subscribeProductWebhooks(url);
      const made = subscribed.filter((s) => !s.existed).map((s) => s.topic);
      if (made.length) this.log.log(`connection ${c.publicId}: subscribed the shop's ${made.join(', ')} webhooks`);
    } catch (e) {
      if (e instanceof ShopUnauthorizedError) throw e;
      this.log.warn(`connection ${c.publicId}: could not subscribe the product webhooks: ${this.reason(c, e)}`);
    }
  }

  /**
   * A sync that could not read the shop: the import completes with the rows not reached (at least one) reported
   * skipped with the reason, nothing more is charged; a refused key marks the connection `unauthorized`.
   */
  private async fail(c: ShopConnectionRow, intake: RealIntake, e: unknown, scope: SyncScope, startedAt: string): Promise<void> {
    const reason = this.reason(c, e);
    const unauthorized = e instanceof ShopUnauthorizedError;
    if (unauthorized) await this.connections.markUnauthorized(c.id);
    const importId = intake.importId;
    try {
      const counts = await intake.finish();
      await this.imports.progress(importId, [], { ...counts, rows: counts.rows + 1 });
      await this.imports.abandon(importId, `sync_failed: ${reason}`);
    } catch (inner) {
      this.log.warn(`connection ${c.publicId}: could not close import ${importId}: ${(inner as Error).message}`);
    } finally {
      this.runner.untrack(importId);
      await ImportSpool.remove(this.config.dataDir, importId).catch(() => undefined);
    }
    if (scope.kind === 'full')
      await this.connections.update(c.id, {
        lastSync: { at: startedAt, import_id: importId, outcome: unauthorized ? 'unauthorized' : `failed: ${reason}` },
      });
    this.log.warn(`connection ${c.publicId}: sync ${importId} failed: ${reason}`);
  }

  /** The shop's words for a shop error (they never carry credentials); anything else is not repeated. */
  private reason(c: ShopConnectionRow, e: unknown): string {
    if (e instanceof ShopUnauthorizedError || e instanceof ShopUnavailableError || e instanceof ShopApiError) return e.message;
    this.log.warn(`connection ${c.publicId}: ${e instanceof Error ? e.message : String(e)}`);
    return `${c.platform}: the sync failed unexpectedly`;
  }

  /** Waits for the import to complete and its conversions (new pictures, rebuilds) to finish; false past the limit. */
  private async settle(importId: string): Promise<boolean> {
    const end = Date.now() + SETTLE_MAX_MS;
    while (Date.now() < end && !this.stopping) {
      const imp = await this.imports.find(importId);
      if (!imp) return false;
      if (imp.status === 'completed' && (await this.imports.jobStates(importId)).queued === 0) return true;
      await sleep(SETTLE_POLL_MS);
    }
    return false;
  }

  /**
   * Writes the `image_ar` model of each ready item back to its product and variants: Shopify `metafieldsSet`
   * (`image_ar.model`, json), WooCommerce `meta_data` `image_ar` through the batch endpoints. Only values that
   * differ from what the pull read from the shop. With Shopify's `"metafields+media"`, the GLB media too, and the
   * media taken off the products whose items this sync hid (`hidden`).
   */
  private async push(
    c: ShopConnectionRow,
    client: ConnectionClient,
    showcase: ShowcaseRow,
    targets: readonly PushTarget[],
    hidden: readonly string[],
  ): Promise<{ written: number; failed: number }> {
    const media = client.platform === 'shopify' && c.push === 'metafields+media';
    const detached = media && hidden.length ? await this.detachMedia(c, client.client, hidden) : { written: 0, failed: 0 };
    if (!targets.length) return detached;
    const items = await this.showcaseItems.items(showcase.id);
    const views = new Map<string, ItemViewLike>();
    for (const i of items) if (i.externalId) views.set(i.externalId, itemView(i, this.urls, this.storage) as unknown as ItemViewLike);
    const externalIdOf = (id: string) => productExternalId(c.platform, id);
    const plan = pushPlan(targets, views, externalIdOf);
    let out = { written: 0, failed: 0 };
    if (plan.products.length + plan.variants.length)
      out = client.platform === 'shopify' ? await this.pushShopify(client.client, plan) : await this.pushWooCommerce(client.client, plan);
    if (media && client.platform === 'shopify') {
      const rows = new Map(items.filter((i) => i.externalId).map((i) => [i.externalId!, i]));
      const attached = await this.pushMedia(c, client.client, mediaPlan(targets, views, externalIdOf), (id) => rows.get(externalIdOf(id)));
      out = { written: out.written + attached.written, failed: out.failed + attached.failed };
    }
    return { written: out.written + detached.written, failed: out.failed + detached.failed };
  }

  /**
   * "Removed when the item goes" (issue 41, push back): a product unpublished (draft, archived) keeps the media we
   * attached, so its item hidden, the GLB media is deleted and the `image_ar.media` metafield naming it with it;
   * `image_ar.model` stays (the storefront does not show a draft, and the links still answer). Each product is read
   * again first: the pull does not see unpublished products, one deleted since has no media left to remove, and
   * one published again meanwhile keeps its model.
   */
  private async detachMedia(
    c: ShopConnectionRow,
    client: ShopifyAdminClient,
    productIds: readonly string[],
  ): Promise<{ written: number; failed: number }> {
    let written = 0;
    let failed = 0;
    for (const id of productIds) {
      try {
        const p = await client.product(id);
        const media = p && p.status !== 'published' ? asMedia(p.arMedia) : null;
        if (!media) continue;
        await client.detachModel(id, media.media_id);
        written++;
      } catch (e) {
        if (e instanceof ShopUnauthorizedError) throw e;
        failed++;
        this.log.warn(`connection ${c.publicId}: GLB media of unpublished product ${id} not removed: ${this.reason(c, e)}`);
      }
    }
    return { written, failed };
  }

  /**
   * Shopify `"metafields+media"`: the item's main GLB in the product's media (staged upload, then the product's
   * media), its media id kept in `image_ar.media` so the next sync knows it; a changed model replaces the media a
   * sync attached before. A product the shop refuses is counted failed and tried again by the next sync.
   */
  private async pushMedia(
    c: ShopConnectionRow,
    client: ShopifyAdminClient,
    writes: readonly MediaWrite[],
    itemOf: (productId: string) => ShowcaseItemRow | undefined,
  ): Promise<{ written: number; failed: number }> {
    const kept: { ownerId: string; key: string; value: ArMedia }[] = [];
    let failed = 0;
    for (const m of writes) {
      const item = itemOf(m.productId);
      const key = (item?.result as { files?: { glb?: { key?: string } } } | null)?.files?.glb?.key;
      if (!item || !key) continue;
      try {
        const glb = await streamBytes(await this.storage.read(key));
        const { mediaId } = await client.attachModel(m.productId, glb, `${(item.externalId ?? m.productId).replace(/\W+/g, '-')}.glb`);
        kept.push({ ownerId: shopifyGid('Product', m.productId), key: 'media', value: { media_id: mediaId, glb_url: m.glbUrl } });
        if (m.replaces)
          await client
            .removeMedia([m.replaces])
            .catch((e: unknown) =>
              this.log.warn(`connection ${c.publicId}: old media of product ${m.productId} not removed: ${this.reason(c, e)}`),
            );
      } catch (e) {
        if (e instanceof ShopUnauthorizedError) throw e;
        failed++;
        this.log.warn(`connection ${c.publicId}: GLB not attached to product ${m.productId}: ${this.reason(c, e)}`);
      }
    }
    if (!kept.length) return { written: 0, failed };
    const result = await client.setModelMetafields(kept);
    return { written: kept.length, failed: failed + result.failed.length };
  }

  private async pushShopify(client: ShopifyAdminClient, plan: ReturnType<typeof pushPlan>): Promise<{ written: number; failed: number }> {
    const result = await client.setModelMetafields([
      ...plan.products.map((w) => ({ ownerId: shopifyGid('Product', w.productId), value: w.value })),
      ...plan.variants.map((w) => ({ ownerId: shopifyGid('ProductVariant', w.variantId), value: w.value })),
    ]);
    return { written: result.written.length, failed: result.failed.length };
  }

  private async pushWooCommerce(
    client: WooCommerceClient,
    plan: ReturnType<typeof pushPlan>,
  ): Promise<{ written: number; failed: number }> {
    const updates = new Map<string, WooModelMetaUpdate>();
    const of = (productId: string) => {
      let u = updates.get(productId);
      if (!u) updates.set(productId, (u = { productId, variations: [] }));
      return u;
    };
    for (const w of plan.products) of(w.productId).value = w.value;
    // A simple product is its own variant (the same id): its model is the product's.
    for (const w of plan.variants) if (w.variantId !== w.productId) of(w.productId).variations.push({ id: w.variantId, value: w.value });
    const writes = [...updates.values()].reduce((n, u) => n + (u.value !== undefined ? 1 : 0) + u.variations.length, 0);
    const { failed } = await client.setModelMeta([...updates.values()]);
    return { written: writes - failed.length, failed: failed.length };
  }

  /** What one new picture costs the connection's owner (the owner key's service user: nothing), as for an import. */
  private pictureCents(c: ShopConnectionRow): number {
    return pictureCents(this.pricing, this.principal(c));
  }

  /** The connection's owner, as a `full` key of theirs would be (the owner key's service user: the owner key). */
  private principal(c: ShopConnectionRow): Principal {
    return { userId: c.ownerId, keyType: c.ownerId === SERVICE_USER_ID ? 'owner' : 'user', scope: 'full' };
  }
}
