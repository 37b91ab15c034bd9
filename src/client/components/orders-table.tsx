import { Link } from 'react-router';
import { formatDate } from '../../shared/dates';
import { formatCents } from '../../shared/money';
import { type OrderSummary, statusLabels } from '../../shared/orders';
import { fillPath } from '../../shared/paths';
import { useFormat } from '../lib/shop';
import { DataTable } from './data-table';

interface OrdersTableProps {
  /** The id of the heading that names the table. */
  labelledBy: string;
  orders: readonly OrderSummary[];
  /** The page an order's number opens: the rider's or the owner's. */
  orderPath: string;
  /** Whether to show whose order it is (the owner's list). */
  withEmail?: boolean;
}

/** A list of orders, newest first: number (opening the order), date, whose (for the owner), items, total, status. */
export function OrdersTable({ labelledBy, orders, orderPath, withEmail = false }: OrdersTableProps) {
  const { locale } = useFormat();
  return (
    <DataTable labelledBy={labelledBy}>
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Date</th>
          {withEmail && <th scope="col">E-mail</th>}
          <th scope="col" className="number">
            Items
          </th>
          <th scope="col" className="number">
            Total
          </th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.number}>
            <th scope="row">
              <Link to={fillPath(orderPath, { number: order.number })}>{order.number}</Link>
            </th>
            <td>{formatDate(order.placedAt, locale)}</td>
            {withEmail && <td>{order.email}</td>}
            <td className="number">{order.itemCount}</td>
            <td className="number">{formatCents(order.totalCents, { currency: order.currency, locale })}</td>
            <td>{statusLabels[order.status]}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
