import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import type { GoogleStandIn } from './google-stand-in.ts';
import { GSI_BUTTON_STYLES, renderGsiClientScript } from './google-stand-in-gsi-script.ts';
import {
  renderInvalidClientPage,
  renderSigninPage,
  SIGNIN_SCRIPT,
  SIGNIN_STYLES,
  STAND_IN_DEMO_ACCOUNTS,
  STAND_IN_FAVICON,
} from './google-stand-in-page.ts';

/** Body of `POST /api/dev/google/token`: the account chosen or typed in the popup. */
export const StandInTokenRequestSchema = v.strictObject({
  email: v.pipe(
    v.string('El campo Email es obligatorio'),
    v.trim(),
    v.nonEmpty('El campo Email es obligatorio'),
    v.maxLength(254, 'Por favor ingresa un Email válido'),
    v.email('Por favor ingresa un Email válido'),
  ),
  givenName: v.pipe(
    v.string('El campo Nombre es obligatorio'),
    v.trim(),
    v.nonEmpty('El campo Nombre es obligatorio'),
    v.maxLength(100, 'El nombre es demasiado largo'),
  ),
  familyName: v.optional(
    v.pipe(v.string('Los apellidos no son válidos'), v.trim(), v.maxLength(100, 'Los apellidos son demasiado largos')),
  ),
  picture: v.optional(
    v.pipe(v.string('La foto no es válida'), v.url('La foto no es válida'), v.maxLength(2048, 'La foto no es válida')),
  ),
  nonce: v.optional(v.pipe(v.string('El nonce no es válido'), v.maxLength(512, 'El nonce no es válido'))),
});

const SigninQuerySchema = v.object({ client_id: v.optional(v.string()) });

/**
 * The local stand-in for Google (development and tests only, never registered in production):
 * its JWKS, an Identity Services script, the account-chooser popup and the token endpoint.
 * Register it with the prefix the stand-in's issuer names (`/dev/google` under `/api`).
 */
export async function googleStandInRoutes(
  app: FastifyInstance,
  options: { standIn: GoogleStandIn; appName?: string },
): Promise<void> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error('The Google stand-in must never be mounted in production');
  }
  const { standIn } = options;
  const basePath = app.prefix;
  const gsiScript = renderGsiClientScript(basePath);
  const signinPage = renderSigninPage({
    basePath,
    appName: options.appName ?? 'Entreno',
    accounts: STAND_IN_DEMO_ACCOUNTS,
  });
  const invalidClientPage = renderInvalidClientPage({ basePath });

  app.get('/certs', async () => standIn.jwks());

  app.get('/gsi/client', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(gsiScript));
  app.get('/gsi/style', async (_request, reply) => reply.type('text/css; charset=utf-8').send(GSI_BUTTON_STYLES));

  app.get('/signin', async (request, reply) => {
    const query = v.safeParse(SigninQuerySchema, request.query);
    const isKnownClient = query.success && query.output.client_id === standIn.clientId;
    return reply
      .status(isKnownClient ? 200 : 401)
      .type('text/html; charset=utf-8')
      .send(isKnownClient ? signinPage : invalidClientPage);
  });
  app.get('/signin.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(SIGNIN_SCRIPT));
  app.get('/favicon.svg', async (_request, reply) => reply.type('image/svg+xml').send(STAND_IN_FAVICON));
  app.get('/signin.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(SIGNIN_STYLES));

  app.post('/token', async (request) => {
    const body = parseInput(StandInTokenRequestSchema, request.body);
    const credential = await standIn.signIdToken(
      { email: body.email, givenName: body.givenName, familyName: body.familyName, picture: body.picture },
      { nonce: body.nonce },
    );
    return { credential };
  });
}
