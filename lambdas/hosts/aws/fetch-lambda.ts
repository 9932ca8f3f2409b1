// host -> a web-standard fetch handler as a Lambda behind API Gateway (HTTP API, payload 2.0): the event
// becomes the Request the handler takes, at the public address clients use (the API's CloudFront front,
// not API Gateway's own), and its Response is read whole into the result (a Lambda's answer is buffered).
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

const toRequest = (event: APIGatewayProxyEventV2, origin: string): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (value !== undefined) headers.set(name, value);
  // API Gateway joins repeated headers with commas, except cookies, which it passes apart.
  if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  const method = event.requestContext.http.method.toUpperCase();
  const url = new URL(event.rawPath + (event.rawQueryString ? `?${event.rawQueryString}` : ''), origin);
  const body =
    event.body === undefined || method === 'GET' || method === 'HEAD'
      ? undefined
      : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return new Request(url, { method, headers, ...(body && { body: new Uint8Array(body) }) });
};

export const fetchLambda =
  (handle: (request: Request) => Promise<Response>, origin: string) =>
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const response = await handle(toRequest(event, origin));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    return {
      statusCode: response.status,
      headers,
      ...(cookies.length > 0 && { cookies }),
      body: await response.text(),
      isBase64Encoded: false,
    };
  };
