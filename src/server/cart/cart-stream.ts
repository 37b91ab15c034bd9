import type { CartEvent } from '../../shared/api';
import { type StreamSource, sseFrame, versionOf } from '../live/live-streams';
import { type CartChange, type CartOwner, type CartStore, cartTopic } from './cart-store';

function frame({ type, ...data }: CartEvent): string {
  return sseFrame(type, data);
}

/**
 * A rider's or a visitor's live cart (docs/API.md, "The live stream"): the whole cart first, then each change; the whole cart
 * again whenever changes may have been missed. An emptied cart (an order was placed) is an empty snapshot. A page that
 * shows the cart as it is now (`known`: the version its HTML came with) gets no first snapshot.
 */
export function cartStream(cart: CartStore, owner: CartOwner, known: string | undefined): StreamSource<CartChange> {
  const snapshot = async () => frame({ type: 'snapshot', items: await cart.list(owner) });
  return {
    topic: cartTopic(owner),
    start: async () => {
      const items = await cart.list(owner);
      return known !== undefined && versionOf(items) === known ? '' : frame({ type: 'snapshot', items });
    },
    frame(change) {
      if (change.type === 'added') return frame({ type: 'added', item: change.item });
      if (change.type === 'removed') return frame({ type: 'removed', id: change.id });
      if (change.type === 'emptied') return frame({ type: 'snapshot', items: [] });
      // `changed` or `lost`: read the whole cart again.
      return snapshot();
    },
  };
}
