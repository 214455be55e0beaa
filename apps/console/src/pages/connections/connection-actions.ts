/**
 * What a connection's buttons do that is one API call: test it (the shop's name, or why not), pause or resume
 * it, disconnect it (after a confirmation). Each says the outcome and loads the list again where it changed.
 */
import { api, type ApiError } from '../../shared/api';
import type { Connection, ConnectionTest } from '../../shared/api-types';
import { say } from '../../shared/dom';
import { seg } from '../../shared/format';
import { PLATFORM_NAMES } from './connection-text';
import { cs, dropParts, partsOf } from './connections-state';

export function connectionPath(c: Pick<Connection, 'id'>): string {
  return '/api/v2/connections/' + seg(c.id);
}

function message(e: ApiError): string {
  return (e && e.error && e.error.message) || 'Something went wrong.';
}

/** POST …/test: the outcome in the card's result line (kept across redraws) and in the status line. */
export function runTest(c: Connection): Promise<void> {
  const out = partsOf(c.id).result;
  out.className = 'conn-result';
  out.textContent = 'Testing the connection to ' + c.shop + '…';
  return api<ConnectionTest>('POST', connectionPath(c) + '/test').then(
    function (r) {
      let text: string;
      if (r.ok) text = 'Connected to ' + (r.shop_name || c.shop) + '.';
      else if (r.reason === 'unauthorized')
        text = PLATFORM_NAMES[c.platform] + ' refused the credentials: enter new ones under Edit. (' + r.message + ')';
      else if (r.reason === 'unreachable') text = 'Could not reach the shop: ' + r.message + '. Try again later.';
      else text = 'The shop answered with an error: ' + r.message;
      out.className = 'conn-result ' + (r.ok ? 'ok' : 'bad');
      out.textContent = text;
      say(text);
      // A refusal marks the connection unauthorized, a success makes it active again.
      if ((r.ok && c.status === 'unauthorized') || (!r.ok && r.reason === 'unauthorized' && c.status !== 'unauthorized'))
        return cs.actions.load();
    },
    function (e: ApiError) {
      out.className = 'conn-result bad';
      out.textContent = 'Test failed: ' + message(e);
      say(out.textContent);
    },
  );
}

/** PATCH {status}: paused (no scheduled or webhook syncs) or active again. */
export function setPaused(c: Connection, paused: boolean): Promise<void> {
  return api<Connection>('PATCH', connectionPath(c), { status: paused ? 'paused' : 'active' }).then(
    function () {
      say(paused ? 'Paused ' + c.shop + ': nothing syncs until you resume it.' : 'Resumed ' + c.shop + '.');
      return cs.actions.load();
    },
    function (e: ApiError) {
      say(message(e));
    },
  );
}

/** DELETE, after a confirmation: the connection and its credentials go; the showcase and its pictures stay. */
export function disconnect(c: Connection): Promise<void> {
  if (
    !confirm(
      'Disconnect ' +
        c.shop +
        '? Its credentials are deleted and it stops syncing. The showcase and its pictures stay; the AR links already in the shop stay too.',
    )
  )
    return Promise.resolve();
  return api('DELETE', connectionPath(c)).then(
    function () {
      dropParts(c.id);
      say('Disconnected ' + c.shop + '.');
      return cs.actions.load();
    },
    function (e: ApiError) {
      say(message(e));
    },
  );
}
