// The webhook event stream across a restart on a durable store (a sqlite: file, a postgres://
// database): the sandbox resumes, but the stream's backlog is the process's, so the restarted mock
// begins a new stream. A listener reconnecting with the last id it read before the restart (what
// `exchange-api-kit listen` does) gets the restarted mock's events from the first, rather than
// skipping as many as it had read before.
import { afterAll, describe, expect, it } from 'vitest';
import type { WebhookStreamEvent } from '../../generated/sandbox-control/types.js';
import { openStream } from '../mock-server/support/event-stream.js';
import { durableEngines, durablePlace } from './support/durable-server.js';

describe.each(durableEngines())('the webhook event stream of a mock restarted on the $name engine', (engine) => {
  afterAll(() => engine.cleanUp());

  it('gives a listener reconnecting with an id from before the restart the new events from the first', async () => {
    const place = await durablePlace(engine);
    const first = await place.start();
    let lastId: string;
    try {
      const stream = await openStream(first.url, '?events=webhook.test');
      for (let sent = 0; sent < 3; sent += 1) await first.v1.sendSiteTestWebhook();
      for (let read = 0; read < 3; read += 1) lastId = (await stream.next()).id!;
      stream.close();
    } finally {
      await first.close();
    }
    const restarted = await place.start();
    try {
      const fresh: string[] = [];
      for (let sent = 0; sent < 4; sent += 1) fresh.push((await restarted.v1.sendSiteTestWebhook()).body.data.eventId);
      const again = await openStream(restarted.url, '?events=webhook.test', { 'Last-Event-ID': lastId! });
      try {
        const events: WebhookStreamEvent[] = [];
        for (let read = 0; read < 4; read += 1) events.push(JSON.parse((await again.next()).data) as WebhookStreamEvent);
        expect(events.map((event) => event.event_id)).toEqual(fresh);
        expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
      } finally {
        again.close();
      }
    } finally {
      await restarted.close();
    }
  });
});
