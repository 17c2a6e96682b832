// Follows a mock's webhook event stream (streamWebhookEvents) over real HTTP for a test: the
// messages as they arrive, `next()` for the next one, `close()` to end the connection.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface OpenStream {
  response: Response;
  /** Messages received and not yet taken by next(). */
  messages: EventSourceMessage[];
  next(): Promise<EventSourceMessage>;
  close(): void;
}

/** Opens the stream of the mock at `baseUrl`; `query` starts with `?` when given. */
export async function openStream(baseUrl: string, query = '', headers: Record<string, string> = {}): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/__mock/webhooks/stream${query}`, { headers, signal: controller.signal });
  const messages: EventSourceMessage[] = [];
  const waiters: (() => void)[] = [];
  const parser = createParser({
    onEvent: (message) => {
      messages.push(message);
      waiters.splice(0).forEach((wake) => wake());
    },
  });
  if (response.ok) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      } catch {
        // closed by the test
      }
    })();
  }
  return {
    response,
    messages,
    async next(): Promise<EventSourceMessage> {
      while (messages.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
      return messages.shift()!;
    },
    close: () => controller.abort(),
  };
}
