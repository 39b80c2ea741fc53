import http from 'node:http';

/**
 * The floor for the gateway: the least any relay in Node does (node:http in, node:http out with
 * keep-alive, headers and body passed as they are; no token check, audit event or checks).
 * Usage: bare-relay.ts <port> <upstream base URL>
 */
const [port = '0', upstream = ''] = process.argv.slice(2);
const target = new URL(upstream);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

http
  .createServer((request, response) => {
    const outgoing = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
        agent,
      },
      (incoming) => {
        response.writeHead(incoming.statusCode ?? 502, incoming.headers);
        incoming.pipe(response);
      },
    );
    outgoing.on('error', () => {
      response.statusCode = 502;
      response.end();
    });
    request.pipe(outgoing);
  })
  .listen(Number(port), '127.0.0.1');
