import { card } from '../../shared/payment/card';
import type { SettingsStore } from '../settings/settings-store';

/**
 * The payment methods a rider is offered: the settings', in their order, less Card on a server without Stripe's keys.
 * GET /api/payment-methods answers them, the checkout's page data carries them, and an order must name one.
 */
export async function offeredPaymentMethods(settings: SettingsStore, takesCards: boolean): Promise<string[]> {
  return (await settings.current()).paymentMethods.filter((id) => id !== card.id || takesCards);
}
