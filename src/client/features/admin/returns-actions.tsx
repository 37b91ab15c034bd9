import { type FormEvent, useId, useState } from 'react';
import { limits } from '../../../shared/limits';
import { formatCents } from '../../../shared/money';
import type { Return } from '../../../shared/returns';
import { itemWithSize } from '../../../shared/sizes';
import { call, messageOf } from '../../lib/api';
import { useFormat } from '../../lib/shop';

/** What an action tells the page: what happened (or why not), and whether it happened. */
type Done = (message: string, ok: boolean) => void;

/** Runs an action once at a time: its call, then the page's message either way. */
function useAction(onDone: Done): { busy: boolean; run(action: () => Promise<string>): Promise<void> } {
  const [busy, setBusy] = useState(false);
  return {
    busy,
    async run(action) {
      if (busy) return;
      setBusy(true);
      try {
        onDone(await action(), true);
      } catch (error) {
        onDone(messageOf(error), false);
      }
      setBusy(false);
    },
  };
}

/** 'Mark received': every line of the return, each back on the shelf unless 'Damaged, do not restock' is ticked. */
export function ReceiveForm({ item, onDone }: { item: Return; onDone: Done }) {
  const id = useId();
  const [damaged, setDamaged] = useState<ReadonlySet<number>>(new Set());
  const { busy, run } = useAction(onDone);

  function tick(line: number, on: boolean) {
    const next = new Set(damaged);
    if (on) next.add(line);
    else next.delete(line);
    setDamaged(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      const lines = item.lines.map(({ line }) => ({ line, restock: !damaged.has(line) }));
      await call('adminReceiveReturn', { params: { number: item.number }, body: { lines } });
      return `Return ${item.number} is marked received; the items not marked damaged are back in stock.`;
    });
  }

  return (
    <form className="form" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>Mark received</h3>
      <p>Each item goes back in stock, unless it is damaged.</p>
      {item.lines.map((line) => (
        <fieldset className="return-line" key={line.line}>
          <legend>{itemWithSize(line.name, line.size)}</legend>
          <div className="choice">
            <input
              type="checkbox"
              id={`${id}-${line.line}`}
              checked={damaged.has(line.line)}
              onChange={(event) => tick(line.line, event.target.checked)}
            />
            <label htmlFor={`${id}-${line.line}`}>Damaged, do not restock</label>
          </div>
        </fieldset>
      ))}
      <button type="submit" className="button" disabled={busy}>
        Mark received
      </button>
    </form>
  );
}

/**
 * 'Refund': pays back the lines to refund (and shipping, when ticked) and makes the exchange's new order; only an
 * exchange to send makes it 'Send the exchange'.
 */
export function SettleForm({ item, onDone }: { item: Return; onDone: Done }) {
  const id = useId();
  const { locale } = useFormat();
  const [refundShipping, setRefundShipping] = useState(false);
  const { busy, run } = useAction(onDone);
  const money = (cents: number) => formatCents(cents, { currency: item.currency, locale });
  const refunds = item.lines.some((line) => line.outcome === 'refund');
  const exchanges = item.lines.some((line) => line.outcome === 'exchange');
  const total = item.dueCents + (refundShipping ? item.shippingDueCents : 0);
  const button = refunds ? 'Refund' : 'Send the exchange';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      const { return: settled } = await call('adminSettleReturn', {
        params: { number: item.number },
        body: { refundShipping },
      });
      const paid = settled.refund ? `${money(settled.refund.amountCents)} is paid back` : '';
      const sent = settled.exchangeOrder ? `the exchange is sent as order ${settled.exchangeOrder}` : '';
      return `Return ${item.number}: ${[paid, sent].filter(Boolean).join(', and ')}. The rider gets an e-mail.`;
    });
  }

  return (
    <form className="form" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>{button}</h3>
      <dl className="facts">
        <dt>Items to refund</dt>
        <dd>{money(item.dueCents)}</dd>
        {item.shippingDueCents > 0 && (
          <>
            <dt>Shipping</dt>
            <dd>{money(item.shippingDueCents)}</dd>
          </>
        )}
        <dt>Paid back now</dt>
        <dd>{money(total)}</dd>
      </dl>
      {item.shippingDueCents > 0 && (
        <div className="choice">
          <input
            type="checkbox"
            id={`${id}-shipping`}
            checked={refundShipping}
            onChange={(event) => setRefundShipping(event.target.checked)}
          />
          <label htmlFor={`${id}-shipping`}>Refund shipping</label>
        </div>
      )}
      {exchanges && <p>The sizes asked in exchange go out as a new order, at no charge.</p>}
      <button type="submit" className="button" disabled={busy}>
        {button}
      </button>
    </form>
  );
}

/** 'Refuse', with the reason the rider is e-mailed. */
export function RefuseForm({ item, onDone }: { item: Return; onDone: Done }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const { busy, run } = useAction(onDone);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      await call('adminRefuseReturn', { params: { number: item.number }, body: { reason } });
      return `Return ${item.number} is refused. The rider gets an e-mail with the reason.`;
    });
  }

  return (
    <form className="form" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>Refuse</h3>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason, told to the rider</label>
        <input
          id={`${id}-reason`}
          required
          value={reason}
          maxLength={limits.noteMax}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
      <button type="submit" className="button button-danger" disabled={busy}>
        Refuse the return
      </button>
    </form>
  );
}
