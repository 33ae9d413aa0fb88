import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebApp } from './web';

describe('the served web app', () => {
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Shift Coverage</title>');
    writeFileSync(join(root, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n');
    writeFileSync(join(root, 'page-paths.json'), JSON.stringify(['/', '/my-shifts', '/admin', '/login']));
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
});
