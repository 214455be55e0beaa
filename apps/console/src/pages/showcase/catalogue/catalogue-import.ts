/**
 * Importing a catalogue (CSV) into the showcase: a preview of the file and a dry run (the check and its
 * price) in the browser, then the import with its progress, polled until its pictures are converted.
 */
import { api, type ApiError, type ErrorLike } from '../../../shared/api';
import type { ImportPreview, ImportRun } from '../../../shared/api-types';
import { parseCsv } from '../../../shared/csv';
import { $, type Cell, fill, h, say, table } from '../../../shared/dom';
import { credits, seg } from '../../../shared/format';
import { sc } from '../showcase-state';

/** A row the check or the import refused: where and why. */
interface RowError {
  row: number;
  field: string | null;
  message: string;
}

/** The file input, the preview, the check, the Import button and the import's progress (set up once). */
export function initCatalogueImport(): void {
  const csvInput = $<HTMLInputElement>('#csv-file')!;
  const csvPreview = $('[data-testid=csv-preview]')!;
  const csvCheck = $('[data-testid=csv-check]')!;
  const importBtn = $<HTMLButtonElement>('[data-action=import-csv]')!;
  const importBox = $('[data-testid=import-progress]')!;
  /** The file checked (the one imported), until another is chosen. */
  let csvFile: File | null = null;
  let importTimer: ReturnType<typeof setTimeout> | undefined;
  let importing = false;

  function csvProblem(e: ErrorLike) {
    const box = $('#csv-file-err')!;
    box.textContent = (e && e.error && e.error.message) || 'Could not read the file.';
    box.hidden = false;
    csvInput.setAttribute('aria-invalid', 'true');
    say(box.textContent);
  }
  /** The first errors of a dry run or an import: row, column, message. */
  function rowErrors(rows: RowError[] | null | undefined, total: number, caption: string) {
    if (!rows || !rows.length) return null;
    const shown = rows.slice(0, 10);
    return h('div', { class: 'row-errors' }, [
      table(
        ['Row', 'Column', 'Problem'],
        shown.map(function (r) {
          return [r.row, r.field, r.message];
        }),
        caption,
      ),
      total > shown.length ? h('p', { class: 'hint', text: 'And ' + (total - shown.length) + ' more in the error report.' }) : null,
    ]);
  }
  function countList(pairs: [string, number | undefined][], testid: string) {
    const dl = h('dl', { class: 'counts', 'data-testid': testid });
    pairs.forEach(function (p) {
      dl.appendChild(h('div', {}, [h('dt', { text: p[0] }), h('dd', { text: String(p[1] === undefined ? 0 : p[1]) })]));
    });
    return dl;
  }

  csvInput.addEventListener('change', function () {
    const file = csvInput.files && csvInput.files[0];
    clearTimeout(importTimer);
    importing = false;
    csvFile = null;
    $('#csv-file-err')!.hidden = true;
    csvInput.removeAttribute('aria-invalid');
    fill(csvPreview, []);
    fill(csvCheck, []);
    fill(importBox, []);
    importBtn.hidden = true;
    if (!file) return;
    file.text().then(function (text) {
      const t = parseCsv(text);
      if (t.rows.length < 2) return csvProblem({ error: { message: 'The file has no rows under its header row.' } });
      const header = t.rows[0];
      const rows = t.rows.slice(1);
      const width = Math.max.apply(
        null,
        [header.length].concat(
          rows.slice(0, 10).map(function (r) {
            return r.length;
          }),
        ),
      );
      const cols = header.slice();
      while (cols.length < width) cols.push('');
      fill(csvPreview, [
        h('p', {
          class: 'hint',
          'data-testid': 'csv-summary',
          text:
            file.name +
            ': ' +
            rows.length +
            (rows.length === 1 ? ' row' : ' rows') +
            ', separated by "' +
            t.delimiter +
            '"' +
            (rows.length > 10 ? '. The first 10:' : '.'),
        }),
        table(
          ['Row'].concat(cols),
          rows.slice(0, 10).map(function (r, i) {
            const cells = r.slice();
            while (cells.length < width) cells.push('');
            return ([i + 1] as Cell[]).concat(cells);
          }),
          'Preview of ' + file.name,
        ),
      ]);
      csvFile = file;
      fill(csvCheck, h('p', { class: 'loading', text: 'Checking every row…' }));
      return api<ImportPreview>('POST', sc.base + '/imports?dry_run=true', file, 'text/csv').then(
        function (r) {
          if (csvFile !== file) return;
          const c: Partial<ImportPreview['counts']> = r.counts || {};
          const p: Partial<ImportPreview['price']> = r.price || {};
          const price = typeof p.credits === 'number' ? credits(p.credits) + ' credits' : 'unknown';
          const detail =
            typeof p.per_picture === 'number' && p.pictures
              ? p.pictures +
                ' new pictures at ' +
                credits(p.per_picture) +
                ' credits each' +
                (typeof p.balance === 'number' ? '; your balance: ' + credits(p.balance) + ' credits.' : '.')
              : null;
          fill(csvCheck, [
            h('h3', { text: 'Check' }),
            countList(
              (
                [
                  ['Rows', c.rows],
                  ['With errors', c.invalid],
                  ['New pictures', c.created],
                  ['Updated', c.updated],
                  ['Unchanged', c.unchanged],
                ] as [string, number | undefined][]
              ).concat(c.skipped ? [['Skipped (credits or room)', c.skipped]] : []),
              'dry-run-counts',
            ),
            h('p', { class: 'price', 'data-testid': 'import-price', text: 'Price: ' + price }),
            detail ? h('p', { class: 'hint', text: detail }) : null,
            rowErrors(r.rows, c.invalid || (r.rows || []).length, 'Rows with errors'),
          ]);
          const n = (c.rows || 0) - (c.invalid || 0);
          importBtn.textContent = 'Import ' + n + (n === 1 ? ' row' : ' rows');
          importBtn.removeAttribute('aria-disabled');
          importBtn.hidden = n <= 0;
          say(
            'Checked ' +
              c.rows +
              ' rows: ' +
              (c.invalid ? c.invalid + ' with errors' : 'no errors') +
              '. Price: ' +
              price +
              '.' +
              (n > 0 ? '' : ' Nothing to import.'),
          );
        },
        function (e: ApiError) {
          fill(csvCheck, []);
          csvProblem(e);
        },
      );
    }, csvProblem);
  });

  importBtn.addEventListener('click', function () {
    if (!csvFile || importing) return;
    importing = true;
    importBtn.setAttribute('aria-disabled', 'true');
    importBtn.textContent = 'Importing…';
    api<ImportRun>('POST', sc.base + '/imports', csvFile, 'text/csv').then(
      function (r) {
        const bar = h('progress', { max: '100', value: '0', 'aria-label': 'Import progress', 'data-testid': 'import-bar' });
        fill(importBox, [
          h('h3', { text: 'Import' }),
          h('p', {}, [
            'Import ',
            h('code', { text: r.id }),
            ': ',
            h('span', { 'data-testid': 'import-status', text: r.status || 'running' }),
          ]),
          bar,
          h('div', { 'data-testid': 'import-counts' }),
          h('div', { 'data-testid': 'import-errors' }),
          h('p', {}, [
            h('a', {
              href: '/api/v2/imports/' + seg(r.id) + '?format=csv',
              download: 'import-' + r.id + '-errors.csv',
              'data-testid': 'import-report',
              text: 'Download the error report (CSV)',
            }),
          ]),
        ]);
        say('Import started.');
        pollImport(r.id, bar, 0);
      },
      function (e: ApiError) {
        importing = false;
        importBtn.removeAttribute('aria-disabled');
        importBtn.textContent = 'Import';
        csvProblem(e);
      },
    );
  });

  /** GET /api/v2/imports/{id} every second until it is completed. */
  function pollImport(importId: string, bar: HTMLProgressElement, seen: number): void {
    api<ImportRun>('GET', '/api/v2/imports/' + seg(importId)).then(
      function (r) {
        if (!importing) return;
        const c: Partial<ImportRun['counts']> = r.counts || {};
        const n = function (k: keyof ImportRun['counts']) {
          return Number(c[k]) || 0;
        };
        // Rows are read first (each invalid, created, updated, unchanged or skipped), then their pictures
        // convert (queued counts those still queued or running): the bar covers both.
        const read = Math.min(n('rows'), n('processed'));
        const jobsDone = n('completed') + n('failed');
        const done = r.status === 'completed' && n('queued') === 0;
        const pct = done ? 100 : Math.floor((100 * (read + jobsDone)) / Math.max(1, n('rows') + jobsDone + n('queued')));
        bar.value = Math.min(pct, done ? 100 : 99);
        $('[data-testid=import-status]', importBox)!.textContent =
          r.status === 'completed' && !done ? 'completed, ' + n('queued') + ' pictures converting' : r.status;
        fill(
          $('[data-testid=import-counts]', importBox)!,
          countList(
            [
              ['Rows', c.rows],
              ['With errors', c.invalid],
              ['New pictures', c.created],
              ['Updated', c.updated],
              ['Unchanged', c.unchanged],
              ['Skipped', c.skipped],
              ['Converting', c.queued],
              ['Converted', c.completed],
              ['Failed', c.failed],
            ],
            'import-counts-list',
          ),
        );
        const errs = (r.rows || []).filter(function (x) {
          return x.field !== null && x.field !== undefined ? true : ['created', 'updated', 'unchanged'].indexOf(x.message) < 0;
        });
        fill($('[data-testid=import-errors]', importBox)!, rowErrors(errs, errs.length, 'Import errors'));
        // New pictures show up in the list as they are created.
        const created = n('created') + n('updated');
        if (created !== seen || done) sc.actions.load();
        if (done) {
          importing = false;
          importBtn.textContent = 'Imported';
          say(
            'Import completed: ' +
              n('created') +
              ' new, ' +
              n('updated') +
              ' updated, ' +
              n('unchanged') +
              ' unchanged, ' +
              n('invalid') +
              ' with errors' +
              (n('failed') ? ', ' + n('failed') + ' pictures failed' : '') +
              '.',
          );
        } else importTimer = setTimeout(pollImport, 1000, importId, bar, created);
      },
      function (e: ApiError) {
        importing = false;
        csvProblem(e);
      },
    );
  }
}
