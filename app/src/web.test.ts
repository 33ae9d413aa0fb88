import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  brotliCompressSync,
  brotliDecompressSync,
  crc32,
  gunzipSync,
  gzipSync,
  inflateSync,
} from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt } from './testing/chromium';
import { serveWebApp, WEB_DIST } from './web';

/** What the landing page may download before it draws, as gzip: the first screen of a phone on a slow line. */
const FIRST_SCREEN_BUDGET_BYTES = 150_000;

const decoders = { br: brotliDecompressSync, gzip: gunzipSync };

/** The body of an answer as bytes, decoded by its Content-Encoding. */
function decoded(response: { rawPayload: Buffer; headers: Record<string, unknown> }): Buffer {
  const encoding = response.headers['content-encoding'] as keyof typeof decoders | undefined;
  return encoding ? decoders[encoding](response.rawPayload) : response.rawPayload;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes per pixel of 8-bit PNGs by colour type: grey, RGB, palette, grey + alpha, RGBA. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * The size of an 8-bit PNG as 'WIDTHxHEIGHT', after checking it is one: the signature, every
 * chunk's CRC, and image data that inflates to exactly one filtered row per line of pixels.
 */
function pngSize(png: Buffer): string {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const data: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(
      crc32(png.subarray(at + 4, at + 8 + length)),
    );
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  if (!header) throw new Error('no IHDR chunk');
  const [width, height, depth, colour] = [
    header.readUInt32BE(0),
    header.readUInt32BE(4),
    header[8],
    header[9],
  ];
  expect(depth).toBe(8);
  const channels = PNG_CHANNELS[colour ?? -1];
  if (!channels) throw new Error(`unknown colour type ${colour}`);
  expect(inflateSync(Buffer.concat(data)).length).toBe(height * (1 + width * channels));
  return `${width}x${height}`;
}

describe('the served web app', () => {
  const script = `export const greeting = ${JSON.stringify('Shift Coverage '.repeat(200))};\n`;
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'web-dist-'));
    const html = `<!doctype html><title>Shift Coverage</title>${'<!-- app -->'.repeat(50)}`;
    writeFileSync(join(root, 'index.html'), html);
    writeFileSync(join(root, 'index.html.br'), brotliCompressSync(html));
    writeFileSync(join(root, 'index.html.gz'), gzipSync(html));
    writeFileSync(join(root, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n');
    writeFileSync(join(root, 'page-paths.json'), JSON.stringify(['/', '/my-shifts', '/admin', '/login']));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'assets/index-B2x9Qk1a.js'), script);
    writeFileSync(join(root, 'assets/index-B2x9Qk1a.js.br'), brotliCompressSync(script));
    writeFileSync(join(root, 'assets/index-B2x9Qk1a.js.gz'), gzipSync(script));
    app = Fastify();
    await serveWebApp(app, root);
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(['/', '/my-shifts', '/admin/', '/login?next=%2Fadmin'])(
    'answers the page %s with 200',
    async (url) => {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
    },
  );

  it.each(['/nowhere', '/admin/users', '/my-shifts/x', '/index.php'])(
    'answers %s, outside the route tree, with 404 and the app (its not-found screen)',
    async (url) => {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<title>Shift Coverage</title>');
    },
  );

  it('serves robots.txt as a text file', async () => {
    const response = await app.inject({ url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/plain/);
    expect(response.body).toContain('User-agent: *');
  });

  it('keeps unknown API paths JSON', async () => {
    const response = await app.inject({ url: '/api/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No such route: GET /api/nowhere' });
  });

  it('lets browsers keep a hashed asset for a year without asking again', async () => {
    const response = await app.inject({ url: '/assets/index-B2x9Qk1a.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/', '/admin', '/nowhere', '/robots.txt'])(
    'has browsers ask again for %s, whose name does not change with its content',
    async (url) => {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each([
    ['br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip;q=0.5, br;q=1.0', 'br'],
  ])(
    'answers Accept-Encoding: %s with the %s copy, which decodes to the plain file',
    async (accepted, sent) => {
      for (const url of ['/assets/index-B2x9Qk1a.js', '/', '/my-shifts']) {
        const response = await app.inject({ url, headers: { 'accept-encoding': accepted } });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBe(sent);
        expect(response.headers.vary).toMatch(/accept-encoding/i);
        const plain = readFileSync(join(root, url.startsWith('/assets/') ? url : 'index.html'));
        expect(decoded(response)).toEqual(plain);
      }
      const script = await app.inject({
        url: '/assets/index-B2x9Qk1a.js',
        headers: { 'accept-encoding': accepted },
      });
      expect(script.headers['content-type']).toMatch(/javascript/);
    },
  );

  it('sends the plain file, still varying on Accept-Encoding, to a client that accepts no compression', async () => {
    const response = await app.inject({
      url: '/assets/index-B2x9Qk1a.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.body).toBe(script);
  });

  it('sends the plain file when the build left no compressed copy', async () => {
    const response = await app.inject({ url: '/robots.txt', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toContain('User-agent: *');
  });

  it('does not serve the compressed copies under their own names', async () => {
    const response = await app.inject({ url: '/assets/index-B2x9Qk1a.js.br' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-encoding']).toBeUndefined();
  });
});

describe('the web build', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    ensureWebBuilt();
    app = Fastify();
    await serveWebApp(app);
  });

  afterAll(async () => {
    await app.close();
  });

  it('writes a brotli and a gzip copy of every script and style sheet that compression makes smaller, sent as they are', async () => {
    const assets = readdirSync(join(WEB_DIST, 'assets')).filter((file) => /\.(?:js|css)$/.test(file));
    expect(assets.length).toBeGreaterThan(0);
    for (const file of assets) {
      const plain = readFileSync(join(WEB_DIST, 'assets', file));
      for (const [accepted, extension, compress] of [
        ['br', 'br', brotliCompressSync],
        ['gzip', 'gz', (bytes: Buffer) => gzipSync(bytes, { level: 9 })],
      ] as const) {
        const copyPath = join(WEB_DIST, 'assets', `${file}.${extension}`);
        const response = await app.inject({
          url: `/assets/${file}`,
          headers: { 'accept-encoding': accepted },
        });
        if (!existsSync(copyPath)) {
          expect(compress(plain).length, file).toBeGreaterThanOrEqual(plain.length);
          expect(response.headers['content-encoding'], file).toBeUndefined();
          continue;
        }
        expect(response.headers['content-encoding'], file).toBe(accepted);
        expect(response.rawPayload.equals(readFileSync(copyPath)), file).toBe(true);
        expect(decoded(response).equals(plain), file).toBe(true);
      }
    }
  });

  it('serves the web app manifest with what a phone needs to install the app, and real PNG icons of the stated sizes', async () => {
    const response = await app.inject({ url: '/manifest.webmanifest', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    const manifest = JSON.parse(decoded(response).toString('utf8'));
    expect(manifest).toMatchObject({
      name: 'Shift Coverage',
      short_name: expect.any(String),
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
    });
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of [
      ...icons,
      { src: '/icons/apple-touch-icon.png', sizes: '180x180', type: 'image/png' },
    ]) {
      const png = await app.inject({ url: icon.src });
      expect(png.statusCode, icon.src).toBe(200);
      expect(png.headers['content-type'], icon.src).toBe(icon.type);
      expect(pngSize(png.rawPayload), icon.src).toBe(icon.sizes);
    }
    const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain(`<meta name="theme-color" content="${manifest.theme_color}"`);
  });

  it('serves the service worker from the root, checked on every visit, keeping every script and style sheet of this build', async () => {
    const response = await app.inject({ url: '/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('no-cache');
    const assets = readdirSync(join(WEB_DIST, 'assets')).filter((file) => /\.(?:js|css)$/.test(file));
    for (const file of assets) expect(response.body, file).toContain(`/assets/${file}`);
    expect(response.body).toContain('/manifest.webmanifest');
  });

  it(`keeps what the landing page loads before it draws under ${FIRST_SCREEN_BUDGET_BYTES / 1000} KB of gzip`, () => {
    const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    // The entry script, the chunks it preloads (modulepreload) and the style sheet: all fetched before the first paint.
    const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
      (match) => match[1]!,
    );
    const scripts = files.filter((file) => file.endsWith('.js'));
    expect(files.some((file) => file.endsWith('.css'))).toBe(true);
    const screens = readdirSync(join(WEB_DIST, 'assets')).filter((file) => /-screen-.*\.js$/.test(file));
    expect(screens.length, 'each screen is a chunk of its own').toBeGreaterThan(0);
    expect(scripts.filter((file) => /-screen-/.test(file))).toEqual([]);
    const gzip = files.reduce(
      (sum, file) => sum + gzipSync(readFileSync(join(WEB_DIST, file)), { level: 9 }).length,
      0,
    );
    expect(gzip).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_BYTES);
  });
});
