// Usage: node --experimental-websocket heap-probe.mjs ws://127.0.0.1:PORT/ID
// Connects to a Node process's inspector, runs a full garbage collection there, and prints its
// process.memoryUsage() afterwards as JSON: memory that is still in use, not memory the GC has not
// got round to. Used by the reliability tests to tell a leak from a lazy collector.
const socket = new WebSocket(process.argv[2]);
let id = 0;
const pending = new Map();
const call = (method, params = {}) =>
  new Promise((resolve, reject) => {
    const n = ++id;
    pending.set(n, { resolve, reject });
    socket.send(JSON.stringify({ id: n, method, params }));
  });
socket.addEventListener('message', (event) => {
  const message = JSON.parse(String(event.data));
  const waiter = pending.get(message.id);
  if (!waiter) return;
  pending.delete(message.id);
  if (message.error) waiter.reject(new Error(message.error.message));
  else waiter.resolve(message.result);
});
socket.addEventListener('error', () => {
  console.error('cannot reach the inspector');
  process.exit(1);
});
socket.addEventListener('open', async () => {
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  const { result } = await call('Runtime.evaluate', {
    expression: 'JSON.stringify(process.memoryUsage())',
    returnByValue: true,
  });
  console.log(result.value);
  socket.close();
  process.exit(0);
});
