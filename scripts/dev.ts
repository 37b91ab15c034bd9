// `npm run dev`: the API server on port 3001, restarted on change, behind Vite's dev server with hot reload on
// http://localhost:3000 (Vite proxies /api to it), and a local mailbox that shows every e-mail the shop sends on
// http://localhost:1080 (SMTP on port 1025): a process of its own, so that its e-mails outlive the API server's restarts
// (the shop's own local mailbox, which `npm start` has with no SMTP_URL, would start empty at each).
import { type ChildProcess, spawn } from 'node:child_process';

const mailbox = { smtp: 1025, web: 1080 };

const children: ChildProcess[] = [
  spawn(process.execPath, ['--import', 'tsx', 'scripts/mailbox-server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, MAILBOX_SMTP_PORT: String(mailbox.smtp), MAILBOX_WEB_PORT: String(mailbox.web) },
  }),
  spawn(process.execPath, ['--watch', '--import', 'tsx', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: '3001',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:3000',
      SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${mailbox.smtp}`,
    },
  }),
  spawn('npx', ['vite', '--port', '3000', '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, API_PORT: '3001' },
  }),
];

function stop() {
  for (const child of children) child.kill('SIGTERM');
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
for (const child of children) child.once('exit', stop);
