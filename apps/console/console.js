/*
 * The console's only script: small helpers, then one function per page (chosen by <body data-page>).
 * Pages are rendered on the server; this fills them from the public API with the session cookie and
 * the page's CSRF token (X-CSRF-Token). No framework, no build step, nothing loaded from elsewhere.
 */
(function () {
  'use strict';
  var csrfMeta = document.querySelector('meta[name=csrf-token]');
  var CSRF = csrfMeta ? csrfMeta.getAttribute('content') : '';
  var body = document.body;

  function $(sel, root) {
    return (root || document).querySelector(sel);
  }
  function $all(sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  }

  /** Builds an element: h('a', {href: '/x', text: 'Go'}, [children]). Text is always set as text, never HTML. */
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') el.textContent = v;
      else if (k === 'on')
        Object.keys(v).forEach(function (ev) {
          el.addEventListener(ev, v[ev]);
        });
      else el.setAttribute(k, v === true ? '' : v);
    });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return el;
  }

  function fill(el, nodes) {
    el.textContent = '';
    [].concat(nodes).forEach(function (n) {
      if (n) el.appendChild(n);
    });
  }

  function say(msg) {
    var s = $('[data-testid=status]');
    if (s) s.textContent = msg;
  }

  /** Calls the public API; rejects with {status, error} on a non-2xx answer. */
  function api(method, path, data) {
    var headers = { 'X-CSRF-Token': CSRF };
    var bodyOut;
    if (data instanceof FormData) bodyOut = data;
    else if (data !== undefined) {
      headers['Content-Type'] = 'application/json';
      bodyOut = JSON.stringify(data);
    }
    return fetch(path, { method: method, headers: headers, body: bodyOut, credentials: 'same-origin' }).then(function (res) {
      if (res.status === 401) {
        location.href = '/console/login';
      }
      var ct = res.headers.get('content-type') || '';
      var parsed = res.status === 204 ? Promise.resolve(null) : ct.indexOf('json') >= 0 ? res.json() : res.text();
      return parsed.then(function (b) {
        if (!res.ok) throw { status: res.status, error: (b && b.error) || { message: String(b) } };
        return b;
      });
    });
  }

  /** Shows an API error next to the form field it names (error.param), else on the form. */
  function showError(form, err) {
    $all('.error[data-api]', form).forEach(function (e) {
      e.hidden = true;
      e.textContent = '';
    });
    $all('[aria-invalid]', form).forEach(function (e) {
      e.removeAttribute('aria-invalid');
    });
    var e = (err && err.error) || {};
    var msg = e.message || 'Something went wrong.';
    var input = e.param && form.querySelector('[name="' + String(e.param).split(/[.[]/)[0] + '"]');
    var box = input ? document.getElementById(input.getAttribute('aria-describedby')) : null;
    if (!box) box = form.querySelector('.error[data-error]') || form.querySelector('.error');
    if (input) input.setAttribute('aria-invalid', 'true');
    if (box) {
      box.textContent = msg;
      box.hidden = false;
      box.setAttribute('data-api', '');
    }
    say(msg);
  }

  function clearError(form) {
    $all('.error', form).forEach(function (e) {
      e.hidden = true;
    });
  }

  function empty(text) {
    return h('p', { class: 'empty', text: text });
  }
  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : '—';
  }
  function credits(n) {
    return (Math.round(n * 100) / 100).toFixed(2);
  }

  function table(headers, rows, caption) {
    return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption }, [
      h('table', {}, [
        h('caption', { class: 'sr-only', text: caption }),
        h('thead', {}, [
          h(
            'tr',
            {},
            headers.map(function (t) {
              return h('th', { scope: 'col', text: t });
            }),
          ),
        ]),
        h(
          'tbody',
          {},
          rows.map(function (r) {
            return h(
              'tr',
              {},
              r.map(function (c) {
                return h('td', {}, [c === null || c === undefined ? '—' : typeof c === 'object' ? c : String(c)]);
              }),
            );
          }),
        ),
      ]),
    ]);
  }

  function failed(el) {
    return function (err) {
      fill(el, h('p', { class: 'error', role: 'alert', text: (err && err.error && err.error.message) || 'Could not load.' }));
    };
  }

  /** Copy buttons: data-copy names the element whose text (or value) is copied. */
  document.addEventListener('click', function (ev) {
    var btn = ev.target.closest && ev.target.closest('[data-copy]');
    if (!btn) return;
    var src = $(btn.getAttribute('data-copy'));
    var text = src ? (src.value !== undefined ? src.value : src.textContent) : '';
    var done = function () {
      btn.textContent = 'Copied';
      say('Copied to the clipboard.');
      setTimeout(function () {
        btn.textContent = 'Copy';
      }, 2000);
    };
    if (navigator.clipboard && navigator.clipboard.writeText)
      navigator.clipboard.writeText(text).then(done, function () {
        if (src.select) src.select();
      });
    else if (src && src.select) {
      src.select();
      document.execCommand('copy');
      done();
    }
  });

  function onSubmit(name, fn) {
    var form = $('[data-form="' + name + '"]');
    if (form)
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
        clearError(form);
        fn(form, new FormData(form));
      });
    return form;
  }

  /** A job or picture still on its way: only a status named here (v2 steps, v1 `processing`), never an unknown one. */
  var ACTIVE = ['queued', 'downloading', 'converting', 'uploading', 'processing'];
  function active(s) {
    return ACTIVE.indexOf(s) >= 0;
  }
  /** An id as one URL path segment: every id that goes into a path goes through this. */
  function seg(id) {
    return encodeURIComponent(String(id));
  }
  var STEPS = ['queued', 'downloading', 'converting', 'uploading', 'completed'];

  function statusBadge(s) {
    return h('span', { class: 'badge s-' + s, text: s });
  }
  function jobLink(id) {
    return h('a', { href: '/console/jobs/' + seg(id), text: id });
  }

  // ---- pages

  var pages = {};

  pages.overview = function () {
    api('GET', '/api/v2/me').then(
      function (me) {
        // The owner key is never billed: its balance means nothing.
        $('[data-testid=balance]').textContent =
          me.key && me.key.type === 'owner' ? 'Not billed (owner)' : credits(me.credits) + ' credits';
        $('[data-testid=slots]').textContent =
          me.showcase_slots.used + ' of ' + (me.showcase_slots.limited ? me.showcase_slots.total : '∞');
      },
      failed($('[data-testid=balance]')),
    );
    var start = new Date();
    start.setDate(1);
    start.setHours(0, 0, 0, 0);
    api('GET', '/api/v2/jobs?limit=100').then(
      function (list) {
        var n = list.data.filter(function (j) {
          return new Date(j.created_at) >= start;
        }).length;
        $('[data-testid=jobs-month]').textContent = n + (list.has_more && n === list.data.length ? '+' : '');
      },
      failed($('[data-testid=jobs-month]')),
    );
    var box = $('[data-testid=failures]');
    api('GET', '/api/v2/jobs?status=failed&limit=5').then(function (list) {
      fill(
        box,
        list.data.length
          ? table(
              ['Job', 'Kind', 'Error', 'When'],
              list.data.map(function (j) {
                return [jobLink(j.job_id), j.kind, j.error ? j.error.message : '', when(j.created_at)];
              }),
              'Recent failures',
            )
          : empty('No failed jobs.'),
      );
    }, failed(box));
  };

  pages.keys = function () {
    var box = $('[data-testid=keys]');
    if (!box) return;
    function load() {
      return api('GET', '/api/v2/keys').then(function (list) {
        var keys = list.data || [];
        fill(
          box,
          keys.length
            ? table(
                ['Name', 'Scope', 'Key', 'Created', 'Last used', ''],
                keys.map(function (k) {
                  return [
                    k.name || '(unnamed)',
                    k.scope,
                    h('code', { text: k.prefix + '…' }),
                    when(k.created_at),
                    when(k.last_used_at),
                    h('button', {
                      type: 'button',
                      class: 'danger',
                      'aria-label': 'Revoke key ' + (k.name || k.prefix),
                      text: 'Revoke',
                      on: {
                        click: function () {
                          revoke(k);
                        },
                      },
                    }),
                  ];
                }),
                'Your API keys',
              )
            : empty('No keys yet. Create one above to call the API.'),
        );
      }, failed(box));
    }
    function revoke(k) {
      if (!confirm('Revoke the key "' + (k.name || k.prefix) + '"? Programs using it stop working at once.')) return;
      api('DELETE', '/api/v2/keys/' + seg(k.id) + '?force=true').then(
        function () {
          say('Key revoked.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    }
    onSubmit('create-key', function (form, fd) {
      var name = String(fd.get('name') || '').trim();
      if (!name) return showError(form, { error: { param: 'name', message: 'Give the key a name, e.g. the shop that uses it.' } });
      api('POST', '/api/v2/keys', { name: name, scope: fd.get('scope') }).then(
        function (k) {
          $('[data-testid=new-api-key]').textContent = k.key;
          $('[data-testid=new-key-box]').hidden = false;
          form.reset();
          say('Key created. Copy it now: it is shown only once.');
          load();
        },
        function (e) {
          showError(form, e);
        },
      );
    });
    load();
  };

  pages.showcases = function () {
    var box = $('[data-testid=showcases]');
    api('GET', '/api/v2/showcases?limit=100').then(function (list) {
      fill(
        box,
        list.data.length
          ? h(
              'ul',
              { class: 'grid' },
              list.data.map(function (s) {
                return h('li', { class: 'card' }, [
                  h('h3', {}, [h('a', { href: '/console/showcases/' + seg(s.id), text: 'Showcase ' + s.id })]),
                  h('p', { text: s.description || 'No description' }),
                  h('p', { class: 'hint', text: s.item_count + ' pictures · ' + s.layout_choice }),
                ]);
              }),
            )
          : empty('No showcases yet. Create one above.'),
      );
    }, failed(box));
    onSubmit('create-showcase', function (form, fd) {
      var data = { layout_choice: fd.get('layout_choice') };
      if (fd.get('description')) data.description = fd.get('description');
      api('POST', '/api/v2/showcases', data).then(
        function (s) {
          location.href = '/console/showcases/' + seg(s.id);
        },
        function (e) {
          showError(form, e);
        },
      );
    });
  };

  pages.showcase = function () {
    var id = body.getAttribute('data-id');
    var base = '/api/v2/showcases/' + seg(id);
    var itemsBox = $('[data-testid=items]');
    var uploads = $('[data-testid=uploads]');
    var form = $('[data-form=branding]');
    var preview = $('[data-testid=preview]');
    var timer = null;

    function renderPreview() {
      var fd = new FormData(form);
      preview.style.setProperty('--primary', fd.get('primary_color'));
      preview.style.setProperty('--secondary', fd.get('secondary_color'));
      preview.className = 'preview layout-' + fd.get('layout_choice');
      $('.pv-tagline', preview).textContent = fd.get('tagline') || 'Your tagline';
      $('.pv-desc', preview).textContent = fd.get('description') || '';
    }
    form.addEventListener('input', renderPreview);

    function load(first) {
      return api('GET', base).then(function (s) {
        if (first) {
          var b = s.branding || {};
          form.tagline.value = b.tagline || '';
          if (b.primary_color) form.primary_color.value = b.primary_color;
          if (b.secondary_color) form.secondary_color.value = b.secondary_color;
          form.description.value = s.description || '';
          form.layout_choice.value = s.layout_choice;
          renderPreview();
          $('#embed-snippet').value =
            '<iframe src="' +
            s.embed_url +
            '" title="AR showcase" width="100%" height="640" style="border:0" allow="xr-spatial-tracking; fullscreen" loading="lazy"></iframe>';
        }
        var busy = false;
        fill(
          itemsBox,
          s.items.length
            ? h(
                'ul',
                { class: 'grid' },
                s.items.map(function (it) {
                  if (active(it.status)) busy = true;
                  return h('li', { class: 'card item', 'data-testid': 'item', 'data-status': it.status }, [
                    it.preview_url
                      ? h('img', { src: it.preview_url, alt: 'Picture ' + it.id, loading: 'lazy' })
                      : h('div', { class: 'ph', 'aria-hidden': 'true' }),
                    h('p', {}, [statusBadge(it.status), ' ', it.filename || it.source_url || '']),
                    h('progress', { max: '100', value: String(it.progress), 'aria-label': 'Progress of picture ' + it.id }),
                    it.error ? h('p', { class: 'error', text: it.error.message }) : null,
                    h('button', {
                      type: 'button',
                      class: 'danger',
                      'aria-label': 'Delete picture ' + it.id,
                      text: 'Delete',
                      disabled: active(it.status),
                      on: {
                        click: function () {
                          removeItem(it);
                        },
                      },
                    }),
                  ]);
                }),
              )
            : empty('No pictures yet. Drop some above.'),
        );
        clearTimeout(timer);
        // Progress without refresh: poll while anything is converting.
        if (busy) timer = setTimeout(load, 1000);
      }, failed(itemsBox));
    }

    function removeItem(it) {
      if (!confirm('Delete picture ' + it.id + '?')) return;
      api('DELETE', base + '/items/' + seg(it.id)).then(
        function () {
          say('Picture deleted.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    }

    /** The frame, mat and placement chosen for the next pictures, as an item's presentation fields. */
    function presentation() {
      var item = {};
      var style = $('#pic-frame').value;
      if (style) item.frame = $('#pic-frame-color').value ? { style: style, color: $('#pic-frame-color').value } : { style: style };
      var mat = Number($('#pic-mat').value);
      if (mat > 0) item.mat = { width_inches: mat, color: $('#pic-mat-color').value };
      if ($('#pic-placement').value) item.placement = $('#pic-placement').value;
      return item;
    }

    /** One request per file, so each picture shows its own upload progress (XHR reports upload bytes). */
    function upload(file) {
      var row = h('li', { 'data-testid': 'upload' }, [
        h('span', { text: file.name }),
        ' ',
        h('progress', { max: '100', value: '0', 'aria-label': 'Upload of ' + file.name }),
        h('span', { class: 'state', text: ' uploading' }),
      ]);
      uploads.appendChild(row);
      var fd = new FormData();
      // The text field goes before the file part (the server reads the parts in order).
      fd.append('items', JSON.stringify([presentation()]));
      fd.append('files', file, file.name);
      var xhr = new XMLHttpRequest();
      xhr.open('POST', base + '/items');
      xhr.setRequestHeader('X-CSRF-Token', CSRF);
      xhr.upload.onprogress = function (e) {
        if (e.lengthComputable) $('progress', row).value = Math.round((e.loaded / e.total) * 100);
      };
      xhr.onload = function () {
        var ok = xhr.status >= 200 && xhr.status < 300;
        var msg = ok ? ' uploaded' : ' failed: ' + ((JSON.parse(xhr.responseText || '{}').error || {}).message || xhr.status);
        $('.state', row).textContent = msg;
        row.setAttribute('data-state', ok ? 'done' : 'failed');
        say(file.name + msg);
        load();
      };
      xhr.onerror = function () {
        $('.state', row).textContent = ' failed: network error';
        row.setAttribute('data-state', 'failed');
      };
      xhr.send(fd);
    }
    var drop = $('[data-testid=dropzone]');
    var picker = $('#file-input');
    ['dragenter', 'dragover'].forEach(function (t) {
      drop.addEventListener(t, function (e) {
        e.preventDefault();
        drop.classList.add('over');
      });
    });
    drop.addEventListener('dragleave', function () {
      drop.classList.remove('over');
    });
    drop.addEventListener('drop', function (e) {
      e.preventDefault();
      drop.classList.remove('over');
      Array.prototype.forEach.call(e.dataTransfer.files, upload);
    });
    drop.addEventListener('click', function () {
      picker.click();
    });
    drop.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        picker.click();
      }
    });
    picker.addEventListener('change', function () {
      Array.prototype.forEach.call(picker.files, upload);
      picker.value = '';
    });

    onSubmit('add-url', function (f, fd) {
      var item = presentation();
      item.image_url = fd.get('url');
      api('POST', base + '/items', { items: [item] }).then(
        function () {
          f.reset();
          say('Picture added.');
          load();
        },
        function (e) {
          if (e.error) e.error.param = /image_url|items/.test(e.error.param || '') ? 'url' : e.error.param;
          showError(f, e);
        },
      );
    });
    onSubmit('branding', function (f, fd) {
      var data = {
        branding: {
          tagline: fd.get('tagline') || undefined,
          primary_color: fd.get('primary_color'),
          secondary_color: fd.get('secondary_color'),
        },
        layout_choice: fd.get('layout_choice'),
        description: fd.get('description') || null,
      };
      api('PATCH', base, data).then(
        function () {
          say('Branding saved.');
        },
        function (e) {
          showError(f, e);
        },
      );
    });
    $('[data-action=delete-showcase]').addEventListener('click', function () {
      if (!confirm('Delete this showcase with all its pictures?')) return;
      api('DELETE', base).then(
        function () {
          location.href = '/console/showcases';
        },
        function (e) {
          say(e.error.message);
        },
      );
    });
    load(true);
  };

  pages.jobs = function () {
    var box = $('[data-testid=jobs]');
    var form = $('[data-form=job-filter]');
    var status = new URLSearchParams(location.search).get('status') || '';
    form.status.value = status;
    api('GET', '/api/v2/jobs?limit=50' + (status ? '&status=' + encodeURIComponent(status) : '')).then(function (list) {
      fill(
        box,
        list.data.length
          ? table(
              ['Job', 'Kind', 'Status', 'Progress', 'Created'],
              list.data.map(function (j) {
                return [jobLink(j.job_id), j.kind, statusBadge(j.status), j.progress + '%', when(j.created_at)];
              }),
              'Jobs',
            )
          : empty(status ? 'No ' + status + ' jobs.' : 'No jobs yet. Convert a picture to start.'),
      );
    }, failed(box));
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      location.search = form.status.value ? '?status=' + form.status.value : '';
    });
  };

  pages.job = function () {
    var id = body.getAttribute('data-id');
    var path = id.indexOf('v2_') === 0 ? '/api/v2/jobs/' + seg(id) : '/api/v1/status/' + seg(id);
    var box = $('[data-testid=job]');
    var cancel = $('[data-action=cancel-job]');
    var retry = $('[data-action=retry-job]');
    var timer = null;
    function load() {
      api('GET', path).then(function (j) {
        var st = j.status;
        fill(
          box,
          h('dl', { class: 'facts' }, [
            h('dt', { text: 'Status' }),
            h('dd', {}, [statusBadge(st)]),
            h('dt', { text: 'Progress' }),
            h('dd', { text: j.progress + '%' }),
            h('dt', { text: 'Created' }),
            h('dd', { text: when(j.created_at) }),
            j.error ? h('dt', { text: 'Error' }) : null,
            j.error ? h('dd', { class: 'error', text: j.error.message + (j.error.stage ? ' (stage ' + j.error.stage + ')' : '') }) : null,
          ]),
        );
        var failedAt =
          j.error && j.error.stage
            ? Math.max(
                1,
                STEPS.indexOf(j.error.stage === 'fetch' ? 'downloading' : j.error.stage === 'publish' ? 'uploading' : 'converting'),
              )
            : 1;
        var steps = st === 'failed' ? STEPS.slice(0, failedAt).concat(['failed']) : STEPS;
        var at = st === 'failed' ? steps.length - 1 : STEPS.indexOf(st);
        fill(
          $('[data-testid=timeline]'),
          steps.map(function (s, i) {
            return h('li', { class: i < at ? 'done' : i === at ? 'now' : 'todo', 'aria-current': i === at ? 'step' : null, text: s });
          }),
        );
        // Each stage of the last run with its start and duration (the API's stage timeline).
        fill(
          $('[data-testid=stage-times]'),
          j.stages && j.stages.length
            ? table(
                ['Stage', 'Started', 'Took'],
                j.stages.map(function (s) {
                  return [
                    s.stage,
                    when(s.started_at),
                    s.duration_ms === null
                      ? active(st)
                        ? 'running'
                        : '—'
                      : s.duration_ms < 1000
                        ? Math.round(s.duration_ms) + ' ms'
                        : (s.duration_ms / 1000).toFixed(1) + ' s',
                  ];
                }),
                'Stage times',
              )
            : empty(active(st) ? 'Waiting for a worker.' : 'No stage ran.'),
        );
        // Only for a status known to be running: an answer without one never offers a state change.
        cancel.hidden = !active(st);
        retry.hidden = !(st === 'failed' && document.querySelector('nav a[href="/console/admin/users"]'));
        clearTimeout(timer);
        if (active(st)) timer = setTimeout(load, 1500);
      }, failed(box));
    }
    cancel.addEventListener('click', function () {
      api('POST', (id.indexOf('v2_') === 0 ? '/api/v2/jobs/' : '/api/v1/jobs/') + seg(id) + '/cancel').then(
        function () {
          say('Cancel requested.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    });
    retry.addEventListener('click', function () {
      api('POST', '/api/admin/jobs/' + seg(id) + '/retry').then(
        function () {
          say('Job queued again.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    });
    load();
  };

  pages.usage = function () {
    var chart = $('[data-testid=chart]');
    var ledger = $('[data-testid=ledger]');
    var entries = [];
    api('GET', '/api/v2/usage?limit=200').then(function (u) {
      entries = u.data;
      fill(
        ledger,
        entries.length
          ? table(
              ['Date', 'Kind', 'Operation', 'Credits', 'Balance after', 'Job'],
              entries.map(function (e) {
                return [
                  when(e.created_at),
                  e.kind,
                  e.operation,
                  (e.kind === 'charge' ? '−' : '+') + credits(e.amount),
                  e.balance_after === null ? null : credits(e.balance_after),
                  e.job_id,
                ];
              }),
              'Ledger entries',
            )
          : empty('No ledger entries yet.'),
      );
      drawChart(chart, entries);
    }, failed(ledger));
    $('[data-action=csv]').addEventListener('click', function () {
      var rows = [['id', 'created_at', 'kind', 'operation', 'amount', 'balance_after', 'job_id', 'reason']].concat(
        entries.map(function (e) {
          return [e.id, e.created_at, e.kind, e.operation, e.amount, e.balance_after, e.job_id, e.reason];
        }),
      );
      var csv = rows
        .map(function (r) {
          return r
            .map(function (c) {
              var s = c === null || c === undefined ? '' : String(c);
              return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
            })
            .join(',');
        })
        .join('\n');
      var a = h('a', { href: URL.createObjectURL(new Blob([csv], { type: 'text/csv' })), download: 'usage.csv' });
      document.body.appendChild(a);
      a.click();
      a.remove();
    });
  };

  /** Credits spent per day over the last 30 days, as an inline SVG bar chart with a text alternative. */
  function drawChart(box, entries) {
    var days = [];
    var now = new Date();
    now.setHours(0, 0, 0, 0);
    for (var i = 29; i >= 0; i--) days.push({ t: now.getTime() - i * 86400000, v: 0 });
    entries.forEach(function (e) {
      if (e.kind !== 'charge') return;
      var d = new Date(e.created_at);
      d.setHours(0, 0, 0, 0);
      var slot = days.filter(function (x) {
        return x.t === d.getTime();
      })[0];
      if (slot) slot.v += e.amount;
    });
    var max = Math.max.apply(
      null,
      days
        .map(function (d) {
          return d.v;
        })
        .concat([1]),
    );
    var NS = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 300 110');
    svg.setAttribute('role', 'img');
    var total = days.reduce(function (s, d) {
      return s + d.v;
    }, 0);
    svg.setAttribute(
      'aria-label',
      'Credits spent per day, last 30 days: ' + credits(total) + ' in total, at most ' + credits(max) + ' on one day',
    );
    days.forEach(function (d, i) {
      var hgt = (d.v / max) * 100;
      var r = document.createElementNS(NS, 'rect');
      r.setAttribute('x', String(i * 10 + 1));
      r.setAttribute('width', '8');
      r.setAttribute('y', String(102 - hgt));
      r.setAttribute('height', String(Math.max(hgt, 0.5)));
      r.setAttribute('class', 'bar');
      var tt = document.createElementNS(NS, 'title');
      tt.textContent = new Date(d.t).toLocaleDateString() + ': ' + credits(d.v) + ' credits';
      r.appendChild(tt);
      svg.appendChild(r);
    });
    fill(box, total ? svg : empty('No credits spent in the last 30 days.'));
  }

  pages.convert = function () {
    var price = $('[data-testid=animated-price]');
    var result = $('[data-testid=convert-result]');
    var list = null;
    var aform = $('[data-form=convert-animated]');
    function showPrice() {
      if (!list) return;
      var fd = new FormData(aform);
      var op = list.operations.filter(function (o) {
        return (
          o.operation === 'animated-ar' && o.source === fd.get('source') && o.remove_background === (fd.get('remove_background') === 'on')
        );
      })[0];
      price.textContent = 'Price: ' + (!list.billed ? 'free (owner)' : op ? credits(op.credits) + ' credits' : 'unknown');
    }
    api('GET', '/api/v2/pricing').then(function (p) {
      list = p;
      showPrice();
    }, failed(price));
    aform.addEventListener('change', showPrice);
    function started(r) {
      var id = r.job_id;
      fill(
        result,
        h('p', {}, ['Job ', jobLink(id), ' started. ', h('a', { href: '/console/jobs/' + seg(id), text: 'Follow its progress' })]),
      );
      say('Conversion started.');
    }
    onSubmit('convert-v1', function (form, fd) {
      var data = { image_url: fd.get('image_url') };
      if (fd.get('aspect_ratio')) data.aspect_ratio = fd.get('aspect_ratio');
      api('POST', '/api/v1/convert', data).then(started, function (e) {
        showError(form, e);
      });
    });
    onSubmit('convert-animated', function (form, fd) {
      var data = { remove_background: fd.get('remove_background') === 'on' };
      data[fd.get('source') === 'video' ? 'video_url' : 'image_url'] = fd.get('source_url');
      api('POST', '/api/v2/animated-ar', data).then(started, function (e) {
        if (e.error && /_url$/.test(e.error.param || '')) e.error.param = 'source_url';
        showError(form, e);
      });
    });
  };

  pages.webhooks = function () {
    var box = $('[data-testid=deliveries]');
    function load() {
      api('GET', '/api/v2/webhooks/deliveries?limit=100').then(function (list) {
        fill(
          box,
          list.data.length
            ? table(
                ['When', 'Job', 'Event', 'Attempt', 'Answer', 'Time'],
                list.data.map(function (d) {
                  return [
                    when(d.created_at),
                    jobLink(d.job_id),
                    d.event,
                    d.attempt,
                    h('span', {}, [
                      h('span', {
                        class: 'badge ' + (d.succeeded ? 's-completed' : 's-failed'),
                        text: d.succeeded ? 'delivered' : 'failed',
                      }),
                      ' ',
                      d.status_code ? 'HTTP ' + d.status_code : d.error || 'no answer',
                    ]),
                    d.duration_ms + ' ms',
                  ];
                }),
                'Callback deliveries',
              )
            : empty('No callbacks sent yet. Pass callback_url when you convert to get one.'),
        );
        setTimeout(load, 10000);
      }, failed(box));
    }
    load();
  };

  pages['admin-users'] = function () {
    var box = $('[data-testid=users]');
    function load() {
      api('GET', '/api/admin/users?limit=200').then(function (list) {
        var users = list.data.filter(function (u) {
          return !u.internal;
        });
        fill(
          box,
          users.length
            ? table(
                ['Email', 'Name', 'Credits', 'Grant credits', 'Keys', ''],
                users.map(function (u) {
                  var amount = h('input', {
                    type: 'number',
                    min: '0.01',
                    step: '0.01',
                    'aria-label': 'Credits to grant to ' + u.email,
                    class: 'small',
                  });
                  var keys = h('span', { class: 'keys' }, [
                    h('button', {
                      type: 'button',
                      class: 'link',
                      text: 'Show keys',
                      'aria-label': 'Show keys of ' + u.email,
                      on: {
                        click: function () {
                          showKeys(u, keys);
                        },
                      },
                    }),
                  ]);
                  return [
                    u.email,
                    u.name,
                    credits(u.credits),
                    h('span', {}, [
                      amount,
                      h('button', {
                        type: 'button',
                        text: 'Grant',
                        'aria-label': 'Grant credits to ' + u.email,
                        on: {
                          click: function () {
                            api('POST', '/api/admin/users/' + seg(u.id) + '/credits', {
                              amount: Number(amount.value),
                              reason: 'console grant',
                            }).then(
                              function () {
                                say('Granted ' + amount.value + ' credits to ' + u.email + '.');
                                load();
                              },
                              function (e) {
                                say(e.error.message);
                              },
                            );
                          },
                        },
                      }),
                    ]),
                    keys,
                    h('button', {
                      type: 'button',
                      text: 'Invite again',
                      'aria-label': 'Invite again: ' + u.email,
                      on: {
                        click: function () {
                          invite({ userId: u.id });
                        },
                      },
                    }),
                  ];
                }),
                'Users',
              )
            : empty('No users yet. Invite one above.'),
        );
      }, failed(box));
    }
    /** A user's live keys, each with a revoke button (DELETE /api/admin/keys/{id}). */
    function showKeys(u, cell) {
      api('GET', '/api/admin/users/' + seg(u.id) + '/keys').then(
        function (list) {
          fill(
            cell,
            list.data.length
              ? h(
                  'ul',
                  { class: 'plain' },
                  list.data.map(function (k) {
                    return h('li', {}, [
                      h('code', { text: k.prefix + '…' }),
                      ' ' + (k.name || '') + ' ',
                      h('button', {
                        type: 'button',
                        class: 'danger',
                        text: 'Revoke',
                        'aria-label': 'Revoke key ' + k.prefix + ' of ' + u.email,
                        on: {
                          click: function () {
                            if (!confirm('Revoke this key of ' + u.email + '? Programs using it stop working at once.')) return;
                            api('DELETE', '/api/admin/keys/' + seg(k.id)).then(
                              function () {
                                say('Key revoked.');
                                showKeys(u, cell);
                              },
                              function (e) {
                                say(e.error.message);
                              },
                            );
                          },
                        },
                      }),
                    ]);
                  }),
                )
              : h('span', { class: 'hint', text: 'no keys' }),
          );
        },
        function (e) {
          say(e.error.message);
        },
      );
    }

    function invite(target) {
      var form = $('[data-form=invite]');
      var req = target.userId
        ? api('POST', '/api/admin/users/' + seg(target.userId) + '/invite', {})
        : api('POST', '/api/admin/invites', { email: target.email });
      return req.then(
        function (r) {
          $('[data-testid=invite-url]').textContent = r.invite_url;
          $('[data-testid=invite-box]').hidden = false;
          form.reset();
          say('Invite link for ' + r.email + ' created.');
          load();
        },
        function (e) {
          showError(form, e);
        },
      );
    }
    onSubmit('invite', function (form, fd) {
      invite({ email: String(fd.get('email') || '') });
    });
    load();
  };

  pages['admin-jobs'] = function () {
    var box = $('[data-testid=failed-jobs]');
    function load() {
      api('GET', '/api/admin/jobs?status=failed&limit=50').then(function (list) {
        fill(
          box,
          list.data.length
            ? table(
                ['Job', 'Kind', 'User', 'Error', 'When', ''],
                list.data.map(function (j) {
                  var id = j.job_id || j.id;
                  return [
                    jobLink(id),
                    j.kind,
                    j.user_id || j.owner_id,
                    j.error ? j.error.message : '',
                    when(j.created_at),
                    h('button', {
                      type: 'button',
                      text: 'Retry',
                      'aria-label': 'Retry job ' + id,
                      on: {
                        click: function () {
                          api('POST', '/api/admin/jobs/' + seg(id) + '/retry').then(
                            function () {
                              say('Job ' + id + ' queued again.');
                              load();
                            },
                            function (e) {
                              say(e.error.message);
                            },
                          );
                        },
                      },
                    }),
                  ];
                }),
                'Failed jobs',
              )
            : empty('No failed jobs.'),
        );
      }, failed(box));
    }
    load();
  };

  pages['admin-queue'] = function () {
    var box = $('[data-testid=queue]');
    function load() {
      api('GET', '/api/admin/queue').then(function (q) {
        var rows = [];
        Object.keys(q.queue || {}).forEach(function (k) {
          rows.push(['Queue: ' + k, q.queue[k]]);
        });
        Object.keys(q.jobs || {}).forEach(function (k) {
          rows.push(['Jobs: ' + k, q.jobs[k]]);
        });
        if (q.oldest_waiting)
          rows.push([
            'Oldest waiting',
            (q.oldest_waiting.job_id || '') + ' since ' + when(q.oldest_waiting.created_at || q.oldest_waiting.queued_at),
          ]);
        fill(box, rows.length ? table(['What', 'Count'], rows, 'Queue health') : empty('The queue is empty.'));
        setTimeout(load, 5000);
      }, failed(box));
    }
    load();
  };

  var run = pages[body.getAttribute('data-page')];
  if (run) run();
})();
