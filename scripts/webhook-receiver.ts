/**
 * `npm run webhook-receiver`: a local webhook receiver for trying webhooks against `npm start`, and
 * a sample of what a real receiver must do: it answers 401 to a delivery whose Bearer token or
 * Standard Webhooks signature (verified with the `standardwebhooks` library, which also refuses a
 * `webhook-timestamp` more than 5 minutes from now) does not check out, and prints every request.
 *
 *   WEBHOOK_SECRET=whsec_…      required: the secret from POST /webhooks (restart with the new one after /rotate)
 *   RECEIVER_PORT=4000          where to listen (127.0.0.1)
 *   RECEIVER_STATUS=204         the status for verified deliveries; once the webhook is enabled, try 500 to
 *                               watch the retries or 410 to have it disabled (before, it fails the enable step)
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error('✖ Set WEBHOOK_SECRET to the webhook secret (whsec_…) that POST /webhooks or /rotate showed.');
  process.exit(1);
}
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const status = Number(process.env.RECEIVER_STATUS ?? 204);
const verifier = new Webhook(secret);
const expectedAuthorization = Buffer.from(`Bearer ${secret}`);

/** Constant-time, so the comparison does not tell an attacker how much of a guess was right. */
function bearerMatches(authorization: string | undefined): boolean {
  const given = Buffer.from(authorization ?? '');
  return given.length === expectedAuthorization.length && timingSafeEqual(given, expectedAuthorization);
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // Verify the raw body exactly as received: re-serialised JSON would not match the signature.
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(req.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
    };
    const bearer = bearerMatches(req.headers.authorization);
    let signed = false;
    try {
      verifier.verify(body, headers);
      signed = true;
    } catch {
      signed = false;
    }
    const accepted = bearer && signed;
    const answer = accepted ? status : 401;
    console.log(
      `${new Date().toISOString()} ${req.method} ${req.url} webhook-id=${headers['webhook-id']} ` +
        `bearer ${bearer ? 'ok' : 'WRONG'}, signature ${signed ? 'ok' : 'WRONG'} → ${answer}${accepted ? '' : ' (rejected)'}\n  ${body}`,
    );
    res.writeHead(answer).end();
  });
}).listen(port, '127.0.0.1', () =>
  console.log(`Webhook receiver on http://127.0.0.1:${port}/hook, answering ${status} to verified deliveries`),
);
