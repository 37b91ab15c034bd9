import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { readQuery } from '../http/input';
import type { SettingsStore } from '../settings/settings-store';
import type { ReportShop, Reports } from './reports';

export interface ReportRouteParts {
  sessions: Sessions;
  reports: Reports;
  /** The shop's settings: its days' time zone, its currency and the low-stock threshold. */
  settings: Pick<SettingsStore, 'current'>;
}

/** The owner's reports (docs/product.md §26): the owner's role checked on every request, as the rest of the back office. */
export function reportRoutes({ sessions, reports, settings }: ReportRouteParts) {
  const owner = sessions.require({ owner: true });
  const shopOf = async (): Promise<ReportShop> => {
    const { format, reports: kept } = await settings.current();
    return { timeZone: format.timeZone, currency: format.currency, lowStock: kept.lowStock };
  };
  return new Hono<AppEnv>()
    .get(endpoints.adminReport.path, owner, async (c) => {
      const shop = await shopOf();
      const period = reports.periodOf(readQuery(c, endpoints.adminReport.query), shop);
      return c.json(await reports.report(period, shop));
    })
    .get(endpoints.adminReportTaxCsv.path, owner, async (c) => {
      const shop = await shopOf();
      const period = reports.periodOf(readQuery(c, endpoints.adminReportTaxCsv.query), shop);
      return c.body(await reports.taxCsv(period, shop), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="piaffe-tax-${period.from}-to-${period.to}.csv"`,
      });
    });
}
