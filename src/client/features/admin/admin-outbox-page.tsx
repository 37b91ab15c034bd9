import { useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator, useSearchParams } from 'react-router';
import type { OutboxEmail } from '../../../shared/admin';
import { formatDateTime } from '../../../shared/dates';
import { mailKinds, type OutboxState, outboxStates } from '../../../shared/mail';
import { pages } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { Pagination } from '../../components/pagination';
import { call, messageOf } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';

export async function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  return call('adminOutbox', {
    query: {
      page: query.get('page') ?? undefined,
      state: (query.get('state') || undefined) as OutboxState | undefined,
    },
  });
}

const stateLabels: Record<OutboxState, string> = { waiting: 'Waiting', sent: 'Sent', failed: 'Failed' };

export default function AdminOutboxPage() {
  const format = useFormat();
  const { emails, page, pages: pageCount, counts } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const shown = search.get('state');
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);

  async function retry(email: OutboxEmail) {
    setMessage(null);
    try {
      await call('adminRetryEmail', { params: { id: email.id } });
      setMessage({ kind: 'status', text: `"${email.subject}" to ${email.recipient} will be sent again.` });
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
    }
    await revalidator.revalidate();
  }

  const all = counts.waiting + counts.sent + counts.failed;
  return (
    <section className="page admin-page" aria-labelledby="outbox-title">
      <DocumentTitle page={pages.adminOutbox.title} />
      <h1 id="outbox-title">Outbox</h1>
      <AdminNav />
      <p>Every e-mail the shop sends waits here until the mail server takes it. A failed one can be sent again.</p>
      <nav className="filters" aria-label="E-mails by state">
        <Link to={pages.adminOutbox.path} aria-current={shown ? undefined : 'page'}>
          All ({all})
        </Link>
        {outboxStates.map((state) => (
          <Link
            key={state}
            to={`${pages.adminOutbox.path}?state=${state}`}
            aria-current={shown === state ? 'page' : undefined}
          >
            {stateLabels[state]} ({counts[state]})
          </Link>
        ))}
      </nav>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {emails.length === 0 ? (
        <p>No e-mails here.</p>
      ) : (
        <DataTable labelledBy="outbox-title">
          <thead>
            <tr>
              <th scope="col">Written</th>
              <th scope="col">E-mail</th>
              <th scope="col">To</th>
              <th scope="col">State</th>
              <th scope="col" className="number">
                Tries
              </th>
              <th scope="col">Last error</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {emails.map((email) => (
              <tr key={email.id}>
                <td>{formatDateTime(email.createdAt, format.locale)}</td>
                <td>
                  {mailKinds[email.kind]}: {email.subject}
                </td>
                <td>{email.recipient}</td>
                <td>
                  {stateLabels[email.state]}
                  {email.sentAt && `, ${formatDateTime(email.sentAt, format.locale)}`}
                  {email.nextAttemptAt && `, next try ${formatDateTime(email.nextAttemptAt, format.locale)}`}
                </td>
                <td className="number">{email.attempts}</td>
                <td>{email.lastError}</td>
                <td>
                  {email.retryable && (
                    <button
                      type="button"
                      className="button button-quiet"
                      aria-label={`Send again: ${email.subject} to ${email.recipient}`}
                      onClick={() => retry(email)}
                    >
                      Send again
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      <Pagination page={page} pages={pageCount} />
    </section>
  );
}
