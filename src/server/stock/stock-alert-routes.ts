import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import type { StockWaits, WaitRefusal } from './stock-waits';

const refusals: Record<WaitRefusal, ErrorCode> = {
  'unknown-product': 'stock-alert/unknown-product',
  'unknown-size': 'stock-alert/unknown-size',
  'in-stock': 'stock-alert/in-stock',
  'too-many': 'stock-alert/too-many',
};

const idPattern = /^[0-9a-f-]{36}$/i;

/**
 * A rider's back-in-stock alerts (docs/product.md §27): 'Email me when it is back', the account page's list and its
 * 'Cancel'. A visitor is refused by the access gate (the page asks them to log in first).
 */
export function stockAlertRoutes({ sessions, waits }: { sessions: Sessions; waits: StockWaits }) {
  const signedIn = sessions.require();
  return (
    new Hono<AppEnv>()
      .get(endpoints.stockAlerts.path, signedIn, async (c) =>
        c.json({ alerts: await waits.list(c.get('session').user.uid) }),
      )

      .post(endpoints.addStockAlert.path, signedIn, async (c) => {
        const { itemid, size } = await readJson(c, endpoints.addStockAlert.body);
        const result = await waits.wait(c.get('session').user.uid, itemid, size);
        if (!result.ok) throw new HttpError(refusals[result.reason]);
        return c.json({ alert: result.alert }, result.created ? 201 : 200);
      })

      // Another rider's alert is answered as one that does not exist.
      .delete(endpoints.cancelStockAlert.path, signedIn, async (c) => {
        const id = c.req.param('id');
        if (!idPattern.test(id) || !(await waits.cancel(c.get('session').user.uid, id))) {
          throw new HttpError('stock-alert/not-found');
        }
        return c.body(null, 204);
      })
  );
}
