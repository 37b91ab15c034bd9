import { Hono } from 'hono';
import { endpoints, type StockEvent } from '../../shared/api';
import { knownParam } from '../../shared/live-streams';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readQuery } from '../http/input';
import type { LiveStreams, StreamSource } from '../live/live-streams';
import { sseFrame } from '../live/live-streams';
import { type CatalogueChange, catalogueTopic } from '../stock/catalogue-changes';
import type { CatalogueStore } from './catalogue-store';

function frame({ type, ...data }: StockEvent): string {
  return sseFrame(type, data);
}

/**
 * The shown products' stock and the products: the stream's first frames, and again after each change of the owner's
 * (a product shown again comes with its stock as it is now, one hidden leaves the page's stock with it). Both from one
 * read, so they agree; a hidden product is in neither (docs/SECURITY.md: hidden is unreachable).
 */
async function shownFrames(catalogue: CatalogueStore): Promise<string> {
  const products = await catalogue.shown();
  const stock = products.flatMap(({ itemid, sizes }) => sizes.map(({ size, stock }) => ({ itemid, size, stock })));
  return frame({ type: 'snapshot', stock }) + frame({ type: 'products', products });
}

/**
 * The live catalogue (docs/API.md, "The live stock"): the shown products' stock and the products first, then each
 * change of a shown product's stock, and both again whenever the owner changes the products. A hidden product's
 * stock is never sent: the catalogue says which are shown as the change is sent, after any change of the owner's
 * committed before it.
 */
function catalogueStream(
  catalogue: CatalogueStore,
  productsAfter: (change: CatalogueChange) => Promise<string>,
  known: string | undefined,
): StreamSource<CatalogueChange> {
  return {
    topic: catalogueTopic,
    // A page that shows the products as they are now (`known`: the version its HTML came with) needs no first snapshot.
    start: async () =>
      known !== undefined && (await catalogue.shownVersion()) === known ? '' : shownFrames(catalogue),
    async frame(change) {
      if (change.type === 'stock') {
        const { type, ...size } = change;
        return (await catalogue.isShown(size.itemid)) ? frame({ type: 'stock', ...size }) : '';
      }
      // `lost`: changes may have been missed, so all of it again.
      return change.type === 'products' ? productsAfter(change) : shownFrames(catalogue);
    },
  };
}

/**
 * The frames after an owner's change, made once for every open stream of this server: the feed hands each of them
 * the same event, so the frames are kept by it (and go with it).
 */
function productsFrames(catalogue: CatalogueStore): (change: CatalogueChange) => Promise<string> {
  const frames = new WeakMap<CatalogueChange, Promise<string>>();
  return (change) => {
    let made = frames.get(change);
    if (!made) {
      made = shownFrames(catalogue);
      frames.set(change, made);
    }
    return made;
  };
}

/** An uploaded picture's file name: its hash and the type it was made in. */
const pictureFile = /^([0-9a-f]{64})\.webp$/;

export interface CatalogueRouteParts {
  sessions: Sessions;
  catalogue: CatalogueStore;
  streams: LiveStreams;
}

/**
 * The products the home page shows, with their sizes and stock, in one answer for its first paint; their live
 * changes; and the uploaded pictures, under URLs that change with their content.
 */
export function catalogueRoutes({ sessions, catalogue, streams }: CatalogueRouteParts) {
  const productsAfter = productsFrames(catalogue);
  return (
    new Hono<AppEnv>()
      .get(endpoints.catalogue.path, async (c) => c.json({ products: await catalogue.shown() }))

      .get(endpoints.products.path, async (c) => c.json(await catalogue.list(readQuery(c, endpoints.products.query))))

      .get(endpoints.product.path, async (c) => {
        const product = await catalogue.details(c.req.param('slug'));
        if (!product) throw new HttpError('product/no-page');
        return c.json({ product });
      })

      // A rider's, or a visitor's of a shop open to everyone (the access gate decides, src/server/auth/access-gate.ts).
      .get(endpoints.catalogueStream.path, async (c) =>
        streams.open(c, (await sessions.find(c)) ?? undefined, () =>
          catalogueStream(catalogue, productsAfter, c.req.query(knownParam)),
        ),
      )

      .get('/media/:file', async (c) => {
        const id = pictureFile.exec(c.req.param('file'))?.[1];
        const picture = id === undefined ? undefined : await catalogue.picture(id);
        if (!picture) return c.body('Not found', 404, { 'Content-Type': 'text/plain; charset=utf-8' });
        // The type the server made it in, never what an upload claimed; the URL changes with the bytes.
        return c.body(new Uint8Array(picture.bytes), 200, {
          'Content-Type': picture.contentType,
          'Cache-Control': 'public, max-age=31536000, immutable',
        });
      })
  );
}
