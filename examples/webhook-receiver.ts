// examples -> a webhook receiver that checks every delivery's signature (Standard Webhooks, through the
// typed client's re-export of `standardwebhooks`) before it trusts the body, as the README's walk-through
// runs it beside `ops listen`: `WEBHOOK_SECRET=whsec_… npx tsx examples/webhook-receiver.ts`.
import { createServer } from 'node:http';
import { Webhook } from '../clients/typescript/src/webhooks';

const port = Number(process.env.EXAMPLE_WEBHOOK_PORT ?? Number(process.env.PORT_BASE ?? 3000) + 21);
const webhook = new Webhook(process.env.WEBHOOK_SECRET ?? '');

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      // The raw body as it came: a parsed and re-serialised body would not match its signature.
      const event = webhook.verify(
        Buffer.concat(chunks).toString('utf8'),
        request.headers as Record<string, string>,
      ) as {
        type: string;
      };
      console.log(`verified ${event.type} ${request.headers['webhook-id']}`);
      response.writeHead(204).end();
    } catch {
      console.log('refused: the signature does not verify');
      response.writeHead(400).end();
    }
  });
}).listen(port, '127.0.0.1', () => console.log(`Receiving webhooks at http://127.0.0.1:${port}/webhooks`));
