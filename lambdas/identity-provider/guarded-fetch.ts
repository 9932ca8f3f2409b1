// identity provider -> the one way oidc-provider fetches anything a client names (its `fetch` setting):
// client ID metadata documents, and any other address in a client's metadata. Anyone can name one, so
// this is an SSRF guard, as the webhook sender's is: https only, the host resolved and refused if any of
// its addresses is not public (loopback, private, link-local, the cloud metadata address…), and the
// connection made to the checked address itself, so a name that resolves elsewhere a moment later (DNS
// rebinding) cannot steer it. No redirects are followed. (oidc-provider's own guard, which hangs up on
// special-use addresses after connecting, let a TLS handshake reach a loopback listener in the tests.)
import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressRefusal, hostAddress } from '../core/webhooks/target';

/** Every address a host name resolves to. */
export type Resolve = (hostname: string) => Promise<string[]>;

const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The addresses a URL's host may be reached at, all public; throws naming what is refused. */
const checkedAddresses = async (url: URL, resolve: Resolve): Promise<string[]> => {
  if (url.protocol !== 'https:') throw new Error(`${url.origin} is not https`);
  const literal = hostAddress(url);
  const addresses = literal === null ? await resolve(url.hostname) : [literal];
  if (addresses.length === 0) throw new Error(`${url.hostname} resolves to no address`);
  for (const address of addresses) {
    const refusal = addressRefusal(address);
    if (refusal !== null) throw new Error(`${url.hostname} resolves to ${refusal}`);
  }
  return addresses;
};

/** oidc-provider's `fetch` setting: `fetch(url, init)` answering a web Response, through the guard. */
export const guardedFetch =
  (resolve: Resolve = systemResolve) =>
  async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const addresses = await checkedAddresses(url, resolve);
    const pinned: LookupFunction = (_hostname, options, callback) => {
      const [address] = addresses as [string];
      if (options.all) callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
      else callback(null, address, address.includes(':') ? 6 : 4);
    };
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    return new Promise<Response>((resolveResponse, reject) => {
      const outgoing = request(
        url,
        { method: init.method ?? 'GET', headers, lookup: pinned, signal: init.signal ?? undefined },
        (incoming) => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers))
            for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
          // The body as it arrives: oidc-provider reads it with its own size limit.
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              incoming.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
              incoming.on('end', () => controller.close());
              incoming.on('error', (error) => controller.error(error));
            },
            cancel() {
              incoming.destroy();
            },
          });
          const status = incoming.statusCode ?? 502;
          const nullBody = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD';
          resolveResponse(new Response(nullBody ? null : body, { status, headers: answerHeaders }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(typeof init.body === 'string' ? init.body : undefined);
    });
  };
