import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import { limits } from '../../shared/limits';
import { returnNumberPattern, returnStateLabels } from '../../shared/returns';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { orderNumberParam, readJson, readQuery } from '../http/input';
import type { ReturnSettling, SettleResult } from './return-settling';
import type { ReturnStore } from './return-store';

type Refusal = Extract<SettleResult, { ok: false }>;

/** Why a return's step was refused, as our error (with the return's state now, where that helps). */
function returnRefusal(result: Refusal): HttpError {
  if (result.reason === 'refund-failed') {
    return new HttpError(
      'return/refund-failed',
      `Stripe refused the refund: ${result.detail} The return stays received; the refund can be tried again.`,
    );
  }
  if (result.reason === 'payments-unavailable') return new HttpError('server/payments-unavailable');
  const now = 'state' in result && result.state ? ` It is ${returnStateLabels[result.state].toLowerCase()} now.` : '';
  const code: ErrorCode = `return/${result.reason}`;
  return new HttpError(code, now ? `${new HttpError(code).message}${now}` : undefined);
}

/** A return's number from the route, or a return that does not exist. */
function returnNumberParam(text: string | undefined): string {
  if (text === undefined || !returnNumberPattern.test(text)) throw new HttpError('return/not-found');
  return text;
}

export interface ReturnRouteParts {
  sessions: Sessions;
  returns: ReturnStore;
  settling: ReturnSettling;
}

/**
 * Returns (docs/product.md §25): a rider's of their own orders (every query filtered by the session's user), and the
 * owner's list and moves (the role checked on every request, as the rest of the back office).
 */
export function returnRoutes({ sessions, returns, settling }: ReturnRouteParts) {
  const session = sessions.require();
  const owner = sessions.require({ owner: true });
  const answer = (result: Awaited<ReturnType<ReturnSettling['settle']>>) => {
    if (!result.ok) throw returnRefusal(result);
    return { return: result.return };
  };
  return new Hono<AppEnv>()
    .get(endpoints.orderReturns.path, session, async (c) => {
      const number = orderNumberParam(c.req.param('number'));
      const found = await returns.forOrder(number, c.get('session').user.uid);
      if (!found) throw new HttpError('return/order-not-found');
      return c.json(found);
    })

    .post(endpoints.requestReturn.path, session, async (c) => {
      const number = orderNumberParam(c.req.param('number'));
      const request = await readJson(c, endpoints.requestReturn.body, { lines: 'return/invalid' });
      return c.json(answer(await returns.ask(c.get('session').user.uid, number, request)), 201);
    })

    .get(endpoints.adminReturns.path, owner, async (c) => {
      const query = readQuery(c, endpoints.adminReturns.query);
      return c.json(await returns.list(query, limits.pageSize));
    })

    .get(endpoints.adminReturn.path, owner, async (c) => {
      const found = await returns.get(returnNumberParam(c.req.param('number')));
      if (!found) throw new HttpError('return/not-found');
      return c.json({ return: found });
    })

    .post(endpoints.adminReceiveReturn.path, owner, async (c) => {
      const number = returnNumberParam(c.req.param('number'));
      const receipt = await readJson(c, endpoints.adminReceiveReturn.body, { lines: 'return/wrong-lines' });
      return c.json(answer(await returns.receive(number, receipt)));
    })

    .post(endpoints.adminSettleReturn.path, owner, async (c) => {
      const number = returnNumberParam(c.req.param('number'));
      const asked = await readJson(c, endpoints.adminSettleReturn.body);
      return c.json(answer(await settling.settle(number, asked)));
    })

    .post(endpoints.adminRefuseReturn.path, owner, async (c) => {
      const number = returnNumberParam(c.req.param('number'));
      const { reason } = await readJson(c, endpoints.adminRefuseReturn.body, { reason: 'return/invalid' });
      return c.json(answer(await returns.refuse(number, reason)));
    });
}
