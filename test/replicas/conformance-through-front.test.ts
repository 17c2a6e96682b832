// Two `serve` processes on one PostgreSQL database behind a round-robin front: the conformance
// runner, sent through the front (so every other request goes through the replica and is
// forwarded to the holder), finds one sandbox that passes every check.
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/index.js';
import { durableEngines } from '../durable/support/durable-server.js';
import { describeResults, failures } from '../conformance/support/run.js';
import { startRoundRobinFront } from './support/round-robin-front.js';
import { credentials, replicaSet } from './support/replica-set.js';

const postgres = durableEngines().find((engine) => engine.name === 'postgres');

describe.runIf(postgres !== undefined)('a holder and a replica behind a round-robin front', () => {
  afterAll(() => postgres?.cleanUp());

  it('pass a whole conformance run through the front', async () => {
    const replicas = replicaSet(await postgres!.place(), ['--webhook-egress', 'loopback']);
    const holder = await replicas.start();
    const replica = await replicas.start();
    const front = await startRoundRobinFront([holder.url, replica.url]);
    try {
      const report = await runConformance({
        baseUrl: front.url,
        token: credentials.token,
        v1: { key: credentials.siteKey, secret: credentials.siteSecret },
        sandbox: true,
        allowWrites: true,
      });
      expect(failures(report), describeResults(failures(report))).toEqual([]);
      expect(report.summary.pass).toBeGreaterThan(100);
    } finally {
      await front.close();
    }
  }, 120_000);
});
