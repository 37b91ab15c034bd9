// The local mailbox as a process of its own: SMTP on MAILBOX_SMTP_PORT (default 1025), the e-mails on
// http://127.0.0.1:MAILBOX_WEB_PORT (default 1080). `npm run dev` and the browser tests start it.
import { serveMailbox, startMailbox } from './mailbox';

const smtpPort = Number(process.env.MAILBOX_SMTP_PORT ?? 1025);
const webPort = Number(process.env.MAILBOX_WEB_PORT ?? 1080);

const mailbox = await startMailbox({ port: smtpPort });
const web = await serveMailbox(mailbox, webPort);
process.stdout.write(`Mailbox: SMTP on ${mailbox.url}, e-mails on http://127.0.0.1:${webPort}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    web.close();
    await mailbox.close();
    process.exit(0);
  });
}
