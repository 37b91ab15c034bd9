import { Link, useLoaderData } from 'react-router';
import { accountNotices } from '../../../shared/account-notices';
import { hints } from '../../../shared/hints';
import { pages } from '../../../shared/pages';
import { newEmailSchema, newPasswordSchema } from '../../../shared/validation';
import { DocumentTitle } from '../../components/document-title';
import { call } from '../../lib/api';
import { useSession } from '../../lib/session';
import { ChangeForm } from './change-form';
import { DeleteAccountForm } from './delete-account-form';
import { PasskeysSection } from './passkeys-section';
import { SessionsSection } from './sessions-section';
import { StockAlertsSection } from './stock-alerts-section';

/** Where the rider is logged in, for the list of sessions, and the rider's back-in-stock alerts. */
export async function loader() {
  const [{ sessions }, { alerts }] = await Promise.all([call('accountSessions'), call('stockAlerts')]);
  return { sessions, alerts };
}

export default function ManageAccountPage() {
  const { user } = useSession();
  const { sessions, alerts } = useLoaderData<typeof loader>();
  return (
    <section className="page account-page" aria-labelledby="account-title">
      <DocumentTitle page={pages.manageAccount.title} />
      <h1 id="account-title">Your account</h1>
      {user && <p>You are logged in as {user.email}.</p>}
      <p>
        <Link to={pages.orders.path}>Your orders</Link>
      </p>
      <p>Changing your e-mail or password logs you out afterwards; then log in again with your new details.</p>
      <div className="account-forms">
        <ChangeForm
          title="Change e-mail"
          field="email"
          label="New e-mail"
          type="email"
          autoComplete="email"
          hint={hints.email}
          schema={async () => newEmailSchema}
          submit="Change e-mail"
          successNotice={accountNotices.emailChanged}
          save={(email) => call('changeEmail', { body: { email } })}
        />
        <ChangeForm
          title="Change password"
          field="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={hints.password}
          schema={async () => newPasswordSchema}
          submit="Change password"
          successNotice={accountNotices.passwordChanged}
          save={(password) => call('changePassword', { body: { password } })}
        />
        <PasskeysSection />
        <DeleteAccountForm />
      </div>
      <StockAlertsSection alerts={alerts} />
      <SessionsSection sessions={sessions} />
    </section>
  );
}
