/**
 * A known path asked with a method it does not serve answers 405 ERROR_METHOD_NOT_ALLOWED with `Allow`
 * (OPTIONS included: the engine does no CORS, the studio reaches it through its same-origin proxy).
 * Paths are recorded as routes are added, whoever adds them (our routes, swagger-ui); once all are in,
 * `addMethodNotAllowed` asks the router which methods each path serves (fastify adds some routes without
 * telling onRoute, e.g. a prefix's trailing-slash twin) and adds one route for the methods left. The 405 is
 * given before the body is parsed, so no body (JSON, XML, malformed) turns it into a 400.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** Call on the root instance before any route is registered; call the result after the last one. */
export function trackMethods(app: FastifyInstance): { addMethodNotAllowed: () => void } {
  const urls = new Set<string>();
  let sealed = false;
  app.addHook('onRoute', (route) => { if (!sealed) urls.add(route.url); });
  return {
    addMethodNotAllowed() {
      sealed = true;
      for (const url of urls) {
        const served = METHODS.filter((method) => app.hasRoute({ url, method }));
        const others = METHODS.filter((m) => !served.includes(m));
        if (others.length === 0) continue;
        const allow = served.join(', ');
        const notAllowed = (req: FastifyRequest, reply: FastifyReply) => reply.header('Allow', allow)
          .fail('ERROR_METHOD_NOT_ALLOWED', `${req.routeOptions.url} accepts ${allow}, not ${req.method}`);
        app.route({
          method: others, url, exposeHeadRoute: false, schema: { hide: true },
          // Answered before the body is parsed: a JSON, XML or malformed body (or content type) would
          // otherwise fail its parser with 400 first. Auth's key check still comes before (auth.ts puts
          // it first on every contract route); the unread body is drained by the envelope's onSend.
          onRequest: async (req, reply) => notAllowed(req, reply),
          handler: notAllowed,
        });
      }
    },
  };
}
