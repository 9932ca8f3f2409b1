// test support -> the AWS SDK's clients with their HTTP handler faked: each request is recorded and
// answered with the next of the given answers, so a test sees what an adapter sends and how it reads the
// answers, with nothing on the network (the adapter's edge, where AWS itself cannot run here).

/** A request as the SDK hands it to its HTTP handler (the parts the tests read). */
export type SentRequest = {
  method: string;
  hostname: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body?: string | Uint8Array;
};

export type Answer = { status: number; headers?: Record<string, string>; body?: string };

/** Client settings answering with `answers` in turn, signed with fixed test credentials, never retried. */
export const fakeSdkEdge = (...answers: Answer[]) => {
  const requests: SentRequest[] = [];
  const requestHandler = {
    handle: async (request: SentRequest) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error('no answer left');
      const body = new TextEncoder().encode(answer.body ?? '');
      return { response: { statusCode: answer.status, headers: answer.headers ?? {}, body } };
    },
  };
  return {
    requests,
    options: {
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session-token' },
      requestHandler,
      maxAttempts: 1,
    },
  };
};

/** A request's body as text. */
export const bodyText = (body: SentRequest['body']): string =>
  typeof body === 'string' ? body : new TextDecoder().decode(body ?? new Uint8Array());
