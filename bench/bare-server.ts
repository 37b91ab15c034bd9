// The reference of the API benchmark: the least a Node.js HTTP server can do for a JSON answer.
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ items: [] }));
const port = Number(process.argv[2] ?? 0);
createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  response.end(body);
}).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
