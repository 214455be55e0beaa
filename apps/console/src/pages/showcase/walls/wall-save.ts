/** Saving the arranged wall: POST …/walls (a new wall, 1 credit) or PATCH …/walls/{id} (an edit). */
import { api, type ErrorLike } from '../../../shared/api';
import type { UpdateWallRequest, Wall, WallCreated, WallRebuild } from '../../../shared/api-types';
import { say } from '../../../shared/dom';
import { active, seg } from '../../../shared/format';
import { close, itemsOut, options, showErr, type WallRequest } from './wall-arranger';
import { loadList, pollResult, showResult } from './wall-list';
import { check } from './wall-stage';
import { W } from './wall-state';

export function save(): void {
  if (!W.A || W.A.saving) return;
  check();
  if (W.E.save.disabled) return;
  W.E.err.hidden = true;
  const name = W.E.name.value.trim();
  let payload: WallRequest | UpdateWallRequest;
  const editing = !!W.A.wall;
  if (editing && !W.A.touched) {
    if (name === W.A.wall!.name || !name) {
      say('Nothing to save: the wall is as it was.');
      return;
    }
    payload = { name: name };
  } else {
    const request = options(W.A.arrangement === 'custom' ? 'custom' : W.A.preset);
    payload = request;
    if (name) request.name = name;
    request.items =
      W.A.arrangement === 'custom'
        ? W.A.pics.map(function (p) {
            const o: NonNullable<WallRequest['items']>[number] = { item_id: p.item_id };
            if (p.variant_sku) o.variant_sku = p.variant_sku;
            o.x_inches = p.x;
            o.y_inches = p.y;
            return o;
          })
        : itemsOut();
  }
  W.A.saving = true;
  W.E.save.setAttribute('aria-disabled', 'true');
  W.E.save.disabled = true;
  say(editing ? 'Saving the wall…' : 'Saving the wall and starting its build…');
  api<WallCreated | WallRebuild | Wall>(editing ? 'PATCH' : 'POST', editing ? W.WALLS + '/' + seg(W.A.wall!.id) : W.WALLS, payload).then(
    function (r) {
      // 201 {wall, credits_charged} for a new wall; an edit answers the wall, or {wall, job_id} when it is rebuilt.
      const w = (r && 'wall' in r && r.wall) || (r as Wall);
      const charged = r && 'credits_charged' in r ? r.credits_charged : undefined;
      W.A!.saving = false;
      W.A!.dirty = false;
      W.E.save.removeAttribute('aria-disabled');
      close();
      showResult(w);
      say(
        'Gallery wall "' +
          w.name +
          '" saved' +
          (charged ? ' (' + charged + ' credit' + (charged === 1 ? '' : 's') + ' charged)' : '') +
          (active(w.status) ? '; building its AR model.' : '.'),
      );
      W.E.result.scrollIntoView({ block: 'nearest' });
      if (active(w.status)) pollResult(w.id);
      loadList();
    },
    function (e: ErrorLike) {
      W.A!.saving = false;
      W.E.save.removeAttribute('aria-disabled');
      check();
      showErr(e);
    },
  );
}
