import { Readable } from 'node:stream';
import { Inject, Injectable, StreamableFile } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type PricingPolicy, toCredits } from '@app/billing';
import { toCsv } from '@app/catalogue';
import {
  type CatalogueImportRow,
  CatalogueImportRepository,
  ShowcaseGoneError,
  ShowcaseRepository,
  type ShowcaseRow,
} from '@app/persistence';
import { parseInput } from '@app/schema';
import { PRICING_POLICY } from '@app/runtime';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/principal';
import { ownedShowcase, pictureCents } from '../showcases/showcases.service';
import { ImportIntake } from './import-intake.service';
import { ImportRunner } from './import-runner.service';
import { ImportQuery, ImportReportQuery } from './imports.schema';

const REPORT_PAGE = 500;

/**
 * Catalogue imports: `POST /api/v2/showcases/{id}/imports` has {@link ImportIntake} read and check the rows,
 * then answers what it would do (`dry_run`) or hands the spooled rows to {@link ImportRunner} (202);
 * `GET /api/v2/imports/{id}` shows an import's state and report.
 */
@Injectable()
export class ImportsService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly imports: CatalogueImportRepository,
    private readonly intake: ImportIntake,
    private readonly runner: ImportRunner,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
  ) {}

  private pictureCents(p: Principal): number {
    return pictureCents(this.pricing, p);
  }

  private owned(p: Principal, id: string): Promise<ShowcaseRow> {
    return ownedShowcase(this.showcases, p, id);
  }

  /** POST /api/v2/showcases/{id}/imports: 200 with a preview (dry run) or 202 with the running import. */
  async start(p: Principal, id: string, req: FastifyRequest, query: unknown): Promise<{ status: 200 | 202; body: unknown }> {
    const { dry_run: dryRun } = parseInput(ImportQuery, query ?? {});
    const s = await this.owned(p, id);
    const pictureCents = this.pictureCents(p);
    // The showcase may be deleted while the upload is read (its import goes with it): a 404, as if it came first.
    const gone = () => ApiError.notFound(`showcase ${id.slice(0, 40)}`);
    const read = await this.intake.read(p, s, req, { dryRun, pictureCents }).catch((e: unknown) => {
      throw e instanceof ShowcaseGoneError ? gone() : e;
    });
    if (read.dryRun) return { status: 200, body: read.preview };
    this.runner.start({
      importId: read.importId,
      ownerId: p.userId,
      showcase: s,
      pictureCents,
      spoolPath: read.spoolPath,
      uploads: read.uploads,
      counts: { ...read.counts },
    });
    const imp = await this.imports.find(read.importId);
    // Deleted with its showcase meanwhile: the runner stops by itself (it finds the import gone).
    if (!imp) throw gone();
    return { status: 202, body: await this.view(imp, false) };
  }

  /** GET /api/v2/imports/{id}: the import's state and report, as JSON or CSV. */
  async get(p: Principal, id: string, query: unknown, accept: string | undefined): Promise<unknown> {
    const q = parseInput(ImportReportQuery, query ?? {});
    const imp = /^imp_[a-z2-7]{24}$/.test(id) ? await this.imports.findForOwner(id, p.userId) : null;
    if (!imp) throw ApiError.notFound(`import ${id.slice(0, 40)}`);
    const all = q.rows === 'all';
    const csv = q.format === 'csv' || (q.format === undefined && /\btext\/csv\b/i.test(accept ?? ''));
    if (!csv) return this.view(imp, all);
    const imports = this.imports;
    const lines = async function* () {
      // A byte-order mark, so Excel reads the text as UTF-8.
      yield `\uFEFF${toCsv([['row', 'status', 'field', 'message', 'item_id', 'job_id']])}`;
      for (let after = 0; ;) {
        const page = await imports.report(imp.id, { problems: !all, afterRow: after, limit: REPORT_PAGE });
        if (!page.length) return;
        yield toCsv(
          page.map((r) => [String(r.row), r.status, r.field ?? '', r.message, r.itemId === null ? '' : String(r.itemId), r.jobId ?? '']),
        );
        after = page[page.length - 1].row;
      }
    };
    return new StreamableFile(Readable.from(lines()), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${imp.id}.csv"`,
    });
  }

  private async view(imp: CatalogueImportRow, all: boolean) {
    const [jobs, rows, refunded] = await Promise.all([
      this.imports.jobStates(imp.id),
      this.imports.report(imp.id, { problems: !all }),
      this.imports.refundedCents(imp.id),
    ]);
    const c = imp.counts;
    return {
      id: imp.id,
      object: 'import' as const,
      showcase_id: imp.showcaseId,
      status: imp.status,
      counts: {
        rows: c.rows,
        invalid: c.invalid,
        created: c.created,
        updated: c.updated,
        unchanged: c.unchanged,
        skipped: c.skipped,
        processed: c.processed,
        ...jobs,
      },
      // Net of refunds: a picture whose conversion failed was refunded, so the import no longer cost it.
      credits_charged: toCredits(Math.max(0, c.chargedCents - refunded)),
      created_at: new Date(imp.createdAt).toISOString(),
      finished_at: imp.finishedAt ? new Date(imp.finishedAt).toISOString() : null,
      rows: rows.map((r) => ({
        row: r.row,
        status: r.status,
        field: r.field || null,
        message: r.message,
        item_id: r.itemId,
        job_id: r.jobId,
      })),
    };
  }
}
