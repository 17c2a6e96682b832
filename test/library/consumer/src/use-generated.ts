// An integrator's program over what `exchange-api-kit generate --out src/generated` wrote: the
// generated client against the kit's mock, a generated response validator (ajv's runtime, a peer
// dependency), and a generated express router (express, a peer dependency) answering a request
// its validators refuse. Prints one JSON line for test/library/installed-package.test.ts.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { startMockServer } from 'exchange-api-kit';
import { ExchangeV3Client } from './generated/exchange-v3/client.js';
import { createExchangeV3Router, exchangeV3Routes, exchangeV3RoutesBasePath, type ExchangeV3Handlers } from './generated/exchange-v3/routes.js';
import { operationValidators } from './generated/exchange-v3/validators.js';
import { orderMachine } from './generated/machines.js';

const mock = await startMockServer({ port: 0 });
const app = express();
// No operation is implemented: every request the router's validators let through would throw.
const unimplemented = new Proxy({} as ExchangeV3Handlers, {
  get: (_target, operationId) => () => {
    throw new Error(`${String(operationId)} is not implemented`);
  },
});
app.use(exchangeV3RoutesBasePath, createExchangeV3Router(unimplemented));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
try {
  const ping = await new ExchangeV3Client({ baseUrl: mock.url }).ping();
  const validPing = operationValidators.ping.responses['200'](ping.body);
  const { port } = server.address() as AddressInfo;
  const refused = await fetch(`http://127.0.0.1:${port}${exchangeV3RoutesBasePath}/ping`, { headers: { 'x-correlation-id': 'x'.repeat(200) } });
  console.log(
    JSON.stringify({
      ping: ping.status,
      validPing,
      routes: exchangeV3Routes.length,
      refusedStatus: refused.status,
      orderInitial: orderMachine.initial,
    }),
  );
} finally {
  server.close();
  await mock.close();
}
