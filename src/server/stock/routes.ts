import { Hono } from 'hono';
import { type CatalogueProduct, endpoints, type Stock, type StockEvent } from '../../shared/api';
import { catalogue } from '../../shared/catalogue';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { type LiveStreams, type StreamSource, sseFrame } from '../http/live-streams';
import { type StockStore, stockTopic } from './stock-store';

function frame({ type, ...data }: StockEvent): string {
  return sseFrame(type, data);
}

/** The live stock of every size (docs/API.md, "The live stock"): all of it first, then each change. */
function stockStream(stock: StockStore): StreamSource<Stock> {
  const snapshot = async () => frame({ type: 'snapshot', stock: await stock.all() });
  return {
    topic: stockTopic,
    start: snapshot,
    // `lost`: changes may have been missed, so all of it again.
    frame: (change) => ('type' in change ? snapshot() : frame({ type: 'stock', ...change })),
  };
}

/** The products with their sizes and stock, in one answer for the home page's first paint; and their live stock. */
export function stockRoutes(sessions: Sessions, stock: StockStore, streams: LiveStreams) {
  const session = sessions.require();
  return new Hono<AppEnv>()
    .get(endpoints.catalogue.path, async (c) => {
      const sizes = new Map<string, CatalogueProduct['sizes']>();
      for (const { itemid, size, stock: left } of await stock.all()) {
        const ofItem = sizes.get(itemid);
        if (ofItem) ofItem.push({ size, stock: left });
        else sizes.set(itemid, [{ size, stock: left }]);
      }
      const products = catalogue.map((product) => ({ ...product, sizes: sizes.get(product.itemid) ?? [] }));
      return c.json({ products });
    })

    .get(endpoints.catalogueStream.path, session, (c) => streams.open(c, c.get('session'), () => stockStream(stock)));
}
