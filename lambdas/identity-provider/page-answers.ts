// identity provider -> how a page of a sign-in in progress answers: the page with its security headers
// (its forms allowed to reach the client's redirect address), or a redirect to another step.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BASE_SECURITY_HEADERS, pageHeaders } from './page-security';

export class PageAnswers {
  constructor(
    readonly request: IncomingMessage,
    readonly response: ServerResponse,
    /** The address the sign-in returns to, which the page's forms must be allowed to reach. */
    private readonly returnTo?: string,
  ) {}

  page(status: number, html: string, headers: Record<string, string> = {}): void {
    const formTargets = this.returnTo === undefined ? [] : [this.returnTo];
    this.response.writeHead(status, {
      ...pageHeaders({ formTargets }),
      'Content-Length': String(Buffer.byteLength(html)),
      ...headers,
    });
    this.response.end(this.request.method === 'HEAD' ? undefined : html);
  }

  seeOther(location: string, cookies: string[] = []): void {
    this.response.writeHead(303, {
      ...BASE_SECURITY_HEADERS,
      'Cache-Control': 'no-store',
      Location: location,
      ...(cookies.length > 0 && { 'Set-Cookie': cookies }),
    });
    this.response.end();
  }

  /** Security headers on the redirect oidc-provider writes itself when a step is finished. */
  beforeRedirect(): void {
    for (const [name, value] of Object.entries({ ...BASE_SECURITY_HEADERS, 'Cache-Control': 'no-store' }))
      this.response.setHeader(name, value);
  }
}
