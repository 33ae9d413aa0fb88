/**
 * Every call to the API goes through here (docs/product.md §7): cookies always, a JSON body only when there is
 * a payload, docs/product.md §8's error text. Each answer's `x-position` is remembered and every later read
 * asks the server to be at least that far (`x-min-position`), so a screen never shows a list from
 * before the user's own last action. A request the device has no connection for fails with the
 * `offline` code and says what needed the connection.
 */
import { noteAnswer, offlineMessage } from './offline';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly errorType?: string,
  ) {
    super(message);
  }
}

/** The code of an ApiError for a request the browser could not send for want of a connection. */
export const OFFLINE = 'offline';

export function isOffline(error: unknown): boolean {
  return error instanceof ApiError && error.code === OFFLINE;
}

let latestPosition = 0n;
const unauthorizedListeners = new Set<() => void>();

/** Called when a signed-in screen gets a 401 (the session ended elsewhere). */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function remember(response: Response) {
  const header = response.headers.get('x-position');
  if (header && /^\d+$/.test(header) && BigInt(header) > latestPosition) latestPosition = BigInt(header);
}

/** docs/product.md §8: the JSON message when there is one, else "status: body" (or the status text). */
export async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown; errorType?: unknown };
    if (typeof body.message === 'string') {
      return new ApiError(
        response.status,
        body.message,
        typeof body.code === 'string' ? body.code : undefined,
        typeof body.errorType === 'string' ? body.errorType : undefined,
      );
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return new ApiError(response.status, `${response.status}: ${text || response.statusText}`);
}

interface RequestOptions {
  /** Answer null instead of failing on 401 (the current-user probe). */
  nullOn401?: boolean;
  headers?: Record<string, string>;
}

/** Sends a request; the answer when it succeeded, null for a 401 the caller takes (`nullOn401`). */
async function send(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<Response | null> {
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'GET' && latestPosition > 0n) headers['x-min-position'] = latestPosition.toString();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // Said in the user's words when the device has no connection; any other failure as it is.
    if (!navigator.onLine) throw new ApiError(0, offlineMessage(method, path), OFFLINE);
    throw error;
  }
  remember(response);
  noteAnswer(path, response);
  if (response.status === 401) {
    if (options.nullOn401) return null;
    if (path !== '/api/auth/login') for (const listener of unauthorizedListeners) listener();
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

async function bodyOf<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await response.json() : await response.text()) as T;
}

export async function apiRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const response = await send(method, path, body, options);
  return response ? bodyOf<T>(response) : (null as T);
}

/**
 * One page of a list and the path of the next, from the answer's `Link: <…>; rel="next"`, and the
 * whole list's length when the answer says it (`X-Total-Count`).
 */
export interface Page<T> {
  items: T[];
  next: string | null;
  total?: number;
}

/**
 * The items of `pages` in their order, each once: an item whose place in the list's order changed
 * between two page requests can be on both, until the change notice brings the whole list again.
 */
export function itemsOnce<T extends { id: string }>(pages: readonly Page<T>[]): T[] {
  const byId = new Map<string, T>();
  for (const page of pages) for (const item of page.items) if (!byId.has(item.id)) byId.set(item.id, item);
  return [...byId.values()];
}

export function nextPageOf(link: string | null): string | null {
  const match = link ? /<([^>]+)>\s*;\s*rel="next"/.exec(link) : null;
  return match?.[1] ?? null;
}

async function page<T>(path: string, options?: RequestOptions): Promise<Page<T>> {
  const response = (await send('GET', path, undefined, options)) as Response;
  const items = await bodyOf<T[]>(response);
  const next = nextPageOf(response.headers.get('link'));
  const total = Number.parseInt(response.headers.get('x-total-count') ?? '', 10);
  return Number.isSafeInteger(total) && total >= 0 ? { items, next, total } : { items, next };
}

/** Every page of a list, following its next links (for a list already bounded by a window). */
async function everyPage<T>(path: string, options?: RequestOptions): Promise<T[]> {
  const items: T[] = [];
  for (let next: string | null = path; next; ) {
    const answer: Page<T> = await page<T>(next, options);
    items.push(...answer.items);
    next = answer.next;
  }
  return items;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, undefined, options),
  page,
  everyPage,
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => apiRequest<T>('PUT', path, body),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>('PATCH', path, body),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};

/** A query string from the filters that are set ('all' and empty values left out). */
export function withQuery(path: string, query: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '' || value === 'all') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
