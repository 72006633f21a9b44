// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_SCHEMAS } from '../../src/server/openapi/route-schemas.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Operation = {
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  parameters?: { in: string; name: string }[];
  responses?: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('the OpenAPI document (development)', () => {
  let app: TestApp;
  let document: Document;
  beforeAll(async () => {
    app = await startTestApp();
    const response = await fetch(`${app.url}/api/dev/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is OpenAPI 3.1 with the request bodies converted from the shared valibot schemas', () => {
    expect(document.openapi).toBe('3.1.0');
    const login = document.paths['/api/auth/login']?.post;
    const schema = login?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(expect.arrayContaining(['email', 'password']));
    const send = document.paths['/api/messages/messages']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(send?.properties ?? {})).toEqual(expect.arrayContaining(['conversationId', 'text', 'clientId']));
    const list = document.paths['/api/messages/conversations/{id}/messages']?.get;
    expect(list?.parameters?.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(
      expect.arrayContaining(['query:limit', 'query:before', 'path:id']),
    );
    expect(document.paths['/api/ready']?.get?.responses?.['200']?.content?.['application/json']?.schema).toBeTruthy();
  });

  it('documents every schema-mapped route Fastify really has, and nothing outside /api', () => {
    for (const key of Object.keys(ROUTE_SCHEMAS)) {
      const [method, url] = key.split(' ') as [string, string];
      const path = url.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(document.paths[path]?.[method.toLowerCase()], key).toBeDefined();
    }
    for (const path of Object.keys(document.paths)) {
      expect(path.startsWith('/api/') && !path.startsWith('/api/dev/'), path).toBe(true);
    }
  });
});
