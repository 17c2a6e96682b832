// One request to a replica on a connection of its own, for the suites on its forwarding: its status
// and body, or 'closed' when the replica closed the connection unanswered.
import { request } from 'node:http';

/** `body` (JSON) is sent with any method but GET; '{}' unless given. */
export function call(url: string, method: string, path: string, body = '{}'): Promise<string> {
  return new Promise((resolve) => {
    const headers = method === 'GET' ? {} : { 'content-type': 'application/json' };
    const sent = request(new URL(path, url), { method, headers, agent: false }, (answer) => {
      let text = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve(`${answer.statusCode} ${text}`));
    });
    sent.on('error', () => resolve('closed'));
    sent.end(method === 'GET' ? undefined : body);
  });
}
