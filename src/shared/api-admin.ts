/**
 * The contract's back office (src/shared/api.ts): owners only (403 auth/forbidden for a rider). Orders and their
 * documents, the reports, payment problems, the shop's settings, products, categories, discount codes and the outbox.
 */
import './zod-config';
import { z } from 'zod';
import {
  adminOrdersQuery,
  exportQuery,
  orderMoveSchema,
  outboxEmailSchema,
  outboxPageSchema,
  outboxQuery,
  paymentProblemPageSchema,
} from './admin';
import type { Endpoint } from './api-endpoint';
import { orderReply } from './api-orders';
import {
  adminCategorySchema,
  categoryEditSchema,
  categoryOrderSchema,
  categoryRemoveQuery,
  newCategorySchema,
} from './categories';
import { discountSchema, discountSwitchSchema, newDiscountSchema } from './discounts';
import { documentMonthSchema, documentPaths, documentsQuery, monthQuery } from './invoices';
import { liveStreams } from './live-streams';
import { orderPageSchema } from './orders';
import { pageNumber } from './paging';
import {
  adminProductSchema,
  newProductSchema,
  pictureOrderSchema,
  productChangeSchema,
  productEditSchema,
  productOrderSchema,
} from './products';
import { reportQuery, reportSchema } from './reports';
import {
  returnPageSchema,
  returnReceiptSchema,
  returnRefusalSchema,
  returnSchema,
  returnSettleSchema,
  returnsQuery,
} from './returns';
import { settingsChangeSchema, settingsEditSchema, versionedSettingsSchema } from './settings';

const productReply = z.object({ product: adminProductSchema });
const categoriesReply = z.object({ categories: z.array(adminCategorySchema) });

const pageQuery = z.strictObject({ page: pageNumber });
const returnReply = z.object({ return: returnSchema });

/** The back office's endpoints, in the order of the contract. */
export const adminEndpoints = {
  adminOrders: { method: 'GET', path: '/api/admin/orders', query: adminOrdersQuery, reply: orderPageSchema },
  /** Server-Sent Events: `orders` {} whenever any order is placed or moved; the page reloads its list. */
  adminOrdersStream: { method: 'GET', path: liveStreams.adminOrders.path },
  /** `text/csv`, one row per order line, of the days `from` to `to` (both included, in the shop's time zone). */
  adminExport: { method: 'GET', path: '/api/admin/orders.csv', query: exportQuery },
  adminOrder: { method: 'GET', path: '/api/admin/orders/:number', reply: orderReply },
  adminMoveOrder: { method: 'POST', path: '/api/admin/orders/:number/moves', body: orderMoveSchema, reply: orderReply },
  /** The returns (docs/product.md §25), newest first, by state; live through the orders' stream. */
  adminReturns: { method: 'GET', path: '/api/admin/returns', query: returnsQuery, reply: returnPageSchema },
  adminReturn: { method: 'GET', path: '/api/admin/returns/:number', reply: returnReply },
  /** 'Mark received': every line of a requested return, each restocked or not. */
  adminReceiveReturn: {
    method: 'POST',
    path: '/api/admin/returns/:number/receive',
    body: returnReceiptSchema,
    reply: returnReply,
  },
  /** 'Refund': the lines to refund paid back (and shipping, if asked), the exchange's order made. */
  adminSettleReturn: {
    method: 'POST',
    path: '/api/admin/returns/:number/refund',
    body: returnSettleSchema,
    reply: returnReply,
  },
  adminRefuseReturn: {
    method: 'POST',
    path: '/api/admin/returns/:number/refuse',
    body: returnRefusalSchema,
    reply: returnReply,
  },
  /** The invoices and credit notes of a month (by default the shop's current one), in the order issued. */
  adminInvoices: { method: 'GET', path: '/api/admin/invoices', query: documentsQuery, reply: documentMonthSchema },
  /** `application/zip`, streamed: every PDF of the month and `summary.csv`. */
  adminInvoicesZip: { method: 'GET', path: documentPaths.adminInvoicesZip, query: monthQuery },
  /** `application/pdf`: one invoice or credit note, by its number. */
  adminInvoice: { method: 'GET', path: documentPaths.adminInvoice },
  /** The owner's report of a period (docs/product.md §26). */
  adminReport: { method: 'GET', path: '/api/admin/reports', query: reportQuery, reply: reportSchema },
  /** `text/csv`: the period's tax collected by name and place, to file. */
  adminReportTaxCsv: { method: 'GET', path: '/api/admin/reports/tax.csv', query: reportQuery },
  /** Stripe's webhook events that did not match an order, newest first. */
  adminPaymentProblems: {
    method: 'GET',
    path: '/api/admin/payments/problems',
    query: pageQuery,
    reply: paymentProblemPageSchema,
  },
  /** The shop's settings for the owner's form, with the history of their saves, newest first. */
  adminSettings: {
    method: 'GET',
    path: '/api/admin/settings',
    reply: z.object({ settings: versionedSettingsSchema, history: z.array(settingsChangeSchema) }),
  },
  /** The owner's whole form; 409 settings/changed when `version` is not the settings'. */
  adminSaveSettings: {
    method: 'PUT',
    path: '/api/admin/settings',
    body: settingsEditSchema,
    reply: z.object({ settings: versionedSettingsSchema }),
  },
  adminProducts: {
    method: 'GET',
    path: '/api/admin/products',
    reply: z.object({ products: z.array(adminProductSchema) }),
  },
  adminCreateProduct: { method: 'POST', path: '/api/admin/products', body: newProductSchema, reply: productReply },
  /** Every product's item number, in the home page's new order. */
  adminOrderProducts: {
    method: 'PUT',
    path: '/api/admin/product-order',
    body: productOrderSchema,
    reply: z.object({ products: z.array(adminProductSchema) }),
  },
  adminProduct: {
    method: 'GET',
    path: '/api/admin/products/:itemid',
    /** `waiting`: how many riders wait for each size out of stock, by the size's name (none listed: nobody). */
    reply: productReply.extend({
      history: z.array(productChangeSchema),
      waiting: z.record(z.string(), z.number().int()),
    }),
  },
  /** The owner's whole form; 409 product/changed when `version` is not the product's. */
  adminUpdateProduct: {
    method: 'PUT',
    path: '/api/admin/products/:itemid',
    body: productEditSchema,
    reply: productReply,
  },
  /** The picture's bytes as the body (JPEG, PNG or WebP, at most 5 MB); the server makes both pictures of it. */
  adminProductPicture: { method: 'PUT', path: '/api/admin/products/:itemid/picture', file: true, reply: productReply },
  /** One more picture, last of the product's (it replaces the stand-in of a product without one); at most eight. */
  adminAddProductPicture: {
    method: 'POST',
    path: '/api/admin/products/:itemid/pictures',
    file: true,
    reply: productReply,
  },
  /** The pictures kept, in their new order (the first is the card's); 409 product/changed for a stale `version`. */
  adminOrderProductPictures: {
    method: 'PUT',
    path: '/api/admin/products/:itemid/pictures',
    body: pictureOrderSchema,
    reply: productReply,
  },
  adminCategories: { method: 'GET', path: '/api/admin/categories', reply: categoriesReply },
  adminCreateCategory: {
    method: 'POST',
    path: '/api/admin/categories',
    body: newCategorySchema,
    reply: z.object({ category: adminCategorySchema }),
  },
  /** Its name and size guide; 409 category/changed for a stale `version`. */
  adminUpdateCategory: {
    method: 'PUT',
    path: '/api/admin/categories/:slug',
    body: categoryEditSchema,
    reply: z.object({ category: adminCategorySchema }),
  },
  /** 409 category/has-products unless `withProducts=1`: its products then leave it (and stay in the shop). */
  adminRemoveCategory: {
    method: 'DELETE',
    path: '/api/admin/categories/:slug',
    query: categoryRemoveQuery,
    reply: categoriesReply,
  },
  /** Every category's slug, in the new order. */
  adminOrderCategories: {
    method: 'PUT',
    path: '/api/admin/category-order',
    body: categoryOrderSchema,
    reply: categoriesReply,
  },
  adminDiscounts: {
    method: 'GET',
    path: '/api/admin/discounts',
    reply: z.object({ discounts: z.array(discountSchema) }),
  },
  /** 409 discount/code-taken when a code of the same letters, in any case, exists. */
  adminCreateDiscount: {
    method: 'POST',
    path: '/api/admin/discounts',
    body: newDiscountSchema,
    reply: z.object({ discount: discountSchema }),
  },
  /** Switches a code off (riders are told it is not valid) or on again; a code is never deleted. */
  adminSwitchDiscount: {
    method: 'PUT',
    path: '/api/admin/discounts/:id/enabled',
    body: discountSwitchSchema,
    reply: z.object({ discount: discountSchema }),
  },
  adminOutbox: { method: 'GET', path: '/api/admin/outbox', query: outboxQuery, reply: outboxPageSchema },
  adminRetryEmail: {
    method: 'POST',
    path: '/api/admin/outbox/:id/retry',
    reply: z.object({ email: outboxEmailSchema }),
  },
} as const satisfies Record<string, Endpoint>;
