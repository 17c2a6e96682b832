// A fetch for the generated clients that keeps what travelled: the request and the raw answer
// (status, headers, exact body text). Checks call through the typed clients and judge the
// recorded exchange, so a non-2xx answer (an ApiError to the client) is judged the same way.
// A run sends a few hundred requests: a 429 with a short Retry-After is waited out and the
// request repeated, so a key's rate limit does not turn into failures of unrelated checks.
// Every answer is shown to `onAnswer` as it arrives (the server clock reads its Date header).
import { retryAfterDelay } from '../../generated/runtime/client-retry.js';

const maxRateLimitWaitMs = 60_000;
const maxRateLimitAttempts = 3;

export interface RecordedExchange {
  method: string;
  url: URL;
  requestHeaders: Headers;
  requestBody: string | undefined;
  status: number;
  headers: Headers;
  bodyText: string;
}

export class ExchangeLog {
  private readonly recorded: RecordedExchange[] = [];

  constructor(private readonly onAnswer: (answer: RecordedExchange, receivedAtMs: number) => void = () => undefined) {}

  readonly fetch: typeof fetch = async (input, init) => {
    let response = await fetch(input, init);
    for (let attempt = 1; response.status === 429 && attempt < maxRateLimitAttempts; attempt++) {
      const wait = retryAfterDelay(response.headers.get('retry-after'), Date.now());
      if (wait === undefined || wait > maxRateLimitWaitMs) break;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, wait));
      response = await fetch(input, init);
    }
    const bodyText = await response.clone().text();
    const answer: RecordedExchange = {
      method: init?.method ?? 'GET',
      url: new URL(String(input instanceof Request ? input.url : input)),
      requestHeaders: new Headers(init?.headers),
      requestBody: typeof init?.body === 'string' ? init.body : undefined,
      status: response.status,
      headers: response.headers,
      bodyText,
    };
    this.record(answer);
    return response;
  };

  /** Keeps an answer that came through another client than `fetch` (a paced request). */
  record(answer: RecordedExchange): void {
    this.recorded.push(answer);
    this.onAnswer(answer, Date.now());
  }

  /** The number of exchanges so far: a mark to read the ones after it with `since`. */
  mark(): number {
    return this.recorded.length;
  }

  since(mark: number): RecordedExchange[] {
    return this.recorded.slice(mark);
  }

  /** Every exchange of the run so far. */
  all(): readonly RecordedExchange[] {
    return this.recorded;
  }
}
