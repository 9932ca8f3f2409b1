// infra -> the hosted pages' viewer-request function (CloudFront Functions, cloudfront-js-2.0), as
// lib/hosted-pages.ts deploys it: that module puts the values named __LIKE_THIS__ in and drops these
// comment lines. It resolves a path as the pages host does: `/{slug}` moves to `/{slug}/`, `/{slug}/` is
// its `index.html`, and a path that is no publication file (a malformed slug or segment, an unknown
// extension, the `withdrawn` marker) answers 404 with the plain not-found page and the security headers,
// without reaching S3. A publication file whose slug is in the key value store of withdrawn slugs
// answers 410 with the plain withdrawn page, from cache or not.
import cf from 'cloudfront';

const WITHDRAWN_SLUGS = cf.kvs();
const HEADERS = __HEADERS__;
const NOT_FOUND = __NOT_FOUND__;
const WITHDRAWN = __WITHDRAWN__;
const EXTENSIONS = __EXTENSIONS__;

const page = (statusCode, statusDescription, data) => ({
  statusCode,
  statusDescription,
  headers: HEADERS,
  body: { encoding: 'text', data },
});

const isSegment = (segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment);

// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls the function named handler.
async function handler(event) {
  const request = event.request;
  const match = /^\/([A-Za-z0-9_-]{1,128})(\/.*)?$/.exec(request.uri);
  if (!match) return page(404, 'Not Found', NOT_FOUND);
  const slug = match[1];
  const rest = match[2];
  if (rest === undefined) {
    const moved = Object.assign({}, HEADERS, { location: { value: `/${slug}/` } });
    delete moved['content-type'];
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: moved };
  }
  const path = rest === '/' ? 'index.html' : rest.slice(1);
  const valid = path.length <= 512 && path.split('/').every(isSegment);
  const dot = path.lastIndexOf('.');
  if (!valid || dot < 0 || EXTENSIONS.indexOf(path.slice(dot + 1)) < 0)
    return page(404, 'Not Found', NOT_FOUND);
  if (await WITHDRAWN_SLUGS.exists(slug)) return page(410, 'Gone', WITHDRAWN);
  request.uri = `/${slug}/${path}`;
  return request;
}
