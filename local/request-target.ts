// local -> the target of a request line as a URL of this host. `new URL(target, base)` reads a target
// that starts with `//` as another host's address (`//evil.com/v1/clients` is `/v1/clients` on evil.com,
// and a host it cannot read throws), while the target of a request to a server is always a path here.
export const requestTarget = (target: string | undefined): URL => {
  const raw = target ?? '/';
  const queryAt = raw.indexOf('?');
  const url = new URL('http://localhost/');
  url.pathname = queryAt === -1 ? raw : raw.slice(0, queryAt);
  if (queryAt !== -1) url.search = raw.slice(queryAt);
  return url;
};
