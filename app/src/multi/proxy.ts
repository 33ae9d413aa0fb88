import http from 'node:http';

export type Side = 'commands' | 'reads';

/** The gateway's rule (deploy/nginx.conf): sign-in and every write to a command API, reads to a read API. */
export function sideOf(method: string, url: string): Side {
  if (/^\/api\/(auth\/|login$|docs)/.test(url)) return 'commands';
  return method === 'GET' || method === 'HEAD' ? 'reads' : 'commands';
}

export interface ProxyStats {
  /** Requests sent again to the next copy after the connection to one failed. */
  retried: number;
  /** Requests answered 502: no copy could be reached, or one was cut off while answering. */
  failed: string[];
}

export interface ProxyServer {
  url: string;
  stats: ProxyStats;
  close(): Promise<void>;
}

/**
 * A small round-robin gateway over several copies of each API. A request whose connection fails
 * before any answer goes to the next copy when it is safe to repeat: a read, or a write that
 * carries an Idempotency-Key (the command API then answers a repeat with its first result).
 */
export async function startProxy(upstreams: Record<Side, number[]>, port = 0): Promise<ProxyServer> {
  const next: Record<Side, number> = { commands: 0, reads: 0 };
  const stats: ProxyStats = { retried: 0, failed: [] };
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const side = sideOf(method, url);
    const ports = upstreams[side];
    const first = next[side]++;
    const repeatable = method === 'GET' || method === 'HEAD' || Boolean(request.headers['idempotency-key']);
    for (let attempt = 0; attempt < ports.length; attempt++) {
      const port = ports[(first + attempt) % ports.length]!;
      const outcome = await forward(port, method, url, request.headers, body, response);
      if (outcome === 'answered') return;
      if (outcome === 'no answer' && repeatable && attempt < ports.length - 1) {
        stats.retried += 1;
        continue;
      }
      stats.failed.push(`${method} ${url}`);
      if (response.headersSent) response.destroy();
      else
        response
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'The service is temporarily unavailable.' }));
      return;
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${bound}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        // Closing a closed server only reports that it was not running.
        server.close(() => resolve());
      }),
  };
}

/** Sends one request on: 'no answer' when the connection failed before an answer began. */
function forward(
  port: number,
  method: string,
  path: string,
  headers: http.IncomingHttpHeaders,
  body: Buffer,
  response: http.ServerResponse,
): Promise<'answered' | 'no answer' | 'cut off'> {
  return new Promise((resolve) => {
    const upstream = http.request({ host: '127.0.0.1', port, method, path, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
      answer.once('close', () => resolve(answer.complete ? 'answered' : 'cut off'));
    });
    // Before any answer, the copy may or may not have acted: only a repeatable request goes on.
    upstream.once('error', () => resolve(response.headersSent ? 'cut off' : 'no answer'));
    upstream.end(body);
  });
}
