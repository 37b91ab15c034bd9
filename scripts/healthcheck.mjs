// The container's HEALTHCHECK (Dockerfile): exit 0 when the shop on this machine answers /healthz with 200, 1
// otherwise (the database does not answer, the server is closing or not up). Plain Node: the image has no curl.
const port = process.env.PORT || '3000';
try {
  const reply = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(reply.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
