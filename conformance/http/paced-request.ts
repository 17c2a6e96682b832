// A body a server may refuse on its announced length alone: the contracts answer a Content-Length
// over the limit at once, before the body is read, and close the connection. Sent whole, the
// body is still on its way when that happens, and the answer can be lost with the connection (a
// proxy whose write fails drops what it received; node's own client does). So the headers and
// the first byte go first, and the rest only if no answer came within a moment: a server that
// reads the whole body before answering still gets it, a little later.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

const earlyAnswerWaitMs = 500;

export interface PacedAnswer {
  status: number;
  headers: Headers;
  bodyText: string;
}

export function sendPaced(url: URL, method: string, headers: Headers, body: string): Promise<PacedAnswer> {
  const bytes = Buffer.from(body, 'utf8');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, { method, headers: { ...Object.fromEntries(headers), 'content-length': String(bytes.length) } });
    let answered = false;
    const rest = setTimeout(() => outgoing.end(bytes.subarray(1)), earlyAnswerWaitMs);
    outgoing.on('response', (answer) => {
      answered = true;
      clearTimeout(rest);
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        resolve({ status: answer.statusCode ?? 0, headers: headersOf(answer.headers), bodyText: Buffer.concat(chunks).toString('utf8') });
        outgoing.destroy(); // the rest of the body is not sent: the connection cannot carry another request
      });
    });
    // Once answered, the server may close the connection under the body still being sent.
    outgoing.on('error', (error) => {
      clearTimeout(rest);
      if (!answered) reject(error);
    });
    outgoing.write(bytes.subarray(0, 1));
  });
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}
