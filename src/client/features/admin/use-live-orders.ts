import { useEffect } from 'react';
import { useRevalidator } from 'react-router';
import { adminEventSchemas } from '../../../shared/api';
import { liveStreams } from '../../../shared/live-streams';
import { followEvents } from '../../lib/live-events';

const adminOrdersStream = { ...liveStreams.adminOrders, schemas: async () => adminEventSchemas };

/**
 * Reloads the page's data whenever an order is placed or moved, or a return changes, on any server (the owners' live
 * stream); an ended session leaves the page, as on every live page.
 */
export function useLiveOrders(): void {
  const { revalidate } = useRevalidator();
  useEffect(
    () =>
      followEvents(adminOrdersStream, (event) => {
        if (event.type === 'orders') void revalidate();
      }),
    [revalidate],
  );
}
