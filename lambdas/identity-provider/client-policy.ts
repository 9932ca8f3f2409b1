// identity provider -> the service's rules on what any client (registered dynamically, static, or later
// described by a client ID metadata document) may say about itself, checked whenever oidc-provider reads
// a client. Where it may have a person's browser sent: an https address, an http address on this
// machine's loopback (a native or command-line client's own listener), or an app's own scheme
// (`com.example.app:/callback`; oidc-provider lets only native clients use one). Plain http to another
// host would carry codes in the clear. oidc-provider checks the rest (exact matching, no fragments, the
// native and web rules). And its name: none but the service's own clients may call themselves after one
// of them (`Developer portal`, `Back office`), however the name is spelt: case, spaces, punctuation and
// look-alike letters (Unicode's confusables: Cyrillic `е`, digit `1` for `l`) make no difference.
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import unhomoglyph from 'unhomoglyph';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The client metadata the redirect rule applies to. */
const REDIRECT_METADATA = ['redirect_uris', 'post_logout_redirect_uris'] as const;

export const isAllowedRedirect = (uri: string): boolean => {
  const url = URL.parse(uri);
  if (!url) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return true;
};

/** The names of the service's own clients, which no other client may take or imitate. */
export const OWN_CLIENT_NAMES = ['Developer portal', 'Back office'] as const;

/** The client metadata the rules apply to (`extraClientMetadata.properties`). */
export const CHECKED_METADATA = [...REDIRECT_METADATA, 'client_name'] as const;

/**
 * What a name looks like, whatever its case, spacing, punctuation and look-alike letters: its letters and
 * digits mapped to Unicode's prototypes (confusables), both before and after lower-casing (upper-case
 * `I` looks like `l`, lower-case `i` does not).
 */
const looks = (name: string): string[] => {
  const text = name.normalize('NFKC');
  const lettersOnly = (folded: string) => unhomoglyph(folded).replace(/[^\p{L}\p{N}]/gu, '');
  return [lettersOnly(unhomoglyph(text).toLowerCase()), lettersOnly(text.toLowerCase())];
};

/** Whether `name` imitates one of `ownNames`: looks like one of them, or contains one. */
export const imitatesOwnClient = (name: string, ownNames: readonly string[]): boolean => {
  const forms = looks(name);
  return ownNames.some((own) => looks(own).some((ownForm) => forms.some((form) => form.includes(ownForm))));
};

/**
 * `extraClientMetadata.validator`, called for each of `CHECKED_METADATA` whenever a client is read. The
 * service's own clients (`firstPartyIds`) may bear their names; any other is refused one like them.
 */
export const clientMetadataRules =
  (firstPartyIds: ReadonlySet<string>, ownNames: readonly string[]) =>
  (
    _ctx: KoaContextWithOIDC | undefined,
    key: string,
    value: unknown,
    metadata: { client_id?: unknown },
  ): void => {
    if (key === 'client_name') {
      const own = typeof metadata.client_id === 'string' && firstPartyIds.has(metadata.client_id);
      if (!own && typeof value === 'string' && imitatesOwnClient(value, ownNames))
        throw new errors.InvalidClientMetadata(
          "client_name is too like the name of one of this service's own applications; choose another",
        );
      return;
    }
    if (!Array.isArray(value)) return;
    const refused = value.find((uri) => typeof uri === 'string' && !isAllowedRedirect(uri));
    if (refused !== undefined)
      throw new errors.InvalidRedirectUri(
        `${key} must be https addresses, http addresses on a loopback host (127.0.0.1, [::1], localhost), or an app's own scheme`,
      );
  };
