import fs from 'node:fs';
import Fastify from 'fastify';

/** The ceiling for the list route: the same Fastify answering a prepared body from memory. Usage: limit-server.ts <port> <body.json> */
const [port = '0', bodyFile = ''] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile);
const app = Fastify({ logger: false });
app.get('/api/v2/entities', (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(body),
);
app.get('/healthz', () => ({ ok: true }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
