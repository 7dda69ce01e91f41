/**
 * `npm run webhook-receiver`: a local webhook receiver for trying webhooks against `npm start`.
 * Prints every request it gets and, given the webhook's secret, whether its Bearer token and its
 * Standard Webhooks signature check out (verified with the `standardwebhooks` library).
 *
 *   RECEIVER_PORT=4000          where to listen (127.0.0.1)
 *   WEBHOOK_SECRET=whsec_…      the secret from POST /webhooks (or /rotate) to verify with
 *   RECEIVER_STATUS=204         the status to answer with (try 500 to watch the retries, 410 to be disabled)
 */
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const port = Number(process.env.RECEIVER_PORT ?? 4000);
const secret = process.env.WEBHOOK_SECRET;
const status = Number(process.env.RECEIVER_STATUS ?? 204);

createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const headers = {
      'webhook-id': String(req.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
    };
    let check = '(set WEBHOOK_SECRET to verify)';
    if (secret) {
      const bearer = req.headers.authorization === `Bearer ${secret}`;
      let signed = false;
      try {
        new Webhook(secret).verify(body, headers);
        signed = true;
      } catch {
        signed = false;
      }
      check = `bearer ${bearer ? 'ok' : 'WRONG'}, signature ${signed ? 'ok' : 'WRONG'}`;
    }
    console.log(`${new Date().toISOString()} ${req.method} ${req.url} webhook-id=${headers['webhook-id']} ${check}\n  ${body}`);
    res.writeHead(status).end();
  });
}).listen(port, '127.0.0.1', () => console.log(`Webhook receiver on http://127.0.0.1:${port}/hook, answering ${status}`));
