import { type FormEvent, useId, useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useNavigate, useParams } from 'react-router';
import { formatDate } from '../../../shared/dates';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import {
  type ReturnOutcome,
  type ReturnReason,
  type ReturnRequest,
  returnOutcomeLabels,
  returnOutcomes,
  returnReasonLabels,
  returnReasons,
} from '../../../shared/returns';
import { itemWithSize } from '../../../shared/sizes';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { call, messageOf } from '../../lib/api';
import { orNotFound } from '../../lib/not-found';
import { useFormat } from '../../lib/shop';

/** What may still be returned of the rider's order; any other number is the Snap! page. */
export function loader({ params }: LoaderFunctionArgs) {
  return orNotFound(call('orderReturns', { params: { number: params.number ?? '' } }), 'return/order-not-found');
}

type Line = Awaited<ReturnType<typeof loader>>['lines'][number];

/** A chosen line as the form holds it: the reason is chosen from an empty start, the size only for an exchange. */
interface Choice {
  reason: ReturnReason | '';
  outcome: ReturnOutcome;
  size: string;
}

/** One line of the order: its checkbox, and once chosen, its reason and whether it is refunded or exchanged. */
function LineChoice({
  line,
  choice,
  onChange,
}: {
  line: Line;
  choice: Choice | undefined;
  onChange(choice: Choice | undefined): void;
}) {
  const id = useId();
  const item = itemWithSize(line.name, line.size);
  return (
    <fieldset className="card return-line">
      <legend>{item}</legend>
      {!line.returnable ? (
        <p>Already asked back.</p>
      ) : (
        <div className="choice">
          <input
            type="checkbox"
            id={`${id}-return`}
            checked={choice !== undefined}
            onChange={(event) =>
              onChange(event.target.checked ? { reason: '', outcome: 'refund', size: '' } : undefined)
            }
          />
          <label htmlFor={`${id}-return`}>Return {item}</label>
        </div>
      )}
      {choice && (
        <>
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason</label>
            <select
              id={`${id}-reason`}
              required
              value={choice.reason}
              onChange={(event) => onChange({ ...choice, reason: event.target.value as ReturnReason })}
            >
              <option value="">Choose a reason</option>
              {returnReasons.map((reason) => (
                <option key={reason} value={reason}>
                  {returnReasonLabels[reason]}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="outcome">
            <legend>Refund or exchange</legend>
            {returnOutcomes.map((outcome) => (
              <div className="choice" key={outcome}>
                <input
                  type="radio"
                  name={`${id}-outcome`}
                  id={`${id}-${outcome}`}
                  checked={choice.outcome === outcome}
                  disabled={outcome === 'exchange' && line.exchangeSizes.length === 0}
                  onChange={() => onChange({ ...choice, outcome, size: '' })}
                />
                <label htmlFor={`${id}-${outcome}`}>{returnOutcomeLabels[outcome]}</label>
              </div>
            ))}
            {line.exchangeSizes.length === 0 && (
              <p className="field-hint">No other size is in stock to exchange for.</p>
            )}
          </fieldset>
          {choice.outcome === 'exchange' && (
            <div className="field">
              <label htmlFor={`${id}-size`}>Size</label>
              <select
                id={`${id}-size`}
                required
                value={choice.size}
                onChange={(event) => onChange({ ...choice, size: event.target.value })}
              >
                <option value="">Choose a size</option>
                {line.exchangeSizes.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </div>
          )}
        </>
      )}
    </fieldset>
  );
}

/** The lines chosen, as the request sends them. */
function requestOf(chosen: ReadonlyMap<number, Choice>): ReturnRequest {
  return {
    lines: [...chosen].map(([line, { reason, outcome, size }]) => ({
      line,
      // An empty reason is sent as it is, for the server to say what is missing (the selects are required anyway).
      reason: reason as ReturnReason,
      outcome,
      ...(outcome === 'exchange' ? { size } : {}),
    })),
  };
}

export default function OrderReturnPage() {
  const { lines, until } = useLoaderData<typeof loader>();
  const number = useParams().number ?? '';
  const { locale } = useFormat();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<ReadonlyMap<number, Choice>>(new Map());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const orderPath = fillPath(pages.order.path, { number });
  const open = until !== null && lines.some((line) => line.returnable);

  function choose(line: number, choice: Choice | undefined) {
    const next = new Map(chosen);
    if (choice) next.set(line, choice);
    else next.delete(line);
    setChosen(next);
  }

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const reply = await call('requestReturn', { params: { number }, body: requestOf(chosen) });
      navigate(orderPath, { state: { returned: reply.return.number } });
    } catch (error) {
      setProblem(messageOf(error));
      setBusy(false);
    }
  }

  return (
    <section className="page return-page" aria-labelledby="return-title">
      <DocumentTitle page={`Return items of ${number}`} />
      <h1 id="return-title">Return items</h1>
      <p>
        Order <Link to={orderPath}>{number}</Link>.
      </p>
      {open ? (
        <form aria-labelledby="return-title" className="form return-form" onSubmit={send}>
          <p>
            Choose what you send back, by {formatDate(until, locale)}: for each item a reason, and your money back or
            another size.
          </p>
          {lines.map((line) => (
            <LineChoice
              key={line.line}
              line={line}
              choice={chosen.get(line.line)}
              onChange={(choice) => choose(line.line, choice)}
            />
          ))}
          {problem && <Alert kind="alert">{problem}</Alert>}
          <p className="actions">
            <button type="submit" className="button" disabled={busy}>
              Send the request
            </button>
            <Link className="button button-quiet" to={orderPath}>
              Back to the order
            </Link>
          </p>
        </form>
      ) : (
        <>
          <Alert kind="status">
            {until === null
              ? 'This order can no longer be returned.'
              : 'Every item of this order has already been asked back.'}
          </Alert>
          <p>
            <Link className="button" to={orderPath}>
              Back to the order
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
