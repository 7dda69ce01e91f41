/**
 * `npm run webhook-receiver`: a local webhook receiver for trying webhooks against `npm start`, and
 * a sample of what a real receiver must do: it answers 401 to a delivery whose Bearer token or
 * Standard Webhooks signature (verified with the `standardwebhooks` library, which also refuses a
 * `webhook-timestamp` more than 5 minutes from now) does not check out, and prints every request.
 *
 *   WEBHOOK_SECRET=whsec_…      the secret from POST /webhooks (restart with the new one after /rotate). Without
 *                               it the receiver starts anyway and takes the secret from `PUT /secret`
 *                               ({"secret":"whsec_…"}), which the Postman collection sends after it creates or
 *                               rotates its webhook; until then it answers 401 to every delivery.
 *   RECEIVER_PORT=4000          where to listen (127.0.0.1)
 *   RECEIVER_STATUS=204         the status for verified deliveries; once the webhook is enabled, try 500 to
 *                               watch the retries or 410 to have it disabled (before, it fails the enable step)
 *
 * A real receiver keeps its secret in its own configuration, as WEBHOOK_SECRET does here: `PUT /secret`
 * exists only so a collection run can hand over a secret it is shown mid-run. It listens on 127.0.0.1
 * only, takes the secret only as `application/json` (which a web page cannot send to another origin
 * without a CORS preflight, and this server answers none) with a `Host` of this machine (so a
 * DNS-rebinding page cannot either), and never when WEBHOOK_SECRET was given.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

const fixedSecret = process.env.WEBHOOK_SECRET;
if (fixedSecret !== undefined && !fixedSecret.startsWith('whsec_')) {
  console.error('✖ WEBHOOK_SECRET must be the webhook secret (whsec_…) that POST /webhooks or /rotate showed.');
  process.exit(1);
}
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const status = Number(process.env.RECEIVER_STATUS ?? 204);

interface Verifier {
  webhook: Webhook;
  authorization: Buffer;
}
const verifierOf = (secret: string): Verifier => ({ webhook: new Webhook(secret), authorization: Buffer.from(`Bearer ${secret}`) });
let verifier: Verifier | null = fixedSecret ? verifierOf(fixedSecret) : null;

/** Constant-time, so the comparison does not tell an attacker how much of a guess was right. */
function bearerMatches(authorization: string | undefined): boolean {
  if (!verifier) return false;
  const given = Buffer.from(authorization ?? '');
  return given.length === verifier.authorization.length && timingSafeEqual(given, verifier.authorization);
}

function verifyDelivery(req: IncomingMessage, res: ServerResponse, body: string): void {
  // Verify the raw body exactly as received: re-serialised JSON would not match the signature.
  const headers = {
    'webhook-id': String(req.headers['webhook-id'] ?? ''),
    'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
    'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
  };
  const bearer = bearerMatches(req.headers.authorization);
  let signed = false;
  try {
    verifier?.webhook.verify(body, headers);
    signed = verifier !== null;
  } catch {
    signed = false;
  }
  const accepted = bearer && signed;
  const answer = accepted ? status : 401;
  const why = verifier ? '' : ' (no secret yet: set WEBHOOK_SECRET or PUT /secret)';
  console.log(
    `${new Date().toISOString()} ${req.method} ${req.url} webhook-id=${headers['webhook-id']} ` +
      `bearer ${bearer ? 'ok' : 'WRONG'}, signature ${signed ? 'ok' : 'WRONG'} → ${answer}${accepted ? '' : ` (rejected)${why}`}\n  ${body}`,
  );
  res.writeHead(answer).end();
}

const LOCAL_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/** The verifier for the secret a `PUT /secret` hands over, or why it is refused. */
function verifierFrom(req: IncomingMessage, body: string): Verifier | { refused: number; message: string } {
  if (fixedSecret) return { refused: 409, message: 'This receiver was started with WEBHOOK_SECRET, which it keeps.' };
  if (!LOCAL_HOST.test(req.headers.host ?? '')) return { refused: 403, message: 'Only a client on this machine may set the secret.' };
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
    return { refused: 415, message: 'Send {"secret":"whsec_…"} as application/json.' };
  }
  try {
    const { secret } = JSON.parse(body) as { secret?: unknown };
    if (typeof secret === 'string' && secret.startsWith('whsec_')) return verifierOf(secret);
  } catch {
    // Not JSON, or not base64 after whsec_: refused below.
  }
  return { refused: 400, message: 'Send {"secret":"whsec_…"}: a webhook secret.' };
}

function takeSecret(req: IncomingMessage, res: ServerResponse, body: string): void {
  const given = verifierFrom(req, body);
  if ('refused' in given) {
    console.log(`${new Date().toISOString()} PUT /secret refused (${given.refused}): ${given.message}`);
    res.writeHead(given.refused, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${given.message}\n`);
    return;
  }
  verifier = given;
  console.log(`${new Date().toISOString()} PUT /secret: verifying with the new secret from now on`);
  res.writeHead(204).end();
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method === 'PUT' && req.url === '/secret') takeSecret(req, res, body);
    else verifyDelivery(req, res, body);
  });
}).listen(port, '127.0.0.1', () =>
  console.log(
    `Webhook receiver on http://127.0.0.1:${port}/hook, answering ${status} to verified deliveries` +
      (verifier ? '' : `; no secret yet: it verifies with the one PUT to http://127.0.0.1:${port}/secret`),
  ),
);
