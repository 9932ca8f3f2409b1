// api -> the cookies a request carries (RFC 6265 `Cookie` header): the frame API's browser binding and
// the portal's session read them the same way.

/** The cookies a request carries, by name; a repeated name keeps its first value. */
export const readCookies = (header: string | undefined): Map<string, string> => {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
};
