// Raw HTTP for what the generated clients deliberately cannot send: malformed JSON, wrong
// content types, undeclared methods and paths, oversize bodies.
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when the response says JSON; undefined otherwise. */
  json: unknown;
  contentType: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export async function send(baseUrl: string, path: string, request: RawRequest = {}): Promise<RawResponse> {
  const response = await fetch(baseUrl + path, {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const contentType = response.headers.get('content-type') ?? '';
  // An event stream never ends (streamWebhookEvents): its answer is judged by status and headers.
  if (contentType.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, headers: response.headers, text: '', json: undefined, contentType };
  }
  const text = await response.text();
  let json: unknown;
  if (/[/+]json\b/.test(contentType)) json = JSON.parse(text) as unknown; // a JSON content type must carry JSON
  return { status: response.status, headers: response.headers, text, json, contentType };
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}
